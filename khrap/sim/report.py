"""The balance report: variants side by side in one self-contained HTML page, plots beside tables.

``render_report(runs, setup)`` takes ``[(name, summary), ...]`` and returns the
page; every plot is an inline SVG (no file, script or network is needed to
view it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jinja2 import Environment
from markupsafe import Markup

from khrap.sim import plots
from khrap.sim.summary import MEASURES

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
.note { color: #555; font-size: 12.5px; max-width: 60em; }
</style></head><body>
<h1>{{ title }}</h1>
<p>{{ setup }}</p>
<table><thead><tr><th>#</th><th class="text">variant</th><th class="text">source</th><th>deals</th>
<th>deals/s</th></tr></thead><tbody>
{% for v in variants %}<tr><td>{{ loop.index }}</td><td class="text">{{ v.name }}</td>
<td class="text">{{ v.ref }}</td><td>{{ v.deals }}</td><td>{{ v.speed }}</td></tr>{% endfor %}
</tbody></table>
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


def sections(runs: Runs) -> list[dict]:
    """The report's sections: id, title, note, svg, tables."""
    m = lambda key, fmt=_num: lambda s: fmt(s["measures"][key])  # noqa: E731
    r = lambda key: lambda s: _pct(s["rates"][key])  # noqa: E731
    out = [
        {"id": "measures", "title": "Game-design measures", "svg": plots.measures(runs),
         "note": "Fairness: spread across seat positions of mean chips per deal (0 is fair). Drama: share of deals "
                 "after which the chip leader changed. Decisiveness: share of played deals whose every contract "
                 "was certain before the last trick. Swing: mean |chip change| of a player in a deal.",
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
                     "rows": [[p["name"]] + [_ci(s["positions"][i]) for _, s in runs]
                              for i, p in enumerate(runs[0][1]["positions"])]}]},
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


def render_report(runs: Runs, setup: str = "", refs: Sequence[str] | None = None) -> str:
    """The HTML page comparing ``runs`` (``[(name, SimResult.summary()), ...]``)."""
    refs = list(refs or [name for name, _ in runs])
    variants = [{"name": name, "ref": ref, "deals": s["deals"], "speed": f"{s.get('deals_per_second', 0):.0f}"}
                for (name, s), ref in zip(runs, refs, strict=True)]
    title = "Balance report: " + " vs ".join(name for name, _ in runs)
    env = Environment(autoescape=True)
    return env.from_string(PAGE).render(title=title, setup=setup, variants=variants, sections=sections(runs),
                                        doc=MEASURES.strip())


__all__ = ["render_report", "sections"]
