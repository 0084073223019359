"""Cards, suits, ranks, the CONTRACT.md notation and decks.

A card is a small int, ``suit * 13 + rank``, with suits in the canonical order
S H D C and ranks 2..A as 0..12.  Sorting the ints gives the canonical order of
CONTRACT.md (suits S H D C, each ascending), and ints keep the kernel fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

Card = int


class CardError(ValueError):
    """A card, rank or suit that does not parse."""


def make(rank: int, suit: int) -> Card:
    return suit * 13 + rank


def rank_of(card: Card) -> int:
    return card % 13


def suit_of(card: Card) -> int:
    return card // 13


def parse_rank(text: str | int) -> int:
    """Rank index 0..12 from ``"6"``, ``6``, ``"T"``, ``"10"`` or ``"a"``."""
    word = str(text).strip().upper()
    if word == "10":
        word = "T"
    if len(word) != 1 or word not in RANKS:
        raise CardError(f"{text!r} is not a rank (use one of {' '.join(RANKS)} or 10)")
    return RANKS.index(word)


def parse_suit(text: str) -> int:
    word = str(text).strip().upper()
    if len(word) != 1 or word not in SUITS:
        raise CardError(f"{text!r} is not a suit (use one of {' '.join(SUITS)})")
    return SUITS.index(word)


def parse_card(text: str) -> Card:
    """Parse ``"TS"``, ``"10s"``, ``"ah"``: rank then suit, any case."""
    word = str(text).strip()
    if len(word) < 2:
        raise CardError(f"{text!r} is not a card (write rank then suit, e.g. TS or AH)")
    try:
        return make(parse_rank(word[:-1]), parse_suit(word[-1]))
    except CardError:
        raise CardError(f"{text!r} is not a card (write rank then suit, e.g. TS or AH)") from None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    words = text.split() if isinstance(text, str) else list(text)
    return [parse_card(w) for w in words]


def card_str(card: Card) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def suit_str(suit: int) -> str:
    return SUITS[suit]


def rank_str(rank: int) -> str:
    return RANKS[rank]


def cards_str(cards: Iterable[Card]) -> list[str]:
    return [card_str(c) for c in cards]


def canonical(cards: Iterable[Card]) -> list[Card]:
    """Cards in the canonical order: suits S H D C, ascending ranks."""
    return sorted(cards)


def build_deck(ranks: Sequence[int]) -> list[Card]:
    """Every card of the given ranks in every suit, in canonical order."""
    return [make(r, s) for s in range(4) for r in sorted(ranks)]
