"""The preconditions of a call, as one table: each entry is a test and the sentence that says why it fails.

The kernel lists the calls open to a seat by running the tests, written out as one function per
calls stage (``compiled/listers.py``): no sentence is made.  The reason is worked out only when an
action is refused (``legal.py``): the first entry whose test fails gives it, in the table's order
(who may call, the cards he holds, the table, blind calls last).  A test is a Python expression
over ``m`` (the kernel: a machine or its ``GameState``), ``seat``, ``hand`` (his cards) and
``trump``; it is true when the precondition is met.

How a call is written (a hand position, ``trump``, ``from N``) is checked apart, before the table
(``calls.argument_refusal``): the forms the engines list are always written right.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from khrap import words as w
from khrap.cards import RANKS
from khrap.engine.refusal import Refusal
from khrap.engine.rules import compile_pattern, pattern_card
from khrap.variant import derived as facts
from khrap.variant.schema import Call, CardPattern, PotBound

Reason = Callable[[object, int], Refusal]
"""``reason(state, seat)``: why the precondition is not met now."""


@dataclass(frozen=True, slots=True)
class Precondition:
    """One entry: ``test`` (an expression, true when met) and ``reason``.

    ``by_declarer``: the test as a lister specialised by whether a declarer exists writes it,
    ``(while none, while one exists)``; None there means "always met then" (the lister leaves it out,
    e.g. because a call that needs a declarer is not listed at all while there is none)."""

    test: str
    reason: Reason
    by_declarer: tuple[str | None, str | None] | None = None
    # An entry about how the action is written (where it draws from): listed forms always meet it,
    # so listers leave it out; ``refused(state, seat, action)`` gives its reason or None.
    refused: Callable[[object, int, object], Refusal | None] | None = None

    def test_when(self, declarer_exists: bool) -> str | None:
        return self.test if self.by_declarer is None else self.by_declarer[declarer_exists]


def trumps(hand: list[int], trump: int | None) -> int:
    """How many trumps ``hand`` holds (none while no trump is named)."""
    return sum(1 for card in hand if card // 13 == trump)


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
        add(Precondition("seat == m.dealer", lambda s, seat: Refusal("dealer_only", call=cid, seat=s.dealer)))
    if req.declarer == "exists":
        add(Precondition("m.declarer is not None", lambda s, seat: (
            Refusal("needs_declarer", call=cid, calls=tuple(s.rules.derived.declaring))), (None, None)))
    if req.declarer == "absent":
        add(Precondition("m.declarer is None", lambda s, seat: (
            Refusal("declarer_exists", call=cid, seat=s.declarer)), (None, None)))
    if eff.status == w.DECLARER and not eff.override:
        add(Precondition("m.declarer is None or m.declarer == seat", lambda s, seat: (
            Refusal("no_override", call=cid, seat=s.declarer)), (None, "m.declarer == seat")))
    # The cards he holds.
    for pattern in req.holds:
        rank, suit = compile_pattern(pattern)
        # The trump suit (suit None): while none is named nobody holds it.
        card = f"{suit * 13 + rank}" if suit is not None else f"trump is not None and trump * 13 + {rank}"
        test = f"{card} in hand"
        add(Precondition(test, lambda s, seat, p=pattern: needs_card(cid, p, s.trump)))
    if req.min_trumps is not None:
        add(Precondition(f"trumps(hand, trump) >= {req.min_trumps}",
                         lambda s, seat: Refusal("min_trumps", call=cid, n=req.min_trumps)))
    if req.max_trumps is not None:
        add(Precondition(f"trumps(hand, trump) <= {req.max_trumps}",
                         lambda s, seat: Refusal("max_trumps", call=cid, n=req.max_trumps)))
    # The table: the turned card, the pot, the stock, his stack.
    if req.turned_rank is not None:
        rank = RANKS.index(req.turned_rank)
        add(Precondition(f"not m.turned_taken and bool(m.turned) and m.turned[-1] % 13 == {rank}",
                         lambda s, seat: Refusal("turned_rank", call=cid, rank=req.turned_rank)))
    if req.max_pot is not None:
        add(pot_bound(cid, req.max_pot))
    if eff.take_turned in ("yes", "swap") or takes:
        add(Precondition("not m.turned_taken and bool(m.turned)",
                         lambda s, seat: Refusal("needs_turned", call=cid)))
    need = facts.draws_of(call, takes)
    if need:
        add(Precondition(f"{need} <= len(m.stock) - m.owed_draws", lambda s, seat: (
            Refusal("stock_short", call=cid, n=need, m=len(s.stock) - s.owed_draws))))
    if facts.draws_at_once(call):
        count = facts.draws_now(call, takes)
        add(Precondition("True", _never, refused=lambda s, seat, action: source_refusal(s, count, action.source)))
    if not allow_debt:  # (``allow_debt``: no stack is checked, as with debts or with payments capped)
        add(Precondition(f"m.can_cover(seat, {eff.status!r}, {cid!r})",
                         lambda s, seat: short_reason(s, seat, cid, eff.status)))
    # Blind calls last: a seat who looked because the call was not open to him then (not the dealer,
    # no declarer yet, a wrong turned card) hears that reason.
    if req.blind:
        add(Precondition("not m.looked[seat]",
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
    chips = f"{bound.base} * m.program.base_stake" + (" * m.n" if bound.per_player else "")

    def reason(s, seat: int) -> Refusal:
        cap = bound.base * s.program.base_stake * (s.n if bound.per_player else 1)
        return Refusal("pot_cap", call=cid, n=cap, per=(bound.base, s.n) if bound.per_player else None, m=s.pot)

    return Precondition(f"m.pot <= {chips}", reason)


def _never(state, seat: int) -> Refusal:
    raise AssertionError("an entry about the action's writing is refused by its own function")


def source_refusal(state, count: int, source: str | int) -> Refusal | None:
    """Why ``count`` cards cannot be drawn from ``source``, or None."""
    if isinstance(source, int) and count and not 1 <= source <= len(state.stock) - count + 1:
        return Refusal("draw_position", n=count, position=source, m=len(state.stock))
    return None


Check = Callable[[object, int, list, "int | None"], bool]


def compile_test(test: str, where: str) -> Check:
    """A test of the table as a function ``check(m, seat, hand, trump)``."""
    code = compile(f"lambda m, seat, hand, trump: {test}", f"<precondition: {where}>", "eval")
    return eval(code, {"trumps": trumps})  # noqa: S307 - the expression is written above from the variant


Compiled = tuple[tuple[tuple[Check, Reason, object], ...], tuple[Check, ...]]


def checks(rules, cid: str, takes: bool) -> Compiled:
    """The table of call ``cid`` compiled, made once per rules (refusals, ``met``): every entry as
    (test, reason, refused), and the tests alone that listing runs."""
    key = (cid, takes)
    found = rules.preconditions.get(key)
    if found is None:
        v = rules.variant
        entries = table(cid, rules.calls[cid], v.allow_debt or v.short_payment == "capped", takes)
        compiled = tuple((compile_test(e.test, cid), e.reason, e.refused) for e in entries)
        found = rules.preconditions[key] = (compiled, tuple(c for c, _, refused in compiled if refused is None))
    return found


def unmet(state, seat: int, cid: str, action) -> Refusal | None:
    """The reason of the first precondition of ``cid``, written as ``action``, that ``seat`` does not meet now."""
    hand, trump = state.hands[seat], state.trump
    for check, reason, refused in checks(state.rules, cid, action.take_turned)[0]:
        if refused is not None:
            problem = refused(state, seat, action)
            if problem:
                return problem
        elif not check(state, seat, hand, trump):
            return reason(state, seat)
    return None


def met(state, seat: int, cid: str, takes: bool = False) -> bool:
    """Whether ``seat`` meets every precondition of ``cid`` now, in a form the engines list (no reason is made)."""
    hand, trump = state.hands[seat], state.trump
    for check in checks(state.rules, cid, takes)[1]:  # noqa: SIM110 - a loop is cheaper than all() here
        if not check(state, seat, hand, trump):
            return False
    return True
