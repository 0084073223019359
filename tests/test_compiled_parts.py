"""Parts of the compiled machine checked on their own: the call tests the listers run and the lazy exchanges.

Their behaviour in play is checked against the reference kernel by ``test_compiled.py``; here
each precondition's test is compared with one written by hand, and the exchanges with
``itertools.combinations``, so that a mistake shows where it is."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from khrap.engine import Rules
from khrap.engine.actions import Action
from khrap.engine.compiled.listers import (
    Always,
    Check,
    Covers,
    Dealer,
    DeclarerExists,
    Holds,
    HoldsTrump,
    IsDeclarer,
    Lister,
    NoDeclarer,
    NoOtherDeclarer,
    NotLooked,
    PotAtMost,
    StockHolds,
    TrumpsAtLeast,
    TrumpsAtMost,
    TurnedRank,
    TurnedThere,
    trumps,
)
from khrap.engine.compiled.machine import Exchanges, Machine, check_source, written_lister
from khrap.engine.compiled.program import make_lister
from khrap.engine.preconditions import conditions
from khrap.variant.catalog import builtin
from khrap.variant.schema import Call

EVERY_PRECONDITION = Call.model_validate({
    "name": {"en": "Everything"},
    "requires": {"dealer": True, "blind": True, "turned_rank": "A", "min_trumps": 1, "max_trumps": 2,
                 "holds": [{"rank": "A", "suit": "S"}, {"rank": "6", "suit": "trump"}]},
    "effects": {"status": "declarer", "take_turned": "yes", "draw": 4, "then_discard": 1},
})


def test_every_precondition_is_a_test_of_its_kind() -> None:
    # The tests of the preconditions table, in its order (who may call, his cards, the table, blind last).
    # Cards are suit * 13 + rank with suits S, H, D, C and ranks 2..A as 0..12: the ace of
    # spades is 12, a six is rank 4.  Taking the turned card and drawing 4 needs 4 cards in the
    # stock beyond those owed; a table without debts asks whether the stack covers the status.
    expected = [
        Dealer(),
        IsDeclarer(),
        Holds(12),
        HoldsTrump(4),
        TrumpsAtLeast(1),
        TrumpsAtMost(2),
        TurnedRank(12),
        TurnedThere(),
        StockHolds(4),
        Covers(status="declarer", cid="x"),
        NotLooked(),
    ]
    assert conditions("x", EVERY_PRECONDITION, allow_debt=False, declarer_exists=True) == expected
    # With no declarer yet, a declaring call is open to anyone; with debts allowed nothing is covered.
    assert conditions("x", EVERY_PRECONDITION, allow_debt=True, declarer_exists=False) == [
        t for t in expected if t not in (IsDeclarer(), Covers(status="declarer", cid="x"))]


KHRAP = Rules(builtin("khrap"), 4)


def opener(lister: Lister, write: bool):
    """A lister's two branches: its loop (``open``), or the machine's plain-Python function (``written_lister``)."""
    return written_lister(lister) if write else lister.open


def table(hand: list[int], trump: int | None, stock: int, looked: bool = False) -> Machine:
    """A khrap machine holding the few fields a lister reads: seat 0's hand, dealer and declarer, the ace of
    spades turned."""
    m = Machine(KHRAP.program)
    m.hands = [hand, [], [], []]
    m.trump = trump
    m.stock = [0] * stock
    m.owed_draws = 0
    m.looked = [looked, False, False, False]
    m.dealer = 0
    m.declarer = 0
    m.turned = [12]
    m.turned_taken = False
    return m


@pytest.mark.parametrize("write", [False, True], ids=["loop", "written"])
@pytest.mark.parametrize(("hand", "trump", "stock", "looked", "is_open"), [
    ([12, 4, 20], 0, 4, False, True),  # A and 6 of spades, spades trump, 2 trumps, 4 cards to draw
    ([12, 4, 20], 0, 3, False, False),  # the stock is a card short
    ([12, 4, 20], 0, 4, True, False),  # he has looked
    ([12, 4, 5], 0, 4, False, False),  # three trumps
    ([12, 17, 20], 1, 4, False, True),  # hearts trump: the six (17) and the nine (20) of hearts, 2 trumps
    ([12, 17, 20], None, 4, False, False),  # no trump named: no trump six, no trump held
])
def test_a_lister_applies_the_tests(hand: list[int], trump: int | None, stock: int, looked: bool,
                                    is_open: bool, write: bool) -> None:
    plain = Call.model_validate({"name": {"en": "Pass"}, "effects": {"status": "out"}})
    lister = make_lister("test", [("x", EVERY_PRECONDITION), ("pass", plain)], True, True)
    expected = [Action("x"), Action("pass")] if is_open else [Action("pass")]
    assert opener(lister, write)(table(hand, trump, stock, looked), 0) == expected


def test_covers_asks_the_machine() -> None:
    # Helicopter, khrap's declaring call, on a table that refuses what a stack cannot pay: open with a full
    # stack, not with none (its test is the machine's own ``can_cover``).
    m = table([], 0, 4)
    covers = Covers(status="declarer", cid="helicopter")
    assert covers.met(m, 1, [], 0)
    m.stacks[1] = m.locked[1] = 0
    assert not covers.met(m, 1, [], 0)
    assert covers.met(m, 1, [], 0) == m.can_cover(1, "declarer", "helicopter")


# One test of every kind, with values a random table meets or not.
EVERY_TEST = [Always(), Dealer(), IsDeclarer(), DeclarerExists(), NoDeclarer(), NoOtherDeclarer(), Holds(12),
              HoldsTrump(4), TrumpsAtLeast(2), TrumpsAtMost(1), TurnedThere(), TurnedRank(12), PotAtMost(3),
              PotAtMost(1, True), StockHolds(4), Covers(status="declarer", cid="helicopter"), NotLooked()]


@pytest.mark.parametrize("test", EVERY_TEST, ids=repr)
def test_each_test_written_out_says_what_it_runs(test: Check) -> None:
    """A lister's two branches: the written-out expression of each test (``source``, the plain kernel's) gives
    what its ``met`` gives (the compiled kernel's and the refusals'), on random tables, both outcomes seen."""
    rng = random.Random(repr(test))
    seen = set()
    source = check_source(test, "TEST")
    assert "TEST" not in source  # (every kind of the table has an expression of its own)
    check = eval(f"lambda m, seat, hand, trump: {source}", {"trumps": trumps})  # noqa: S307
    for _ in range(300):
        m = table(rng.sample(range(52), rng.randint(0, 5)), rng.choice([None, 0, 1, 2, 3]), rng.randint(0, 6),
                  rng.random() < 0.5)
        m.dealer, m.declarer = rng.randint(0, 3), rng.choice([None, 0, 1, 2, 3])
        m.turned, m.turned_taken = rng.choice([[], [12], [25], [4]]), rng.random() < 0.3
        m.pot, m.owed_draws = rng.randint(0, 40), rng.randint(0, 2)
        m.stacks[1] = rng.choice([0, 100])
        seat = rng.randint(0, 3)
        m.hands[seat] = m.hands[0]
        hand, trump = m.hands[seat], m.trump
        expected = check(m, seat, hand, trump)
        assert test.met(m, seat, hand, trump) == expected
        seen.add(expected)
    assert seen == ({True} if isinstance(test, Always) else {True, False})


@pytest.mark.parametrize("write", [False, True], ids=["loop", "written"])
def test_a_swap_lists_a_form_per_card_held(write: bool) -> None:
    call = Call.model_validate({"name": {"en": "Swap"}, "effects": {"status": "helper", "take_turned": "swap"}})
    lister = opener(make_lister("test", [("s", call)], True, True), write)
    assert lister(table([1, 2, 3], 0, 0), 0) == [Action("s", position=i) for i in (1, 2, 3)]
    assert lister(table([1], 0, 0), 0) == [Action("s", position=1)]
    assert lister(table([1], 0, 0, looked=True), 0) == [Action("s", position=1)]
    taken = table([1, 2], 0, 0)
    taken.turned_taken = True
    assert lister(taken, 0) == []


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


@pytest.mark.parametrize("write", [False, True], ids=["loop", "written"])
def test_an_optional_take_tests_each_form_apart(write: bool) -> None:
    # Draw 2 with an optional take of the turned card: without it, 2 cards from the stock; taking
    # it, the turned card counts as one draw (1 from the stock) and must still be on the table.
    call = Call.model_validate({"name": {"en": "Take"},
                                "effects": {"status": "helper", "take_turned": "optional", "draw": 2}})
    assert conditions("t", call, allow_debt=True, declarer_exists=True) == [StockHolds(2)]
    assert conditions("t", call, allow_debt=True, declarer_exists=True, takes=True) == [TurnedThere(), StockHolds(1)]
    plain, taking = Action("t"), Action("t", take_turned=True)
    lister = opener(make_lister("test", [("t", call)], True, True), write)
    assert lister(table([1, 2], 0, stock=2), 0) == [plain, taking]
    assert lister(table([1, 2], 0, stock=1), 0) == [taking]
    taken = table([1, 2], 0, stock=2)
    taken.turned_taken = True
    assert lister(taken, 0) == [plain]


def test_a_test_with_no_expression_is_asked_through_its_met(monkeypatch: pytest.MonkeyPatch) -> None:
    # A kind of test the writer has no expression for (Dealer's taken out of the table) is asked through its own
    # ``met`` (by its place in the lister): call "dealer" is open to the dealer (seat 0) while he has not looked,
    # "any" to everyone.  (A kind of its own cannot be made here: compiled, Check takes no Python subclass.)
    from khrap.engine.compiled import machine

    monkeypatch.delitem(machine._WRITTEN, Dealer)
    anyone, dealer = Action("any"), Action("dealer")
    lister = Lister("test", [((), (anyone,), ""), ((Dealer(), NotLooked()), (dealer,), "")])
    assert "TESTS[1][0].met(m, seat, hand, trump)" in machine.lister_source(lister)
    written = written_lister(lister)
    m = table([1, 2], 0, 0)
    m.looked = [False, False, False, True]
    for seat, calls in {0: [anyone, dealer], 1: [anyone], 2: [anyone], 3: [anyone]}.items():
        assert lister.open(m, seat) == calls
        assert written(m, seat) == calls
    m.looked[0] = True
    assert written(m, 0) == lister.open(m, 0) == [anyone]


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


def test_the_native_follow_lists_what_the_filters_list() -> None:
    """The fused trick loop's two ways of listing a follower's cards (``machine.INTERPRETED``): ``_follow``'s loop
    (compiled) and the filters over ``IN_SUIT`` (plain), on random hands, tricks led in every suit, every trump;
    each of its three outcomes (the suit led, the trumps, any card) is seen."""
    from khrap.engine.compiled.machine import IN_SUIT, _follow

    rng = random.Random(7)
    seen = set()
    for _ in range(2000):
        hand = rng.sample(range(52), rng.randint(1, 6))
        led, trump = rng.randint(0, 3), rng.choice([None, 0, 1, 2, 3])
        expected = list(filter(IN_SUIT[led], hand)) or list(filter(IN_SUIT[trump], hand)) or list(hand)
        found = _follow(hand, led, trump)
        assert found == expected and found is not hand
        seen.add("led" if found[0] // 13 == led else "trump" if found[0] // 13 == trump else "any")
    assert seen == {"led", "trump", "any"}
