"""The strong bot's speed: deals a CPU second with the strong bot at every seat (issue 29: the aim is 20).

    python benchmarks/strong_speed.py [--variant khrap] [--players 4] [--deals 6] [--first-seed 0] [--json]

Deals from a fresh table (deal ``s`` from seed ``s``, the dealer ``s mod players``), the bots untimed
(``SearchBot(timed=False)``: the work budget is every decision's stop, so the work and the choices are a
function of the seeds whatever the machine's load; the CPU time a decision takes still grows on a loaded
machine).  It prints deals, actions, CPU seconds, deals a CPU second, and a digest of every action taken:
two versions of the bot with the same digest made the same choices.  Not a CI test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

from khrap.bots import choose_for
from khrap.bots.search import SearchBot
from khrap.engine import GameState, Rules
from khrap.variant.catalog import load_variant


def measure(variant: str, players: int, deals: int, first_seed: int) -> dict:
    """Play ``deals`` deals with the untimed strong bot at every seat; the figures."""
    rules = Rules(load_variant(variant), players)
    bots = [SearchBot(rules, timed=False) for _ in range(players)]
    digest, actions = hashlib.sha1(), 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + deals):
        state = GameState(rules, players, dealer=seed % players, seed=seed)
        state.start_deal()
        step = 0
        while state.pending is not None:
            action = choose_for(bots[state.to_act], state, random.Random(f"strong-speed:{seed}:{step}"))
            digest.update(repr(action).encode())
            state.apply(action)
            step += 1
        actions += step
    cpu = time.process_time() - start
    return {"variant": variant, "players": players, "deals": deals, "first_seed": first_seed, "actions": actions,
            "cpu_seconds": round(cpu, 2), "deals_per_cpu_second": round(deals / cpu, 3) if cpu else None,
            "digest": digest.hexdigest()[:12]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="khrap")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    found = measure(args.variant, args.players, args.deals, args.first_seed)
    if args.json:
        print(json.dumps(found))
    else:
        print(f"{found['variant']}, {found['players']} strong seats: {found['deals']} deals, "
              f"{found['actions']} actions, {found['cpu_seconds']} s CPU, "
              f"{found['deals_per_cpu_second']} deals a CPU second (choices {found['digest']})")


if __name__ == "__main__":
    main()
