"""Settlement and instant wins: who pays and who is paid, all from the variant's fields.

P is the pot when settlement begins (RULES.md §0).  Steps, each switched on or
shaped by ``variant.settlement``: trick shares, the declarer's prize, penalties
of failed players, locked stakes returned, and redistribution or carry-over.
"""

from __future__ import annotations

from khrap import words as w
from khrap.cards import RANKS
from khrap.engine.calls import stake_amount
from khrap.engine.rules import pattern_card
from khrap.variant.schema import Penalty


def obligation(state, seat: int) -> int:
    return state.rules.variant.statuses[state.statuses[seat]].tricks


def _pay_from_pot(state, seat: int, chips: int, why: str) -> None:
    chips = max(0, min(chips, state.pot))
    if chips:
        state.pot -= chips
        state.stacks[seat] += chips
        state.say(f"seat {seat} takes {chips} ({why}); pot {state.pot}")


def _pay_into_pot(state, seat: int, chips: int, why: str) -> None:
    """Pay ``chips`` into the pot, from his locked stake first."""
    from_lock = min(chips, state.locked[seat])
    state.locked[seat] -= from_lock
    state.stacks[seat] -= chips - from_lock
    state.pot += chips
    state.say(f"seat {seat} pays {chips} ({why}); pot {state.pot}")


def settle(state) -> None:
    """Settle a deal that was played out (or credited to a lone declarer)."""
    rules = state.rules.variant.settlement
    pot_at_start = state.pot
    seats = [s for s in state.seats_from(state.declarer) if state.active(s)]
    failed = {s for s in seats if state.tricks[s] < obligation(state, s)}
    state.say(f"settlement: pot {pot_at_start}; tricks " + ", ".join(f"seat {s} {state.tricks[s]}" for s in seats))
    _trick_shares(state, seats, failed, pot_at_start)
    _declarer_prize(state, failed, pot_at_start)
    for seat in seats:
        if seat in failed:
            _penalty(state, seat, pot_at_start)
    state.return_locks()
    if rules.pot_after == "redistribute":
        _redistribute(state, [s for s in seats if s not in failed])
    finish_deal(state)


def _trick_shares(state, seats: list[int], failed: set[int], pot_at_start: int) -> None:
    share = state.rules.variant.settlement.trick_share
    unit = pot_at_start // (share.divisor or state.rules.hand_size)
    for seat in seats:
        if state.statuses[seat] in share.statuses and not (share.fulfilled_only and seat in failed):
            _pay_from_pot(state, seat, unit * state.tricks[seat], f"{state.tricks[seat]} tricks × {unit}")


def _declarer_prize(state, failed: set[int], pot_at_start: int) -> None:
    prizes = state.rules.variant.settlement.declarer_prize
    seat = state.declarer
    if not prizes or seat in failed:
        return
    prize = prizes[min(state.declarer_round, len(prizes)) - 1]
    chips = {"rest": state.pot, "half": pot_at_start // 2, "none": 0}[prize]
    _pay_from_pot(state, seat, chips, f"declarer's prize, round {state.declarer_round}")


def _matches(state, seat: int, penalty: Penalty) -> bool:
    if penalty.status is not None and penalty.status != state.statuses[seat]:
        return False
    if penalty.calls and state.call_of[seat] not in penalty.calls:
        return False
    if penalty.tricks is not None and penalty.tricks != state.tricks[seat]:
        return False
    held = state.held_at_play[seat]
    return all(pattern_card(p, state.trump) in held for p in penalty.held)


def _penalty(state, seat: int, pot_at_start: int) -> None:
    for penalty in state.rules.variant.settlement.penalties:
        if _matches(state, seat, penalty):
            break
    else:
        return
    if penalty.pay == "stake":
        chips = state.stake_of[seat]
    else:
        chips = penalty.pay.base * state.rules.variant.base_stake + penalty.pay.pots * pot_at_start
    _pay_into_pot(state, seat, chips, f"failed {state.statuses[seat]}, {state.tricks[seat]} tricks")


def _redistribute(state, winners: list[int]) -> None:
    """Divide the pot among those who did not fail, by tricks, each share rounded down."""
    winners = [s for s in winners if state.tricks[s] > 0]
    total = sum(state.tricks[s] for s in winners)
    pot = state.pot
    if not total or pot <= 0:
        return
    for seat in winners:
        _pay_from_pot(state, seat, pot * state.tricks[seat] // total, "share of the pot")
    if state.rules.variant.settlement.remainder == "most_tricks" and state.pot:
        best = max(winners, key=lambda s: state.tricks[s])
        _pay_from_pot(state, best, state.pot, "what rounding left")


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
    state.say(f"seat {seat}: {win_id}")
    pot = state.pot
    state.pot = 0
    state.stacks[seat] += pot + state.locked[seat]
    state.locked[seat] = 0
    state.say(f"seat {seat} takes the pot of {pot}")
    for other in state.clockwise_after(seat):
        if other == seat:
            continue
        if state.active(other):
            _pay_into_pot(state, other, state.stake_of[other], f"{state.statuses[other]}'s stake")
        elif win.payers == "all":
            helper = state.rules.variant.statuses[w.HELPER].stake
            _pay_into_pot(state, other, stake_amount(state, helper), "a helper's stake")
    state.return_locks()
    state.skip_next_ante = win.next_ante == "skip_if_pot" and state.pot > 0
    finish_deal(state)


def finish_deal(state) -> None:
    """Unplayed cards to the discard pile; choose the next dealer; the deal is settled."""
    for hand in state.hands:
        state.discards.extend(hand)
        hand.clear()
    rule = state.rules.variant.next_dealer
    declarer = state.declarer
    state.next_dealer = declarer if rule == "declarer" and declarer is not None else (state.dealer + 1) % state.n
    state.deals_completed += 1
    state.phase = w.SETTLED
    state.pending = None
    state.say(f"deal settled; stacks {state.stacks}; pot {state.pot}")
