"""Driving a deal: stage after stage until a seat must decide, and applying actions."""

from __future__ import annotations

from khrap import words as w
from khrap.engine import calls, exchange, legal, play, settlement
from khrap.engine.actions import Action, ActionError, parse_action
from khrap.engine.state import GameState, IllegalAction
from khrap.variant.schema import CallsStage


def advance(state: GameState) -> None:
    """Run the kernel's own steps until a seat must act or the deal is settled."""
    while state.pending is None and state.phase != w.SETTLED:
        stage = state.rules.stages[state.stage_index]
        if stage.id in state.skipped:
            state.next_stage()
        elif stage.kind == "calls":
            _calls_step(state, stage)
        elif stage.kind == "exchange":
            exchange.step(state, stage)
        elif stage.kind == "name_trump":
            state.phase = w.TRUMP_PHASE
            state.set_pending("trump", state.declarer)
        elif stage.kind == "instant_wins":
            _instant_wins(state)
        elif stage.kind == "play":
            _play_step(state)


def _calls_step(state: GameState, stage: CallsStage) -> None:
    if not state.stage_started:
        state.stage_started = True
        state.phase = stage.phase
        state.queue = _speakers(state, stage)
    if state.queue:
        state.set_pending("call", state.queue.pop(0))
        return
    if state.declarer is None:
        _all_pass(state)
        return
    if stage.out_hands == "at_end":
        for seat in range(state.n):
            if state.statuses[seat] == w.OUT:
                calls.throw_hand(state, seat)
    state.next_stage()


def _speakers(state: GameState, stage: CallsStage) -> list[int]:
    start = state.dealer + 1 if stage.start == "dealer_left" or state.declarer is None else state.declarer + 1
    seats = state.seats_from(start % state.n)
    if stage.speakers == "out":
        return [s for s in seats if state.statuses[s] == w.OUT]
    if stage.speakers == "others":
        return [s for s in seats if s != state.declarer and state.hands[s]]
    return [s for s in seats if state.hands[s]]


def _all_pass(state: GameState) -> None:
    rule = state.rules.variant.all_pass
    state.emit("all_passed", round=state.round)
    if state.round < rule.rounds:
        state.round += 1
        state.collect_from_all(rule.round_ante, "round")
        state.return_locks()
        state.statuses = [w.UNDECIDED] * state.n
        state.call_of = [None] * state.n
        state.skipped.clear()
        # The round's calls are void: nothing they deferred to the exchange or owe is left over.
        state.deferred.clear()
        state.owed_draws = 0
        state.owed_discards = [0] * state.n
        if rule.turn_up:
            state.turn_up()
        state.stage_index = 0
        state.stage_started = False
        return
    state.collect_from_all(rule.last_ante, "last")
    if not state.rules.variant.allow_debt and not _anyone_can_declare(state):
        # Without debts a broke table could pass out forever: the session ends instead.
        state.emit("session_over")
        state.session_over = True
        settlement.finish_deal(state)
        return
    state.redeal()


def _anyone_can_declare(state: GameState) -> bool:
    costs = [calls.worst_cost(state, w.DECLARER, cid) for cid in state.rules.declaring_calls]
    return any(stack >= cost for stack in state.stacks for cost in costs)


def _instant_wins(state: GameState) -> None:
    found = settlement.instant_winner(state)
    if found:
        settlement.instant_win(state, *found)
    else:
        state.next_stage()


def _play_step(state: GameState) -> None:
    if not state.stage_started:
        state.stage_started = True
        if play.start(state):
            return
    settlement.settle(state)


def apply(state: GameState, action: Action | str, seat: int | None = None) -> None:
    """Apply an action for ``seat`` (default: the seat to act) or raise IllegalAction."""
    if isinstance(action, str):
        try:
            action = parse_action(action)
        except ActionError as err:
            raise IllegalAction(str(err)) from None
    pending = state.pending
    if pending is None:
        raise IllegalAction("no action is pending: the deal is settled")
    if seat is not None and seat != pending.seat:
        raise IllegalAction(f"not seat {seat}'s turn; seat {pending.seat} is to act")
    reason = None if legal.was_just_listed(state, action) else legal.refusal(state, action)
    if reason:
        raise IllegalAction(reason)
    _dispatch(state, pending.seat, action)
    advance(state)


def _dispatch(state: GameState, seat: int, action: Action) -> None:
    word = action.word
    state.pending = None
    if word == w.LOOK:
        state.looked[seat] = True
        state.emit("looked", seat)
        state.pending = legal.Pending("call", seat)
    elif word == w.DISCARD:
        exchange.discard(state, seat, action.cards[0])
    elif word == w.EXCHANGE:
        exchange.exchange(state, seat, action)
    elif word == w.TRUMP:
        calls.name_trump(state, seat, action.suit)
        state.next_stage()
    elif word == w.PLAY:
        play.play(state, seat, action)
    else:
        calls.make(state, seat, action, state.rules.stages[state.stage_index])
        if state.owed_discards[seat]:
            state.set_pending("discard", seat)
