"""Bots: they choose a legal action from one seat's observation in every variant; the rule bot's rules of thumb."""

import inspect

import pytest

from khrap.bots import KINDS, RandomBot, RuleBot, decision_rng, make_bot
from khrap.session import Session
from khrap.variant.catalog import builtin, builtin_names

DECK = "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"


def tables() -> list[tuple[str, int]]:
    out = []
    for name in builtin_names():
        v = builtin(name)
        out += [(name, n) for n in sorted({v.players.min, min(v.players.max, 6)})]
    return out


@pytest.mark.parametrize(("name", "players"), tables())
def test_bots_play_whole_deals_with_legal_actions(name: str, players: int) -> None:
    game = Session(name, players, seed=13)
    bots = [make_bot(("rule", "random")[seat % 2], game.rules) for seat in range(players)]
    for _ in range(3):
        game.start_deal()
        steps = 0
        while not game.deal_over:
            seat = game.to_act
            legal = game.legal_actions()
            choice = bots[seat].choose(game.observation(seat), legal, decision_rng(game.seed, len(game.actions)))
            assert choice in legal
            game.apply(choice, seat)
            steps += 1
            assert steps < 3000
    assert sum(game.stacks) + game.pot == sum([100] * players)


def test_bots_are_given_an_observation_and_legal_actions_only() -> None:
    for cls in (RandomBot, RuleBot):
        required = [name for name, p in inspect.signature(cls.choose).parameters.items() if p.default is p.empty]
        assert required == ["self", "observation", "legal", "rng"]
    # ... and, for a kind of decision it has no rule for, the seat's view (what that seat may know: made by
    # ``determinize.seat_view``, never the state)
    assert inspect.signature(RuleBot.choose).parameters["view"].default is None
    with pytest.raises(ValueError, match="unknown bot kind"):
        make_bot("clever", Session("khrap", 4).rules)
    assert set(KINDS) == {"easy", "normal", "strong", "random", "rule", "heuristic", "mcts", "search"}


def test_the_three_strengths_are_the_rule_heuristic_and_search_bots_and_normal_is_the_default() -> None:
    from khrap.bots import DEFAULT, STRENGTHS, strength_of

    rules = Session("khrap", 4).rules
    assert DEFAULT == "normal"
    for word, old in STRENGTHS.items():
        assert type(make_bot(word, rules)) is type(make_bot(old, rules))
        assert strength_of(word) == strength_of(old) == word
    assert [type(make_bot(w, rules)).__name__ for w in ("easy", "normal", "strong")] == \
        ["RuleBot", "HeuristicBot", "SearchBot"]
    assert strength_of("random") is None


def contract_deal() -> Session:
    # Seat 1 AS KH 7C 6D, seat 2 QH 6S 8C AD, seat 3 7S 8S 9S TS, seat 0 JS 6C 7D 8D; 9H turned.
    game = Session("khrap", 4, seed=0, decks=[DECK])
    game.start_deal()
    return game


def rule_choice(game: Session) -> str:
    bot = RuleBot(game.rules)
    seat = game.to_act
    return str(bot.choose(game.observation(seat), game.legal_actions(), decision_rng(0, len(game.actions))))


def test_rule_bot_passes_weak_hands_and_helps_with_a_trick_in_hand() -> None:
    game = contract_deal()
    assert rule_choice(game) == "pass"  # AS KH 7C 6D: about 1.75 likely tricks, short of khrap's 2
    game.apply("khrap")
    assert rule_choice(game) == "help"  # seat 2: QH (trump queen) and AD, about 1.65 >= a helper's 1
    game.apply("help")
    assert rule_choice(game) == "pass"  # seat 3: four low spades, no trump


def test_rule_bot_keeps_high_cards_and_leads_its_side_ace() -> None:
    game = contract_deal()
    for text in ("khrap", "help", "pass", "pass", "pass", "pass"):
        game.apply(text)
    assert rule_choice(game) == "exchange 6D 7C"  # throws the two low side cards, keeps AS KH
    game.apply("exchange 6D 7C")  # draws QS KS
    game.apply("exchange 8C")
    assert rule_choice(game) == "play AS"  # leads the side ace
    game.apply("play KH")
    assert rule_choice(game) == "play 6H"  # QH cannot beat KH: it follows with the cheapest heart
