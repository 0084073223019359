"""Instant wins and settlement of the kernel: who pays and who is paid, all from the program.

A part of ``Machine`` (``machine.py``), written apart to keep each file to one phase; it reads and
changes the machine's chips and deal state.  P is the pot when settlement begins (RULES.md §0).
Steps, each switched on or shaped by the variant's ``settlement``: trick shares, the declarer's
prize, penalties of failed players, locked stakes returned, and redistribution or carry-over.
Each payment is told to the machine's sink (``sink.py``): while it records, each is an event and the
``settled`` event carries the itemised ``Ledger``; the null sink makes neither.
"""

from __future__ import annotations

from typing import Any, Final

from khrap import words as w
from khrap.engine.actions import Action
from khrap.engine.compiled.program import holds
from khrap.engine.compiled.table import mypyc_attr
from khrap.engine.compiled.tricks import Tricks
from khrap.engine.events import Ledger

DECLARER: Final = w.DECLARER
HELPER: Final = w.HELPER


@mypyc_attr(allow_interpreted_subclasses=True)  # copies and pickles: see table.py
class Payouts(Tricks):
    """The kernel's instant wins and settlement (a part of ``Machine``: see ``table``)."""

    __slots__ = ()  # no instance dict: see ``Table.__slots__``

    # ---------------------------------------------------------- instant wins
    def _instant_wins(self) -> None:
        statuses, hands, declarer = self.statuses, self.hands, self.declarer
        assert declarer is not None
        seats = self.program.orders[declarer]
        for wid, of_rank, count, all_pay, skip_if_pot in self.program.instant_wins:
            for seat in seats:
                if statuses[seat] in (DECLARER, HELPER) and sum(map(of_rank, hands[seat])) >= count:
                    self._instant_win(wid, seat, all_pay, skip_if_pot)
                    return
        self._next_stage()

    def _instant_win(self, wid: str, seat: int, all_pay: bool, skip_if_pot: bool) -> None:
        """``seat`` takes the pot at once; the others pay their status stakes into it."""
        self.ending = wid
        self.sink.instant_win(self, seat, wid)
        pot = self.pot  # P: every payer's stake is counted on the pot before the win, whatever order they pay in
        self.stacks[seat] += pot + self.locked[seat]
        self.pot = 0
        self.locked[seat] = 0
        self.sink.took_pot(self, seat, pot)
        house = self.program.house
        if house is not None:  # the pot is his win
            self._house_share(house, [seat], [pot], [0] * self.n, False)
        helper = self.program.helper_status
        for other in self.program.orders[(seat + 1) % self.n]:
            if other == seat:
                continue
            if self.statuses[other] in (DECLARER, HELPER):
                self._pay_into_pot(other, self.stake_of[other], "stake",
                                      {"status": self.statuses[other], "base": pot})
            elif all_pay:
                assert helper is not None
                self._pay_into_pot(other, helper.base + helper.pots * pot, "helper_stake", {"base": pot})
        self._return_locks()
        self.skip_next_ante = skip_if_pot and self.pot > 0
        self._finish_deal()

    # ---------------------------------------------------------------- double
    def _double(self, seat: int, action: Action) -> None:
        """``seat``'s answer to the offer to double (``Variant.double``; asked of the helpers before the first
        lead): ``double`` adds the declarer's stake to what the declarer and the doubler each pay if he fails
        (their ``stake_of``, which a ``pay: stake`` penalty charges) and ends the offers (once per deal); the
        other answer changes nothing."""
        if action.word != w.DOUBLE:  # the answer's word, not the kind's name (equal strings, not one thing)
            return
        declarer = self.declarer
        assert declarer is not None
        stake = self.stake_of[declarer]
        self.queue.clear()
        for who in (declarer, seat):
            self.stake_of[who] += stake
            self.sink.status(self, who, 0)

    # ----------------------------------------------------------- settlement
    def _pay_from_pot(self, seat: int, chips: int, reason: str, why: dict[str, Any]) -> int:
        """Pay ``seat`` up to ``chips`` from the pot (never more than it holds); ``why``: the reason's numbers."""
        if chips > self.pot:
            chips = self.pot
        if chips <= 0:
            return 0
        self.pot -= chips
        self.stacks[seat] += chips
        self.sink.paid_out(self, seat, chips, reason, why)
        return chips

    def _pay_into_pot(self, seat: int, chips: int, reason: str, why: dict[str, Any]) -> int:
        """Pay ``chips`` into the pot, from his locked stake first; without debts no more than he has (his stack
        and his locked chips), and the event then says what was ``owed``.  Returns what he paid."""
        locked = self.locked[seat]
        if self.program.cap_payments:
            owed = chips
            chips = max(0, min(chips, self.stacks[seat] + locked))
            if chips != owed:
                why = {**why, "owed": owed}
        from_lock = chips if chips < locked else locked
        self.locked[seat] = locked - from_lock
        self.stacks[seat] -= chips - from_lock
        self.pot += chips
        self.sink.paid_in(self, seat, chips, reason, why)
        return chips

    def settle(self) -> None:
        """Settle the deal as it stands (a table set up by hand, as the rulebook's arithmetic does):
        the players in play are the active seats clockwise from the declarer."""
        declarer = self.declarer
        assert declarer is not None
        self.in_play = [s for s in self.program.orders[declarer] if self.statuses[s] in (DECLARER, HELPER)]
        self._settle()

    def _settle(self) -> None:
        p, sink = self.program, self.sink
        pot_at_start = self.pot_settle = self.pot
        statuses, tricks = self.statuses, self.tricks
        declarer = self.declarer
        assert declarer is not None
        seats = self.in_play  # the declarer and his helpers, clockwise from him (``_start_play``)
        needed = p.tricks_needed
        failed: list[int] = []  # (loops, not comprehensions, in the steps of every deal: no function made and called)
        for seat in seats:
            if tricks[seat] < needed[statuses[seat]]:
                failed.append(seat)
        house = p.house
        held = [self.stacks[s] + self.locked[s] for s in seats] if house is not None else []
        sink.settling(self, seats)
        # Trick shares.
        unit = pot_at_start // p.share_divisor
        share_statuses, fulfilled_only = p.share_statuses, p.share_fulfilled_only
        for seat in seats:
            if statuses[seat] in share_statuses and not (fulfilled_only and seat in failed):
                took = tricks[seat]
                if took:  # (no share, no payment: ``_pay_from_pot`` pays nothing)
                    chips = self._pay_from_pot(seat, unit * took, "share", {"tricks": took, "unit": unit})
                    if chips:
                        sink.share_item(self, seat, chips, took, unit, pot_at_start)
        # The declarer's prize.
        if p.prizes and declarer not in failed:
            prize = p.prizes[min(self.declarer_round, len(p.prizes)) - 1]
            chips = self.pot if prize == "rest" else pot_at_start // 2 if prize == "half" else 0
            chips = self._pay_from_pot(declarer, chips, "prize", {"round": self.declarer_round})
            if chips:
                sink.prize_item(self, declarer, chips, pot_at_start, prize)
        # Penalties of the failed, then what is still locked goes back to its owner.
        fined = [0] * self.n
        for seat in failed:
            fined[seat] = self._penalty(seat, pot_at_start)
        sink.unlock_items(self, seats)
        if p.any_locked:  # else nothing is ever locked
            self._return_locks()
        if p.redistribute:
            winners: list[int] = []
            for seat in seats:
                if tricks[seat] > 0 and seat not in failed:
                    winners.append(seat)
            self._redistribute(winners)
        if house is not None:  # a seat's win: what he holds now, less what he held, plus the fine he paid
            wins = [self.stacks[s] + self.locked[s] - held[i] + fined[s] for i, s in enumerate(seats)]
            self._house_share(house, seats, wins, fined, True)
        self._finish_deal(sink.ledger(self, pot_at_start, unit, p.share_divisor, failed))

    def _penalty(self, seat: int, pot_at_start: int) -> int:
        """The first penalty that matches a failed ``seat`` (status, call, tricks, cards held at play): the chips
        he pays (0 when none matches)."""
        status, call, took = self.statuses[seat], self.call_of[seat], self.tricks[seat]
        trump, held = self.trump, self.held_at_play[seat]
        for pstatus, pcalls, ptricks, pheld, pay in self.program.penalties:
            if pstatus is not None and pstatus != status:
                continue
            if pcalls and call not in pcalls:
                continue
            if ptricks is not None and ptricks != took:
                continue
            if pheld and not holds(held, pheld, trump):
                continue
            if pay is None:
                chips, bases, pots = self.stake_of[seat], 0, 0
            else:
                bases, pots = pay
                chips = bases + pots * pot_at_start
            paid = self._pay_into_pot(seat, chips, "penalty", {"status": status, "tricks": took})
            self.sink.penalty_item(self, seat, paid, took, pot_at_start, "stake" if pay is None else "amount", pots,
                                   bases, chips)
            return paid
        return 0

    def _house_share(self, house: tuple[int, int, bool], seats: list[int], wins: list[int], fined: list[int],
                     itemised: bool) -> None:
        """The house's commission: each of ``seats`` pays ``percent`` % (rounded down) of the part of his win
        (``wins``, in the same order) above the untaxed chips, unless the house spares him for a fine he paid
        (``fined``, by seat).  The chips leave the table: ``house`` counts them.  ``itemised``: a line of the
        settlement's ledger too (an instant win has none)."""
        percent, above, spare_fined = house
        for i, seat in enumerate(seats):
            taxed = wins[i] - above
            if taxed <= 0 or (spare_fined and fined[seat] > 0):
                continue
            chips = taxed * percent // 100
            if not self.program.allow_debt:  # a table without debts never takes a stack below zero
                chips = min(chips, self.stacks[seat])
            if chips <= 0:
                continue
            self.stacks[seat] -= chips
            self.house += chips
            self.sink.house_share(self, seat, chips, wins[i], taxed, percent)
            if itemised:
                self.sink.house_item(self, seat, chips, percent, taxed)

    def _redistribute(self, winners: list[int]) -> None:
        """Divide the pot among those who took tricks and did not fail, by tricks, each share rounded down."""
        tricks, sink = self.tricks, self.sink
        pot = self.pot
        if pot <= 0 or not winners:
            return
        total = 0
        for seat in winners:
            total += tricks[seat]
        for seat in winners:  # each share is at most what is left: the shares add up to at most the pot
            took = tricks[seat]
            chips = self._pay_from_pot(seat, pot * took // total, "redistribute", {})
            sink.redistribute_item(self, seat, chips, took, total, pot)
        if self.program.remainder_to_most and self.pot:
            best = max(winners, key=lambda s: tricks[s])
            chips = self._pay_from_pot(best, self.pot, "rounding", {})
            sink.rounding_item(self, best, chips)

    def _ante_due(self) -> int:
        """Chips each player antes before the next deal (0: no ante is due)."""
        p = self.program
        if self.skip_next_ante or p.ante_if_empty and self.pot != 0:
            return 0
        return p.ante * p.base_stake

    def _short_seat(self) -> tuple[int, int] | None:
        """(seat, chips needed) of the first player who may not be dealt the next deal: he holds less than
        ``min_stack`` or, without debts, than its ante; None: everyone may be dealt in."""
        p = self.program
        if p.min_stack < 0 and not p.cap_payments:
            return None
        need = max(p.min_stack, self._ante_due() if p.cap_payments else 0, 0)
        for seat in range(self.n):
            if self.stacks[seat] < need:
                return seat, need
        return None

    def _finish_deal(self, ledger: Ledger | None = None) -> None:
        """Unplayed cards to the discard pile; choose the next dealer; the deal is settled.

        ``ledger``: the itemised settlement of a deal played out, carried by the ``settled`` event."""
        discards = self.discards
        for hand in self.hands:
            if hand:
                discards += hand
                hand.clear()
        declarer = self.declarer
        self.next_dealer = self.program.next_dealers[self.dealer][0 if declarer is None else declarer + 1]
        self.deals_completed += 1
        self.settled = True
        self.phase = w.SETTLED
        self.kind = None
        self.sink.settled(self, ledger)
        if not self.session_over:
            short = self._short_seat()
            if short is not None:  # a player may not be dealt the next deal: the session ends with this one
                self.session_over = True
                self.sink.session_over(self, short[0], "stack", short[1])
