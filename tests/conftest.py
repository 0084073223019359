"""Shared helpers for the tests."""

import random

from khrap.engine import GameState, Rules
from khrap.variant.catalog import builtin, builtin_names


def every_table() -> list[tuple[str, int]]:
    """Each built-in variant at each player count it allows."""
    tables = []
    for name in builtin_names():
        v = builtin(name)
        tables += [(name, n) for n in range(v.players.min, v.players.max + 1)]
    return tables


def random_deal(state: GameState, rng: random.Random, check=None, limit: int = 1000) -> int:
    """Play one deal with uniformly random legal actions; returns the number of actions."""
    if state.session_over:
        return 0
    state.start_deal()
    steps = 0
    while state.pending is not None:
        actions = state.legal_actions()
        assert actions, f"no legal action for seat {state.to_act} in phase {state.phase}"
        state.apply(rng.choice(actions))
        steps += 1
        if check:
            check(state)
        assert steps < limit, "the deal does not end"
    return steps


def new_table(name: str, players: int, seed: int = 0, **kw) -> GameState:
    return GameState(Rules(builtin(name), players), players, seed=seed, **kw)
