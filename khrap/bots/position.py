"""The one door between the solver and the kernel: a card-play position and the kernel's rules for it.

The solver (``khrap.bots.solver``) searches positions of the card play with
every hand open.  It never writes a rule itself: which cards a hand may play
comes from the kernel's follow function, who takes a trick from
``khrap.engine.trick`` (``best``/``strength``), and what the tricks are worth
from the kernel's own settlement run on a copy of the deal.  This module is
the only place those kernel functions are called from the bots' search, so a
rebuilt kernel changes this one file.  The kernel's parts it reads: the pure
``khrap.engine.compiled.tricks.playable`` and ``GameState.settle``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from khrap.engine import trick as _trick
from khrap.engine.compiled.tricks import JOKER_FLAG
from khrap.engine.compiled.tricks import playable as _pure_playable
from khrap.engine.copying import copy_state
from khrap.engine.kinds import PLAY
from khrap.engine.state import GameState

Entry = tuple[int, int, bool]  # (seat, card, played as the joker)
Play = tuple[int, bool]  # (card, as the joker)


@dataclass
class Position:
    """The card play with every hand open: who plays in what order, the hands, the trick, tricks taken.

    ``order``: the seats in play, clockwise from the declarer (the kernel's ``in_play``);
    ``hands[s]``: seat s's cards (empty for a seat not in play); ``trick``: the open trick;
    ``tricks[s]``: tricks taken so far; ``to_act``: the seat to play; ``first_trick``: no trick closed
    yet (a variant may ask for a suit on the first lead)."""

    rules: Any
    n: int
    trump: int | None
    order: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    trick: tuple[Entry, ...]
    tricks: tuple[int, ...]
    to_act: int
    first_trick: bool
    state: Any = field(default=None, repr=False, compare=False)  # the GameState it was read from

    @property
    def cards_left(self) -> int:
        return sum(len(h) for h in self.hands)


def position_of(state) -> Position:
    """The card-play position of ``state`` (a GameState waiting for a card to be played)."""
    if state.pending is None or state.pending.kind is not PLAY:
        raise ValueError("the solver reads a deal in its card play, with a card to be played")
    return Position(
        rules=state.rules, n=state.n, trump=state.trump, order=tuple(state.in_play),
        hands=tuple(tuple(h) for h in state.hands), trick=tuple(state.trick), tricks=tuple(state.tricks),
        to_act=state.pending.seat, first_trick=not state.won, state=state,
    )


def in_card_play(state: GameState) -> bool:
    """Whether ``state`` waits for a card to be played (typed: compiled, its reads are native, not by name; the
    search asks it at every playout step)."""
    return state.pending is not None and state.pending.kind is PLAY


_SHARES: dict[int, tuple[object, float]] = {}


def pot_share(rules) -> float:
    """A seat's worth per chip left in the pot at a deal's end: the variant's ``pot_share`` in its
    calibration entry (``khrap.bots.calibration``) where it has one, else 1/n, each seat's part of a pot
    that stays at the table (docs/solver.md, "The pot")."""
    found = _SHARES.get(id(rules))
    if found is None or found[0] is not rules:
        from khrap.bots.calibration import constants_for

        share = constants_for(rules.variant).pot_share
        found = _SHARES[id(rules)] = (rules, share if share >= 0 else 1 / rules.players)
    return found[1]


def worth(state: GameState, seat: int, share: float) -> float:
    """A seat's chips as the search and the solver value a deal's end: its stack, its locked stake and
    ``share`` of each chip left in the pot (the pot stays at the table; see ``pot_share``)."""
    return state.stacks[seat] + state.locked[seat] + share * state.pot


def seat_worth(state: GameState, seat: int) -> float:
    """``worth`` at the variant's pot share: what the search bots compare their candidates by."""
    return worth(state, seat, pot_share(state.rules))


class Kernel:
    """The kernel's rules for one position's deal: legal plays, the trick's taker, the settlement."""

    def __init__(self, position: Position, share: float | None = None,
                 shared: dict[tuple[int, ...], tuple[float, ...]] | None = None,
                 alike: dict[tuple, tuple[float, ...]] | None = None) -> None:
        """``shared``: settlements already computed for deals that settle alike whatever their hidden cards
        (the samples of one card-play decision, where the settlement reads no card held), filled in too.
        ``alike``: settlements already computed for any deal of the same rules, keyed by what a settlement reads
        (``settles_as``), filled in too (the playouts' leaves of one decision: most settle as another did)."""
        self.position = position
        self._shared = shared
        self.share = pot_share(position.rules) if share is None else share
        self.trump = position.trump
        self.order = position.order
        self._next = {s: position.order[(i + 1) % len(position.order)] for i, s in enumerate(position.order)}
        self._program: Any = getattr(position.rules, "program", None)  # (a Program: ``playable`` takes it as one)
        read_held = self._program is None or self._program.penalties_read_held
        self._alike = None if read_held else alike
        self._settled: dict[tuple[int, ...], tuple[float, ...]] = {}
        self._before: list[float] | None = None
        self._facts: tuple | None = None  # (``settles_as``)

    @property
    def settled(self) -> int:
        """How many settlements ``chips`` has needed (each a copy of the deal settled, unless ``shared`` had it)."""
        return len(self._settled)

    def next_seat(self, seat: int) -> int:
        """The seat in play after ``seat`` (clockwise)."""
        return self._next[seat]

    def playable(self, seat: int, hand: Sequence[int], trick: Sequence[Entry], first_trick: bool) -> list[Play]:
        """Every (card, as_joker) ``hand`` may play on ``trick``: the kernel's follow function."""
        plays = _pure_playable(self._program, hand, trick, self.trump, first_trick)
        return [(p - JOKER_FLAG, True) if p >= JOKER_FLAG else (p, False) for p in plays]

    def taker(self, trick: Sequence[Entry]) -> int:
        """The seat holding ``trick`` so far (the whole trick: its taker), the first of equals: the kernel's
        ``strength`` of each card, its (class, rank) compared as one number, class × 13 + rank, as the kernel's
        trick loop does (``khrap.engine.trick.best`` compares the pairs; a search asks this at every node)."""
        trump = self.trump
        led = _trick.led_suit(trick)
        seat, top = -1, -1
        for who, card, joker in trick:
            cls, rank = _trick.strength(card, joker, led, trump)
            value = cls * 13 + rank
            if value > top:
                seat, top = who, value
        return seat

    def strength(self, card: int, joker: bool, trick: Sequence[Entry]) -> tuple[int, int]:
        """(class, rank) of a card played on ``trick``: the kernel's comparison."""
        led = _trick.led_suit(trick) if trick else (None if joker else card // 13)
        return _trick.strength(card, joker, led, self.trump)

    def strongest_first(self, plays: list[Play], trick: Sequence[Entry]) -> list[Play]:
        """``plays`` strongest first by ``strength`` on ``trick``, the first listed first among equals: what
        ``sorted(plays, key=..., reverse=True)`` gives (a stable sort), in one loop of integer keys, class × 13 +
        rank then the place in the list (compiled: a key function is called through Python, and the solver
        orders the plays of most positions it meets)."""
        if len(plays) > 64:  # (the place takes 6 bits)
            return sorted(plays, key=lambda p: self.strength(p[0], p[1], trick), reverse=True)
        trump = self.trump
        led = _trick.led_suit(trick)
        keys: list[int] = []
        for i, (card, joker) in enumerate(plays):
            cls, rank = _trick.strength(card, joker, led if trick else (None if joker else card // 13), trump)
            keys.append((cls * 13 + rank) * 64 + 63 - i)
        keys.sort(reverse=True)
        return [plays[63 - (k & 63)] for k in keys]

    def chips(self, tricks: tuple[int, ...]) -> tuple[float, ...]:
        """What each seat gains in the deal when play ends with ``tricks``: the kernel's settlement.

        A seat's worth is ``worth``: its stack, its locked stake and ``share`` of each chip left in
        the pot (``pot_share`` unless given); the gain is measured from the position's state, cached
        by trick counts."""
        found = self._settled.get(tricks)
        if found is None:
            shared = self._shared
            found = None if shared is None else shared.get(tricks)
            if found is None:
                alike = self._alike
                key = None if alike is None else (tricks, self.settles_as())
                found = None if key is None or alike is None else alike.get(key)
                if found is None:
                    found = self._settle(tricks)
                    if key is not None and alike is not None:
                        alike[key] = found
                if shared is not None:
                    shared[tricks] = found
            self._settled[tricks] = found
        return found

    def settles_as(self) -> tuple:
        """What the kernel's settlement of the position's deal reads besides the tricks and the rules, and what a
        seat's worth is measured from (``worth``): two deals of one rules program with these equal settle alike
        trick count for trick count (``Payouts.settle`` and what it calls: the statuses and the declarer, who is
        in play, the calls and stakes penalties read, the declarer's round for the prize, the stacks, locked
        stakes and pot paid from and into; the cards held only where a penalty reads them, and then ``alike`` is
        not used; the tricks are the settlement's own, not the deal's so far) and the pot's share a worth counts.
        Worked out once per kernel."""
        facts = self._facts
        if facts is None:
            state = self.position.state
            if state is None:
                raise ValueError("chips need the position's GameState (read it with position_of)")
            facts = self._facts = (
                tuple(state.statuses), state.declarer, tuple(state.call_of), tuple(state.stake_of),
                state.declarer_round, tuple(state.stacks), tuple(state.locked), state.pot, state.trump, self.share)
        return facts

    def _settle(self, tricks: tuple[int, ...]) -> tuple[float, ...]:
        state = self.position.state
        if state is None:
            raise ValueError("chips need the position's GameState (read it with position_of)")
        n, share = state.n, self.share
        before = self._before
        if before is None:  # (the position's own worths: the same for every settlement of its kernel)
            before = self._before = [worth(state, i, share) for i in range(n)]
        sim = copy_state(state)  # (the search's copy; compiled with this module: a native call)
        sim.log = []
        sim.tricks = list(tricks)
        sim.hands = [[] for _ in range(n)]
        sim.trick = []
        sim.emitting = False
        sim.settle()  # the kernel's settlement of the deal as it stands
        # (loops in this function, not a nested one: compiled, a nested function is called through Python)
        return tuple([worth(sim, i, share) - before[i] for i in range(n)])


def obligation(state, seat: int) -> int:
    """The tricks ``seat``'s status obliges it to take (0 for a seat with none)."""
    return state.program.tricks_needed[state.statuses[seat]]


def failed_seats(state, tricks: Sequence[int]) -> list[int]:
    """The seats in play that fail their obligation with ``tricks``."""
    return [s for s in state.in_play if tricks[s] < obligation(state, s)]
