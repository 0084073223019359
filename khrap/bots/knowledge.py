"""What one seat has learned in the current deal, read from the events it saw, given as JSON.

The engine's resampler reads a seat's facts from the typed events of its view
(``khrap.engine.resample.facts_of``); a reader given the observation dict instead (the RL encoder, a bot
handed the dict) has its events as JSON (``Event.data(seat)``).  ``deal_facts`` reads those back as the
typed events they stand for (``events.from_data``) and hands them to the same reader, so there is one
reading of the facts, by event class: the cards played and who played them, the suits a player showed he
lacks, the cards shown or taken from the table, and the cards the seat itself drew, threw or discarded.
"""

from __future__ import annotations

from collections.abc import Sequence

from khrap.engine.events import from_data
from khrap.engine.resample import DealFacts, facts_of


def deal_facts(events: Sequence[dict], seat: int) -> DealFacts:
    """Read the current deal's events (JSON-ready, as ``Event.data(seat)`` gives them) as ``seat`` saw them."""
    return facts_of([from_data(event) for event in events], seat)


__all__ = ["DealFacts", "deal_facts"]
