"""The plain-text account of a simulation, and its per-deal records as CSV."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from khrap.sim.records import DealRecord, decided_after


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _ci(ci: Sequence[float] | None) -> str:
    return "" if ci is None else f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def _dist(d: dict, digits: int = 1) -> str:
    return (f"mean {_num(d['mean'], digits)}, p10 {_num(d['p10'], digits)}, median {_num(d['median'], digits)}, "
            f"p90 {_num(d['p90'], digits)}, max {_num(d['max'], digits)}")


def account(s: dict) -> str:
    """A summary (``SimResult.summary()``) as text."""
    bots = s["bots"][0] if len(set(s["bots"])) == 1 else ",".join(s["bots"])
    out = [
        f"{s['variant']}: {s['players']} players, {bots} bots, seed {s['seed']}",
        f"{s['deals']} deals in {s['seconds']:.2f} s on {s['workers']} worker(s): {s['deals_per_second']:.0f} deals/s "
        f"(CPU {s['cpu_seconds']:.2f} s)",
        "",
        "Calls made (all bidding rounds)          made   per deal",
    ]
    out += [f"  {c['call']:<34}{c['made']:>8}{c['per_deal']:>11.3f}" for c in s["calls"]]
    out += ["", "Contracts at the end of the deal; result = chips won in the deal (ante included), in base stakes",
            f"  {'contract':<22}{'held':>7}{'per deal':>10}{'fulfilled':>11}{'success':>9}{'mean':>8}  95% CI"]
    for c in s["contracts"]:
        out.append(f"  {c['contract']:<22}{c['count']:>7}{c['per_deal']:>10.3f}{c['fulfilled']:>11}"
                   f"{_pct(c['success']):>9}{_num(c['mean']):>8}  {_ci(c['ci'])}")
    out += ["", "Chips per deal by position (base stakes; the first speaker sits at the dealer's left)"]
    out += [f"  {p['name']:<22}{_num(p['mean']):>8}  {_ci(p['ci'])}" for p in s["positions"]]
    out += ["By seat (the deal passes round the table)"]
    out += [f"  seat {p['seat']:<17}{_num(p['mean']):>8}  {_ci(p['ci'])}" for p in s["seats"]]
    r, m = s["rates"], s["measures"]
    endings = ", ".join(f"{k} {_pct(v)}" for k, v in r["endings"].items())
    out += [
        "",
        f"Pot at settlement (P, base stakes): {_dist(s['pot']['settlement'])}",
        f"Pot after the deal (base stakes):   {_dist(s['pot']['after'])}",
        "",
        f"All-pass deals {_pct(r['all_pass'])} ({_num(r['all_passes_per_deal'], 3)} all-passes a deal); "
        f"turn-ups after an all-pass {_pct(r['turn_up'])}; redeals {_pct(r['redeal'])}",
        f"Deals ended by: {endings}",
        f"Deal length, actions: {_dist(s['length']['actions'])}; bidding rounds: mean "
        f"{_num(s['length']['rounds']['mean'])}",
        "",
        f"Fairness (spread of chips per deal across positions) {_num(m['fairness'])}; "
        f"first speaker's edge {_num(m['first_speaker_edge'])}",
        f"Drama (leader changes a deal) {_num(m['drama'], 3)}; decisiveness (outcomes certain before the last trick) "
        f"{_pct(m['decisiveness'])}, on average after trick {_num(m['mean_decided_after'])}",
        f"Swing (mean |chip change| a player a deal) {_num(m['swing'])}",
    ]
    return "\n".join(out) + "\n"


def write_csv(records: Sequence[DealRecord], chunk: int, path: Path | TextIO) -> None:
    """One row per deal, in chunk order; seat columns suffixed with the seat number."""
    players = records[0].players if records else 0
    seat_cols = ("contract", "status", "need", "tricks", "fulfilled", "chips", "stack")
    head = ["deal", "chunk", "dealer", "ending", "rounds", "all_passes", "turn_ups", "redeals", "actions",
            "pot_before", "pot_settle", "pot_after", "decided_after", "calls", "trick_winners"]
    head += [f"{col}_{s}" for s in range(players) for col in seat_cols]
    handle = open(path, "w", newline="", encoding="utf-8") if isinstance(path, str | Path) else path  # noqa: SIM115
    try:
        # "\n" rows: the csv module's default "\r\n" came out as a literal \x0d once the text was made
        # safe for a terminal (khrap.safe_text escapes every control character but newline and tab)
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(head)
        for i, rec in enumerate(records):
            row = [i, i // chunk, rec.dealer, rec.ending, rec.rounds, rec.all_passes, rec.turn_ups, rec.redeals,
                   rec.actions, rec.pot_before, "" if rec.pot_settle is None else rec.pot_settle, rec.pot_after,
                   "" if decided_after(rec) is None else decided_after(rec),
                   " ".join(f"{s}:{c}" for s, c in rec.calls), " ".join(map(str, rec.trick_winners))]
            for c in rec.contracts:
                fulfilled = "" if c.fulfilled is None else int(c.fulfilled)
                row += [c.label, c.status, c.need, c.tricks, fulfilled, rec.delta[c.seat], rec.stacks[c.seat]]
            writer.writerow(row)
    finally:
        if handle is not path:
            handle.close()


__all__ = ["account", "write_csv"]
