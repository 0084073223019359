"""Which hands are worth a call: how each call went by simple features of the caller's hand.

For every player who ended a deal standing by a call (declarer or helper) and
whose tricks were played, the hand he was dealt (the last dealing of the deal)
is described by three things a player counts at a glance, against the deal's
trump suit: how many trumps, whether he holds the trump ace, and how many high
cards (aces and kings, any suit).  For each call and each value of a feature
the table gives how often it was made and the mean result in base stakes
(ante included) with its 95% interval.

The hands are read from the ``dealt`` event of the deal's log, so the table is
filled when the deals are played through ``GameState`` with events on (any bot
but the random one, or ``--engine reference``); the bare machine emits none.
"""

from __future__ import annotations

import math

from khrap.sim.report_words import figures
from khrap.sim.stats import Z95

FEATURES = {
    "trumps": ("trumps in hand", lambda v: str(v)),
    "trump_ace": ("holds the trump ace", lambda v: "yes" if v else "no"),
    "high_cards": ("aces and kings in hand", lambda v: str(v)),
}
MIN_COUNT = 20
"""Rows held fewer times than this are left out of the table a player reads (too few to say anything)."""


def hand_rows(hands: dict, base_stake: int, min_count: int = MIN_COUNT) -> list[dict]:
    """One row per (call, feature, value) held at least ``min_count`` times: count, success, mean result, CI."""
    rows = []
    for (label, feature, value), (n, made, s, ss) in hands.items():
        if n < min_count:
            continue
        mean = s / n / base_stake
        var = (ss - s * s / n) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(max(var, 0.0) / n) / base_stake
        rows.append({"call": label, "feature": feature, "value": value, "count": n, "made": made,
                     "success": made / n, "mean": mean, "ci": [mean - half, mean + half]})
    order = {f: i for i, f in enumerate(FEATURES)}
    totals: dict[str, int] = {}
    for r in rows:
        if r["feature"] == "trumps":
            totals[r["call"]] = totals.get(r["call"], 0) + r["count"]
    rows.sort(key=lambda r: (order.get(r["feature"], 9), -totals.get(r["call"], 0), r["call"], r["value"]))
    return rows


def hand_tables(rows: list[dict], words=None) -> list[dict]:
    """The rows as one table per feature: call, the feature's value, times held, made, mean result (``words``:
    the report's language and display names, ``khrap.sim.report.Words``; None: English and the labels)."""
    t = words.t if words is not None else (lambda text: text)
    fig = figures(t)
    name_of = words.name if words is not None else (lambda label: label)
    tables = []
    for feature, (name, show) in FEATURES.items():
        mine = [r for r in rows if r["feature"] == feature]
        if not mine:
            continue
        tables.append({"columns": [t("call"), t(name), t("times"), t("made"), t("mean result (stakes)")],
                       "rows": [[name_of(r["call"]), t(show(r["value"])), r["count"],
                                 fig(100 * r["success"], ".0f") + "%",
                                 fig(r["mean"], "+.2f") + " " + fig.interval(*r["ci"], "+.2f")]
                                for r in mine]})
    return tables


def hands_text(rows: list[dict], words=None) -> str:
    """The tables as plain text."""
    out = []
    for table in hand_tables(rows, words):
        cols, cells = table["columns"], [[str(x) for x in r] for r in table["rows"]]
        # each column as wide as its widest cell or heading plus a space (a translated heading can be longer)
        w = [max([least, len(cols[k]) + 1] + [len(r[k]) + 1 for r in cells])
             for k, least in enumerate((18, 24, 8, 7))]
        out += [f"  {r[0]:<{w[0]}}{r[1]:>{w[1]}}{r[2]:>{w[2]}}{r[3]:>{w[3]}}  {r[4]}" for r in [cols, *cells]]
        out.append("")
    return "\n".join(out)


__all__ = ["FEATURES", "MIN_COUNT", "hand_rows", "hand_tables", "hands_text"]
