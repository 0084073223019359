"""The search's valuation of the pot left on the table: one definition, the variant's ``pot_share`` (issue 20)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import calibrate  # noqa: E402

from khrap.bots import (  # noqa: E402
    calibration,  # noqa: E402
    position,
)
from khrap.bots.calibration import Constants, constants_for  # noqa: E402
from khrap.bots.determinize import fast_clone  # noqa: E402
from khrap.bots.position import Kernel, position_of, pot_share, seat_worth, worth  # noqa: E402
from khrap.bots.search import SearchBot  # noqa: E402
from khrap.engine import GameState, Rules  # noqa: E402
from khrap.variant.catalog import load_variant  # noqa: E402

POT_VARIANTS = ("frap", "khrap-shoot")  # the pot carries over and a lone declarer can take it all


def frap_table(hands: list[list[int]], pot: int = 40, turned: int = 47) -> GameState:
    """A frap table, dealer 3, with these hands dealt (one card at a time from the top), ``turned`` turned
    for trump (47: the ten of the suit of 48..51)."""
    rules = Rules(load_variant("frap"), 4)
    used = {c for h in hands for c in h} | {turned}
    rest = [turned] + [c for c in rules.deck if c not in used]
    deck = [h[k] for k in range(rules.hand_size) for h in hands] + rest
    state = GameState(rules, 4, dealer=3, stacks=100, pot=pot, decks=[deck], seed=1)
    state.start_deal()
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in hands]
    assert state.trump == turned // 13
    return state


def to_card_play(state: GameState) -> GameState:
    """Seat 0 calls frap, the others whist where they can: on to the first card."""
    while state.pending.kind != "play":
        words = {a.word: a for a in state.legal_actions()}
        state.apply(words.get("frap") or words.get("whist") or words.get("pass") or state.legal_actions()[0])
    return state


@pytest.mark.parametrize("name", POT_VARIANTS)
def test_the_pot_share_is_one_nth_unless_the_calibration_gives_one(name: str, monkeypatch) -> None:
    rules = Rules(load_variant(name), 4)
    assert constants_for(rules.variant).pot_share < 0  # not fitted in the built-in file: 1/n
    assert pot_share(rules) == 1 / 4
    monkeypatch.setattr(position, "_SHARES", {})
    monkeypatch.setattr(calibration, "constants_for", lambda variant: Constants(pot_share=0.1))
    assert pot_share(rules) == 0.1  # a fitted entry is used as it is (0 included)
    monkeypatch.setattr(position, "_SHARES", {})
    monkeypatch.setattr(calibration, "constants_for", lambda variant: Constants(pot_share=0.0))
    assert pot_share(rules) == 0.0


def test_search_and_solver_value_the_pot_at_the_same_share() -> None:
    state = frap_table([[51, 50, 49, 48], [5, 6, 18, 19], [7, 8, 20, 21], [9, 10, 22, 23]])
    share = pot_share(state.rules)
    for seat in range(4):
        assert seat_worth(state, seat) == pytest.approx(
            state.stacks[seat] + state.locked[seat] + share * state.pot)
        assert worth(state, seat, share) == seat_worth(state, seat)
    # the solver's settlement (position.Kernel.chips) counts the pot with the same share
    to_card_play(state)
    kernel = Kernel(position_of(state))
    assert kernel.share == share
    tricks = (0, 4, 0, 0)  # the declarer takes nothing: the pot moves
    zero = Kernel(position_of(state), share=0.0).chips(tricks)
    quarter = Kernel(position_of(state), share=0.25).chips(tricks)
    moved = [(q - z) / 0.25 for q, z in zip(quarter, zero, strict=True)]  # the pot's change, the same for all
    assert moved[0] != 0 and len(set(moved)) == 1
    assert kernel.chips(tricks) == pytest.approx([z + share * m for z, m in zip(zero, moved, strict=True)])


@pytest.mark.parametrize("share", [None, 0.1])
def test_passing_lets_the_declarer_take_the_pot_at_the_share(share, monkeypatch) -> None:
    """Seat 0 holds the four top trumps and calls frap; seat 1, hopeless, may whist or pass.  Passing
    lets the lone declarer take the pot (44 after the antes): the passer's stack does not move, and
    what it loses is its share of the pot, ``pot_share`` (1/n unless the calibration gives one: a
    quarter, 11 chips; with a share of 0.1, 4.4)."""
    if share is not None:
        monkeypatch.setattr(position, "_SHARES", {})
        monkeypatch.setattr(calibration, "constants_for", lambda variant: Constants(pot_share=share))
    state = frap_table([[51, 50, 49, 48], [5, 6, 18, 19], [7, 8, 20, 21], [9, 10, 22, 23]])
    state.apply(next(a for a in state.legal_actions() if a.word == "frap"))
    pot = state.pot
    seat = state.to_act
    acts = [a for a in state.legal_actions() if a.word in ("whist", "pass")]
    assert [a.word for a in acts] == ["whist", "pass"]
    bot = SearchBot(state.rules, timed=False)
    bot._left = 1e12
    whist, passing = bot._call_values(fast_clone(state), seat, acts, random.Random(3), None)
    assert passing == pytest.approx(-(share if share is not None else 1 / 4) * pot)
    assert whist < passing  # a hopeless whist is never right


def test_the_pot_share_is_read_per_rules(monkeypatch) -> None:
    # the search looks the share up through position.pot_share: one definition for both users.  The share
    # is given through the calibration it reads (not by replacing pot_share itself: compiled, position.py
    # calls its own pot_share natively, docs/compiled.md)
    rules = Rules(load_variant("frap"), 4)
    monkeypatch.setattr(position, "_SHARES", {})
    monkeypatch.setattr(calibration, "constants_for", lambda variant: Constants(pot_share=0.5))
    state = frap_table([[51, 50, 49, 48], [5, 6, 18, 19], [7, 8, 20, 21], [9, 10, 22, 23]])
    assert state.rules.variant.name == rules.variant.name
    assert seat_worth(state, 0) == state.stacks[0] + 0.5 * state.pot
    assert Kernel(position_of(to_card_play(state))).share == 0.5


def test_calibrate_pot_share_from_session_flows() -> None:
    # (chips paid out of the pot, the pot left) per deal.  The 10 left after deal 0: deal 1 pays out half
    # of what it held (10 of 20), deal 2 all of it: they all come back, as do the 10 left after deal 1.
    assert calibrate.pot_share([[(0, 10), (10, 10), (10, 0)]], 4) == 0.25
    # deal 1 pays out 5 of the 15 it held (a third of the 10 left at deal 0 returns); the pot left at
    # the session's end is nobody's
    assert calibrate.pot_share([[(0, 10), (5, 10)]], 4) == round((10 / 3 + 10 * 0.0) / 20 / 4, 4)
    assert calibrate.pot_share([[(4, 0)]], 4) == 0.0
