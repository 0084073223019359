"""What the strong bot's overrides are worth against the normal bot, on the real decks of the strength protocol.

    python benchmarks/override_worth.py VARIANT [--first-seed 300000] [--seeds 2] [--session 5] [--ms 5000]
                                                [--json FILE] [--ungated] [--check RECORDS]
    python benchmarks/override_worth.py VARIANT --table FILE

Plays strong against normal exactly as ``benchmarks/strength.py strong normal`` does (the same decks, seatings,
sessions and decision seeds, so the same deals and choices; each deal's changes are checked against a
``--records`` file given with ``--check``).  At every decision where the strong bot's choice is not its prior's
(the normal bot's: an override), both are played on from that point on the real cards, every seat then played
by the normal bot (one continuation each, the same luck): the override's worth is the deciding seat's chips at
the deal's end with the override less with the prior's choice (``seat``), and the same for the strong seats'
mean less the normal seats' (``side``, the duplicate measure's view of one decision).  The chips left in the
pot are counted apart (``pot``).  Printed per kind of decision (calls by the prior's word and the override's,
cards by the cards in hand): overrides, their mean worth and its 95 % interval.  The continuation is the
normal bot's, not the table's (a strong seat after the decision plays as the normal one), so a worth is the
override's on these cards and this play, not the strong bot's whole gain.  Not a CI test (issue 29).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import arrangements, carried, session_deck, session_ends  # noqa: E402
from strong_speed import kind_of  # noqa: E402

from khrap.bots import choose_for  # noqa: E402
from khrap.bots.heuristic import HeuristicBot  # noqa: E402
from khrap.bots.search import SearchBot  # noqa: E402
from khrap.engine import Action, GameState, Rules  # noqa: E402
from khrap.variant.catalog import load_variant  # noqa: E402


def deltas(state: GameState, before: list[int]) -> list[int]:
    """Each seat's change in chips over the deal (a stake still locked counts as its own)."""
    return [a + lock - b for a, lock, b in zip(state.stacks, state.locked, before, strict=True)]


def play_on(state: GameState, action: Action, normal: HeuristicBot, tag: str) -> GameState:
    """A copy of ``state`` with ``action`` applied, played to the deal's end by the normal bot at every seat."""
    sim = state.clone()
    sim.apply(action)
    step = 0
    while sim.pending is not None:
        sim.apply(choose_for(normal, sim, random.Random(f"override-worth:{tag}:{step}")))
        step += 1
    return sim


def side(change: list[int], strong_seats: list[bool]) -> float:
    """The strong seats' mean change less the normal seats' (the duplicate measure of one deal)."""
    strong = [c for c, s in zip(change, strong_seats, strict=True) if s]
    weak = [c for c, s in zip(change, strong_seats, strict=True) if not s]
    return sum(strong) / len(strong) - sum(weak) / len(weak)


def label(state: GameState, default: Action, chosen: Action) -> str:
    """The decision's kind, and for a call the prior's word and the override's."""
    kind = kind_of(state)
    if kind == "calls":
        return f"calls: {default.word} -> {chosen.word}"
    return kind


def play_deal(rules: Rules, bots: list, strong_seats: list[bool], seed: int, tag: str, dealer: int,
              stacks: list[int], pot: int, deal: int, normal: HeuristicBot,
              found: list[dict]) -> tuple[GameState, list[int]]:
    """One deal of strength.py's protocol, and each seat's change of chips in it; every override's worth appended
    to ``found``."""
    state = GameState(rules, rules.players, dealer=dealer, stacks=stacks, pot=pot, seed=seed * 1000 + deal,
                      decks=[session_deck(rules, seed, deal)])
    before = list(state.stacks)
    state.start_deal()
    step = 0
    while state.pending is not None:
        bot, seat = bots[state.to_act], state.to_act
        rng = random.Random(f"strength:{tag}:{seed}:{deal}:{step}")
        saved = rng.getstate()
        if isinstance(bot, SearchBot):
            bot.last = {}  # (a decision it does not search leaves the last one's there)
        action = choose_for(bot, state, rng)
        if isinstance(bot, SearchBot) and bot.last.get("overrode"):
            again = random.Random()
            again.setstate(saved)
            default = bot.heuristic.choose(state.observation(seat), state.legal_actions(),
                                           random.Random(again.random()))
            worth = []
            for choice in (action, default):
                sim = play_on(state, choice, normal, f"{seed}:{tag}:{deal}:{step}")
                worth.append((deltas(sim, before), sim.pot))
            (mine, pot_mine), (prior, pot_prior) = worth
            found.append({"seed": seed, "arrangement": tag, "deal": deal, "step": step,
                          "kind": label(state, default, action), "prior": repr(default), "chosen": repr(action),
                          "samples": bot.last.get("samples"), "effective": round(bot.last.get("effective", 0), 1),
                          "seat": mine[seat] - prior[seat],
                          "side": side(mine, strong_seats) - side(prior, strong_seats),
                          "pot": pot_mine - pot_prior})
        state.apply(action)
        step += 1
    return state, deltas(state, before)  # (not an attribute set on the state: compiled, it has no instance dict)


def run(variant: str, first_seed: int, seeds: int, session: int, ms: float, gated: bool,
        check: dict | None, keep: Callable[[list[dict]], None] | None = None) -> list[dict]:
    """Every override of the strong bot in these seeds' sessions, with its worth (``keep``: each seed's, as it
    ends)."""
    rules = Rules(load_variant(variant), 4)
    strong, normal = SearchBot(rules, ms=ms, gated=gated), HeuristicBot(rules)
    found: list[dict] = []
    done = 0
    for seed in range(first_seed, first_seed + seeds):
        for i, seating in enumerate(arrangements(rules.players)):
            bots = [strong if s else normal for s in seating]
            chips, pot, dealer = [100] * rules.players, 0, seed % rules.players
            for d in range(session):
                state, result = play_deal(rules, bots, list(seating), seed, f"{i}", dealer, chips, pot, d, normal,
                                          found)
                want = (check or {}).get((seed, f"{i}", d))
                if want is not None and want != result:
                    print(f"seed {seed} arrangement {i} deal {d}: {result} != records {want}",
                          file=sys.stderr)
                chips, pot, dealer = carried(state)
                if session_ends(rules, state):  # (as strength.py: its deals exactly)
                    break
        if keep is not None:
            keep(found[done:])
        done = len(found)
        print(f"seed {seed}: {done} overrides so far", file=sys.stderr, flush=True)
    return found


def table(found: list[dict]) -> list[str]:
    """Per kind: overrides, the mean worth (side) with its 95 % interval, the seat's mean, the pot's."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in found:
        groups[row["kind"]].append(row)
    lines = []
    for kind, rows in sorted(groups.items(), key=lambda kv: sum(r["side"] for r in kv[1])):
        n = len(rows)
        xs = [r["side"] for r in rows]
        mean = sum(xs) / n
        half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n) if n > 1 else float("inf")
        lines.append(f"{kind}: {n} overrides, side {sum(xs):+.1f} in all, {mean:+.2f} ±{half:.2f} each; "
                     f"seat {sum(r['seat'] for r in rows) / n:+.2f}, pot {sum(r['pot'] for r in rows) / n:+.2f}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--first-seed", type=int, default=300000)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--session", type=int, default=5)
    parser.add_argument("--ms", type=float, default=5000.0, help="the strong bot's hard limit (as strength.py)")
    parser.add_argument("--ungated", action="store_true", help="the strong bot without its call gate")
    parser.add_argument("--check", default=None, help="a strength.py --records file: each deal's changes checked")
    parser.add_argument("--json", default=None, help="append every override here (a JSON line each) as each seed ends")
    parser.add_argument("--table", default=None, help="only print the table of a --json file (nothing played)")
    args = parser.parse_args(argv)
    if args.table:
        with open(args.table, encoding="utf-8") as f:
            print("\n".join(table([json.loads(line) for line in f])))
        return
    check = None
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            check = {(r["seed"], r["arrangement"], r["deal"]): r["delta"] for r in map(json.loads, f)}
    out = open(args.json, "a", encoding="utf-8") if args.json else None  # noqa: SIM115

    def keep(rows: list[dict]) -> None:
        if out is not None:
            out.writelines(json.dumps(r) + "\n" for r in rows)
            out.flush()

    try:
        found = run(args.variant, args.first_seed, args.seeds, args.session, args.ms, not args.ungated, check, keep)
    finally:
        if out is not None:
            out.close()
    print("\n".join(table(found)))


if __name__ == "__main__":
    main()
