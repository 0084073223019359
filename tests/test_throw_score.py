"""``throw_score``: how the normal bot scores a throw at an exchange, worked by hand on small hands.

The hand's cards come ranked by their chances, high first; each card thrown is replaced by one drawn, worth the
average chance (``avg``); a call may draw ``extra`` cards more and then owe ``owed`` back (the weakest go).  The
score is the chances of the hand left, summed, then fewer cards thrown.  The chances are sums of halves, so the
sums are exact in binary."""

from __future__ import annotations

from khrap.bots.heuristic import throw_score

RANKED = [(0.875, 10), (0.625, 11), (0.25, 12), (0.125, 13)]


def test_a_throw_keeps_the_other_cards_and_draws_as_many_at_the_average() -> None:
    parts = (RANKED, 0.5, 0, 0)
    assert throw_score(parts, ()) == (1.875, 0)  # 0.875 + 0.625 + 0.25 + 0.125
    assert throw_score(parts, (13,)) == (2.25, -1)  # 0.875 + 0.625 + 0.5 + 0.25
    assert throw_score(parts, (12, 13)) == (2.5, -2)  # 0.875 + 0.625 + 0.5 + 0.5
    assert throw_score(parts, (10,)) == (1.5, -1)  # 0.625 + 0.5 + 0.25 + 0.125


def test_a_throw_of_more_cards_scores_lower_when_the_hands_left_are_as_good() -> None:
    parts = ([(0.5, 10), (0.5, 11)], 0.5, 0, 0)
    assert throw_score(parts, ()) > throw_score(parts, (11,)) > throw_score(parts, (10, 11))


def test_extra_cards_drawn_are_counted_and_the_weakest_are_owed_back() -> None:
    # Throw 13 and draw two (one extra) at 0.5: 0.875, 0.625, 0.5, 0.5, 0.25; one owed back: the 0.25 goes.
    assert throw_score((RANKED, 0.5, 1, 1), (13,)) == (2.5, -1)


def test_cards_drawn_worth_less_than_every_card_kept_still_count() -> None:
    # Every card kept is above the average: the drawn one goes in last (0.875 + 0.75 + 0.625 + 0.5).
    ranked = [(0.875, 10), (0.75, 11), (0.625, 12), (0.5625, 13)]
    assert throw_score((ranked, 0.5, 0, 0), (13,)) == (2.75, -1)
    # One extra drawn and one owed: the two drawn are the weakest, so one of them goes (0.875 + 0.75 + 0.625 + 0.5).
    assert throw_score((ranked, 0.5, 1, 1), (13,)) == (2.75, -1)


def test_owing_back_the_whole_hand_left_scores_nothing() -> None:
    # Four cards kept, none drawn, four owed back: the hand left counts nothing (the slice ``[:4 - 4]``).
    assert throw_score((RANKED, 0.5, 0, 4), ()) == (0.0, 0)
    # Three owed: the strongest card alone counts.
    assert throw_score((RANKED, 0.5, 0, 3), ()) == (0.875, 0)
