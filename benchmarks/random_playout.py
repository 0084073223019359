"""Random-playout speed: whole deals per second, uniformly random legal actions, one core.

    python benchmarks/random_playout.py [--seconds 3] [--players 4] [--variant khrap ...] [--json]

Each deal includes its ante, deal, bidding (with all-pass rounds), exchange and play.
Absolute figures drift on shared machines: compare runs made on the same machine.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from khrap.engine import GameState, Rules
from khrap.variant.catalog import builtin, builtin_names


def deals_per_second(name: str, players: int, seconds: float, seed: int = 1) -> tuple[float, int]:
    variant = builtin(name)
    players = min(max(players, variant.players.min), variant.players.max)
    state = GameState(Rules(variant, players), players, seed=seed)
    rng = random.Random(seed)
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state.start_deal()
        while state.pending is not None:
            state.apply(rng.choice(state.legal_actions()))
        deals += 1
    return deals / (time.perf_counter() - start), players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per variant (default 3)")
    parser.add_argument("--players", type=int, default=4, help="players per table (clamped to the variant's range)")
    parser.add_argument("--variant", action="append", help="a built-in variant (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    rows = []
    for name in args.variant or builtin_names():
        rate, players = deals_per_second(name, args.players, args.seconds)
        rows.append({"variant": name, "players": players, "deals_per_second": round(rate, 1)})
        if not args.json:
            print(f"{name:<15} {players} players  {rate:10.1f} deals/s", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
