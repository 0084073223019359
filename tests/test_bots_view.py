"""The heuristic and rule bots read the engine's typed seat view (int cards, typed events), not card words.

Lockstep: at every decision of many seeded deals, each bot decides twice from the same randomness,
once from the observation dict (cards parsed back from CONTRACT.md's words: how the bots read before)
and once from the typed view ``choose_for`` now gives them; the actions must be the same, and the
heuristic's facts (``Info``) equal.  Several bots share the table, so every kind of decision
(blind calls, calls, draws, exchanges, discards, trump, the play) is met in every variant.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from khrap.bots import HeuristicBot, RuleBot, choose_for, make_bot
from khrap.bots.determinize import seat_view as resampler
from khrap.bots.heuristic import FollowedDeal, info_from_observation, info_from_view
from khrap.engine import GameState, Rules
from khrap.engine.view import SeatView, seat_view
from khrap.variant.catalog import builtin_names, load_variant

ROOT = Path(__file__).resolve().parent.parent
HOUSE = sorted(str(p) for p in (ROOT / "docs" / "house-rules").glob("*.yaml"))
DEALS = 40  # per variant and table: about 6,000 decisions in all, each decided twice by each bot


def _lockstep(ref: str, players: int, seed: int, deals: int = DEALS) -> int:
    """Play ``deals`` deals of ``ref`` (heuristic, rule, heuristic, rule...), each decision made from the dict
    and from the typed view with the same randomness; returns the decisions compared."""
    rules = Rules(load_variant(ref), players)
    state = GameState(rules, players, stacks=100 * rules.variant.base_stake, seed=seed)
    bots = [HeuristicBot(rules) if s % 2 == 0 else RuleBot(rules) for s in range(players)]
    compared = 0
    followed: dict[int, FollowedDeal] = {}
    for deal in range(deals):
        if state.session_over:
            break
        state.start_deal()
        steps = 0
        while state.pending is not None:
            seat, legal = state.to_act, state.legal_actions()
            bot = bots[seat]
            typed = seat_view(state, seat)
            assert isinstance(typed, SeatView)
            draw = random.Random(f"{seed}:{deal}:{steps}").random()
            # a kind of decision weighed on sampled deals gets the seat's resampler too, as choose_for gives it
            extra = {"view": resampler(state, seat)} if bot.needs_view(legal) else {}
            before = bot.choose(state.observation(seat), legal, random.Random(draw), **extra)
            after = bot.choose(typed, legal, random.Random(draw), **extra)
            assert after == before, f"{ref}, deal {deal}, step {steps}, seat {seat}: {after} from the view, " \
                                    f"{before} from the dict"
            if isinstance(bot, HeuristicBot):
                parsed = info_from_observation(state.observation(seat), rules)
                assert info_from_view(typed, rules) == parsed
                # the deal followed from decision to decision (only the new events read) gives the same facts
                assert info_from_view(typed, rules, followed.setdefault(seat, FollowedDeal())) == parsed
            # the game goes on with what choose_for gives (the typed view): the same choice again
            assert choose_for(bot, state, random.Random(draw)) == after
            state.apply(after)
            compared += 1
            steps += 1
            assert steps < 2000
    return compared


@pytest.mark.parametrize("ref", builtin_names() + HOUSE)
def test_decisions_from_the_typed_view_are_those_from_the_dict(ref: str) -> None:
    variant = load_variant(ref)
    players = min(max(4, variant.players.min), variant.players.max)
    # (the doubling offer is weighed on 40 sampled deals played out, three times per decision here: fewer deals)
    assert _lockstep(ref, players, seed=7, deals=6 if "double" in ref else DEALS) > 0


@pytest.mark.parametrize("players", [2, 3, 5])
def test_lockstep_at_other_table_sizes(players: int) -> None:
    assert _lockstep("khrap", players, seed=players) > 0


def test_choose_for_gives_the_typed_view_to_the_bots_that_read_it() -> None:
    rules = Rules(load_variant("khrap"), 4)
    state = GameState(rules, 4, seed=3)
    state.start_deal()
    seen: list[object] = []

    class Spy:
        name = "spy"
        reads_view = True

        def choose(self, observation, legal, rng):
            seen.append(observation)
            return legal[0]

    class OldSpy(Spy):
        reads_view = False

    choose_for(Spy(), state, random.Random(0))
    choose_for(OldSpy(), state, random.Random(0))
    assert isinstance(seen[0], SeatView) and seen[0].hand == sorted(state.hands[state.to_act]) or \
        seen[0].hand is None
    assert isinstance(seen[1], dict)
    assert make_bot("normal", rules).reads_view and make_bot("easy", rules).reads_view


def test_a_lone_action_is_taken_without_a_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """``choose_for`` hands a bot that takes a lone legal action as it is (``takes_lone``: the normal bot) that
    action without making its seat's view (a third of an analysis's decisions have one action); a bot without
    the mark (the rule bot) is still given its view, and every other decision makes one."""
    import khrap.bots as bots_module

    rules = Rules(load_variant("khrap"), 4)
    state = GameState(rules, 4, stacks=100, seed=3)
    made: list[int] = []
    real = bots_module.typed_view
    monkeypatch.setattr(bots_module, "typed_view", lambda st, seat: made.append(seat) or real(st, seat))
    normal, easy = HeuristicBot(rules), RuleBot(rules)
    lone = 0
    for _ in range(3):
        state.start_deal()
        while state.pending is not None:
            legal = state.legal_actions()
            before = len(made)
            choice = choose_for(normal, state, random.Random(0))
            if len(legal) == 1:
                lone += 1
                assert choice is legal[0] and len(made) == before
                assert choose_for(easy, state, random.Random(0)) is legal[0] and len(made) == before + 1
            else:
                assert len(made) == before + 1
            state.apply(choice)
    assert lone >= 10  # (the last trick's cards at least)
