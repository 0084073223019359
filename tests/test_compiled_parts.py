"""Parts of the compiled machine checked on their own: the written-out call tests and the lazy exchanges.

Their behaviour in play is checked against the reference kernel by ``test_compiled.py``; here
each precondition's expression is compared with one written by hand, and the exchanges with
``itertools.combinations``, so that a mistake shows where it is."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from khrap.engine.compiled.listers import conditions, make_lister
from khrap.engine.compiled.machine import Exchanges
from khrap.variant.schema import Call

EVERY_PRECONDITION = Call.model_validate({
    "name": {"en": "Everything"},
    "requires": {"dealer": True, "blind": True, "turned_rank": "A", "min_trumps": 1, "max_trumps": 2,
                 "holds": [{"rank": "A", "suit": "S"}, {"rank": "6", "suit": "trump"}]},
    "effects": {"status": "declarer", "take_turned": "yes", "draw": 4, "then_discard": 1},
})


def test_every_precondition_is_written_out() -> None:
    # The tests of the preconditions table, in its order (who may call, his cards, the table, blind last).
    # Cards are suit * 13 + rank with suits S, H, D, C and ranks 2..A as 0..12: the ace of
    # spades is 12, a six is rank 4.  Taking the turned card and drawing 4 needs 4 cards in the
    # stock beyond those owed; a table without debts asks whether the stack covers the status.
    expected = [
        "seat == m.dealer",
        "m.declarer == seat",
        "12 in hand",
        "trump is not None and trump * 13 + 4 in hand",
        "trumps(hand, trump) >= 1",
        "trumps(hand, trump) <= 2",
        "not m.turned_taken and bool(m.turned) and m.turned[-1] % 13 == 12",
        "not m.turned_taken and bool(m.turned)",
        "4 <= len(m.stock) - m.owed_draws",
        "m.can_cover(seat, 'declarer', 'x')",
        "not m.looked[seat]",
    ]
    assert conditions("x", EVERY_PRECONDITION, allow_debt=False, declarer_exists=True) == expected
    # With no declarer yet, a declaring call is open to anyone; with debts allowed nothing is covered.
    assert conditions("x", EVERY_PRECONDITION, allow_debt=True, declarer_exists=False) == [
        t for t in expected if t not in ("m.declarer == seat", "m.can_cover(seat, 'declarer', 'x')")]


class Table:
    """The few fields a lister reads."""

    def __init__(self, hand: list[int], trump: int | None, stock: int, looked: bool = False) -> None:
        self.hands = [hand]
        self.trump = trump
        self.stock = [0] * stock
        self.owed_draws = 0
        self.looked = [looked]
        self.dealer = 0
        self.declarer = 0
        self.turned = [12]  # the ace of spades turned
        self.turned_taken = False

    def can_cover(self, seat: int, status: str, cid: str) -> bool:
        return True


@pytest.mark.parametrize(("hand", "trump", "stock", "looked", "is_open"), [
    ([12, 4, 20], 0, 4, False, True),  # A and 6 of spades, spades trump, 2 trumps, 4 cards to draw
    ([12, 4, 20], 0, 3, False, False),  # the stock is a card short
    ([12, 4, 20], 0, 4, True, False),  # he has looked
    ([12, 4, 5], 0, 4, False, False),  # three trumps
    ([12, 17, 20], 1, 4, False, True),  # hearts trump: the six (17) and the nine (20) of hearts, 2 trumps
    ([12, 17, 20], None, 4, False, False),  # no trump named: no trump six, no trump held
])
def test_a_lister_applies_the_written_tests(hand: list[int], trump: int | None, stock: int, looked: bool,
                                            is_open: bool) -> None:
    forms = [("everything",), ("pass",)]
    plain = Call.model_validate({"name": {"en": "Pass"}, "effects": {"status": "out"}})
    lister = make_lister("test", [("x", EVERY_PRECONDITION), ("pass", plain)], False, True, forms)
    expected = ["everything", "pass"] if is_open else ["pass"]
    assert lister(Table(hand, trump, stock, looked), 0) == expected


@pytest.mark.parametrize("size", range(7))
def test_exchanges_are_the_combinations_in_order(size: int) -> None:
    hand = sorted(random.Random(size).sample(range(52), size))
    for least in range(size + 1):
        for most in range(least, size + 1):
            expected = [c for k in range(least, most + 1) for c in combinations(hand, k)]
            made = Exchanges(hand, least, most)
            assert len(made) == len(expected)
            assert list(made) == expected
            assert [made[i] for i in range(-len(expected), 0)] == expected


def test_an_optional_take_tests_each_form_apart() -> None:
    # Draw 2 with an optional take of the turned card: without it, 2 cards from the stock; taking
    # it, the turned card counts as one draw (1 from the stock) and must still be on the table.
    call = Call.model_validate({"name": {"en": "Take"},
                                "effects": {"status": "helper", "take_turned": "optional", "draw": 2}})
    assert conditions("t", call, allow_debt=True, declarer_exists=True) == ["2 <= len(m.stock) - m.owed_draws"]
    assert conditions("t", call, allow_debt=True, declarer_exists=True, takes=True) == [
        "not m.turned_taken and bool(m.turned)", "1 <= len(m.stock) - m.owed_draws"]
    lister = make_lister("test", [("t", call)], True, True, [("plain", "taking")])
    assert lister(Table([1, 2], 0, stock=2), 0) == ["plain", "taking"]
    assert lister(Table([1, 2], 0, stock=1), 0) == ["taking"]
    taken = Table([1, 2], 0, stock=2)
    taken.turned_taken = True
    assert lister(taken, 0) == ["plain"]


def test_every_kind_of_decision_is_a_kernel_step_or_a_registered_offer() -> None:
    """``Machine.legal``/``apply`` test the kernel's five kinds and hand any other to ``machine.offered``:
    every ``Kind`` must be one or the other (the registry registers the offers when it is made)."""
    from khrap.engine import decisions  # noqa: F401 - makes the registry, which registers the offers
    from khrap.engine.compiled.machine import OFFERED, offered
    from khrap.engine.kinds import CALL, DISCARD, EXCHANGE, PLAY, TRUMP, Kind

    kernel = {CALL, DISCARD, EXCHANGE, PLAY, TRUMP}
    for kind in Kind:
        assert (kind in kernel) != (kind in OFFERED), kind
        if kind in OFFERED:
            assert offered(kind) == OFFERED[kind]
