"""`khrap analyze` as data: the headline, the verdicts, the paired differences, the evening and the hands.

``analysis(result, refs, evenings)`` turns a ``PairedResult`` (and, if played,
each variant's evenings) into one JSON-ready dict; ``analysis_text`` prints it
for a terminal; the HTML report (``khrap.sim.report``) draws the same dict.
"""

from __future__ import annotations

from collections.abc import Sequence

from khrap.bots import strength_of
from khrap.sim.hands import hand_rows, hands_text
from khrap.sim.makeable import makeable_text, solved_deals
from khrap.sim.makeable import summary as makeable_summary
from khrap.sim.paired import PairedResult
from khrap.sim.report_words import figures, tr
from khrap.sim.table_words import contract_name, strength_line, table_lines, word_name
from khrap.sim.verdict import amount, portrait, stakes_note, verdict, words

HANDS_MISSING = ("Which hands are worth a call: not measured, as random bots play on the kernel's bare machine, "
                 "which keeps no log of the hands; give --bots heuristic or --engine reference.")


def bots_text(bots: Sequence[str]) -> str:
    return bots[0] if len(set(bots)) == 1 else ",".join(bots)


def headline(result: PairedResult, note: str = "", lang: str = "en") -> str:
    t = tr(lang)
    first = result.pspec.specs[0]
    deals = (t("{deals} paired deals per variant (the same cards and bot dice for each deal number)")
             if len(result.pspec.specs) > 1 else t("{deals} deals")).format(deals=first.deals)
    return t("{deals}, {players} players, {bots} bots, seed {seed}, sessions of {chunk} deals (100 chips a seat), "
             "{workers} worker(s).").format(deals=deals, players=first.players, bots=bots_words(first.bots, t),
                                            seed=first.seed, chunk=first.chunk, workers=result.workers) + (
        " " + note if note else "")


def bots_words(bots: Sequence[str], t) -> str:
    """The bots as ``bots_text`` names them; in another language than English, by their strength's word
    (``normal``, not ``heuristic``) in it."""
    if t("normal") == "normal":  # English: as named
        return bots_text(bots)
    shown = [t(strength_of(kind) or kind) for kind in bots]
    return shown[0] if len(set(bots)) == 1 else ",".join(shown)


def display_name(result: PairedResult, v: int, lang: str) -> str:
    """Variant ``v``'s name in ``lang`` (its English one, as the runs are named, where it has none)."""
    return _variant(result, v).name.get(lang) or result.pspec.specs[v].name


def label_names(result: PairedResult, lang: str) -> dict[str, str]:
    """Every call and contract label the runs hold (``take-five``, ``khrap (overridden)``, ``forced helper``),
    by its display name in ``lang`` (the house rules' names first, then the parent's): no id in the report."""
    variants = [_variant(result, v) for v in range(len(result.pspec.specs))]
    order = variants[1:] + variants[:1]
    summaries = [r.summary() for r in result.results]
    labels = {row[key] for s in summaries for part, key in (("calls", "call"), ("contracts", "contract"))
              for row in s[part]}
    names = {label: contract_name(order, label, lang) for label in labels}
    # a deal's endings: an instant win by its name (the others, ``play`` or ``lone``, are the catalog's words)
    endings = {e for s in summaries for e in s["rates"]["endings"]}
    return names | {e: word_name(order, e, lang) for e in endings if word_name(order, e, lang) != e}


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
    t = tr(lang)
    rows = []
    for d in result.differences(v):
        name, definition, unit = words(d["key"], players, t)
        if d["key"].startswith("held:"):  # the call's display name, not its id
            shown = contract_name((variant, parent), d["key"].split(":", 1)[1], lang)
            name, _, _ = words(f"held:{shown}", players, t)
            definition = definition.replace(d["key"].split(":", 1)[1], shown)
        if d["significant"]:
            says = t("a real change (its interval leaves out 0)")
        elif d["deals_needed"]:
            says = t("no measurable difference at {deals} deals; about {needed:,} deals would tell").format(
                deals=d['deals'], needed=d['deals_needed'])
        else:
            says = t("the same on every deal")
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
    shown = [display_name(result, v, lang) for v in range(len(specs))]  # the variants' names in ``lang``
    summaries = [r.summary() for r in result.results]
    comparisons = []
    for v in range(1, len(specs)):
        rows = difference_rows(result, v, lang)
        decks_differ = _decks_differ(result, v)
        comparisons.append({
            "parent": shown[0], "variant": shown[v],
            "table": table_lines(_variant(result, 0), _variant(result, v), rows, (summaries[0], summaries[v]),
                                 result.pspec.deals, specs[0].bots, lang,
                                 [e for e in evenings or [] if e["variant"] in (parent, specs[v].name)]),
            "verdict": verdict(shown[0], shown[v], rows, result.pspec.deals, result.pspec.players,
                               bots_words(specs[0].bots, tr(lang)), decks_differ, tr(lang))
            + stakes_note(shown[v], _variant(result, v).base_stake, _variant(result, 0).base_stake, tr(lang)),
            "decks_differ": decks_differ, "differences": rows,
        })
    names = label_names(result, lang)
    verdicts = [c["verdict"] for c in comparisons] or [
        portrait(shown[0], summaries[0], bots_words(specs[0].bots, tr(lang)), tr(lang),
                 lambda label: names.get(label, label))]
    table = [line for c in comparisons for line in c["table"]] or [strength_line(specs[0].bots, lang)]
    hands = [{"variant": shown[v],
              "rows": hand_rows(result.hands[v], result.results[v].stats.base_stake)} for v, spec in enumerate(specs)]
    by_name = {spec.name: shown[v] for v, spec in enumerate(specs)}
    evenings = [{**e, "variant": by_name.get(e["variant"], e["variant"])} for e in evenings or []]
    return {
        "lang": lang,
        "table": table,
        "verdicts": verdicts,
        "headline": headline(result, note, lang),
        "names": names,
        "bots": list(specs[0].bots),
        "players": result.pspec.players,
        "deals": result.pspec.deals,
        "variants": [{"name": name, "ref": ref} for name, ref in zip(shown, refs, strict=True)],
        "comparisons": comparisons,
        "evenings": list(evenings or []),
        "hands": hands,
        "makeable": makeable(result, shown),
        "summaries": summaries,
    }


def makeable(result: PairedResult, names: Sequence[str] | None = None) -> list[dict] | None:
    """Per variant (``names``: as the report names them): how often each contract was made and makeable (None
    when the solver was not asked for)."""
    if result.makeable is None:
        return None
    pspec = result.pspec
    chosen = solved_deals(pspec.deals, pspec.solve)
    names = names or [spec.name for spec in pspec.specs]
    return [makeable_summary(name, tally, chosen, pspec.solve_seconds)
            for name, tally in zip(names, result.makeable, strict=True)]


def analysis_text(data: dict) -> str:
    """The analysis for a terminal: headline, verdicts, each difference with its interval, evening, hands (in the
    analysis' language)."""
    from khrap.sim.report import Words, seat_label

    lang = data.get("lang", "en")
    words_ = Words(lang, data.get("names"))
    t = words_.t
    out = list(data.get("table", [])) + [""] + [t("Verdict: {text}").format(text=v) for v in data["verdicts"]]
    out += ["", data["headline"], ""]
    for comp in data["comparisons"]:
        out += [t("What changes, “{variant}” minus “{parent}” (95% intervals, deal by deal):").format(
            variant=comp['variant'], parent=comp['parent'])]
        for r in comp["differences"]:
            unit = r["unit"]
            ends = figures(t).bracket(amount(r['ci'][0], unit, False, t), amount(r['ci'][1], unit, False, t))
            out.append(f"  {r['name']}: {amount(r['difference'], unit, t=t)} {ends} — {r['says']}")
            out.append(f"      ({r['definition']})")
        out.append("")
    for ev in data["evenings"]:
        out.append(t("An evening of {deals} deals with {stack} chips each, {variant} ({evenings} evenings simulated): "
                     "a player's result in chips").format(**ev))
        for r in ev["rows"]:
            said = t("mean {mean:+.1f}, middle half {a:+d} to {b:+d}, 9 in 10 between {c:+d} and {d:+d}; broke "
                    "{broke:.1f}% [{lo:.1f}, {hi:.1f}]").format(
                mean=r['mean'], a=r['p25'], b=r['p75'], c=r['p5'], d=r['p95'], broke=100 * r['broke'],
                lo=100 * r['broke_ci'][0], hi=100 * r['broke_ci'][1])
            out.append(f"  {seat_label(r['seat'], words_):<40} {said}")
        out.append("")
    if not any(h["rows"] for h in data["hands"]):
        out += [HANDS_MISSING if lang == "en" else t("HANDS_MISSING"), ""]
    for h in data["hands"]:
        if h["rows"]:
            out += [t("Which hands are worth a call ({variant}): made and mean result by the caller's hand").format(
                variant=h['variant']), hands_text(h["rows"], words_)]
    if data.get("makeable"):
        out += [makeable_text(data["makeable"], t, words_.name)]
    return "\n".join(out).rstrip() + "\n"


__all__ = ["analysis", "analysis_text", "bots_text", "difference_rows", "headline", "makeable"]
