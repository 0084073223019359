"""The compiled face's listing (``compiled/face.py``) against actions made from nothing.

``Face`` lists a decision's legal actions once, shares the ``Action`` objects of plays, discards,
trump suits and exchanges (by their cards) between listings, and keeps the words of call forms.
Here, at every decision of random deals of every built-in at its smallest and largest table, the
listing equals ``Action`` objects made afresh from the kernel's own options (``Machine.legal``), and
the words equal each fresh action's text (CONTRACT.md's words: exchange, discard and trump by the
word alone); the memos emptied change nothing.
"""

from __future__ import annotations

import random

import pytest

from khrap import words as w
from khrap.engine import GameState
from khrap.engine.actions import Action
from khrap.engine.compiled import face
from khrap.engine.compiled.machine import Machine, forget_exchanges
from khrap.engine.compiled.tricks import JOKER_FLAG
from khrap.variant.catalog import builtin, builtin_names

DEALS = 5
KIND_WORD = {"discard": w.DISCARD, "exchange": w.EXCHANGE, "trump": w.TRUMP}


def fresh_actions(state: GameState) -> list[Action]:
    """The legal actions made afresh from the kernel's options."""
    kind = state.kind
    found = []
    for option in Machine.legal(state):
        if kind == "play":
            found.append(Action(w.PLAY, cards=(option % JOKER_FLAG,), joker=option >= JOKER_FLAG))
        elif kind == "discard":
            found.append(Action(w.DISCARD, cards=(option,)))
        elif kind == "exchange":
            found.append(Action(w.EXCHANGE, cards=tuple(option)))
        elif kind == "trump":
            found.append(Action(w.TRUMP, suit=option))
        else:
            found.append(option)
    return found


def tables() -> list[tuple[str, int]]:
    found = []
    for name in builtin_names():
        players = builtin(name).players
        found += [(name, players.min), (name, players.max)]
    return found


@pytest.mark.parametrize(("name", "players"), tables())
def test_the_listing_and_its_words_equal_fresh_ones(name: str, players: int) -> None:
    rng = random.Random(f"face/{name}/{players}")
    state = GameState(builtin(name), players, seed=rng.randrange(10**6), stacks=40)
    for deal in range(DEALS):
        if state.session_over:
            break
        if deal == 2:  # memos emptied in the middle of a session: the same listings and words
            forget_exchanges()
            face._CALL_WORDS.clear()
        state.start_deal()
        while state.pending is not None:
            fresh = fresh_actions(state)
            listed = state.legal_actions()
            assert listed == fresh
            assert [type(a) for a in listed] == [Action] * len(fresh)
            kind = state.kind
            words = [KIND_WORD[kind]] if kind in KIND_WORD else [str(a) for a in fresh]
            assert state.legal_words() == words
            assert state.legal_words() == words  # the words made once per listing, a new list each time
            assert state.observation(state.seat)["legal"] == words
            state.apply(rng.choice(listed))



@pytest.mark.parametrize("name", ["khrap", "frap"])
def test_an_action_listed_at_an_earlier_decision_is_checked_again(name: str) -> None:
    """``Face.apply`` takes an action of the listing without checking it again only while that listing is the
    decision's: once an action is applied, the same object is checked again even when the same seat decides the
    same kind next (a trick's winner leads: the card he just played is no longer his, and is refused)."""
    from khrap.engine.actions import IllegalAction

    rng = random.Random(f"relisted/{name}")
    state = GameState(builtin(name), 4, seed=rng.randrange(10**6), stacks=100)
    again = 0
    for _ in range(DEALS):
        if state.session_over:
            break
        state.start_deal()
        while state.pending is not None:
            seat, kind = state.seat, state.kind
            action = rng.choice(state.legal_actions())
            state.apply(action)
            if kind == "play" and state.kind == "play" and state.seat == seat:
                with pytest.raises(IllegalAction):
                    state.apply(action)  # (his card, played: not in his hand now)
                again += 1
    assert again >= 3  # (the case met: 3 times in khrap, more in frap)
