"""Issue 29: the normal bot bids like a good player.

Drawn cards are valued by their spread (drawing k and keeping the best is worth more than average
cards), and passing is worth what waiting keeps (joining a declarer still to come), so the bot says
a call whenever it is worth more than that, without the old margin on declaring.
"""

from __future__ import annotations

import random
from pathlib import Path

from khrap import words as w
from khrap.bots.estimate import Estimator, Info, order_statistics
from khrap.bots.heuristic import HeuristicBot
from khrap.cards import parse_card, parse_suit
from khrap.engine import Action, Rules
from khrap.sim.runner import SimSpec, simulate
from khrap.variant.catalog import load_variant

FIVE_SIX = Path(__file__).resolve().parent.parent / "docs" / "house-rules" / "khrap-five-six.yaml"


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_order_statistics_of_draws_without_replacement() -> None:
    # Two of {1, .5, .2, .1}: six pairs, equally likely.  The larger: 1 in three pairs, .5 in two, .2 in
    # one: (3 + 1 + .2) / 6 = .7; the smaller: .5 + .2 + .1 + .2 + .1 + .1 = 1.2, / 6 = .2.
    best, second = order_statistics([1.0, 0.5, 0.2, 0.1], 2)
    assert abs(best - 0.7) < 1e-12 and abs(second - 0.2) < 1e-12
    assert order_statistics([1.0, 0.5, 0.2, 0.1], 4) == [1.0, 0.5, 0.2, 0.1]  # all drawn: each itself
    assert order_statistics([3.0, 2.0, 1.0], 1) == [2.0]  # one card: the mean


def test_drawing_more_and_keeping_the_best_is_worth_more_than_average_cards() -> None:
    rules = Rules(load_variant(str(FIVE_SIX)), 4)
    est = Estimator(rules)
    seat = Info(seat=2, n=4, hand=cards("7H 8D 9S JC"), trump=parse_suit("C"), turned=None,
                statuses=[w.DECLARER, w.OUT, w.OUT, w.OUT], calls=[None] * 4, tricks=[0] * 4, trick=[],
                gone=set(), pot=4, hand_sizes=[4] * 4, stock_count=19)
    avg = est.draw_chance([], seat.trump, seat, est.k.exponent(w.HELPER))
    five = est.after_call(rules.calls["five"], seat.hand, seat.trump, seat)
    six = est.after_call(rules.calls["six"], seat.hand, seat.trump, seat)
    assert len(five) == len(six) == 4
    assert sum(five) > 4 * avg + 1e-9  # the best four of five beat four average cards
    assert sum(six) > sum(five)  # the best four of six beat the best four of five
    assert max(six) > max(five) > avg


def test_the_normal_bot_takes_the_five_or_the_six_in_a_reshaped_bidding() -> None:
    # Before issue 29 the normal bot never took either in 500 deals of this shape (the easy bot: 462
    # and 206 times); a call says a passer's worth is now read off the draws' spread.
    spec = SimSpec.make(load_variant(str(FIVE_SIX)), 4, "normal", seed=29, deals=60, chunk=30)
    said = {row["call"]: row["made"] for row in simulate(spec).summary()["calls"]}
    assert said.get("five", 0) + said.get("six", 0) > 0, said


def test_passing_keeps_the_chance_to_join_a_declarer_still_to_come() -> None:
    rules = Rules(load_variant("khrap"), 4)
    bot, cautious = HeuristicBot(rules), HeuristicBot(rules, cautious=True)
    hand = cards("AC KC AH 7D")  # two trump honours and an ace: a good helper's hand (clubs trump)

    def seat(statuses: list[str]) -> Info:
        return Info(seat=1, n=4, hand=hand, trump=parse_suit("C"), turned=None, statuses=statuses,
                    calls=[None] * 4, tricks=[0] * 4, trick=[], gone=set(), pot=4, hand_sizes=[4] * 4,
                    stock_count=19)

    legal = [Action("khrap"), Action("pass")]
    waiting = seat([w.OUT, w.UNDECIDED, w.UNDECIDED, w.UNDECIDED])
    assert 0 < bot._declare_chance(waiting) < 1
    assert bot._waiting_value(waiting, legal, waiting.trump) > 0  # two seats still to speak may declare
    last = seat([w.OUT, w.UNDECIDED, w.OUT, w.OUT])
    assert bot._waiting_value(last, legal, last.trump) == 0  # nobody left to declare: passing keeps nothing
    answered = seat([w.DECLARER, w.UNDECIDED, w.UNDECIDED, w.UNDECIDED])
    assert bot._waiting_value(answered, [Action("help"), Action("pass")], answered.trump) == 0
    # the cautious bidding (the search bot's prior) keeps its margin and its pass worth nothing
    assert cautious.est.k.caution == rules_caution(rules) and bot.est.k.caution == 1.0
    rng = random.Random(0)
    assert cautious.call(last, legal, rng).word in ("khrap", "pass")


def rules_caution(rules: Rules) -> float:
    from khrap.bots.calibration import constants_for

    return constants_for(rules.variant).caution


def test_a_swollen_pot_does_not_push_the_normal_bot_into_a_hopeless_call() -> None:
    # Frap, clubs trump, the first to speak holds no trump and no card above a jack: no frap pays at any
    # pot, since every trick share (P // 4) and every fine (P, 2P) grows with it.  Passing costs only the
    # round ante everybody adds.  The cautious bidding (the search bot's prior) still charges a pass a
    # share of a pot past eight opening pots (at 40 opening pots: 0.05 x 160 x 31 = 248 chips), and
    # declares; the normal bot passes at both pots.
    rules = Rules(load_variant("frap"), 4)
    bot, cautious = HeuristicBot(rules), HeuristicBot(rules, cautious=True)
    legal = [Action("frap"), Action("pass")]
    for pot in (4, 160):
        seat = Info(seat=1, n=4, hand=cards("7H 8D 9S JD"), trump=parse_suit("C"), turned=parse_card("7C"),
                    statuses=[w.UNDECIDED] * 4, calls=[None] * 4, tricks=[0] * 4, trick=[], gone=set(), pot=pot,
                    hand_sizes=[4] * 4, stock_count=15)
        assert bot.call(seat, legal, random.Random(0)).word == "pass", pot
    assert cautious.call(seat, legal, random.Random(0)).word == "frap"
