"""Frap and snore (RULES.md §4, §5): player counts and the deck each count uses."""

import pytest

from khrap.engine import Rules, RulesError
from khrap.variant.catalog import builtin


@pytest.mark.parametrize(
    ("players", "cards"),
    [(2, 32), (3, 32), (4, 32), (5, 36), (6, 36), (7, 52), (8, 52), (12, 52)],
)
def test_frap_deck_by_players(players: int, cards: int) -> None:
    # up to 4 players: 7..A (8 ranks x 4); 5-6: 6..A (9 x 4); 7-12: 2..A (13 x 4)
    assert len(Rules(builtin("frap"), players).deck) == cards


@pytest.mark.parametrize(("name", "players"), [("frap", 1), ("frap", 13), ("snore", 1), ("snore", 6)])
def test_player_limits(name: str, players: int) -> None:
    with pytest.raises((RulesError, ValueError)):
        Rules(builtin(name), players)


def test_snore_deck_and_hand() -> None:
    rules = Rules(builtin("snore"), 5)
    assert len(rules.deck) == 36 and rules.hand_size == 5
