"""Play a fixed number of random deals and nothing else: what cachegrind counts instructions of.

    python benchmarks/deal_count.py {machine,stepped,observed,bare} DEALS [--variant khrap]

On a shared machine wall-clock and even CPU-time ratios scatter from run to run; an instruction count
does not (docs/compiled.md).  A deal's count is the difference between two runs, which cancels the
start-up (imports, the variant read and compiled), e.g. from ``benchmarks/``::

    PYTHONHASHSEED=0 PYTHONPATH=.. valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python deal_count.py machine 50      # then 350: (I refs of 350 - I refs of 50) / 300

``machine``: a bare machine (``Machine.play_deal``, 4 players, the random chooser), as ``kernel_cpu.py``
plays it; ``stepped``: ``GameState`` driven as ``random_playout.stepped_rate`` drives it (the typed seat view
of the seat to act, the legal actions, one applied); ``observed``: the same with the observation dict read
instead of the typed view; ``bare``: the bare loop (``bare_loop.py``), the
yardstick of every ratio.  ``PYTHONHASHSEED=0``: string hashes, and so a few set orders, are the same in
both runs.  Run it where ``khrap`` is the kernel to count: the tree (``PYTHONPATH``) or a compiled install.
"""

from __future__ import annotations

import argparse
import random

import bare_loop
from random_playout import observed_deal, stepped_deal

from khrap.engine import Rules
from khrap.engine.compiled import Machine
from khrap.engine.randomness import chooser
from khrap.engine.state import GameState
from khrap.variant.catalog import builtin

PLAYERS = 4


def machine_deals(name: str, deals: int, seed: int = 1) -> None:
    program = Rules(builtin(name), PLAYERS).program
    choose = chooser(random.Random(seed))
    machine = Machine(program, seed=seed)
    for deal in range(deals):
        if machine.session_over:
            machine = Machine(program, seed=seed + deal)
        machine.play_deal(choose)


def stepped_deals(name: str, deals: int, seed: int = 1, play=stepped_deal) -> None:
    rules = Rules(builtin(name), PLAYERS)
    choose = chooser(random.Random(seed))
    state = GameState(rules, PLAYERS, seed=seed)
    for deal in range(deals):
        if state.session_over:
            state = GameState(rules, PLAYERS, seed=seed + deal)
        play(state, choose)


def bare_deals(deals: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    stacks, pot, dealer = [100] * bare_loop.PLAYERS, 0, 0
    for _ in range(deals):
        pot = bare_loop.play_deal(rng, stacks, pot, dealer)
        dealer = (dealer + 1) % bare_loop.PLAYERS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["machine", "stepped", "observed", "bare"])
    parser.add_argument("deals", type=int)
    parser.add_argument("--variant", default="khrap", help="a built-in variant (default khrap)")
    args = parser.parse_args()
    if args.what == "bare":
        bare_deals(args.deals)
    elif args.what == "machine":
        machine_deals(args.variant, args.deals)
    elif args.what == "observed":
        stepped_deals(args.variant, args.deals, play=observed_deal)
    else:
        stepped_deals(args.variant, args.deals)


if __name__ == "__main__":
    main()
