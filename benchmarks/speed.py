"""Speed report: the kernel against bare hand-written loops, with bots, and `khrap simulate` on 1 and 2 workers.

    python benchmarks/speed.py [--seconds 0.5] [--rounds 5] [--variant khrap ...] [--sim-deals 10000] [--json]

In one run, on this machine, each figure the median of ``--rounds`` measurements taken in turn
(bare loop, bare machine, GameState, ...) so that a change in the machine's speed
during the run hits every column alike:
- bare: deals/s of benchmarks/bare_loop.py (a Frap-like deal with no exchange, hand-written);
- bare khrap: deals/s of benchmarks/bare_khrap.py (classic Khrap's random deal, hand-written);
- khrap by hand, interface: deals/s of benchmarks/interface_khrap.py (the same deal by hand, but
  behind the compiled machine's interface: the kernel's shuffle and chooser, the machine's option
  lists, the record's facts; it plays the machine's very deals): a practical ceiling for an engine
  behind that interface;
- per variant, 4 players: random-playout deals/s of the one kernel three ways: a bare machine
  (column ``machine``, JSON key ``compiled``: ``Machine.play_deal``, events off, its fast branches:
  what `khrap simulate` plays for random bots), ``GameState`` (column ``checked``, JSON key
  ``reference``: legal and apply at each decision, every action checked, events on), and a game
  driven step by step through ``GameState`` (``stepped``: the typed seat view of the seat to act, what the
  default bots read, then legal and apply; ``observed``: the same with the observation dict, what a screen or
  an outside program reads, instead of the typed view), each with its ratio to the bare loop
  (the median of the ratios of each round), and deals/s with the strongest bot available at
  every seat (`heuristic` when the bots offer it, else `rule`; through GameState);
- frap-simple: frap cut down to the bare loop's game (no blind frap, no buying, no cut, one
  bidding round, no penalties), so that the ratio compares like with like;
- simulate: `khrap simulate` throughput (records and statistics included) with 1 and 2 worker
  processes, the speed-up (process start-up excluded), the ceiling this machine allows (two
  processes of the compiled machine at once against one), and 1 worker against the machine
  alone, each the median of ``--rounds`` rounds of ``--sim-deals`` deals taken in turn.
Absolute figures drift on shared machines: compare figures of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import bare_khrap
import bare_loop
import interface_khrap
from random_playout import compiled_rate, reference_rate, stepped_rate

from khrap.bots import KINDS, RandomBot, make_bot
from khrap.engine import GameState, Rules
from khrap.kernel_build import kernel_label
from khrap.sim import SimSpec, simulate
from khrap.sim.pool import LocalWorkers, process_context
from khrap.variant.catalog import builtin, builtin_names
from khrap.variant.schema import Variant

PLAYERS = 4


def bot_kind() -> str:
    return "heuristic" if "heuristic" in KINDS else "rule"


def with_bots(variant: Variant, kind: str, seconds: float, seed: int = 1) -> float:
    """Whole deals per second with a ``kind`` bot at every seat (each reads its observation)."""
    rules = Rules(variant, PLAYERS)
    bots = [make_bot(kind, rules) for _ in range(PLAYERS)]
    state = GameState(rules, PLAYERS, seed=seed)
    rng = random.Random(seed)
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state.log.clear()
        if state.session_over:
            state = GameState(rules, PLAYERS, seed=seed + deals)
        state.start_deal()
        while state.pending is not None:
            seat = state.pending.seat
            obs = {"seat": seat} if type(bots[seat]) is RandomBot else state.observation(seat)
            state.apply(bots[seat].choose(obs, state.legal_actions(), rng))
            if time.perf_counter() - start > 30 * seconds:
                raise RuntimeError(f"{kind} bots: one deal of {variant.name['en']} took over {30 * seconds:.0f} s")
        deals += 1
    return deals / (time.perf_counter() - start)


def in_turn(rounds: int, measures: dict[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Each measure ``rounds`` times, taken in turn (a, b, c, a, b, c, ...)."""
    found: dict[str, list[float]] = {key: [] for key in measures}
    for _ in range(rounds):
        for key, measure in measures.items():
            found[key].append(measure())
    return found


def median_ratio(top: list[float], bottom: list[float]) -> float:
    return statistics.median(a / b for a, b in zip(top, bottom, strict=True))


def frap_simple() -> Variant:
    """Frap cut down to the bare loop's game."""
    data = builtin("frap").model_dump(mode="json")
    data["calls"]["blind-frap"]["enabled"] = False
    data["stages"] = [s for s in data["stages"] if s["id"] in ("bidding", "whist", "play")]
    data["all_pass"] = {"rounds": 1, "turn_up": False, "round_ante": 0, "last_ante": 0, "redeal_ante": "normal"}
    data["settlement"]["penalties"] = []
    return Variant.model_validate(data)


def sim_speedup(name: str, deals: int, rounds: int) -> dict:
    """`khrap simulate` on 1 and 2 workers, and the compiled machine alone, measured in turn ``rounds`` times.

    Each round simulates ``deals`` deals on 1 worker and on 2 (a pool started once), then plays the
    machine alone in one process, then in two processes at once, each for as long as the 1-worker
    run took.  Figures are medians over the rounds (of each round's ratio, for ratios):
    - ``speedup``: 2 workers ÷ 1 worker;
    - ``ceiling``: two processes of the machine alone ÷ one, what this machine's two cores allow
      right now (below 2 when they share caches or a physical core, or other work runs);
    - ``one_to_machine``: 1 worker ÷ the machine alone, what a deal's record, its statistics and
      the chunks cost on top of the deal;
    - CPU seconds per 1000 deals on 1 and 2 workers."""
    variant = builtin(name)
    spec = SimSpec.make(variant, PLAYERS, "random", seed=1, deals=deals)
    got: dict[str, list[float]] = {key: [] for key in ("one", "two", "alone", "pair", "cpu_one", "cpu_two")}
    same = True
    with LocalWorkers(2) as pool, ProcessPoolExecutor(2, mp_context=process_context()) as pair:
        list(pair.map(compiled_rate, [variant] * 2, [PLAYERS] * 2, [0.01] * 2))  # both processes up
        warm_up = SimSpec.make(variant, PLAYERS, "random", seed=2, deals=200)
        simulate(warm_up, workers=1)  # the variant compiled in this process before the clock runs
        simulate(warm_up, pool=pool)  # and in the workers
        for _ in range(rounds):
            a = simulate(spec, workers=1)
            b = simulate(spec, pool=pool)
            same = same and a.stats == b.stats
            got["alone"].append(compiled_rate(variant, PLAYERS, a.seconds))
            got["pair"].append(sum(pair.map(compiled_rate, [variant] * 2, [PLAYERS] * 2, [a.seconds] * 2)))
            for key, value in (("one", a.deals_per_second), ("two", b.deals_per_second),
                               ("cpu_one", a.cpu_seconds), ("cpu_two", b.cpu_seconds)):
                got[key].append(value)
    return {"variant": name, "deals": deals, "rounds": rounds,
            "one_worker": round(statistics.median(got["one"]), 1),
            "two_workers": round(statistics.median(got["two"]), 1),
            "speedup": round(median_ratio(got["two"], got["one"]), 2),
            "ceiling": round(median_ratio(got["pair"], got["alone"]), 2),
            "machine_alone": round(statistics.median(got["alone"]), 1),
            "one_to_machine": round(median_ratio(got["one"], got["alone"]), 3),
            "cpu_s_per_1000_one": round(1000 * statistics.median(got["cpu_one"]) / deals, 3),
            "cpu_s_per_1000_two": round(1000 * statistics.median(got["cpu_two"]) / deals, 3),
            "same_numbers": same, "load_average": [round(x, 2) for x in os.getloadavg()]}


def variant_row(name: str, variant: Variant, seconds: float, rounds: int, bots: str | None) -> dict:
    """A bare machine, GameState and the stepped game on ``variant``, in turn with the bare loop."""
    got = in_turn(rounds, {
        "bare": lambda: bare_loop.deals_per_second(seconds),
        "compiled": lambda: compiled_rate(variant, PLAYERS, seconds),
        "reference": lambda: reference_rate(variant, PLAYERS, seconds),
        "stepped": lambda: stepped_rate(variant, PLAYERS, seconds),
        "observed": lambda: stepped_rate(variant, PLAYERS, seconds, read="dict"),
    })
    row = {"variant": name,
           "compiled": round(statistics.median(got["compiled"]), 1),
           "compiled_to_bare": round(median_ratio(got["compiled"], got["bare"]), 3),
           "reference": round(statistics.median(got["reference"]), 1),
           "reference_to_bare": round(median_ratio(got["reference"], got["bare"]), 3),
           "stepped": round(statistics.median(got["stepped"]), 1),
           "stepped_to_bare": round(median_ratio(got["stepped"], got["bare"]), 3),
           "observed": round(statistics.median(got["observed"]), 1),
           "observed_to_bare": round(median_ratio(got["observed"], got["bare"]), 3),
           "bare": round(statistics.median(got["bare"]), 1)}
    if bots:
        row[bots] = round(with_bots(variant, bots, seconds * rounds / 2), 1)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="time per measurement (default 0.5)")
    parser.add_argument("--rounds", type=int, default=5, help="measurements per figure, taken in turn (default 5)")
    parser.add_argument("--variant", action="append", help="a built-in variant (default: all)")
    parser.add_argument("--no-bots", action="store_true", help="skip the strongest bot's column")
    parser.add_argument("--sim-variant", default="khrap", help="variant of the workers measurement")
    parser.add_argument("--sim-deals", type=int, default=10000,
                        help="deals of each run of the workers measurement, taken --rounds times (0: skip)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, flush=True))
    kind = None if args.no_bots else bot_kind()
    yard = in_turn(args.rounds, {"bare": lambda: bare_loop.deals_per_second(args.seconds),
                                 "bare_khrap": lambda: bare_khrap.deals_per_second(args.seconds),
                                 "interface_khrap": lambda: interface_khrap.deals_per_second(args.seconds)})
    out: dict = {"bare": round(statistics.median(yard["bare"]), 1), "bot": kind, "kernel": kernel_label()}
    say(f"kernel: {out['kernel']} (python -m khrap.kernel_build; docs/compiled.md)")
    for key in ("bare_khrap", "interface_khrap"):
        out[key] = round(statistics.median(yard[key]), 1)
        out[f"{key}_to_bare"] = round(median_ratio(yard[key], yard["bare"]), 3)
    say(f"bare Frap-like loop  {out['bare']:10.1f} deals/s")
    say(f"bare khrap loop      {out['bare_khrap']:10.1f} deals/s ({out['bare_khrap_to_bare']:.3f} of the bare loop)")
    say(f"khrap by hand behind the machine's interface {out['interface_khrap']:10.1f} deals/s "
        f"({out['interface_khrap_to_bare']:.3f} of the bare loop)")
    say(f"{'variant':<16}{'machine':>10}{'÷ bare':>9}{'checked':>11}{'÷ bare':>9}{'stepped':>10}{'÷ bare':>9}"
        f"{'observed':>10}{'÷ bare':>9}{kind or '':>12}")
    rows = []
    tables = [(name, builtin(name)) for name in args.variant or builtin_names()] + [("frap-simple", frap_simple())]
    for name, variant in tables:
        row = variant_row(name, variant, args.seconds, args.rounds, kind if name != "frap-simple" else None)
        rows.append(row)
        bots = f"{row[kind]:12.1f}" if kind and kind in row else ""
        say(f"{name:<16}{row['compiled']:10.1f}{row['compiled_to_bare']:9.3f}{row['reference']:11.1f}"
            f"{row['reference_to_bare']:9.3f}{row['stepped']:10.1f}{row['stepped_to_bare']:9.3f}"
            f"{row['observed']:10.1f}{row['observed_to_bare']:9.3f}{bots}")
    out["variants"] = rows
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    say(f"load average {out['load_average']} on {os.cpu_count()} cores (a figure is worth what the load let it be)")
    if args.sim_deals:
        out["simulate"] = sim_speedup(args.sim_variant, args.sim_deals, args.rounds)
        s = out["simulate"]
        say(f"khrap simulate {s['variant']}, {s['deals']} deals, {s['rounds']} rounds: 1 worker {s['one_worker']} "
            f"deals/s, 2 workers {s['two_workers']} deals/s, speed-up {s['speedup']}x, same numbers: "
            f"{s['same_numbers']}")
        say(f"  two processes of the machine alone against one, the ceiling of 2 workers now: {s['ceiling']}x")
        say(f"  1 worker against the machine alone ({s['machine_alone']} deals/s): {s['one_to_machine']:.3f}")
        say(f"  CPU s per 1000 deals: 1 worker {s['cpu_s_per_1000_one']}, 2 workers {s['cpu_s_per_1000_two']}; "
            f"load average {s['load_average']} on {os.cpu_count()} cores")
    if args.json:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
