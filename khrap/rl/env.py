"""A PettingZoo AEC environment: one deal of any variant per episode, through the Python API.

    from khrap.rl import env
    game = env(VARIANT, players=4)  # VARIANT: a built-in name, a .yaml path or a Variant
    game.reset(seed=1)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        action = None if terminated or truncated else game.action_space(agent).sample(obs["action_mask"])
        game.step(action)

Agents are ``player_0`` .. ``player_{N-1}`` (seat numbers).  Each observation
is ``{"observation": vector, "action_mask": 0/1 vector}`` (``khrap.rl.observe``,
``khrap.rl.actions``); the mask is all zeros for an agent not to act.  The reward
is the agent's chips won or lost in the deal (stack and locked stake, at
settlement).  ``reset(seed=S)`` fixes the deal and dealer; each later reset
without a seed deals the next one.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from khrap.engine import GameState, Rules
from khrap.engine.view import seat_view
from khrap.rl.actions import ActionSpace
from khrap.rl.observe import Encoder
from khrap.variant.catalog import load_variant
from khrap.variant.schema import Variant


class KhrapEnv(AECEnv):
    """Khrap-family deals as a multi-agent environment (turn-based: one agent acts at a time)."""

    metadata = {"name": "khrap_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant: str | Path | Variant = "khrap", players: int = 4, stacks: int = 100,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.variant = variant if isinstance(variant, Variant) else load_variant(variant)
        self.rules = Rules(self.variant, players)
        self.stacks = stacks
        self.render_mode = render_mode
        self.moves: ActionSpace = self.rules.action_space
        self.encoder = Encoder(self.rules)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.action_spaces = {a: spaces.Discrete(self.moves.size) for a in self.possible_agents}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.moves.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self._rng = random.Random()
        self.state: GameState | None = None
        self._legal: dict[int, object] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        n = self.rules.players
        self.state = GameState(self.rules, n, dealer=self._rng.randrange(n), stacks=self.stacks,
                               seed=self._rng.getrandbits(31))
        self.state.start_deal()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        s = self.state
        if s.pending is None:
            self._legal = {}
            return
        self.agent_selection = self.possible_agents[s.to_act]
        self._legal = self.moves.mask(s.legal_actions(), s.hands[s.to_act])

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.moves.size, dtype=np.int8)
        if self.state.pending is not None and self.state.to_act == seat:
            mask[list(self._legal)] = 1
        return {"observation": self.encoder.encode_view(seat_view(self.state, seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self._legal:
            raise ValueError(f"action {action} is not legal for {agent} now (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(self._legal[int(action)])
        self._after_move()
        if self.state.pending is None:
            s = self.state
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = float(s.stacks[seat] + s.locked[seat] - self.stacks)
                self.terminations[name] = True
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        s = self.state
        lines = [e.public for e in s.log[-6:]]
        return "\n".join(lines)

    def close(self) -> None:
        pass

    def describe(self, action: int) -> str:
        """What action number ``action`` stands for."""
        return self.moves.describe(action)


def env(variant: str | Path | Variant = "khrap", players: int = 4, **kwargs) -> KhrapEnv:
    """The environment (PettingZoo's convention: ``env()`` builds one)."""
    return KhrapEnv(variant, players, **kwargs)
