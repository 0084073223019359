"""Instant wins and settlement of the compiled machine: who pays and who is paid.

A part of ``Machine`` (``machine.py``), written apart to keep each file to one phase, as the
reference kernel's ``settlement`` module is; it reads and changes the machine's chips and deal state.
"""

from __future__ import annotations

from typing import Final

from khrap import words as w
from khrap.engine.compiled.program import holds
from khrap.engine.compiled.tricks import Tricks

DECLARER: Final = w.DECLARER
HELPER: Final = w.HELPER


class Payouts(Tricks):
    """The machine's instant wins and settlement (a part of ``Machine``: see ``table``)."""

    # ---------------------------------------------------------- instant wins
    def _instant_wins(self) -> None:
        statuses, hands, declarer = self.statuses, self.hands, self.declarer
        assert declarer is not None
        for wid, of_rank, count, all_pay, skip_if_pot in self.program.instant_wins:
            for seat in self.program.orders[declarer]:
                if statuses[seat] in (DECLARER, HELPER) and len([*filter(of_rank, hands[seat])]) >= count:
                    self._instant_win(wid, seat, all_pay, skip_if_pot)
                    return
        self._next_stage()

    def _instant_win(self, wid: str, seat: int, all_pay: bool, skip_if_pot: bool) -> None:
        self.ending = wid
        self.stacks[seat] += self.pot + self.locked[seat]
        self.pot = 0
        self.locked[seat] = 0
        helper = self.program.helper_status
        for other in self.program.orders[(seat + 1) % self.n]:
            if other == seat:
                continue
            if self.statuses[other] in (DECLARER, HELPER):
                self._pay_into_pot(other, self.stake_of[other])
            elif all_pay:
                assert helper is not None
                self._pay_into_pot(other, helper.base + helper.pots * self.pot)
        self._return_locks()
        self.skip_next_ante = skip_if_pot and self.pot > 0
        self._finish_deal()

    # ----------------------------------------------------------- settlement
    def _pay_from_pot(self, seat: int, chips: int) -> None:
        chips = max(0, min(chips, self.pot))
        self.pot -= chips
        self.stacks[seat] += chips

    def _pay_into_pot(self, seat: int, chips: int) -> None:
        from_lock = min(chips, self.locked[seat])
        self.locked[seat] -= from_lock
        self.stacks[seat] -= chips - from_lock
        self.pot += chips

    def _settle(self) -> None:
        p = self.program
        pot_at_start = self.pot_settle = self.pot
        statuses, tricks, stacks = self.statuses, self.tricks, self.stacks
        declarer = self.declarer
        assert declarer is not None
        seats = self.in_play  # the declarer and his helpers, clockwise from him (``_start_play``)
        needed = p.tricks_needed
        failed = [s for s in seats if tricks[s] < needed[statuses[s]]]
        unit = pot_at_start // p.share_divisor
        share_statuses, fulfilled_only = p.share_statuses, p.share_fulfilled_only
        pot = self.pot
        for seat in seats:
            if statuses[seat] in share_statuses and not (fulfilled_only and seat in failed):
                chips = min(unit * tricks[seat], pot)
                if chips > 0:
                    pot -= chips
                    stacks[seat] += chips
        self.pot = pot
        if p.prizes and declarer not in failed:
            prize = p.prizes[min(self.declarer_round, len(p.prizes)) - 1]
            chips = self.pot if prize == "rest" else pot_at_start // 2 if prize == "half" else 0
            self._pay_from_pot(declarer, chips)
        for seat in failed:
            self._penalty(seat, pot_at_start)
        if p.any_locked:
            self._return_locks()
        if p.redistribute:
            self._redistribute([s for s in seats if tricks[s] > 0 and s not in failed])
        self._finish_deal()

    def _penalty(self, seat: int, pot_at_start: int) -> None:
        status, call, took = self.statuses[seat], self.call_of[seat], self.tricks[seat]
        trump, held = self.trump, self.held_at_play[seat]
        for pstatus, pcalls, ptricks, pheld, pay in self.program.penalties:
            if pstatus is not None and pstatus != status:
                continue
            if pcalls and call not in pcalls:
                continue
            if ptricks is not None and ptricks != took:
                continue
            if not holds(held, pheld, trump):
                continue
            chips = self.stake_of[seat] if pay is None else pay[0] + pay[1] * pot_at_start
            self._pay_into_pot(seat, chips)
            return

    def _redistribute(self, winners: list[int]) -> None:
        tricks = self.tricks
        pot = self.pot
        if pot <= 0 or not winners:
            return
        total = 0
        for seat in winners:
            total += tricks[seat]
        stacks = self.stacks
        for seat in winners:  # each share is at most what is left: the shares add up to at most the pot
            chips = pot * tricks[seat] // total
            self.pot -= chips
            stacks[seat] += chips
        if self.program.remainder_to_most and self.pot:
            best = max(winners, key=lambda s: tricks[s])
            self._pay_from_pot(best, self.pot)

    def _finish_deal(self) -> None:
        discards = self.discards
        for hand in self.hands:
            if hand:
                discards += hand
                hand.clear()
        declarer = self.declarer
        if self.program.next_dealer_declarer and declarer is not None:
            self.next_dealer = declarer
        else:
            self.next_dealer = (self.dealer + 1) % self.n
        self.deals_completed += 1
        self.settled = True
        self.kind = None
