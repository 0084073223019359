"""The stepped game's fast paths give what the general ones give.

A game driven step by step through ``GameState`` takes at each decision an observation, the legal
actions and one applied.  Each of these has a fast path inside the one kernel:

- observations are made from the table's view of the deal's events plus each seat's own secret
  ones, grown by the events since the last observation, with every event's sentence and data made
  once per content (``observation.seen``'s memo) and cards written from a table;
- the legal actions and their words are listed once per decision (``last_legal``);
- an ``Action`` object that ``legal_actions`` gave for this very decision is applied without being
  parsed or checked again.

Each is played here against the general path: observations against ones made from nothing (fresh
events rendered by the game log, cards by ``cards_str``), JSON-compared so that ``True`` and ``1``
differ; the listing and its words against the machine's own options read through the registry's
codec (``general_listing``, ``general_words``); a listed ``Action`` against its
text and against an equal copy, which both go through the checks.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from khrap import words as w
from khrap.cards import canonical, card_str, cards_str, suit_str
from khrap.engine import GameState, IllegalAction, decisions, observation
from khrap.engine.compiled import Machine
from khrap.engine.events import Event
from khrap.variant.catalog import builtin, builtin_names
from tests.conftest import every_table

DEALS = 6
STEP_LIMIT = 2000


def fresh_observation(state: GameState, seat: int) -> dict:
    """The observation made from nothing: every event of the deal copied (nothing made yet) and
    rendered, the legal words listed by ``general_words``."""
    history, events = [], []
    for event in state.log[state.deal_log_start:]:
        copy = Event(event.kind, event.seat, dict(event.fields), None if event.secret is None else dict(event.secret))
        viewer = seat if copy.secret is not None and copy.seat == seat else None
        history.append(copy.render("en", viewer))
        events.append(copy.data(viewer))
    to_act = None if state.kind is None else state.seat
    return {
        "seat": seat,
        "phase": state.phase,
        "to_act": to_act,
        "dealer": state.dealer,
        "round": state.round,
        "trump": None if state.trump is None else suit_str(state.trump),
        "turned": cards_str(state.turned),
        "shown": cards_str(state.shown),
        "hand": cards_str(canonical(state.hands[seat])) if state.looked[seat] else None,
        "hand_sizes": [len(h) for h in state.hands],
        "stock_count": len(state.stock),
        "discard_count": len(state.discards),
        "stacks": list(state.stacks),
        "pot": state.pot,
        "locked": list(state.locked),
        "statuses": list(state.statuses),
        "calls": list(state.call_of),
        "trick": [[s, card_str(c), j] for s, c, j in state.trick],
        "tricks": list(state.tricks),
        "history": history,
        "events": events,
        "legal": general_words(state) if to_act == seat and state.phase != w.SETTLED else [],
    }


def general_listing(state: GameState) -> list:
    """The legal actions made from nothing: the machine's options (``Machine.legal``) as ``Action`` objects."""
    return [decisions.as_action(state.kind, option) for option in Machine.legal(state)]


def general_words(state: GameState) -> list[str]:
    """The legal words made from nothing: each general action written out, or the kind's word alone."""
    decision = decisions.DECISIONS[state.kind]
    if decision.by_word:
        return [decision.word]
    return [str(action) for action in general_listing(state)]


def same(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize(("name", "players"), every_table())
def test_observations_equal_fresh_ones(name: str, players: int) -> None:
    """At every decision of random deals, the acting seat's observation and another seat's equal ones
    made from nothing; the listing and its words equal the general ones; and a kept observation is
    not changed by what follows."""
    rng = random.Random(f"{name}/{players}")
    state = GameState(builtin(name), players, seed=rng.randrange(10**6), stacks=40)
    kept: list[tuple[dict, str]] = []
    for _ in range(DEALS):
        if state.session_over:
            break
        state.start_deal()
        steps = 0
        while state.pending is not None:
            seat, other = state.seat, rng.randrange(players)
            for viewer in (seat, other):
                got = state.observation(viewer)
                assert same(got, fresh_observation(state, viewer)), (name, players, viewer, steps)
                if rng.random() < 0.05:
                    kept.append((got, json.dumps(got, sort_keys=True)))
            found = state.legal_actions()
            assert found == general_listing(state)
            assert state.legal_words() == general_words(state)
            found.clear()  # a caller's list is its own
            assert state.legal_actions() == general_listing(state)
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
            assert steps < STEP_LIMIT
        settled = rng.randrange(players)
        assert same(state.observation(settled), fresh_observation(state, settled))
    for got, then in kept:
        assert json.dumps(got, sort_keys=True) == then
    # Changing an observation handed out changes no later one.
    seat = state.seat
    first = state.observation(seat)
    for value in first.values():
        if isinstance(value, list):
            value.append("changed")
    assert same(state.observation(seat), fresh_observation(state, seat))


def other_copy(action):
    """An equal ``Action`` that is another object (it must go through the checks)."""
    return dataclasses.replace(action)


@pytest.mark.parametrize("name", builtin_names())
@pytest.mark.parametrize("how", ["text", "copy"])
def test_listed_actions_apply_as_their_text(name: str, how: str) -> None:
    """Applying the listed ``Action`` (unchecked, a play inline) and applying its text or an equal
    copy (parsed and checked) play the same game: the same events, chips and legal lists."""
    variant = builtin(name)
    for players in sorted({variant.players.min, variant.players.max}):
        seed = random.Random(f"{name}/{players}/{how}").randrange(10**6)
        listed_state = GameState(variant, players, seed=seed, stacks=40)
        other_state = GameState(variant, players, seed=seed, stacks=40)
        rng = random.Random(seed)
        for _ in range(DEALS):
            if listed_state.session_over:
                assert other_state.session_over
                break
            listed_state.start_deal()
            other_state.start_deal()
            while listed_state.pending is not None:
                assert other_state.pending == listed_state.pending
                found = listed_state.legal_actions()
                assert [str(a) for a in found] == [str(a) for a in other_state.legal_actions()]
                action = rng.choice(found)
                listed_state.apply(action)
                if how == "text":
                    other_state.apply(str(action))
                else:
                    other_state.apply(other_copy(action))
            assert [(e.text, e.public) for e in listed_state.log] == [(e.text, e.public) for e in other_state.log]
            assert (listed_state.stacks, listed_state.pot) == (other_state.stacks, other_state.pot)


def test_the_listing_is_made_again_when_the_hand_changes() -> None:
    """The legal actions are listed once per decision, but a hand replaced or changed in place (a
    test or a search copy that sets the state up) is listed again."""
    state = GameState(builtin("khrap"), 4, seed=3)
    state.start_deal()
    while state.kind != "play":
        state.apply(state.legal_actions()[0])
    seat = state.seat
    before = state.legal_actions()
    assert before == general_listing(state)
    state.hands[seat] = state.hands[seat][:1]
    assert state.legal_actions() == general_listing(state) != before
    state.hands[seat].append(state.stock[0] if state.stock else state.won[0])
    assert state.legal_actions() == general_listing(state)
    assert state.legal_words() == general_words(state)


def test_the_listing_is_made_again_after_a_step_that_emits() -> None:
    """A kernel step taken without the face's ``apply`` (``apply_option``, which the registry's appliers and
    ``play_deal`` take) leaves the listing's marks of kind, seat and hand as they were; the log's length, one of
    the marks, tells the listing it is stale.  Frap, seed 0: seat 1 may call blind and look; once he looked
    (a ``looked`` event, the same seat, kind and hand), ``look`` is no longer listed."""
    state = GameState(builtin("frap"), 4, seed=0)
    state.start_deal()
    seat, hand = state.seat, state.hands[state.seat]
    before = state.legal_actions()
    assert w.LOOK in [a.word for a in before]
    state.apply_option(next(a for a in before if a.word == w.LOOK))
    assert (state.seat, state.hands[seat]) == (seat, hand) and state.hands[seat] is hand
    assert w.LOOK not in [a.word for a in state.legal_actions()]
    assert state.legal_actions() == general_listing(state)


def test_a_stale_listed_action_is_checked() -> None:
    """A listed Action of an earlier decision is checked like any other: refused with the table's reason."""
    state = GameState(builtin("khrap"), 4, seed=3)
    state.start_deal()
    while state.kind != "play":
        state.apply(state.legal_actions()[0])
    first = state.legal_actions()[0]
    state.apply(first)
    with pytest.raises(IllegalAction, match=f"does not hold {card_str(first.cards[0])}"):
        state.apply(first)


def test_bots_leave_the_shared_event_data_unchanged() -> None:
    """The event dicts in ``observation["events"]`` are shared (by every observation, and through the
    memo by every event of the same content): after bots have read them for some deals, each kept
    sentence and dict still equals one made afresh from its content."""
    from khrap.bots import make_bot

    variant = builtin("khrap")
    state = GameState(variant, 4, seed=11, stacks=40)
    bots = [make_bot(kind, state.rules) for kind in ("heuristic", "rule", "heuristic", "random")]
    rng = random.Random(11)
    for _ in range(4):
        if state.session_over:
            break
        state.start_deal()
        while state.pending is not None:
            seat = state.seat
            state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), rng))
    assert observation._MEMO
    for (kind, seat, sees, fields, secret), (text, data) in list(observation._MEMO.items()):
        event = Event(kind, seat, dict(fields), dict(secret) if sees else None)
        viewer = seat if sees else None
        assert (text, json.dumps(data)) == (event.render("en", viewer), json.dumps(event.data(viewer)))


def test_an_exchange_made_by_its_dict_equals_the_dataclass_one() -> None:
    """The exchange listing makes its ``Action`` objects with only the fields that are not their defaults in
    the instance dict (``machine.exchange_action``), not by the frozen dataclass's ``__init__``: every field, the
    hash, the text and a pickle's copy are the constructor's."""
    import pickle

    from khrap.engine.actions import Action
    from khrap.engine.compiled.machine import exchange_action

    for cards in [(), (0,), (12, 13), (51, 3, 27, 40)]:
        made, general = exchange_action(cards), Action(w.EXCHANGE, cards=cards)
        assert type(made) is Action
        for field in dataclasses.fields(Action):
            assert getattr(made, field.name) == getattr(general, field.name), field.name
        assert (made, hash(made), str(made), repr(made)) == (general, hash(general), str(general), repr(general))
        assert pickle.loads(pickle.dumps(made)) == general
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.cards = (1,)  # type: ignore[misc]
