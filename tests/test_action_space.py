"""The one integer action space per rules program (``engine/action_space.py``): its size worked by hand,
and int <-> Action <-> words round trips at every decision of random deals."""

from __future__ import annotations

import random

import pytest

from khrap.engine import Action, GameState, Rules
from khrap.variant.catalog import builtin, builtin_names


@pytest.mark.parametrize(("name", "size"), [
    # khrap: 8 calls, no swap or optional take (8); look (1); discard and play a card of the 36-card deck
    # (36 + 36), no joker; trump S H D C (4); exchange: subsets of hand_size + 1 = 5 positions (2**5 = 32).
    ("khrap", 8 + 1 + 36 + 36 + 4 + 32),
    # khrap-shoot: 7 plain calls and wrap, which swaps a hand position 1..5 (7 + 5); the rest as khrap.
    ("khrap-shoot", 7 + 5 + 1 + 36 + 36 + 4 + 32),
    # frap: frap, blind-frap, whist, pass, and cut with or without the turned trump (4 + 2); 32-card deck.
    ("frap", 4 + 2 + 1 + 32 + 32 + 4 + 32),
])
def test_num_distinct_actions(name: str, size: int) -> None:
    assert Rules(builtin(name), 4).action_space.num_distinct_actions == size


@pytest.mark.parametrize("name", builtin_names())
def test_every_legal_action_round_trips(name: str) -> None:
    """At every decision: each legal action has its own number inside the space, and the number gives
    back the very action and its words (an exchange read against the hand)."""
    rng = random.Random(name)
    state = GameState(builtin(name), 4, seed=rng.randrange(10**6))
    space = state.rules.action_space
    assert space is state.rules.action_space  # made once per rules
    for _ in range(4):
        if state.session_over:
            break
        state.start_deal()
        while state.pending is not None:
            hand = state.hands[state.seat]
            numbers = state.legal_numbers()
            assert len(numbers) == len(state.legal_actions())
            for number, action in numbers.items():
                assert 0 <= number < space.num_distinct_actions
                assert space.action(number, hand) == action
                assert space.words(number, hand) == str(action)
            state.apply(numbers[rng.choice(sorted(numbers))])


def test_numbers_outside_the_space_or_the_hand_are_refused() -> None:
    space = Rules(builtin("khrap"), 4).action_space
    with pytest.raises(ValueError, match="outside"):
        space.action(space.num_distinct_actions)
    with pytest.raises(ValueError, match="beyond"):
        space.action(space.exchange + 0b100, hand=[0, 1])  # throws the third card of a 2-card hand
    assert space.action(space.exchange + 0b101, hand=[5, 0, 3]) == Action("exchange", cards=(0, 5))
