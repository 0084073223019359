"""Whether the bots take a rule's offer when it pays: each offer's answers played out on the same cards and dice.

    python benchmarks/offer_gains.py VARIANT [--deals 200] [--first-seed 0] [--bots normal] [--players 4]

Deals of VARIANT (a house-rule file, e.g. docs/house-rules/khrap-double.yaml) from seeds ``--first-seed``
onwards, one deal a seed, ``--bots`` at every seat, each decision's dice fixed by the seed and the step
(``decision_rng``).  At every decision of a kind the rule offers in a stage of its own (``Derived.offers``: no
code here names one), the deal is finished once with each answer, by the same bots with the same dice; the
asked seat's chips at the end of the deal (stack and locked stake) are compared with the first answer's
(which, in the registry, changes nothing).  Printed: how many offers, how often the bots took an answer other
than the first, and the mean gain of each answer over the first, where they took it and where they did not,
with two standard errors.  A bot that takes an offer when it pays shows a gain >= 0 where it took it and < 0
where it declined.  Not a CI test (issue 31: docs/extending.md).
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from khrap.bots import choose_for, decision_rng, make_bot
from khrap.session import Session
from khrap.variant.catalog import load_variant
from khrap.variant.derived import offers
from khrap.variant.loader import ANYWHERE, trusting


def _session(variant, players: int, seed: int, actions: list[tuple[int, str]]) -> Session:
    game = Session(variant, players, seed=seed, stacks=1000)
    game.start_deal()
    for seat, words in actions:
        game.apply(words, seat)
    return game


def _finished(variant, players: int, seed: int, actions: list[tuple[int, str]], bots: str, seat: int) -> int:
    """The asked ``seat``'s chips once the deal that ``actions`` began is played out."""
    game = _session(variant, players, seed, actions)
    seated = [make_bot(bots, game.rules) for _ in range(players)]
    while not game.deal_over:
        game.apply(choose_for(seated[game.state.to_act], game, decision_rng(seed, len(game.actions))))
    return game.stacks[seat] + game.state.locked[seat]


def _mean(gains: list[int]) -> str:
    if len(gains) < 2:
        return f"n={len(gains)}"
    mean = sum(gains) / len(gains)
    error = (sum((g - mean) ** 2 for g in gains) / (len(gains) - 1) / len(gains)) ** 0.5
    return (f"n={len(gains)} mean {mean:+.3f} chips (±{2 * error:.3f}), "
            f"better {sum(g > 0 for g in gains)}, worse {sum(g < 0 for g in gains)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--bots", default="normal")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    with trusting(ANYWHERE):
        variant = load_variant(args.variant)
    kinds = {offer.decision for offer in offers(variant)}
    if not kinds:
        raise SystemExit(f"{args.variant}: the rule offers no decision in a stage of its own")
    asked = taken = 0
    gains: dict[tuple[str, bool], list[int]] = defaultdict(list)  # (answer, taken by the bot) -> gains over the first
    for seed in range(args.first_seed, args.first_seed + args.deals):
        game = _session(variant, args.players, seed, [])
        seated = [make_bot(args.bots, game.rules) for _ in range(args.players)]
        while not game.deal_over:
            state = game.state
            choice = choose_for(seated[state.to_act], game, decision_rng(seed, len(game.actions)))
            if state.pending is not None and str(state.pending.kind) in kinds:
                asked += 1
                answers = [str(a) for a in game.legal_actions()]
                taken += str(choice) != answers[0]
                chips = {a: _finished(variant, args.players, seed, [*game.actions, (state.to_act, a)], args.bots,
                                      state.to_act) for a in answers}
                for answer in answers[1:]:
                    gains[answer, str(choice) == answer].append(chips[answer] - chips[answers[0]])
            game.apply(choice)
    print(f"{args.variant}, seeds {args.first_seed}-{args.first_seed + args.deals - 1}, {args.bots} bots: "
          f"{asked} offers, an answer other than the first taken at {taken} ({100 * taken / max(asked, 1):.1f} %)")
    for (answer, took), found in sorted(gains.items()):
        print(f"  {answer} against the first answer, where the bot {'took' if took else 'did not take'} it: "
              f"{_mean(found)}")


if __name__ == "__main__":
    main()
