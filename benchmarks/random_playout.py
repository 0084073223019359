"""Random-playout speed: whole deals per second, uniformly random legal actions, one core.

    python benchmarks/random_playout.py [--seconds 3] [--players 4] [--variant khrap ...] [--reference] [--json]

Each deal includes its ante, deal, bidding (with all-pass rounds), exchange and play.  There is one
kernel; by default the deals are played by a bare machine (``khrap.engine.compiled.Machine``, events
off, its fast branches: what ``khrap simulate`` uses for random bots); ``--reference`` plays them
through its public face ``GameState`` instead (every action checked, events on).  Both choose with
the same seeded generator and play the same deals.  Absolute figures drift on shared machines:
compare runs made on the same machine (``speed.py`` measures ratios to a bare loop in one run).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from khrap.engine import GameState, Rules
from khrap.engine.compiled import Machine, Program
from khrap.engine.randomness import chooser
from khrap.engine.view import seat_view
from khrap.variant.catalog import builtin, builtin_names
from khrap.variant.schema import Variant


def compiled_rate(variant: Variant, players: int, seconds: float, seed: int = 1) -> float:
    """Deals per second of the compiled machine, uniform random legal actions."""
    machine = Machine(Program(Rules(variant, players)), seed=seed)
    choose = chooser(random.Random(seed))
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if machine.session_over:  # a table without debts that nobody can open: a new session
            machine = Machine(machine.program, seed=seed + deals)
        machine.play_deal(choose)
        deals += 1
    return deals / (time.perf_counter() - start)


def reference_rate(variant: Variant, players: int, seconds: float, seed: int = 1) -> float:
    """Deals per second of GameState (every action checked, events on), uniform random legal actions (the log
    cleared each deal)."""
    rules = Rules(variant, players)
    state = GameState(rules, players, seed=seed)
    choose = chooser(random.Random(seed))
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.session_over:
            state = GameState(rules, players, seed=seed + deals)
        state.log.clear()
        state.start_deal()
        while state.pending is not None:
            state.apply(choose(state.legal_actions()))
        deals += 1
    return deals / (time.perf_counter() - start)


def stepped_rate(variant: Variant, players: int, seconds: float, seed: int = 1, read: str = "view") -> float:
    """Deals per second of a game driven step by step through ``GameState``: at each decision what the seat to
    act sees (events on), the legal actions, and one applied at random.  ``read``: what the seat reads, its typed
    seat view (``"view"``, ``engine.view.seat_view``: what the default bots read) or the observation dict
    (``"dict"``, ``GameState.observation``: what a screen or a program outside reads)."""
    rules = Rules(variant, players)
    state = GameState(rules, players, seed=seed)
    choose = chooser(random.Random(seed))
    play = READERS[read]
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.session_over:
            state = GameState(rules, players, seed=seed + deals)
        play(state, choose)
        deals += 1
    return deals / (time.perf_counter() - start)


def stepped_deal(state: GameState, choose) -> None:
    """One deal driven step by step, the seat to act reading its typed seat view at each decision (``stepped_rate``;
    benchmarks/deal_count.py counts its instructions)."""
    state.log.clear()
    state.start_deal()
    while state.pending is not None:
        seat_view(state, state.pending.seat)
        state.apply(choose(state.legal_actions()))


def observed_deal(state: GameState, choose) -> None:
    """``stepped_deal`` with the observation dict read at each decision instead of the typed view."""
    state.log.clear()
    state.start_deal()
    while state.pending is not None:
        state.observation(state.pending.seat)
        state.apply(choose(state.legal_actions()))


READERS = {"view": stepped_deal, "dict": observed_deal}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per variant (default 3)")
    parser.add_argument("--players", type=int, default=4, help="players per table (clamped to the variant's range)")
    parser.add_argument("--variant", action="append", help="a built-in variant (default: all)")
    parser.add_argument("--reference", action="store_true", help="play through GameState (checked, events on)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    rate_of = reference_rate if args.reference else compiled_rate
    engine = "reference" if args.reference else "compiled"
    rows = []
    for name in args.variant or builtin_names():
        variant = builtin(name)
        players = min(max(args.players, variant.players.min), variant.players.max)
        rate = rate_of(variant, players, args.seconds)
        rows.append({"variant": name, "players": players, "engine": engine, "deals_per_second": round(rate, 1)})
        if not args.json:
            print(f"{name:<15} {players} players  {rate:10.1f} deals/s ({engine})", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
