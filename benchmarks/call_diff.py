"""Where the strong bot's calls differ from the normal bot's, at the normal bot's own positions.

    python benchmarks/call_diff.py VARIANT [--first-seed 900] [--seeds 12] [--session 5] [--json FILE]

Normal self-play in sessions of ``--session`` deals (pot carried) on the decks of ``benchmarks/strength.py``.
At every call decision with a choice (after the look), the strong bot (``SearchBot(timed=False)``: its work
budget alone stops it, so the same choices at any load) is asked too; the normal bot's action is played.
Printed: per kind of decision (its legal words) and bidding round, how often each pair (normal's call,
strong's call) came up; then, per decision kind, how many of the normal bot's passes the strong bot turned
into each call, by the normal bot's own predicted margin of that call over the pass (in quarter pots).
``--json`` keeps every decision (hand, pot, both choices, the normal bot's values).  Not a CI test
(issue 29, frap's gap: docs/bots.md).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from call_gains import predicted  # noqa: E402
from strength import carried, session_deck  # noqa: E402

from khrap import words as w  # noqa: E402
from khrap.bots import choose_for  # noqa: E402
from khrap.bots.heuristic import HeuristicBot  # noqa: E402
from khrap.bots.search import SearchBot  # noqa: E402
from khrap.engine import GameState, Rules  # noqa: E402
from khrap.variant.catalog import load_variant  # noqa: E402


def gather(variant: str, first: int, seeds: int, session: int) -> list[dict]:
    rules = Rules(load_variant(variant), 4)
    normal, strong = HeuristicBot(rules), SearchBot(rules, timed=False)
    rows = []
    for seed in range(first, first + seeds):
        stacks, pot, dealer = [100] * 4, 0, seed % 4
        for d in range(session):
            state = GameState(rules, 4, dealer=dealer, stacks=stacks, pot=pot, seed=seed * 1000 + d,
                              decks=[session_deck(rules, seed, d)])
            state.start_deal()
            step = 0
            while state.pending is not None:
                rng = random.Random(f"diff:{seed}:{d}:{step}")
                legal = state.legal_actions()
                words = sorted({a.word for a in legal})
                mine = choose_for(normal, state, random.Random(rng.random()))
                if len(legal) > 1 and w.LOOK not in words and any(x in rules.calls for x in words):
                    theirs = choose_for(strong, state, random.Random(rng.random()))
                    rows.append({"seed": seed, "deal": d, "kind": "/".join(words), "round": state.round,
                                 "pot": state.pot, "normal": str(mine), "strong": str(theirs),
                                 "passed": mine.word in rules.calls and rules.calls[mine.word].effects.status == w.OUT,
                                 "hand": list(state.hands[state.to_act]), "values": predicted(normal, state)})
                state.apply(mine)
                step += 1
            stacks, pot, dealer = carried(state)  # (the next dealer as the kernel says: the variant's rule)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--first-seed", type=int, default=900)
    parser.add_argument("--seeds", type=int, default=12)
    parser.add_argument("--session", type=int, default=5)
    parser.add_argument("--json", default=None, help="write every decision here")
    args = parser.parse_args(argv)
    rows = gather(args.variant, args.first_seed, args.seeds, args.session)
    if args.json:
        Path(args.json).write_text(json.dumps(rows), encoding="utf-8")
    pairs = Counter((r["kind"], r["round"], r["normal"], r["strong"]) for r in rows)
    for (kind, round_, mine, theirs), count in sorted(pairs.items()):
        print(f"{kind:20s} round {round_}: normal {mine:12s} strong {theirs:12s} {count:5d}")
    turned: Counter = Counter()
    for r in rows:
        if not r["passed"] or r["normal"] not in r["values"]:
            continue
        for action, value in r["values"].items():
            if action != r["normal"]:
                quarter = math.floor(4 * (value - r["values"][r["normal"]]) / r["pot"])
                turned[(r["kind"], action, quarter, r["strong"] == action)] += 1
    print("normal's passes, by its predicted margin of each call over the pass (quarter pots): "
          "how many the strong bot turned into that call")
    for kind, action, quarter in sorted({k[:3] for k in turned}):
        yes, no = turned[(kind, action, quarter, True)], turned[(kind, action, quarter, False)]
        print(f"{kind:20s} {action:12s} {quarter / 4:+.2f} to {(quarter + 1) / 4:+.2f}: {yes:4d} of {yes + no:4d}")


if __name__ == "__main__":
    main()
