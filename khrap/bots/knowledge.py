"""What one seat has learned in the current deal, read from the history lines it saw.

Both the heuristic bot (from ``observation["history"]``) and the determinizer
(from the same lines as that seat saw them) use it, so neither reads more than
the seat may know: the cards played and who played them, the suits a player
showed he lacks, the cards shown or taken from the table, and the cards the
seat itself drew, threw or discarded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from khrap.cards import CardError, parse_card

_DEAL = re.compile(r"^seat \d+ deals \d+ cards each")
_PLAY = re.compile(r"^seat (\d+) plays (\w\w)( as the joker)?$")
_TRICK = re.compile(r"^seat (\d+) takes the trick")
_SHOWS = re.compile(r"^seat (\d+) shows ((?:\w\w ?)+)$")
_TAKES = re.compile(r"^seat (\d+) takes (\w\w) from the table$")
_SWAPS = re.compile(r"^seat (\d+) swaps hand card \d+ for (\w\w)$")
_DRAWS = re.compile(r"^seat (\d+) draws ((?:[2-9TJQKA][SHDC] ?)+)(?: from .*)?$")
_EXCHANGES = re.compile(r"^seat (\d+) exchanges ((?:[2-9TJQKA][SHDC] ?)+)$")
_DISCARDS = re.compile(r"^seat (\d+) discards ([2-9TJQKA][SHDC])$")


def _cards(text: str) -> list[int]:
    try:
        return [parse_card(t) for t in text.split()]
    except CardError:
        return []


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


def deal_lines(lines: Sequence[str]) -> Sequence[str]:
    """The lines of the current deal (from its last deal, a redeal's included)."""
    for i in range(len(lines) - 1, -1, -1):
        if _DEAL.match(lines[i]):
            return lines[i:]
    return lines


def deal_facts(lines: Sequence[str], seat: int) -> DealFacts:
    """Read the current deal's lines as ``seat`` saw them."""
    facts = DealFacts()
    current: list[tuple[int, int, bool]] = []
    for line in deal_lines(lines):
        if m := _PLAY.match(line):
            entry = (int(m[1]), parse_card(m[2]), bool(m[3]))
            facts.played.append(entry)
            current.append(entry)
            facts.public_in_hand.get(entry[0], set()).discard(entry[1])
        elif _TRICK.match(line):
            facts.tricks.append(current)
            current = []
        elif m := _SHOWS.match(line) or _TAKES.match(line) or _SWAPS.match(line):
            who = int(m[1])
            cards = _cards(m[2])
            facts.public_in_hand.setdefault(who, set()).update(cards)
            if who == seat:
                facts.own_seen.update(cards)
        elif (m := _DRAWS.match(line)) and int(m[1]) == seat:
            facts.own_seen.update(_cards(m[2]))
        elif (m := _EXCHANGES.match(line) or _DISCARDS.match(line)) and int(m[1]) == seat:
            facts.own_gone.update(_cards(m[2]))
    return facts
