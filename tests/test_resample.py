"""The engine's information-state resampler (engine/resample.py; issue 31): a resampled deal agrees
with the seat's view, keeps every card once, and plays on."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from khrap.cards import parse_card
from khrap.engine import GameState, Rules
from khrap.engine.events import Event
from khrap.engine.resample import Resampler, resample
from khrap.engine.view import seat_view
from khrap.variant import catalog
from tests.conftest import every_table, examples, new_table
from tests.test_checks_both_ways import calls_with, tiny


def _cards(state: GameState) -> list[int]:
    """Every card at the table: hands, stock, discards, tricks won, the turned cards, the open trick."""
    found = [c for hand in state.hands for c in hand] + state.stock + state.discards + state.won + state.turned
    return sorted(found + [c for _, c, _ in state.trick])


def _comparable(view) -> tuple:
    # A seat that has not looked is dealt a random hand: the calls the kernel lists may depend on it.
    key = view.key()
    return key if view.hand is not None else key[:-2] + key[-1:]


@pytest.mark.large
@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(every_table()), seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 60),
       seat=st.integers(0, 5))
def test_a_resampled_deal_agrees_with_the_seats_view_and_keeps_the_deck(table, seed, stop, seat) -> None:
    name, players = table
    seat %= players
    state = new_table(name, players, seed=seed)
    rng = random.Random(seed)
    state.start_deal()
    for _ in range(stop):
        if state.pending is None:
            break
        state.apply(rng.choice(state.legal_actions()))
    before = _cards(state)
    assert len(set(before)) == len(before)
    view = seat_view(state, seat)
    for k in range(3):
        sample = resample(state, seat, random.Random(k))
        assert _cards(sample) == before  # the same cards, each once
        assert _comparable(seat_view(sample, seat)) == _comparable(view)
        assert sample.observation(seat)["events"] == state.observation(seat)["events"]
        if view.hand is not None:
            assert sorted(sample.hands[seat]) == view.hand
        for other in range(players):
            assert len(sample.hands[other]) == len(state.hands[other])
    assert seat_view(state, seat) == view  # the state itself is untouched
    sample = resample(state, seat, random.Random(seed))
    while sample.pending is not None:  # a resampled deal plays on to its settlement
        sample.apply(rng.choice(sample.legal_actions()))


def test_a_resampled_deal_keeps_the_seats_secrets_and_hides_the_others() -> None:
    from tests.test_view import table

    state = table()
    for seat, word in ((1, "khrap"), (2, "help"), (3, "pass"), (0, "pass"), (3, "pass"), (0, "pass")):
        state.apply(word, seat)
    state.apply("exchange 6D 7C", 1)  # seat 1 draws QS KS
    state.apply("exchange 6S 8C", 2)  # seat 2 draws 6H 7H
    resampler = Resampler(state, 1)
    samples = [resampler.sample(random.Random(k)) for k in range(20)]
    assert all(s.hands[1] == state.hands[1] for s in samples)
    # seat 1's thrown 6D 7C are discards it knows; seat 2's thrown cards it does not know
    assert all({c for c in s.discards} >= set(resampler.known_gone) for s in samples)
    assert len({tuple(sorted(s.hands[2])) for s in samples}) > 1  # seat 2's hand is drawn at random
    for s in samples:
        assert all(e.secret is None or e.seat == 1 for e in s.log)  # no other seat's secret in its log


# A declaring call that needs the ace and king of spades and throws the hand, keeping only the king.
THROW_ACE = ("  throw:\n    name: {en: Throw}\n"
             "    requires: {declarer: absent, holds: [{rank: A, suit: S}, {rank: K, suit: S}]}\n"
             "    effects: {status: declarer, discard_hand: true, keep: [{rank: K, suit: S}], draw: 3}\n")


def test_a_card_the_call_required_but_threw_is_not_placed_in_the_callers_hand(tmp_path) -> None:
    """The cards a call proves its caller holds are those it required less those it threw (derived.held_after).
    The resampler's own copy kept every required card whenever the call kept some card: here seat 1 must
    hold the ace and king of spades to throw, throws his hand keeping only the king, and the ace goes to the
    discards; another seat's resampler placed it in his hand (a deal that cannot be)."""
    path = tmp_path / "variant.yaml"
    path.write_text(tiny(calls_with(THROW_ACE), ("calls: [bid, help, pass]", "calls: [throw, bid, help, pass]")),
                    encoding="utf-8")
    v = catalog.load_variant(str(path))
    rules = Rules(v, 3)
    ace, king = parse_card("AS"), parse_card("KS")
    state = GameState(rules, 3, seed=1, decks=[rules.complete_deck([ace, parse_card("6C"), parse_card("7C"), king])])
    state.start_deal()
    assert ace in state.hands[1] and king in state.hands[1]  # (seat 1, the dealer's left, is dealt first)
    state.apply("throw")
    assert ace in state.discards and ace not in state.hands[1] and king in state.hands[1]
    resampler = Resampler(state, 2)
    assert ace not in resampler.known[1] and king in resampler.known[1]  # the king was shown, kept face up


class _NeverIdle(set):
    """An ``_IDLE`` that keeps nothing (with ``_READ`` every event): each read through ``FactsReader.read``'s
    isinstance tests."""

    def add(self, kind) -> None:
        pass


@pytest.mark.large
@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(every_table()), seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 60))
def test_the_facts_read_passing_over_idle_kinds_are_the_general_reading(table, seed, stop) -> None:
    """``FactsReader.read`` passes over an event of a kind it found reads nothing (``_IDLE``): every seat's facts
    the same as read through the isinstance tests alone."""
    from khrap.engine import resample as rs

    name, players = table
    state = new_table(name, players, seed=seed)
    rng = random.Random(seed)
    state.start_deal()
    for _ in range(stop):
        if state.pending is None:
            break
        state.apply(rng.choice(state.legal_actions()))
    for seat in range(players):
        events = seat_view(state, seat).events
        rs.facts_of(events, seat)  # (every kind met once: the idle ones known)
        fast = rs.facts_of(events, seat)
        assert not rs._IDLE & set(rs._READ)
        known, rs._IDLE, kinds, rs._READ = rs._IDLE, _NeverIdle(), rs._READ, (Event,)  # (every event tested)
        try:
            general = rs.facts_of(events, seat)
        finally:
            rs._IDLE, rs._READ = known, kinds
        assert fast == general
