"""The heuristic bot: legal everywhere, plays tricks sensibly, judges calls by their data."""

from __future__ import annotations

import json
import random

import pytest

from khrap.bots import HeuristicBot, choose_for, decision_rng
from khrap.bots.estimate import Info
from khrap.cards import parse_card
from khrap.engine import Action, Rules
from khrap.session import Session, load_variant
from khrap.variant.catalog import builtin_names
from khrap.variant.schema import Variant


@pytest.mark.parametrize("variant", builtin_names())
def test_plays_whole_deals_of_every_variant(variant: str) -> None:
    game = Session(variant, 4 if variant != "student-snore" else 3, seed=11)
    bot = HeuristicBot(game.rules)
    for _ in range(3):
        game.start_deal()
        while not game.deal_over:
            legal = game.legal_actions()
            action = choose_for(bot, game, decision_rng(game.seed, len(game.actions)))
            assert action in legal
            game.apply(action)
    assert sum(game.stacks) + game.pot + sum(game.state.locked) == 100 * game.players


def _info(hand: str, trick: list[tuple[int, str]], trump: str = "S", seat: int = 3) -> Info:
    return Info(seat=seat, n=4, hand=[parse_card(c) for c in hand.split()], trump="SHDC".index(trump),
                turned=None, statuses=["declarer", "helper", "helper", "helper"], calls=[None] * 4,
                tricks=[0] * 4, trick=[(s, parse_card(c), False) for s, c in trick], gone=set(), pot=4,
                hand_sizes=[4 - len(trick) if s != seat else 4 for s in range(4)], stock_count=10)


def _plays(bot: HeuristicBot, info: Info, legal: str) -> str:
    actions = [Action("play", cards=(parse_card(c),)) for c in legal.split()]
    return str(bot.play(info, actions))


def test_wins_cheaply_last_and_throws_low_when_it_cannot_win() -> None:
    bot = HeuristicBot(Rules(load_variant("khrap"), 4))
    # Last to play to 9H, 7H, QH: KH and AH both win; KH is the cheaper winner.
    info = _info("KH AH 6D 7S", [(0, "9H"), (1, "7H"), (2, "QH")])
    assert _plays(bot, info, "KH AH") == "play KH"
    # AH is out on the trick: neither 6H nor 8H can win, so the lower goes.
    info = _info("6H 8H AS KD", [(0, "AH"), (1, "7H"), (2, "9H")])
    assert _plays(bot, info, "6H 8H") == "play 6H"
    # Void in hearts with trumps 6S and AS: the small trump takes the trick, the ace is saved.
    info = _info("6S AS 7D 8C", [(0, "AH"), (1, "7H"), (2, "9H")])
    assert _plays(bot, info, "6S AS") == "play 6S"


def test_leads_a_card_nobody_can_beat() -> None:
    bot = HeuristicBot(Rules(load_variant("khrap"), 4))
    info = _info("AD 7C 8C 9H", [], trump="S", seat=0)
    assert _plays(bot, info, "AD 7C 8C 9H") == "play AD"


def test_a_renamed_call_is_judged_the_same() -> None:
    """House rules that rename every call get the same decisions, word for word renamed."""
    renames = {"khrap": "grunt", "help": "assist", "take-five": "five-more"}
    variant = load_variant("khrap")
    for old, new in renames.items():
        text = json.dumps(variant.model_dump(mode="json")).replace(f'"{old}"', f'"{new}"')
        variant = Variant.model_validate(json.loads(text))
    for seed in range(6):
        plain, house = Session("khrap", 4, seed=seed), Session(variant, 4, seed=seed)
        bots = HeuristicBot(plain.rules), HeuristicBot(house.rules)
        plain.start_deal()
        house.start_deal()
        while not plain.deal_over:
            rng_a, rng_b = random.Random(len(plain.actions)), random.Random(len(plain.actions))
            a, b = str(choose_for(bots[0], plain, rng_a)), str(choose_for(bots[1], house, rng_b))
            assert renames.get(a, a) == b
            plain.apply(a)
            house.apply(b)
        assert plain.stacks == house.stacks


def test_stakes_from_the_variant_change_its_calls() -> None:
    """The same hands: a helper's stake of 20 base stakes makes it help less than classic Khrap's 1."""
    data = load_variant("khrap").model_dump(mode="json")
    data["statuses"]["helper"]["stake"] = {"base": 20, "pots": 0}
    dear = Variant.model_validate(data)
    counts = []
    for variant in (load_variant("khrap"), dear):
        helped = 0
        for seed in range(40):
            game = Session(variant, 4, seed=seed)
            bot = HeuristicBot(game.rules)
            game.start_deal()
            while not game.deal_over:
                action = choose_for(bot, game, random.Random(seed))
                helped += game.state.pending.kind == "call" and bool(
                    game.rules.calls.get(action.word)) and game.rules.calls[action.word].effects.status == "helper"
                game.apply(action)
        counts.append(helped)
    assert counts[1] < counts[0]


def _bidding(seat: int, statuses: list[str], hand: str = "2C 3D 4H 5C") -> Info:
    return Info(seat=seat, n=4, hand=[parse_card(c) for c in hand.split()], trump=0, turned=parse_card("9S"),
                statuses=statuses, calls=[None] * 4, tricks=[0] * 4, trick=[], gone={parse_card("9S")}, pot=4,
                hand_sizes=[4] * 4, stock_count=35)


def test_a_declarer_nobody_can_join_counts_on_playing_alone() -> None:
    """khrap-52 bids once around and a lone declarer is credited every trick: in the last all-pass
    round the last speaker after three passes declares on any hand; in an earlier round (an all-pass
    is free there: no round ante, the same cards) he waits; the first speaker, whom the others may
    still join, passes."""
    rules = Rules(load_variant("khrap-52"), 4)
    bot = HeuristicBot(rules)
    legal = [Action("khrap"), Action("pass")]
    last = _bidding(3, ["out", "out", "out", "undecided"])
    assert bot.est.joiners(rules.calls["khrap"], last, ["khrap", "pass"]) == []
    assert bot.call(last, legal, random.Random(0), round_=3).word == "khrap"
    assert bot.call(last, legal, random.Random(0), round_=1).word == "pass"
    first = _bidding(1, ["undecided"] * 4)
    assert bot.est.joiners(rules.calls["khrap"], first, ["khrap", "pass"]) == [0, 2, 3]
    assert bot.call(first, legal, random.Random(0), round_=3).word == "pass"
    # Classic Khrap: passers may still take five after the bidding, so nobody is sure to play alone.
    classic = Rules(load_variant("khrap"), 4)
    last = _bidding(3, ["out", "out", "out", "undecided"], "6C 7D 8H 9C")
    assert HeuristicBot(classic).est.joiners(classic.calls["khrap"], last, ["khrap", "pass"]) == [0, 1, 2]


def test_a_follower_that_cannot_win_throws_its_least_likely_trick_not_its_lowest_rank() -> None:
    # Hearts led to AH, spades trump; seat 3 has no heart and no trump, so any card may go, none wins.  Every
    # club above the 7 is gone, so 7C is the highest club left (a likely trick later): it is kept, though its
    # rank is the lowest.  The diamonds are alike by their chances (TD, JD, QD, KD, AD unseen); the lowest, 8D.
    bot = HeuristicBot(Rules(load_variant("khrap"), 4))
    info = _info("7C 9D 8D TD", [(0, "AH"), (1, "7H"), (2, "9H")])
    info.gone = {parse_card(c) for c in ["8C", "9C", "TC", "JC", "QC", "KC", "AC"]}
    assert _plays(bot, info, "7C 9D 8D TD") == "play 8D"
