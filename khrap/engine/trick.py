"""Who takes a trick: the one comparison of cards both engines play by.

A card on a trick is worth (class, rank): the joker played as the joker 3, a trump 2, a card of
the suit led 1, any other 0; the best value takes the trick, the first played of equals (with one
deck two cards never tie above class 0).  The compiled machine's loop for the plain follow rule
(``compiled/tricks.py``) writes the same comparison inline, for speed; the lockstep tests hold it
to this one.
"""

from __future__ import annotations

from collections.abc import Sequence

Entry = tuple[int, int, bool]  # (seat, card, played as the joker)


def strength(card: int, as_joker: bool, led: int | None, trump: int | None) -> tuple[int, int]:
    """(class, rank) of ``card`` on a trick whose led suit is ``led`` (None: a joker led as the joker)."""
    if as_joker:
        return (3, 0)
    suit = card // 13
    if suit == trump:
        return (2, card % 13)
    return (1 if suit == led else 0, card % 13)


def led_suit(trick: Sequence[Entry]) -> int | None:
    """The suit the first card asks for; None for an empty trick or a joker led as the joker."""
    if not trick:
        return None
    _, card, as_joker = trick[0]
    return None if as_joker else card // 13


def best(trick: Sequence[Entry], trump: int | None) -> tuple[Entry, tuple[int, int]]:
    """The entry taking the trick so far (the first of equals) and its value."""
    led = led_suit(trick)
    top, value = trick[0], strength(trick[0][1], trick[0][2], led, trump)
    for entry in trick[1:]:
        worth = strength(entry[1], entry[2], led, trump)
        if worth > value:
            top, value = entry, worth
    return top, value


def beaters(cards: list[int], trick: Sequence[Entry], trump: int | None) -> list[int]:
    """The cards that beat the trick's best card, played plainly, if any can; otherwise all of them."""
    _, value = best(trick, trump)
    led = led_suit(trick)
    higher = [c for c in cards if strength(c, False, led, trump) > value]
    return higher or cards
