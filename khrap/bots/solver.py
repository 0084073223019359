"""An exact solver for the card play with every hand open.

What it maximises.  Khrap is not a two-side game: every seat in play has its
own obligation and is paid by the kernel's settlement from the tricks of all
of them.  The solver answers, for one seat, the question a table asks after a
deal: *what could this seat have made against any play of the others?*  The
seat maximises, every other seat in play minimises the seat's result (the
"paranoid" reduction of a many-player game to two sides).  That makes the
value exact and guaranteed: the seat gets at least it whatever the others do,
and alpha-beta search applies.  (Each seat maximising its own chips, "max^n",
has no deep cut-offs and its value depends on how ties are broken, so it is
not a single fact about the deal.)  The result is measured by a *utility* of
the tricks every seat ends with:

* ``chips``: the seat's gain from the kernel's own settlement of those tricks
  (``khrap.bots.position.Kernel.chips``): what the search bot optimises;
* ``tricks``: the seat's tricks, for "the most it can take";
* ``at_least(k)``: 1 if the seat takes k tricks, else 0: "could the contract
  have been made" (``makeable``).

The search: alpha-beta over the tricks left, a transposition table keyed by
the cards left in each hand, the open trick and the tricks taken so far
(storing bounds and the best play), the best play from the table tried first
then the stronger cards, and equivalent cards (two cards of one hand with no
card of anyone else between them in that suit) tried once.  Every rule (the
legal plays, the trick's taker, the settlement) comes from the kernel through
``khrap.bots.position``.  An optional deadline is checked inside the search:
past it, ``SolverTimeout`` is raised.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from khrap.bots.position import Entry, Kernel, Play, Position, in_card_play, obligation, position_of

Utility = Callable[[tuple[int, ...]], float]
CHECK_EVERY = 512  # nodes between two looks at the clock
_INF: Final = float("inf")  # (made once: compiled, float("inf") in a function parses the string at every call)


class SolverTimeout(Exception):
    """The solver's deadline passed before it finished."""


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _cards(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def tricks_of(seat: int) -> Utility:
    """Utility: the tricks ``seat`` ends with."""
    return lambda tricks: tricks[seat]


def at_least(seat: int, need: int) -> Utility:
    """Utility: 1 if ``seat`` ends with at least ``need`` tricks, else 0."""
    return lambda tricks: 1.0 if tricks[seat] >= need else 0.0


def chips_of(kernel: Kernel, seat: int) -> Utility:
    """Utility: ``seat``'s gain in chips by the kernel's settlement."""
    return lambda tricks: kernel.chips(tricks)[seat]


@dataclass
class Solution:
    """A solved position: the seat's exact value, the value of each of its legal plays (when it is to act)."""

    seat: int
    value: float
    plays: dict[Play, float]
    nodes: int

    @property
    def best(self) -> Play | None:
        """The best play of the seat to act (the first of equals in the kernel's order), if it is the seat."""
        if not self.plays:
            return None
        return max(self.plays, key=lambda p: self.plays[p])


class Solver:
    """Alpha-beta for one seat (the maximiser) against every other seat in play."""

    def __init__(self, position: Position, seat: int, utility: Utility | None = None, *,
                 kernel: Kernel | None = None, deadline: float | None = None, prune: bool = True,
                 max_nodes: int | None = None, legal: dict[tuple, list[Play]] | None = None) -> None:
        """``legal``: the legal plays (strongest first) of positions met before, shared with other solvers of
        deals with the same rules and trump (they depend on nothing else), and filled in."""
        self.position = position
        self.kernel = kernel or Kernel(position)
        self.seat = seat
        self.utility = utility or chips_of(self.kernel, seat)
        self.deadline = deadline
        self.max_nodes: float = max_nodes if max_nodes is not None else _INF  # SolverTimeout past it
        self.prune = prune
        self.nodes = 0
        self.table: dict[tuple[Any, ...], tuple[float, float, Play | None]] = {}
        self._legal: dict[tuple[Any, ...], list[Play]] = {} if legal is None else legal
        self._in_play = len(position.order)
        self._joker: int | None = getattr(position.rules, "joker", None)

    # ---------------------------------------------------------------- entry points
    def root(self) -> tuple[tuple[int, ...], tuple[Entry, ...], tuple[int, ...], int, bool]:
        p = self.position
        return tuple(_mask(h) for h in p.hands), p.trick, p.tricks, p.to_act, p.first_trick

    def value(self) -> float:
        """The seat's exact value of the position."""
        hands, trick, tricks, to_act, first = self.root()
        return self._search(hands, trick, tricks, to_act, first, -_INF, _INF)

    def play_values(self, only: set[Play] | None = None) -> dict[Play, float]:
        """The exact value of each legal play of the seat to act (every play, equivalents included; only
        those in ``only`` if given)."""
        hands, trick, tricks, to_act, first = self.root()
        out: dict[Play, float] = {}
        for play in self._legal_plays(to_act, hands[to_act], trick, first):
            if only is not None and play not in only:
                continue
            h, t, k, s, f = self._child(hands, trick, tricks, to_act, play, first)
            out[play] = self._search(h, t, k, s, f, -_INF, _INF)
        return out

    def solve(self) -> Solution:
        values = self.play_values()
        mine = self.position.to_act == self.seat
        value = max(values.values()) if mine else min(values.values())
        return Solution(self.seat, value, values if mine else {}, self.nodes)

    # ---------------------------------------------------------------- the search
    def _legal_plays(self, seat: int, hand: int, trick: tuple[Entry, ...], first: bool) -> list[Play]:
        key = (seat, hand, trick, first)
        found = self._legal.get(key)
        if found is None:
            # strongest first: the move ordering (a cheap first guess at the best play)
            kernel = self.kernel
            found = self._legal[key] = kernel.strongest_first(kernel.playable(seat, _cards(hand), trick, first), trick)
        return found

    def _child(self, hands: tuple[int, ...], trick: tuple[Entry, ...], tricks: tuple[int, ...], seat: int, play: Play,
               first: bool) -> tuple[tuple[int, ...], tuple[Entry, ...], tuple[int, ...], int, bool]:
        card, joker = play
        # (each tuple made again from a list changed in place: compiled, slices joined by ``+`` are generic
        # concatenations, about a thousand instructions each)
        held = list(hands)
        held[seat] = hands[seat] & ~(1 << card)
        trick = (*trick, (seat, card, joker))
        if len(trick) < self._in_play:
            return tuple(held), trick, tricks, self.kernel.next_seat(seat), first
        winner = self.kernel.taker(trick)
        taken = list(tricks)
        taken[winner] += 1
        return tuple(held), (), tuple(taken), winner, False

    def _distinct(self, plays: list[Play], seat: int, hands: tuple[int, ...], trick: tuple[Entry, ...]) -> list[Play]:
        """The plays with equivalent cards dropped: of two cards of one suit in this hand with no other
        live card between them (in another hand or on the trick), only the lower is kept (order kept)."""
        if len(plays) < 2:
            return plays
        joker = self._joker
        mine = 0  # the plain cards among the plays (a joker, or a card played as one, is never dropped)
        for card, as_joker in plays:
            if not as_joker and card != joker:
                mine |= 1 << card
        others = 0
        for i, m in enumerate(hands):
            if i != seat:
                others |= m
        for _, c, _ in trick:
            others |= 1 << c
        dropped = 0
        rest = mine
        while rest:
            low = rest & -rest
            card = low.bit_length() - 1
            rest ^= low
            below = mine & (low - 1) & ~((1 << (card - card % 13)) - 1)  # the plays below it in its suit
            if below and not others & (low - (1 << below.bit_length())):
                dropped |= low  # no card of anyone else between this and the one below: the same play
        if not dropped:
            return plays
        return [p for p in plays if p[1] or p[0] == joker or not dropped >> p[0] & 1]

    @staticmethod
    def _order(plays: list[Play], best: Play | None) -> list[Play]:
        """The plays (strongest first, as listed) with the table's best play of an earlier search first."""
        if best is None or best not in plays or plays[0] == best:
            return plays
        ordered = list(plays)
        ordered.remove(best)
        ordered.insert(0, best)
        return ordered

    def _last_trick_forced(self, hands: tuple[int, ...]) -> bool:
        """One card left in every hand and none of them the joker: the last trick plays itself."""
        joker = self._joker
        return all(not m & (m - 1) for m in hands) and (joker is None or not any(m >> joker & 1 for m in hands))

    def _play_last_trick(self, hands: tuple[int, ...], tricks: tuple[int, ...], leader: int) -> tuple[int, ...]:
        trick: list[Entry] = []
        seat = leader
        for _ in range(self._in_play):
            trick.append((seat, hands[seat].bit_length() - 1, False))
            seat = self.kernel.next_seat(seat)
        taken = list(tricks)
        taken[self.kernel.taker(trick)] += 1
        return tuple(taken)

    def _search(self, hands: tuple[int, ...], trick: tuple[Entry, ...], tricks: tuple[int, ...], to_act: int,
                first: bool, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self.max_nodes or (
                self.deadline is not None and not self.nodes % CHECK_EVERY and time.perf_counter() > self.deadline):
            raise SolverTimeout
        if not trick:
            if not any(hands):
                return self.utility(tricks)
            if self._last_trick_forced(hands):
                return self.utility(self._play_last_trick(hands, tricks, to_act))
        key = (hands, trick, tricks, to_act, first)
        entry = self.table.get(key)
        best_play = None
        if entry is not None:
            lo, hi, best_play = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
        else:
            lo, hi = -_INF, _INF
        plays = self._legal_plays(to_act, hands[to_act], trick, first)
        if self.prune:
            plays = self._distinct(plays, to_act, hands, trick)
        maximise = to_act == self.seat
        if not maximise and trick and self.kernel.taker(trick) != self.seat:
            plays = plays[::-1]  # a partner of the minimisers holds the trick: the low cards first
        a, b = alpha, beta
        value = -_INF if maximise else _INF
        chosen = None
        for play in self._order(plays, best_play):
            # (unpacked, not ``*child``: compiled, a starred call goes through Python with its arguments boxed)
            h, t, k, s, f = self._child(hands, trick, tricks, to_act, play, first)
            v = self._search(h, t, k, s, f, a, b)
            if maximise:
                if v > value:
                    value, chosen = v, play
                    a = max(a, v)
            elif v < value:
                value, chosen = v, play
                b = min(b, v)
            if a >= b:
                break
        if value <= alpha:
            hi = min(hi, value)
        elif value >= beta:
            lo = max(lo, value)
        else:
            lo = hi = value
        self.table[key] = (lo, hi, chosen)
        return value


# ------------------------------------------------------------------ convenience
def solve(state, seat: int | None = None, utility: str = "chips", *, deadline: float | None = None) -> Solution:
    """Solve ``state``'s card play for ``seat`` (default: the seat to act) with every hand open.

    ``utility``: "chips" (the kernel's settlement) or "tricks"."""
    position = position_of(state)
    seat = position.to_act if seat is None else seat
    kernel = Kernel(position)
    fn = chips_of(kernel, seat) if utility == "chips" else tricks_of(seat)
    return Solver(position, seat, fn, kernel=kernel, deadline=deadline).solve()


def best_results(state, utility: str = "chips", *, deadline: float | None = None) -> dict[int, float]:
    """For every seat in play: the most it can be sure of (chips or tricks) with every hand open."""
    position = position_of(state)
    kernel = Kernel(position)
    out: dict[int, float] = {}
    for seat in position.order:
        fn = chips_of(kernel, seat) if utility == "chips" else tricks_of(seat)
        out[seat] = Solver(position, seat, fn, kernel=kernel, deadline=deadline).value()
    return out


@dataclass(frozen=True)
class Makeable:
    """A seat's obligation could have been met against any play: ``play`` is its first card on the way."""

    seat: int
    need: int
    play: Play
    leads: bool  # the seat plays the first card of the trick


def can_make(state, seat: int, need: int | None = None, *, deadline: float | None = None) -> bool:
    """Whether ``seat`` is sure of ``need`` tricks (default: its obligation) from ``state`` (any point of the
    card play, whoever is to play) against any play of the others: for counting makeable contracts."""
    need = obligation(state, seat) if need is None else need
    position = position_of(state)
    return Solver(position, seat, at_least(seat, need), deadline=deadline).value() >= 1.0


def makeable(state, seat: int, need: int | None = None, *, deadline: float | None = None) -> Makeable | None:
    """Whether ``seat`` can take ``need`` tricks (default: its obligation) against any play of the others.

    ``state``: a GameState in its card play with ``seat`` to play (e.g. a deal replayed to the seat's
    first card).  Returns how (the card to play) or None if no play of the seat guarantees it."""
    if not in_card_play(state) or state.pending.seat != seat:
        raise ValueError("makeable reads a deal in its card play with the seat to play")
    need = obligation(state, seat) if need is None else need
    position = position_of(state)
    solver = Solver(position, seat, at_least(seat, need), deadline=deadline)
    hands, trick, tricks, to_act, first = solver.root()
    for play in solver._legal_plays(to_act, hands[to_act], trick, first):
        h, t, k, s, f = solver._child(hands, trick, tricks, to_act, play, first)
        if solver._search(h, t, k, s, f, 0.5, 1.0) >= 1.0:
            return Makeable(seat, need, play, leads=not trick)
    return None
