"""SQLite: every table as its setup, its seats' tokens, its deals' seeds and its action list.

An action is written in the same transaction as what it changes (a settled deal's deck count and
the next deal's commitment), and the transaction commits before anybody is told of the action, so a
server killed at any moment (``kill -9`` included) restarts with every table exactly where its players
last saw it.  The database runs in WAL mode with ``synchronous=NORMAL``: a commit is in the log before
anybody hears of the action, so a killed process loses nothing; only a power cut or an operating-system
crash could lose the last moments (docs/serve.md).  The store is checkpointed and closed when the server
stops; a backup is ``khrap serve --db FILE --backup COPY`` (or ``sqlite3 FILE ".backup COPY"``) while it
runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from khrap.bots import strength_word
from khrap.web.table import Deal, SeatState, Table

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, setup TEXT NOT NULL, spectator TEXT NOT NULL,
                                   created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, human INTEGER NOT NULL,
                                  bot TEXT, token TEXT NOT NULL UNIQUE, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS deals (table_id TEXT NOT NULL, number INTEGER NOT NULL, seed TEXT NOT NULL,
                                  commitment TEXT NOT NULL, started INTEGER NOT NULL DEFAULT 0, decks INTEGER,
                                  PRIMARY KEY (table_id, number));
CREATE TABLE IF NOT EXISTS actions (table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
                                    text TEXT NOT NULL, by TEXT NOT NULL, PRIMARY KEY (table_id, n)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS activity (table_id TEXT PRIMARY KEY, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS hosts (table_id TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS revoked (token TEXT PRIMARY KEY, table_id TEXT NOT NULL, seat INTEGER NOT NULL,
                                    why TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS names (table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
                                  PRIMARY KEY (table_id, seat)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tables_after ON tables (CASE WHEN json_valid(setup) THEN json_extract(setup, '$.after') END);
CREATE INDEX IF NOT EXISTS tables_spectator ON tables (spectator, id);
CREATE INDEX IF NOT EXISTS tables_created ON tables (created, id);
"""
# ``actions`` WITHOUT ROWID: the rows kept in their key's own B-tree, so an action's commit writes one page to the
# write-ahead log, not two (the table's and its key's index): a third less processor time a commit (issue 32; a
# file made before keeps its rowid table, read and written the same way).
# ``hosts``: the host's token of each table (tables made before it have none); ``revoked``: the links that
# no longer play their seat (the host gave it to a bot or to a new link, or its player left), and why.
# ``names``: what each seat's player calls himself (a table rebuilt after it left memory, or after a restart,
# said "Seat 2 wins" of Вера's evening, and "Bot 1" of the bot playing Boris's seat after he left).
# ``tables_after``: the table a finished one's "play again" made, found by an index on the setup's ``after``,
# so a server starting on 10,000 archived tables reads none of their setups (issue 32); ``tables_spectator`` and
# ``tables_created`` let the start read the spectators' tokens and the tables' ages without the setups' pages.


TOUCH_SECONDS = 60.0
"""How often an action stores its table's time of activity (``abandoned``): at most once this often a table,
so most actions are one statement; the expiry counts in days, so a minute late says the same."""


class Lost(Exception):
    """A write of the turn's transaction failed and the transaction was rolled back: ``tables`` were written
    in it (their actions and deals begun since the last commit are not stored)."""

    def __init__(self, tables: list[Table]) -> None:
        super().__init__(f"{len(tables)} tables' writes rolled back")
        self.tables = tables


class StoreError(Exception):
    """The database cannot be used (read-only, full, not a database): one sentence naming the file."""


class Store:
    """The tables of one server in one SQLite file (``:memory:`` for tests)."""

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the file and prove it can be written: a read-only, full or broken database
        is refused here (StoreError) rather than failing every table's first write later."""
        self.path = str(path)
        self.db: sqlite3.Connection | None = None
        self._checkpoints: tuple[threading.Event, threading.Thread] | None = None
        self._touched: dict[str, float] = {}  # table id -> when its activity was last stored (``acted``)
        self.grouped: int | None = None  # ``group``: the thread whose writes of a turn are one transaction
        self._batch: dict[str, Table] = {}  # the tables written in the open group transaction
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: a killed process loses nothing committed
            self.db.executescript(SCHEMA)
            with self._tx() as db:
                db.execute("INSERT INTO meta VALUES ('opened', ?) ON CONFLICT (key) DO UPDATE SET "
                           "value = excluded.value", (str(time.time()),))
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: the database cannot be written ({err}); khrap serve needs a writable "
                             "file in a writable directory, with space") from None

    def checkpoint_apart(self, every: float = 1.0) -> None:
        """Copy the write-ahead log into the file from a thread of its own, every ``every`` seconds, instead of
        in the commit that fills it: a checkpoint waits for the disk (``fsync``), up to a second on a busy
        one, and every table waited with it (issue 32).  A commit is in the log either way, so a killed
        process loses nothing; ``close`` stops the thread."""
        if self.path == ":memory:" or self._checkpoints is not None:
            return
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        stop = threading.Event()

        def run() -> None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            try:
                while not stop.wait(every):
                    with contextlib.suppress(sqlite3.Error):  # (busy, or a full disk: the next one tries again)
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                conn.close()

        thread = threading.Thread(target=run, name="khrap-checkpoints", daemon=True)
        thread.start()
        self._checkpoints = (stop, thread)

    def close(self) -> None:
        """Checkpoint the write-ahead log into the file and close it (a copy of a stopped server's file
        is then the whole database); closing twice is harmless."""
        if self._checkpoints is not None:
            stop, thread = self._checkpoints
            stop.set()
            thread.join()
            self._checkpoints = None
        if self.db is None:
            return
        self.commit()  # (the turn's writes, if any wait: the server commits them first)
        with contextlib.suppress(sqlite3.Error):  # a read-only file: closing still releases it
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
        self.db = None

    def backup(self, target: str | Path) -> None:
        """A consistent copy of the database at ``target`` (SQLite's online backup: tables keep playing)."""
        copy = sqlite3.connect(str(target))
        try:
            self.db.backup(copy)
        finally:
            copy.close()

    def _tx(self):
        """A transaction of its own, after the turn's (``group``) is committed (the host commits it first)."""
        if self._batch:
            lost = self.commit()
            if lost:
                raise Lost(lost)
        return _Transaction(self.db)

    def add(self, table: Table) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO tables (id, setup, spectator, created) VALUES (?, ?, ?, ?)",
                       (table.id, json.dumps(table.setup), table.spectator_token, time.time()))
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                           [(table.id, i, int(s.human), s.bot, s.token) for i, s in enumerate(table.seats)])
            if table.host_token is not None:
                db.execute("INSERT INTO hosts VALUES (?, ?)", (table.id, table.host_token))
            db.executemany("INSERT INTO names VALUES (?, ?, ?)",  # ("play again": the names of the seats before)
                           [(table.id, i, s.name) for i, s in enumerate(table.seats) if s.name])
            self._deals(db, table)
        table.stored_deals = _deals_now(table)

    def reseat(self, table: Table, seat: int, old_token: str) -> None:
        """Seat ``seat`` changed hands (``Table.reseat``): its new state, and its old link revoked."""
        st = table.seats[seat]
        with self._tx() as db:
            db.execute("UPDATE seats SET human = ?, bot = ?, token = ? WHERE table_id = ? AND seat = ?",
                       (int(st.human), st.bot, st.token, table.id, seat))
            db.execute("INSERT INTO revoked VALUES (?, ?, ?, ?, ?)", (old_token, table.id, seat, st.why, time.time()))
            self._touch(db, table)

    def named(self, table: Table, seat: int) -> None:
        """Seat ``seat``'s player gave a new name (in the turn's transaction when writes are grouped)."""
        def write(db: sqlite3.Connection, table: Table) -> None:
            db.execute("INSERT INTO names VALUES (?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET "
                       "name = excluded.name", (table.id, seat, table.seats[seat].name))

        if self.grouped == threading.get_ident():
            self._join(table, write)
            return
        with self._tx() as db:
            write(db, table)

    def revoked(self, token: str) -> tuple[str, int, str] | None:
        """(table id, seat, why) of a link that no longer plays its seat; None for any other text."""
        row = self.db.execute("SELECT table_id, seat, why FROM revoked WHERE token = ?", (token,)).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def host_tokens(self) -> dict[str, str]:
        """Every table's host token: token -> table id."""
        return {token: tid for tid, token in self.db.execute("SELECT table_id, token FROM hosts")}

    def _touch(self, db: sqlite3.Connection, table: Table) -> None:
        self._touched[table.id] = now = time.time()
        db.execute("INSERT INTO activity VALUES (?, ?) ON CONFLICT (table_id) DO UPDATE SET at = excluded.at",
                   (table.id, now))

    @staticmethod
    def _deals(db: sqlite3.Connection, table: Table) -> None:
        db.executemany(
            "INSERT INTO deals VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, number) DO UPDATE SET "
            "started = excluded.started, decks = excluded.decks",
            [(table.id, d.number, d.seed, d.commitment, int(d.started), d.decks) for d in table.deals[-2:]])

    def started(self, table: Table) -> None:
        """A deal was begun (its ante paid and its cards dealt)."""
        if self.grouped == threading.get_ident():
            self._join(table, self._started_rows)
            return
        with self._tx() as db:
            self._started_rows(db, table)
        table.stored_deals = _deals_now(table)

    def _started_rows(self, db: sqlite3.Connection, table: Table) -> None:
        self._deals(db, table)
        self._touch(db, table)

    def acted(self, table: Table) -> None:
        """The table's last action, with whatever it settled, in one transaction (the deals' rows only when
        the action changed them: a settled deal's deck count, the next deal's commitment)."""
        if self.grouped == threading.get_ident():
            self._join(table, self._acted_rows)
            return
        if table.stored_deals == _deals_now(table) and time.time() - self._touched.get(table.id, 0.0) < TOUCH_SECONDS:
            # Most actions: one statement, its own transaction (autocommit), committed when it returns.
            seat, text, by = table.actions[-1]
            self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                            (table.id, len(table.actions), seat, text, by))
            return
        with self._tx() as db:
            self._acted_rows(db, table)
        table.stored_deals = _deals_now(table)

    def _acted_rows(self, db: sqlite3.Connection, table: Table) -> None:
        """The action's row; the deals' rows if it changed them, and the time of activity with them or when due."""
        seat, text, by = table.actions[-1]
        db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", (table.id, len(table.actions), seat, text, by))
        changed = table.stored_deals != _deals_now(table)
        if changed:
            self._deals(db, table)
        if changed or time.time() - self._touched.get(table.id, 0.0) >= TOUCH_SECONDS:
            self._touch(db, table)

    # ------------------------------------------------------------ a turn's writes together
    def group(self, on: bool = True) -> list[Table]:
        """Write the actions and deals begun of a turn of the server's loop in one transaction (``acted`` and
        ``started`` join it; ``commit`` ends it), instead of one transaction each: a commit is most of what
        storing an action costs (the log's pages written, its locks taken and released: some 30 µs of processor
        time an action at 100 busy tables, issue 32).  The server commits before it writes anything to anybody
        (``khrap.web.wire``, the app's HTTP responses), so nobody hears of an action before it is stored.
        ``on`` False: what is open is committed (its lost tables returned, as ``commit``), then each write is
        its own transaction again.  Only the writes of the thread that turns it on are grouped (the server's loop):
        another thread's (a test driving the host) commit at once, as before."""
        lost = self.commit()
        self.grouped = threading.get_ident() if on else None
        return lost

    @property
    def pending(self) -> bool:
        """Whether writes wait for ``commit``."""
        return bool(self._batch)

    def _join(self, table: Table, write: Callable[[sqlite3.Connection, Table], None]) -> None:
        """``write`` in the turn's transaction (begun by the first write of the turn).  If it fails, the whole
        transaction is rolled back and :class:`Lost` names every table written in it."""
        if not self._batch:
            self.db.execute("BEGIN IMMEDIATE")
        self._batch[table.id] = table
        try:
            write(self.db, table)
        except Exception as err:
            raise Lost(self._rollback()) from err
        table.stored_deals = _deals_now(table)  # (None again if the commit fails: ``_rollback``)

    def commit(self) -> list[Table]:
        """Commit the turn's transaction, if one is open: [] once stored; if the commit fails, it is rolled back
        and the tables written in it are returned (they are ahead of the store: the caller reloads them)."""
        if not self._batch:
            return []
        try:
            self.db.execute("COMMIT")
        except Exception:
            logging.getLogger("khrap.web").exception("a turn's actions could not be stored")
            return self._rollback()
        self._batch = {}
        return []

    def _rollback(self) -> list[Table]:
        lost, self._batch = list(self._batch.values()), {}
        with contextlib.suppress(sqlite3.Error):  # (an I/O error may have rolled it back already)
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
        for table in lost:
            table.stored_deals = None  # (not known: the next write stores the deals' rows again)
            self._touched.pop(table.id, None)
        return lost

    def tokens(self) -> dict[str, tuple[str, int | None]]:
        """Every table's invite tokens without loading any table: token -> (table id, seat or None)."""
        found: dict[str, tuple[str, int | None]] = {
            token: (tid, seat) for token, tid, seat in self.db.execute("SELECT token, table_id, seat FROM seats")}
        found.update({token: (tid, None) for token, tid in self.db.execute("SELECT spectator, id FROM tables")})
        return found

    def setup(self, tid: str) -> dict | None:
        """A table's setup (its rules among it) without rebuilding its game; None if there is no such table."""
        row = self.db.execute("SELECT setup FROM tables WHERE id = ?", (tid,)).fetchone()
        return None if row is None else json.loads(row[0])

    def rematch_of(self, tid: str) -> str | None:
        """The table that finished table ``tid``'s "play again" made, if any (no table loaded)."""
        row = self.db.execute("SELECT id FROM tables WHERE (CASE WHEN json_valid(setup) THEN "
                              "json_extract(setup, '$.after') END) = ? LIMIT 1", (tid,)).fetchone()
        return None if row is None else row[0]

    def abandoned(self, before: float, among: list[str] | None = None) -> list[str]:
        """Tables not finished (their last deal is not settled) where nothing happened since ``before``
        (a Unix time): no action, no deal begun, not created; of the tables ``among`` only, if given."""
        return _abandoned(self.db, before, among)

    def abandoned_apart(self, before: float) -> list[str]:
        """``abandoned`` read on a connection of its own, so any thread may ask (at 10,000 tables the query
        takes 0.1 s or more: ``khrap serve`` asks in a thread, then checks each table again as it deletes it)."""
        if self.path == ":memory:":
            return self.abandoned(before)
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            return _abandoned(conn, before, None)
        finally:
            conn.close()

    def delete(self, tid: str) -> list[str]:
        """A table and everything stored of it, gone; the links it had (its seats', spectators' and host's)."""
        self._touched.pop(tid, None)
        with self._tx() as db:
            links = [token for (token,) in db.execute(
                "SELECT token FROM seats WHERE table_id = ?1 UNION ALL SELECT spectator FROM tables WHERE id = ?1 "
                "UNION ALL SELECT token FROM hosts WHERE table_id = ?1", (tid,))]
            for table, key in (("actions", "table_id"), ("deals", "table_id"), ("seats", "table_id"),
                               ("activity", "table_id"), ("hosts", "table_id"), ("revoked", "table_id"),
                               ("names", "table_id"), ("tables", "id")):
                db.execute(f"DELETE FROM {table} WHERE {key} = ?", (tid,))
        return links

    def ids(self) -> list[str]:
        """Every table's id, oldest first."""
        return [tid for (tid,) in self.db.execute("SELECT id FROM tables ORDER BY created")]

    def load_all(self, **kwargs) -> list[Table]:
        """Every table, each rebuilt from its setup and actions."""
        return [self.load(tid, **kwargs) for tid in self.ids()]

    def load(self, tid: str, **kwargs) -> Table:
        """One table as stored, rebuilt from its setup and actions."""
        return self.rebuild(self.rows(tid), **kwargs)

    def rows(self, tid: str) -> Stored:
        """What the store holds of table ``tid``; LookupError if there is no such table."""
        return _rows(self.db, tid)

    def rows_apart(self, tid: str) -> Stored:
        """``rows`` read on a connection of its own, in one read transaction (a consistent snapshot while the
        server writes on), so any thread may do it: a 200-deal evening's 10,000 actions take 25 to 35 ms to read.
        (A database in memory has no other connection: read on the store's own.)"""
        if self.path == ":memory:":
            return self.rows(tid)
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            conn.execute("BEGIN")
            return _rows(conn, tid)
        finally:
            conn.close()

    def version(self, tid: str) -> tuple:
        """What changes in the store whenever table ``tid`` is played (an action, a deal begun or settled, a
        seat handed over): rows read before and after a rebuild with the same version are the same."""
        return _version(self.db, tid)

    @staticmethod
    def rebuild(stored: Stored, **kwargs) -> Table:
        """The table the rows ``stored`` hold, its game replayed: no database read, so any thread may do it (a
        long evening's replay takes a tenth of a second or more: ``khrap serve`` does it off its event loop)."""
        # a table stored before the strengths' words: its old bot names are said as their strengths
        seats = [SeatState(human=h, bot=b and strength_word(b), token=t) for h, b, t in stored.seats]
        deals = [Deal(n, s, c, bool(st), d) for n, s, c, st, d in stored.deals]
        for seat, why in stored.revoked:
            if 0 <= seat < len(seats):
                seats[seat].why = why  # the seat's last change of hands
        for seat, name in stored.names:
            if 0 <= seat < len(seats):
                seats[seat].name = name
        table = Table.restore(stored.tid, json.loads(stored.setup), seats, stored.spectator, deals,
                              [(s, t, b) for s, t, b in stored.actions], **kwargs)
        table.reseats = len(stored.revoked)
        table.host_token = stored.host_token
        return table


@dataclasses.dataclass(frozen=True)
class Stored:
    """A table's rows as read from the store (``Store.rows``), to be rebuilt into a table (``Store.rebuild``)."""

    tid: str
    setup: str
    spectator: str
    seats: list[tuple[bool, str | None, str]]
    deals: list[tuple]
    actions: list[tuple[int, str, str]]
    revoked: list[tuple[int, str]]
    host_token: str | None
    version: tuple  # ``Store.version`` when read
    names: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # (seat, its player's name)


def _rows(db: sqlite3.Connection, tid: str) -> Stored:
    row = db.execute("SELECT setup, spectator FROM tables WHERE id = ?", (tid,)).fetchone()
    if row is None:
        raise LookupError(f"no table {tid}")
    setup, spectator = row
    seats = [(bool(h), b, t) for h, b, t in db.execute(
        "SELECT human, bot, token FROM seats WHERE table_id = ? ORDER BY seat", (tid,))]
    deals = db.execute("SELECT number, seed, commitment, started, decks FROM deals WHERE table_id = ? "
                       "ORDER BY number", (tid,)).fetchall()
    actions = db.execute("SELECT seat, text, by FROM actions WHERE table_id = ? ORDER BY n", (tid,)).fetchall()
    revoked = db.execute("SELECT seat, why FROM revoked WHERE table_id = ? ORDER BY at", (tid,)).fetchall()
    row = db.execute("SELECT token FROM hosts WHERE table_id = ?", (tid,)).fetchone()
    names = db.execute("SELECT seat, name FROM names WHERE table_id = ?", (tid,)).fetchall()
    return Stored(tid, setup, spectator, seats, deals, actions, revoked, None if row is None else row[0],
                  _version(db, tid), names)


def _abandoned(db: sqlite3.Connection, before: float, among: list[str] | None) -> list[str]:
    only = "" if among is None else f" AND t.id IN ({', '.join('?' * len(among))})"
    return [tid for (tid,) in db.execute(
        "SELECT t.id FROM tables t LEFT JOIN activity a ON a.table_id = t.id "
        "WHERE coalesce(a.at, t.created) < ? AND (SELECT d.decks FROM deals d WHERE d.table_id = t.id "
        "ORDER BY d.number DESC LIMIT 1) IS NULL" + only, (before, *(among or ())))]


def _version(db: sqlite3.Connection, tid: str) -> tuple:
    return db.execute(
        "SELECT (SELECT count(*) FROM actions WHERE table_id = ?1), (SELECT count(*) FROM deals WHERE "
        "table_id = ?1 AND started), (SELECT count(decks) FROM deals WHERE table_id = ?1), "
        "(SELECT count(*) FROM revoked WHERE table_id = ?1), (SELECT count(*) FROM seats WHERE table_id = ?1)",
        (tid,)).fetchone()


def _deals_now(table: Table) -> tuple:
    """What the deals' rows say of the last deals (what ``Store._deals`` writes, the seeds aside: they never change)."""
    return tuple((d.number, d.started, d.decks) for d in table.deals[-2:])


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, value, tb) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


__all__ = ["Lost", "Store", "StoreError", "Stored"]
