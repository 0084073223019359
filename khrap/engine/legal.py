"""The refusal tables of the decision kinds (``engine.decisions``: each kind's entry names its table here).

Listing runs the kernel's own tests (the calls stage's listers, ``playable``, the exchange limits):
no sentence is made.  When an action is refused, the reason is the sentence of the first entry of
its decision's table whose test fails.  A call's preconditions are the ``preconditions`` table
(after the entries about how the call is written); a play, an exchange and a discard have the
tables below.  Each entry is ``(test, reason)``: ``test(state, seat, action)`` is true when the
action meets it, ``reason(state, seat, action)`` says why not: a ``Refusal`` (a code and its values, whose
string is the English sentence: ``engine.refusal``).
"""

from __future__ import annotations

from collections.abc import Callable

from khrap import words as w
from khrap.engine.actions import Action
from khrap.engine.compiled.tricks import JOKER_FLAG, first_lead_suit
from khrap.engine.preconditions import source_refusal, unmet
from khrap.engine.refusal import Refusal
from khrap.engine.trick import led_suit
from khrap.variant.derived import draws_at_once

__all__ = ["DISCARD_TABLE", "EXCHANGE_TABLE", "PLAY_TABLE", "TRUMP_TABLE", "call_refusal", "discard_refusal",
           "draws_anywhere", "exchange_refusal", "first_refused", "names_source", "play_refusal", "trump_refusal"]

Test = Callable[[object, int, Action], bool]
Reason = Callable[[object, int, Action], Refusal]
Table = tuple[tuple[Test, Reason], ...]

def first_refused(table: Table, state, seat: int, action: Action) -> Refusal | None:
    """The reason of the first entry of ``table`` that ``action`` does not meet, or None."""
    for test, reason in table:
        if not test(state, seat, action):
            return reason(state, seat, action)
    return None


# ------------------------------------------------------------------ plays
def _follow_reason(state, seat: int, action: Action) -> Refusal:
    """Why a card held is not among the plays open now (the follow rule, the first lead)."""
    hand, trump = state.hands[seat], state.trump
    play = state.rules.variant.play
    if not state.trick:
        suit = first_lead_suit(state.program, trump, not state.won)
        return Refusal("lead_trump" if play.first_lead.suit == "trump" else "lead_suit", seat=seat, suit=suit)
    led = led_suit(state.trick)
    if play.follow_suit and led is not None and any(c // 13 == led for c in hand):  # without it, no suit
        return Refusal("follow_beat" if play.must_beat else "follow", seat=seat, suit=led)
    if any(c // 13 == trump for c in hand):
        return Refusal("trump_over" if play.must_overtrump else "trump", seat=seat, suit=trump)
    return Refusal("may_not_play", seat=seat)


def _not_held(state, seat: int, action: Action) -> Refusal:
    return Refusal("not_held", seat=seat, cards=(action.cards[0],))


def _not_all_held(state, seat: int, action: Action) -> Refusal:
    return Refusal("not_held", seat=seat, cards=tuple(c for c in action.cards if c not in state.hands[seat]))


def _play_code(action: Action) -> int:
    return action.cards[0] + JOKER_FLAG if action.joker else action.cards[0]


PLAY_TABLE: Table = (
    (lambda s, seat, a: len(a.cards) == 1, lambda s, seat, a: Refusal("play_one")),
    (lambda s, seat, a: a.cards[0] in s.hands[seat], _not_held),
    (lambda s, seat, a: not a.joker or a.cards[0] == s.program.joker,
     lambda s, seat, a: Refusal("not_joker", card=a.cards[0])),
    # The follow rule and the first lead: the very test the listing runs (``tricks.playable``).
    (lambda s, seat, a: _play_code(a) in s._playable(seat), _follow_reason),
)


# --------------------------------------------------------------- exchange
def _exchange_count_reason(state, seat: int, action: Action) -> Refusal:
    least, most, _ = state._limits(seat)
    if least == most:
        return Refusal("exchange_exactly", seat=seat, n=least)
    return Refusal("exchange_between", seat=seat, n=least, m=max(most, least))


def _within_limits(state, seat: int, action: Action) -> bool:
    least, most, _ = state._limits(seat)
    return least <= len(action.cards) <= most


def _exchange_source(state, seat: int, action: Action) -> Refusal | None:
    return source_refusal(state, len(action.cards) + state._limits(seat)[2], action.source)


def draws_anywhere(rules) -> bool:
    """Whether the rules let a draw come from anywhere in the stock (``from bottom``, ``from N``), not the top only."""
    return rules.variant.draw_from != w.TOP


def names_source(state, action: Action) -> bool:
    """Whether ``action`` may say where its cards are drawn from (``ACTION from N``): the rules let the stock be
    drawn from anywhere, and the action draws: an exchange, or a call that draws as it is made.  The rule that the
    refusals ``top_only`` and ``no_from`` state, and what a seat's screen offers beside such an action."""
    if not draws_anywhere(state.rules):
        return False
    if action.word == w.EXCHANGE:
        return True
    call = state.rules.calls.get(action.word)
    return call is not None and draws_at_once(call)


EXCHANGE_TABLE: Table = (
    (lambda s, seat, a: len(set(a.cards)) == len(a.cards), lambda s, seat, a: Refusal("named_twice")),
    (lambda s, seat, a: all(c in s.hands[seat] for c in a.cards),
     _not_all_held),
    (_within_limits, _exchange_count_reason),
    (lambda s, seat, a: a.source == w.TOP or names_source(s, a),
     lambda s, seat, a: Refusal("top_only")),
    (lambda s, seat, a: _exchange_source(s, seat, a) is None, _exchange_source),
)

DISCARD_TABLE: Table = (
    (lambda s, seat, a: len(a.cards) == 1, lambda s, seat, a: Refusal("discard_one")),
    (lambda s, seat, a: a.cards[0] in s.hands[seat], _not_held),
)

TRUMP_TABLE: Table = (
    (lambda s, seat, a: a.suit is not None, lambda s, seat, a: Refusal("name_suit")),
)


# ------------------------------------------------------------------ calls
def _stage(state):
    """The variant's stage the table is in (by its id: the program may add stages of its own, ``offers``)."""
    sid = state.program.stages[state.stage_index].id
    return next(s for s in state.rules.stages if s.id == sid)


def _argument_refusal(state, seat: int, cid: str, action: Action) -> Refusal | None:
    """Why call ``cid`` cannot be written as ``action`` (a hand position, ``trump``, ``from``), or None."""
    call = state.rules.calls[cid]
    mode = call.effects.take_turned
    size = len(state.hands[seat])
    if mode == "swap":
        if action.position is None or not 1 <= action.position <= size:
            return Refusal("position_range", call=cid, n=size)
    elif action.position is not None:
        return Refusal("no_position", call=cid)
    if action.take_turned and mode != "optional":
        return Refusal("no_take", call=cid)
    if action.source != w.TOP and not names_source(state, action):
        return Refusal("no_from", call=cid) if draws_anywhere(state.rules) else Refusal("top_only")
    return None


def call_refusal(state, seat: int, action: Action) -> Refusal | None:
    """Why ``seat`` may not make the call (or ``look``) ``action`` now, or None if he may."""
    word = action.word
    if word == w.LOOK:
        return None if state.blind_call_open(seat) else Refusal("look_closed")
    if word in w.KERNEL_WORDS:
        return Refusal("must_call", word=word, seat=seat)
    if word in state.rules.variant.calls and word not in state.rules.calls:
        return Refusal("switched_off", call=word)
    if word not in state.rules.calls:
        return Refusal("unknown_call", call=word)
    if word not in _stage(state).calls:
        return Refusal("wrong_stage", call=word, stage=_stage(state).id)
    return _argument_refusal(state, seat, word, action) or unmet(state, seat, word, action)


def play_refusal(state, seat: int, action: Action) -> Refusal | None:
    return first_refused(PLAY_TABLE, state, seat, action)


def exchange_refusal(state, seat: int, action: Action) -> Refusal | None:
    return first_refused(EXCHANGE_TABLE, state, seat, action)


def discard_refusal(state, seat: int, action: Action) -> Refusal | None:
    return first_refused(DISCARD_TABLE, state, seat, action)


def trump_refusal(state, seat: int, action: Action) -> Refusal | None:
    return first_refused(TRUMP_TABLE, state, seat, action)
