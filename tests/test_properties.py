"""Random legal play of every built-in variant at every player count.

After every action: chips (stacks + pot + locked) and cards (hands + stock +
turned + discards + tricks + the trick on the table) are conserved; whenever an
action is pending a legal one exists; every deal ends.  The deal counts are
sized for CI; raise KHRAP_PROPERTY_DEALS to run more by hand.
"""

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import every_table, examples, new_table, random_deal

DEALS = int(os.environ.get("KHRAP_PROPERTY_DEALS", "300"))


def conservation(total_chips: int, deck: int):
    def check(state) -> None:
        assert state.chips_in_play() == total_chips, "chips were created or lost"
        assert state.cards_in_play() == deck, "cards were created or lost"

    return check


@pytest.mark.parametrize(("name", "players"), every_table())
def test_random_sessions_conserve_chips_and_cards(name: str, players: int) -> None:
    rng = random.Random(f"{name}-{players}")
    state = new_table(name, players, seed=players)
    check = conservation(state.total_chips, len(state.rules.deck))
    for _ in range(DEALS):
        random_deal(state, rng, check)
        assert state.phase == "settled"
        assert all(not hand for hand in state.hands), "cards left in hands after settlement"


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(every_table()), seed=st.integers(0, 2**32 - 1), stacks=st.integers(0, 50))
def test_any_seed_and_stack_conserves(table: tuple[str, int], seed: int, stacks: int) -> None:
    name, players = table
    state = new_table(name, players, seed=seed, stacks=stacks)
    check = conservation(state.total_chips, len(state.rules.deck))
    rng = random.Random(seed)
    for _ in range(3):
        random_deal(state, rng, check)
