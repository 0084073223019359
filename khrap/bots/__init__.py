"""Bots: players that decide from one seat's observation and its legal actions, never from the state.

``make_bot(kind, rules)`` gives a bot; ``bot.choose(observation, legal, rng)``
returns one of ``legal``.  The variant's rules are public (every player knows
the game), so a bot may read them; it never sees other hands or the stock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from khrap.bots.heuristic import HeuristicBot
from khrap.bots.mcts import MctsBot
from khrap.bots.random_bot import RandomBot
from khrap.bots.rule_bot import RuleBot
from khrap.bots.search import SearchBot
from khrap.engine import Action, GameState, Rules


class Bot(Protocol):
    name: str

    def choose(self, observation: dict, legal: Sequence[Action], rng: random.Random) -> Action: ...


KINDS: dict[str, Callable[[Rules], Bot]] = {
    "random": RandomBot, "rule": RuleBot, "heuristic": HeuristicBot, "mcts": MctsBot, "search": SearchBot,
}
"""Bot kinds by name: ``random`` (uniform over the legal actions), ``rule`` (rules of thumb),
``heuristic`` (hand estimates and card play, docs/bots.md), ``mcts`` (flat determinized search with
heuristic playouts), ``search`` (deals weighted by the bidding, the card play solved exactly, a hard
time limit per decision: ``khrap.bots.search``)."""


def make_bot(kind: str, rules: Rules) -> Bot:
    """A bot of ``kind`` for a table playing ``rules``; ValueError for an unknown kind."""
    try:
        return KINDS[kind](rules)
    except KeyError:
        raise ValueError(f"unknown bot kind '{kind}' (use {' or '.join(KINDS)})") from None


def decision_rng(seed: int, step: int) -> random.Random:
    """The randomness of one decision: fixed by the session's seed and the number of actions so far,
    so a resumed session makes the same choices as one that was never interrupted."""
    return random.Random(f"khrap-bot:{seed}:{step}")


def choose_for(bot: Bot, game: GameState | object, rng: random.Random) -> Action:
    """``bot``'s choice for the seat to act in ``game`` (a Session or a GameState).

    The bot gets that seat's observation and the legal actions; a search bot
    (``bot.searches``) also gets the seat's view (``khrap.bots.determinize``),
    which copies only what that seat may know."""
    state = getattr(game, "state", game)
    seat = state.to_act
    observation, legal = state.observation(seat), state.legal_actions()
    if getattr(bot, "searches", False):
        from khrap.bots.determinize import seat_view

        return bot.choose(observation, legal, rng, view=seat_view(state, seat))
    return bot.choose(observation, legal, rng)


__all__ = [
    "KINDS", "Bot", "HeuristicBot", "MctsBot", "RandomBot", "RuleBot", "SearchBot", "choose_for", "decision_rng",
    "make_bot",
]
