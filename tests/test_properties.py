"""Random legal play of every built-in variant at every player count.

After every action: chips (stacks + pot + locked, plus what the house's commission took,
``state.house``: those chips left the table but not the count) and cards (hands + stock +
turned + discards + tricks + the trick on the table) are conserved; whenever an
action is pending a legal one exists; every deal ends.  The deal counts are
sized for CI; raise KHRAP_PROPERTY_DEALS to run more by hand.
"""

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from khrap.engine import GameState, Rules
from khrap.variant.catalog import load_variant
from khrap.variant.loader import ANYWHERE, trusting
from tests.conftest import every_table, examples, new_table, random_deal, size

HRAPOFF = Path(__file__).resolve().parents[1] / "docs" / "house-rules" / "hrapoff.yaml"

DEALS = size("KHRAP_PROPERTY_DEALS", 300)


def conservation(total_chips: int, deck: int):
    def check(state) -> None:
        assert state.chips_in_play() + state.house == total_chips, "chips were created or lost"
        assert state.cards_in_play() == deck, "cards were created or lost"

    return check


@pytest.mark.large
@pytest.mark.parametrize(("name", "players"), every_table())
def test_random_sessions_conserve_chips_and_cards(name: str, players: int) -> None:
    rng = random.Random(f"{name}-{players}")
    state = new_table(name, players, seed=players)
    check = conservation(state.total_chips, len(state.rules.deck))
    for _ in range(DEALS):
        random_deal(state, rng, check)
        assert state.phase == "settled"
        assert all(not hand for hand in state.hands), "cards left in hands after settlement"


@pytest.mark.large
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(every_table()), seed=st.integers(0, 2**32 - 1), stacks=st.integers(0, 50))
def test_any_seed_and_stack_conserves(table: tuple[str, int], seed: int, stacks: int) -> None:
    name, players = table
    state = new_table(name, players, seed=seed, stacks=stacks)
    check = conservation(state.total_chips, len(state.rules.deck))
    rng = random.Random(seed)
    for _ in range(3):
        random_deal(state, rng, check)


@pytest.mark.large
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_house_share_is_counted_in_conservation(players: int) -> None:
    """docs/house-rules/hrapoff.yaml takes a commission: the chips it takes leave the table, so the table's
    chips alone fall short of what was brought by exactly ``house``, and the house does take some."""
    with trusting(ANYWHERE):
        variant = load_variant(str(HRAPOFF))
    state = GameState(Rules(variant, players), players, seed=players, stacks=100_000)
    check = conservation(state.total_chips, len(state.rules.deck))
    rng = random.Random(players)
    for _ in range(DEALS // 3):
        random_deal(state, rng, check)
    assert state.house > 0, "no commission was ever taken"
    assert state.chips_in_play() == state.total_chips - state.house
