"""What a session remembers between deals, and what a record's own rules must pass before it is replayed."""

from __future__ import annotations

import random

import pytest

from khrap.session import Session
from khrap.session.record import RecordError, from_record


def play_out(session: Session, rng: random.Random) -> None:
    session.start_deal()
    while not session.deal_over:
        session.apply(rng.choice(session.legal_actions()))


def test_deal_stacks_are_the_stacks_before_each_deal() -> None:
    """The deal summary's "before" column (khrap.play.game): the stacks before this deal's ante, not the first's."""
    session, rng = Session("khrap", 4, seed=11), random.Random(11)
    for _ in range(3):
        before = session.stacks
        play_out(session, rng)
        assert session.deal_stacks == before
    assert session.deal_stacks != [100] * 4  # the antes of two deals have gone in since the first


def test_a_record_whose_rules_fail_the_checks_is_refused() -> None:
    """A record carries the resolved variant (`rules`); rules that type-check but could not be played (here
    players.min above players.max) are refused with the field and the check's message, as a variant file would be
    (a problem made by several fields, as here, is named by the first)."""
    session = Session("khrap", 4, seed=3)
    record = session.to_record()
    record["rules"]["players"] = {"min": 5, "max": 4}
    with pytest.raises(RecordError) as info:
        from_record(record)
    assert str(info.value) == ("`rules` is not a valid variant: players.min: "
                               "players.min (5) is more than players.max (4)")
