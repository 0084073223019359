"""Call listers: for one calls stage, a function written out from the variant that lists the calls open to a seat.

The machine asks "which calls may this seat make?" several times a deal.  Looping over the stage's
calls and over each call's tuple of test functions costs a Python call per test; here the tests of
every call of the stage are written out as one function's source, with the variant's values (ranks,
suits, counts) in it as constants, and compiled once per variant, the way ``dataclasses`` writes its
methods.  The source comes from the calls' fields only, and states the same preconditions as
``Program._tests`` (``tests/test_compiled.py`` checks every list against the reference kernel); no
variant or call is named here.  A call whose tests depend on the form (an optional take of the
turned card) is checked form by form through its test tuple instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from khrap import words as w
from khrap.cards import RANKS
from khrap.engine.calls import draws_needed
from khrap.engine.rules import compile_pattern
from khrap.variant.schema import Call

Lister = Callable[[object, int], list]
"""``lister(machine, seat)``: the calls open to ``seat`` now, in the stage's order (``look`` not included)."""


def conditions(cid: str, call: Call, allow_debt: bool, declarer_exists: bool) -> list[str]:
    """The form-free preconditions of ``call`` as Python expressions over ``m`` (the machine), ``seat``,
    ``hand`` and ``trump``, while a declarer exists or not: ``Program._tests`` in source form."""
    req, eff = call.requires, call.effects
    found: list[str] = []
    if eff.status == w.DECLARER and not eff.override and req.declarer != "absent" and declarer_exists:
        found.append("m.declarer == seat")
    if req.dealer:
        found.append("seat == m.dealer")
    if req.blind:
        found.append("not m.looked[seat]")
    if req.turned_rank is not None:
        rank = RANKS.index(req.turned_rank)
        found.append(f"not m.turned_taken and bool(m.turned) and m.turned[-1] % 13 == {rank}")
    if eff.take_turned in ("yes", "swap"):
        found.append("not m.turned_taken and bool(m.turned)")
    for rank, suit in map(compile_pattern, req.holds):
        if suit is None:  # the trump suit: none named yet holds nothing
            found.append(f"trump is not None and trump * 13 + {rank} in hand")
        else:
            found.append(f"{suit * 13 + rank} in hand")
    if req.min_trumps is not None or req.max_trumps is not None:
        least = "" if req.min_trumps is None else f"{req.min_trumps} <= "
        most = "" if req.max_trumps is None else f" <= {req.max_trumps}"
        found.append(f"{least}trumps(hand, trump){most}")
    needed = draws_needed(call, False)
    if needed:
        found.append(f"{needed} <= len(m.stock) - m.owed_draws")
    if not allow_debt:
        found.append(f"m.can_cover(seat, {eff.status!r}, {cid!r})")
    return found


def trumps(hand: list[int], trump: int | None) -> int:
    return sum(1 for card in hand if card // 13 == trump)


def lister_source(calls: Sequence[tuple[str, Call]], allow_debt: bool, declarer_exists: bool) -> str:
    """Source of ``def lister(m, seat)`` listing the forms of ``calls`` open to ``seat``, in order.

    Each call's forms are read from ``FORMS[i]`` (one tuple, or by hand size for a swapping call);
    a call with an optional take is checked by ``checked(m, seat, i, size)``."""
    lines = ["def lister(m, seat):", "    hand = m.hands[seat]", "    size = len(hand)", "    trump = m.trump",
             "    found = []"]
    for i, (cid, call) in enumerate(calls):
        take = call.effects.take_turned
        if take == "optional":
            lines.append(f"    found += checked(m, seat, {i}, size)  # {cid}: tests form by form")
            continue
        forms = f"FORMS[{i}][size]" if take == "swap" else f"FORMS[{i}]"
        tests = conditions(cid, call, allow_debt, declarer_exists)
        lines.append(f"    # {cid}")
        if tests:
            lines.append(f"    if {' and '.join(f'({t})' for t in tests)}:")
            lines.append(f"        found += {forms}")
        else:
            lines.append(f"    found += {forms}")
    lines.append("    return found")
    return "\n".join(lines) + "\n"


def make_lister(where: str, calls: Sequence[tuple[str, Call]], allow_debt: bool, declarer_exists: bool,
                forms: list, checked: Callable[[object, int, int, int], list]) -> Lister:
    """Compile ``lister_source``; ``forms[i]`` as it reads them, ``checked`` for optional takes; ``where``
    names the lister in tracebacks."""
    source = lister_source(calls, allow_debt, declarer_exists)
    scope = {"FORMS": forms, "checked": checked, "trumps": trumps}
    exec(compile(source, f"<calls lister: {where}>", "exec"), scope)  # noqa: S102 - source written above from the variant
    lister = scope["lister"]
    lister.source = source
    return lister
