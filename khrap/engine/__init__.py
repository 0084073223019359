"""The trick-taking kernel: it knows mechanisms, and reads every rule from a variant."""

from khrap.engine.actions import Action, ActionError, parse_action
from khrap.engine.rules import Rules, RulesError
from khrap.engine.state import GameState, IllegalAction

__all__ = ["Action", "ActionError", "GameState", "IllegalAction", "Rules", "RulesError", "parse_action"]
