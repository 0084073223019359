"""Speed report: the kernel against a bare hand-written loop, with bots, and `khrap simulate` on 1 and 2 workers.

    python benchmarks/speed.py [--seconds 2] [--variant khrap ...] [--sim-deals 3000] [--json]

In one run, on this machine:
- bare: deals/s of benchmarks/bare_loop.py (a Frap-like deal with no exchange, hand-written);
- per variant, 4 players: random-playout deals/s of the kernel (uniform legal actions; the loop of
  benchmarks/random_playout.py, clearing the log between deals as `khrap simulate` does), its ratio
  to the bare loop, and deals/s with the strongest bot available at every seat (`heuristic` when
  the bots offer it, else `rule`);
- frap-simple: the kernel playing frap cut down to the bare loop's game (no blind frap, no buying,
  no cut, one bidding round, no penalties), so that the ratio compares like with like;
- simulate: `khrap simulate` throughput (records and statistics included) with 1 and 2 worker
  processes, and the speed-up (process start-up excluded).
Absolute figures drift on shared machines: compare figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

import bare_loop

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


def frap_simple() -> Variant:
    """Frap cut down to the bare loop's game."""
    data = builtin("frap").model_dump(mode="json")
    data["calls"]["blind-frap"]["enabled"] = False
    data["stages"] = [s for s in data["stages"] if s["id"] in ("bidding", "whist", "play")]
    data["all_pass"] = {"rounds": 1, "turn_up": False, "round_ante": 0, "last_ante": 0, "redeal_ante": "normal"}
    data["settlement"]["penalties"] = []
    return Variant.model_validate(data)


def random_rate(variant: Variant, seconds: float, seed: int = 1) -> float:
    return with_bots(variant, "random", seconds, seed)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--variant", action="append", help="a built-in variant (default: all)")
    parser.add_argument("--sim-variant", default="khrap", help="variant of the workers measurement")
    parser.add_argument("--sim-deals", type=int, default=3000, help="deals of the workers measurement (0: skip)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, flush=True))
    kind = bot_kind()
    bare = bare_loop.deals_per_second(args.seconds)
    say(f"bare Frap-like loop   {bare:10.1f} deals/s")
    say(f"{'variant':<16}{'random':>10}{'÷ bare':>9}{kind:>12}")
    rows = []
    for name in args.variant or builtin_names():
        rate = random_rate(builtin(name), args.seconds)
        bots = with_bots(builtin(name), kind, args.seconds)
        rows.append({"variant": name, "random": round(rate, 1), "ratio_to_bare": round(rate / bare, 3),
                     kind: round(bots, 1)})
        say(f"{name:<16}{rate:10.1f}{rate / bare:9.3f}{bots:12.1f}")
    simple = random_rate(frap_simple(), args.seconds)
    rows.append({"variant": "frap-simple", "random": round(simple, 1), "ratio_to_bare": round(simple / bare, 3)})
    say(f"{'frap-simple':<16}{simple:10.1f}{simple / bare:9.3f}")
    out = {"bare": round(bare, 1), "bot": kind, "variants": rows}
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
