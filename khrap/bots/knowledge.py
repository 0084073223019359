"""What one seat has learned in the current deal, read from the events it saw.

Both the heuristic bot (from ``observation["events"]``) and the determinizer
(from the same events as that seat saw them) use it, so neither reads more than
the seat may know: the cards played and who played them, the suits a player
showed he lacks, the cards shown or taken from the table, and the cards the
seat itself drew, threw or discarded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from khrap.cards import card_str

_CARD = {card_str(c): c for c in range(52)}


def _card(value: str | int) -> int:
    return value if isinstance(value, int) else _CARD[value]


def _cards(values) -> list[int]:
    return [_card(v) for v in values]


@dataclass
class DealFacts:
    """The current deal as one seat saw it."""

    played: list[tuple[int, int, bool]] = field(default_factory=list)  # (seat, card, as_joker), in order
    tricks: list[list[tuple[int, int, bool]]] = field(default_factory=list)  # closed tricks
    public_in_hand: dict[int, set[int]] = field(default_factory=dict)  # shown / taken cards, per seat
    own_seen: set[int] = field(default_factory=set)  # cards the seat drew or took
    own_gone: set[int] = field(default_factory=set)  # cards the seat exchanged or discarded

    @property
    def played_cards(self) -> set[int]:
        return {c for _, c, _ in self.played}

    def voids(self, trump: int | None, follow_suit: bool = True, trump_if_void: bool = True) -> dict[int, set[int]]:
        """Suits each seat has shown he lacks (by not following, or not trumping when void)."""
        out: dict[int, set[int]] = {}
        tricks = [*self.tricks, self._open()] if self._open() else self.tricks
        for trick in tricks:
            first = trick[0]
            if first[2]:
                continue  # a joker led as the joker asks for no suit
            led = first[1] // 13
            for seat, card, joker in trick[1:]:
                if joker or card // 13 == led or not follow_suit:
                    continue
                out.setdefault(seat, set()).add(led)
                if trump_if_void and trump is not None and card // 13 != trump and led != trump:
                    out[seat].add(trump)
        return out

    def _open(self) -> list[tuple[int, int, bool]]:
        done = sum(len(t) for t in self.tricks)
        return self.played[done:]


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
