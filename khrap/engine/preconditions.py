"""The preconditions of a call, as one table: each entry is a test and the sentence that says why it fails.

The kernel lists the calls open to a seat by running the tests, each stage's by one lister
(``compiled/listers.py``): no sentence is made.  The reason is worked out only when an action is
refused (``legal.py``): the first entry whose test fails gives it, in the table's order (who may
call, the cards he holds, the table, blind calls last).  A test is a ``Check`` of the listers' module
(one class per kind, the variant's values in it): ``test.met(m, seat, hand, trump)`` over ``m`` (the
kernel: a machine or its ``GameState``), ``seat``, ``hand`` (his cards) and ``trump`` is true when
the precondition is met, the one definition the listing and the refusals both run.

How a call is written (a hand position, ``trump``, ``from N``) is checked apart, before the table
(``calls.argument_refusal``): the forms the engines list are always written right.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from khrap import words as w
from khrap.cards import RANKS
from khrap.engine.compiled.listers import (
    Always,
    Check,
    Covers,
    Dealer,
    DeclarerExists,
    Holds,
    HoldsTrump,
    IsDeclarer,
    NoDeclarer,
    NoOtherDeclarer,
    NotLooked,
    PotAtMost,
    StockHolds,
    TrumpsAtLeast,
    TrumpsAtMost,
    TurnedRank,
    TurnedThere,
)
from khrap.engine.refusal import Refusal
from khrap.engine.rules import compile_pattern, pattern_card
from khrap.variant import derived as facts
from khrap.variant.schema import Call, CardPattern, PotBound

Reason = Callable[[object, int], Refusal]
"""``reason(state, seat)``: why the precondition is not met now."""


@dataclass(frozen=True, slots=True)
class Precondition:
    """One entry: ``test`` (a ``Check`` of ``compiled/listers.py``, met or not) and ``reason``.

    ``by_declarer``: the test as a lister specialised by whether a declarer exists runs it,
    ``(while none, while one exists)``; None there means "always met then" (the lister leaves it out,
    e.g. because a call that needs a declarer is not listed at all while there is none)."""

    test: Check
    reason: Reason
    by_declarer: tuple[Check | None, Check | None] | None = None
    # An entry about how the action is written (where it draws from): listed forms always meet it,
    # so listers leave it out; ``refused(state, seat, action)`` gives its reason or None.
    refused: Callable[[object, int, object], Refusal | None] | None = None

    def test_when(self, declarer_exists: bool) -> Check | None:
        return self.test if self.by_declarer is None else self.by_declarer[declarer_exists]


def needs_card(cid: str, pattern: CardPattern, trump: int | None) -> Refusal:
    """Call ``cid`` needs the card of ``pattern`` in hand (a trump pattern: of the trump named, if any)."""
    card = pattern_card(pattern, trump)
    if pattern.suit != "trump":
        return Refusal("needs_card", call=cid, card=card)
    if card is None:
        return Refusal("needs_trump_rank", call=cid, rank=pattern.rank)
    return Refusal("needs_trump_card", call=cid, rank=pattern.rank, card=card)


def table(cid: str, call: Call, allow_debt: bool, takes: bool = False) -> list[Precondition]:
    """The preconditions of call ``cid``, in the order their reasons are given; ``takes``: the form of an
    optional take that takes the turned card."""
    req, eff = call.requires, call.effects
    found: list[Precondition] = []
    add = found.append
    # Who may call.
    if req.dealer:
        add(Precondition(Dealer(), lambda s, seat: Refusal("dealer_only", call=cid, seat=s.dealer)))
    if req.declarer == "exists":
        add(Precondition(DeclarerExists(), lambda s, seat: (
            Refusal("needs_declarer", call=cid, calls=tuple(s.rules.derived.declaring))), (None, None)))
    if req.declarer == "absent":
        add(Precondition(NoDeclarer(), lambda s, seat: (
            Refusal("declarer_exists", call=cid, seat=s.declarer)), (None, None)))
    if eff.status == w.DECLARER and not eff.override:
        add(Precondition(NoOtherDeclarer(), lambda s, seat: (
            Refusal("no_override", call=cid, seat=s.declarer)), (None, IsDeclarer())))
    # The cards he holds.
    for pattern in req.holds:
        rank, suit = compile_pattern(pattern)
        # The trump suit (suit None): while none is named nobody holds it.
        test = Holds(suit * 13 + rank) if suit is not None else HoldsTrump(rank)
        add(Precondition(test, lambda s, seat, p=pattern: needs_card(cid, p, s.trump)))
    if req.min_trumps is not None:
        add(Precondition(TrumpsAtLeast(req.min_trumps),
                         lambda s, seat: Refusal("min_trumps", call=cid, n=req.min_trumps)))
    if req.max_trumps is not None:
        add(Precondition(TrumpsAtMost(req.max_trumps),
                         lambda s, seat: Refusal("max_trumps", call=cid, n=req.max_trumps)))
    # The table: the turned card, the pot, the stock, his stack.
    if req.turned_rank is not None:
        rank = RANKS.index(req.turned_rank)
        add(Precondition(TurnedRank(rank),
                         lambda s, seat: Refusal("turned_rank", call=cid, rank=req.turned_rank)))
    if req.max_pot is not None:
        add(pot_bound(cid, req.max_pot))
    if eff.take_turned in ("yes", "swap") or takes:
        add(Precondition(TurnedThere(),
                         lambda s, seat: Refusal("needs_turned", call=cid)))
    need = facts.draws_of(call, takes)
    if need:
        add(Precondition(StockHolds(need), lambda s, seat: (
            Refusal("stock_short", call=cid, n=need, m=len(s.stock) - s.owed_draws))))
    if facts.draws_at_once(call):
        count = facts.draws_now(call, takes)
        add(Precondition(Always(), _never, refused=lambda s, seat, action: source_refusal(s, count, action.source)))
    if not allow_debt:  # (``allow_debt``: no stack is checked, as with debts or with payments capped)
        add(Precondition(Covers(status=eff.status, cid=cid),
                         lambda s, seat: short_reason(s, seat, cid, eff.status)))
    # Blind calls last: a seat who looked because the call was not open to him then (not the dealer,
    # no declarer yet, a wrong turned card) hears that reason.
    if req.blind:
        add(Precondition(NotLooked(),
                         lambda s, seat: Refusal("blind_only", call=cid)))
    return found


def short_reason(state, seat: int, cid: str, status: str) -> Refusal:
    """Why ``seat`` may not make call ``cid`` on a table that refuses what a stack cannot pay: whose stack
    (his own, a forced helper's, the overridden declarer's) is short of the most the call may cost it."""
    who, role, cost = state.short_of(seat, status, cid)
    has = state.stacks[who] + state.locked[who]
    if who == seat:
        return Refusal("short_self", call=cid, n=cost, seat=seat, m=has)
    return Refusal("short_other", call=cid, seat=who, role=role, n=cost, m=has)


def pot_bound(cid: str, bound: PotBound) -> Precondition:
    """The pot holds at most ``bound``: its base stakes in chips (the program's), times the seats when per player."""

    def reason(s, seat: int) -> Refusal:
        cap = bound.base * s.program.base_stake * (s.n if bound.per_player else 1)
        return Refusal("pot_cap", call=cid, n=cap, per=(bound.base, s.n) if bound.per_player else None, m=s.pot)

    return Precondition(PotAtMost(bound.base, bound.per_player), reason)


def _never(state, seat: int) -> Refusal:
    raise AssertionError("an entry about the action's writing is refused by its own function")


def source_refusal(state, count: int, source: str | int) -> Refusal | None:
    """Why ``count`` cards cannot be drawn from ``source``, or None."""
    if isinstance(source, int) and count and not 1 <= source <= len(state.stock) - count + 1:
        return Refusal("draw_position", n=count, position=source, m=len(state.stock))
    return None


def entries(rules, cid: str, takes: bool) -> tuple[Precondition, ...]:
    """The table of call ``cid`` (``takes``: the form of an optional take that takes the turned card) under
    ``rules``, made once per rules."""
    key = (cid, takes)
    found = rules.preconditions.get(key)
    if found is None:
        v = rules.variant
        found = rules.preconditions[key] = tuple(
            table(cid, rules.calls[cid], v.allow_debt or v.short_payment == "capped", takes))
    return found


def conditions(cid: str, call: Call, allow_debt: bool, declarer_exists: bool, takes: bool = False) -> list[Check]:
    """The tests of ``call``'s preconditions (the table, in its order) a listing runs, while a declarer exists or
    not; ``takes``: for the form of an optional take that takes the turned card.  (Forms listed by the machine
    always name a valid position and draw from the top, so no entry about the action's writing is kept.)"""
    found: list[Check] = []
    for entry in table(cid, call, allow_debt, takes):
        test = entry.test_when(declarer_exists)
        if entry.refused is None and test is not None:
            found.append(test)
    return found


def unmet(state, seat: int, cid: str, action) -> Refusal | None:
    """The reason of the first precondition of ``cid``, written as ``action``, that ``seat`` does not meet now."""
    hand, trump = state.hands[seat], state.trump
    for entry in entries(state.rules, cid, action.take_turned):
        refused = entry.refused
        if refused is not None:
            problem = refused(state, seat, action)
            if problem:
                return problem
        elif not entry.test.met(state, seat, hand, trump):
            return entry.reason(state, seat)
    return None
