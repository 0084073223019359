"""Every seat's observation and typed view, at every step of many random deals of every built-in, equal ones
made the general way.

The observation is made incrementally (``observation.SeatViews``: the lists grown by the events since the
last observation, each list grown only when read), each event's sentence and data found by its content
(``observation.seen``: by the public content the kernel's sink gives the event, ``Event.content``, or by its
fields), and the transient view an observation renders leaves out what the dict does not show.  Here each
is played against the general way (``fresh_observation``: every event of the deal copied, so nothing is
made yet, and rendered by the game log; the state read field by field): for every seat, not only the one to
act, compared as dicts (``==``) and as JSON text with the keys in their order (``True`` and ``1`` differ,
and so does a key moved).  The typed view (``seat_view``) is compared with the log's events as the seat
may hold them (another seat's secret fields left out), and the cards it drew and threw with its own events.
"""

from __future__ import annotations

import json
import random

import pytest

from khrap.engine import GameState, observation
from khrap.engine.events import Discarded, Drew, Event, Exchanged, Threw
from khrap.engine.view import seat_view, spectator_view
from khrap.variant.catalog import builtin, builtin_names
from tests.test_stepped_paths import fresh_observation

DEALS = 8
STEP_LIMIT = 2000


def held(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` may hold it, made from nothing: a copy of its class, the secret kept only for its
    owner."""
    keeps = event.secret is not None and seat is not None and event.seat == seat
    return type(event)(event.seat, dict(event.fields), dict(event.secret) if keeps else None)


def held_cards(events: list[Event], seat: int | None) -> tuple[list[int], list[int]]:
    """The cards ``seat`` drew, and threw, in its own secret events, read from the events one by one."""
    drawn: list[int] = []
    thrown: list[int] = []
    for event in events:
        if seat is None or event.seat != seat or event.secret is None:
            continue
        if isinstance(event, Drew):
            drawn.extend(event.secret["cards"])
        elif isinstance(event, Exchanged | Threw):
            thrown.extend(event.secret["cards"])
        elif "card" in event.secret:
            thrown.append(event.secret["card"])
    return drawn, thrown


def check_seat(state: GameState, seat: int, where: tuple) -> None:
    got = state.observation(seat)
    want = fresh_observation(state, seat)
    assert got == want, where
    assert json.dumps(got) == json.dumps(want), where
    view = seat_view(state, seat)
    deal = state.log[state.deal_log_start:]
    want_events = [held(event, seat) for event in deal]
    assert [type(e) for e in view.events] == [type(e) for e in want_events], where
    assert view.events == want_events, where
    assert (view.drawn, view.thrown) == held_cards(deal, seat), where


def check_spectator(state: GameState, where: tuple) -> None:
    view = spectator_view(state)
    want = [held(event, None) for event in state.log[state.deal_log_start:]]
    assert [type(e) for e in view.events] == [type(e) for e in want], where
    assert view.events == want, where
    assert (view.drawn, view.thrown, view.hand, view.legal) == ([], [], None, []), where


@pytest.mark.parametrize("name", builtin_names())
def test_every_seats_observation_at_every_step_equals_the_general_one(name: str) -> None:
    variant = builtin(name)
    for players in sorted({variant.players.min, min(4, variant.players.max), variant.players.max}):
        rng = random.Random(f"reference/{name}/{players}")
        state = GameState(variant, players, seed=rng.randrange(10**6), stacks=40)
        for deal in range(DEALS):
            if state.session_over:
                break
            state.start_deal()
            steps = 0
            while state.pending is not None:
                # The seats in a random order: a seat's observation may follow any other's.
                for seat in rng.sample(range(players), players):
                    check_seat(state, seat, (name, players, deal, steps, seat))
                check_spectator(state, (name, players, deal, steps))
                state.apply(rng.choice(state.legal_actions()))
                steps += 1
                assert steps < STEP_LIMIT
            for seat in range(players):  # settled: every event of the deal, the settlement's too
                check_seat(state, seat, (name, players, deal, "settled", seat))


def test_a_seats_own_card_sentences_take_the_template_branch_and_equal_the_general_ones() -> None:
    """A seat's own draws, exchanges and discards are worded by ``observation._own`` (the game log's
    ``template``: the sentence's parts, the cards named from the voice's table), checked once per content
    against the general rendering and kept; here every such event of random deals of every built-in is
    worded so (from a copy with nothing made) and compared with a fresh copy rendered the general way, and
    the branch must have been taken (its content's entry has parts, not the general way's none) for each."""
    taken: set[type] = set()
    for name in builtin_names():
        variant = builtin(name)
        players = min(4, variant.players.max)
        state = GameState(variant, players, seed=7, stacks=40)
        rng = random.Random(f"own/{name}")
        for _ in range(DEALS):
            if state.session_over:
                break
            state.start_deal()
            while state.pending is not None:
                state.apply(rng.choice(state.legal_actions()))
            for event in state.log[state.deal_log_start:]:
                if event.secret is None or event.content is None or event.seat is None or len(event.secret) != 1:
                    continue
                copy = type(event)(event.seat, dict(event.fields), dict(event.secret))
                copy.content = event.content
                got = observation.seen(copy, True)
                general = type(event)(event.seat, dict(event.fields), dict(event.secret))
                want = (general.render("en", event.seat), general.data(event.seat))
                assert got == want, (name, event)
                assert json.dumps(got) == json.dumps(want), (name, event)
                assert observation._OWN[event.content][0], (name, event)  # the branch taken: parts kept
                taken.add(type(event))
    assert {Drew, Exchanged, Discarded} <= taken, taken


@pytest.mark.parametrize("name", ["khrap", "frap", "khrap-52"])
def test_an_observation_kept_does_not_change_as_the_game_goes_on(name: str) -> None:
    """An observation is a fresh dict of its moment (CONTRACT: a plain dict): a bot or a program that keeps it
    finds it as it was made, while the stacks, pot, stakes, statuses, calls, trick and tricks change under it
    (none of its lists is the state's own; khrap-52 locks stakes)."""
    variant = builtin(name)
    rng = random.Random(f"kept/{name}")
    state = GameState(variant, 4, seed=rng.randrange(10**6), stacks=40)
    kept: list[tuple[dict, str]] = []
    for _ in range(2):
        state.start_deal()
        while state.pending is not None:
            for seat in range(4):
                made = state.observation(seat)
                kept.append((made, json.dumps(made)))
            state.apply(rng.choice(state.legal_actions()))
    assert len(kept) > 40 and len({text for _, text in kept}) > 10
    changed = [text for made, text in kept if json.dumps(made) != text]
    assert changed == []


@pytest.mark.parametrize("name", builtin_names())
def test_the_typed_view_read_alone_at_every_step_equals_the_general_one(name: str) -> None:
    """The stepped reader of the typed view (``benchmarks/random_playout.stepped_deal``, what the default bots
    read) asks only the seat to act's ``seat_view`` at each decision, never an observation dict: the typed
    events are grown without the history lines beside them.  Each view equals the log's events as the seat may
    hold them, its cards drawn and thrown its own events', its hand and legal actions the state's; every few
    steps a spectator's view and another seat's are asked in between, so each list grows by any number of
    events at a time."""
    variant = builtin(name)
    players = min(4, variant.players.max)
    rng = random.Random(f"view-alone/{name}")
    state = GameState(variant, players, seed=rng.randrange(10**6), stacks=40)
    views = 0
    for deal in range(DEALS):
        if state.session_over:
            break
        state.log.clear()  # (as the stepped reader does: a deal's events begin the log again)
        state.start_deal()
        steps = 0
        while state.pending is not None:
            seat = state.pending.seat
            asked = [seat] if rng.random() < 0.7 else [rng.randrange(players), None, seat]
            for who in asked:
                view = seat_view(state, who)
                deal_events = state.log[state.deal_log_start:]
                want = [held(event, who) for event in deal_events]
                where = (name, deal, steps, who)
                assert [type(e) for e in view.events] == [type(e) for e in want], where
                assert view.events == want, where
                assert (view.drawn, view.thrown) == held_cards(deal_events, who), where
                assert view.hand == (sorted(state.hands[who]) if who is not None and state.looked[who] else None)
                assert view.legal == (state.legal_actions() if who == seat else []), where
                views += 1
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
            assert steps < STEP_LIMIT
    assert views > 100
