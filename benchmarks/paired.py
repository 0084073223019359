"""How `khrap analyze` scales with --workers: a paired run of two variants on 1 and on N processes.

    python benchmarks/paired.py --deals 4000 --bots heuristic --workers 2

Prints deals per second (every variant's deals counted) for one worker and for N, their ratio, the CPU time
of the chunks, and the load average of the machine before each run (other work on the cores lowers the ratio).
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
        rows[workers] = {"seconds": result.seconds, "deals_per_second": deals / result.seconds,
                         "cpu_seconds": sum(r.cpu_seconds for r in result.results[:1]), "load_before": load}
    ratio = rows[args.workers]["deals_per_second"] / rows[1]["deals_per_second"]
    print(json.dumps({"deals": args.deals, "variants": args.variants, "bots": args.bots, "runs": rows,
                      f"speedup_{args.workers}_workers": ratio}, indent=2))


if __name__ == "__main__":
    main()
