"""The strong bot's speed: deals a CPU second with the strong bot at every seat (issue 29: the aim is 20).

    python benchmarks/strong_speed.py [--variant khrap] [--players 4] [--deals 6] [--first-seed 0] [--json]
                                      [--by-kind] [--decisions FILE] [--samples FILE] [--ungated]

Deals from a fresh table (deal ``s`` from seed ``s``, the dealer ``s mod players``), the bots untimed
(``SearchBot(timed=False)``: the work budget is every decision's stop, so the work and the choices are a
function of the seeds whatever the machine's load; the CPU time a decision takes still grows on a loaded
machine).  It prints deals, actions, CPU seconds, deals a CPU second, and a digest of every action taken:
two versions of the bot with the same digest made the same choices; and which code ran (``kernel``: plain, or
compiled by mypyc with the bot's solver, docs/compiled.md).  ``--by-kind`` also prints, per kind of
decision (calls, exchanges, discards, cards by the cards left in the hands), how many there were, their CPU
seconds, how many were searched (not gated: ``SearchBot.choose``) and how many the search overrode (the
bot's choice not its prior's): where the time goes, and what it buys.  ``--samples FILE`` writes one JSON line per
searched decision with its samples one by one (each candidate's value, the sample's weight, the rivals still
tried after it, the work left), the prior's index and the variant's ``min_effective``: a stop rule can be replayed
on them without playing again (docs/solver.md, "Where an exchange's work goes").  Not a CI test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from typing import TextIO

from khrap.bots import choose_for
from khrap.bots.search import SearchBot
from khrap.engine import GameState, Rules
from khrap.kernel_build import kernel_kind
from khrap.variant.catalog import load_variant


def kind_of(state: GameState) -> str:
    """The kind of the decision ``state`` waits for: a card by the cards in the hand of the seat to play (khrap's
    first trick is "cards, 8 in hand"), an exchange, a discard, or a call (any other decision)."""
    word = state.legal_actions()[0].word
    if word == "play":
        return f"cards, {len(state.hands[state.to_act])} in hand"
    return word if word in ("exchange", "discard") else "calls"


def best_gain(last: dict) -> float | None:
    """The search's estimated gain of its best rival over the prior's choice (chips, the weighted mean on its
    samples; what an override bought by its own reckoning), None where nothing was searched."""
    means = last.get("means")
    return None if not means or len(means) < 2 else round(max(means), 4)  # (the prior's own gain is 0)


def best_rank(last: dict) -> int | None:
    """Where the search's choice stood among its candidates (0: the prior's own; exchanges are ranked by the
    prior's values after it), None where nothing was searched."""
    means = last.get("means")
    return None if not means else (means.index(max(means)) if last.get("overrode") else 0)


def measure(variant: str, players: int, deals: int, first_seed: int, by_kind: bool = False,
            decisions: TextIO | None = None, gated: bool = True, samples: TextIO | None = None) -> dict:
    """Play ``deals`` deals with the untimed strong bot at every seat; the figures (``by_kind``: per kind of
    decision too, each decision timed on its own; ``decisions``: one JSON line there per decision the bot
    weighed, searched or gated; ``gated=False``: the bot without its gate)."""
    rules = Rules(load_variant(variant), players)
    bots = [SearchBot(rules, timed=False, gated=gated) for _ in range(players)]
    for bot in bots:
        bot.margins = decisions is not None  # (each decision's margin, for the file)
    by_kind = by_kind or decisions is not None
    digest, actions = hashlib.sha1(), 0
    kinds: dict[str, list] = {}  # kind -> [decisions, CPU seconds, searched, overridden]
    start = time.process_time()
    for seed in range(first_seed, first_seed + deals):
        state = GameState(rules, players, dealer=seed % players, seed=seed)
        state.start_deal()
        step = 0
        while state.pending is not None:
            bot = bots[state.to_act]
            if by_kind:
                kind, bot.last, began = kind_of(state), {}, time.process_time()
            if samples is not None:
                bot.trace = []
            action = choose_for(bot, state, random.Random(f"strong-speed:{seed}:{step}"))
            if samples is not None and bot.trace:
                samples.write(json.dumps({
                    "seed": seed, "step": step, "kind": kind_of(state), "prior": bot.last.get("prior"),
                    "min_effective": bot.est.k.min_effective, "overrode": bool(bot.last.get("overrode")),
                    "samples": [[row, weight, alive, left] for row, weight, alive, left in bot.trace]}) + "\n")
            if by_kind:
                row = kinds.setdefault(kind, [0, 0.0, 0, 0])
                row[0] += 1
                row[1] += time.process_time() - began
                row[2] += bool(bot.last) and not bot.last.get("gated")  # (gated: the prior far ahead, not searched)
                row[3] += bool(bot.last.get("overrode"))
                if decisions is not None and bot.last:
                    decisions.write(json.dumps({
                        "seed": seed, "step": step, "kind": kind, "margin": bot.last.get("margin"),
                        "gated": bool(bot.last.get("gated")), "overrode": bool(bot.last.get("overrode")),
                        "samples": bot.last.get("samples"), "gain": best_gain(bot.last),
                        "candidates": len(bot.last.get("means") or ()), "rank": best_rank(bot.last),
                        "work": bot.last.get("work"), "early_gain": bot.last.get("early_gain"),
                        "early_work": bot.last.get("early_work"), "won": bot.last.get("won"),
                        "cpu": round(time.process_time() - began, 4)}) + "\n")
            digest.update(repr(action).encode())
            state.apply(action)
            step += 1
        actions += step
    cpu = time.process_time() - start
    found = {"kernel": kernel_kind(), "variant": variant, "players": players, "deals": deals, "first_seed": first_seed,
             "actions": actions,
             "cpu_seconds": round(cpu, 2), "deals_per_cpu_second": round(deals / cpu, 3) if cpu else None,
             "digest": digest.hexdigest()[:12]}
    if by_kind:
        found["kinds"] = {k: {"decisions": n, "cpu_seconds": round(t, 2), "searched": s, "overridden": o}
                          for k, (n, t, s, o) in sorted(kinds.items(), key=lambda kv: -kv[1][1])}
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="khrap")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--by-kind", action="store_true", help="per kind of decision too: CPU, searches, overrides")
    parser.add_argument("--decisions", default=None,
                        help="append one JSON line per decision weighed here: seed, step, kind, the prior's margin "
                             "(SearchBot.prior_margin), gated, overrode, samples, the best rival's estimated gain, "
                             "the work, the best rival's gain and the work after the first 6 samples, CPU seconds")
    parser.add_argument("--samples", default=None,
                        help="append one JSON line per searched decision with its samples one by one (each candidate's "
                             "value, the weight, the rivals still tried, the work left), to replay stop rules on")
    parser.add_argument("--ungated", action="store_true", help="the bot without its gate (every call searched)")
    args = parser.parse_args(argv)
    out = open(args.decisions, "a", encoding="utf-8") if args.decisions else None  # noqa: SIM115
    trace = open(args.samples, "a", encoding="utf-8") if args.samples else None  # noqa: SIM115
    try:
        found = measure(args.variant, args.players, args.deals, args.first_seed, args.by_kind, out, not args.ungated,
                        trace)
    finally:
        for file in (out, trace):
            if file is not None:
                file.close()
    if args.json:
        print(json.dumps(found))
    else:
        print(f"{found['variant']}, {found['players']} strong seats ({found['kernel']}): {found['deals']} deals, "
              f"{found['actions']} actions, {found['cpu_seconds']} s CPU, "
              f"{found['deals_per_cpu_second']} deals a CPU second (choices {found['digest']})")
        for kind, row in found.get("kinds", {}).items():
            print(f"  {kind}: {row['decisions']} decisions, {row['cpu_seconds']} s CPU, {row['searched']} searched, "
                  f"{row['overridden']} overridden")


if __name__ == "__main__":
    main()
