"""``summarize``: a ``Stats`` as plain numbers (what `khrap simulate --json` prints and the report draws).

See ``MEASURES`` for how the design measures are computed.
"""

from __future__ import annotations

from collections import Counter

from khrap.sim.stats import Moments, Stats

MEASURES = """\
Chips are given in base stakes; a deal's result for a seat is its chip change
over the deal, ante included.  Intervals are 95% normal-approximation
confidence intervals of a mean.  Design measures (in the spirit of Browne's
and CardStock's heuristics):

- fairness: the spread (max - min) across seat positions of the mean chips per
  deal, position 1 being the first speaker (the dealer's left) and position N
  the dealer; 0 is perfectly fair.
- drama: the share of deals after which the chip leader of the session changed.
- decisiveness: the share of played-out deals in which every active player's
  fulfilled/failed outcome was certain before the last trick.
- swing: the mean absolute chip change of a player in a deal.
"""


def quantile(counter: Counter, q: float) -> int | None:
    """The smallest value with at least a ``q`` share of the counted samples at or below it."""
    total = sum(counter.values())
    if not total:
        return None
    need = q * total
    seen = 0
    for value in sorted(counter):
        seen += counter[value]
        if seen >= need:
            return value
    return max(counter)


def _mean(counter: Counter, scale: float = 1.0) -> float | None:
    total = sum(counter.values())
    return None if not total else sum(v * c for v, c in counter.items()) / total / scale


def _distribution(counter: Counter, scale: float = 1.0) -> dict:
    def q(p: float) -> float | None:
        v = quantile(counter, p)
        return None if v is None else v / scale

    return {
        "mean": _mean(counter, scale),
        "p10": q(0.10),
        "median": q(0.50),
        "p90": q(0.90),
        "max": None if not counter else max(counter) / scale,
        "histogram": {str(k): counter[k] for k in sorted(counter)},
    }


def _moments(m: Moments, scale: float) -> dict:
    ci = m.ci(scale)
    return {"n": m.n, "mean": m.mean(scale), "ci": None if ci is None else list(ci)}


def position_name(position: int, players: int) -> str:
    if position == players - 1:
        return "dealer"
    return "first speaker" if position == 0 else f"speaker {position + 1}"


def _rate(part: int, whole: int) -> float | None:
    return None if not whole else part / whole


def summarize(st: Stats) -> dict:
    """Every figure of ``st`` as JSON-ready data."""
    deals, base, n = st.deals, st.base_stake, st.players
    contracts = []
    for label in sorted(st.contracts, key=lambda k: (-st.contracts[k].count, k)):
        acc = st.contracts[label]
        contracts.append({
            "contract": label,
            "count": acc.count,
            "per_deal": _rate(acc.count, deals),
            "judged": acc.judged,
            "fulfilled": acc.fulfilled,
            "success": _rate(acc.fulfilled, acc.judged),
            **{k: v for k, v in _moments(acc.result, base).items() if k != "n"},
        })
    positions = [
        {"position": p + 1, "name": position_name(p, n), **_moments(m, base)} for p, m in enumerate(st.by_position)
    ]
    means = [p["mean"] for p in positions if p["mean"] is not None]
    played = sum(st.decided.values())
    early = sum(c for t, c in st.decided.items() if t < st.hand_size)
    return {
        "deals": deals,
        "players": n,
        "base_stake": base,
        "calls": [
            {"call": c, "made": k, "per_deal": _rate(k, deals)}
            for c, k in sorted(st.calls_made.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "contracts": contracts,
        "seats": [{"seat": s, **_moments(m, base)} for s, m in enumerate(st.by_seat)],
        "positions": positions,
        "pot": {"settlement": _distribution(st.pot_settle, base), "after": _distribution(st.pot_after, base)},
        "rates": {
            "all_pass": _rate(st.all_pass_deals, deals),
            "all_passes_per_deal": _rate(st.all_passes, deals),
            "turn_up": _rate(st.turn_up_deals, deals),
            "redeal": _rate(st.redeal_deals, deals),
            "endings": {k: _rate(v, deals) for k, v in sorted(st.endings.items())},
        },
        "length": {"actions": _distribution(st.actions), "rounds": _distribution(st.rounds)},
        "swing": _distribution(st.swing, base * n),
        "decided_after": {str(k): st.decided[k] for k in sorted(st.decided)},
        "measures": {
            "fairness": None if not means else max(means) - min(means),
            "first_speaker_edge": None if not means else means[0] - sum(means) / len(means),
            "drama": _rate(st.leader_changes, st.leader_steps),
            "decisiveness": _rate(early, played),
            "mean_decided_after": _mean(st.decided),
            "swing": _mean(st.swing, base * n),
        },
    }


__all__ = ["MEASURES", "position_name", "quantile", "summarize"]
