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
from khrap.engine.resample import Replay, Resampler, Tape, copy_state


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


def fast_clone(state: GameState) -> GameState:
    """A copy of ``state`` deep enough for play: lists, lists of lists, sets and dicts copied; rules shared
    (the engine's ``copy_state``)."""
    return copy_state(state)


class SeatView(Resampler):
    """One seat's knowledge of the deal in progress (build it with ``seat_view``): the engine's
    resampler (``khrap.engine.resample``), which reads the seat's view the engine makes.

    Made at its first use: until a bot reads anything of it but ``seat`` and ``held``, it holds the state and
    has read nothing.  A search bot gets one at every decision (``khrap.bots.choose_for``) and searches few
    of them (one legal action, a gate): a resampler reads the seat's whole deal, its events and a copy, about
    a twentieth of the strong bot's time when every decision made one.  So it is made then, from the state as
    it stands: read it during the decision it was given for, before the state changes."""

    def __init__(self, state: GameState, seat: int) -> None:  # (``Resampler.__init__`` runs at the first read)
        self.seat = seat
        self._state: GameState | None = state
        self._held = len(state.hands[seat]) if state.looked[seat] else 0

    @property
    def held(self) -> int:
        """How many cards the seat holds as far as it knows (none before it looked): its hand in every sample."""
        return self._held

    def __getattr__(self, name: str):
        # (called only for an attribute not found: the resampler's, before it is made)
        state = self.__dict__.get("_state")
        if state is None:
            raise AttributeError(name)
        self._state = None
        Resampler.__init__(self, state, self.seat)
        return getattr(self, name)


def seat_view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` knows of ``state``'s deal: the only way a search bot reads the real state."""
    return SeatView(state, seat)


def determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    """One random deal consistent with what ``seat`` knows of ``state``."""
    return seat_view(state, seat).sample(rng)
