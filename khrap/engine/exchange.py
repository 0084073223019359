"""The exchange stage: discard-and-draw turns in the variant's order."""

from __future__ import annotations

from khrap import words as w
from khrap.cards import cards_str
from khrap.engine import calls
from khrap.engine.actions import Action
from khrap.engine.preconditions import source_refusal
from khrap.variant.schema import Call, ExchangeStage


def _call(state, seat: int) -> Call | None:
    cid = state.call_of[seat]
    return state.rules.calls.get(cid) if cid else None


def takes_part(state, seat: int) -> bool:
    call = _call(state, seat)
    return seat in state.deferred or call is None or call.exchange.takes_part


def build_queue(state, stage: ExchangeStage) -> list[int]:
    """Players in exchange order: groups in turn, each clockwise from the declarer."""
    declarer_call = state.call_of[state.declarer]
    order: list[int] = []
    for group in state.rules.exchange_order(stage, declarer_call):
        for seat in state.seats_from(state.declarer):
            in_group = state.statuses[seat] in group.statuses or state.call_of[seat] in group.calls
            if seat not in order and state.active(seat) and in_group and takes_part(state, seat):
                order.append(seat)
    return order


def step(state, stage: ExchangeStage) -> None:
    """Start the stage, run a deferred call's draws, or ask the next player."""
    if not state.stage_started:
        state.stage_started = True
        state.phase = w.EXCHANGE_PHASE
        state.queue = build_queue(state, stage)
    if not state.queue:
        state.next_stage()
        return
    seat = state.queue.pop(0)
    if seat in state.deferred:
        _run_deferred(state, seat)
        if state.owed_discards[seat]:
            state.set_pending("discard", seat)
        return
    state.set_pending("exchange", seat)


def _run_deferred(state, seat: int) -> None:
    """A call whose draws wait for the caller's exchange turn."""
    state.deferred.discard(seat)
    call = _call(state, seat)
    state.owed_draws -= call.effects.draw
    calls.apply_card_effects(state, seat, call, Action(state.call_of[seat]))


def limits(state, seat: int, stage: ExchangeStage) -> tuple[int, int, int]:
    """(fewest, most) cards ``seat`` may exchange now, and the extra cards he draws."""
    call = _call(state, seat)
    rule = call.exchange if call else None
    extra = rule.draw_extra if rule else 0
    # A call's own limit (e.g. exactly 3) overrides the stage's limit for everyone.
    own = rule.max_discard if rule and rule.max_discard is not None else stage.max_discard
    most = len(state.hands[seat]) if own is None else min(own, len(state.hands[seat]))
    least = rule.min_discard if rule else 0
    reserved = state.owed_draws - (least + extra if least else 0)
    most = min(most, len(state.stock) - reserved - extra)
    return least, most, extra


def refusal(state, seat: int, action: Action, stage: ExchangeStage) -> str | None:
    cards = action.cards
    hand = state.hands[seat]
    if len(set(cards)) != len(cards):
        return "a card is named twice"
    missing = [c for c in cards if c not in hand]
    if missing:
        return f"seat {seat} does not hold {' '.join(cards_str(missing))}"
    least, most, extra = limits(state, seat, stage)
    if not least <= len(cards) <= most:
        if least == most:
            return f"seat {seat} must exchange exactly {least} cards"
        return f"seat {seat} may exchange {least} to {max(most, least)} cards now"
    if action.source != w.TOP and state.rules.variant.draw_from == "top":
        return "draws come from the top of the stock in this variant"
    return source_refusal(state, len(cards) + extra, action.source)


def exchange(state, seat: int, action: Action) -> None:
    call = _call(state, seat)
    rule = call.exchange if call else None
    extra = rule.draw_extra if rule else 0
    if rule and rule.min_discard:
        state.owed_draws -= rule.min_discard + extra
    hand = state.hands[seat]
    for card in action.cards:
        hand.remove(card)
        state.discards.append(card)
    count = len(action.cards)
    state.emit("exchanged", seat, {"cards": tuple(action.cards)}, count=count)
    calls.draw(state, seat, count + extra, action.source)
    if rule:
        state.owed_discards[seat] += rule.then_discard
    if state.owed_discards[seat]:
        state.set_pending("discard", seat)


def discard(state, seat: int, card: int) -> None:
    state.hands[seat].remove(card)
    state.discards.append(card)
    state.owed_discards[seat] -= 1
    state.emit("discarded", seat, {"card": card})
    if state.owed_discards[seat]:
        state.set_pending("discard", seat)

