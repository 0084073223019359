"""The random bot: every legal action equally likely."""

from __future__ import annotations

import random
from collections.abc import Sequence

from khrap.engine import Action, Rules


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules

    def choose(self, observation: dict, legal: Sequence[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError(f"seat {observation.get('seat')} has no legal action")
        return rng.choice(list(legal))
