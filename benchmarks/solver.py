"""The exact solver's speed: deals solved per second from the first card, per variant and table size.

    python benchmarks/solver.py [--variants khrap,frap,...] [--players 3,4,6] [--deals 20] [--first-seed 0]
                                [--json]

Each deal is reached by random calls (so that the card play has players in it)
and stopped at its first card.  "Solved" is the solver's full answer there:
the exact value in chips (the kernel's settlement) of every seat in play
against any play of the others (``khrap.bots.solver.best_results``).  Also the
search nodes per second, and, as the yardstick on this machine in the same
run, ``bare_loop.py``'s random deals per second (a solved deal is worth that
many bare deals: ``bare_per_solved``).  Not a CI test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from khrap.bots.position import Kernel, in_card_play, position_of
from khrap.bots.solver import Solver, chips_of
from khrap.engine import GameState
from khrap.variant.catalog import builtin_names, load_variant

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bare_loop  # noqa: E402


def first_card(variant: str, players: int, seed: int) -> GameState | None:
    """A deal at its first card, the calls made at random; None if no deal gets there in 40 tries."""
    rng = random.Random(seed)
    state = GameState(load_variant(variant), players, seed=seed, stacks=500)
    for _ in range(40):
        if state.session_over:
            return None
        state.start_deal()
        while state.pending is not None and not in_card_play(state):
            state.apply(rng.choice(state.legal_actions()))
        if in_card_play(state):
            return state
    return None


def solve_every_seat(state: GameState) -> int:
    """Every seat's exact value; the nodes searched."""
    position = position_of(state)
    kernel = Kernel(position)
    nodes = 0
    for seat in position.order:
        solver = Solver(position, seat, chips_of(kernel, seat), kernel=kernel)
        solver.value()
        nodes += solver.nodes
    return nodes


def bare_deals_per_second(seconds: float = 0.5) -> float:
    rng, stacks, pot, count = random.Random(0), [1000] * bare_loop.PLAYERS, 0, 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pot = bare_loop.play_deal(rng, stacks, pot, count % bare_loop.PLAYERS)
        count += 1
    return count / seconds


def measure(variant: str, players: int, deals: int, first_seed: int) -> dict | None:
    rules_players = load_variant(variant).players
    if not rules_players.min <= players <= rules_players.max:
        return None
    times, nodes, in_play = [], 0, []
    for seed in range(first_seed, first_seed + deals):
        state = first_card(variant, players, seed)
        if state is None:
            continue
        start = time.perf_counter()
        nodes += solve_every_seat(state)
        times.append(time.perf_counter() - start)
        in_play.append(len(state.in_play))
    if not times:
        return None
    total = sum(times)
    return {"variant": variant, "players": players, "deals": len(times),
            "seats_in_play": round(statistics.mean(in_play), 2),
            "deals_per_second": round(len(times) / total, 1), "median_ms": round(1000 * statistics.median(times), 2),
            "max_ms": round(1000 * max(times), 2), "nodes_per_second": round(nodes / total)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(builtin_names()))
    parser.add_argument("--players", default="3,4,6")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bare = bare_deals_per_second()
    rows = []
    for variant in args.variants.split(","):
        for players in (int(p) for p in args.players.split(",")):
            row = measure(variant, players, args.deals, args.first_seed)
            if row is None:
                continue
            row["bare_per_solved"] = round(bare / row["deals_per_second"], 1)
            rows.append(row)
            if not args.json:
                print(f"{variant:14} {players} players ({row['seats_in_play']} in play): {row['deals_per_second']:8} "
                      f"deals/s, median {row['median_ms']} ms, max {row['max_ms']} ms, "
                      f"{row['nodes_per_second']} nodes/s, {row['bare_per_solved']} bare deals each", flush=True)
    if args.json:
        print(json.dumps({"bare_deals_per_second": round(bare), "rows": rows}))
    else:
        print(f"bare loop: {bare:.0f} deals/s")


if __name__ == "__main__":
    main()
