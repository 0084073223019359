"""The same seed and the same actions give the same log and the same stacks."""

import random

import pytest

from tests.conftest import every_table, new_table


def play_session(name: str, players: int, seed: int, deals: int = 5):
    state = new_table(name, players, seed=seed)
    chooser = random.Random(seed * 7 + 1)
    actions = []
    for _ in range(deals):
        state.start_deal()
        while state.pending is not None:
            action = chooser.choice(state.legal_actions())
            actions.append(str(action))
            state.apply(action)
    return state, actions


@pytest.mark.parametrize(("name", "players"), every_table())
def test_same_seed_same_session(name: str, players: int) -> None:
    for seed in range(8):
        first, actions = play_session(name, players, seed)
        # Replay the recorded actions as text on a fresh table with the same seed.
        again = new_table(name, players, seed=seed)
        script = iter(actions)
        while again.deals_completed < first.deals_completed:
            again.start_deal()
            while again.pending is not None:
                again.apply(next(script))
        assert [e.text for e in again.log] == [e.text for e in first.log]
        assert again.stacks == first.stacks and again.pot == first.pot


def test_different_seeds_differ() -> None:
    a, _ = play_session("khrap", 4, 1, deals=1)
    b, _ = play_session("khrap", 4, 2, deals=1)
    assert [e.text for e in a.log] != [e.text for e in b.log]
