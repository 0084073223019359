"""The balance report: variants side by side in one self-contained HTML page, plots beside tables.

``render_report(runs, setup)`` takes ``[(name, summary), ...]`` and returns the
page; every plot is an inline SVG (no file, script or network is needed to
view it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from jinja2 import Environment
from markupsafe import Markup

from khrap.bots import strength_of
from khrap.sim import makeable as mk
from khrap.sim import plots
from khrap.sim.analysis import HANDS_MISSING
from khrap.sim.figures import Figures
from khrap.sim.hands import MIN_COUNT, hand_tables
from khrap.sim.report_words import figures, note, position_label, tr
from khrap.sim.summary import MEASURES
from khrap.sim.verdict import amount

Runs = Sequence[tuple[str, dict]]

PAGE = """<!DOCTYPE html>
<html lang="{{ lang }}"><head><meta charset="utf-8">
<title>{{ title }}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 1250px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #ccc; }
.row { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
figure { margin: 0; flex: 0 1 640px; } figure svg { width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 13px; } th, td { padding: 2px 8px; text-align: right; }
th { border-bottom: 1px solid #999; } th.text { text-align: left; } td:first-child, th:first-child { text-align: left; }
tbody tr:nth-child(odd) { background: #f4f4f4; } td.text { text-align: left; }
.note { color: #333; max-width: 60em; }
.verdict { font-size: 1.1em; background: #f3f7ee; border-left: 4px solid #6a9a3a; padding: .6em 1em; max-width: 60em; }
.warn { background: #fff3e0; border-left: 4px solid #e69500; padding: .6em 1em; max-width: 60em; }
td.def { text-align: left; max-width: 30em; color: #333; }
</style></head><body>
<h1>{{ title }}</h1>
{% if table %}<ul class="verdict" id="table-verdict" lang="{{ lang }}">
{%- for line in table %}<li>{{ line }}</li>{% endfor %}
</ul>{% endif %}
{% for v in verdicts %}<p class="verdict" id="verdict-{{ loop.index }}"><b>{{ t("Verdict.") }}</b> {{ v }}</p>
{% endfor %}
{% for w in warnings %}<p class="warn">{{ w }}</p>{% endfor %}
<p>{{ setup }}</p>
<table><thead><tr><th>#</th><th class="text">{{ t("variant") }}</th><th class="text">{{ t("source") }}</th>
<th>{{ t("deals") }}</th><th>{{ t("deals/s") }}</th></tr></thead><tbody>
{% for v in variants %}<tr><td>{{ loop.index }}</td><td class="text">{{ v.name }}</td>
<td class="text">{{ v.ref }}</td><td>{{ v.deals }}</td><td>{{ v.speed }}</td></tr>{% endfor %}
</tbody></table>
{% for c in comparisons %}
<h2 id="changes-{{ loop.index }}">{{ t("What “{variant}” changes against “{parent}”, deal by deal").format(
variant=c.variant, parent=c.parent) }}</h2>
<p class="note">{{ paired_note.format(what=t('shuffle seed' if c.decks_differ else 'cards')) }}</p>
{% if c.svg %}<div class="row"><figure class="plot" id="plot-changes-{{ loop.index }}">{{ c.svg }}</figure></div>
{% endif %}
<table class="changes"><thead><tr><th class="text">{{ t("measure") }}</th><th class="text">{{ t("what it means") }}</th>
<th>{{ c.parent }}</th><th>{{ c.variant }}</th><th>{{ t("change [95% interval]") }}</th>
<th>{{ t("unpaired interval") }}</th>
<th class="text">{{ t("says") }}</th></tr></thead><tbody>
{% for r in c.rows %}<tr><td class="text">{{ r.name }}</td><td class="def">{{ r.definition }}</td><td>{{ r.base }}</td>
<td>{{ r.value }}</td><td>{{ r.change }}</td><td>{{ r.unpaired }}</td><td class="text">{{ r.says }}</td></tr>
{% endfor %}</tbody></table>
{% endfor %}
{% if evenings %}<h2 id="evening">{{ t("An evening at the table") }}</h2>
<p class="note">{{ evening_note }}</p>
{% for e in evenings %}<div class="row">{% if e.svg %}<figure class="plot">{{ e.svg }}</figure>{% endif %}
<table><thead><tr><th class="text" colspan="6">{{ e.title }}</th></tr><tr><th class="text">{{ t("player") }}</th>
<th>{{ t("mean") }}</th><th>{{ t("middle half") }}</th><th>{{ t("9 in 10 between") }}</th>
<th>{{ t("worst / best") }}</th>
<th>{{ t("went broke [95%]") }}</th></tr></thead><tbody>
{% for r in e.rows %}<tr><td class="text">{{ r[0] }}</td>{% for cell in r[1:] %}<td>{{ cell }}</td>{% endfor %}</tr>
{% endfor %}</tbody></table></div>{% endfor %}{% endif %}
{% if data_given and not hands %}<h2 id="hands">{{ t("Which hands are worth a call") }}</h2>
<p class="note">{{ hands_missing }}</p>{% endif %}
{% if hands %}<h2 id="hands">{{ t("Which hands are worth a call") }}</h2>
<p class="note">{{ hands_note.format(min_count=min_count) }}</p>
{% for h in hands %}<h3>{{ h.variant }}</h3><div class="row">
{% for t in h.tables %}<table><thead><tr>{% for c in t.columns %}<th>{{ c }}</th>{% endfor %}</tr></thead><tbody>
{% for row in t.rows %}<tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>{% endfor %}
</tbody></table>{% endfor %}</div>{% endfor %}{% endif %}
{% if makeable %}<h2 id="makeable">{{ t("How often each contract was makeable") }}</h2>
<p class="note">{{ makeable_note }}</p>
{% for m in makeable %}<h3>{{ m.variant }}</h3><p class="note">{{ m.headline }}</p>
<table class="makeable"><thead><tr>{% for c in makeable_columns %}<th>{{ c }}</th>{% endfor %}</tr></thead><tbody>
{% for row in m.rows %}<tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>{% endfor %}
</tbody></table>{% endfor %}{% endif %}
{% for s in sections %}
<h2 id="{{ s.id }}">{{ s.title }}</h2>
{% if s.note %}<p class="note">{{ s.note }}</p>{% endif %}
<div class="row">
{% if s.svg %}<figure class="plot" id="plot-{{ s.id }}">{{ s.svg }}</figure>{% endif %}
{% for t in s.tables %}<table><thead><tr>{% for c in t.columns %}<th>{{ c }}</th>{% endfor %}</tr></thead><tbody>
{% for row in t.rows %}<tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>{% endfor %}
</tbody></table>{% endfor %}
</div>
{% endfor %}
<h2>{{ t("How the measures are computed") }}</h2>
<pre class="note">{{ doc }}</pre>
</body></html>
"""


ENGLISH = Figures()


def _pct(x: float | None, fig: Figures = ENGLISH) -> str:
    return "–" if x is None else fig(100 * x, ".1f") + "%"


def _num(x: float | None, digits: int = 2, fig: Figures = ENGLISH) -> str:
    return "–" if x is None else fig(x, f".{digits}f")


def _ci(row: dict | None, fig: Figures = ENGLISH) -> str:
    if not row or row.get("mean") is None:
        return "–"
    ci = row.get("ci")
    return _num(row["mean"], fig=fig) + ("" if ci is None else " " + fig.interval(ci[0], ci[1], ".2f"))


def _by_label(runs: Runs, key: str, name: str, cell: Callable[[dict | None], str], keep=lambda r: True,
              words: Words | None = None) -> dict:
    words = words or Words()
    labels = plots._labels(runs, key, name, keep)
    rows = [[words.name(label)] + [cell(plots._row(s, key, name, label)) for _, s in runs] for label in labels]
    return {"columns": [words.t(name)] + _heads(runs), "rows": rows}


class Words:
    """The report's language (``t``: a text in it) and the display names of labels (calls, contracts,
    positions), so that no id shows."""

    def __init__(self, lang: str = "en", names: dict | None = None) -> None:
        self.lang = lang
        self.t = tr(lang)
        self.fig = self.t.figure  # every figure of the report, as the language writes it
        self.names = dict(names or {})

    def name(self, label: str) -> str:
        return self.names.get(label) or position_label(label, self.t)

    def note(self, key: str) -> str:
        return note(self.lang, key)


def _heads(runs: Runs) -> list[str]:
    return [f"{i + 1}: {name}" for i, (name, _) in enumerate(runs)]


def _transpose(runs: Runs, fields: Sequence[tuple[str, Callable[[dict], str]]]) -> dict:
    return {"columns": ["", *_heads(runs)], "rows": [[label] + [f(s) for _, s in runs] for label, f in fields]}


def _dist_fields(get: Callable[[dict], dict], digits: int = 1,
                 t: Callable[[str], str] = lambda x: x) -> list[tuple[str, Callable[[dict], str]]]:
    fig = figures(t)
    return [(t(stat), lambda s, stat=stat: _num(get(s)[stat], digits, fig))
            for stat in ("mean", "p10", "median", "p90", "max")]


def _position_names(runs: Runs) -> list[str]:
    """Every position name of the runs, the first speaker first and the dealer last (rows are matched by name)."""
    names: list[str] = []
    for _, s in sorted(runs, key=lambda r: -r[1]["players"]):
        names += [p["name"] for p in s["positions"] if p["name"] not in names]
    return [n for n in names if n != "dealer"] + ["dealer"]


def player_counts_warning(runs: Runs) -> str | None:
    """A warning when the runs were simulated with different numbers of players (their numbers do not compare)."""
    counts = {s["players"] for _, s in runs}
    if len(counts) < 2:
        return None
    each = ", ".join(f"{name}: {s['players']} players" for name, s in runs)
    return (f"These variants were simulated with different numbers of players ({each}): their figures do not "
            "compare, and each seat row is labelled by its position at its own table.")


def sections(runs: Runs, words: Words | None = None) -> list[dict]:
    """The report's sections: id, title, note, svg, tables (in ``words``' language, labels by display name)."""
    words = words or Words()
    t, say, names = words.t, {"say": words.t, "names": _plot_names(runs, words)}, words.name
    fig = words.fig
    num = lambda x, digits=2: _num(x, digits, fig)  # noqa: E731
    pct = lambda x: _pct(x, fig)  # noqa: E731
    ci = lambda row: _ci(row, fig)  # noqa: E731
    m = lambda key, fmt=num: lambda s: fmt(s["measures"][key])  # noqa: E731
    r = lambda key: lambda s: pct(s["rates"][key])  # noqa: E731
    out = [
        {"id": "measures", "title": t("Game-design measures"), "svg": plots.measures(runs, **say),
         "note": words.note("MEASURES_NOTE"),
         "tables": [_transpose(runs, [
             (t("fairness"), m("fairness")), (t("first speaker's edge"), m("first_speaker_edge")),
             (t("drama"), m("drama", lambda x: num(x, 3))), (t("decisiveness"), m("decisiveness", pct)),
             (t("decided after trick (mean)"), m("mean_decided_after")), (t("swing"), m("swing")),
             (t("all-pass deals"), r("all_pass")), (t("turn-up deals"), r("turn_up")),
             (t("redeal deals"), r("redeal")),
         ])]},
        {"id": "calls", "title": t("Calls made"), "svg": plots.calls_made(runs, **say),
         "note": t("Every call said, in every bidding round (all-pass rounds included), per deal."),
         "tables": [_by_label(runs, "calls", "call", lambda row: num((row or {}).get("per_deal"), 3),
                              words=words)]},
        {"id": "success", "title": t("Call success rates"), "svg": plots.success_rates(runs, **say),
         "note": words.note("SUCCESS_NOTE"),
         "tables": [_by_label(runs, "contracts", "contract",
                              lambda row: "–" if not row else t("{pct} of {count}").format(
                                  pct=pct(row['success']), count=row['count']),
                              lambda row: row["judged"] > 0, words)]},
        {"id": "results", "title": t("Results per call"), "svg": plots.results_per_call(runs, **say),
         "note": words.note("RESULTS_NOTE"),
         "tables": [_by_label(runs, "contracts", "contract", ci, words=words)]},
        {"id": "seats", "title": t("Seat fairness"), "svg": plots.seat_fairness(runs, **say),
         "note": t("Mean chips per deal by position at the table: the first speaker sits at the dealer's left."),
         "tables": [{"columns": [t("position"), *_heads(runs)],
                     "rows": [[names(name)] + [ci(plots._row(s, "positions", "name", name)) for _, s in runs]
                              for name in _position_names(runs)]}]},
        {"id": "pot", "title": t("Pot distribution"), "svg": plots.pot_distribution(runs, **say),
         "note": words.note("POT_NOTE"),
         "tables": [_transpose(runs, [(t("P: {k}").format(k=k), f)
                                      for k, f in _dist_fields(lambda s: s["pot"]["settlement"], t=t)]
                               + [(t("after: {k}").format(k=k), f)
                                  for k, f in _dist_fields(lambda s: s["pot"]["after"], t=t)])]},
        {"id": "swing", "title": t("Swing per deal"), "svg": plots.swing(runs, **say),
         "note": t("For each deal, the mean absolute chip change of a player, in base stakes."),
         "tables": [_transpose(runs, _dist_fields(lambda s: s["swing"], 2, t))]},
        {"id": "length", "title": t("Deal length and endings"), "svg": None, "note": t("Decisions per deal."),
         "tables": [_transpose(runs, _dist_fields(lambda s: s["length"]["actions"], t=t)
                               + [(t("bidding rounds (mean)"), lambda s: num(s["length"]["rounds"]["mean"]))]
                               + [(t("ended by {e}").format(e=names(e) if e in words.names else t(e)),
                                   lambda s, e=e: pct(s["rates"]["endings"].get(e)))
                                  for e in sorted({e for _, s in runs for e in s["rates"]["endings"]})])]},
    ]
    for section in out:
        if section["svg"] is not None:
            section["svg"] = Markup(section["svg"])
    return out


def _plot_names(runs: Runs, words: Words) -> dict:
    """Every label a plot shows (calls, contracts, positions) by its display name."""
    labels = {row[key] for _, s in runs for part, key in (("calls", "call"), ("contracts", "contract"),
                                                         ("positions", "name")) for row in s[part]}
    return {label: words.name(label) for label in labels}


def _cmp_rows(comp: dict, t: Callable[[str], str] = lambda text: text) -> list[dict]:
    out, fig = [], figures(t)
    for r in comp["differences"]:
        unit = r["unit"]
        level = (lambda x: fig(100 * x, ".1f") + "%") if unit == "share" else (lambda x: fig(x, ".2f"))
        ends = [amount(x, unit, False, t) for x in (*r["ci"], *r["unpaired_ci"])]
        out.append({"name": r["name"], "definition": r["definition"], "base": level(r["base"]),
                    "value": level(r["value"]),
                    "change": f"{amount(r['difference'], unit, t=t)} {fig.bracket(ends[0], ends[1])}",
                    "unpaired": fig.bracket(ends[2], ends[3]),
                    "says": r["says"]})
    return out


def _evening_rows(ev: dict, words: Words | None = None) -> list[list[str]]:
    words = words or Words()
    span, fig = words.t("{a:+d} to {b:+d}"), words.fig
    return [[seat_label(r["seat"], words), fig(r["mean"], "+.1f"), span.format(a=r['p25'], b=r['p75']),
             span.format(a=r['p5'], b=r['p95']), f"{fig(r['min'], '+d')} / {fig(r['max'], '+d')}",
             fig(100 * r["broke"], ".1f") + "% " + fig.interval(100 * r["broke_ci"][0], 100 * r["broke_ci"][1], ".1f")]
            for r in ev["rows"]]


def seat_label(seat: str, words: Words) -> str:
    """An evening row's seat kind (``seat 2 (first speaker of the first deal)``, ``any player``, a bot kind)
    in the report's language."""
    found = re.fullmatch(r"seat (\d+) \((.+) of the first deal\)", seat)
    if found:
        return words.t("seat {seat} ({position} of the first deal)").format(
            seat=found[1], position=position_label(found[2], words.t))
    if words.lang != "en" and strength_of(seat):  # a bot kind (mixed bots): by its strength's word
        return words.t(strength_of(seat) or seat)
    return words.t(seat)


def render_report(runs: Runs, setup: str = "", refs: Sequence[str] | None = None, data: dict | None = None) -> str:
    """The HTML page comparing ``runs`` (``[(name, SimResult.summary()), ...]``); ``data``: an ``analysis``
    (verdicts, paired differences, evenings, hands) drawn first."""
    refs = list(refs or [name for name, _ in runs])
    data = data or {}
    words = Words(data.get("lang", "en"), data.get("names"))
    variants = [{"name": name, "ref": ref, "deals": s["deals"], "speed": words.fig(s.get("deals_per_second", 0), ".0f")}
                for (name, s), ref in zip(runs, refs, strict=True)]
    t = words.t
    title = t("Balance report: {names}").format(names=t(" vs ").join(name for name, _ in runs))
    comparisons = [{**c, "rows": _cmp_rows(c, t), "svg": Markup(plots.differences(c, say=t))}
                   for c in data.get("comparisons", [])]
    evenings = [{"title": t("{variant}: an evening of {deals} deals with {stack} chips each ({evenings} evenings), "
                            "results in chips").format(**e),
                 "rows": _evening_rows(e, words), "svg": Markup(plots.evening(e, say=t))}
                for e in data.get("evenings", [])]
    hands = [{"variant": h["variant"], "tables": hand_tables(h["rows"], words)} for h in data.get("hands", [])
             if h["rows"]]
    made = [{"variant": m["variant"], "headline": mk.headline(m, t), "rows": mk.table_rows(m, t, words.name)}
            for m in data.get("makeable") or []]
    warnings = [w for w in [player_counts_warning(runs)] if w]
    env = Environment(autoescape=True)
    return env.from_string(PAGE).render(title=title, setup=data.get("headline", setup), variants=variants,
                                        sections=sections(runs, words), t=t,
                                        doc=(MEASURES if words.lang == "en" else t("MEASURES_DOC")).strip(),
                                        paired_note=words.note("PAIRED_NOTE"), evening_note=words.note("EVENING_NOTE"),
                                        hands_note=words.note("HANDS_NOTE"),
                                        verdicts=data.get("verdicts", []), warnings=warnings,
                                        table=data.get("table", []), lang=data.get("lang", "en"),
                                        comparisons=comparisons, evenings=evenings, hands=hands,
                                        min_count=MIN_COUNT, data_given=bool(data),
                                        hands_missing=t("HANDS_MISSING") if words.lang != "en" else HANDS_MISSING,
                                        makeable=made,
                                        makeable_note=mk.NOTE if words.lang == "en" else t("MAKEABLE_NOTE"),
                                        makeable_columns=[t(c) for c in mk.COLUMNS])


__all__ = ["player_counts_warning", "render_report", "sections"]
