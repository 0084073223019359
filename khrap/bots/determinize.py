"""Determinization: what one seat knows of a deal, and random deals of the rest consistent with it.

``seat_view(state, seat)`` is the one place a search bot touches the real
``GameState``: the engine's resampler (``khrap.engine.resample.Resampler``) reads
the seat's view (``khrap.engine.view``: the public table, the seat's own hand
once looked and its secrets, the events as that seat may hold them) and the
facts it read there (cards played, voids shown, cards shown or taken from the
table, its own discards).  Every other card goes into one pool in canonical
order, with only the number of cards each place holds: so two states that
differ only in cards hidden from the seat give the same view.

``SeatView.sample(rng)`` deals the pool at random into the other hands, the
stock and the discard pile, respecting the voids a player showed and the
cards known to be in his hand, and returns a playable ``GameState``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from khrap.engine import Action, GameState, IllegalAction
from khrap.engine.resample import Resampler, copy_state


def try_each(deal: GameState, candidates: Sequence[Action], seed: int,
             finish: Callable[[GameState, random.Random], float], spend: bool = False) -> list[float] | None:
    """Each candidate applied to its own copy of ``deal``, every copy drawing from the same seed, then
    ``finish(copy, rng)``: the candidates compared on the same cards and the same luck (the search
    bots' one step).  None when a candidate is illegal on this deal: a seat that has not looked is
    dealt a random hand, which may not allow an action the real one does (a call that needs a card),
    and such a deal is not used.  ``spend``: the caller does not use ``deal`` afterwards (a sample of its
    own), so the last candidate is played on it itself rather than on a copy."""
    row = []
    last = len(candidates) - 1
    # Each copy's two generators draw what ``random.Random(seed)`` would, from one generator per role seeded once
    # for all the candidates (``Replay``; a seeding is about 23,000 instructions, most playouts draw nothing).
    game, luck = Tape(seed), Tape(seed)
    for i, action in enumerate(candidates):
        sim = deal if spend and i == last else fast_clone(deal)
        sim.rng = Replay(game)
        try:
            sim.apply(action)
        except IllegalAction:
            return None
        row.append(finish(sim, Replay(luck)))
    return row


class Tape:
    """The 32-bit words ``random.Random(seed)`` puts out, in order, drawn from one generator as far as any reader
    (``Replay``) has asked; the generator is seeded at the first word asked, not before."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.words: list[int] = []
        self._source: random.Random | None = None

    def word(self, i: int) -> int:
        """The ``i``-th word (from 0)."""
        words = self.words
        while len(words) <= i:
            if self._source is None:
                self._source = random.Random(self.seed)
            words.append(self._source.getrandbits(32))
        return words[i]


class Replay(random.Random):
    """A generator that draws exactly what a fresh ``random.Random(tape.seed)`` would, call for call: its words
    read from ``tape`` from the first, so every replay of one tape gives the same draws, and only the tape's one
    generator is seeded.  Its own ``random`` and ``getrandbits`` make them from the words as CPython's do (every
    other method of ``random.Random`` draws through these two); its own state cannot be read, set or seeded."""

    def __init__(self, tape: Tape) -> None:  # (``random.Random.__init__`` would seed the C state: not used)
        self._tape = tape
        self._at = 0
        self.gauss_next = None  # (what ``random.Random.__init__`` sets beside the seed)

    def _word(self) -> int:
        self._at += 1
        return self._tape.word(self._at - 1)

    def random(self) -> float:
        """As CPython's ``random()``: 53 bits from two words, the first's high 27 and the second's high 26."""
        a, b = self._word() >> 5, self._word() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """As CPython's: up to 32 bits from one word's high bits; more from words filled from the low end, the
        last one cut to its high bits."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k <= 32:
            return self._word() >> (32 - k) if k else 0
        value, shift = 0, 0
        while k > 0:
            word = self._word()
            value |= (word >> (32 - k) if k < 32 else word) << shift
            shift += 32
            k -= 32
        return value

    def seed(self, *args, **kwargs) -> None:
        raise TypeError("a Replay draws from its tape: it cannot be seeded")

    def getstate(self):
        raise TypeError("a Replay draws from its tape: it has no state of its own")

    def setstate(self, state) -> None:
        raise TypeError("a Replay draws from its tape: it has no state of its own")


def fast_clone(state: GameState) -> GameState:
    """A copy of ``state`` deep enough for play: lists, lists of lists, sets and dicts copied; rules shared
    (the engine's ``copy_state``)."""
    return copy_state(state)


class SeatView(Resampler):
    """One seat's knowledge of the deal in progress (build it with ``seat_view``): the engine's
    resampler (``khrap.engine.resample``), which reads the seat's view the engine makes."""


def seat_view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` knows of ``state``'s deal: the only way a search bot reads the real state."""
    return SeatView(state, seat)


def determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    """One random deal consistent with what ``seat`` knows of ``state``."""
    return seat_view(state, seat).sample(rng)
