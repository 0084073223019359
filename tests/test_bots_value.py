"""The heuristic's value model, its calibration data, and the play mistakes of issue 20 as positions.

The positions are built as the seat sees them (``Info``: its hand, the cards
gone, the voids read from the tricks by ``knowledge.DealFacts``) and answered
by ``HeuristicBot.decide``, the method ``choose`` calls on an observation.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from khrap import words as w
from khrap.bots.calibration import DEFAULTS, Constants, constants_for, family, fingerprint
from khrap.bots.estimate import Estimator, Info
from khrap.bots.heuristic import HeuristicBot
from khrap.bots.knowledge import DealFacts
from khrap.cards import parse_card, parse_suit
from khrap.engine import Action, Rules
from khrap.variant.catalog import load_variant

HOUSE = Path(__file__).resolve().parent.parent / "docs" / "house-rules"

NEUTRAL = Constants(sharpen=1.0, undecided=1.0, contest=0.0)  # no calibration: plain arithmetic


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def table(variant: str, constants: Constants = NEUTRAL) -> tuple[Rules, Estimator]:
    rules = Rules(load_variant(variant), 4)
    return rules, Estimator(rules, constants)


def info(seat: int = 0, *, hand: str = "", trump: str | None = "C", statuses=None, tricks=None, pot: int = 40,
         gone: str = "", played: list[list[tuple[int, str]]] = (), sizes=None) -> Info:
    """A seat's facts: ``played`` the closed tricks as (seat, card) in order (gone, and read for voids)."""
    t = None if trump is None else parse_suit(trump)
    facts = DealFacts()
    for trick in played:
        entries = [(s, parse_card(c), False) for s, c in trick]
        facts.played += entries
        facts.tricks.append(entries)
    own = cards(hand)
    return Info(seat=seat, n=4, hand=own, trump=t, turned=None,
                statuses=list(statuses or [w.DECLARER, w.HELPER, w.HELPER, w.HELPER]),
                calls=[None] * 4, tricks=list(tricks or [0] * 4), trick=[],
                gone=set(cards(gone)) | facts.played_cards, pot=pot,
                hand_sizes=list(sizes or [len(own)] * 4), stock_count=10, voids=facts.voids(t))


def plays(hand: str) -> list[Action]:
    return [Action(w.PLAY, (c,)) for c in cards(hand)]


# ------------------------------------------------------------------ value model
def test_a_made_call_pays_no_fine() -> None:
    """frap: a helper (whist) must take 1 trick; a failed helper pays one pot; each trick pays pot // 4.

    Pot 40, so a trick pays 10.  Chances [1, 0, 0, 0] (the distribution caps a certain card at 0.97):
    P(1 trick) = 0.97, P(0) = 0.03.  Value = 0.97 x 1 x 10 (his trick) - 0.03 x 40 (the fine, only
    when he fails) = 9.7 - 1.2 = 8.5.  The old model also charged the fine on the 0.97 where he
    makes it: 9.7 - 40 = -30.3.
    """
    rules, est = table("frap")
    whist = rules.calls["whist"]
    seat = info(1, hand="AS 7H 8H 9H", trump="S")
    value = est.call_value("whist", whist, [1.0, 0.0, 0.0, 0.0], seat.hand, seat.trump, seat)
    assert value == pytest.approx(8.5)


def test_a_declarer_pays_only_when_short() -> None:
    """frap: a declarer must take 2; short by one he pays a pot (40), with none two pots (80).

    Chances [1, 1, 0, 0] -> capped 0.97 each: P(2) = 0.9409, P(1) = 2 x 0.97 x 0.03 = 0.0582,
    P(0) = 0.0009.  Value = 0.9409 x 20 + 0.0582 x 10 - 0.0582 x 40 - 0.0009 x 80
    = 18.818 + 0.582 - 2.328 - 0.072 = 17.0 (no fine on the 0.9409 where he makes it).
    """
    rules, est = table("frap")
    frap = rules.calls["frap"]
    seat = info(0, hand="AS KS 7H 8H", trump="S", statuses=[w.UNDECIDED] * 4)
    value = est.call_value("frap", frap, [1.0, 1.0, 0.0, 0.0], seat.hand, seat.trump, seat)
    assert value == pytest.approx(17.0)


def test_a_frapper_left_alone_takes_every_trick() -> None:
    """frap credits a lone declarer every trick (play.lone_declarer_takes_all): with a chance a = 0.1 that
    nobody answers his frap, it is worth 0.9 x the contested value + 0.1 x all four tricks.  The hand of
    test_a_declarer_pays_only_when_short: contested 17.0 at pot 40; alone 4 x 10 = 40 (no declarer's
    prize in frap).  0.9 x 17.0 + 0.1 x 40 = 15.3 + 4.0 = 19.3."""
    rules, est = table("frap")
    frap = rules.calls["frap"]
    seat = info(0, hand="AS KS 7H 8H", trump="S", statuses=[w.UNDECIDED] * 4)
    value = est.call_value("frap", frap, [1.0, 1.0, 0.0, 0.0], seat.hand, seat.trump, seat, alone=0.1)
    assert value == pytest.approx(19.3)


def test_certain_winners_are_not_shrunk() -> None:
    _, est = table("khrap", Constants(sharpen=1.5))
    assert est.sharpen(1.0) == 1.0 and est.sharpen(0.0) == 0.0
    assert est.sharpen(0.5) == pytest.approx(0.5 ** 1.5)
    seat = info(0, hand="AC KC 7H 8D")  # the two top trumps: nobody can beat them
    assert est.chances(seat.hand, seat.trump, seat)[:2] == [1.0, 1.0]


def test_passers_who_may_come_back_play_against_us() -> None:
    """frap lets passers cut in after the buying: their cards count against a card until the play.
    khrap-52 has no such stage: a passer is out of the hand."""
    out = [w.UNDECIDED, w.OUT, w.OUT, w.OUT]
    for variant, counted in (("frap", True), ("khrap-52", False)):
        _, est = table(variant, Constants(undecided=0.5))
        seat = info(0, hand="AS 7H 8H 9H", statuses=out, sizes=[4, 4, 4, 4])
        share = est.opponents_share(seat, 12)
        assert share == (pytest.approx(0.5 * 12 / 12) if counted else 0.0)


def test_no_floor_under_an_unseen_card() -> None:
    """A long side suit's low card has no minimum chance (the old model kept 0.2 of it whatever happened)."""
    _, est = table("khrap")
    seat = info(0, hand="6H 7H 8H 9H TH JH", statuses=[w.DECLARER] + [w.HELPER] * 3)
    q = est.opponents_share(seat, len(est.unseen(seat, seat.hand)))
    assert est.chance(parse_card("6H"), seat.hand, seat.trump, seat, q) < 0.01


def test_a_forced_exchange_is_valued_as_forced() -> None:
    """khrap-shoot's shoot must throw exactly three cards, draw four and discard one.  With chances
    [1, 0.9, 0.8, 0.7] and an average draw of 0.3 it keeps the 1 and ends with [1, 0.3, 0.3, 0.3]
    (sum 1.9); its snore keeps the hand (3.4).  The old model let every call keep what it liked."""
    _, est = table("khrap-shoot")
    shoot = load_variant("khrap-shoot").calls["shoot"].exchange
    assert sum(est._exchanged([1.0, 0.9, 0.8, 0.7], 0.3, shoot, 4)) == pytest.approx(1.9)
    snore = load_variant("khrap-shoot").calls["snore"].exchange
    assert sum(est._exchanged([1.0, 0.9, 0.8, 0.7], 0.3, snore, 4)) == pytest.approx(3.4)
    assert sum(est._exchanged([1.0, 0.9, 0.2, 0.1], 0.3, snore, 4)) == pytest.approx(2.5)  # throws two


def test_the_fines_of_those_a_call_forces_in_are_shared_with_the_caller() -> None:
    """khrap: the helicopter forces the 3 others in as helpers (each must take 1 of the 4 tricks, fined 1
    base stake = 1 chip short) and the fines are shared at once among those who did not fail, by tricks.
    A declarer who takes k tricks leaves 4 - k: at least 3 - (4 - k) helpers fail, and his share of each
    fine is k / 4 (a failed helper has no trick).  k = 2: 1 x 2/4 = 0.5; k = 3: 2 x 3/4 = 1.5.

    Chances [1, 1, 1, 0] (capped 0.97): P(3) = 0.97^3 = 0.912673, P(2) = 3 x 0.97^2 x 0.03 = 0.084681.
    The helicopter is worth 0.084681 x 0.5 + 0.912673 x 1.5 = 1.411350 more than khrap with the same
    chances (both declare; khrap forces nobody in)."""
    rules, est = table("khrap")
    seat = info(0, hand="6C AC 7H 8H", trump="C", statuses=[w.UNDECIDED] * 4, pot=4)
    chances = [1.0, 1.0, 1.0, 0.0]
    heli = est.call_value("helicopter", rules.calls["helicopter"], chances, seat.hand, seat.trump, seat)
    khrap = est.call_value("khrap", rules.calls["khrap"], chances, seat.hand, seat.trump, seat)
    assert heli - khrap == pytest.approx(1.41135)


def test_fines_carried_to_the_next_deal_are_nobody_s_now() -> None:
    """khrap-shoot's fines stay in the pot for the next deal (pot_after: carry): forcing the others in
    shares none of them out now."""
    rules, est = table("khrap-shoot")
    seat = info(0, hand="6C AC 7H 8H", trump="C", statuses=[w.UNDECIDED] * 4, pot=4)
    assert est.forced_fines(rules.calls["helicopter"], seat, 4) is None
    rules, est = table("khrap")
    assert est.forced_fines(rules.calls["khrap"], seat, 4) is None


def test_a_thrown_hand_is_out_of_play() -> None:
    """frap's cut throws the hand, takes the turned trump and draws four.  Clubs trump; the seat holds A♣ and
    K♣ and the turned card is Q♣.  Cutting with the trump, it throws A♣ and K♣ itself: they are in nobody's
    hand and never drawn, so no club above Q♣ is left to beat it, and Q♣ takes a trick for sure (chance 1,
    the top of the chances the cut leaves; the drawn cards can be no better than that).  Counted as unseen,
    A♣ and K♣ would sit with an opponent some of the time: (1 - q)^2 x 0.7 < 1."""
    rules, est = table("frap")
    seat = info(1, hand="AC KC 7H 8H", trump="C", statuses=[w.DECLARER, w.OUT, w.OUT, w.OUT])
    seat.turned = parse_card("QC")
    seat.gone |= {seat.turned}
    probs = est.after_call(rules.calls["cut"], seat.hand, seat.trump, seat, take_turned=True)
    assert len(probs) == 4 and probs[0] == 1.0
    assert all(p < 1.0 for p in probs[1:])  # (a drawn card is never sure: the joker is not in frap's deck)


# ------------------------------------------------------------------ calibration data
def test_calibration_falls_back_to_the_parent_then_the_defaults(tmp_path) -> None:
    khrap = load_variant("khrap")
    house = load_variant(HOUSE / "khrap-must-beat.yaml")
    assert fingerprint(house) != fingerprint(khrap) and family(house) == family(khrap)
    data = tmp_path / "cal.yaml"
    data.write_text(f"variants:\n- {{fingerprint: {fingerprint(khrap)}, family: {family(khrap)}, "
                    "constants: {sharpen: 2.0, contest: 0.5}}\n", encoding="utf-8")
    assert constants_for(khrap, data).sharpen == 2.0
    assert constants_for(house, data).contest == 0.5  # its parent's entry
    assert constants_for(load_variant("frap"), data) == DEFAULTS


def test_every_built_in_is_calibrated() -> None:
    for name in ("khrap", "khrap-52", "khrap-shoot", "student-snore", "frap", "snore"):
        assert constants_for(load_variant(name)) != DEFAULTS, name


# ------------------------------------------------------------------ play mistakes
def decide(rules: Rules, seat: Info, hand: str) -> str:
    bot = HeuristicBot(rules, NEUTRAL)
    action = bot.decide(seat, plays(hand), random.Random(0))
    return {c: t for t, c in zip(hand.split(), cards(hand), strict=True)}[action.cards[0]]


def test_draws_the_master_trump_before_a_side_ace() -> None:
    """khrap (seeds 600008, 600034, 600098; frap 630001): the declarer leads trick 1 holding A♣ (the
    top trump, clubs) and A♥ with nothing else of either suit.  Both are sure tricks as far as the
    cards go, but A♥ led first is ruffed by any helper who happens to hold no heart and a trump
    (nobody has shown a void yet).  A♣ led first takes its trick whatever the others hold and pulls a
    trump from each of them; A♥ comes after.  The old rule led the side ace with a single trump."""
    rules, _ = table("khrap")
    seat = info(0, hand="AC AH 7S 8D", gone="6C")
    assert decide(rules, seat, "AC AH 7S 8D") == "AC"


def test_a_trump_is_master_when_the_rest_showed_no_trumps() -> None:
    """khrap (seed 600142): the declarer led Q♣ (trump) to trick 1 and nobody followed: every other
    seat has shown a void in trumps.  A♣ is still unseen (in the stock), so the old count called K♣
    beatable and led the 9♥ (his lowest side card) instead.  With nobody able to hold a trump, K♣
    and 8♣ are sure tricks: he cashes them first (the others must throw cards to them), then 9♥."""
    rules, _ = table("khrap")
    seat = info(0, hand="KC 8C 9H", played=[[(0, "QC"), (1, "7H"), (2, "6D"), (3, "8S")]], tricks=[1, 0, 0, 0])
    assert seat.voids == {1: {parse_suit("C")}, 2: {parse_suit("C")}, 3: {parse_suit("C")}}
    assert decide(rules, seat, "KC 8C 9H") == "KC"


def test_no_sure_loser_led_when_one_trick_is_needed() -> None:
    """frap (seed 630001, trick 3): the declarer (spades trump) has one trick of the two he needs and
    two cards, 7♥ (the lowest heart: every heart above it is unseen) and K♦ (only A♦ above it).
    The old rule led the 7♥ (the lowest card of a short suit, to ruff later): it can only win if
    nobody follows with a higher heart or a trump, and there is no later to ruff in.  K♦ is his
    one real chance: he leads it."""
    rules, _ = table("frap")
    seat = info(0, hand="7H KD", trump="S", tricks=[1, 1, 0, 0],
                played=[[(1, "AS"), (2, "7S"), (3, "8S"), (0, "9S")], [(1, "7C"), (2, "8C"), (3, "9C"), (0, "AC")]])
    assert decide(rules, seat, "7H KD") == "KD"


def test_the_calibration_module_names_no_variant_and_no_call() -> None:
    from khrap.bots import calibration
    from tests.test_bots_names import words_in
    from tests.test_kernel_names import ALLOWED, forbidden_words

    forbidden = forbidden_words() - ALLOWED
    assert not [word for _, word in words_in(Path(calibration.__file__)) if word in forbidden]
