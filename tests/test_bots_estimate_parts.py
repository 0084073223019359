"""The hand model's parts written for speed (``khrap.bots.estimate``): each is checked against what it replaces.

``with_average`` is the sorted list of the kept chances and the drawn averages, without a sort; ``bits`` counts
set bits; ``_suit_counts`` packs the cards of each suit (the joker left out) into the pool caches' keys;
``unseen_above``, ``unseen_in`` and ``joker_unseen`` answer from bits what the play asks of the unseen cards; and
``chances`` counts the unseen cards above each card by one mask, the numbers of ``chance`` card by card.
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from khrap import words as w
from khrap.bots.estimate import Estimator, Info, bits, card_mask, unpacked, with_average
from khrap.cards import parse_card
from khrap.engine import Rules
from khrap.variant.catalog import load_variant
from tests.conftest import heuristic_decisions


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def estimator(variant: str) -> Estimator:
    return Estimator(Rules(load_variant(variant), 4))


def test_the_average_goes_in_where_it_falls() -> None:
    # kept 0.9 0.5 (0.2 thrown), two drawn at 0.4: 0.9 0.5 0.4 0.4
    assert with_average([0.9, 0.5, 0.2], 2, 0.4, 2) == [0.9, 0.5, 0.4, 0.4]
    # the average above every kept chance goes first; below every one, last
    assert with_average([0.3, 0.2], 2, 0.5, 1) == [0.5, 0.3, 0.2]
    assert with_average([0.9, 0.8], 2, 0.1, 2) == [0.9, 0.8, 0.1, 0.1]
    assert with_average([0.7], 0, 0.3, 3) == [0.3, 0.3, 0.3]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), max_size=8), st.floats(0.0, 1.0), st.integers(0, 8), st.integers(0, 4))
def test_the_average_goes_in_as_a_sort_puts_it(values: list[float], avg: float, kept: int, drawn: int) -> None:
    probs = sorted(values, reverse=True)
    kept = min(kept, len(probs))
    assert with_average(probs, kept, avg, drawn) == sorted(probs[:kept] + [avg] * drawn, reverse=True)


def test_bits_counts_the_set_bits() -> None:
    assert [bits(0), bits(0b1011), bits(1 << 40 | 1), bits((1 << 36) - 1)] == [0, 3, 2, 36]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=40))
def test_the_plain_branches_count_and_mask_as_the_loops(cards: list[int]) -> None:
    """``bits`` and ``card_mask`` plain (``int.bit_count``, ``reduce``) give the ints of their loops (compiled),
    a card twice included."""
    import khrap.bots.estimate as est

    if not est.INTERPRETED:  # (compiled, the loops alone run, and a Final is not patched from here)
        pytest.skip("the compiled module has no plain branch")
    plain = (card_mask(cards), [bits(m) for m in (card_mask(cards), card_mask(cards[:3]) << 7, 0)])
    est.INTERPRETED = False
    try:
        loops = (card_mask(cards), [bits(m) for m in (card_mask(cards), card_mask(cards[:3]) << 7, 0)])
    finally:
        est.INTERPRETED = True
    assert plain == loops
    assert plain[1][0] == len(set(cards))


def test_the_suits_are_counted_without_the_joker() -> None:
    est = estimator("student-snore")  # (its joker: 7S)
    packed, joker = est._suit_counts(cards("7S 8S 6H AD KC QC"))
    assert joker and unpacked(packed) == [1, 1, 1, 2]
    packed, joker = est._suit_counts(cards("8S 9S TS"))
    assert not joker and unpacked(packed) == [3, 0, 0, 0]


def test_the_pool_counts_the_unseen_cards() -> None:
    """``pool``: how many cards are unseen, each suit's count without the joker, and whether the joker is unseen."""
    khrap = estimator("khrap")  # 9 cards a suit, spades, hearts, diamonds, clubs
    seat = Info(0, 4, cards("6S 7S AH"), 0, None, [w.UNDECIDED] * 4, [None] * 4, [0] * 4, [], set(cards("KD")), 4,
                [4] * 4, 20)
    size, packed, joker = khrap.pool(seat, cards("6S 7S AH"))
    assert (size, unpacked(packed), joker) == (32, [7, 8, 8, 9], False)
    student = estimator("student-snore")  # its joker: 7S
    assert student.pool(seat, cards("6S AH")) == (33, packed, True)  # 7S unseen: the joker, not a spade
    size, packed, joker = student.pool(seat, cards("6S 7S AH"))
    assert (size, unpacked(packed), joker) == (32, [7, 8, 8, 9], False)


@pytest.mark.parametrize("variant", ["khrap", "student-snore", "frap"])
def test_the_pool_is_the_unseen_list_counted(variant: str) -> None:
    """``pool`` reads bits; it counts what ``unseen`` lists, as ``_suit_counts`` counts a list."""
    est = estimator(variant)
    rng = random.Random(11)
    for _ in range(300):
        dealt = rng.sample(est.deck, rng.randint(0, 24))
        hand, gone = dealt[:5], set(dealt[5:])
        seat = Info(0, 4, hand, None, None, [w.UNDECIDED] * 4, [None] * 4, [0] * 4, [], gone, 4, [5] * 4, 10)
        listed = est.unseen(seat, hand)
        assert est.pool(seat, hand) == (len(listed), *est._suit_counts(listed))


def test_the_unseen_cards_are_read_from_bits() -> None:
    est = estimator("khrap")  # 36 cards, 6 to A, no joker
    assert not est.unseen_above(parse_card("QS"), card_mask(cards("KS AS")))
    assert est.unseen_above(parse_card("QS"), card_mask(cards("KS")))  # the ace is unseen
    assert not est.unseen_above(parse_card("AH"), 0)
    assert not est.unseen_in(1, card_mask(cards("6H 7H 8H 9H TH JH QH KH AH")))
    assert est.unseen_in(1, card_mask(cards("6H 7H 8H 9H TH JH QH KH")))
    assert not est.joker_unseen(0)
    joker = estimator("student-snore")
    assert joker.joker_unseen(card_mask(cards("8S")))
    assert not joker.joker_unseen(card_mask(cards("7S")))


@pytest.mark.parametrize("variant", ["khrap", "student-snore"])
def test_chances_are_each_card_s_chance(variant: str) -> None:
    """``chances`` gives, card by card, ``sharpen(chance(...))``: the unseen cards above a card counted by a mask as
    ``chance`` counts them in its suit's list (the joker, where there is one, among them)."""
    est = estimator(variant)
    rng = random.Random(7)
    for _ in range(200):
        dealt = rng.sample(est.deck, 12)
        hand, gone = dealt[:5], set(dealt[5:])
        trump = rng.choice([None, 0, 1, 2, 3])
        seat = Info(0, 4, hand, trump, None, [w.DECLARER, w.HELPER, w.UNDECIDED, w.OUT], [None] * 4, [0] * 4, [],
                    gone, 8, [5, 5, 5, 5], 10)
        q = est.opponents_share(seat, len(est.unseen(seat, hand)))
        assert est.chances(hand, trump, seat) == [est.sharpen(est.chance(c, hand, trump, seat, q)) for c in hand]


@pytest.mark.parametrize("variant", ["khrap", "khrap-shoot", "snore"])
def test_kept_answers_are_the_answers_worked_out(variant: str) -> None:
    """``joiners`` and ``penalty`` keep their answers by what they read: over the seats' facts at every call of a
    few heuristic deals, asked of one estimator for every declaring call and trick count, they answer as worked out
    afresh (a key without the statuses or the pot fails; the seats holding cards: tests/test_bots_stage_model.py)."""
    from khrap.bots.heuristic import info_from_state

    rules = Rules(load_variant(variant), 4)
    est = Estimator(rules)
    checked = 0
    changed: dict[str, int] = {}
    for state in heuristic_decisions(rules, 12):
        legal = state.legal_actions()
        if len(legal) < 2 or legal[0].word not in rules.calls:
            continue
        seat_info = info_from_state(state, state.to_act)
        words = [a.word for a in legal]
        for a in legal:
            call = rules.calls.get(a.word)
            if call is None or call.effects.status != w.DECLARER:
                continue
            first = est.joiners(call, seat_info, words)
            assert first == est._joiners_of(call, seat_info, words)
            for what, other in perturbed(seat_info):
                found = est.joiners(call, other, words)
                assert found == est._joiners_of(call, other, words), what
                changed[what] = changed.get(what, 0) + (found != first)
            for tricks in range(3):
                assert est.penalty(w.DECLARER, a.word, tricks, [], None, state.pot) == \
                    est._penalty(w.DECLARER, a.word, tricks, [], None, state.pot)
            checked += 1
    assert checked > 10
    assert changed.get("statuses"), changed


def perturbed(seat: Info) -> list[tuple[str, Info]]:
    """The seat's facts with one fact ``joiners`` reads changed: the next seat a helper (then nobody is alone), the
    cards of the seats that are out thrown."""
    nxt = (seat.seat + 1) % seat.n
    statuses = [w.HELPER if s == nxt else st for s, st in enumerate(seat.statuses)]
    sizes = [0 if st == w.OUT else size for st, size in zip(seat.statuses, seat.hand_sizes, strict=True)]
    return [("statuses", replace(seat, statuses=statuses)), ("cards held", replace(seat, hand_sizes=sizes))]


def _distribution_by_adding(est: Estimator, probs: list[float]) -> list[float]:
    """The trick-count distribution as first written: each card's products added into a list of zeros."""
    dist = [1.0]
    for p in probs:
        p = min(0.97, max(0.0, p))
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    size = est.variant.hand_size
    return dist[:size] + [sum(dist[size:])] if len(dist) > size + 1 else dist


@functools.cache
def _khrap() -> Estimator:
    return estimator("khrap")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-0.5, 1.5), max_size=9))
def test_the_distribution_is_the_same_floats(probs: list[float]) -> None:
    """``distribution`` adds each count's two products directly: the very floats of adding them into zeros."""
    est = _khrap()
    assert est.distribution(probs) == _distribution_by_adding(est, probs)


def test_the_distribution_of_two_cards() -> None:
    est = estimator("khrap")
    assert est.distribution([0.5, 0.25]) == [0.375, 0.5, 0.125]  # none 0.5 x 0.75, one 0.5 x 0.25 + 0.5 x 0.75
    assert est.distribution([1.0]) == [0.030000000000000027, 0.97]  # (a chance is capped at 0.97)
