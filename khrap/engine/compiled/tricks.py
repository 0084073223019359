"""Trick play of the kernel: the first lead, the follow rule, the joker, who takes a trick.

A part of ``Machine`` (``machine.py``), written apart to keep each file to one phase; it reads and
changes the machine's deal state.  ``playable`` is the pure rule a solver needs: the cards a hand
may play to a trick, given the trump and the program.  These are the general steps, plain Python whether
compiled or not; the fused trick loop a playout runs for the plain follow rule (``Machine._play_tricks``),
with the compiled build's idioms it needs, is in ``machine.py`` beside the rest of the playout loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from khrap import words as w
from khrap.engine.compiled.table import Table, mypyc_attr
from khrap.engine.kinds import PLAY
from khrap.engine.trick import beaters, strength

if TYPE_CHECKING:  # (the program's module imports the machine's parts: typed natively all the same when compiled)
    from khrap.engine.compiled.program import Program

UNDECIDED: Final = w.UNDECIDED
DECLARER: Final = w.DECLARER
HELPER: Final = w.HELPER
OUT: Final = w.OUT
JOKER_FLAG: Final = 64  # a play action is a card, plus this when the card is played as the joker
def first_lead_suit(program: Program, trump: int | None, first_trick: bool) -> int | None:
    """The suit the first lead of the deal must be, if the leader holds one (``play.first_lead.suit``).

    None: any lead, because it is not the first trick, the variant asks no suit, or it asks for
    trump and there is none."""
    suit: Any = program.first_lead_suit  # (a suit, "trump" or None)
    if suit is None or not first_trick:
        return None
    return trump if suit == "trump" else suit


def playable(program: Program, hand: Sequence[int], trick: Sequence[tuple[int, int, bool]], trump: int | None,
             first_trick: bool = False) -> list[int]:
    """The plays open to ``hand`` on ``trick`` (empty: a lead), as ints: a card, plus ``JOKER_FLAG``
    when played as the joker (last).  ``first_trick``: no trick of the deal has been taken yet
    (the first lead's suit may be bound).  A pure function of its arguments: what a solver needs."""
    p = program
    if not trick:
        options = list(hand)
        suit = first_lead_suit(p, trump, first_trick)
        if suit is not None:
            options = [c for c in hand if c // 13 == suit] or options
    else:
        _, first, first_joker = trick[0]
        if first_joker:
            trumps = [c for c in hand if c // 13 == trump] if p.joker_demands_trump else None
            options = trumps or list(hand)
        else:
            led = first // 13
            same = [c for c in hand if c // 13 == led] if p.follow_suit else None
            if same:
                options = beaters(same, trick, trump) if p.must_beat else same
            else:
                trumps = [c for c in hand if c // 13 == trump] if p.trump_if_void else None
                if not trumps:
                    options = list(hand)
                elif p.must_overtrump:
                    options = beaters(trumps, trick, trump)
                else:
                    options = trumps
    joker = p.joker
    if joker is not None and joker in hand:
        options.append(joker + JOKER_FLAG)
    return options


@mypyc_attr(allow_interpreted_subclasses=True)  # copies and pickles: see table.py
class Tricks(Table):
    """The machine's trick play (a part of ``Machine``: see ``table``)."""

    __slots__ = ()  # no instance dict: see ``Table.__slots__``

    def _start_play(self) -> bool:
        """Begin play; False when a lone declarer is credited every trick instead."""
        statuses, declarer, program = self.statuses, self.declarer, self.program
        assert declarer is not None
        self.phase = w.PLAY_PHASE
        for seat in range(self.n):
            if statuses[seat] == UNDECIDED:
                statuses[seat] = OUT
        if self.keep_held or program.penalties_read_held:
            held: list[list[int]] = []
            for hand in self.hands:  # (a loop, not a comprehension, in a step of every deal: see _reset_deal)
                held.append(list(hand))
            self.held_at_play = held
        self.in_play = in_play = []
        for seat in program.orders[declarer]:
            if statuses[seat] in (DECLARER, HELPER):
                in_play.append(seat)
        if program.lone_takes_all and in_play == [declarer]:
            self.tricks[declarer] = program.hand_size
            self.ending = "lone"
            self.sink.credited(self, declarer, program.hand_size)
            return False
        leader = declarer
        first_lead = program.first_lead
        if first_lead:
            for seat in program.orders[(declarer + 1) % self.n]:
                if statuses[seat] in (DECLARER, HELPER) and self.call_of[seat] in first_lead:
                    leader = seat
                    break
        self.leader = leader
        self._wait_play(leader)
        return True

    def _wait_play(self, seat: int) -> None:
        """Wait for ``seat``'s card (``_wait`` is Machine's, a class below this one: a part never calls those)."""
        self.kind = PLAY
        self.seat = seat
        self.may_look = False
        self.looked[seat] = True  # (no blind call is open at play: he looks)

    def _playable(self, seat: int) -> list[int]:
        return playable(self.program, self.hands[seat], self.trick, self.trump, not self.won)

    def _play(self, seat: int, action: int) -> None:
        """Play a card; the trick keeps its best card and who played it as cards are played, and is
        closed when every player in play has played."""
        as_joker = action >= JOKER_FLAG
        card = action - JOKER_FLAG if as_joker else action
        self.looked[seat] = True
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card, as_joker))
        if len(trick) == 1:
            self.best = strength(card, as_joker, None if as_joker else card // 13, self.trump)
            self.best_seat = seat
        else:
            _, first, first_joker = trick[0]
            value = strength(card, as_joker, None if first_joker else first // 13, self.trump)
            if value > self.best:  # the first of equals keeps it
                self.best = value
                self.best_seat = seat
        self.sink.played(self, seat, card, as_joker)
        seats = self.in_play
        if len(trick) < len(seats):
            self._wait_play(seats[(seats.index(seat) + 1) % len(seats)])
            return
        winner = self.best_seat
        self.tricks[winner] += 1
        self.trick_winners.append(winner)
        self.won.extend(c for _, c, _ in trick)
        self.trick = []
        self.sink.took_trick(self, winner)
        if self.hands[winner]:
            self._wait_play(winner)
