"""The RL environment's numbered actions: the engine's one action space (``khrap.engine.action_space``)."""

from khrap.engine.action_space import ActionSpace

__all__ = ["ActionSpace"]
