"""What an action costs the database (issue 32's capacity): most actions are one statement, the actions'
rows are kept WITHOUT ROWID (one page written a commit), and a file made before (a rowid table) is read and
written the same way; the table's time of activity is stored at most once a minute."""

from __future__ import annotations

import json
import sqlite3

from khrap.variant.catalog import builtin
from khrap.web import store as store_module
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds

OLD_ACTIONS = ("CREATE TABLE actions (table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, "
               "text TEXT NOT NULL, by TEXT NOT NULL, PRIMARY KEY (table_id, n))")


def _played(store: Store, actions: int) -> Table:
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=3, stacks=100, base_stake=1,
                         bots={}, deals=3, seed_source=fixed_seeds("writes"))
    store.add(table)
    table.start_deal()
    store.started(table)
    for _ in range(actions):
        seat = table.session.to_act
        table.apply(seat, table.bot_action(seat, "rule"))
        store.acted(table)
    return table


def test_a_new_files_actions_are_kept_without_rowid(tmp_path) -> None:
    store = Store(tmp_path / "new.sqlite")
    [sql] = store.db.execute("SELECT sql FROM sqlite_master WHERE name = 'actions'").fetchone()
    assert sql.rstrip().endswith("WITHOUT ROWID")


def test_a_file_with_the_old_rowid_table_plays_and_restores(tmp_path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(OLD_ACTIONS)
    store = Store(path)
    table = _played(store, 5)
    store.close()
    again = Store(path)
    [sql] = again.db.execute("SELECT sql FROM sqlite_master WHERE name = 'actions'").fetchone()
    assert "WITHOUT ROWID" not in sql
    loaded = again.load(table.id)
    assert loaded.actions == table.actions and len(loaded.actions) == 5
    assert loaded.session.state.hands == table.session.state.hands


def test_most_actions_are_one_statement_and_activity_is_stored_once_a_minute(tmp_path, monkeypatch) -> None:
    now = [1_000_000.0]
    monkeypatch.setattr(store_module.time, "time", lambda: now[0])
    store = Store(tmp_path / "t.sqlite")
    statements: list[str] = []
    store.db.set_trace_callback(statements.append)
    table = _played(store, 3)
    at = store.db.execute("SELECT at FROM activity WHERE table_id = ?", (table.id,)).fetchone()[0]
    assert at == 1_000_000.0
    statements.clear()
    seat = table.session.to_act
    table.apply(seat, table.bot_action(seat, "rule"))
    store.acted(table)
    assert [s.split()[0] for s in statements] == ["INSERT"] and "actions" in statements[0]
    now[0] += 61  # a minute later the next action stores the time again, in the same transaction
    statements.clear()
    seat = table.session.to_act
    table.apply(seat, table.bot_action(seat, "rule"))
    store.acted(table)
    assert [s.split()[0] for s in statements] == ["BEGIN", "INSERT", "INSERT", "COMMIT"]
    assert store.db.execute("SELECT at FROM activity WHERE table_id = ?", (table.id,)).fetchone()[0] == 1_000_061.0
    assert len(store.load(table.id).actions) == 5


def test_the_seats_names_are_stored_and_a_play_agains_table_has_them(tmp_path) -> None:
    # A table rebuilt from the store (it left memory, the server restarted) had lost its players' names; "play
    # again" copies them to the new table, which is stored when it is made: its names with it.  A deleted table's
    # names go with it.
    store = Store(tmp_path / "names.sqlite")
    table = _played(store, 0)
    table.seats[0].name, table.seats[2].name = "Anna", "Вера"
    store.named(table, 0)
    store.named(table, 2)
    again = table.again(fixed_seeds("again"))
    store.add(again)
    assert [s.name for s in store.load(table.id).seats] == ["Anna", "", "Вера"]
    assert [s.name for s in store.load(again.id).seats] == ["Anna", "", "Вера"]
    store.delete(table.id)
    assert store.db.execute("SELECT count(*) FROM names WHERE table_id = ?", (table.id,)).fetchone() == (0,)


def test_a_table_stored_with_an_old_bot_name_comes_back_saying_its_strength(tmp_path) -> None:
    # A table stored before the strengths' words held "heuristic" and "rule" in its seats' rows (and "search"
    # as the bot that takes a seat over): restored, its seats say normal and easy, and a seat handed to the
    # takeover bot says strong, as the create page offers them.
    store = Store(tmp_path / "old-names.sqlite")
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1,
                         bots={1: "normal", 2: "easy"}, deals=3, seed_source=fixed_seeds("old-names"))
    store.add(table)
    with store._tx() as db:
        db.execute("UPDATE seats SET bot = 'heuristic' WHERE table_id = ? AND seat = 1", (table.id,))
        db.execute("UPDATE seats SET bot = 'rule' WHERE table_id = ? AND seat = 2", (table.id,))
        setup = {**table.setup, "takeover_bot": "search"}
        db.execute("UPDATE tables SET setup = ? WHERE id = ?", (json.dumps(setup), table.id))
    loaded = store.load(table.id)
    assert [st.bot for st in loaded.seats] == [None, "normal", "easy", None]
    loaded.reseat(3, "bot")
    assert loaded.seats[3].bot == "strong"
