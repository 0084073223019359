"""Calls: when one may be made (with the reason when not), and what it does.

Every call is data (``Call`` in the schema); this module only knows the
mechanisms: statuses and overrides, locked stakes, forced helpers, the cards a
call throws, keeps, takes from the table and draws, and the discards it owes.
"""

from __future__ import annotations

from khrap import words as w
from khrap.cards import RANKS, card_str
from khrap.engine.actions import Action
from khrap.engine.rules import pattern_card
from khrap.variant.schema import Amount, Call, CallsStage, CardPattern


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


def describe_pattern(pattern: CardPattern, trump: int | None) -> str:
    card = pattern_card(pattern, trump)
    if pattern.suit == "trump":
        where = f" ({card_str(card)})" if card is not None else ""
        return f"the trump {pattern.rank}{where}"
    return card_str(card)


# ---------------------------------------------------------------- legality
def draws_needed(call: Call, take_turned: bool) -> int:
    """Cards the call will take from the stock, now or at the exchange."""
    eff = call.effects
    draws = eff.draw - (1 if take_turned and eff.take_turned == "optional" else 0)
    return max(draws + deferred_part(call), 0)


def refusal(state, seat: int, cid: str, action: Action) -> str | None:
    """Why ``seat`` may not make call ``cid`` as written now, or None."""
    call = state.rules.calls[cid]
    return (
        _argument_refusal(state, cid, call, action)
        or _standing_refusal(state, seat, cid, call)
        or _hand_refusal(state, seat, cid, call)
        or _table_refusal(state, seat, cid, call, action)
        or _blind_refusal(state, seat, cid, call)
    )


def _blind_refusal(state, seat: int, cid: str, call: Call) -> str | None:
    # Checked last: a seat who looked because the call was not open to him then
    # (not the dealer, no declarer yet, wrong turned card) hears that reason.
    if call.requires.blind and state.looked[seat]:
        return f"{cid} must be called blind, before looking at the cards"
    return None


def _argument_refusal(state, cid: str, call: Call, action: Action) -> str | None:
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


def _standing_refusal(state, seat: int, cid: str, call: Call) -> str | None:
    req = call.requires
    declarer = state.declarer
    if req.dealer and seat != state.dealer:
        return f"{cid} is for the dealer only (seat {state.dealer})"
    if req.declarer == "exists" and declarer is None:
        names = " or ".join(state.rules.declaring_calls) or "a declaring call"
        return f"{cid} needs a {names} to have been called"
    if req.declarer == "absent" and declarer is not None:
        return f"{cid} is allowed only while nobody is declarer; seat {declarer} is declarer"
    if call.effects.status == w.DECLARER and declarer not in (None, seat) and not call.effects.override:
        return f"{cid} cannot take over from seat {declarer}, the declarer"
    return None


def _hand_refusal(state, seat: int, cid: str, call: Call) -> str | None:
    req = call.requires
    hand = state.hands[seat]
    trump = state.trump
    for i, (rank, suit) in enumerate(state.rules.holds[cid]):
        suit = trump if suit is None else suit
        if suit is None or suit * 13 + rank not in hand:
            return f"{cid} needs {describe_pattern(req.holds[i], trump)} in hand"
    trumps = sum(1 for c in hand if c // 13 == state.trump)
    if req.min_trumps is not None and trumps < req.min_trumps:
        return f"{cid} needs at least {req.min_trumps} trumps in hand"
    if req.max_trumps is not None and trumps > req.max_trumps:
        return f"{cid} allows at most {req.max_trumps} trumps in hand"
    return None


def _table_refusal(state, seat: int, cid: str, call: Call, action: Action) -> str | None:
    req = call.requires
    eff = call.effects
    if req.turned_rank is not None:
        current = state.current_turned()
        if current is None or RANKS[current % 13] != req.turned_rank:
            return f"{cid} needs the turned trump card to be of rank {req.turned_rank}"
    takes = eff.take_turned in ("yes", "swap") or action.take_turned
    if takes and state.current_turned() is None:
        return f"{cid} needs the current turned trump card on the table"
    need = draws_needed(call, action.take_turned)
    left = len(state.stock) - state.owed_draws
    if need > left:
        return f"{cid} needs {need} cards from the stock; cards left to draw: {left}"
    if eff.when == "now" and eff.draw:
        problem = source_refusal(state, need - deferred_part(call), action.source)
        if problem:
            return problem
    if not state.rules.variant.allow_debt:
        cost = worst_cost(state, eff.status, cid)
        if cost > 0 and state.stacks[seat] < cost:
            return f"{cid} may cost {cost} chips and seat {seat} has {state.stacks[seat]}"
    return None


def deferred_part(call: Call) -> int:
    """Cards reserved for the caller's exchange turn: those he must exchange there (and their extra draws)."""
    if call.exchange.takes_part and call.exchange.min_discard:
        return call.exchange.min_discard + call.exchange.draw_extra
    return 0


def source_refusal(state, count: int, source: str | int) -> str | None:
    """Why ``count`` cards cannot be drawn from ``source``, or None."""
    if isinstance(source, int) and count and not 1 <= source <= len(state.stock) - count + 1:
        return f"cannot draw {count} cards from position {source}; the stock holds {len(state.stock)}"
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
