"""`khrap analyze` as data: the headline, the verdicts, the paired differences, the evening and the hands.

``analysis(result, refs, evenings)`` turns a ``PairedResult`` (and, if played,
each variant's evenings) into one JSON-ready dict; ``analysis_text`` prints it
for a terminal; the HTML report (``khrap.sim.report``) draws the same dict.
"""

from __future__ import annotations

from collections.abc import Sequence

from khrap.sim.hands import hand_rows, hands_text
from khrap.sim.makeable import makeable_text, solved_deals
from khrap.sim.makeable import summary as makeable_summary
from khrap.sim.paired import PairedResult
from khrap.sim.table_words import contract_name, strength_line, table_lines
from khrap.sim.verdict import amount, portrait, verdict, words

HANDS_MISSING = ("Which hands are worth a call: not measured, as random bots play on the kernel's bare machine, "
                 "which keeps no log of the hands; give --bots heuristic or --engine reference.")


def bots_text(bots: Sequence[str]) -> str:
    return bots[0] if len(set(bots)) == 1 else ",".join(bots)


def headline(result: PairedResult, note: str = "") -> str:
    first = result.pspec.specs[0]
    deals = (f"{first.deals} paired deals per variant (the same cards and bot dice for each deal number)"
             if len(result.pspec.specs) > 1 else f"{first.deals} deals")
    return (f"{deals}, "
            f"{first.players} players, {bots_text(first.bots)} bots, seed {first.seed}, sessions of "
            f"{first.chunk} deals (100 chips a seat), {result.workers} worker(s).{' ' + note if note else ''}")


def _decks_differ(result: PairedResult, v: int) -> bool:
    from khrap.sim import runner

    a, b = result.pspec.specs[0], result.pspec.specs[v]
    return (runner._rules(a.variant_json, a.players).deck != runner._rules(b.variant_json, b.players).deck)


def _variant(result: PairedResult, v: int):
    from khrap.sim import runner

    spec = result.pspec.specs[v]
    return runner._rules(spec.variant_json, spec.players).variant


def difference_rows(result: PairedResult, v: int, lang: str = "en") -> list[dict]:
    players = result.pspec.players
    variant, parent = _variant(result, v), _variant(result, 0)
    rows = []
    for d in result.differences(v):
        name, definition, unit = words(d["key"], players)
        if d["key"].startswith("held:"):  # the call's display name, not its id
            shown = contract_name((variant, parent), d["key"].split(":", 1)[1], lang)
            name, definition = f"“{shown}” per deal", definition.replace(d["key"].split(":", 1)[1], shown)
        if d["significant"]:
            says = "a real change (its interval leaves out 0)"
        elif d["deals_needed"]:
            says = (f"no measurable difference at {d['deals']} deals; about {d['deals_needed']:,} deals would "
                    f"tell")
        else:
            says = "the same on every deal"
        held = d["key"].startswith("held:")
        label = contract_name((variant, parent), d["key"].split(":", 1)[1], lang) if held else name
        rows.append({**d, "name": name, "label": label, "definition": definition, "unit": unit, "says": says})
    return rows


def analysis(result: PairedResult, refs: Sequence[str], evenings: Sequence[dict] | None = None,
             note: str = "", lang: str = "en") -> dict:
    """Everything the report says, as plain data.  ``table``: per house rule, the verdict in the table's
    words (``khrap.sim.table_words``, in ``lang``), first lines first."""
    specs = result.pspec.specs
    parent = specs[0].name
    summaries = [r.summary() for r in result.results]
    comparisons = []
    for v in range(1, len(specs)):
        rows = difference_rows(result, v, lang)
        decks_differ = _decks_differ(result, v)
        comparisons.append({
            "parent": parent, "variant": specs[v].name,
            "table": table_lines(_variant(result, 0), _variant(result, v), rows, (summaries[0], summaries[v]),
                                 result.pspec.deals, specs[0].bots, lang,
                                 [e for e in evenings or [] if e["variant"] in (parent, specs[v].name)]),
            "verdict": verdict(parent, specs[v].name, rows, result.pspec.deals, result.pspec.players,
                               bots_text(specs[0].bots), decks_differ),
            "decks_differ": decks_differ, "differences": rows,
        })
    verdicts = [c["verdict"] for c in comparisons] or [portrait(specs[0].name, summaries[0],
                                                                bots_text(specs[0].bots))]
    table = [line for c in comparisons for line in c["table"]] or [strength_line(specs[0].bots, lang)]
    hands = [{"variant": spec.name,
              "rows": hand_rows(result.hands[v], result.results[v].stats.base_stake)} for v, spec in enumerate(specs)]
    return {
        "lang": lang,
        "table": table,
        "verdicts": verdicts,
        "headline": headline(result, note),
        "bots": list(specs[0].bots),
        "players": result.pspec.players,
        "deals": result.pspec.deals,
        "variants": [{"name": s.name, "ref": ref} for s, ref in zip(specs, refs, strict=True)],
        "comparisons": comparisons,
        "evenings": list(evenings or []),
        "hands": hands,
        "makeable": makeable(result),
        "summaries": summaries,
    }


def makeable(result: PairedResult) -> list[dict] | None:
    """Per variant: how often each contract was made and makeable (None when the solver was not asked for)."""
    if result.makeable is None:
        return None
    pspec = result.pspec
    chosen = solved_deals(pspec.deals, pspec.solve)
    return [makeable_summary(spec.name, tally, chosen, pspec.solve_seconds)
            for spec, tally in zip(pspec.specs, result.makeable, strict=True)]


def analysis_text(data: dict) -> str:
    """The analysis for a terminal: headline, verdicts, each difference with its interval, evening, hands."""
    out = list(data.get("table", [])) + [""] + [f"Verdict: {v}" for v in data["verdicts"]]
    out += ["", data["headline"], ""]
    for comp in data["comparisons"]:
        out += [f"What changes, “{comp['variant']}” minus “{comp['parent']}” (95% intervals, deal by deal):"]
        for r in comp["differences"]:
            unit = r["unit"]
            out.append(f"  {r['name']}: {amount(r['difference'], unit)} [{amount(r['ci'][0], unit, False)}, "
                       f"{amount(r['ci'][1], unit, False)}] — {r['says']}")
            out.append(f"      ({r['definition']})")
        out.append("")
    for ev in data["evenings"]:
        out.append(f"An evening of {ev['deals']} deals with {ev['stack']} chips each, {ev['variant']} "
                   f"({ev['evenings']} evenings simulated): a player's result in chips")
        for r in ev["rows"]:
            out.append(f"  {r['seat']:<40} mean {r['mean']:+.1f}, middle half {r['p25']:+d} to {r['p75']:+d}, "
                       f"9 in 10 between {r['p5']:+d} and {r['p95']:+d}; broke {100 * r['broke']:.1f}% "
                       f"[{100 * r['broke_ci'][0]:.1f}, {100 * r['broke_ci'][1]:.1f}]")
        out.append("")
    if not any(h["rows"] for h in data["hands"]):
        out += [HANDS_MISSING, ""]
    for h in data["hands"]:
        if h["rows"]:
            out += [f"Which hands are worth a call ({h['variant']}): made and mean result by the caller's hand",
                    hands_text(h["rows"])]
    if data.get("makeable"):
        out += [makeable_text(data["makeable"])]
    return "\n".join(out).rstrip() + "\n"


__all__ = ["analysis", "analysis_text", "bots_text", "difference_rows", "headline", "makeable"]
