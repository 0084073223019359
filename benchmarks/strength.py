"""Bot strength by duplicate matches: the same decks with bots A and B rotated through every seating.

    python benchmarks/strength.py A B [--variant khrap] [--players 4] [--deals N] [--session 5]
                                      [--arrangements all|alternate] [--seconds S] [--out FILE]
                                      [--records FILE] [--iterations K] [--ms MS] [--first-seed 0]
                                      [--workers N]
    python benchmarks/strength.py A B --pool R.jsonl [R2.jsonl ...] [--session 5] [--by-deal]

A **session** is ``--session`` deals played in a row at one table, as the
variant plays them: the stacks, the pot (carried over, antes only into an
empty pot where the variant says so) and the dealer pass from deal to deal.
Deal ``d`` of the session with seed ``s`` always starts from the same deck
(shuffled from ``s`` and ``d``; an all-pass redeal shuffles from them too), so
every seating plays the same cards.  A session stops early only where the
variant stops it (``session_ends``): a stack at or below zero is a debt where
the variant allows debts, and the evening goes on.

Each session seed is played once per **arrangement** of A and B on the seats:
with ``--arrangements all`` (the default) every way of giving A half the seats
(for an odd table, ``n // 2`` seats and ``n // 2 + 1`` seats alike, so each
seat is A's as often as B's); ``alternate`` is the older protocol, A at the
even seats, then at the odd ones.  The measure is A's chips per seat per deal
minus B's, averaged over the arrangements of a seed and the deals of its
session; the 95 % interval is 1.96 standard errors over seeds.  ``--deals``
counts deals in all (seeds x arrangements x session length); ``--seconds``
stops earlier.  ``--session 1 --arrangements alternate`` is the old measure
(every deal from an empty pot).  Progress (a JSON line per report) is appended
to ``--out``; ``--records`` appends one JSON line per deal played (seed,
arrangement, deal, dealer, pot before, the deck, each seat's change).
``--workers N`` plays the seeds in N processes and takes their results in
seed order, so the figures (and the records) are the same whatever N, as long
as the bots' choices depend on the seed alone (the search bot's normal stop
is a work budget, not the clock: docs/solver.md).  ``--pool`` plays nothing:
it takes the seeds' values from ``--records`` files (several runs pooled; a
seed in two files counted once, its first) with the same arithmetic, and
``--by-deal`` adds each deal of the session on its own (its mean, interval
and spread over seeds: where a figure's noise comes from).  Not a CI test.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable

from khrap.bots import choose_for, make_bot, strength_of
from khrap.bots.mcts import MctsBot
from khrap.bots.search import SearchBot
from khrap.engine import GameState, Rules
from khrap.variant.catalog import load_variant


def arrangements(n: int, kind: str = "all") -> list[tuple[bool, ...]]:
    """Seatings of A (True) and B: every balanced one, or the two alternating ones."""
    if kind == "alternate":
        return [tuple(s % 2 == flip for s in range(n)) for flip in (0, 1)]
    sizes = {n // 2, n - n // 2}
    return [tuple(s in chosen for s in range(n))
            for k in sorted(sizes) for chosen in itertools.combinations(range(n), k)]


def session_deck(rules: Rules, seed: int, deal: int) -> list[int]:
    """The first deck of deal ``deal`` in session ``seed`` (top card first), the same in every seating."""
    deck = list(rules.deck)
    random.Random(f"strength:deck:{seed}:{deal}").shuffle(deck)
    return deck


def play_deal(rules: Rules, bots: list, seed: int, tag: str, *, dealer: int | None = None,
              stacks: int | list[int] = 100, pot: int = 0, deal: int = 0,
              deck: list[int] | None = None) -> tuple[list[int], GameState]:
    """One deal at a table with these stacks, pot and dealer; each seat's change in chips, and the table."""
    n = rules.players
    state = GameState(rules, n, dealer=seed % n if dealer is None else dealer, stacks=stacks, pot=pot,
                      seed=seed * 1000 + deal, decks=[deck] if deck is not None else ())
    before = list(state.stacks)
    state.start_deal()
    step = 0
    while state.pending is not None:
        rng = random.Random(f"strength:{tag}:{seed}:{deal}:{step}")
        state.apply(choose_for(bots[state.to_act], state, rng))
        step += 1
    return [a + lock - b for a, lock, b in zip(state.stacks, state.locked, before, strict=True)], state


def carried(state: GameState) -> tuple[list[int], int, int]:
    """What a session carries from a deal to the next: the stacks, the pot and the next dealer (the kernel's,
    which reads the variant's ``next_dealer``; the dealer's left for a deal that did not reach its end)."""
    nxt = getattr(state, "next_dealer", None)
    return list(state.stacks), state.pot, nxt if nxt is not None else (state.dealer + 1) % len(state.stacks)


def session_ends(rules: Rules, state: GameState) -> bool:
    """Whether a session stops after this deal: where the kernel ends it (nobody can cover a call, a stack below
    the variant's minimum), and, where the variant allows no debts, once somebody is broke.  Where it allows
    them (``allow_debt``) a stack at or below zero is a debt on the score sheet and the evening goes on, as
    the variant plays it (a stop there cut the evenings of khrap-shoot, whose fines are pots, short)."""
    if getattr(state, "session_over", False):
        return True
    return not rules.variant.allow_debt and min(state.stacks) <= 0


def play_session(rules: Rules, bots: list, seed: int, deals: int, tag: str, stacks: int = 100,
                 record: Callable[[dict], None] | None = None) -> list[list[int]]:
    """``deals`` deals in a row from a fresh table: stacks, pot and dealer carried; each deal's changes."""
    n = rules.players
    chips: list[int] = [stacks] * n
    pot, dealer = 0, seed % n
    out = []
    for d in range(deals):
        deck = session_deck(rules, seed, d)
        delta, state = play_deal(rules, bots, seed, tag, dealer=dealer, stacks=chips, pot=pot, deal=d, deck=deck)
        if record is not None:
            record({"seed": seed, "arrangement": tag, "deal": d, "dealer": dealer, "pot": pot,
                    "deck": state.decks_dealt[0], "delta": delta})
        out.append(delta)
        chips, pot, dealer = carried(state)
        if session_ends(rules, state):
            break
    return out


def seed_value(rules: Rules, a, b, seed: int, session: int = 1, kind: str = "all",
               record: Callable[[dict], None] | None = None) -> float:
    """A minus B, chips per seat per deal, over every arrangement of one session seed."""
    total = 0.0
    seatings = arrangements(rules.players, kind)
    for i, seating in enumerate(seatings):
        bots = [a if is_a else b for is_a in seating]
        deltas = play_session(rules, bots, seed, session, f"{i}", record=record)
        mine = [sum(d[s] for d in deltas) for s in range(rules.players) if seating[s]]
        theirs = [sum(d[s] for d in deltas) for s in range(rules.players) if not seating[s]]
        total += (sum(mine) / len(mine) - sum(theirs) / len(theirs)) / session
    return total / len(seatings)


def values_from_records(rows: list[dict], players: int, session: int, kind: str = "all",
                        deal: int | None = None) -> dict[int, float]:
    """Each seed's A minus B, chips per seat per deal, from ``--records`` rows: as ``seed_value`` (a session
    that ended early still divides by ``session``); with ``deal``, that deal of the session alone."""
    seatings = arrangements(players, kind)
    sums: dict[int, list[list[int]]] = {}
    for row in rows:
        if deal is not None and row["deal"] != deal:
            continue
        per = sums.setdefault(row["seed"], [[0] * players for _ in seatings])
        chips = per[int(row["arrangement"])]
        for s, change in enumerate(row["delta"]):
            chips[s] += change
    out = {}
    for seed, per in sorted(sums.items()):
        total = 0.0
        for seating, chips in zip(seatings, per, strict=True):
            mine = [chips[s] for s in range(players) if seating[s]]
            theirs = [chips[s] for s in range(players) if not seating[s]]
            total += sum(mine) / len(mine) - sum(theirs) / len(theirs)
        out[seed] = total / len(seatings) / (1 if deal is not None else session)
    return out


def pooled(paths: list[str], players: int, session: int, kind: str, by_deal: bool) -> list[dict]:
    """``--pool``: the summary of every seed in these records files (a seed's rows from its first file only),
    then, with ``by_deal``, one per deal of the session with the spread of its seeds' values."""
    rows: list[dict] = []
    owner: dict[int, str] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    if owner.setdefault(row["seed"], path) == path:
                        rows.append(row)
    per_seed = len(arrangements(players, kind)) * session
    out = [{"deal": "all", **summary(list(values_from_records(rows, players, session, kind).values()), per_seed)}]
    for d in range(session if by_deal else 0):
        values = list(values_from_records(rows, players, session, kind, deal=d).values())
        spread = statistics.stdev(values) if len(values) > 1 else 0.0
        out.append({"deal": d, **summary(values, len(arrangements(players, kind))), "sd": round(spread, 4)})
    return out


def summary(values: list[float], per_seed: int = 2) -> dict:
    k = len(values)
    mean = sum(values) / k if k else 0.0
    var = sum((v - mean) ** 2 for v in values) / (k - 1) if k > 1 else 0.0
    half = 1.96 * math.sqrt(var / k) if k > 1 else float("inf")
    return {"seeds": k, "deals": per_seed * k, "diff": round(mean, 4), "ci95": round(half, 4),
            "significant": abs(mean) > half}


def make(kind: str, rules: Rules, iterations: int | None, ms: float | None):
    if kind == "mcts":
        return MctsBot(rules, **({"iterations": iterations} if iterations else {}), ms=ms)
    if kind == "ungated":  # the strong bot searching every decision, as before its gate (docs/solver.md)
        return SearchBot(rules, ms=ms, gated=False)
    if strength_of(kind) == "strong" and ms is not None:  # the hard limit only: its work budget is the normal stop
        return SearchBot(rules, ms=ms)
    return make_bot(kind, rules)


_JOB: dict = {}


def _start_worker(args: argparse.Namespace) -> None:
    rules = Rules(load_variant(args.variant), args.players)
    _JOB.update(args=args, rules=rules, a=make(args.a, rules, args.iterations, args.ms),
                b=make(args.b, rules, args.iterations, args.ms))


def _run_seed(seed: int) -> tuple[float, list[dict]]:
    """One seed in a worker process: its value and its records."""
    args, rows = _JOB["args"], []
    value = seed_value(_JOB["rules"], _JOB["a"], _JOB["b"], seed, args.session, args.arrangements,
                       rows.append if args.records else None)
    return value, rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="bot kind A (easy, normal, strong, or random, rule, heuristic, mcts, search; "
                                  "ungated: the strong bot searching every decision, without its gate)")
    parser.add_argument("b", help="bot kind B")
    parser.add_argument("--variant", default="khrap")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=2000, help="deals in all (seeds x arrangements x session)")
    parser.add_argument("--session", type=int, default=5, help="deals per session (pot carried over)")
    parser.add_argument("--arrangements", choices=("all", "alternate"), default="all")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this much time")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=None, help="mcts playouts per decision")
    parser.add_argument("--ms", type=float, default=None,
                        help="mcts: time per decision; search: its hard limit (large: the work budget alone stops "
                             "every decision, so a loaded machine plays the same bot as an idle one)")
    parser.add_argument("--out", default=None, help="append JSON progress lines here")
    parser.add_argument("--records", default=None, help="append one JSON line per deal here")
    parser.add_argument("--every", type=int, default=100, help="report every this many seeds")
    parser.add_argument("--workers", type=int, default=1, help="processes playing seeds (same results for any N)")
    parser.add_argument("--pool", nargs="+", default=None, metavar="RECORDS",
                        help="play nothing: the figure from these --records files (seeds pooled)")
    parser.add_argument("--by-deal", action="store_true", help="with --pool: each deal of the session apart too")
    args = parser.parse_args(argv)
    if args.pool:
        for row in pooled(args.pool, args.players, args.session, args.arrangements, args.by_deal):
            print(json.dumps({"a": args.a, "b": args.b, "variant": args.variant, **row}), flush=True)
        return
    per_seed = len(arrangements(args.players, args.arrangements)) * args.session
    values: list[float] = []
    start = time.perf_counter()
    head = {"a": args.a, "b": args.b, "variant": args.variant, "players": args.players,
            "iterations": args.iterations, "ms": args.ms, "first_seed": args.first_seed,
            "session": args.session, "arrangements": args.arrangements, "workers": args.workers}
    records = open(args.records, "a", encoding="utf-8") if args.records else None  # noqa: SIM115

    def report(final: bool = False) -> None:
        row = {**head, **summary(values, per_seed), "seconds": round(time.perf_counter() - start, 1),
               "final": final}
        line = json.dumps(row)
        print(line, flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(line + "\n")

    seeds = range(args.first_seed, args.first_seed + max(1, args.deals // per_seed))
    pool = None
    if args.workers > 1:
        pool = multiprocessing.get_context("spawn").Pool(args.workers, _start_worker, (args,))
        results = pool.imap(_run_seed, seeds)  # in seed order, whatever finishes first
    else:
        _start_worker(args)
        results = map(_run_seed, seeds)
    try:
        for value, rows in results:
            values.append(value)
            for row in rows:
                records.write(json.dumps(row) + "\n")
            if len(values) % args.every == 0:
                report()
            if args.seconds is not None and time.perf_counter() - start > args.seconds:
                break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if records:
            records.close()
    report(final=True)


if __name__ == "__main__":
    sys.exit(main())
