"""Legal actions: as concrete actions, as CONTRACT.md words, and why one is refused."""

from __future__ import annotations

from itertools import combinations

from khrap import words as w
from khrap.cards import card_str
from khrap.engine import calls, exchange, play, preconditions
from khrap.engine.actions import Action, call_forms
from khrap.engine.state import Pending

__all__ = ["Pending", "blind_call_open", "legal_actions", "legal_words", "refusal"]


def _stage(state):
    return state.rules.stages[state.stage_index]


def _call_forms(state, cid: str) -> tuple[Action, ...]:
    """Each way of writing call ``cid`` that differs in what it does (built once per hand length)."""
    size = len(state.hands[state.pending.seat])
    key = (cid, size)
    forms = state.rules.forms.get(key)
    if forms is None:
        forms = call_forms(cid, state.rules.calls[cid].effects.take_turned, size)
        state.rules.forms[key] = forms  # actions are immutable, so they can be shared
    return forms


def _legal_calls(state, seat: int) -> list[Action]:
    """The forms of the stage's calls whose preconditions ``seat`` meets (their tests only: no reason is made)."""
    return [
        form
        for cid in state.rules.stage_calls(_stage(state))
        for form in _call_forms(state, cid)
        if preconditions.met(state, seat, cid, form.take_turned)
    ]


def blind_call_open(state, seat: int) -> bool:
    """Whether a blind call is legal for ``seat`` now (he has not looked)."""
    if state.looked[seat] or not state.rules.blind_calls:
        return False
    return any(
        preconditions.met(state, seat, cid, form.take_turned)
        for cid in state.rules.stage_calls(_stage(state))
        if cid in state.rules.blind_calls
        for form in _call_forms(state, cid)
    )


def legal_actions(state) -> list[Action]:
    """Every legal action of the seat to act, with draws from the top only for exchanges."""
    pending = state.pending
    if pending is None:
        return []
    found = _legal_actions(state, pending)
    # Remembered so that applying one of these very objects need not be checked again.
    state.last_legal = (pending, found)
    return found


def was_just_listed(state, action: Action) -> bool:
    """Whether ``action`` is one of the objects the last ``legal_actions`` call returned for this decision."""
    pending, found = state.last_legal
    return pending is state.pending and any(action is a for a in found)


def _legal_actions(state, pending) -> list[Action]:
    seat = pending.seat
    if pending.kind == "call":
        found = _legal_calls(state, seat)
        if blind_call_open(state, seat):
            found.append(Action(w.LOOK))
        return found
    if pending.kind == "discard":
        return [Action(w.DISCARD, cards=(c,)) for c in state.hands[seat]]
    if pending.kind == "exchange":
        least, most, _ = exchange.limits(state, seat, _stage(state))
        hand = sorted(state.hands[seat])
        return [Action(w.EXCHANGE, cards=combo) for k in range(least, most + 1) for combo in combinations(hand, k)]
    if pending.kind == "trump":
        return [Action(w.TRUMP, suit=s) for s in range(4)]
    return [Action(w.PLAY, cards=(c,), joker=j) for c, j in play.playable(state, seat)]


def legal_words(state) -> list[str]:
    """The legal actions as CONTRACT.md lists them (exchange, discard, trump by word alone)."""
    pending = state.pending
    if pending is None:
        return []
    if pending.kind in ("discard", "exchange", "trump"):
        return [{"discard": w.DISCARD, "exchange": w.EXCHANGE, "trump": w.TRUMP}[pending.kind]]
    if pending.kind == "play":
        return [f"play {card_str(c)}{' joker' if j else ''}" for c, j in play.playable(state, pending.seat)]
    return [str(a) for a in legal_actions(state)]


def refusal(state, action: Action) -> str | None:
    """Why the seat to act may not take ``action`` now, or None if he may."""
    pending = state.pending
    seat = pending.seat
    word = action.word
    expected = {"discard": w.DISCARD, "exchange": w.EXCHANGE, "trump": w.TRUMP, "play": w.PLAY}.get(pending.kind)
    if expected is not None and word != expected:
        return f"seat {seat} must {expected} now"
    if pending.kind == "discard":
        if len(action.cards) != 1:
            return "discard one card"
        if action.cards[0] not in state.hands[seat]:
            return f"seat {seat} does not hold {card_str(action.cards[0])}"
        return None
    if pending.kind == "exchange":
        return exchange.refusal(state, seat, action, _stage(state))
    if pending.kind == "trump":
        return None if action.suit is not None else "name a suit: trump S, H, D or C"
    if pending.kind == "play":
        return play.refusal(state, seat, action)
    return _call_refusal(state, seat, action)


def _call_refusal(state, seat: int, action: Action) -> str | None:
    word = action.word
    if word == w.LOOK:
        return None if blind_call_open(state, seat) else "look is legal only while a blind call is open to you"
    if word in w.KERNEL_WORDS:
        return f"{word} is not allowed now; seat {seat} must make a call"
    if word in state.rules.variant.calls and word not in state.rules.calls:
        return f"{word} is switched off in this variant"
    if word not in state.rules.calls:
        return f"unknown call '{word}'"
    if word not in _stage(state).calls:
        return f"{word} cannot be said in this stage ({_stage(state).id})"
    return calls.refusal(state, seat, word, action)
