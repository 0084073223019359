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
from khrap.engine.view import seat_view as typed_view


class Bot(Protocol):
    name: str

    def choose(self, observation: dict, legal: Sequence[Action], rng: random.Random) -> Action: ...


STRENGTHS: dict[str, str] = {"easy": "rule", "normal": "heuristic", "strong": "search"}
"""The three strengths a player chooses from, and the bot each one is: ``easy`` plays by rules of thumb,
``normal`` estimates its hand and says a call whenever it is worth more chips than passing, ``strong``
deals the hidden cards many times and solves each deal's play exactly.  ``normal`` is the default."""

DEFAULT = "normal"
"""The strength seated wherever none is asked for (``khrap play``, ``khrap serve``, simulate, analyze)."""

STRENGTH_HELP = ("easy (rules of thumb), normal (estimates its hand, calls whenever it pays: the default), "
                 "strong (searches many deals, solves the play exactly; slow)")
"""What each strength is, in one line for the commands' --help."""

KINDS: dict[str, Callable[[Rules], Bot]] = {
    "easy": RuleBot, "normal": HeuristicBot, "strong": SearchBot,
    "random": RandomBot, "rule": RuleBot, "heuristic": HeuristicBot, "mcts": MctsBot, "search": SearchBot,
}
"""Bot kinds by name: the strengths (``STRENGTHS``), then the bots by their own names, still accepted:
``random`` (uniform over the legal actions), ``rule`` (rules of thumb), ``heuristic`` (hand estimates
and card play, docs/bots.md), ``mcts`` (flat determinized search with heuristic playouts), ``search``
(deals weighted by the bidding, the card play solved exactly: ``khrap.bots.search``)."""

CHOICES: list[str] = [k for k in KINDS if k not in STRENGTHS.values()]
"""What a menu offers: the three strengths, then random and mcts (the old names stay accepted, not offered)."""


def kinds_text() -> str:
    """The kinds a player may name, strengths first, for a refusal."""
    others = [k for k in KINDS if k not in STRENGTHS]
    return f"easy, normal or strong; or {', '.join(others)}"


def strength_of(kind: str) -> str | None:
    """The strength word of a bot kind (``heuristic`` -> ``normal``), None for one outside the three."""
    if kind in STRENGTHS:
        return kind
    return next((word for word, bot in STRENGTHS.items() if bot == kind), None)


def strength_word(kind: str) -> str:
    """The word a bot kind is shown by: its strength (``heuristic`` -> ``normal``), else its own name."""
    return strength_of(kind) or kind


def make_bot(kind: str, rules: Rules) -> Bot:
    """A bot of ``kind`` for a table playing ``rules``; ValueError for an unknown kind."""
    try:
        return KINDS[kind](rules)
    except KeyError:
        raise ValueError(f"unknown bot kind '{kind}' (use {kinds_text()})") from None


def decision_rng(seed: int, step: int) -> random.Random:
    """The randomness of one decision: fixed by the session's seed and the number of actions so far,
    so a resumed session makes the same choices as one that was never interrupted."""
    return random.Random(f"khrap-bot:{seed}:{step}")


def choose_for(bot: Bot, game: GameState | object, rng: random.Random) -> Action:
    """``bot``'s choice for the seat to act in ``game`` (a Session or a GameState).

    The bot gets that seat's observation and the legal actions: the engine's typed seat view
    (``khrap.engine.view.seat_view``: int cards, typed events) for a bot that reads it (``bot.reads_view``),
    else the observation dict.  A search bot (``bot.searches``), or a bot that weighs this decision on
    sampled deals (``bot.needs_view(legal)``: a kind of decision it has no rule for), also gets the
    seat's resampler (``khrap.bots.determinize``), which copies only what that seat may know.  A bot that takes a
    lone legal action as it is, reading nothing and drawing nothing (``bot.takes_lone``), gets no view for it."""
    state = getattr(game, "state", game)
    seat = state.to_act
    legal = state.legal_actions()
    if len(legal) == 1 and getattr(bot, "takes_lone", False):
        return legal[0]  # (a third of an analysis's decisions: no view made for them)
    reads_view = getattr(bot, "reads_view", False)
    observation = typed_view(state, seat) if reads_view else state.observation(seat)
    needs_view = getattr(bot, "needs_view", None)  # a bot that weighs some decisions on sampled deals
    if getattr(bot, "searches", False) or (needs_view is not None and needs_view(legal)):
        from khrap.bots.determinize import seat_view

        return bot.choose(observation, legal, rng, view=seat_view(state, seat))
    return bot.choose(observation, legal, rng)


__all__ = [
    "CHOICES", "DEFAULT", "KINDS", "STRENGTHS", "STRENGTH_HELP", "Bot", "HeuristicBot", "MctsBot", "RandomBot",
    "RuleBot", "SearchBot", "choose_for", "decision_rng", "kinds_text", "make_bot", "strength_of",
    "strength_word",
]
