"""Call listers: for one calls stage, a function written out from the variant that lists the calls open to a seat.

The machine asks "which calls may this seat make?" several times a deal.  Looping over the stage's
calls and over each call's tuple of test functions costs a Python call per test; here the tests of
every call of the stage are written out as one function's source, with the variant's values (ranks,
suits, counts) in it as constants, and compiled once per variant, the way ``dataclasses`` writes its
methods.  The tests are those of the preconditions table (the engine's ``preconditions`` module), the one
the refusals are worked out from (``tests/test_compiled_parts.py`` checks the lists against
it); no variant or call is named here.  A call with an optional take of the turned card has two forms,
tested apart: only the one that takes needs the turned card and draws one card fewer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from types import CodeType
from typing import Any

from khrap.engine.preconditions import table, trumps
from khrap.variant.schema import Call

Lister = Callable[[object, int], list]
"""``lister(machine, seat)``: the calls open to ``seat`` now, in the stage's order (``look`` not included)."""


def conditions(cid: str, call: Call, allow_debt: bool, declarer_exists: bool, takes: bool = False) -> list[str]:
    """The tests of ``call``'s preconditions (the table of ``preconditions``, in its order) as Python
    expressions over ``m`` (the machine), ``seat``, ``hand`` and ``trump``, while a declarer exists or not;
    ``takes``: for the form of an optional take that takes the turned card.  (Forms listed by the machine
    always name a valid position and draw from the top, so no entry about the action's writing is kept.)"""
    found: list[str] = []
    for entry in table(cid, call, allow_debt, takes):
        test = entry.test_when(declarer_exists)
        if entry.refused is None and test is not None:
            found.append(test)
    return found


def lister_source(calls: Sequence[tuple[str, Call]], allow_debt: bool, declarer_exists: bool) -> str:
    """Source of ``def lister(m, seat)`` listing the forms of ``calls`` open to ``seat``, in order.

    Each call's forms are read from ``FORMS[i]`` (one tuple; by hand size for a swapping call; for an
    optional take, the form without and the form with the turned card, each tested apart)."""
    lines = ["def lister(m, seat):", "    hand = m.hands[seat]", "    size = len(hand)", "    trump = m.trump",
             "    found = []"]

    def add(tests: list[str], forms: str, indent: str = "    ") -> None:
        if tests:
            lines.append(f"{indent}if {' and '.join(f'({t})' for t in tests)}:")
            indent += "    "
        lines.append(f"{indent}found += {forms}")

    for i, (cid, call) in enumerate(calls):
        take = call.effects.take_turned
        lines.append(f"    # {cid}")
        if take == "optional":
            add(conditions(cid, call, allow_debt, declarer_exists), f"FORMS[{i}][:1]")
            add(conditions(cid, call, allow_debt, declarer_exists, takes=True), f"FORMS[{i}][1:]")
        else:
            forms = f"FORMS[{i}][size]" if take == "swap" else f"FORMS[{i}]"
            add(conditions(cid, call, allow_debt, declarer_exists), forms)
    lines.append("    return found")
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=256)
def _compiled(source: str, where: str) -> CodeType:
    """The code of a lister's source, compiled once: every table of the same rules writes the same source
    (a server makes a session per table, and compiling was most of the cost of a new one)."""
    return compile(source, f"<calls lister: {where}>", "exec")


def make_lister(where: str, calls: Sequence[tuple[str, Call]], allow_debt: bool, declarer_exists: bool,
                forms: list) -> Lister:
    """Compile ``lister_source``, with ``forms[i]`` as it reads them; ``where`` names it in tracebacks."""
    source = lister_source(calls, allow_debt, declarer_exists)
    scope: dict[str, Any] = {"FORMS": forms, "trumps": trumps}
    exec(_compiled(source, where), scope)  # noqa: S102 - source written above from the variant
    lister = scope["lister"]
    lister.source = source
    return lister
