"""``HeuristicBot.decide_in``: the search's playout step keeps a decision by what it reads and finds it again.

Its choice must be ``decide``'s on the facts of the deal at every step, whether found again or worked out: each
playout here is played by a bot that keeps its choices and checked at every step against a bot that keeps none,
on the candidates of sampled deals (where the same facts come again), in the built-ins with exchanges,
discards and calls.
"""

from __future__ import annotations

import random

import pytest

from khrap.bots import HeuristicBot, choose_for
from khrap.bots.determinize import seat_view, try_each
from khrap.bots.heuristic import KEPT_WORDS, info_from_state
from khrap.engine import GameState, Rules
from khrap.variant.catalog import load_variant


def decisions(rules: Rules, seeds: range):
    """Each decision with a choice of a heuristic table, as a copy of its state."""
    bot = HeuristicBot(rules)
    for seed in seeds:
        state = GameState(rules, rules.players, dealer=seed % rules.players, seed=seed)
        state.start_deal()
        step = 0
        while state.pending is not None:
            rng = random.Random(f"decide-in:{seed}:{step}")
            legal = state.legal_actions()
            if len(legal) > 1 and legal[0].word != "play":
                yield state.play_copy()
            state.apply(choose_for(bot, state, rng))
            step += 1


@pytest.mark.parametrize("variant", ["khrap", "frap", "khrap-shoot"])
def test_a_choice_found_again_is_the_one_worked_out(variant: str) -> None:
    rules = Rules(load_variant(variant), 4)
    keeping, fresh = HeuristicBot(rules), HeuristicBot(rules)
    counts = {"kept": 0, "found": 0}

    def play_on(sim: GameState, luck: random.Random, check: random.Random) -> float:
        while sim.pending is not None:
            legal = sim.legal_actions()
            if len(legal) == 1:
                sim.apply(legal[0])
                continue
            seat = sim.to_act
            before = len(keeping._decided)
            choice = keeping.decide_in(sim, seat, legal, luck)
            expected = fresh.decide(info_from_state(sim, seat), legal, check, sim.round)
            assert choice is expected, (seat, legal[0].word)
            if legal[0].word in KEPT_WORDS:
                counts["kept"] += 1
                counts["found"] += len(keeping._decided) == before  # (nothing added: found again)
            sim.apply(choice)
        return 0.0

    for state in decisions(rules, range(2)):
        view = seat_view(state, state.to_act)
        for sample in range(2):
            deal = view.sample(random.Random(sample))
            seed = 100 + sample
            # the two bots draw alike: each playout's luck and its check start from the same seed
            checks = iter([random.Random(seed) for _ in range(len(state.legal_actions()))])
            try_each(deal, state.legal_actions(), seed,
                     lambda sim, luck, checks=checks: play_on(sim, luck, next(checks)))
    assert counts["kept"] > 20 and counts["found"] > counts["kept"] // 5, counts


def changed(state: GameState, what: str, seat: int) -> GameState | None:
    """A copy of ``state`` with one fact an exchange reads changed (None where it cannot be): the other seats'
    hands emptied into the stock, another seat's status, the trump, a card of the stock gone (won), the stock cut to
    one card (the throws listed then differ)."""
    new = state.play_copy()
    other = (seat + 1) % new.n
    if what == "hand sizes":  # (the others' hands into the stock: the unseen cards no longer held against it)
        for s in range(new.n):
            if s != seat:
                new.stock += new.hands[s]
                new.hands[s] = []
    elif what == "statuses":
        new.statuses[other] = "out" if new.statuses[other] != "out" else "helper"
    elif what == "trump":
        new.trump = (new.trump + 1) % 4 if new.trump is not None else 0
    elif what == "gone" and new.stock:
        new.won.append(new.stock.pop())
    elif what == "stock" and len(new.stock) > 1:  # (fewer cards to draw: fewer throws listed)
        new.discards += new.stock[1:]
        del new.stock[1:]
    else:
        return None
    return new


@pytest.mark.parametrize("variant", ["khrap", "frap"])
def test_an_exchange_is_not_found_again_when_a_fact_it_reads_changed(variant: str) -> None:
    """For each fact an exchange reads, a deal where changing it alone changes the choice: the bot that kept the
    choice of the deal before the change chooses as a fresh bot does after it (a key without that fact fails)."""
    rules = Rules(load_variant(variant), 4)
    shown: dict[str, int] = {}
    for state in decisions(rules, range(40)):
        legal = state.legal_actions()
        if legal[0].word not in KEPT_WORDS:
            continue
        seat = state.to_act
        before = HeuristicBot(rules).decide(info_from_state(state, seat), legal, random.Random(0))
        for what in ("hand sizes", "statuses", "trump", "gone", "stock"):
            new = changed(state, what, seat)
            if new is None:
                continue
            listed = new.legal_actions()
            keeping = HeuristicBot(rules)
            assert keeping.decide_in(state, seat, legal, random.Random(0)) is before
            expected = HeuristicBot(rules).decide(info_from_state(new, seat), listed, random.Random(0))
            assert keeping.decide_in(new, seat, listed, random.Random(0)) is expected, what
            shown[what] = shown.get(what, 0) + (expected is not before)
    assert all(shown.get(what) for what in ("hand sizes", "statuses", "trump", "gone", "stock")), shown


def call_changed(state: GameState, what: str, seat: int) -> GameState | None:
    """A copy of ``state`` with one fact a call reads changed (None where it cannot be): the pot doubled (and one
    more), the bidding round the last (or one later), another seat's status, the seat's hand less its last card
    (into the stock)."""
    new = state.play_copy()
    other = (seat + 1) % new.n
    if what == "pot":
        new.pot = 2 * new.pot + 1
    elif what == "round":  # (to the last round: where nobody can join, a lone declarer need not wait for it)
        last = new.rules.variant.all_pass.rounds
        new.round = last if new.round < last else new.round + 1
    elif what == "statuses":
        new.statuses[other] = "out" if new.statuses[other] != "out" else "undecided"
    elif what == "hand" and new.hands[seat]:
        new.stock.append(new.hands[seat].pop())
    else:
        return None
    return new


@pytest.mark.parametrize(("variant", "facts"), [("khrap", ("pot", "statuses", "hand")),
                                                ("snore", ("round", "pot"))])  # (snore's prize reads the round)
def test_a_call_is_not_valued_again_when_a_fact_it_reads_changed(variant: str, facts: tuple[str, ...]) -> None:
    """``decide_in`` keeps what each answer of a call is worth by the facts it reads and the bidding round: for each
    such fact, a deal where changing it alone changes the choice, and the bot that kept the worths of the deal
    before the change chooses as a fresh bot does after it (a key without the fact fails); the same deal again is
    found again (nothing more kept) and chosen alike, its tie-breaks drawn as ever."""
    rules = Rules(load_variant(variant), 4)
    shown: dict[str, int] = {}
    found = 0
    for state in decisions(rules, range(30)):
        legal = state.legal_actions()
        if legal[0].word not in rules.calls:
            continue
        seat = state.to_act
        before = HeuristicBot(rules).decide(info_from_state(state, seat), legal, random.Random(0), state.round)
        keeping = HeuristicBot(rules)
        assert keeping.decide_in(state, seat, legal, random.Random(0)) is before
        kept = len(keeping._worths)
        assert keeping.decide_in(state.play_copy(), seat, legal, random.Random(0)) is before
        found += len(keeping._worths) == kept
        for what in facts:
            new = call_changed(state, what, seat)
            if new is None:
                continue
            listed = new.legal_actions()
            if len(listed) < 2 or listed[0].word not in rules.calls:
                continue
            expected = HeuristicBot(rules).decide(info_from_state(new, seat), listed, random.Random(0), new.round)
            assert keeping.decide_in(new, seat, listed, random.Random(0)) is expected, what
            shown[what] = shown.get(what, 0) + (expected is not before)
    assert found > 20
    assert all(shown.get(what) for what in facts), shown
