"""The static stage model (khrap/variant/derived.py), held against the kernel's play.

The checks (variant/checks.py) and the rule sheet (rulebook/facts.py) each re-modelled the stage flow: when
a calls stage is asked with or without a declarer, what it offers then, whose hands are gone.  The facts are
now defined once and both read them; each is held here against the deals the kernel plays, and each
disagreement between the old copies is settled by a test that says which copy was right:

- "a passer may still come in at a later step" (the sheet's ``comeback``) looked only at the stages' own
  ``out_hands``; checks.py's "out players may hold no cards" counted a call that throws its caller's hand
  too.  checks.py was right: the kernel asks a stage's speakers only while they hold cards (machine.py,
  ``_speakers``), so a player whose own call threw his hand is never asked again by a step that asks all or
  all but the declarer, and the sheet no longer says he may come in there.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from khrap.cards import parse_rank
from khrap.engine import GameState, Rules
from khrap.engine.events import Called, Drew
from khrap.engine.kinds import CALL, DISCARD, EXCHANGE
from khrap.rulebook.facts import comeback, hand_gone
from khrap.rulebook.sheet import render_rules
from khrap.variant import catalog
from khrap.variant import derived as model
from khrap.variant.schema import CallsStage, ExchangeStage, Variant
from tests.test_checks_both_ways import FIRST, calls_with, tiny

ROOT = Path(__file__).resolve().parents[1]
HOUSE = [*sorted((ROOT / "docs" / "house-rules").glob("*.yaml")),
         *sorted((ROOT / "tests" / "house-variants").glob("*.yaml"))]
VARIANTS = [*catalog.builtin_names(), *(str(p) for p in HOUSE)]
DEALS = 12

# A call that puts its caller out and throws his hand, drawing none; then a stage asking all but the declarer.
FOLD = "  fold:\n    name: {en: Fold}\n    effects: {status: out, discard_hand: true}\n"
ANSWERS = ("  - {id: bidding, kind: calls, calls: [bid, help, fold, pass]}\n"
           "  - {id: answers, kind: calls, speakers: others, start: declarer_left, calls: [help, pass]}\n")


def _load(tmp_path: Path, text: str) -> Variant:
    path = tmp_path / "variant.yaml"
    path.write_text(text, encoding="utf-8")
    return catalog.load_variant(str(path))


def _play(v: Variant, players: int, seed: int):
    """Random deals of ``v``, yielding (deal number, state) at each decision (before it is taken)."""
    rng = random.Random(seed)
    state = GameState(Rules(v, players), players, seed=seed, stacks=model.seat_stack(v))
    for deal in range(DEALS):
        if state.session_over:
            return
        state.start_deal()
        steps = 0
        while state.pending is not None and steps < 2000:
            yield deal, state
            state.apply(rng.choice(state.legal_actions()))
            steps += 1


def _index(v: Variant, state: GameState) -> int | None:
    """The index in the variant's stages of the stage the kernel is in (None: a stage the kernel adds for a
    decision a rule offers, ``Derived.offers``), found by its id as the kernel's own lookups do."""
    sid = state.program.stages[state.stage_index].id
    return next((i for i, stage in enumerate(v.stages) if stage.id == sid), None)


@pytest.mark.parametrize("ref", VARIANTS, ids=lambda r: Path(r).stem)
def test_the_kernel_asks_only_as_the_stage_model_says(ref: str) -> None:
    """At every call decision of random deals: the stage is asked in a declarer state the model allows,
    every call the kernel offers is one the model says can be said there, and an out player with no cards
    is only there after a stage that may empty out players' hands."""
    v = catalog.load_variant(ref)
    players = model.default_players(v)
    seen = 0
    for _, state in _play(v, players, seed=7):
        if state.pending.kind is not CALL:
            continue
        i = _index(v, state)
        assert (state.declarer is not None) in model.declarer_states(v, i), (i, state.declarer)
        for action in state.legal_actions():  # calls (not the kernel's words, such as look)
            assert action.word not in v.calls or model.sayable(v, i, action.word), (i, action.word, state.declarer)
            if action.word in v.calls and hand_gone(v, action.word):  # the sheet: "his cards are already gone"
                assert not state.hands[state.pending.seat], (i, action.word)
        handless = [s for s in range(players) if state.statuses[s] == "out" and not state.hands[s]]
        if handless:
            earlier = [s for s in v.stages[:i] if isinstance(s, CallsStage)]
            assert any(model.may_empty_out_hands(v, s) for s in earlier) or model.may_empty_out_hands(v, v.stages[i])
        seen += 1
    assert seen


def _exchangers(v: Variant, state: GameState, stage: ExchangeStage) -> list[int]:
    """The seats the model gives a turn at ``stage``, in turn: in play, named by a group of the order of the
    declarer's call (exchange_order, has_turn: what checks.py's exchange-turn check reads), group by group,
    each clockwise from the declarer; taking part (a call with ``exchange.takes_part: false`` has no turn,
    unless its cards wait for the exchange: ``when: exchange``)."""
    order = model.exchange_order(stage, state.call_of[state.declarer])
    clockwise = [(state.declarer + k) % state.n for k in range(state.n)]
    found: list[int] = []
    for group in order:
        for seat in clockwise:
            status, cid = state.statuses[seat], state.call_of[seat]
            call = v.calls.get(cid or "")
            takes_part = call is None or call.exchange.takes_part or call.effects.when == "exchange"
            if seat not in found and status in ("declarer", "helper") and takes_part \
                    and model.has_turn([group], status, cid):
                found.append(seat)
    return found


@pytest.mark.parametrize("ref", VARIANTS, ids=lambda r: Path(r).stem)
def test_the_kernel_gives_exchange_turns_by_the_order_the_model_names(ref: str) -> None:
    """At each exchange stage of random deals the kernel asks the seats the model gives a turn, in its order
    (a seat may be passed over when the stock has no card left for him)."""
    v = catalog.load_variant(ref)
    players = model.default_players(v)
    asked: dict[tuple[int, int], list[int]] = {}  # (deal, exchange stage) -> the seats the kernel asked, in turn
    expected: dict[tuple[int, int], list[int]] = {}
    for deal, state in _play(v, players, seed=11):
        index = _index(v, state)
        stage = None if index is None else v.stages[index]
        if not isinstance(stage, ExchangeStage):
            continue
        assert state.pending.kind in (EXCHANGE, DISCARD)  # a call's cards that waited move, then owe discards
        key = (deal, index)
        if key not in expected:  # statuses and calls are settled once the exchange begins
            expected[key] = _exchangers(v, state, stage)
        if state.pending.seat not in asked.setdefault(key, []):
            asked[key].append(state.pending.seat)
    assert asked.keys() == expected.keys()
    for key, seats in asked.items():
        assert seats == [seat for seat in expected[key] if seat in seats], (key, seats, expected[key])


@pytest.mark.parametrize("ref", VARIANTS, ids=lambda r: Path(r).stem)
def test_the_deck_for_each_count_of_players_is_the_kernels(ref: str) -> None:
    """checks.py and the lint read deck_for; the kernel deals Rules.deck: the same ranks, all four suits."""
    v = catalog.load_variant(ref)
    for n in range(v.players.min, v.players.max + 1):
        ranks = model.deck_for(v, n)
        assert ranks is not None
        deck = Rules(v, n).deck
        assert sorted(deck) == sorted(suit * 13 + parse_rank(r) for suit in range(4) for r in ranks), n


def test_a_player_whose_call_threw_his_hand_does_not_come_back(tmp_path: Path) -> None:
    """The kernel does not ask a folder (out, hand thrown) in a later step that asks all but the declarer; a
    plain passer, who kept his cards, is asked.  The sheet says the same (it said the folder could come in)."""
    v = _load(tmp_path, tiny(calls_with(FOLD), (FIRST, ANSWERS)))
    assert comeback(v, "pass") == [2] and comeback(v, "fold") == []
    assert not model.holds_cards_at(v, "fold", 0, 1) and model.holds_cards_at(v, "pass", 0, 1)
    # 3 seats, dealer 0: seat 1 folds, seat 2 bids, seat 0 passes; 'answers' asks from the declarer's left
    state = GameState(Rules(v, 3), 3, seed=1)
    state.start_deal()
    for word in ("fold", "bid", "pass"):
        state.apply(word)
    assert state.stage_index == 1 and not state.hands[1]
    asked = []
    while state.pending is not None and state.pending.kind is CALL:
        asked.append(state.pending.seat)
        state.apply("pass")
    assert asked == [0]  # the passer, not the folder
    rows = render_rules(v, "md", "en", example=False).splitlines()
    assert "| **Fold** | Step 1 | Out of the deal; throws their hand | Nothing |" in rows  # no "come in at step 2"
    assert "| **Pass** | Steps 1 and 2 | Out for now, but may still come in at step 2 | Nothing |" in rows


def test_a_stage_after_the_first_is_asked_only_with_a_declarer() -> None:
    """khrap (RULES.md §1): the bidding goes on after a khrap (help, merry, wrap need a declarer), so it is
    asked with and without one; the fives offer after it only once one exists."""
    v = catalog.builtin("khrap")
    assert model.declarer_states(v, 0) == (False, True)
    assert model.declarer_states(v, 1) == (True,)
    assert model.sayable(v, 0, "help") and model.sayable(v, 0, "khrap") and model.sayable(v, 1, "take-five")


def _draws(events: list, seat: int) -> list[int]:
    """The counts of ``seat``'s draws among ``events``, until the next speaker's call."""
    found = []
    for event in events:
        if isinstance(event, Called) and event.seat != seat:
            break
        if isinstance(event, Drew) and event.seat == seat:
            found.append(event.fields["count"])
    return found


@pytest.mark.parametrize("ref", VARIANTS, ids=lambda r: Path(r).stem)
def test_the_kernel_draws_what_the_model_says(ref: str) -> None:
    """The sheet's "only while the stock holds N cards for it" and the kernel's stock test (preconditions.py)
    both read draws_of (draws_now and the exchange's reserve); the kernel's drawing (machine.py,
    ``_card_effects``) is its own code.  In random deals every call that draws takes draws_now cards: at once
    (before the next speaker's call), or at the exchange when its cards wait (its caller's first draw)."""
    v = catalog.load_variant(ref)
    players = model.default_players(v)
    rng = random.Random(5)
    state = GameState(Rules(v, players), players, seed=5, stacks=model.seat_stack(v))
    waiting: dict[int, int] = {}  # seat: the cards his waiting call will draw
    seen = 0
    for _ in range(DEALS):
        if state.session_over:
            break
        state.start_deal()
        waiting.clear()
        while state.pending is not None:
            seat, action = state.pending.seat, rng.choice(state.legal_actions())
            call = v.calls.get(action.word) if state.pending.kind is CALL else None
            start = len(state.log)
            state.apply(action)
            new = state.log[start:]
            for other, count in list(waiting.items()):
                drawn = [e.fields["count"] for e in new if isinstance(e, Drew) and e.seat == other]
                if drawn:
                    assert drawn[0] == count, (other, drawn)
                    del waiting[other]
            if call is not None:  # a new call takes the place of one he made before, and of its waiting draws
                waiting.pop(seat, None)
            if call is None or not call.effects.draw:
                continue
            seen += 1
            if call.effects.when == "now":
                assert sum(_draws(new, seat)) == model.draws_now(call, action.take_turned), action
            else:
                waiting[seat] = model.draws_now(call)
    assert seen or not any(c.effects.draw for c in model.enabled(v).values())
