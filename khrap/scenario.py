"""Scenario files (CONTRACT.md): scripted deals with fixed decks, and their report.

``load_scenario`` reads and checks a file (located errors), ``run`` plays its
actions through the same ``GameState.apply`` a game uses, and ``report`` /
``account`` describe the state reached, as JSON or as text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from khrap import words as w
from khrap.cards import CardError, canonical, card_str, cards_str, parse_card, suit_str
from khrap.engine import GameState, IllegalAction, Rules, RulesError
from khrap.safe_text import excerpt
from khrap.session.core import refuse_foreign_digits
from khrap.variant.catalog import load_variant
from khrap.variant.derived import next_dealer
from khrap.variant.loader import Marks, VariantError, did_you_mean, read_text, read_yaml
from khrap.variant.schema import MAX_CHIPS

KEYS = ("variant", "players", "dealer", "stacks", "pot", "seed", "decks", "actions", "expect")


@dataclass
class ScriptLine:
    line: int
    seat: int
    text: str


@dataclass
class Scenario:
    path: str
    rules: Rules
    variant_name: str = ""
    dealer: int = 0
    stacks: int | list[int] = 100
    pot: int = 0
    seed: int = 0
    decks: list[list[int]] = field(default_factory=list)
    actions: list[ScriptLine] = field(default_factory=list)
    expect: dict = field(default_factory=dict)
    expect_marks: dict = field(default_factory=dict)

    def new_game(self) -> GameState:
        return GameState(
            self.rules, self.rules.players, dealer=self.dealer, stacks=self.stacks, pot=self.pot,
            seed=self.seed, decks=self.decks,
        )


class ScenarioStop(Exception):
    """An illegal action in a scenario: ``FILE:LINE: ACTION: REASON; legal: ...``."""


# ------------------------------------------------------------------ loading
class _Reader:
    def __init__(self, path: str, data: dict, marks: Marks, text: str) -> None:
        self.path, self.data, self.marks, self.text = path, data, marks, text

    def error(self, loc: tuple, message: str, key: bool = False) -> VariantError:
        pos = (self.marks.key(loc) if key else None) or self.marks.locate(loc) or (1, 1)
        return VariantError(message, self.path, pos[0], pos[1])

    def integer(self, key: str, default: int, low: int | None = None, high: int = MAX_CHIPS) -> int:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            shown = excerpt(value) if isinstance(value, str) else "a list" if isinstance(value, list) else \
                "a mapping" if isinstance(value, dict) else excerpt(repr(value))
            raise self.error((key,), f"{key} must be a whole number, not {shown}")
        if low is not None and value < low:
            raise self.error((key,), f"{key} must be at least {low}")
        if value > high or (low is None and value < -high):
            bound = f"at most {high}" if value > 0 else f"at least {-high}"
            raise self.error((key,), f"{key} must be {bound}")
        return value


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file; VariantError (located) on any mistake."""
    path = str(path)
    text = read_text(path)  # read once: a regular file, within the size limit
    data, marks = read_yaml(path, text)
    reader = _Reader(path, data, marks, text)
    for key in data:
        if key not in KEYS:
            raise reader.error((key,), f"unknown key {excerpt(str(key))}{did_you_mean(str(key), KEYS)}", key=True)
    if "variant" not in data or not isinstance(data["variant"], str):
        raise reader.error(("variant",), "a scenario needs `variant:` (a built-in name or a path to a variant file)")
    try:
        variant = load_variant(data["variant"], named_in=Path(path).parent)  # a built-in, or a file beside it
    except VariantError as err:
        if err.path is None:  # an unknown built-in name: point at the scenario's `variant:`
            raise reader.error(("variant",), err.message) from None
        raise
    players = reader.integer("players", 4)
    try:
        rules = Rules(variant, players)
    except RulesError as err:
        raise reader.error(("players",), str(err)) from None
    scenario = Scenario(path, rules, data["variant"], dealer=reader.integer("dealer", 0, 0),
                        pot=reader.integer("pot", 0, 0),
                        seed=reader.integer("seed", 0, 0, 2**64 - 1))
    if scenario.dealer >= players:
        raise reader.error(("dealer",), f"dealer must be a seat from 0 to {players - 1}")
    scenario.stacks = _stacks(reader, players)
    scenario.decks = [_deck(reader, i, entry, rules) for i, entry in enumerate(_list(reader, "decks"))]
    scenario.actions = _actions(reader, players)
    scenario.expect, scenario.expect_marks = _expect(reader)
    return scenario


def _expect(reader: _Reader) -> tuple[dict, dict]:
    """The optional `expect:` mapping: report fields (or `error`) the run must produce."""
    value = reader.data.get("expect") or {}
    if not isinstance(value, dict):
        raise reader.error(("expect",), "expect must map report fields to their expected values")
    allowed = (*REPORT_FIELDS, "house", "error")
    marks = {}
    for key in value:
        if key not in allowed:
            hint = did_you_mean(str(key), allowed)
            raise reader.error(("expect", key), f"unknown report field {excerpt(str(key))}{hint}", key=True)
        if key == "log" and not (isinstance(value[key], list) and all(isinstance(x, str) for x in value[key])):
            raise reader.error(("expect", key), "expect.log must be a list of texts, each found in some log line")
        marks[key] = reader.marks.locate(("expect", key)) or (1, 1)
    return value, marks


def _list(reader: _Reader, key: str) -> list:
    value = reader.data.get(key) or []
    if not isinstance(value, list):
        raise reader.error((key,), f"{key} must be a list")
    return value


def _stacks(reader: _Reader, players: int) -> int | list[int]:
    value = reader.data.get("stacks", 100)
    if isinstance(value, list):
        if len(value) != players or not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_CHIPS
                                            for v in value):
            raise reader.error(("stacks",), f"stacks must be one number or a list of {players} numbers "
                                            f"from {-MAX_CHIPS} to {MAX_CHIPS}")
        return value
    return reader.integer("stacks", 100)


def _deck(reader: _Reader, index: int, entry: Any, rules: Rules) -> list[int]:
    loc = ("decks", index)
    words = entry.split() if isinstance(entry, str) else entry
    if not isinstance(words, list):
        raise reader.error(loc, "a deck entry is a string of cards, top card first")
    try:
        listed = [parse_card(str(word)) for word in words]
    except CardError as err:
        raise reader.error(loc, str(err)) from None
    try:
        return rules.complete_deck(listed)
    except RulesError as err:
        raise reader.error(loc, str(err)) from None


def _action_lines(reader: _Reader) -> list[tuple[int, str]]:
    value = reader.data.get("actions")
    if value is None:
        return []
    if isinstance(value, list):
        return [(reader.marks.locate(("actions", i))[0], str(item)) for i, item in enumerate(value)]
    if not isinstance(value, str):
        raise reader.error(("actions",), "actions must be a block of lines: SEAT ACTION")
    line, col = reader.marks.locate(("actions",))
    source_line = reader.text.splitlines()[line - 1] if line - 1 < len(reader.text.splitlines()) else ""
    first = line + 1 if source_line[col - 1 : col] in ("|", ">") else line
    return [(first + i, text) for i, text in enumerate(value.splitlines())]


def _actions(reader: _Reader, players: int) -> list[ScriptLine]:
    lines = []
    for line, text in _action_lines(reader):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        seat, _, rest = text.partition(" ")
        if not (seat.isascii() and seat.isdigit() and len(seat) < 4) or int(seat) >= players or not rest.strip():
            raise VariantError(f"{excerpt(text, 60)}: write SEAT ACTION, with SEAT from 0 to {players - 1}",
                               reader.path, line, 1)
        lines.append(ScriptLine(line, int(seat), rest.strip()))
    return lines


# ------------------------------------------------------------------ running
def run(scenario: Scenario) -> GameState:
    """Play the scenario's actions in order; ScenarioStop at the first illegal one."""
    state = scenario.new_game()
    try:
        state.start_deal()
    except IllegalAction as err:  # no first deal (a stack too small to be dealt in): refused at the first line
        if not scenario.actions:
            raise ScenarioStop(f"{scenario.path}:1: the first deal: {err}") from None
    for step in scenario.actions:
        try:
            if state.phase == w.SETTLED:
                state.start_deal()  # refused once the session is over (no stack covers a declaring call)
            refuse_foreign_digits(step.text)
            state.apply(step.text, step.seat)
        except IllegalAction as err:
            legal = ", ".join(state.legal_words()) or "none"
            raise ScenarioStop(f"{scenario.path}:{step.line}: {step.text}: {err}; legal: {legal}") from None
    return state


REPORT_FIELDS = (
    "variant", "phase", "to_act", "legal", "dealer", "next_dealer", "deals_completed", "round", "trump",
    "turned", "stock_count", "stacks", "pot", "locked", "statuses", "hands", "trick", "tricks", "log",
)


def check_expect(scenario: Scenario, state: GameState | None, error: str | None) -> list[str]:
    """Located lines for every `expect:` entry the run did not meet (``legal`` compared as a set)."""
    problems = []
    got = report(state, scenario.variant_name) if state is not None else {}
    for key, want in scenario.expect.items():
        line, col = scenario.expect_marks[key]
        where = f"{scenario.path}:{line}:{col}"
        if key == "error":
            if error is None or str(want) not in error:
                problems.append(f"{where}: expected an error containing {want!r}, got {error or 'no error'}")
        elif error is not None:
            problems.append(f"{where}: expected {key}, but the run stopped: {error}")
        elif not _same(key, got.get(key, 0), want):  # only ``house`` may be absent: no commission, 0 chips
            problems.append(f"{where}: expected {key} {json.dumps(want)}, got {json.dumps(got.get(key, 0))}")
    return problems


def _same(key: str, got, want) -> bool:
    if key == "legal":
        return isinstance(want, list) and sorted(got) == sorted(want)
    if key == "log":
        return all(any(str(w) in line for line in got) for w in want)
    return got == want


def known_next_dealer(state: GameState) -> int | None:
    """The next dealer as far as it is known: the kernel's once the deal is settled; before, the one
    ``derived.next_dealer`` gives where it does not hang on the declarer, or once no call can change him
    (exchange, trump, play); None until then."""
    if state.phase == w.SETTLED:
        return state.next_dealer
    v = state.rules.variant
    final = state.declarer if state.phase in (w.EXCHANGE_PHASE, w.TRUMP_PHASE, w.PLAY_PHASE) else None
    if final is None and v.next_dealer == "declarer":
        return None
    return next_dealer(v, state.dealer, final, state.n)


def report(state: GameState, variant_name: str) -> dict:
    """The state as the JSON object of CONTRACT.md; ``house`` (the chips the house's commission took) only
    where the variant has one."""
    found = {
        "variant": variant_name,
        "phase": state.phase,
        "to_act": state.to_act,
        "legal": state.legal_words(),
        "dealer": state.dealer,
        "next_dealer": known_next_dealer(state),
        "deals_completed": state.deals_completed,
        "round": state.round,
        "trump": None if state.trump is None else suit_str(state.trump),
        "turned": cards_str(state.turned),
        "stock_count": len(state.stock),
        "stacks": list(state.stacks),
        "pot": state.pot,
        "locked": list(state.locked),
        "statuses": list(state.statuses),
        "hands": [cards_str(canonical(h)) for h in state.hands],
        "trick": [[seat, card_str(card)] for seat, card, _ in state.trick],
        "tricks": list(state.tricks),
        "log": [event.text for event in state.log],
    }
    if state.rules.variant.settlement.house is not None:
        found["house"] = state.house
    return found


def account(state: GameState, variant_name: str) -> str:
    """A readable account of what happened and where the game stands."""
    data = report(state, variant_name)
    lines = [f"{variant_name}, {state.n} players", ""]
    lines += [f"  {event.text}" for event in state.log]
    lines.append("")
    where = f"phase {data['phase']}"
    if data["to_act"] is not None:
        where += f"; seat {data['to_act']} to act: {', '.join(data['legal'])}"
    lines.append(where)
    lines.append(f"stacks {data['stacks']}  pot {data['pot']}  locked {data['locked']}")
    return "\n".join(lines)
