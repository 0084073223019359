"""The search bot and its determinizations."""

from __future__ import annotations

import random

from khrap.bots import HeuristicBot, MctsBot, choose_for, decision_rng, make_bot
from khrap.bots.determinize import determinize, seat_view
from khrap.bots.mcts import ITERATIONS, MAX_CANDIDATES, MIN_SAMPLES, STEPS
from khrap.session import Session


def _to_play(variant: str, seed: int, plays: int) -> Session:
    """A deal played by heuristic bots until ``plays`` cards are on the tricks."""
    game = Session(variant, 4, seed=seed)
    game.start_deal()
    bot = HeuristicBot(game.rules)
    while not game.deal_over:
        if game.phase == "play" and sum(1 for _, t in game.actions if t.startswith("play")) >= plays:
            return game
        game.apply(choose_for(bot, game, decision_rng(seed, len(game.actions))))
    return _to_play(variant, seed + 1, plays)


def test_a_determinization_deals_every_hidden_card_once_and_keeps_what_the_seat_knows() -> None:
    for seed in range(8):
        game = _to_play("khrap", seed, 5)
        s, seat = game.state, game.to_act
        for k in range(5):
            d = determinize(s, seat, random.Random(k))
            assert d.hands[seat] == s.hands[seat]
            assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
            assert len(d.stock) == len(s.stock) and len(d.discards) == len(s.discards)
            everything = [c for h in d.hands for c in h] + d.stock + d.discards + d.won + d.turned
            everything += [c for _, c, _ in d.trick]
            assert sorted(everything) == sorted(s.rules.deck)
            view = seat_view(s, seat)
            for other, suits in view.voids.items():  # a shown void is respected
                assert not any(c // 13 in suits for c in d.hands[other]) or other == seat
            assert d.legal_actions() == s.legal_actions()
            # Nothing private to another seat copied: the seat's own secrets (what it drew, threw) it saw.
            assert not d.decks_dealt and all(e.secret is None or e.seat == seat for e in d.log)


def test_search_chooses_a_legal_action_the_same_way_for_a_seed() -> None:
    game = _to_play("frap", 2, 1)
    bot = MctsBot(game.rules, iterations=60)
    first = choose_for(bot, game, decision_rng(9, 1))
    assert first in game.legal_actions()
    assert choose_for(bot, game, decision_rng(9, 1)) == first


def test_without_its_view_the_search_bot_plays_like_the_heuristic() -> None:
    game = _to_play("khrap", 3, 2)
    seat = game.to_act
    obs, legal = game.observation(seat), game.legal_actions()
    assert MctsBot(game.rules).choose(obs, legal, random.Random(1)) == \
        HeuristicBot(game.rules).choose(obs, legal, random.Random(1))


def test_default_budget_bounds_every_decisions_work() -> None:
    # The budget is counted in playouts and their steps, not timed (speed belongs to the benchmarks): every
    # decision stops within its playouts (ITERATIONS, at least MIN_SAMPLES deals of every candidate, one
    # deal's candidates beyond) and within STEPS simulated steps once MIN_SAMPLES deals are in.
    game = Session("khrap", 4, seed=4)
    game.start_deal()
    bot = make_bot("mcts", game.rules)
    playouts: list[list[int]] = []  # per decision, the steps of each playout

    plain = bot.playout

    def counted(state, rng) -> int:
        taken = plain(state, rng)
        playouts[-1].append(taken)
        return taken

    bot.playout = counted
    while not game.deal_over:
        playouts.append([])
        game.apply(choose_for(bot, game, decision_rng(4, len(game.actions))))
    assert max(map(len, playouts)) > MAX_CANDIDATES  # some decision searched
    for runs in playouts:
        assert len(runs) <= max(ITERATIONS, MIN_SAMPLES * MAX_CANDIDATES) + MAX_CANDIDATES
        # past MIN_SAMPLES deals no deal starts once STEPS are spent: at most one deal's playouts beyond
        assert sum(runs) <= STEPS + MAX_CANDIDATES * max(runs, default=0) or len(runs) <= MIN_SAMPLES * MAX_CANDIDATES


def test_an_unlooked_seat_searches_with_random_hands_of_its_own() -> None:
    # Seat 0 deals: seat 1 gets 7S TS KS 6S, seat 2 8S JS 8C 7D, seat 3 9S QS 9C 8D, seat 0 6H 7C TC 9D;
    # AH is turned.  Seat 1 khraps; at seat 0's turn wrap (blind, the turned ace) is open, so he has
    # not looked, yet sad (he holds the trump six) is listed too: a sampled hand may lack 6H.
    game = Session("khrap", 4, seed=0, decks=["7S 8S 9S 6H TS JS QS 7C KS 8C 9C TC 6S 7D 8D 9D AH"])
    game.start_deal()
    for text in ("khrap", "pass", "pass"):
        game.apply(text)
    assert game.to_act == 0 and not game.state.looked[0]
    assert {"wrap", "sad", "look"} <= set(game.legal_words())
    action = choose_for(MctsBot(game.rules, iterations=80), game, decision_rng(0, 3))
    assert action in game.legal_actions()
