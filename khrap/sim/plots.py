"""The report's plots: matplotlib figures (no pyplot, no global backend) rendered to inline SVG.

Each function takes ``[(name, summary), ...]`` (``SimResult.summary()``, one
per variant) and returns an ``<svg>`` string.  matplotlib is the optional
`report` extra.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable, Sequence

from khrap.safe_text import PLOT_RC
from khrap.sim.report_words import figures

MISSING = "the report needs matplotlib, the `report` extra: pip install 'khrap[report]'"

Runs = Sequence[tuple[str, dict]]
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.DOTALL)
RC = {"svg.fonttype": "none", "svg.hashsalt": "khrap-report", "font.size": 9, "axes.spines.top": False,
      "axes.spines.right": False, **PLOT_RC}  # PLOT_RC: names from files are set as written, never as mathtext


def _figure(width: float = 6.4, height: float = 3.4):
    try:
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - depends on the environment
        raise RuntimeError(MISSING) from None
    # no layout engine (``_fit`` places the axes): a figure with one is drawn twice by ``savefig``, once to lay
    # it out and once for the file; 72 dpi, the SVG's own, so that a measure in display units is in points
    return Figure(figsize=(width, height), dpi=72)


def _svg(fig) -> str:
    _tick_marks(fig)
    _fit(fig)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return _METADATA.sub("", text[text.index("<svg"):])


PAD = 4.0  # points: between the figure's edge and what it shows, and between two axes' labels


def _fit(fig) -> None:
    """Place the axes of ``fig`` (one grid, a figure legend at the bottom) so that their tick labels, axis
    labels and titles fit inside the figure: each axes' labels are measured once, as drawn (its tight box,
    the figure's SVG renderer), and each grid column gets the room its widest labels need, each row its
    tallest.  One measuring pass where the constrained layout drew the whole figure twice before saving it
    (an analysis's ten plots: about half of the report's time)."""
    axes = fig.get_axes()
    if not axes:
        return
    from matplotlib.backends.backend_svg import RendererSVG

    width, height = fig.get_figwidth() * 72, fig.get_figheight() * 72
    renderer = RendererSVG(width, height, io.StringIO())
    grid = axes[0].get_subplotspec().get_gridspec()
    rows, cols = grid.get_geometry()
    left, right, below, above = [0.0] * cols, [0.0] * cols, [0.0] * rows, [0.0] * rows
    for ax in axes:
        spec, box = ax.get_subplotspec(), ax.get_tightbbox(renderer, for_layout_only=True)
        inner = ax.get_position().transformed(fig.transFigure)
        r, c = spec.rowspan.start, spec.colspan.start
        left[c], right[c] = max(left[c], inner.x0 - box.x0), max(right[c], box.x1 - inner.x1)
        below[r], above[r] = max(below[r], inner.y0 - box.y0), max(above[r], box.y1 - inner.y1)
    bottom = PAD + sum(legend.get_window_extent(renderer).height + PAD for legend in fig.legends)
    widths = _shares(grid.get_width_ratios(), cols, width - sum(left) - sum(right) - PAD * (cols + 1))
    heights = _shares(grid.get_height_ratios(), rows, height - bottom - sum(below) - sum(above) - PAD * rows)
    xs, x = [], PAD
    for c in range(cols):
        xs.append(x + left[c])
        x += left[c] + widths[c] + right[c] + PAD
    ys, y = [], height - PAD
    for r in range(rows):
        ys.append(y - above[r] - heights[r])
        y -= above[r] + heights[r] + below[r] + PAD
    for ax in axes:
        spec = ax.get_subplotspec()
        r, c = spec.rowspan.start, spec.colspan.start
        ax.set_position([xs[c] / width, ys[r] / height, widths[c] / width, heights[r] / height])


def _shares(ratios, count: int, total: float) -> list[float]:
    """``total`` (never below a point each) split in ``count`` parts in the proportions of ``ratios`` (None:
    equal parts)."""
    ratios = list(ratios) if ratios is not None else [1.0] * count
    whole = sum(ratios)
    return [max(1.0, total * k / whole) for k in ratios]


def _tick_marks(fig) -> None:
    """The tick labels in the marks of the report's language ("0,5", not "0.5"): matplotlib picks and formats
    the ticks, then the report's one figure formatter (:mod:`khrap.sim.figures`) writes their marks."""
    marks = figures(_WORDS["say"])
    if marks.lang == "en":
        return
    from matplotlib.ticker import Formatter

    class Marks(Formatter):
        def __init__(self, inner: Formatter) -> None:
            self.inner = inner

        def set_axis(self, axis) -> None:
            super().set_axis(axis)
            self.inner.set_axis(axis)

        def set_locs(self, locs) -> None:
            self.inner.set_locs(locs)

        def format_ticks(self, values) -> list[str]:
            return [marks.written(text) for text in self.inner.format_ticks(values)]

        def __call__(self, x, pos=None) -> str:
            return marks.written(self.inner(x, pos))

        def get_offset(self) -> str:
            return marks.written(self.inner.get_offset())

    for ax in fig.get_axes():
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(Marks(axis.get_major_formatter()))


# The words of the plot being drawn: ``say`` translates a caption (the report's language), ``names`` gives the
# display name of a call, contract or position label (never an id on a plot); set by ``_styled`` for one plot.
_WORDS: dict = {"say": lambda text: text, "names": {}}


def _say(text: str) -> str:
    return _WORDS["say"](text)


def _name(label: str) -> str:
    return _WORDS["names"].get(label, label)


def _styled(plot: Callable[[Runs], str]) -> Callable[..., str]:
    """Draw and save under the report's style (matplotlib's rc settings, restored afterwards), its captions
    in the report's language (``say``) and its labels by their display names (``names``)."""

    @functools.wraps(plot)
    def wrapper(runs: Runs, say: Callable[[str], str] | None = None, names: dict | None = None) -> str:
        try:
            import matplotlib
        except ImportError:  # pragma: no cover - depends on the environment
            raise RuntimeError(MISSING) from None
        before = dict(_WORDS)
        _WORDS["say"] = say or (lambda text: text)
        _WORDS["names"] = names or {}
        try:
            with matplotlib.rc_context(RC):
                return plot(runs)
        finally:
            _WORDS.update(before)

    return wrapper


def _grouped(ax, labels: list[str], runs: Runs, values, errors=None, horizontal: bool = True) -> None:
    """One bar per run for each label; ``values(summary, label)`` and ``errors`` -> (lo, hi) or None."""
    import numpy as np

    k = max(len(runs), 1)
    height = 0.8 / k
    pos = np.arange(len(labels))
    for i, (name, s) in enumerate(runs):
        vals = [values(s, lab) for lab in labels]
        ys = pos - 0.4 + height * (i + 0.5)
        xs = [np.nan if v is None else v for v in vals]
        err = None
        if errors is not None:
            spans = [errors(s, lab) for lab in labels]
            err = np.array([[0 if sp is None or v is None else v - sp[0] for sp, v in zip(spans, vals, strict=True)],
                            [0 if sp is None or v is None else sp[1] - v for sp, v in zip(spans, vals, strict=True)]])
        bar = ax.barh if horizontal else ax.bar
        kw = {"xerr": err} if horizontal else {"yerr": err}
        bar(ys, xs, height, label=name, color=COLORS[i % len(COLORS)], capsize=2, **kw)
    shown = [_name(lab) for lab in labels]
    if horizontal:
        ax.set_yticks(pos, shown)
        ax.invert_yaxis()
    else:
        ax.set_xticks(pos, shown)


def _legend(fig, ax) -> None:
    """The variants' legend below the plot, outside the data."""
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncols=min(3, len(labels)), fontsize=8, frameon=False,
               borderaxespad=PAD / 8)  # (in font sizes: PAD from the figure's bottom edge)


def _bins(values):
    """Bin edges: one bin per step when the values lie on a coarse grid (chips), else 40 even bins."""
    import numpy as np

    distinct = np.unique(values)
    if distinct.size < 2:
        v = float(distinct[0]) if distinct.size else 0.0
        return np.array([v - 0.5, v + 0.5])
    step = float(np.min(np.diff(distinct)))
    lo, hi = float(distinct[0]), float(distinct[-1])
    if (hi - lo) / step <= 60:
        return np.arange(lo - step / 2, hi + step, step)
    return np.histogram_bin_edges(values, bins=40)


def _labels(runs: Runs, key: str, name: str, keep=lambda row: True) -> list[str]:
    seen: dict[str, int] = {}
    for _, s in runs:
        for row in s[key]:
            if keep(row):
                seen[row[name]] = max(seen.get(row[name], 0), row.get("count", row.get("made", 0)))
    return sorted(seen, key=lambda k: (-seen[k], k))


def _row(s: dict, key: str, name: str, label: str) -> dict | None:
    return next((r for r in s[key] if r[name] == label), None)


@_styled
def calls_made(runs: Runs) -> str:
    labels = _labels(runs, "calls", "call")
    fig = _figure(6.4, 0.5 + 0.32 * len(labels) * max(1, len(runs)) ** 0.5)
    ax = fig.add_subplot()
    _grouped(ax, labels, runs, lambda s, lab: (_row(s, "calls", "call", lab) or {}).get("per_deal", 0))
    ax.set_xlabel(_say("times said per deal (all bidding rounds)"))
    _legend(fig, ax)
    return _svg(fig)


@_styled
def success_rates(runs: Runs) -> str:
    labels = _labels(runs, "contracts", "contract", lambda r: r["judged"] > 0)
    fig = _figure(6.4, 0.6 + 0.32 * len(labels) * max(1, len(runs)) ** 0.5)
    ax = fig.add_subplot()
    _grouped(ax, labels, runs, lambda s, lab: 100 * ((_row(s, "contracts", "contract", lab) or {}).get("success") or 0))
    ax.set_xlabel(_say("contracts fulfilled, %"))
    ax.set_xlim(0, 100)
    _legend(fig, ax)
    return _svg(fig)


@_styled
def results_per_call(runs: Runs) -> str:
    labels = _labels(runs, "contracts", "contract")
    fig = _figure(6.4, 0.6 + 0.32 * len(labels) * max(1, len(runs)) ** 0.5)
    ax = fig.add_subplot()
    _grouped(ax, labels, runs, lambda s, lab: (_row(s, "contracts", "contract", lab) or {}).get("mean"),
             lambda s, lab: (_row(s, "contracts", "contract", lab) or {}).get("ci"))
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlabel(_say("mean chips won in the deal by the holder, base stakes (95% CI)"))
    _legend(fig, ax)
    return _svg(fig)


@_styled
def seat_fairness(runs: Runs) -> str:
    fig = _figure()
    ax = fig.add_subplot()
    labels = [p["name"] for p in runs[0][1]["positions"]]
    _grouped(ax, labels, runs, lambda s, lab: _row(s, "positions", "name", lab)["mean"],
             lambda s, lab: _row(s, "positions", "name", lab)["ci"], horizontal=False)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_ylabel(_say("mean chips per deal, base stakes (95% CI)"))
    _legend(fig, ax)
    return _svg(fig)


def _histogram(ax, runs: Runs, pick, xlabel: str) -> None:
    import numpy as np

    data = []
    for _, s in runs:
        hist = pick(s)
        scale = hist["scale"]
        data.append((np.array([float(k) / scale for k in hist["histogram"]]),
                     np.array(list(hist["histogram"].values()), dtype=float)))
    bins = _bins(np.concatenate([v for v, _ in data]))
    for i, ((name, _), (v, c)) in enumerate(zip(runs, data, strict=True)):
        share, _ = np.histogram(v, bins=bins, weights=c / max(c.sum(), 1))
        ax.stairs(100 * share, bins, label=name, color=COLORS[i % len(COLORS)], linewidth=1.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_say("% of deals"))
    ax.legend(fontsize=8, frameon=False)


@_styled
def pot_distribution(runs: Runs) -> str:
    fig = _figure()
    ax = fig.add_subplot()

    def pick(s: dict) -> dict:
        return {"histogram": s["pot"]["settlement"]["histogram"], "scale": s["base_stake"]}

    _histogram(ax, runs, pick, _say("pot at settlement (P), base stakes"))
    return _svg(fig)


@_styled
def swing(runs: Runs) -> str:
    fig = _figure()
    ax = fig.add_subplot()

    def pick(s: dict) -> dict:
        return {"histogram": s["swing"]["histogram"], "scale": s["base_stake"] * s["players"]}

    _histogram(ax, runs, pick, _say("swing of a deal: mean |chip change| of a player, base stakes"))
    return _svg(fig)


MEASURES = (
    ("fairness", "fairness\n(spread; 0 is fair)"),
    ("drama", "drama\n(leader changes a deal)"),
    ("decisiveness", "decisiveness\n(decided early)"),
    ("swing", "swing\n(base stakes)"),
)


@_styled
def measures(runs: Runs) -> str:
    fig = _figure(6.4, 2.8)
    axes = fig.subplots(1, len(MEASURES))
    for ax, (key, title) in zip(axes, MEASURES, strict=True):
        for i, (name, s) in enumerate(runs):
            ax.bar(i, s["measures"][key] or 0, color=COLORS[i % len(COLORS)], label=name)
        ax.set_title(_say(title), fontsize=8)
        ax.set_xticks([])
    _legend(fig, axes[0])
    return _svg(fig)


@_styled
def differences(comp: dict) -> str:
    """The paired differences with their 95% intervals: chips measures, then shares (percentage points)."""
    groups = [("stakes", "change, base stakes a deal (95% interval)", 1.0),
              ("share", "change, percentage points (95% interval)", 100.0)]
    groups = [(u, label, k, [r for r in comp["differences"] if r["unit"] == u]) for u, label, k in groups]
    groups = [g for g in groups if g[3]]
    if not groups:
        return ""
    fig = _figure(6.4, 0.8 + 0.28 * sum(len(g[3]) for g in groups))
    axes = fig.subplots(len(groups), 1, squeeze=False,
                        gridspec_kw={"height_ratios": [len(g[3]) for g in groups]})[:, 0]
    for ax, (_, label, k, rows) in zip(axes, groups, strict=True):
        ys = list(range(len(rows)))[::-1]
        # one errorbar for the real changes and one for the others (each row on its own line: nothing overlaps), not
        # one a row: the same picture, drawn with a tenth of the artists (a plot of twenty rows took the time of
        # three others)
        for significant, color in ((False, "#999999"), (True, COLORS[1])):
            shown = [(y, r) for y, r in zip(ys, rows, strict=True) if bool(r["significant"]) is significant]
            if shown:
                ax.errorbar([k * r["difference"] for _, r in shown], [y for y, _ in shown],
                            xerr=[[k * (r["difference"] - r["ci"][0]) for _, r in shown],
                                  [k * (r["ci"][1] - r["difference"]) for _, r in shown]],
                            fmt="o", color=color, capsize=3, markersize=4)
        ax.set_yticks(ys, [r["name"] for r in rows], fontsize=8)
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_xlabel(_say(label), fontsize=8)
    return _svg(fig)


@_styled
def evening(ev: dict) -> str:
    """The distribution of a player's evening result (every seat together)."""
    fig = _figure(5.0, 2.6)
    ax = fig.add_subplot()
    starts = [int(k) for k in ev["histogram"]]
    counts = list(ev["histogram"].values())
    width = ev.get("bin_width", 1)
    total = sum(counts) or 1
    ax.bar(starts, [100 * c / total for c in counts], width=width * 0.9, align="edge", color=COLORS[0])
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlabel(_say("a player's result over {deals} deals, chips (stack {stack})").format(deals=ev["deals"],
                                                                                             stack=ev["stack"]))
    ax.set_ylabel(_say("% of players"))
    ax.set_title(ev.get("variant", ""), fontsize=9)
    return _svg(fig)


__all__ = ["MISSING", "calls_made", "differences", "evening", "measures", "pot_distribution", "results_per_call",
           "seat_fairness", "success_rates", "swing"]
