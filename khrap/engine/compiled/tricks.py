"""Trick play of the compiled machine: the first lead, the follow rule, the joker, who takes a trick.

A part of ``Machine`` (``machine.py``), written apart to keep each file to one phase, as the
reference kernel's ``play`` module is; it reads and changes the machine's deal state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from khrap import words as w
from khrap.engine.compiled.table import Choose, Table
from khrap.engine.play import first_lead_suit, leads
from khrap.engine.trick import beaters, best

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


class Tricks(Table):
    """The machine's trick play (a part of ``Machine``: see ``table``)."""

    def _start_play(self) -> bool:
        """Begin play; False when a lone declarer is credited every trick instead."""
        statuses, declarer = self.statuses, self.declarer
        assert declarer is not None
        for seat in range(self.n):
            if statuses[seat] == UNDECIDED:
                statuses[seat] = OUT
        if self.program.penalties_read_held:
            self.held_at_play = [list(hand) for hand in self.hands]
        self.in_play = [s for s in self.program.orders[declarer] if statuses[s] in (DECLARER, HELPER)]
        if self.program.lone_takes_all and self.in_play == [declarer]:
            self.tricks[declarer] = self.program.hand_size
            self.ending = "lone"
            return False
        leader = declarer
        first_lead = self.program.first_lead
        if first_lead:
            for seat in self.program.orders[(declarer + 1) % self.n]:
                if statuses[seat] in (DECLARER, HELPER) and self.call_of[seat] in first_lead:
                    leader = seat
                    break
        self._wait("play", leader)
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
        first = first_lead_suit(self)  # a suit the first lead must be (None: any card)
        while True:
            hand = hands[leader]
            if first is None:
                card: int = choose(list(hand))
            else:
                card = choose([*filter(in_suit[first], hand)] or list(hand))
                first = None
            hand.remove(card)
            led = card // 13
            in_led = in_suit[led]
            best_seat, best_class, best_rank = leader, (2 if led == trump else 1), card % 13
            cards = [card]
            for seat in rotations[leader]:
                hand = hands[seat]
                options = [*filter(in_led, hand)] or [*filter(in_trump, hand)] or list(hand)
                card = choose(options)
                hand.remove(card)
                cards.append(card)
                suit = card // 13
                cls = 2 if suit == trump else 1 if suit == led else 0
                if cls > best_class or (cls == best_class and card % 13 > best_rank):
                    best_seat, best_class, best_rank = seat, cls, card % 13
            played += size
            tricks[best_seat] += 1
            winners.append(best_seat)
            won.extend(cards)
            if not hands[best_seat]:
                self.kind = None
                self.advance()
                return played
            leader = best_seat
            self.seat = leader

    def _playable(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        trick = self.trick
        p = self.program
        joker = p.joker
        if not trick:
            options = leads(self, hand)
        else:
            trump = self.trump
            _, first, first_joker = trick[0]
            if first_joker:
                trumps = [c for c in hand if c // 13 == trump] if p.joker_demands_trump else None
                options = trumps or list(hand)
            else:
                led = first // 13
                same = [c for c in hand if c // 13 == led] if p.follow_suit else None
                if same:
                    options = self._beat(same) if p.must_beat else same
                else:
                    trumps = [c for c in hand if c // 13 == trump] if p.trump_if_void else None
                    if not trumps:
                        options = list(hand)
                    elif p.must_overtrump:
                        options = self._beat(trumps)
                    else:
                        options = trumps
        if joker is not None and joker in hand:
            options.append(joker + JOKER_FLAG)
        return options

    def _beat(self, cards: list[int]) -> list[int]:
        """The cards that beat the trick's best card, if any can; otherwise all."""
        return beaters(cards, self.trick, self.trump)

    def _play(self, seat: int, action: int) -> None:
        as_joker = action >= JOKER_FLAG
        card = action - JOKER_FLAG if as_joker else action
        self.looked[seat] = True
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card, as_joker))
        seats = self.in_play
        if len(trick) < len(seats):
            self._wait("play", seats[(seats.index(seat) + 1) % len(seats)])
            return
        winner = self._trick_winner()
        self.tricks[winner] += 1
        self.trick_winners.append(winner)
        self.won.extend(c for _, c, _ in trick)
        self.trick = []
        if self.hands[winner]:
            self._wait("play", winner)

    def _trick_winner(self) -> int:
        return best(self.trick, self.trump)[0][0]
