"""Bot strength: bot A at seats 0 and 2 against bot B at seats 1 and 3, then swapped, same decks.

    python benchmarks/strength.py A B [--variant khrap] [--deals N] [--seconds S] [--out FILE]
                                      [--iterations K] [--ms MS] [--first-seed 0]

Each deck seed is played twice, once with A at the even seats and once with A
at the odd seats; every deal starts afresh (100 chips each, an empty pot, the
dealer rotating with the seed), so the deals are independent.  The measure is
A's chips per seat per deal minus B's, averaged over the two seatings of a
seed; the 95% interval is 1.96 standard errors over seeds.  ``--deals``
counts deals (two per seed); ``--seconds`` stops earlier.  Progress (a JSON
line per report) is appended to ``--out`` as it goes.  Not a CI test.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time

from khrap.bots import choose_for, make_bot
from khrap.bots.mcts import MctsBot
from khrap.engine import GameState, Rules
from khrap.variant.catalog import load_variant


def play_deal(rules: Rules, bots: list, seed: int, tag: str) -> list[int]:
    """One deal from a fresh table; each seat's change in chips."""
    state = GameState(rules, rules.players, dealer=seed % rules.players, seed=seed)
    before = list(state.stacks)
    state.start_deal()
    step = 0
    while state.pending is not None:
        rng = random.Random(f"strength:{tag}:{seed}:{step}")
        state.apply(choose_for(bots[state.to_act], state, rng))
        step += 1
    return [a + lock - b for a, lock, b in zip(state.stacks, state.locked, before, strict=True)]


def seed_value(rules: Rules, a, b, seed: int) -> float:
    """A minus B, chips per seat per deal, over both seatings of one deck seed."""
    n = rules.players
    total = 0.0
    for flip in (0, 1):
        bots = [a if (seat + flip) % 2 == 0 else b for seat in range(n)]
        delta = play_deal(rules, bots, seed, f"{flip}")
        mine = [delta[s] for s in range(n) if bots[s] is a]
        theirs = [delta[s] for s in range(n) if bots[s] is b]
        total += sum(mine) / len(mine) - sum(theirs) / len(theirs)
    return total / 2


def summary(values: list[float]) -> dict:
    k = len(values)
    mean = sum(values) / k if k else 0.0
    var = sum((v - mean) ** 2 for v in values) / (k - 1) if k > 1 else 0.0
    half = 1.96 * math.sqrt(var / k) if k > 1 else float("inf")
    return {"seeds": k, "deals": 2 * k, "diff": round(mean, 4), "ci95": round(half, 4),
            "significant": abs(mean) > half}


def make(kind: str, rules: Rules, iterations: int | None, ms: float | None):
    if kind == "mcts":
        return MctsBot(rules, **({"iterations": iterations} if iterations else {}), ms=ms)
    return make_bot(kind, rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="bot kind A (random, rule, heuristic, mcts)")
    parser.add_argument("b", help="bot kind B")
    parser.add_argument("--variant", default="khrap")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=2000, help="deals in all, two per deck seed")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this much time")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=None, help="mcts playouts per decision")
    parser.add_argument("--ms", type=float, default=None, help="mcts time per decision")
    parser.add_argument("--out", default=None, help="append JSON progress lines here")
    parser.add_argument("--every", type=int, default=100, help="report every this many seeds")
    args = parser.parse_args()
    rules = Rules(load_variant(args.variant), args.players)
    a = make(args.a, rules, args.iterations, args.ms)
    b = make(args.b, rules, args.iterations, args.ms)
    values: list[float] = []
    start = time.perf_counter()
    head = {"a": args.a, "b": args.b, "variant": args.variant, "players": args.players,
            "iterations": args.iterations, "ms": args.ms, "first_seed": args.first_seed}

    def report(final: bool = False) -> None:
        row = {**head, **summary(values), "seconds": round(time.perf_counter() - start, 1), "final": final}
        line = json.dumps(row)
        print(line, flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(line + "\n")

    for seed in range(args.first_seed, args.first_seed + args.deals // 2):
        values.append(seed_value(rules, a, b, seed))
        if len(values) % args.every == 0:
            report()
        if args.seconds is not None and time.perf_counter() - start > args.seconds:
            break
    report(final=True)


if __name__ == "__main__":
    sys.exit(main())
