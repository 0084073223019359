"""The PettingZoo environment (runs where the `rl` extra is installed)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from khrap.rl import env  # noqa: E402
from khrap.session import Session  # noqa: E402


@pytest.mark.parametrize("variant", ["khrap", "frap", "student-snore", "khrap-shoot"])
def test_passes_pettingzoo_api_test(variant: str) -> None:
    api_test(env(variant, 4), num_cycles=60, verbose_progress=False)


def test_same_seed_same_episodes() -> None:
    seed_test(lambda: env("khrap", 4), num_cycles=30)


def test_masks_name_exactly_the_legal_actions_and_a_deal_ends_with_its_chips() -> None:
    game = env("snore", 3)
    game.reset(seed=3)
    rng = np.random.default_rng(0)
    seen = set()
    for _agent in game.agent_iter():
        obs, reward, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        s = game.state
        legal = s.legal_actions()
        numbers = [game.moves.index(a, s.hands[s.to_act]) for a in legal]
        assert len(set(numbers)) == len(legal)  # one number per action
        assert sorted(numbers) == sorted(np.flatnonzero(obs["action_mask"]).tolist())
        choice = int(rng.choice(numbers))
        seen.add(game.describe(choice).split()[0])
        game.step(choice)
    s = game.state
    total = sum(s.stacks) + sum(s.locked) - 3 * 100
    assert total == -s.pot  # chips are conserved: what the players lost is in the pot
    assert {"play"} <= seen


def test_an_agent_sees_what_its_seat_may_see() -> None:
    game = env("khrap", 4)
    game.reset(seed=5)
    seat = game.state.to_act
    other = (seat + 1) % 4
    vector = game.observe(f"player_{seat}")["observation"]
    again = game.encoder.encode(Session("khrap", 4).state.observation(0))  # any observation encodes
    assert vector.shape == again.shape == (game.encoder.size,)
    hand_block = vector[: len(game.encoder.deck)]
    assert hand_block.sum() == len(game.state.hands[seat])
    assert game.observe(f"player_{other}")["action_mask"].sum() == 0
