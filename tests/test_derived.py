"""The derived facts of a variant (khrap/engine/derived.py): each computed once, and each disagreement
between the copies they replace settled by a test that says which copy was right.

- "the call moves cards": program.py counted ``then_discard``; the sheet's sample settlement
  (rulebook/arithmetic.py) and the worked example (rulebook/example.py) did not.  program.py was right: a
  call that only owes a discard is followed at once by its caller's discard (RULES.md §0, owed discards).
- "the declaring calls": rules.py kept the calls that may make the *first* declarer (``requires.declarer``
  not ``exists``), checks.py every call that makes a declarer.  Both were right, for different questions, so
  they are two facts: a call that needs a declarer waits for an opening call (the refusal sentence, pinned by
  tests/scenarios/khrap/*_refused_without_declarer.yaml), while the exchange order is chosen by the final
  declarer's call, an overrider's included (machine.py reads ``turns[call_of[declarer]]``, ``derived.exchange_turns``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from khrap.cards import parse_card
from khrap.engine import GameState, Rules
from khrap.engine.derived import Derived, deal_order, dealt_hands
from khrap.rulebook.arithmetic import sample_table
from khrap.variant import catalog
from khrap.variant.loader import VariantError
from tests.test_checks_both_ways import GRAB, HELP, calls_with, tiny

# A call that puts its caller out and owes one discard, nothing else: it moves a card, and only by then_discard.
BURY = "  bury:\n    name: {en: Bury}\n    effects: {status: out, then_discard: 1}\n"


def _load(tmp_path: Path, text: str):
    path = tmp_path / "variant.yaml"
    path.write_text(text, encoding="utf-8")
    return catalog.load_variant(str(path))


def test_a_call_owing_only_a_discard_moves_cards(tmp_path: Path) -> None:
    """program.py's copy was right: `then_discard` alone moves a card, and the kernel asks for it at once."""
    v = _load(tmp_path, tiny(calls_with(BURY), ("[bid, help, pass]", "[bid, help, bury, pass]")))
    assert Derived(v).calls["bury"].moves_cards
    assert not Derived(v).calls["bury"].plain
    # 3 seats, dealer 0: seat 1 speaks first and buries; he owes one discard before seat 2 speaks.
    state = GameState(Rules(v, 3), 3, seed=1)
    state.start_deal()
    assert state.pending.seat == 1
    state.apply("bury")
    assert (state.pending.kind, state.pending.seat) == ("discard", 1)
    card = state.hands[1][0]
    state.apply(state.legal_actions()[0])
    assert len(state.hands[1]) == 3 and card not in state.hands[1]  # 4 dealt, 1 discarded
    assert state.pending.seat == 2


def test_an_overriding_call_may_choose_the_exchange_order(tmp_path: Path) -> None:
    """checks.py's copy was right for the exchange order: 'grab' needs a declarer, so it never opens, but a
    grabber is the final declarer and his call picks the order.  `order_by_call` names only 'bid', so after a
    grab the default `order` applies, and it gives a helper who reserved draws no turn: refused."""
    reserved = (HELP, HELP + "    exchange: {min_discard: 1}\n")
    stages = ("[bid, help, pass]", "[bid, help, grab, pass]")
    exchange = ("  - {id: exchange, kind: exchange}\n",
                "  - {id: exchange, kind: exchange, order: [{statuses: [declarer]}],\n"
                "     order_by_call: {bid: [{statuses: [declarer, helper]}]%s}}\n")
    refused = tiny(reserved, calls_with(GRAB), stages, (exchange[0], exchange[1] % ""))
    with pytest.raises(VariantError) as info:
        _load(tmp_path, refused)
    assert "neither status 'helper' nor call 'help' is in its `order`" in str(info.value).splitlines()[0]
    # The same with the grabber's order given too: every order that may apply gives the helper his turn.
    accepted = tiny(reserved, calls_with(GRAB), stages,
                    (exchange[0], exchange[1] % ", grab: [{statuses: [declarer, helper]}]"))
    d = Derived(_load(tmp_path, accepted))
    assert d.declaring == ("bid",)  # what 'help' waits for
    assert d.declarer_calls == ("bid", "grab")  # what may choose the order


def test_khraps_declaring_calls() -> None:
    """khrap (RULES.md §1): khrap and helicopter may open; merry and wrap need a declarer and override one."""
    d = Rules(catalog.load_variant("khrap"), 4).derived
    assert d.declaring == ("khrap", "helicopter")
    assert d.declarer_calls == ("khrap", "merry", "wrap", "helicopter")


@pytest.mark.parametrize(("name", "blind"), [("khrap", ("wrap",)), ("frap", ("blind-frap",)),
                                             ("khrap-shoot", ("wrap",)), ("snore", ())])
def test_blind_calls_once_for_the_sheet_and_the_kernel(name: str, blind: tuple[str, ...]) -> None:
    """The sheet's blind calls and each stage's, which the kernel's blind listers test, are one fact."""
    rules = Rules(catalog.load_variant(name), 4)
    assert rules.derived.blind == blind
    for stage in rules.program.stages:
        if stage.id in rules.derived.stage_calls:
            kernel = {c.cid for calls in stage.blind_calls for c in calls}
            assert kernel == set(rules.derived.stage_blind(stage.id))


def test_the_dealing_order() -> None:
    """RULES.md §0: one card at a time, starting with the dealer's left, the dealer last."""
    assert deal_order(2, 4) == (3, 0, 1, 2)
    deck = list(range(10))
    # dealer 2 of 3 seats, hands of 3: cards 0, 1, 2 go to seats 0, 1, 2; then 3, 4, 5; then 6, 7, 8.
    assert dealt_hands(deck, 2, 3, 3) == [[0, 3, 6], [1, 4, 7], [2, 5, 8]]
    # dealer 0: seat 1 takes the first card, seat 0 the third.
    assert dealt_hands(deck, 0, 3, 3) == [[2, 5, 8], [0, 3, 6], [1, 4, 7]]


def test_the_kernel_deals_in_that_order() -> None:
    v = catalog.load_variant("khrap")
    top = [parse_card(c) for c in ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "6H", "7H", "8H"]]
    state = GameState(v, 3, dealer=1, seed=None, decks=[Rules(v, 3).complete_deck(top)])
    state.start_deal()
    # dealer 1: seat 2 first (6S 9S QS 6H), then seat 0 (7S TS KS 7H), then seat 1 (8S JS AS 8H).
    assert sorted(state.hands[2]) == sorted(parse_card(c) for c in ["6S", "9S", "QS", "6H"])
    assert sorted(state.hands[0]) == sorted(parse_card(c) for c in ["7S", "TS", "KS", "7H"])
    assert sorted(state.hands[1]) == sorted(parse_card(c) for c in ["8S", "JS", "AS", "8H"])


@pytest.mark.parametrize(("name", "declarer", "helper"), [("khrap", "khrap", "help"), ("frap", "frap", "whist"),
                                                          ("khrap-shoot", "snore", "help")])
def test_the_sample_settlement_names_the_first_plain_call(name: str, declarer: str, helper: str) -> None:
    """Not blind (frap's blind-frap, khrap-shoot's wrap), moving no card (merry), forcing nobody (helicopter)."""
    table = sample_table(catalog.load_variant(name))
    assert [p.call for p in table.players[:2]] == [declarer, helper]


@pytest.mark.parametrize(("name", "plain"), [("khrap", True), ("student-snore", False), ("frap", True)])
def test_the_plain_follow_fast_path(name: str, plain: bool) -> None:
    """Follow suit, else trump, else anything, no duty to beat, no joker (student-snore has one)."""
    rules = Rules(catalog.load_variant(name), 4)
    assert rules.derived.plain_follow is plain and rules.program.plain_follow is plain
