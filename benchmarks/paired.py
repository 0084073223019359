"""How `khrap analyze` scales with --workers: a paired run of two variants on 1 and on N processes.

    python benchmarks/paired.py --deals 4000 --bots heuristic --workers 2

Prints deals per second (every variant's deals counted) for one worker and for N, their ratio, the CPU time
of the chunks and the cores it amounts to, and the load average of the machine before each run (other work on
the cores lowers the ratio); ``speedup_on_idle_cores`` is N times one worker's CPU time over N workers' (the
speed-up N idle cores would give, as the deals are the same work either way).
The pool's processes are started before the clock runs, as `khrap analyze` does.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from khrap.sim.paired import PairedSpec, simulate_paired
from khrap.sim.pool import LocalWorkers
from khrap.sim.runner import SimSpec
from khrap.variant.catalog import load_variant

HOUSE = Path(__file__).parents[1] / "docs" / "house-rules"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("variants", nargs="*", default=["khrap", str(HOUSE / "khrap-joker-cut.yaml")])
    args = parser.parse_args()
    pspec = PairedSpec.make([SimSpec.make(load_variant(v), 4, args.bots, args.seed, args.deals)
                             for v in args.variants])
    rows = {}
    for workers in (1, args.workers):
        load = os.getloadavg()[0]
        with LocalWorkers(workers) as pool:
            result = simulate_paired(pspec, pool=pool)
        deals = args.deals * len(args.variants)
        cpu = result.results[0].cpu_seconds  # a paired chunk's CPU time covers every variant's deals
        rows[workers] = {"seconds": result.seconds, "deals_per_second": deals / result.seconds,
                         "cpu_seconds": cpu, "cores_used": cpu / result.seconds, "load_before": load}
    ratio = rows[args.workers]["deals_per_second"] / rows[1]["deals_per_second"]
    # CPU per deal on N workers against one: what the speed-up would be on N idle cores (the work does not grow)
    bound = args.workers * rows[1]["cpu_seconds"] / rows[args.workers]["cpu_seconds"]
    print(json.dumps({"deals": args.deals, "variants": args.variants, "bots": args.bots, "runs": rows,
                      f"speedup_{args.workers}_workers": ratio, "speedup_on_idle_cores": bound}, indent=2))


if __name__ == "__main__":
    main()
