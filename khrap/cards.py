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


RANK_WORDS = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
    "ten": "T", "10": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A",
}
"""Rank words as players write them (any case), besides the letters and digits of CONTRACT.md."""
SUIT_WORDS = {
    **{symbol: letter for letter, symbol in SUIT_SYMBOLS.items()},
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
    **{name: letter for letter, name in SUIT_NAMES.items()},
    **{name[:-1]: letter for letter, name in SUIT_NAMES.items()},
}
"""Suit symbols (♠ ♥ ♦ ♣, filled or not) and names (spades, spade), besides the letters S H D C."""

_RANK_HELP = "write 2-9, 10 (or T), J, Q, K or A, e.g. 10 or Ace"
_SUIT_HELP = "write S, H, D or C (or ♠ ♥ ♦ ♣), e.g. S or ♠"
_CARD_HELP = "write rank then suit, e.g. TS, 10♠, 7s or AH"


def _rank_letter(word: str) -> str | None:
    """The canonical rank letter of ``word``, or None."""
    up = word.upper()
    if len(up) == 1 and up in RANKS:
        return up
    return RANK_WORDS.get(word.lower())


def _suit_letter(word: str) -> str | None:
    up = word.upper()
    if len(up) == 1 and up in SUITS:
        return up
    return SUIT_WORDS.get(word.lower())


def parse_rank(text: str | int) -> int:
    """Rank index 0..12 from ``"6"``, ``6``, ``"T"``, ``"10"``, ``"a"``, ``"Ace"`` or ``"ten"``."""
    letter = _rank_letter(str(text).strip())
    if letter is None:
        raise CardError(f"{str(text).strip()!r} is not a rank: {_RANK_HELP}")
    return RANKS.index(letter)


def parse_suit(text: str) -> int:
    """Suit index 0..3 from ``"S"``, ``"s"``, ``"♠"`` or ``"spades"``."""
    letter = _suit_letter(str(text).strip())
    if letter is None:
        raise CardError(f"{str(text).strip()!r} is not a suit: {_SUIT_HELP}")
    return SUITS.index(letter)


_CANONICAL = {r + s: si * 13 + ri for si, s in enumerate(SUITS) for ri, r in enumerate(RANKS)}


def parse_card(text: str) -> Card:
    """Parse a card as players write it: ``"TS"``, ``"10s"``, ``"ah"``, ``"7♠"``, ``"10♦"``, ``"ace of spades"``.

    Rank then suit, any case; CONTRACT.md's canonical form is read first (the fast path bots use).
    """
    word = str(text).strip()
    card = _CANONICAL.get(word)
    if card is not None:
        return card
    rank, suit = _split_card(word)
    if rank is None or suit is None:
        raise CardError(f"{word!r} is not a card: {_CARD_HELP}")
    return make(RANKS.index(rank), SUITS.index(suit))


def _split_card(word: str) -> tuple[str | None, str | None]:
    parts = word.replace("-", " ").split()
    if len(parts) == 3 and parts[1].lower() == "of":  # "ace of spades"
        return _rank_letter(parts[0]), _suit_letter(parts[2])
    if len(parts) == 2:  # "10 ♦", "ace spades"
        return _rank_letter(parts[0]), _suit_letter(parts[1])
    if len(parts) != 1 or len(word) < 2:
        return None, None
    for cut in range(len(word) - 1, 0, -1):  # the longest suit word that ends the text: "7♠", "Tspades"
        rank, suit = _rank_letter(word[:cut]), _suit_letter(word[cut:])
        if rank is not None and suit is not None:
            return rank, suit
    return None, None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    words = text.split() if isinstance(text, str) else list(text)
    return [parse_card(w) for w in words]


CARD_WORDS: tuple[str, ...] = tuple(RANKS[card % 13] + SUITS[card // 13] for card in range(52))
"""Each card's words by the card (``CARD_WORDS[card]`` is ``card_str(card)``): compiled code indexes it natively
(the server writes every view's hand, legal actions and played cards: a call of ``card_str`` each from compiled
code cost more than the card's words)."""


def card_str(card: Card) -> str:
    return CARD_WORDS[card]  # (as RANKS[card % 13] + SUITS[card // 13] was: -52..-1 too, IndexError from 52)


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
