"""Shared helpers for the tests, and the hypothesis profiles (docs/testing.md)."""

import os
import random
from pathlib import Path, PurePosixPath

from hypothesis import settings

from khrap.engine import GameState, Rules
from khrap.variant.catalog import builtin, builtin_names

# `ci` (the default): the same examples on every run and machine, no database, the counts the tests ask for.
# `large`: random examples, the database in .hypothesis/, ten times the examples (``examples``), by hand.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("large", derandomize=False, print_blob=True)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)
SCALE = 10 if PROFILE == "large" else 1


def examples(count: int) -> int:
    """The number of hypothesis examples for a test that asks for ``count`` in CI (ten times in `large`)."""
    return count * SCALE


def size(variable: str, ci: int) -> int:
    """A test's size (deals, files): the environment variable ``variable`` when it is set, else ``ci``, the CI
    size (ten times in `large`): one switch, ``HYPOTHESIS_PROFILE=large``, raises every sized test at once."""
    value = os.environ.get(variable)
    return int(value) if value else ci * SCALE


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


def heuristic_decisions(rules: Rules, seeds: int):
    """Deals of seeds 0 to ``seeds`` - 1 at four seats (the dealer the seed modulo 4), every decision taken by the
    normal (heuristic) bot with the session's randomness: yields the state before each decision; the caller reads
    it, never changes it, and the bot's choice is applied when the caller asks for the next one."""
    from khrap.bots import HeuristicBot, choose_for, decision_rng

    bot = HeuristicBot(rules)
    for seed in range(seeds):
        state = GameState(rules, 4, dealer=seed % 4, seed=seed)
        state.start_deal()
        step = 0
        while state.pending is not None:
            yield state
            state.apply(choose_for(bot, state, decision_rng(seed, step)))
            step += 1


def new_table(name: str, players: int, seed: int = 0, **kw) -> GameState:
    return GameState(Rules(builtin(name), players), players, seed=seed, **kw)


# The `slow` tier (docs/testing.md "Tiers"): each test of these files takes seconds even at its CI size (a
# Chromium page, a PDF, a terminal or server in a subprocess, simulate/analyze, the web leak test); CI runs them,
# `-m "not slow"` leaves them out of a quick run. Measured by `--durations` (docs/testing.md).
SLOW_FILES = ("web/test_browser*.py", "test_sheet_pdf.py", "test_rulebook_pdf.py", "test_play_pty.py",
              "test_session_kill.py", "test_sim_makeable.py", "test_sim_paired.py", "test_sim_report*.py",
              "test_sim_dask.py", "web/test_protocol.py", "web/test_restart.py", "web/test_connections.py",
              "web/test_hostile_rules.py", "hardening/test_terminal_text.py")


def pytest_collection_modifyitems(config, items) -> None:
    import pytest

    here = Path(__file__).resolve().parent
    for item in items:
        path = Path(str(item.fspath))
        if path.is_relative_to(here) and any(PurePosixPath(path.relative_to(here).as_posix()).match(pattern)
                                             for pattern in SLOW_FILES):
            item.add_marker(pytest.mark.slow)
