"""Speed report: the kernel against bare hand-written loops, with bots, and `khrap simulate` on 1 and 2 workers.

    python benchmarks/speed.py [--seconds 0.5] [--rounds 5] [--variant khrap ...] [--sim-deals 20000] [--json]

In one run, on this machine, each figure the median of ``--rounds`` measurements taken in turn
(bare loop, compiled machine, reference kernel, ...) so that a change in the machine's speed
during the run hits every column alike:
- bare: deals/s of benchmarks/bare_loop.py (a Frap-like deal with no exchange, hand-written);
- bare khrap: deals/s of benchmarks/bare_khrap.py (classic Khrap's random deal, hand-written);
- per variant, 4 players: random-playout deals/s of the compiled machine (what `khrap simulate`
  plays for random bots) and of the reference kernel, each with its ratio to the bare loop
  (the median of the ratios of each round), and deals/s with the strongest bot available at
  every seat (`heuristic` when the bots offer it, else `rule`; reference kernel);
- frap-simple: frap cut down to the bare loop's game (no blind frap, no buying, no cut, one
  bidding round, no penalties), so that the ratio compares like with like;
- simulate: `khrap simulate` throughput (records and statistics included) with 1 and 2 worker
  processes, and the speed-up (process start-up excluded).
Absolute figures drift on shared machines: compare figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable

import bare_khrap
import bare_loop
from random_playout import compiled_rate, reference_rate

from khrap.bots import KINDS, RandomBot, make_bot
from khrap.engine import GameState, Rules
from khrap.sim import SimSpec, simulate
from khrap.variant.catalog import builtin, builtin_names
from khrap.variant.schema import Variant

PLAYERS = 4


def bot_kind() -> str:
    return "heuristic" if "heuristic" in KINDS else "rule"


def with_bots(variant: Variant, kind: str, seconds: float, seed: int = 1) -> float:
    """Whole deals per second with a ``kind`` bot at every seat (each reads its observation)."""
    rules = Rules(variant, PLAYERS)
    bots = [make_bot(kind, rules) for _ in range(PLAYERS)]
    state = GameState(rules, PLAYERS, seed=seed)
    rng = random.Random(seed)
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state.log.clear()
        if state.session_over:
            state = GameState(rules, PLAYERS, seed=seed + deals)
        state.start_deal()
        while state.pending is not None:
            seat = state.pending.seat
            obs = {"seat": seat} if type(bots[seat]) is RandomBot else state.observation(seat)
            state.apply(bots[seat].choose(obs, state.legal_actions(), rng))
            if time.perf_counter() - start > 30 * seconds:
                raise RuntimeError(f"{kind} bots: one deal of {variant.name['en']} took over {30 * seconds:.0f} s")
        deals += 1
    return deals / (time.perf_counter() - start)


def in_turn(rounds: int, measures: dict[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Each measure ``rounds`` times, taken in turn (a, b, c, a, b, c, ...)."""
    found: dict[str, list[float]] = {key: [] for key in measures}
    for _ in range(rounds):
        for key, measure in measures.items():
            found[key].append(measure())
    return found


def median_ratio(top: list[float], bottom: list[float]) -> float:
    return statistics.median(a / b for a, b in zip(top, bottom, strict=True))


def frap_simple() -> Variant:
    """Frap cut down to the bare loop's game."""
    data = builtin("frap").model_dump(mode="json")
    data["calls"]["blind-frap"]["enabled"] = False
    data["stages"] = [s for s in data["stages"] if s["id"] in ("bidding", "whist", "play")]
    data["all_pass"] = {"rounds": 1, "turn_up": False, "round_ante": 0, "last_ante": 0, "redeal_ante": "normal"}
    data["settlement"]["penalties"] = []
    return Variant.model_validate(data)


def sim_speedup(name: str, deals: int) -> dict:
    """`khrap simulate` on 1 and 2 workers: deals/s (wall clock) and CPU seconds per 1000 deals.

    On a machine shared with other work the wall-clock speed-up is bounded by the CPU left free;
    equal CPU per deal on 1 and 2 workers says the pool itself costs nothing."""
    spec = SimSpec.make(builtin(name), PLAYERS, "random", seed=1, deals=deals)
    one = simulate(spec, workers=1)
    two = simulate(spec, workers=2)
    return {"variant": name, "deals": deals, "one_worker": round(one.deals_per_second, 1),
            "two_workers": round(two.deals_per_second, 1),
            "speedup": round(two.deals_per_second / one.deals_per_second, 2),
            "cpu_s_per_1000_one": round(1000 * one.cpu_seconds / deals, 3),
            "cpu_s_per_1000_two": round(1000 * two.cpu_seconds / deals, 3),
            "same_numbers": one.stats == two.stats, "load_average": [round(x, 2) for x in os.getloadavg()]}


def variant_row(name: str, variant: Variant, seconds: float, rounds: int, bots: str | None) -> dict:
    """The compiled machine and the reference kernel on ``variant``, in turn with the bare loop."""
    got = in_turn(rounds, {
        "bare": lambda: bare_loop.deals_per_second(seconds),
        "compiled": lambda: compiled_rate(variant, PLAYERS, seconds),
        "reference": lambda: reference_rate(variant, PLAYERS, seconds),
    })
    row = {"variant": name,
           "compiled": round(statistics.median(got["compiled"]), 1),
           "compiled_to_bare": round(median_ratio(got["compiled"], got["bare"]), 3),
           "reference": round(statistics.median(got["reference"]), 1),
           "reference_to_bare": round(median_ratio(got["reference"], got["bare"]), 3),
           "bare": round(statistics.median(got["bare"]), 1)}
    if bots:
        row[bots] = round(with_bots(variant, bots, seconds * rounds / 2), 1)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="time per measurement (default 0.5)")
    parser.add_argument("--rounds", type=int, default=5, help="measurements per figure, taken in turn (default 5)")
    parser.add_argument("--variant", action="append", help="a built-in variant (default: all)")
    parser.add_argument("--no-bots", action="store_true", help="skip the strongest bot's column")
    parser.add_argument("--sim-variant", default="khrap", help="variant of the workers measurement")
    parser.add_argument("--sim-deals", type=int, default=20000, help="deals of the workers measurement (0: skip)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, flush=True))
    kind = None if args.no_bots else bot_kind()
    yard = in_turn(args.rounds, {"bare": lambda: bare_loop.deals_per_second(args.seconds),
                                 "bare_khrap": lambda: bare_khrap.deals_per_second(args.seconds)})
    out: dict = {"bare": round(statistics.median(yard["bare"]), 1),
                 "bare_khrap": round(statistics.median(yard["bare_khrap"]), 1),
                 "bare_khrap_to_bare": round(median_ratio(yard["bare_khrap"], yard["bare"]), 3), "bot": kind}
    say(f"bare Frap-like loop  {out['bare']:10.1f} deals/s")
    say(f"bare khrap loop      {out['bare_khrap']:10.1f} deals/s ({out['bare_khrap_to_bare']:.3f} of the bare loop)")
    say(f"{'variant':<16}{'compiled':>10}{'÷ bare':>9}{'reference':>11}{'÷ bare':>9}{kind or '':>12}")
    rows = []
    tables = [(name, builtin(name)) for name in args.variant or builtin_names()] + [("frap-simple", frap_simple())]
    for name, variant in tables:
        row = variant_row(name, variant, args.seconds, args.rounds, kind if name != "frap-simple" else None)
        rows.append(row)
        bots = f"{row[kind]:12.1f}" if kind and kind in row else ""
        say(f"{name:<16}{row['compiled']:10.1f}{row['compiled_to_bare']:9.3f}{row['reference']:11.1f}"
            f"{row['reference_to_bare']:9.3f}{bots}")
    out["variants"] = rows
    if args.sim_deals:
        out["simulate"] = sim_speedup(args.sim_variant, args.sim_deals)
        s = out["simulate"]
        say(f"khrap simulate {s['variant']}, {s['deals']} deals: 1 worker {s['one_worker']} deals/s, "
            f"2 workers {s['two_workers']} deals/s, speed-up {s['speedup']}x, same numbers: {s['same_numbers']}")
        say(f"  CPU s per 1000 deals: 1 worker {s['cpu_s_per_1000_one']}, 2 workers {s['cpu_s_per_1000_two']}; "
            f"load average {s['load_average']} on {os.cpu_count()} cores")
    if args.json:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
