"""Shuffling and uniform choice: exactly what ``random.Random`` gives, with fewer Python calls.

``random.Random.shuffle`` and ``choice`` call the method ``_randbelow`` once per
card or choice; in a simulation that is a large share of a deal's time.  These
functions make the same ``getrandbits`` calls in the same order, so a seed deals
the same cards and picks the same actions as the standard methods.  At import
they are checked against the standard methods; where they differ (another
Python), the standard methods are used instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def _standard(rng: random.Random) -> bool:
    """Whether ``rng`` draws below n as ``random.Random`` does (a subclass may draw otherwise)."""
    return getattr(type(rng), "_randbelow", None) is getattr(random.Random, "_randbelow_with_getrandbits", False)


_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}  # by deck size: (i, i + 1, its bit length), from the top


def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    steps = _STEPS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps


_BITS = tuple(n.bit_length() for n in range(4096))  # a choice among n < 4096 reads its bit length here


def _shuffle(rng: random.Random, cards: list) -> None:
    getrandbits = rng.getrandbits
    for i, n, k in _STEPS.get(len(cards)) or _steps(len(cards)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _chooser(rng: random.Random) -> Callable[[Sequence[T]], T]:
    getrandbits = rng.getrandbits
    bits = _BITS

    def choose(options: Sequence[T]) -> T:
        n = len(options)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        k = bits[n] if n < 4096 else n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return options[r]

    return choose


def _agrees() -> bool:
    """Whether these functions give what this Python's ``random.Random`` gives."""
    sizes = [1 + i % 13 for i in range(40)] + [100, 1000, 4096, 8191, 70000]
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(52)), list(range(52))
        _shuffle(ours, a)
        theirs.shuffle(b)
        choose = _chooser(ours)
        if a != b or [choose(range(n)) for n in sizes] != [theirs.choice(range(n)) for n in sizes]:
            return False
        if ours.getstate() != theirs.getstate():
            return False
    return True


_AGREES = _agrees()


def shuffle(rng: random.Random, cards: list) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` would."""
    if _AGREES and _standard(rng):
        _shuffle(rng, cards)
    else:  # another Python's random module, or a generator that draws otherwise
        rng.shuffle(cards)


def chooser(rng: random.Random) -> Callable[[Sequence[T]], T]:
    """A function that picks from a sequence exactly as ``rng.choice`` would, call for call."""
    if _AGREES and _standard(rng):
        return _chooser(rng)
    return rng.choice


__all__ = ["chooser", "shuffle"]
