"""The plain-text account of a simulation, and its per-deal records as CSV."""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from khrap.bots import strength_of
from khrap.sim.figures import Figures
from khrap.sim.records import DealRecord, decided_after
from khrap.sim.report_words import figures

Say = Callable[[str], str]


def _same(text: str) -> str:
    return text


ENGLISH = Figures()


def _pct(x: float | None, fig: Figures = ENGLISH) -> str:
    return "-" if x is None else fig(100 * x, ".1f") + "%"


def _num(x: float | None, digits: int = 2, fig: Figures = ENGLISH) -> str:
    return "-" if x is None else fig(x, f".{digits}f")


def _ci(ci: Sequence[float] | None, fig: Figures = ENGLISH) -> str:
    return "" if ci is None else fig.interval(ci[0], ci[1], ".2f")


def _dist(d: dict, t: Say, digits: int = 1) -> str:
    fig = figures(t)
    return ", ".join(f"{t(stat)} {_num(d[stat], digits, fig)}" for stat in ("mean", "p10", "median", "p90", "max"))


def _table(heads: Sequence[str], rows: Sequence[Sequence[str]], least: Sequence[int]) -> list[str]:
    """Rows under their headings, the first column left-aligned, the others right-aligned; each column as
    wide as its ``least`` or, when wider, its widest cell or heading plus a space (a translated heading is
    longer)."""
    widths = [max([w, len(h) + (k > 0)] + [len(r[k]) + (k > 0) for r in rows])
              for k, (w, h) in enumerate(zip(least, heads, strict=True))]
    return ["  " + "".join(f"{x:<{widths[0]}}" if k == 0 else f"{x:>{widths[k]}}" for k, x in enumerate(cells))
            .rstrip() for cells in [heads, *rows]]


def _bots(bots: Sequence[str], t: Say) -> str:
    """The seats' bots: as named in English, by their strength's word (``normal``, not ``heuristic``) in
    another language."""
    shown = list(bots) if t("normal") == "normal" else [t(strength_of(kind) or kind) for kind in bots]
    return shown[0] if len(set(shown)) == 1 else ",".join(shown)


def account(s: dict, t: Say = _same, name: Say = _same) -> str:
    """A summary (``SimResult.summary()``) as text; ``t`` puts an English text in the reader's language
    (``khrap.sim.report_words.tr``), ``name`` gives a label of the records (a call, a contract, a deal's
    ending, a position) in words."""
    fig = figures(t)
    pct = lambda x: _pct(x, fig)  # noqa: E731
    num = lambda x, digits=2: _num(x, digits, fig)  # noqa: E731
    ci = lambda x: _ci(x, fig)  # noqa: E731
    out = [
        t("{variant}: {players} players, {bots} bots, seed {seed}").format(
            variant=s["variant"], players=s["players"], bots=_bots(s["bots"], t), seed=s["seed"]),
        t("{deals} deals in {seconds:.2f} s on {workers} worker(s): {rate:.0f} deals/s (CPU {cpu:.2f} s)").format(
            deals=s["deals"], seconds=s["seconds"], workers=s["workers"], rate=s["deals_per_second"],
            cpu=s["cpu_seconds"]),
        "",
        t("Calls made (all bidding rounds)"),
    ]
    out += _table([t("call"), t("said"), t("per deal")],
                  [[name(c["call"]), str(c["made"]), fig(c["per_deal"], ".3f")] for c in s["calls"]], (34, 8, 11))
    out += ["", t("Contracts at the end of the deal; result = chips won in the deal (ante included), in base "
                  "stakes")]
    out += _table([t("contract"), t("held"), t("per deal"), t("fulfilled"), t("success"), t("mean"), t("95% CI")],
                  [[name(c["contract"]), str(c["count"]), fig(c["per_deal"], ".3f"), str(c["fulfilled"]),
                    pct(c["success"]), num(c["mean"]), ci(c["ci"])] for c in s["contracts"]],
                  (22, 7, 10, 11, 9, 8, 16))
    out += ["", t("Chips per deal by position (base stakes; the first speaker sits at the dealer's left)")]
    out += [f"  {name(p['name']):<22}{num(p['mean']):>8}  {ci(p['ci'])}".rstrip() for p in s["positions"]]
    out += [t("By seat (the deal passes round the table)")]
    out += [f"  {t('seat {n}').format(n=p['seat']):<22}{num(p['mean']):>8}  {ci(p['ci'])}".rstrip()
            for p in s["seats"]]
    r, m = s["rates"], s["measures"]
    endings = ", ".join(f"{name(k)} {pct(v)}" for k, v in r["endings"].items())
    out += [
        "",
        t("Pot at settlement (P, base stakes): {dist}").format(dist=_dist(s["pot"]["settlement"], t)),
        t("Pot after the deal (base stakes):   {dist}").format(dist=_dist(s["pot"]["after"], t)),
        "",
        t("All-pass deals {all_pass} ({per_deal} all-passes a deal); turn-ups after an all-pass {turn_up}; "
          "redeals {redeal}").format(all_pass=pct(r["all_pass"]), per_deal=num(r["all_passes_per_deal"], 3),
                                     turn_up=pct(r["turn_up"]), redeal=pct(r["redeal"])),
        t("Deals ended by: {endings}").format(endings=endings),
        t("Deal length, actions: {dist}; bidding rounds: mean {rounds}").format(
            dist=_dist(s["length"]["actions"], t), rounds=num(s["length"]["rounds"]["mean"])),
        "",
        t("Fairness (spread of chips per deal across positions) {fairness}; first speaker's edge {edge}").format(
            fairness=num(m["fairness"]), edge=num(m["first_speaker_edge"])),
        t("Drama (leader changes a deal) {drama}; decisiveness (outcomes certain before the last trick) "
          "{decisiveness}, on average after trick {after}").format(
            drama=num(m["drama"], 3), decisiveness=pct(m["decisiveness"]), after=num(m["mean_decided_after"])),
        t("Swing (mean |chip change| a player a deal) {swing}").format(swing=num(m["swing"])),
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
