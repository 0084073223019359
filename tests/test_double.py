"""The doubling house rule (docs/house-rules/khrap-double.yaml) through every face that reads the registry: the
action space numbers its answers, the log, the web's names and the terminal offer them, money is conserved,
and the default bots weigh it by playouts (no code names it).  Its rule is stated and worked in
tests/scenarios/house-rules/double_*.yaml."""

from __future__ import annotations

import random
from pathlib import Path

from khrap.bots import choose_for, make_bot
from khrap.engine import GameState, Rules
from khrap.engine.decisions import display_names
from khrap.variant.catalog import builtin, load_variant
from khrap.variant.loader import ANYWHERE, trusting
from tests.conftest import random_deal

DOUBLE = Path(__file__).resolve().parents[1] / "docs" / "house-rules" / "khrap-double.yaml"
# Dealt from seat 1, the dealer (0) last: seat 1 6S 7S 6C 7C, seat 2 AH KH AS AC, seat 3 8S 9S TS JS,
# seat 0 8C 9C TC JC; 9H turned.
DECK = "6S AH 8S 8C 7S KH 9S 9C 6C AS TS TC 7C AC JS JC 9H"


def rules(players: int = 4) -> Rules:
    with trusting(ANYWHERE):
        return Rules(load_variant(str(DOUBLE)), players)


def at_the_offer() -> GameState:
    """Seat 1 khraps with no trick in sight, seat 2 helps with three aces: seat 2 is asked whether he doubles."""
    from khrap.cards import parse_card

    state = GameState(rules(), 4, seed=1, decks=[[parse_card(c) for c in DECK.split()]])
    state.start_deal()
    for words in ("khrap", "help", "pass", "pass", "pass", "pass", "exchange", "exchange"):
        state.apply(words)
    return state


def test_the_answers_are_numbered_after_every_other_block_only_where_offered() -> None:
    # khrap's 117 numbers (tests/test_action_space.py), then no-double 117 and double 118; khrap itself keeps 117.
    space = rules().action_space
    assert space.num_distinct_actions == 117 + 2
    assert [space.words(117), space.words(118)] == ["no-double", "double"]
    assert Rules(builtin("khrap"), 4).action_space.num_distinct_actions == 117
    state = at_the_offer()
    assert state.phase == "offers" and state.seat == 2
    assert state.legal_numbers() == {117: state.legal_actions()[0], 118: state.legal_actions()[1]}


def test_the_log_and_the_screens_name_the_answers_in_each_language() -> None:
    state = at_the_offer()
    state.apply("double")
    event = state.log[-1]
    # what the answer carries, typed as a call's (the log and the page read these, not the words)
    assert event.kind == "decided" and event.fields == {"decision": "double", "action": "double", "answer": "double",
                                                        "source": "top", "position": None, "take_turned": False,
                                                        "cards": ()}
    assert event.render("en") == "seat 2: Double"
    assert event.render("ru") == "место 2: Удваиваю"
    assert event.render("hy").endswith("Կրկնապատկում եմ")
    assert display_names("fi") == {"no-double": "En tuplaa", "double": "Tuplaan"}


def test_the_terminal_offers_the_answers() -> None:
    from khrap.play.screen import choices, menu_text
    from khrap.session import Session

    with trusting(ANYWHERE):
        session = Session(str(DOUBLE), 4, seed=1, decks=[DECK])
    session.start_deal()
    for words in ("khrap", "help", "pass", "pass", "pass", "pass", "exchange", "exchange"):
        session.apply(words)
    menu, hint = choices(session)
    assert [str(a) for a in menu] == ["no-double", "double"] and hint == ""
    assert "1) Не удваиваю  2) Удваиваю" in menu_text(menu, hint, lang="ru")


def test_chips_are_conserved_in_random_deals_with_doubles() -> None:
    state = GameState(rules(), 4, seed=5, stacks=10_000)
    rng = random.Random(5)
    doubled = 0

    def check(s: GameState) -> None:
        assert s.chips_in_play() == s.total_chips

    for _ in range(150):
        random_deal(state, rng, check)
        doubled += ("double" in [w for _, w in state.said])
    assert doubled > 0


def test_the_default_bot_doubles_a_declarer_who_cannot_make_it_and_not_one_who_will() -> None:
    # At the offer above the declarer (seat 1: 6S 7S 6C 7C, no trump) cannot take a trick against seat 2's
    # three aces and KH: doubling wins seat 2 two more chips (the scenario double_declarer_fails_pays_twice).
    state = at_the_offer()
    bot = make_bot("normal", state.rules)
    assert str(choose_for(bot, state, random.Random(0))) == "double"
    # The same hands the other way round: seat 1 declares with the aces, seat 2 helps with nothing and
    # would pay 3 instead of 1 for his failed trick: no double.
    from khrap.cards import parse_card

    deck = "AH 6S 8S 8C KH 7S 9S 9C AS 6C TS TC AC 7C JS JC 9H"
    state = GameState(rules(), 4, seed=1, decks=[[parse_card(c) for c in deck.split()]])
    state.start_deal()
    for words in ("khrap", "help", "pass", "pass", "pass", "pass", "exchange", "exchange"):
        state.apply(words)
    assert state.seat == 2 and state.phase == "offers"
    assert str(choose_for(bot, state, random.Random(0))) == "no-double"


def test_the_web_table_offers_the_answers_by_their_names() -> None:
    from khrap.web.table import Table

    with trusting(ANYWHERE):
        variant = load_variant(str(DOUBLE))
    table = Table.create(variant, name="t", source=None, players=4, stacks=100, base_stake=1, bots={}, deals=1)
    table.start_deal()
    for _ in range(40):  # each seat takes its first legal action: khrap, then help, keep the hand ...
        state = table.session.state
        if state.phase == "offers" and state.pending.kind == "double":
            break
        seat = state.to_act
        table.apply(seat, table.view(seat)["legal"][0]["text"])
    seat = table.session.state.to_act
    view = table.view(seat, "ru")
    assert [a["text"] for a in view["legal"]] == ["no-double", "double"]
    assert view["table"]["calls"]["double"] == "Удваиваю"  # the page's buttons read their names here


def test_a_weighed_gain_is_a_weighted_mean_with_kishs_standard_error() -> None:
    from khrap.bots.heuristic import weighted_gain

    # Worked by hand: gains 1 and 3 with equal weights: mean 2, spread ((1-2)^2 + (3-2)^2) / 2 = 1 over
    # 2 - 1 effective samples less one: error 1.  Weights 3 and 1: mean (3 + 3) / 4 = 1.5, effective
    # 4^2 / (9 + 1) = 1.6 samples, spread (3 * 0.25 + 1 * 2.25) / 4 = 0.75 over at least one: error 0.75 ** 0.5.
    assert weighted_gain([1.0, 3.0], [1.0, 1.0]) == (2.0, 1.0)
    mean, error = weighted_gain([1.0, 3.0], [3.0, 1.0])
    assert mean == 1.5 and abs(error - 0.75 ** 0.5) < 1e-12


def test_a_sampled_deal_weighs_by_how_well_the_declarers_hand_fits_his_call() -> None:
    # The bot asked samples the hands it cannot see; a deal that gives the declarer (the only other seat in
    # play) a hand he would khrap with counts e ** 3 (the cap), one with no trick in it e ** -3: seat 1's
    # 6S 7S 6C 7C against hearts is about no trick for his two, AH KH AS AC (the second deal) four.
    import math

    from khrap.bots.heuristic import WEIGH_CAP

    weak = at_the_offer()
    bot = make_bot("normal", weak.rules)
    assert math.isclose(bot.bidding_weight(weak, 2), math.exp(-WEIGH_CAP))
    from khrap.cards import parse_card

    deck = "AH 6S 8S 8C KH 7S 9S 9C AS 6C TS TC AC 7C JS JC 9H"
    strong = GameState(rules(), 4, seed=1, decks=[[parse_card(c) for c in deck.split()]])
    strong.start_deal()
    for words in ("khrap", "help", "pass", "pass", "pass", "pass", "exchange", "exchange"):
        strong.apply(words)
    assert math.isclose(bot.bidding_weight(strong, 2), math.exp(WEIGH_CAP))
