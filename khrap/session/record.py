"""Records: a session as JSON, restored by replaying it, saved atomically.

A record holds the table's setup (variant, players, dealer, stacks, pot,
seed, fixed decks), every action as ``[seat, text]`` and how many deals were
begun; restoring replays the actions on a fresh table (the kernel is
deterministic for a seed) and checks the replay against what the record saw:
every dealt deck and the result (stacks, pot, locked stakes, phase, seat to
act).  ``docs/api.md`` describes every field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from khrap.cards import cards_str
from khrap.engine import IllegalAction, RulesError
from khrap.safe_io import InputRefused, read_limited, write_save
from khrap.safe_text import excerpt, surrogate_at, terminal
from khrap.session.core import Session
from khrap.variant.catalog import load_variant
from khrap.variant.checks import Fields, semantic_issues
from khrap.variant.loader import Marks, Origins, VariantError, validate
from khrap.variant.schema import MAX_CHIPS, MAX_DEALS, MAX_NAME_CHARS, Variant

FORMAT = "khrap-record"
VERSION = 1
RESULT_FIELDS = ("deals_completed", "phase", "to_act", "stacks", "pot", "locked")
RECORD_BYTES = 16 * 1024 * 1024
"""The largest record file read (a session of tens of thousands of actions is a few MiB)."""
MAX_ACTIONS = 1_000_000
MAX_ACTION_CHARS = 200
MAX_DECKS = 10_000


class RecordError(ValueError):
    """A record that does not parse, or does not replay to what it says."""


@dataclass
class DealMark:
    """Where deal ``number`` begins in a replay, and the table just before it."""

    number: int
    dealer: int  # the dealer of this deal
    stacks: list[int]  # before its ante
    pot: int
    skip_ante: bool  # dealt without an ante (after an instant win)
    log_at: int  # first log line of the deal
    decks_at: int  # first deck it deals
    actions_at: int  # its first action
    before: dict  # result() of the table just before it (the end of the previous deal)


# ------------------------------------------------------------------ writing
def result(session: Session) -> dict:
    """What a record checks on replay."""
    s = session.state
    return {
        "deals_completed": s.deals_completed, "phase": s.phase, "to_act": s.to_act,
        "stacks": list(s.stacks), "pot": s.pot, "locked": list(s.locked), "tricks": list(s.tricks),
    }


def to_record(session: Session) -> dict:
    """The session as a JSON-ready record."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": session.variant_name,
        **session.setup,
        "decks": [" ".join(cards_str(d)) for d in session.decks],
        "deals_started": session.deals_started,
        "actions": [[seat, text] for seat, text in session.actions],
        "dealt": [" ".join(cards_str(d)) for d in session.state.decks_dealt],
        "result": result(session),
        "table": dict(session.table),
        "rules": session.variant_data,
    }


def dumps(record: dict) -> str:
    """JSON text with one action (and one deck) per line, the resolved variant last."""
    lines = []
    for key, value in record.items():
        if isinstance(value, list) and key in ("actions", "dealt", "decks") and value:
            items = ",\n".join("    " + json.dumps(v, ensure_ascii=False) for v in value)
            lines.append(f"  {json.dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def save_record(record: dict, path: str | Path) -> None:
    """Write safely (``khrap.safe_io.write_save``): a new temporary file beside ``path``, flushed, then
    renamed over it; only a regular file is replaced, under the save's lock.  OutputError otherwise."""
    write_save(path, dumps(record))


class LoadedRecord(dict):
    """A record read from a file: a plain dict that also knows the file's folder, so the variant it
    names by path is looked for there (and only there) as for a scenario's ``variant:``."""

    folder: Path | None = None


def load_record(path: str | Path) -> dict:
    """A record from a file: a regular file of at most ``RECORD_BYTES``, JSON, valid Unicode; RecordError."""
    try:
        raw = read_limited(path, RECORD_BYTES)
    except InputRefused as err:
        raise RecordError(f"{terminal(str(path), one_line=True)}: {err}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise RecordError(f"{terminal(str(path), one_line=True)}: not UTF-8 text (byte {err.start + 1})") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path}:{err.lineno}:{err.colno}: not a JSON record: {err.msg}") from None
    except RecursionError:
        raise RecordError(f"{path}: not a khrap record: nested too deep") from None
    except ValueError as err:  # an integer of more digits than Python converts, NaN, Infinity
        raise RecordError(f"{path}: not a khrap record: {str(err).split(';')[0]}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    bad = _bad_text(data)
    if bad is not None:
        raise RecordError(f"{path}: {bad}")
    loaded = LoadedRecord(data)
    loaded.folder = Path(path).parent
    return loaded


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a record may hold")


def _bad_text(value: Any, depth: int = 0) -> str | None:
    """A reason the record's text is not valid (a lone surrogate), or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if surrogate_at(item) is not None:
                return f"not valid Unicode text: a lone surrogate in {excerpt(item)}"
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


# ------------------------------------------------------------------ reading
def _field(record: dict, key: str, kind: type | tuple, default: Any = ..., name: str = "") -> Any:
    if key not in record:
        if default is ...:
            raise RecordError(f"the record has no `{key}`")
        return default
    value = record[key]
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise RecordError(f"`{key}` must be {name or getattr(kind, '__name__', kind)}, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    """A value from the record, short and escaped (a number of thousands of digits is not echoed in full)."""
    if isinstance(value, str):
        return excerpt(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return terminal(repr(value), one_line=True)[:40]


def _whole(record: dict, key: str, default: int | None, low: int, high: int, what: str = "") -> int:
    """An integer field between ``low`` and ``high`` (as a scenario checks it)."""
    value = _field(record, key, int, default, "a whole number")
    if not low <= value <= high:
        raise RecordError(f"`{key}` must be {what or f'from {low} to {high}'}, not {_shown(value)}")
    return value


def _seat(value: Any, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def _actions(record: dict, players: int) -> list[tuple[int, str]]:
    """``[[seat, text], ...]``; hand-written records may also use ``"SEAT ACTION"`` lines."""
    items = _field(record, "actions", list, [])
    if len(items) > MAX_ACTIONS:
        raise RecordError(f"`actions` holds {len(items)} actions; a record holds at most {MAX_ACTIONS}")
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            seat_text, _, text = item.strip().partition(" ")
            ascii_digits = seat_text.isascii() and seat_text.isdecimal() and len(seat_text) < 4
            item = [int(seat_text) if ascii_digits else seat_text, text]
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)
                and len(item[1]) <= MAX_ACTION_CHARS and _seat(item[0], players)):
            raise RecordError(f"action {i + 1}: write [SEAT, \"ACTION\"] with SEAT from 0 to {players - 1}, "
                              f"not {_shown(item)}")
        out.append((item[0], item[1].strip()))
    return out


def _variant(record: dict) -> tuple[Variant, str]:
    name = _field(record, "variant", str, name="a variant name or path")
    if len(name) > MAX_NAME_CHARS:
        raise RecordError(f"`variant` must be a name or path of at most {MAX_NAME_CHARS} characters")
    if "rules" not in record:
        folder = getattr(record, "folder", None)
        try:
            return load_variant(name, named_in=folder), name
        except VariantError as err:
            raise RecordError(str(err)) from None
    return validated_rules(_field(record, "rules", dict, name="the resolved variant")), name


def validated_rules(rules: dict) -> Variant:
    """The Variant of a record's resolved rules (RecordError if they are not one), one object for equal rules."""
    key = json.dumps(rules, sort_keys=True, separators=(",", ":"))
    variant = _VALIDATED.get(key)
    if variant is None:
        try:
            variant = validate(Variant, rules, Origins([("rules", Marks())]))
        except VariantError as err:
            raise RecordError(f"`rules` is not a valid variant: {err.message}") from None
        issues = semantic_issues(variant)
        if issues:
            raise RecordError(f"`rules` is not a valid variant: {_dotted(issues[0][0])}{issues[0][1]}")
        if len(_VALIDATED) >= _VALIDATED_LIMIT:
            _VALIDATED.pop(next(iter(_VALIDATED)))  # the oldest: a server's tables share a few rule sets
        _VALIDATED[key] = variant
    return variant


# Records whose rules are the same text share one validated Variant (nothing changes a Variant once made):
# a server holding many tables of a few rule sets keeps one copy of each (about 60 KB) instead of one a
# table, and does not validate the same rules again at each rebuild.
_VALIDATED: dict[str, Variant] = {}
_VALIDATED_LIMIT = 64


def _dotted(loc: Any) -> str:
    if isinstance(loc, Fields):  # several fields make the problem together: name the first
        loc = loc[0] if loc else ()
    parts = [str(p) for p in loc] if isinstance(loc, tuple) else []
    return ".".join(parts) + ": " if parts else ""


def _stacks(record: dict, players: int) -> int | list[int]:
    value = _field(record, "stacks", (int, list), 100, "a number or a list of numbers")
    values = value if isinstance(value, list) else [value]
    if isinstance(value, list) and len(value) != players:
        raise RecordError(f"`stacks` must be one number or a list of {players} numbers")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > MAX_CHIPS:
            raise RecordError(f"`stacks` must hold whole numbers from {-MAX_CHIPS} to {MAX_CHIPS}, not {_shown(v)}")
    return value


def _decks(record: dict) -> list:
    decks = _field(record, "decks", list, [])
    if len(decks) > MAX_DECKS:
        raise RecordError(f"`decks` holds {len(decks)} decks; a record fixes at most {MAX_DECKS}")
    for i, deck in enumerate(decks):
        words = deck.split() if isinstance(deck, str) else deck
        if not isinstance(words, list) or len(words) > 52 or not all(isinstance(c, str) and len(c) <= 3 for c in words):
            raise RecordError(f"deck {i + 1}: a deck is a string of cards, top card first, not {_shown(deck)}")
    return decks


def _table(record: dict, players: int) -> dict:
    table = dict(_field(record, "table", dict, {}))
    humans = table.get("humans", [0])
    if not isinstance(humans, list) or len(humans) > players or not all(_seat(h, players) for h in humans):
        raise RecordError(f"`table.humans` must be a list of seats from 0 to {players - 1}, not {_shown(humans)}")
    bots = table.get("bots", "rule")
    if not isinstance(bots, str) or len(bots) > MAX_NAME_CHARS:
        raise RecordError(f"`table.bots` must be a bot kind, not {_shown(bots)}")
    deals = table.get("deals")
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS):
        raise RecordError(f"`table.deals` must be null or a number from 1 to {MAX_DEALS}, not {_shown(deals)}")
    return table


def new_session(record: dict) -> Session:
    """The table a record starts from, before any deal; every field checked as a scenario's is."""
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"not a khrap record (format {_shown(fmt)})")
    version = _whole(record, "version", VERSION, 1, VERSION, f"a version this khrap reads (1 to {VERSION})")
    del version
    variant, name = _variant(record)
    players = _whole(record, "players", 4, variant.players.min, variant.players.max,
                     f"from {variant.players.min} to {variant.players.max} for this variant")
    try:
        session = Session(
            variant,
            players,
            seed=_whole(record, "seed", 0, 0, 2**64 - 1, "a whole number from 0 to 2^64 - 1"),
            dealer=_whole(record, "dealer", 0, 0, players - 1, f"a seat from 0 to {players - 1}"),
            stacks=_stacks(record, players),
            pot=_whole(record, "pot", 0, 0, MAX_CHIPS),
            decks=_decks(record),
            name=name,
        )
    except (RulesError, ValueError) as err:
        raise RecordError(str(err)) from None
    session.table = _table(record, players)
    return session


def replay(session: Session, actions: list[tuple[int, str]], deals_started: int | None = None) -> list[DealMark]:
    """Apply ``actions`` to a fresh session, beginning each deal as a scenario does; marks of each deal."""
    marks: list[DealMark] = []

    def begin() -> None:
        s = session.state
        mark = DealMark(len(marks) + 1, 0, list(s.stacks), s.pot, s.skip_next_ante, len(s.log),
                        len(s.decks_dealt), len(session.actions), result(session))
        session.start_deal()
        mark.dealer = s.dealer
        marks.append(mark)

    for i, (seat, text) in enumerate(actions):
        if session.deal_over:
            begin()
        try:
            session.apply(text, seat)
        except IllegalAction as err:
            shown = terminal(f"{seat} {text}", one_line=True)
            reason = terminal(str(err), one_line=True)
            raise RecordError(f"action {i + 1} ({shown}) does not replay: {reason}") from None
    while deals_started is not None and session.deals_started < deals_started and session.deal_over:
        begin()
    return marks


def replay_record(record: dict, *, check: bool = True) -> tuple[Session, list[DealMark]]:
    """Replay a record; with ``check``, RecordError unless it reaches what the record saw."""
    session = new_session(record)
    actions = _actions(record, session.players)
    deals_started = None
    if "deals_started" in record:
        deals_started = _whole(record, "deals_started", None, 0, len(actions) + 1,
                               "at most one more than the record's actions")
    marks = replay(session, actions, deals_started)
    if check:
        _check(record, session)
    return session, marks


def _check(record: dict, session: Session) -> None:
    deals = record.get("deals_started")
    if deals is not None and session.deals_started != deals:
        raise RecordError(f"the record begins {deals} deals, its actions {session.deals_started}")
    dealt = [" ".join(cards_str(d)) for d in session.state.decks_dealt]
    dealt_saved = record.get("dealt") or []
    if not isinstance(dealt_saved, list):
        raise RecordError(f"`dealt` must be a list of decks, not {_shown(dealt_saved)}")
    for i, (want, got) in enumerate(zip(dealt_saved, dealt, strict=False)):
        if want != got:
            raise RecordError(f"shuffle {i + 1} does not replay: the record dealt {_shown(want)}, the replay {got}")
    saved = record.get("result") or {}
    if not isinstance(saved, dict):
        raise RecordError(f"`result` must be a mapping, not {_shown(saved)}")
    now = result(session)
    for key in RESULT_FIELDS:
        if key in saved and saved[key] != now[key]:
            raise RecordError(
                f"the record does not replay to its result: {key} {_shown(saved[key])} saved, {now[key]} replayed"
            )


def from_record(record: dict, *, check: bool = True) -> Session:
    """Restore a session by replaying its record (and checking it, unless ``check`` is False)."""
    return replay_record(record, check=check)[0]
