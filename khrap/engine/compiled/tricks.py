"""Trick play of the kernel: the first lead, the follow rule, the joker, who takes a trick.

A part of ``Machine`` (``machine.py``), written apart to keep each file to one phase; it reads and
changes the machine's deal state.  ``playable`` is the pure rule a solver needs: the cards a hand
may play to a trick, given the trump and the program.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from khrap import words as w
from khrap.engine.compiled.table import Choose, Table, mypyc_attr
from khrap.engine.kinds import PLAY
from khrap.engine.trick import beaters, strength

if TYPE_CHECKING:  # (the program's module imports the machine's parts: typed natively all the same when compiled)
    from khrap.engine.compiled.program import Program

UNDECIDED: Final = w.UNDECIDED
DECLARER: Final = w.DECLARER
HELPER: Final = w.HELPER
OUT: Final = w.OUT
JOKER_FLAG: Final = 64  # a play action is a card, plus this when the card is played as the joker
# Whether a card is of a suit (None: no trump named), as C-level tests for ``filter``.
IN_SUIT: Final[dict[int | None, Callable[[int], bool]]] = {
    suit: frozenset(range(13 * suit, 13 * suit + 13)).__contains__ for suit in range(4)
}
IN_SUIT[None] = frozenset().__contains__
# Whether this module runs as plain Python (not compiled by mypyc): the fused trick loop then lists a follower's
# cards with C-level filters over ``IN_SUIT``, else with ``_follow``'s native loop (held equal by
# tests/test_kernel_branches.py, which plays the loop against the general branch, and test_compiled_parts.py).
INTERPRETED: Final = __file__.endswith(".py")


def first_lead_suit(program: Program, trump: int | None, first_trick: bool) -> int | None:
    """The suit the first lead of the deal must be, if the leader holds one (``play.first_lead.suit``).

    None: any lead, because it is not the first trick, the variant asks no suit, or it asks for
    trump and there is none."""
    suit: Any = program.first_lead_suit  # (a suit, "trump" or None)
    if suit is None or not first_trick:
        return None
    return trump if suit == "trump" else suit


def playable(program: Any, hand: Sequence[int], trick: Sequence[tuple[int, int, bool]], trump: int | None,
             first_trick: bool = False) -> list[int]:
    """The plays open to ``hand`` on ``trick`` (empty: a lead), as ints: a card, plus ``JOKER_FLAG``
    when played as the joker (last).  ``first_trick``: no trick of the deal has been taken yet
    (the first lead's suit may be bound).  A pure function of its arguments: what a solver needs.  (``program``,
    a ``Program``, is read through a variable of its type: compiled, its fields are read natively.)"""
    p: Program = program
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


def _follow(hand: list[int], led: int, trump: int | None) -> list[int]:
    """The plain follow rule's options for ``hand`` on a trick led in suit ``led``: the cards of that suit, else the
    trumps, else every card (a new list, in the hand's order).  Compiled, a native loop over the unboxed cards
    (``list(filter(...))`` called a set's ``__contains__`` through Python for each card)."""
    same = [c for c in hand if c // 13 == led]
    if same:
        return same
    if trump is not None:
        trumps = [c for c in hand if c // 13 == trump]
        if trumps:
            return trumps
    return hand.copy()


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
            self.held_at_play = [list(hand) for hand in self.hands]
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

    def _play_tricks(self, choose: Choose) -> int:
        """Play every trick left, ``choose`` picking each card from what ``_playable`` would list.

        The same steps as ``apply`` of each card, for the plain follow rule (follow suit, else
        trump, else anything; no duty to beat; no joker) in one loop: most decisions of a deal
        are cards, and this loop is where a simulation spends its time."""
        hands, seats, looked = self.hands, self.in_play, self.looked
        tricks, winners, won = self.tricks, self.trick_winners, self.won
        trump, size = self.trump, len(seats)
        leader = self.seat
        played = 0
        rotations = self.program.rotations(seats)
        in_suit = IN_SUIT
        in_trump = in_suit[trump]
        for seat in seats:  # each plays a card to the first trick, and a seat that plays has looked
            looked[seat] = True
        first = first_lead_suit(self.program, trump, not self.won)  # the first lead's suit (None: any card)
        while True:
            hand = hands[leader]
            if first is None:
                card: int = choose(list(hand))
            else:
                card = choose(list(filter(in_suit[first], hand)) or list(hand))
                first = None
            hand.remove(card)
            won.append(card)
            led = card // 13
            # (class, rank) as one number, class × 13 + rank: trump 2, the suit led 1 (another suit never wins).
            best_seat, best = leader, card % 13 + (26 if led == trump else 13)
            in_led = in_suit[led] if INTERPRETED else in_trump
            for seat in rotations[leader]:
                hand = hands[seat]
                if INTERPRETED:  # (C-level filters, the interpreter's fastest; compiled, ``_follow``'s native loop)
                    card = choose(list(filter(in_led, hand)) or list(filter(in_trump, hand)) or list(hand))
                else:
                    card = choose(_follow(hand, led, trump))
                hand.remove(card)
                won.append(card)
                suit = card // 13
                if suit == trump:
                    value = card % 13 + 26
                elif suit == led:
                    value = card % 13 + 13
                else:
                    continue
                if value > best:
                    best_seat, best = seat, value
            played += size
            tricks[best_seat] += 1
            winners.append(best_seat)
            if not hands[best_seat]:  # the last trick: nobody is to act, ``play_deal`` runs on to settlement
                self.kind = None
                return played
            leader = best_seat
            self.seat = leader

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
            best = self.best  # (compared by their fields: compiled, a tuple compared with ``>`` is boxed twice)
            if value[0] > best[0] or (value[0] == best[0] and value[1] > best[1]):  # the first of equals keeps it
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
