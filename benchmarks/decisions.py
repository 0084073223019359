"""Decision times of a search bot: median, 99th percentile and max per variant, in milliseconds.

    python benchmarks/decisions.py [--bot search] [--variants khrap,frap,...] [--deals 20] [--players 4]
                                   [--first-seed 0] [--json]

The bot sits at seat 0 of a table of heuristic bots; every decision it makes
with a choice is timed with the clock from the call of ``choose_for`` to its
answer (the seat's view included).  Only decisions with more than one legal
action count: with one, no bot searches.  The wall-clock figures are what a
player waits; on a loaded machine they include the time the process was not
running at all, so the same decisions' CPU time (``process_time``) is given
beside them (``cpu_*``): the work itself.  Not a CI test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from khrap.bots import HeuristicBot, choose_for, make_bot
from khrap.engine import GameState
from khrap.variant.catalog import builtin_names, load_variant


def times(variant: str, bot_kind: str, deals: int, players: int, first_seed: int) -> tuple[dict, dict]:
    """Every timed decision of ``bot_kind`` at seat 0 over ``deals`` deals, split by kind of decision."""
    rules_state = GameState(load_variant(variant), players, seed=first_seed)
    bot = make_bot(bot_kind, rules_state.rules)
    others = HeuristicBot(rules_state.rules)
    found: dict[str, list[float]] = {"call": [], "play": []}
    cpu: dict[str, list[float]] = {"call": [], "play": []}
    for seed in range(first_seed, first_seed + deals):
        state = GameState(rules_state.rules, players, dealer=seed % players, seed=seed)
        state.start_deal()
        step = 0
        while state.pending is not None:
            rng = random.Random(f"decisions:{seed}:{step}")
            if state.to_act == 0 and len(state.legal_actions()) > 1:
                kind = "play" if state.pending.kind == "play" else "call"
                t, c = time.perf_counter(), time.process_time()
                action = choose_for(bot, state, rng)
                found[kind].append((time.perf_counter() - t) * 1000)
                cpu[kind].append((time.process_time() - c) * 1000)
            else:
                action = choose_for(bot if state.to_act == 0 else others, state, rng)
            state.apply(action)
            step += 1
    return found, cpu


def figures(values: list[float]) -> dict:
    if not values:
        return {"decisions": 0}
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {"decisions": len(values), "median_ms": round(statistics.median(values), 1),
            "p99_ms": round(p99, 1), "max_ms": round(ordered[-1], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="search")
    parser.add_argument("--variants", default=",".join(builtin_names()))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="one JSON object per variant")
    args = parser.parse_args()
    if not args.json:
        print("variant        kind  decisions  wall: median  p99     max    cpu: median  p99     max (ms)")
    for variant in args.variants.split(","):
        found, cpu = times(variant, args.bot, args.deals, args.players, args.first_seed)
        found["all"], cpu["all"] = found["call"] + found["play"], cpu["call"] + cpu["play"]
        for kind in ("call", "play", "all"):
            f = figures(found[kind])
            g = {f"cpu_{k}": v for k, v in figures(cpu[kind]).items() if k != "decisions"}
            if args.json:
                print(json.dumps({"variant": variant, "kind": kind, **f, **g}), flush=True)
            elif f["decisions"]:
                print(f"{variant:14} {kind:5} {f['decisions']:9}       {f['median_ms']:7} {f['p99_ms']:7} "
                      f"{f['max_ms']:7}      {g['cpu_median_ms']:7} {g['cpu_p99_ms']:7} {g['cpu_max_ms']:7}",
                      flush=True)
            else:
                print(f"{variant:14} {kind:5}         0", flush=True)


if __name__ == "__main__":
    main()
