"""Reinforcement learning: a PettingZoo AEC environment over any variant (``pip install 'khrap[rl]'``)."""

from khrap.rl.env import KhrapEnv, env

__all__ = ["KhrapEnv", "env"]
