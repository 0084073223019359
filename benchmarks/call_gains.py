"""What a call really gains over passing, against what the normal bot thinks it is worth.

    python benchmarks/call_gains.py VARIANT [--seats nnnn] [--first-seed 0] [--seeds 200] [--session 5]

Sessions of ``--session`` deals (pot carried) on the decks of ``benchmarks/strength.py``, with the normal bot
(``n``) or the easy one (``e``) at each seat as ``--seats`` says.  At every call decision of a normal seat with a
pass among its choices, every legal call is applied to a copy of the real deal (the same cards, the same luck)
and the deal is played out by the same bots; its gain over the pass in chips (the seat's stack and locked stake;
chips left in the pot count for nobody, as in the duplicate measure) is set beside the normal bot's own value of
that call less its value of passing.  Printed per call, by that predicted margin in quarter pots: how many
decisions, and the mean realized gain in pots with its 95 % interval.  A bot that values its calls right sees
the realized gain cross zero where its predicted margin does.  Not a CI test (issue 29: docs/bots.md).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import carried, session_deck  # noqa: E402

from khrap import words as w  # noqa: E402
from khrap.bots import choose_for  # noqa: E402
from khrap.bots.determinize import try_each  # noqa: E402
from khrap.bots.heuristic import HeuristicBot, info_from_view  # noqa: E402
from khrap.bots.position import worth  # noqa: E402
from khrap.bots.rule_bot import RuleBot  # noqa: E402
from khrap.engine import GameState, Rules  # noqa: E402
from khrap.engine.view import seat_view  # noqa: E402
from khrap.variant.catalog import load_variant  # noqa: E402


def predicted(bot: HeuristicBot, state: GameState) -> dict[str, float]:
    """The normal bot's value of each legal call at the seat to act, in chips (a pass: what waiting keeps)."""
    legal = state.legal_actions()
    info = info_from_view(seat_view(state, state.to_act), bot.rules)
    values = {}
    for action in legal:
        call = bot.rules.calls.get(action.word)
        if call is None:
            continue
        if call.effects.status == w.OUT:
            values[str(action)] = bot._out_worth(info, legal)
        else:
            values[str(action)] = bot._call_worth(info, legal, action, call, state.round)
    return values


def realized(state: GameState, bots: list, seed: int) -> dict[str, float]:
    """Each legal call's chips for the seat to act, the deal played out from it by ``bots``."""
    seat, legal = state.to_act, state.legal_actions()

    def finish(sim: GameState, rng: random.Random) -> float:
        while sim.pending is not None:
            sim.apply(choose_for(bots[sim.to_act], sim, random.Random(rng.random())))
        return worth(sim, seat, 0.0)

    row = try_each(state, legal, seed, finish)
    return {} if row is None else {str(a): v for a, v in zip(legal, row, strict=True)}


def gather(variant: str, seats: str, first: int, seeds: int, session: int) -> dict[str, dict[int, list[float]]]:
    rules = Rules(load_variant(variant), len(seats))
    normal, easy = HeuristicBot(rules), RuleBot(rules)
    bots = [normal if s == "n" else easy for s in seats]
    n = len(seats)
    table: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for seed in range(first, first + seeds):
        stacks, pot, dealer = [100] * n, 0, seed % n
        for d in range(session):
            state = GameState(rules, n, dealer=dealer, stacks=stacks, pot=pot, seed=seed * 1000 + d,
                              decks=[session_deck(rules, seed, d)])
            state.start_deal()
            step = 0
            while state.pending is not None:
                rng = random.Random(f"gains:{seed}:{d}:{step}")
                legal = state.legal_actions()
                words = {a.word for a in legal}
                pass_ = next((str(a) for a in legal if a.word in rules.calls
                              and rules.calls[a.word].effects.status == w.OUT), None)
                if (bots[state.to_act] is normal and pass_ is not None and len(legal) > 1 and w.LOOK not in words
                        and state.hands[state.to_act]):
                    values, gains = predicted(normal, state), realized(state, bots, rng.getrandbits(32))
                    for action, value in values.items():
                        if action != pass_ and gains:
                            margin = (value - values[pass_]) / state.pot
                            table[action][math.floor(4 * margin)].append((gains[action] - gains[pass_]) / state.pot)
                state.apply(choose_for(bots[state.to_act], state, rng))
                step += 1
            stacks, pot, dealer = carried(state)  # (the next dealer as the kernel says: the variant's rule)
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seats", default="nnnn", help="n (normal) or e (easy) per seat")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--session", type=int, default=5)
    args = parser.parse_args(argv)
    table = gather(args.variant, args.seats, args.first_seed, args.seeds, args.session)
    for action in sorted(table):
        print(action)
        for quarter in sorted(table[action]):
            gains = table[action][quarter]
            mean = sum(gains) / len(gains)
            spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, len(gains) - 1))
            print(f"  predicted {quarter / 4:+.2f} to {(quarter + 1) / 4:+.2f} pots: {len(gains):5d} decisions, "
                  f"realized {mean:+.3f} ±{1.96 * spread / math.sqrt(len(gains)):.3f} pots")


if __name__ == "__main__":
    main()
