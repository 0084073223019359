"""The search bot's work budget counts every costly step of a decision, not only the solver's nodes (issue 20).

A decision's time is its budget times the cost of a unit of work only if everything it does is charged:
a step charged nothing (a deal ended by the candidate itself, a forced playout step, a sample and its
weighing) lets a decision run up to its sample cap whatever the budget.  No clock here: the decisions run
with ``timed=False`` and the costly primitives are counted.
"""

from __future__ import annotations

import random

import pytest

from khrap.bots import HeuristicBot, choose_for, determinize, search
from khrap.bots.heuristic import HeuristicBot as Heuristic
from khrap.bots.mcts import MAX_CANDIDATES
from khrap.bots.search import SearchBot
from khrap.engine import GameState
from khrap.variant.catalog import load_variant


class Counts:
    """Calls of the primitives a decision pays for: deals sampled, states copied, actions applied,
    heuristic decisions."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.n = {"sample": 0, "copy": 0, "apply": 0, "decide": 0}
        self.on = False
        for owner, name, key in ((determinize.SeatView, "sample", "sample"), (determinize, "fast_clone", "copy"),
                                 (GameState, "apply", "apply"), (Heuristic, "decide", "decide")):
            monkeypatch.setattr(owner, name, self._counting(getattr(owner, name), key))

    def _counting(self, fn, key):
        def counted(*args, **kwargs):
            if self.on:
                self.n[key] += 1
            return fn(*args, **kwargs)
        return counted

    def total(self) -> int:
        return sum(self.n.values())


def positions(variant: str, seeds: range, players: int = 4):
    """Seat 0's decisions with a choice in heuristic deals: (state, rng) each, the state a copy."""
    rules = GameState(load_variant(variant), players, seed=0).rules
    bot = HeuristicBot(rules)
    for seed in seeds:
        state = GameState(rules, players, dealer=seed % players, seed=seed)
        state.start_deal()
        step = 0
        while state.pending is not None:
            rng = random.Random(f"work:{seed}:{step}")
            if state.to_act == 0 and len(state.legal_actions()) > 1:
                yield determinize.fast_clone(state), random.Random(rng.random())
            state.apply(choose_for(bot, state, rng))
            step += 1


@pytest.mark.parametrize("variant", ["khrap-52", "frap", "khrap-shoot"])
def test_every_sample_copy_step_and_heuristic_decision_is_charged(monkeypatch, variant) -> None:
    """The work charged for a decision is at least one node for every sample, copy, applied action and
    heuristic decision it made: a primitive charged nothing fails this."""
    counts = Counts(monkeypatch)
    rules = GameState(load_variant(variant), 4, seed=0).rules
    bot = SearchBot(rules, timed=False, work=3000)
    checked = 0
    for state, rng in positions(variant, range(12, 14)):
        counts.on, counts.n = True, dict.fromkeys(counts.n, 0)
        choose_for(bot, state, rng)
        counts.on = False
        if not bot.last or counts.n["sample"] == 0:
            continue
        bot_work = bot.last["work"]
        assert bot_work >= counts.total(), (counts.n, bot_work)  # at least a node for each (the least charge is 2)
        bot.last = {}
        checked += 1
    assert checked >= 3


def test_a_candidate_that_ends_the_deal_still_spends_the_budget() -> None:
    """khrap-52, seat 0 the lone declarer at its exchange (seed 12, step 4): each candidate settles the
    deal at once (no playout, no solve).  Charged only for solver nodes and heuristic steps, the decision
    ran to its cap of CALL_SAMPLES deals (1.4x the p99 budget in time); charged for its samples and
    copies it stops on its work, or earlier when every rival of the prior's choice is dropped as clearly
    no better (``search.RACE_FROM`` samples at least); with no rival dropped, on its work."""
    state, rng = next((s, r) for s, r in positions("khrap-52", range(12, 13))
                      if s.pending.kind == "exchange" and s.statuses.count("out") == 3)
    bot = SearchBot(state.rules, timed=False)
    choose_for(bot, state, rng)
    per_sample = search.sample_work(state, 0) + search.TRY_WORK * MAX_CANDIDATES  # every candidate tried
    assert bot.last["samples"] < search.CALL_SAMPLES
    assert bot.last["samples"] <= search.CALL_WORK / per_sample + 1
    assert bot.last["work"] >= search.CALL_WORK or (bot.last["clear"] and bot.last["samples"] >= search.RACE_FROM)
    racing = search.RACE_FROM
    try:
        search.RACE_FROM = search.CALL_SAMPLES  # never drop: the work alone stops it
        choose_for(bot, state, random.Random(5))
    finally:
        search.RACE_FROM = racing
    assert bot.last["samples"] <= search.CALL_WORK / per_sample + 1
    assert bot.last["work"] >= search.CALL_WORK


def test_a_step_with_more_options_is_charged_more() -> None:
    from khrap.engine import Action

    play = [Action(word="play", cards=(c,)) for c in range(3)]
    calls = [Action(word="pass"), Action(word="khrap")]
    many = [Action(word="exchange", cards=(c,)) for c in range(16)]
    assert search.step_work(play) == search.STEP_WORK
    assert search.STEP_WORK < search.step_work(calls) < search.step_work(many)
    assert search.step_work(many) == search.step_work(many[:search.OPTIONS_CHARGED])
