"""Settlement and instant wins: who pays and who is paid, all from the variant's fields.

P is the pot when settlement begins (RULES.md §0).  Steps, each switched on or
shaped by ``variant.settlement``: trick shares, the declarer's prize, penalties
of failed players, locked stakes returned, and redistribution or carry-over.
"""

from __future__ import annotations

from khrap import words as w
from khrap.cards import RANKS
from khrap.engine.calls import stake_amount
from khrap.engine.events import Ledger, LedgerItem
from khrap.engine.rules import pattern_card
from khrap.variant.schema import Penalty


def obligation(state, seat: int) -> int:
    return state.rules.variant.statuses[state.statuses[seat]].tricks


def _pay_from_pot(state, seat: int, chips: int, reason: str, **why) -> int:
    """Pay ``seat`` up to ``chips`` from the pot (never more than it holds); ``why``: the reason's numbers."""
    chips = max(0, min(chips, state.pot))
    if chips:
        state.pot -= chips
        state.stacks[seat] += chips
        state.emit("paid_out", seat, chips=chips, pot=state.pot, reason=reason, **why)
    return chips


def _pay_into_pot(state, seat: int, chips: int, reason: str, **why) -> None:
    """Pay ``chips`` into the pot, from his locked stake first."""
    from_lock = min(chips, state.locked[seat])
    state.locked[seat] -= from_lock
    state.stacks[seat] -= chips - from_lock
    state.pot += chips
    state.emit("paid_in", seat, chips=chips, pot=state.pot, reason=reason, **why)


def settle(state) -> None:
    """Settle a deal that was played out (or credited to a lone declarer), keeping each step in a ledger."""
    rules = state.rules.variant.settlement
    pot_at_start = state.pot
    seats = [s for s in state.seats_from(state.declarer) if state.active(s)]
    failed = {s for s in seats if state.tricks[s] < obligation(state, s)}
    state.emit("settling", pot=pot_at_start, tricks=tuple((s, state.tricks[s]) for s in seats))
    ledger: list[LedgerItem] = []
    divisor = rules.trick_share.divisor or state.rules.hand_size
    _trick_shares(state, seats, failed, pot_at_start, divisor, ledger)
    _declarer_prize(state, failed, pot_at_start, ledger)
    for seat in seats:
        if seat in failed:
            _penalty(state, seat, pot_at_start, ledger)
    for seat in seats:  # what is still locked goes back to its owner
        if state.locked[seat]:
            ledger.append(LedgerItem("unlock", seat, state.locked[seat], state.pot))
    state.return_locks()
    if rules.pot_after == "redistribute":
        _redistribute(state, [s for s in seats if s not in failed], ledger)
    ledger.append(LedgerItem("left", None, state.pot, state.pot))
    failed_seats = tuple(s for s in seats if s in failed)
    finish_deal(state, Ledger(pot_at_start, pot_at_start // divisor, divisor, failed_seats, tuple(ledger)))


def _trick_shares(state, seats: list[int], failed: set[int], pot_at_start: int, divisor: int, ledger: list) -> None:
    share = state.rules.variant.settlement.trick_share
    unit = pot_at_start // divisor
    for seat in seats:
        if state.statuses[seat] in share.statuses and not (share.fulfilled_only and seat in failed):
            tricks = state.tricks[seat]
            chips = _pay_from_pot(state, seat, unit * tricks, "share", tricks=tricks, unit=unit)
            if chips:
                ledger.append(LedgerItem("share", seat, chips, state.pot, tricks=tricks, unit=unit, base=pot_at_start))


def _declarer_prize(state, failed: set[int], pot_at_start: int, ledger: list) -> None:
    prizes = state.rules.variant.settlement.declarer_prize
    seat = state.declarer
    if not prizes or seat in failed:
        return
    prize = prizes[min(state.declarer_round, len(prizes)) - 1]
    chips = {"rest": state.pot, "half": pot_at_start // 2, "none": 0}[prize]
    chips = _pay_from_pot(state, seat, chips, "prize", round=state.declarer_round)
    if chips:
        ledger.append(LedgerItem("prize", seat, chips, state.pot, base=pot_at_start, detail=prize))


def _matches(state, seat: int, penalty: Penalty) -> bool:
    if penalty.status is not None and penalty.status != state.statuses[seat]:
        return False
    if penalty.calls and state.call_of[seat] not in penalty.calls:
        return False
    if penalty.tricks is not None and penalty.tricks != state.tricks[seat]:
        return False
    held = state.held_at_play[seat]
    return all(pattern_card(p, state.trump) in held for p in penalty.held)


def _penalty(state, seat: int, pot_at_start: int, ledger: list) -> None:
    for penalty in state.rules.variant.settlement.penalties:
        if _matches(state, seat, penalty):
            break
    else:
        return
    status, tricks = state.statuses[seat], state.tricks[seat]
    if penalty.pay == "stake":
        chips, pots, bases = state.stake_of[seat], 0, 0
    else:
        pots, bases = penalty.pay.pots, penalty.pay.base * state.rules.variant.base_stake
        chips = bases + pots * pot_at_start
    _pay_into_pot(state, seat, chips, "penalty", status=status, tricks=tricks)
    detail = "stake" if penalty.pay == "stake" else "amount"
    ledger.append(LedgerItem("penalty", seat, chips, state.pot, tricks=tricks, base=pot_at_start, detail=detail,
                             pots=pots, bases=bases))


def _redistribute(state, winners: list[int], ledger: list) -> None:
    """Divide the pot among those who did not fail, by tricks, each share rounded down."""
    winners = [s for s in winners if state.tricks[s] > 0]
    total = sum(state.tricks[s] for s in winners)
    pot = state.pot
    if not total or pot <= 0:
        return
    for seat in winners:
        tricks = state.tricks[seat]
        chips = _pay_from_pot(state, seat, pot * tricks // total, "redistribute")
        ledger.append(LedgerItem("redistribute", seat, chips, state.pot, tricks=tricks, total=total, base=pot))
    if state.rules.variant.settlement.remainder == "most_tricks" and state.pot:
        best = max(winners, key=lambda s: state.tricks[s])
        chips = _pay_from_pot(state, best, state.pot, "rounding")
        ledger.append(LedgerItem("rounding", best, chips, state.pot))


# ------------------------------------------------------------ instant wins
def instant_winner(state) -> tuple[str, int] | None:
    """The first instant win held by an active player, clockwise from the declarer."""
    for win_id, win in state.rules.variant.instant_wins.items():
        if not win.enabled:
            continue
        rank = RANKS.index(win.rank)
        for seat in state.seats_from(state.declarer):
            if state.active(seat) and sum(1 for c in state.hands[seat] if c % 13 == rank) >= win.count:
                return win_id, seat
    return None


def instant_win(state, win_id: str, seat: int) -> None:
    """``seat`` takes the pot at once; the others pay their status stakes into it."""
    win = state.rules.variant.instant_wins[win_id]
    state.emit("instant_win", seat, win=win_id)
    pot = state.pot
    state.pot = 0
    state.stacks[seat] += pot + state.locked[seat]
    state.locked[seat] = 0
    state.emit("took_pot", seat, chips=pot)
    for other in state.clockwise_after(seat):
        if other == seat:
            continue
        if state.active(other):
            _pay_into_pot(state, other, state.stake_of[other], "stake", status=state.statuses[other])
        elif win.payers == "all":
            helper = state.rules.variant.statuses[w.HELPER].stake
            _pay_into_pot(state, other, stake_amount(state, helper), "helper_stake")
    state.return_locks()
    state.skip_next_ante = win.next_ante == "skip_if_pot" and state.pot > 0
    finish_deal(state)


def finish_deal(state, ledger: Ledger | None = None) -> None:
    """Unplayed cards to the discard pile; choose the next dealer; the deal is settled.

    ``ledger``: the itemised settlement of a deal played out, carried by the ``settled`` event."""
    for hand in state.hands:
        state.discards.extend(hand)
        hand.clear()
    rule = state.rules.variant.next_dealer
    declarer = state.declarer
    state.next_dealer = declarer if rule == "declarer" and declarer is not None else (state.dealer + 1) % state.n
    state.deals_completed += 1
    state.phase = w.SETTLED
    state.pending = None
    state.emit("settled", stacks=tuple(state.stacks), pot=state.pot, ledger=ledger)
