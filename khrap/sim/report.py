"""The balance report: variants side by side in one self-contained HTML page, plots beside tables.

``render_report(runs, setup)`` takes ``[(name, summary), ...]`` and returns the
page; every plot is an inline SVG (no file, script or network is needed to
view it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jinja2 import Environment
from markupsafe import Markup

from khrap.sim import makeable as mk
from khrap.sim import plots
from khrap.sim.analysis import HANDS_MISSING
from khrap.sim.hands import MIN_COUNT, hand_tables
from khrap.sim.summary import MEASURES
from khrap.sim.verdict import amount

Runs = Sequence[tuple[str, dict]]

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
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
{% for v in verdicts %}<p class="verdict" id="verdict-{{ loop.index }}"><b>Verdict.</b> {{ v }}</p>{% endfor %}
{% for w in warnings %}<p class="warn">{{ w }}</p>{% endfor %}
<p>{{ setup }}</p>
<table><thead><tr><th>#</th><th class="text">variant</th><th class="text">source</th><th>deals</th>
<th>deals/s</th></tr></thead><tbody>
{% for v in variants %}<tr><td>{{ loop.index }}</td><td class="text">{{ v.name }}</td>
<td class="text">{{ v.ref }}</td><td>{{ v.deals }}</td><td>{{ v.speed }}</td></tr>{% endfor %}
</tbody></table>
{% for c in comparisons %}
<h2 id="changes-{{ loop.index }}">What “{{ c.variant }}” changes against “{{ c.parent }}”, deal by deal</h2>
<p class="note">Each deal number was played with the same {{ 'shuffle seed' if c.decks_differ else 'cards' }}
and the same bot dice under both rules, so each difference is measured deal by deal; its 95% interval comes from the
spread of those per-deal differences. The unpaired interval is what the same deals would give compared as if they
were independent (what pairing saves). A difference whose interval holds 0 is not measurable at this many deals;
the deals that would tell assume the difference stays at its observed size (an 80% chance to show it).</p>
{% if c.svg %}<div class="row"><figure class="plot" id="plot-changes-{{ loop.index }}">{{ c.svg }}</figure></div>
{% endif %}
<table class="changes"><thead><tr><th class="text">measure</th><th class="text">what it means</th>
<th>{{ c.parent }}</th><th>{{ c.variant }}</th><th>change [95% interval]</th><th>unpaired interval</th>
<th class="text">says</th></tr></thead><tbody>
{% for r in c.rows %}<tr><td class="text">{{ r.name }}</td><td class="def">{{ r.definition }}</td><td>{{ r.base }}</td>
<td>{{ r.value }}</td><td>{{ r.change }}</td><td>{{ r.unpaired }}</td><td class="text">{{ r.says }}</td></tr>
{% endfor %}</tbody></table>
{% endfor %}
{% if evenings %}<h2 id="evening">An evening at the table</h2>
<p class="note">Each evening is a fresh table: every player brings the stack, the pot carries over from deal to deal,
the deal passes round. A player's result is the chips he takes home minus his stack; he went broke when his stack
reached zero or less after some deal. Middle half: a quarter of players did worse, a quarter better.</p>
{% for e in evenings %}<div class="row">{% if e.svg %}<figure class="plot">{{ e.svg }}</figure>{% endif %}
<table><thead><tr><th class="text" colspan="6">{{ e.title }}</th></tr><tr><th class="text">player</th><th>mean</th>
<th>middle half</th><th>9 in 10 between</th><th>worst / best</th><th>went broke [95%]</th></tr></thead><tbody>
{% for r in e.rows %}<tr><td class="text">{{ r[0] }}</td>{% for cell in r[1:] %}<td>{{ cell }}</td>{% endfor %}</tr>
{% endfor %}</tbody></table></div>{% endfor %}{% endif %}
{% if data_given and not hands %}<h2 id="hands">Which hands are worth a call</h2><p class="note">{{ hands_missing }}
</p>{% endif %}
{% if hands %}<h2 id="hands">Which hands are worth a call</h2>
<p class="note">Every player who stood by a call (declarer or helper) and whose tricks were played, by his hand as
dealt against the deal's trump: how often the call was made, and the chips it won on average (base stakes, ante
included, 95% interval). Rows held fewer than {{ min_count }} times are left out.</p>
{% for h in hands %}<h3>{{ h.variant }}</h3><div class="row">
{% for t in h.tables %}<table><thead><tr>{% for c in t.columns %}<th>{{ c }}</th>{% endfor %}</tr></thead><tbody>
{% for row in t.rows %}<tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>{% endfor %}
</tbody></table>{% endfor %}</div>{% endfor %}{% endif %}
{% if makeable %}<h2 id="makeable">How often each contract was makeable</h2>
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
<h2>How the measures are computed</h2>
<pre class="note">{{ doc }}</pre>
</body></html>
"""


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _ci(row: dict | None) -> str:
    if not row or row.get("mean") is None:
        return "–"
    ci = row.get("ci")
    return _num(row["mean"]) + ("" if ci is None else f" [{ci[0]:.2f}, {ci[1]:.2f}]")


def _by_label(runs: Runs, key: str, name: str, cell: Callable[[dict | None], str], keep=lambda r: True) -> dict:
    labels = plots._labels(runs, key, name, keep)
    rows = [[label] + [cell(plots._row(s, key, name, label)) for _, s in runs] for label in labels]
    return {"columns": [name] + _heads(runs), "rows": rows}


def _heads(runs: Runs) -> list[str]:
    return [f"{i + 1}: {name}" for i, (name, _) in enumerate(runs)]


def _transpose(runs: Runs, fields: Sequence[tuple[str, Callable[[dict], str]]]) -> dict:
    return {"columns": ["", *_heads(runs)], "rows": [[label] + [f(s) for _, s in runs] for label, f in fields]}


def _dist_fields(get: Callable[[dict], dict], digits: int = 1) -> list[tuple[str, Callable[[dict], str]]]:
    return [(stat, lambda s, stat=stat: _num(get(s)[stat], digits)) for stat in ("mean", "p10", "median", "p90", "max")]


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


def sections(runs: Runs) -> list[dict]:
    """The report's sections: id, title, note, svg, tables."""
    m = lambda key, fmt=_num: lambda s: fmt(s["measures"][key])  # noqa: E731
    r = lambda key: lambda s: _pct(s["rates"][key])  # noqa: E731
    out = [
        {"id": "measures", "title": "Game-design measures", "svg": plots.measures(runs),
         "note": "Fairness: the gap between the best and the worst seat's mean chips per deal (0 is fair). "
                 "Drama: the share of deals after which a different player leads in chips. Decisiveness: the share "
                 "of played deals in which every player's fate was certain before the last trick. Swing: how many "
                 "base stakes an average player wins or loses in a deal, either way.",
         "tables": [_transpose(runs, [
             ("fairness", m("fairness")), ("first speaker's edge", m("first_speaker_edge")),
             ("drama", m("drama", lambda x: _num(x, 3))), ("decisiveness", m("decisiveness", _pct)),
             ("decided after trick (mean)", m("mean_decided_after")), ("swing", m("swing")),
             ("all-pass deals", r("all_pass")), ("turn-up deals", r("turn_up")), ("redeal deals", r("redeal")),
         ])]},
        {"id": "calls", "title": "Calls made", "svg": plots.calls_made(runs),
         "note": "Every call said, in every bidding round (all-pass rounds included), per deal.",
         "tables": [_by_label(runs, "calls", "call", lambda row: _num((row or {}).get("per_deal"), 3))]},
        {"id": "success", "title": "Call success rates", "svg": plots.success_rates(runs),
         "note": "The contract a seat stood by when the deal ended (an overridden declarer and a forced helper "
                 "are counted apart), and how often it took its tricks.",
         "tables": [_by_label(runs, "contracts", "contract",
                              lambda row: "–" if not row else f"{_pct(row['success'])} of {row['count']}",
                              lambda row: row["judged"] > 0)]},
        {"id": "results", "title": "Results per call", "svg": plots.results_per_call(runs),
         "note": "Chips the holder of each contract won in the deal (ante included), in base stakes, "
                 "mean and 95% confidence interval.",
         "tables": [_by_label(runs, "contracts", "contract", _ci)]},
        {"id": "seats", "title": "Seat fairness", "svg": plots.seat_fairness(runs),
         "note": "Mean chips per deal by position at the table: the first speaker sits at the dealer's left.",
         "tables": [{"columns": ["position", *_heads(runs)],
                     "rows": [[name] + [_ci(plots._row(s, "positions", "name", name)) for _, s in runs]
                              for name in _position_names(runs)]}]},
        {"id": "pot", "title": "Pot distribution", "svg": plots.pot_distribution(runs),
         "note": "P, the pot when settlement begins, in base stakes (deals that reached settlement), "
                 "and the pot left after the deal.",
         "tables": [_transpose(runs, [(f"P: {k}", f) for k, f in _dist_fields(lambda s: s["pot"]["settlement"])]
                               + [(f"after: {k}", f) for k, f in _dist_fields(lambda s: s["pot"]["after"])])]},
        {"id": "swing", "title": "Swing per deal", "svg": plots.swing(runs),
         "note": "For each deal, the mean absolute chip change of a player, in base stakes.",
         "tables": [_transpose(runs, _dist_fields(lambda s: s["swing"], 2))]},
        {"id": "length", "title": "Deal length and endings", "svg": None, "note": "Decisions per deal.",
         "tables": [_transpose(runs, _dist_fields(lambda s: s["length"]["actions"])
                               + [("bidding rounds (mean)", lambda s: _num(s["length"]["rounds"]["mean"]))]
                               + [(f"ended by {e}", lambda s, e=e: _pct(s["rates"]["endings"].get(e)))
                                  for e in sorted({e for _, s in runs for e in s["rates"]["endings"]})])]},
    ]
    for section in out:
        if section["svg"] is not None:
            section["svg"] = Markup(section["svg"])
    return out


def _cmp_rows(comp: dict) -> list[dict]:
    out = []
    for r in comp["differences"]:
        unit = r["unit"]
        level = (lambda x: f"{100 * x:.1f}%") if unit == "share" else (lambda x: f"{x:.2f}")
        out.append({"name": r["name"], "definition": r["definition"], "base": level(r["base"]),
                    "value": level(r["value"]),
                    "change": f"{amount(r['difference'], unit)} [{amount(r['ci'][0], unit, False)}, "
                              f"{amount(r['ci'][1], unit, False)}]",
                    "unpaired": f"[{amount(r['unpaired_ci'][0], unit, False)}, "
                                f"{amount(r['unpaired_ci'][1], unit, False)}]",
                    "says": r["says"]})
    return out


def _evening_rows(ev: dict) -> list[list[str]]:
    return [[r["seat"], f"{r['mean']:+.1f}", f"{r['p25']:+d} to {r['p75']:+d}", f"{r['p5']:+d} to {r['p95']:+d}",
             f"{r['min']:+d} / {r['max']:+d}",
             f"{100 * r['broke']:.1f}% [{100 * r['broke_ci'][0]:.1f}, {100 * r['broke_ci'][1]:.1f}]"]
            for r in ev["rows"]]


def render_report(runs: Runs, setup: str = "", refs: Sequence[str] | None = None, data: dict | None = None) -> str:
    """The HTML page comparing ``runs`` (``[(name, SimResult.summary()), ...]``); ``data``: an ``analysis``
    (verdicts, paired differences, evenings, hands) drawn first."""
    refs = list(refs or [name for name, _ in runs])
    variants = [{"name": name, "ref": ref, "deals": s["deals"], "speed": f"{s.get('deals_per_second', 0):.0f}"}
                for (name, s), ref in zip(runs, refs, strict=True)]
    title = "Balance report: " + " vs ".join(name for name, _ in runs)
    data = data or {}
    comparisons = [{**c, "rows": _cmp_rows(c), "svg": Markup(plots.differences(c))}
                   for c in data.get("comparisons", [])]
    evenings = [{"title": f"{e['variant']}: an evening of {e['deals']} deals with {e['stack']} chips each "
                          f"({e['evenings']} evenings), results in chips",
                 "rows": _evening_rows(e), "svg": Markup(plots.evening(e))} for e in data.get("evenings", [])]
    hands = [{"variant": h["variant"], "tables": hand_tables(h["rows"])} for h in data.get("hands", []) if h["rows"]]
    made = [{"variant": m["variant"], "headline": mk.headline(m), "rows": mk.table_rows(m)}
            for m in data.get("makeable") or []]
    warnings = [w for w in [player_counts_warning(runs)] if w]
    env = Environment(autoescape=True)
    return env.from_string(PAGE).render(title=title, setup=data.get("headline", setup), variants=variants,
                                        sections=sections(runs), doc=MEASURES.strip(),
                                        verdicts=data.get("verdicts", []), warnings=warnings,
                                        table=data.get("table", []), lang=data.get("lang", "en"),
                                        comparisons=comparisons, evenings=evenings, hands=hands,
                                        min_count=MIN_COUNT, data_given=bool(data), hands_missing=HANDS_MISSING,
                                        makeable=made, makeable_note=mk.NOTE, makeable_columns=mk.COLUMNS)


__all__ = ["player_counts_warning", "render_report", "sections"]
