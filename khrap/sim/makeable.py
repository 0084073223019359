"""How often each contract was makeable: the exact solver's answer at the first card, beside what the bots made.

``khrap analyze --makeable`` keeps, for some deals of the run (``--solve N`` of
them, spread evenly over the deal numbers, so that every worker gets its share
and every session is sampled), the deal as it stood when its first card was to
be played (``FirstCard``, a copy taken through ``runner._play_deal``'s
``watch``).  After the deal is settled, each contract that reached the card
play is read from the deal's record (``DealRecord.contracts``: the seat, the
call it stands by, the tricks it needs, whether it took them) and the solver
is asked whether that seat was sure of those tricks from the first card with
every hand open, against any play of every other seat in play
(``khrap.bots.solver.can_make``, the "paranoid" question: partners count as
opponents too).  Nothing here changes the deal: the bots play exactly as
without the option.

Two things are counted per call (and for all calls together) over the solved
contracts: *made* (what the bots did) and *makeable* (what was possible), with
their crossings:

* ``failed_makeable``: failed, though the seat could have made it whatever the
  others did (the seat's own play, or its partners', lost it);
* ``made_unmakeable``: made, though the others could have stopped it: not an
  error, the defence let it through (every other seat is counted as defence).

"Made of the makeable" is ``made and makeable`` over ``makeable``: how much of
what was possible the bots got.

A deal has ``SOLVE_SECONDS`` (``--solve-seconds``) for all its contracts; past
it the solver stops (``SolverTimeout``) and the deal is counted as unsolved,
none of its contracts in the figures.  The time limit is a wall clock: with
unsolved deals the figures may differ from run to run; with none they are the
same whatever the workers (the deals solved are fixed by their numbers).
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from khrap import words as w
from khrap.engine.kinds import PLAY
from khrap.sim.figures import Figures
from khrap.sim.records import DealRecord
from khrap.sim.report_words import figures
from khrap.sim.stats import wilson as stats_wilson

SOLVE_SECONDS = 2.0
"""The default time limit for one deal's contracts (every one solved from the first card)."""
SOLVE_DEALS = 1000
"""The default number of deals solved per variant when ``--makeable`` is given without ``--solve``."""


def solved_deals(deals: int, solve: int) -> int:
    """How many of ``deals`` deal numbers are solved when ``solve`` are asked for."""
    return max(0, min(deals, solve))


def is_solved(deal: int, deals: int, solve: int) -> bool:
    """Whether deal number ``deal`` (0 to ``deals`` - 1) is one of the ``solve`` deals solved.

    Exactly ``min(solve, deals)`` deal numbers are chosen, spread evenly: deal ``d`` is chosen when
    ``floor((d + 1) * solve / deals)`` passes a whole number (so 2 of 10 are deals 4 and 9)."""
    if solve <= 0:
        return False
    if solve >= deals:
        return True
    return (deal + 1) * solve // deals > deal * solve // deals


class FirstCard:
    """A ``watch`` for ``runner._play_deal``: keeps a copy of the deal when its first card is to be played.

    Armed for one deal at a time (``arm()``); unarmed it only looks at one attribute per decision."""

    def __init__(self) -> None:
        self.armed = False
        self.state = None

    def arm(self) -> None:
        self.armed, self.state = True, None

    def __call__(self, state) -> None:
        if self.armed:
            pending = state.pending
            if pending.kind is PLAY and not state.won and not state.trick:
                self.state = state.clone()
                self.armed = False

    def take(self):
        """The deal at its first card (None if it never reached one), and unarm."""
        state, self.state, self.armed = self.state, None, False
        return state


def contracts_in_play(rec: DealRecord) -> list:
    """The record's contracts that reached the card play: seats standing by a call whose tricks were played."""
    if rec.ending != w.PLAY_PHASE:
        return []
    return [c for c in rec.contracts if c.status in w.ACTIVE and c.fulfilled is not None]


def solve_contracts(start, rec: DealRecord, seconds: float = SOLVE_SECONDS) -> list[tuple[str, bool, bool]] | None:
    """(call, made, makeable) of every contract of ``rec`` that reached the card play, from ``start`` (the
    deal at its first card, every hand open); None when the solver ran out of ``seconds`` for the deal."""
    from khrap.bots.solver import SolverTimeout, can_make

    deadline = time.perf_counter() + seconds
    out = []
    try:
        for c in contracts_in_play(rec):
            out.append((c.label, bool(c.fulfilled), can_make(start, c.seat, c.need, deadline=deadline)))
    except SolverTimeout:
        return None
    return out


ROW = ("contracts", "made", "makeable", "both")
"""A call's counts: contracts solved, made, makeable, made and makeable."""


@dataclass
class Tally:
    """One variant's counts (integers: they merge exactly whatever the workers) and the solver's time."""

    calls: dict[str, list[int]] = field(default_factory=dict)  # call -> ROW counts
    played: int = 0  # deals chosen for the solver that reached the card play
    solved: int = 0
    unsolved: int = 0  # deals whose contracts the solver did not finish in time
    unsolved_contracts: int = 0
    seconds: float = 0.0  # solver wall time (not a result: it varies from run to run)

    def add(self, rec: DealRecord, start, seconds: float) -> None:
        """Solve one deal's contracts (``start``: the deal at its first card, None if it had no card play)."""
        in_play = contracts_in_play(rec)
        if start is None or not in_play:
            return
        self.played += 1
        began = time.perf_counter()
        found = solve_contracts(start, rec, seconds)
        self.seconds += time.perf_counter() - began
        if found is None:
            self.unsolved += 1
            self.unsolved_contracts += len(in_play)
            return
        self.solved += 1
        for call, made, makeable in found:
            row = self.calls.setdefault(call, [0, 0, 0, 0])
            row[0] += 1
            row[1] += made
            row[2] += makeable
            row[3] += made and makeable

    def merge(self, other: Tally) -> None:
        for call, counts in other.calls.items():
            row = self.calls.setdefault(call, [0, 0, 0, 0])
            for i, x in enumerate(counts):
                row[i] += x
        self.played += other.played
        self.solved += other.solved
        self.unsolved += other.unsolved
        self.unsolved_contracts += other.unsolved_contracts
        self.seconds += other.seconds


def wilson(hits: int, n: int) -> list[float] | None:
    """The Wilson 95% interval of ``hits`` in ``n`` (None for n = 0), as a JSON list."""
    return list(stats_wilson(hits, n)) if n else None


def _share(hits: int, n: int) -> tuple[float | None, list[float] | None]:
    return (hits / n if n else None), wilson(hits, n)


def row(call: str, counts: Sequence[int]) -> dict:
    """One call's figures: shares with their Wilson 95% intervals, and the crossings."""
    n, made, makeable, both = counts
    out: dict = {"call": call, "contracts": n, "made": made, "makeable": makeable, "made_and_makeable": both,
                 "failed_makeable": makeable - both, "made_unmakeable": made - both}
    for key, ci, hits, of in (("made_share", "made_ci", made, n), ("makeable_share", "makeable_ci", makeable, n),
                              ("made_of_makeable", "made_of_makeable_ci", both, makeable),
                              ("failed_makeable_share", "failed_makeable_ci", makeable - both, n)):
        out[key], out[ci] = _share(hits, of)
    return out


def summary(name: str, tally: Tally, chosen: int, seconds: float) -> dict:
    """One variant's makeable figures as plain data: a row per call (most contracts first) and the total."""
    calls = sorted(tally.calls.items(), key=lambda kv: (-kv[1][0], kv[0]))
    total = [sum(c[i] for _, c in calls) for i in range(len(ROW))]
    return {"variant": name, "deals": chosen, "played": tally.played, "solved": tally.solved,
            "unsolved": tally.unsolved, "unsolved_contracts": tally.unsolved_contracts, "seconds_per_deal": seconds,
            "solver_seconds": tally.seconds, "rows": [row(call, counts) for call, counts in calls],
            "total": row("all calls", total)}


def _pct(x: float | None, fig: Figures) -> str:
    return "–" if x is None else fig(100 * x, ".0f") + "%"


def _pci(share: float | None, ci: list[float] | None, fig: Figures) -> str:
    if share is None or ci is None:
        return "–"
    return fig(100 * share, ".0f") + "% " + fig.interval(100 * ci[0], 100 * ci[1], ".0f")


COLUMNS = ["call", "contracts", "made [95%]", "makeable [95%]", "made of the makeable [95%]",
           "failed though makeable", "made though the others could stop it"]

Say = Callable[[str], str]
"""A text in the report's language (``khrap.sim.report_words.tr``); the same text: English."""


def _same(text: str) -> str:
    return text


def table_rows(data: dict, t: Say = _same, name: Say = _same) -> list[list]:
    """The variant's rows for a table with ``COLUMNS`` (the total last); ``name``: a call's display name."""
    out, fig = [], figures(t)
    for r in [*data["rows"], data["total"]] if len(data["rows"]) > 1 else data["rows"]:
        call = t(r["call"]) if r is data["total"] else name(r["call"])
        out.append([call, r["contracts"], _pci(r["made_share"], r["made_ci"], fig),
                    _pci(r["makeable_share"], r["makeable_ci"], fig),
                    _pci(r["made_of_makeable"], r["made_of_makeable_ci"], fig),
                    r["failed_makeable"], r["made_unmakeable"]])
    return out


def headline(data: dict, t: Say = _same) -> str:
    """One sentence: what was solved, the gap, what was not solved in time."""
    total, fig = data["total"], figures(t)
    text = t("{variant}: of the {deals} deals judged, {played} reached the card play and {solved} were solved "
             "({contracts} contracts)").format(variant=data["variant"], deals=data["deals"],
                                               played=data["played"], solved=data["solved"],
                                               contracts=total["contracts"])
    if total["makeable"]:
        text += t("; {makeable} of the contracts were makeable with every card open, {made} were made: the bots "
                  "made {both} of the makeable ones").format(makeable=_pct(total["makeable_share"], fig),
                                                             made=_pct(total["made_share"], fig),
                                                             both=_pct(total["made_of_makeable"], fig))
    elif total["contracts"]:
        text += t("; none was makeable with every card open")
    if data["unsolved"]:
        text += t("; {deals} deal(s) ({contracts} contracts) not solved within {seconds:g} s, left out").format(
            deals=data["unsolved"], contracts=data["unsolved_contracts"], seconds=data["seconds_per_deal"])
    return text + "."


NOTE = ("Makeable: with every hand open at the first card, the seat could take the tricks its call needs "
        "whatever every other seat in play did (its partners included). Made of the makeable: of those, the "
        "share the bots made. Made though the others could stop it: the defence let it through (not an error). "
        "95% Wilson intervals.")
"""The note under the tables (its translations key on the name ``MAKEABLE_NOTE``)."""

TEXT_HEADS = ["call", "contracts", "made", "makeable", "made/makeable", "failed:M", "made:¬M"]
TEXT_KEY = "(failed:M = failed though makeable; made:¬M = made though the others could have stopped it.)"


def makeable_text(items: Sequence[dict], t: Say = _same, name: Say = _same) -> str:
    """The makeable tables as plain text (``t``: in the report's language; ``name``: a call's display name)."""
    out = [t("How often each contract was makeable (exact solver at the first card, every hand open):")]
    heads = [t(h) for h in TEXT_HEADS]
    for data in items:
        rows = [[str(x) for x in r] for r in table_rows(data, t, name)]
        # each column as wide as its widest cell or heading (a translated heading is longer), at least the old
        widths = [max([w, len(h) + 1] + [len(r[k]) + 1 for r in rows])
                  for k, (w, h) in enumerate(zip((22, 10, 15, 16, 16, 9, 9), heads, strict=True))]
        out.append("  " + headline(data, t))
        for cells in [heads, *rows]:
            out.append("  " + "".join(f"{x:<{widths[0]}}" if k == 0 else f"{x:>{widths[k]}}"
                                      for k, x in enumerate(cells)))
        out.append("")
    out.append("  " + t(TEXT_KEY))
    note = NOTE if t("MAKEABLE_NOTE") == "MAKEABLE_NOTE" else t("MAKEABLE_NOTE")
    out += textwrap.wrap(note, 110, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(out) + "\n"


__all__ = ["COLUMNS", "NOTE", "ROW", "SOLVE_DEALS", "SOLVE_SECONDS", "FirstCard", "Tally", "contracts_in_play",
           "headline", "is_solved", "makeable_text", "row", "solve_contracts", "solved_deals", "summary",
           "table_rows", "wilson"]
