"""Refusals of plays, exchanges and discards come from one table each (``engine/legal.py``).

The listing runs the kernel's tests; a refused action gets the sentence of the first entry it fails.
Here: an action is refused exactly when it is not listed, and each entry's sentence is the one given.
"""

from __future__ import annotations

import random

import pytest

from khrap import words as w
from khrap.cards import card_str
from khrap.engine import Action, GameState, IllegalAction
from khrap.engine.decisions import refusal
from khrap.variant.catalog import builtin

VARIANTS = ["student-snore", "khrap", "frap", "snore", "khrap-shoot"]


def decisions(name: str, seed: int, deals: int = 3):
    """Every decision of a few random deals: the state, waiting for it."""
    v = builtin(name)
    state = GameState(v, 4 if v.players.min <= 4 <= v.players.max else v.players.min, seed=seed)
    rng = random.Random(seed)
    for _ in range(deals):
        if state.session_over:
            return
        state.start_deal()
        while state.pending is not None:
            yield state
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", VARIANTS)
def test_a_play_or_discard_is_refused_exactly_when_it_is_not_listed(name: str) -> None:
    seen = 0
    for state in decisions(name, 3):
        seat = state.pending.seat
        if state.pending.kind == "play":
            listed = {(a.cards, a.joker) for a in state.legal_actions()}
            for card in state.hands[seat]:
                for joker in (False, True):
                    why = refusal(state, Action(w.PLAY, cards=(card,), joker=joker))
                    assert (why is None) == (((card,), joker) in listed), (card, joker, why)
                    if joker and card != state.rules.joker:
                        assert why == f"{card_str(card)} is not the joker"
                    seen += 1
        elif state.pending.kind == "discard":
            for card in range(52):
                why = refusal(state, Action(w.DISCARD, cards=(card,)))
                assert (why is None) == (card in state.hands[seat])
                if why:
                    assert why == f"seat {seat} does not hold {card_str(card)}"
    assert seen


def test_the_first_failing_entry_gives_the_reason() -> None:
    found = {"play": 0, "exchange": 0, "discard": 0}
    for name in VARIANTS:
        for state in decisions(name, 5):
            seat, kind = state.pending.seat, state.pending.kind
            hand = state.hands[seat]
            missing = next(c for c in range(52) if c not in hand)
            if kind == "play":
                assert refusal(state, Action(w.PLAY, cards=(hand[0], hand[-1]))) == "play one card"
                assert refusal(state, Action(w.PLAY, cards=(missing,))) == \
                    f"seat {seat} does not hold {card_str(missing)}"
                assert refusal(state, Action(w.DISCARD, cards=(hand[0],))) == f"seat {seat} must play now"
                found[kind] += 1
            elif kind == "exchange":
                assert refusal(state, Action(w.EXCHANGE, cards=(hand[0], hand[0]))) == "a card is named twice"
                assert refusal(state, Action(w.EXCHANGE, cards=(missing,))) == \
                    f"seat {seat} does not hold {card_str(missing)}"
                least, most, _ = state._limits(seat)
                if len(hand) > most:
                    why = refusal(state, Action(w.EXCHANGE, cards=tuple(hand[:most + 1])))
                    assert why in (f"seat {seat} must exchange exactly {least} cards",
                                   f"seat {seat} may exchange {least} to {max(most, least)} cards now")
                if least:
                    assert refusal(state, Action(w.EXCHANGE, cards=())) is not None
                found[kind] += 1
            elif kind == "discard":
                assert refusal(state, Action(w.DISCARD, cards=(hand[0], hand[-1]))) == "discard one card"
                found[kind] += 1
    assert all(found.values()), found


def test_apply_raises_the_table_sentence() -> None:
    for state in decisions("student-snore", 1):
        if state.pending.kind == "play":
            card = next(c for c in state.hands[state.pending.seat] if c != state.rules.joker)
            with pytest.raises(IllegalAction, match=f"^{card_str(card)} is not the joker$"):
                state.apply(f"play {card_str(card)} joker")
            return
    raise AssertionError("no play decision")
