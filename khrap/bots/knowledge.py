"""What one seat has learned in the current deal, read from the events it saw.

The heuristic bot and the RL encoder read it from ``observation["events"]``; the engine's
resampler (``khrap.engine.resample.facts_of``) reads the same facts from the typed events of the
seat's view, so neither reads more than the seat may know: the cards played and who played them, the suits a player
showed he lacks, the cards shown or taken from the table, and the cards the
seat itself drew, threw or discarded.
"""

from __future__ import annotations

from collections.abc import Sequence

from khrap.cards import card_str
from khrap.engine.resample import DealFacts  # (the engine's resampler reads the same facts from typed events)

_CARD = {card_str(c): c for c in range(52)}


def _card(value: str | int) -> int:
    return value if isinstance(value, int) else _CARD[value]


def _cards(values) -> list[int]:
    return [_card(v) for v in values]


def deal_start(kinds: Sequence[str]) -> int:
    """Where the current deal begins among events of these kinds: its last dealing (a redeal's included)."""
    for i in range(len(kinds) - 1, -1, -1):
        if kinds[i] == "dealt":
            return i
    return 0


def deal_events(events: Sequence[dict]) -> Sequence[dict]:
    """The events of the current deal (from its last dealing, a redeal's included)."""
    return events[deal_start([e["kind"] for e in events]):]


def deal_facts(events: Sequence[dict], seat: int) -> DealFacts:
    """Read the current deal's events (JSON-ready, as ``Event.data(seat)`` gives them) as ``seat`` saw them."""
    facts = DealFacts()
    current: list[tuple[int, int, bool]] = []
    for event in deal_events(events):
        kind, who = event["kind"], event["seat"]
        if kind == "played":
            entry = (who, _card(event["card"]), bool(event["joker"]))
            facts.played.append(entry)
            current.append(entry)
            facts.public_in_hand.get(who, set()).discard(entry[1])
        elif kind == "took_trick":
            facts.tricks.append(current)
            current = []
        elif kind in ("shown", "took_turned", "swapped"):
            cards = _cards(event["cards"]) if kind == "shown" else [_card(event["card"])]
            facts.public_in_hand.setdefault(who, set()).update(cards)
            if who == seat:
                facts.own_seen.update(cards)
        elif who != seat:
            continue
        elif kind == "drew" and "cards" in event:
            facts.own_seen.update(_cards(event["cards"]))
        elif kind == "exchanged" and "cards" in event:
            facts.own_gone.update(_cards(event["cards"]))
        elif kind == "discarded" and "card" in event:
            facts.own_gone.add(_card(event["card"]))
    return facts


__all__ = ["DealFacts", "deal_events", "deal_facts", "deal_start"]
