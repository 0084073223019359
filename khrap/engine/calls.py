"""Calls: when one may be made (with the reason when not), and what it does.

Every call is data (``Call`` in the schema); this module only knows the
mechanisms: statuses and overrides, locked stakes, forced helpers, the cards a
call throws, keeps, takes from the table and draws, and the discards it owes.
"""

from __future__ import annotations

from khrap import words as w
from khrap.engine.actions import Action
from khrap.engine.preconditions import deferred_part, unmet
from khrap.engine.rules import pattern_card
from khrap.variant.schema import Amount, Call, CallsStage


def stake_amount(state, amount: Amount) -> int:
    """Chips of an amount now: base stakes plus multiples of the pot."""
    return amount.base * state.rules.variant.base_stake + amount.pots * state.pot


def set_status(state, seat: int, status: str) -> None:
    """Give ``seat`` a status, adjusting his locked stake to the new status's."""
    rule = state.rules.variant.statuses.get(status)
    state.statuses[seat] = status
    if rule is None:
        state.stake_of[seat] = 0
        state.stacks[seat] += state.locked[seat]
        state.locked[seat] = 0
        return
    stake = stake_amount(state, rule.stake)
    state.stake_of[seat] = stake
    if rule.locked:
        delta = stake - state.locked[seat]
        state.stacks[seat] -= delta
        state.locked[seat] += delta
    else:
        state.stacks[seat] += state.locked[seat]
        state.locked[seat] = 0


# ---------------------------------------------------------------- legality
def refusal(state, seat: int, cid: str, action: Action) -> str | None:
    """Why ``seat`` may not make call ``cid`` as written now, or None: how it is written, then the
    call's preconditions (the table of ``preconditions``)."""
    return argument_refusal(state, cid, state.rules.calls[cid], action) or unmet(state, seat, cid, action)


def argument_refusal(state, cid: str, call: Call, action: Action) -> str | None:
    """Why call ``cid`` cannot be written as ``action`` (a hand position, ``trump``, ``from``), or None."""
    mode = call.effects.take_turned
    size = len(state.hands[state.pending.seat]) if state.pending else state.rules.hand_size
    if mode == "swap":
        if action.position is None or not 1 <= action.position <= size:
            return f"{cid} names a hand position 1..{size} (e.g. '{cid} 1')"
    elif action.position is not None:
        return f"{cid} takes no hand position"
    if action.take_turned and mode != "optional":
        return f"{cid} cannot take the turned card"
    if action.source != w.TOP:
        if state.rules.variant.draw_from == "top":
            return "draws come from the top of the stock in this variant"
        if call.effects.draw == 0 or call.effects.when != "now":
            return f"{cid} draws nothing now, so it takes no 'from'"
    return None


def worst_cost(state, status: str, cid: str | None = None) -> int:
    """The most a status (given by call ``cid``) can cost its holder: its stake or its largest penalty."""
    rule = state.rules.variant.statuses.get(status)
    if rule is None:
        return 0
    costs = [stake_amount(state, rule.stake)]
    for penalty in state.rules.variant.settlement.penalties:
        by_call = not penalty.calls or cid is None or cid in penalty.calls
        if penalty.status in (None, status) and by_call and penalty.pay != "stake":
            costs.append(stake_amount(state, penalty.pay))
    return max(costs)


# ------------------------------------------------------------------ effects
def make(state, seat: int, action: Action, stage: CallsStage) -> None:
    """Carry out call ``action.word`` by ``seat``."""
    cid = action.word
    call = state.rules.calls[cid]
    eff = call.effects
    if not call.requires.blind:
        state.looked[seat] = True
    state.emit("called", seat, call=cid, action=str(action))
    if eff.status == w.DECLARER:
        _become_declarer(state, seat)
    set_status(state, seat, eff.status)
    state.call_of[seat] = cid
    if eff.forces_others:
        _force_others(state, seat)
    if eff.when == "now":
        apply_card_effects(state, seat, call, action)
    else:
        state.deferred.add(seat)
    state.owed_draws += deferred_part(call) + (eff.draw if eff.when == "exchange" else 0)
    if eff.ends_stage:
        state.queue.clear()
    state.skipped.update(eff.skip_stages)
    if eff.status == w.OUT and stage.out_hands == "on_call":
        throw_hand(state, seat)


def _become_declarer(state, seat: int) -> None:
    old = state.declarer
    if old is not None and old != seat:
        becomes = state.rules.variant.overridden_becomes
        set_status(state, old, becomes)
        state.emit("overridden", old, status=becomes)
    state.declarer = seat
    state.declarer_round = state.round


def _force_others(state, seat: int) -> None:
    for other in state.clockwise_after(seat):
        if other != seat and state.hands[other]:
            set_status(state, other, w.HELPER)
            state.emit("forced", other)


def throw_hand(state, seat: int) -> None:
    state.discards.extend(state.hands[seat])
    state.hands[seat].clear()


def apply_card_effects(state, seat: int, call: Call, action: Action) -> None:
    """Throw, keep, take the turned card, draw; then owe the discards."""
    eff = call.effects
    hand = state.hands[seat]
    if eff.discard_hand:
        keep = {pattern_card(p, state.trump) for p in eff.keep}
        kept = [c for c in hand if c in keep]
        state.discards.extend(c for c in hand if c not in keep)
        hand[:] = kept
        if kept:
            state.shown.extend(kept)
            state.emit("shown", seat, cards=tuple(kept))
    draws = eff.draw
    if eff.take_turned == "swap":
        position = action.position - 1
        state.discards.append(hand[position])
        hand[position] = state.turned.pop()
        state.turned_taken = True
        state.emit("swapped", seat, position=action.position, card=hand[position])
    elif eff.take_turned == "yes" or action.take_turned:
        hand.append(state.turned.pop())
        state.turned_taken = True
        state.emit("took_turned", seat, card=hand[-1])
        draws -= 1 if eff.take_turned == "optional" else 0
    draw(state, seat, draws, action.source)
    state.owed_discards[seat] += eff.then_discard


def draw(state, seat: int, count: int, source: str | int = w.TOP) -> None:
    """Move ``count`` stock cards into ``seat``'s hand from ``source``."""
    if count <= 0:
        return
    stock = state.stock
    if source == w.TOP:
        taken = stock[:count]
        del stock[:count]
    elif source == w.BOTTOM:
        taken = stock[-count:][::-1]
        del stock[-count:]
    else:
        taken = stock[source - 1 : source - 1 + count]
        del stock[source - 1 : source - 1 + count]
    state.hands[seat].extend(taken)
    state.emit("drew", seat, {"cards": tuple(taken)}, count=count, source=source)


def name_trump(state, seat: int, suit: int) -> None:
    state.trump = suit
    state.emit("named_trump", seat, suit=suit)
