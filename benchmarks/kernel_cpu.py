"""The kernel against the bare loop in CPU time per deal, for comparing the plain and the compiled kernel.

    python benchmarks/kernel_cpu.py [--seconds 1] [--rounds 5] [--variant khrap ...] [--no-bots] [--json]

Like ``speed.py``'s variant rows, but each measurement counts deals over ``--seconds`` of this
process's CPU time (``time.process_time``), not of the wall clock, so that other work on a shared
machine slows neither side of a ratio.  In turn, ``--rounds`` times: the bare loop
(benchmarks/bare_loop.py, plain Python in either case) and a bare machine of each variant playing
random deals; each ratio is the median over the rounds.  Then the heuristic bot at every seat
(``speed.py``'s ``with_bots``, on the wall clock) for deals per second.  It says which kernel ran
(docs/compiled.md): run it once in a plain install and once in a compiled one.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import bare_loop
from speed import PLAYERS, bot_kind, with_bots

from khrap.engine import Rules
from khrap.engine.compiled import Machine
from khrap.engine.randomness import chooser
from khrap.kernel_build import kernel_label
from khrap.variant.catalog import builtin


def bare_cpu(seconds: float, seed: int = 1) -> float:
    """Deals of the bare loop per CPU second."""
    rng = random.Random(seed)
    stacks, pot, dealer, deals = [100] * bare_loop.PLAYERS, 0, 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        pot = bare_loop.play_deal(rng, stacks, pot, dealer)
        dealer = (dealer + 1) % bare_loop.PLAYERS
        deals += 1
    return deals / (time.process_time() - start)


def machine_cpu(name: str, seconds: float, seed: int = 1) -> float:
    """Random deals of a bare machine of ``name`` per CPU second."""
    machine = Machine(Rules(builtin(name), PLAYERS).program, seed=seed)
    choose = chooser(random.Random(seed))
    deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        if machine.session_over:
            machine = Machine(machine.program, seed=seed + deals)
        machine.play_deal(choose)
        deals += 1
    return deals / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU time per measurement (default 1)")
    parser.add_argument("--rounds", type=int, default=5, help="measurements per figure, taken in turn (default 5)")
    parser.add_argument("--variant", action="append", help="a built-in variant (default: khrap and frap)")
    parser.add_argument("--no-bots", action="store_true", help="skip the heuristic bot's deals per second")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    names = args.variant or ["khrap", "frap"]
    out: dict = {"kernel": kernel_label(), "seconds": args.seconds, "rounds": args.rounds, "variants": []}
    for name in names:
        bare: list[float] = []
        kernel: list[float] = []
        for _ in range(args.rounds):
            bare.append(bare_cpu(args.seconds))
            kernel.append(machine_cpu(name, args.seconds))
        row = {"variant": name, "bare": round(statistics.median(bare), 1), "deals": round(statistics.median(kernel), 1),
               "to_bare": round(statistics.median(k / b for k, b in zip(kernel, bare, strict=True)), 3)}
        if not args.no_bots:
            kind = bot_kind()
            row[kind] = round(with_bots(builtin(name), kind, args.seconds * args.rounds / 2), 1)
        out["variants"].append(row)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"kernel: {out['kernel']}; CPU time, {args.rounds} rounds of {args.seconds} s")
    for row in out["variants"]:
        bots = "".join(f", {k} bots {v} deals/s" for k, v in row.items() if k not in ("variant", "bare", "deals",
                                                                                       "to_bare"))
        print(f"{row['variant']:<10} {row['deals']:9.1f} deals/CPU s, bare loop {row['bare']:9.1f}: "
              f"{row['to_bare']:.3f} of the bare loop{bots}")


if __name__ == "__main__":
    main()
