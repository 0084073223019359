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
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from khrap.cards import cards_str
from khrap.engine import IllegalAction, RulesError
from khrap.session.core import Session
from khrap.variant.catalog import load_variant
from khrap.variant.checks import semantic_issues
from khrap.variant.loader import VariantError
from khrap.variant.schema import Variant

FORMAT = "khrap-record"
VERSION = 1
RESULT_FIELDS = ("deals_completed", "phase", "to_act", "stacks", "pot", "locked")


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
    """Write atomically: a temporary file beside ``path``, fsync, then rename over it."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(dumps(record))
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def load_record(path: str | Path) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"{path}: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise RecordError(f"{path}: not UTF-8 text (byte {err.start + 1})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path}:{err.lineno}:{err.colno}: not a JSON record: {err.msg}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    return data


# ------------------------------------------------------------------ reading
def _field(record: dict, key: str, kind: type | tuple, default: Any = ..., name: str = "") -> Any:
    if key not in record:
        if default is ...:
            raise RecordError(f"the record has no `{key}`")
        return default
    value = record[key]
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise RecordError(f"`{key}` must be {name or getattr(kind, '__name__', kind)}, not {value!r}")
    return value


def _actions(record: dict) -> list[tuple[int, str]]:
    """``[[seat, text], ...]``; hand-written records may also use ``"SEAT ACTION"`` lines."""
    out = []
    for i, item in enumerate(_field(record, "actions", list, [])):
        if isinstance(item, str):
            seat_text, _, text = item.strip().partition(" ")
            item = [int(seat_text) if seat_text.isdigit() else seat_text, text]
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and isinstance(item[1], str)):
            raise RecordError(f"action {i + 1}: write [SEAT, \"ACTION\"], not {item!r}")
        out.append((item[0], item[1].strip()))
    return out


def _variant(record: dict) -> tuple[Variant, str]:
    name = _field(record, "variant", str, name="a variant name or path")
    if "rules" not in record:
        try:
            return load_variant(name), name
        except VariantError as err:
            raise RecordError(str(err)) from None
    try:
        variant = Variant.model_validate(_field(record, "rules", dict, name="the resolved variant"))
    except ValueError as err:
        raise RecordError(f"`rules` is not a valid variant: {err}") from None
    issues = semantic_issues(variant)
    if issues:
        raise RecordError(f"`rules` is not a valid variant: {issues[0][1]}")
    return variant, name


def new_session(record: dict) -> Session:
    """The table a record starts from, before any deal."""
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"not a khrap record (format {fmt!r})")
    version = _field(record, "version", int, VERSION)
    if version > VERSION:
        raise RecordError(f"record version {version} is newer than this khrap reads ({VERSION})")
    variant, name = _variant(record)
    try:
        session = Session(
            variant,
            _field(record, "players", int, 4),
            seed=_field(record, "seed", int, 0),
            dealer=_field(record, "dealer", int, 0),
            stacks=_field(record, "stacks", (int, list), 100, "a number or a list of numbers"),
            pot=_field(record, "pot", int, 0),
            decks=_field(record, "decks", list, []),
            name=name,
        )
    except (RulesError, ValueError) as err:
        raise RecordError(str(err)) from None
    session.table = dict(_field(record, "table", dict, {}))
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
            raise RecordError(f"action {i + 1} ({seat} {text}) does not replay: {err}") from None
    while deals_started is not None and session.deals_started < deals_started and session.deal_over:
        begin()
    return marks


def replay_record(record: dict, *, check: bool = True) -> tuple[Session, list[DealMark]]:
    """Replay a record; with ``check``, RecordError unless it reaches what the record saw."""
    session = new_session(record)
    deals_started = _field(record, "deals_started", int, None) if "deals_started" in record else None
    marks = replay(session, _actions(record), deals_started)
    if check:
        _check(record, session)
    return session, marks


def _check(record: dict, session: Session) -> None:
    deals = record.get("deals_started")
    if deals is not None and session.deals_started != deals:
        raise RecordError(f"the record begins {deals} deals, its actions {session.deals_started}")
    dealt = [" ".join(cards_str(d)) for d in session.state.decks_dealt]
    for i, (want, got) in enumerate(zip(record.get("dealt") or [], dealt, strict=False)):
        if want != got:
            raise RecordError(f"shuffle {i + 1} does not replay: the record dealt {want}, the replay {got}")
    saved = record.get("result") or {}
    now = result(session)
    for key in RESULT_FIELDS:
        if key in saved and saved[key] != now[key]:
            raise RecordError(
                f"the record does not replay to its result: {key} {saved[key]} saved, {now[key]} replayed"
            )


def from_record(record: dict, *, check: bool = True) -> Session:
    """Restore a session by replaying its record (and checking it, unless ``check`` is False)."""
    return replay_record(record, check=check)[0]
