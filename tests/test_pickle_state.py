"""A ``GameState`` pickles (Dask and multiprocessing ship a state to another process) and plays on the same.

A program pickles as its rules (made again once per rules on the other side, shared by the states that
shared it), and rules as the variant and the player count they are made from.
"""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import random

import pytest

from khrap.engine import GameState, Rules
from khrap.engine.compiled.sink import NULL_SINK, RECORDER
from khrap.variant import catalog


def _mid_deal(name: str, seed: int, steps: int) -> tuple[GameState, random.Random]:
    state = GameState(catalog.builtin(name), 4, seed=seed)
    rng = random.Random(seed)
    state.start_deal()
    for _ in range(steps):
        if state.pending is None:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state, rng


def _play_out(state: GameState, rng: random.Random, deals: int = 2) -> list:
    """Play to the end of the deal, then ``deals`` - 1 more, with ``rng``'s choices: the log and stacks."""
    for deal in range(deals):
        if deal:
            state.start_deal()
        while state.pending is not None:
            state.apply(rng.choice(state.legal_actions()))
    return [state.log, state.stacks, state.pot]


@pytest.mark.parametrize("name", catalog.builtin_names())
def test_a_pickled_state_plays_on_the_same(name: str) -> None:
    state, rng = _mid_deal(name, 7, 5)
    copy = pickle.loads(pickle.dumps(state))
    assert copy is not state and copy.program is not state.program
    assert copy.pending == state.pending and copy.hands == state.hands and copy.stock == state.stock
    assert [str(a) for a in copy.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert copy.observation(1) == state.observation(1)
    # The same choices from here, and the kernel's own shuffles (its generator pickled too): the same deals.
    after = random.Random(3)
    assert _play_out(copy, random.Random(3)) == _play_out(state, after)


def test_the_sink_and_the_program_are_shared_again() -> None:
    first, _ = _mid_deal("khrap", 1, 3)
    second = GameState(first.rules, 4, seed=2)
    second.emitting = False
    a, b = pickle.loads(pickle.dumps([first, second]))
    assert a.program is b.program  # one program for the pickle's tables that shared one
    assert a.sink is RECORDER and b.sink is NULL_SINK
    assert pickle.loads(pickle.dumps(first.rules)).players == 4


def _finish(state: GameState) -> tuple[list[int], int]:
    rng = random.Random(11)
    while state.pending is not None:
        state.apply(rng.choice(state.legal_actions()))
    return state.stacks, state.pot


def test_a_state_is_played_out_in_another_process() -> None:
    """What a process pool does: the state goes to a new interpreter (spawn: nothing inherited) and back."""
    state, _ = _mid_deal("frap", 5, 4)
    expected = _finish(pickle.loads(pickle.dumps(state)))
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(_finish, (state,)) == expected


def test_rules_made_again_are_the_same_rules() -> None:
    rules = Rules(catalog.builtin("khrap-shoot"), 5)
    again = pickle.loads(pickle.dumps(rules))
    assert again.deck == rules.deck and again.orders == rules.orders
    assert again.derived.declaring == rules.derived.declaring and again.variant == rules.variant


def test_a_copied_session_keeps_its_compiled_program() -> None:
    """Pickling makes the program again; a deep copy (Session.clone, the bots' search) still shares it."""
    from khrap.session import Session

    session = Session("khrap", 4, seed=1)
    program = session.rules.program
    clone = session.clone()
    assert clone.rules is not session.rules and clone.rules.program is program
    assert copy.deepcopy(session.rules).program is program


def test_an_event_keeps_its_content() -> None:
    """The sink's public content (``Event.content``, the observations' key) comes through a pickle."""
    state, _ = _mid_deal("khrap", 2, 3)
    events = [e for e in state.log if e.content is not None]
    assert events
    again = pickle.loads(pickle.dumps(events))
    assert [e.content for e in again] == [e.content for e in events] and again == events
