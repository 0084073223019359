"""The typed seat view and the spectator's view (engine/observation.py, engine/view.py; issue 31).

A seat's view holds int cards, the public table, its secrets, the events it may hold and its legal
actions; the observation dict is its rendering.  A spectator's view is made for no seat: it never
holds a card that is not public (a hand, the stock, the discards)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from khrap.cards import card_str, parse_cards
from khrap.engine import GameState, Rules
from khrap.engine.events import Dealt, Drew, Exchanged
from khrap.engine.observation import render
from khrap.engine.view import (
    events_since,
    own_since,
    seat_hand,
    seat_view,
    spectator_observation,
    spectator_view,
    to_json,
)
from khrap.variant.catalog import builtin
from tests.conftest import every_table, examples, new_table, random_deal

DECK = "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"
# Dealt from seat 1, one card at a time (the dealer, seat 0, last): seat 1 AS KH 6D 7C, seat 2 QH 6S AD 8C,
# seat 3 7S 8S 9S TS, seat 0 JS 7D 8D 6C; 9H is turned (trump hearts).  The stock follows in the deck's
# canonical order without these: QS KS 6H 7H 8H TH JH AH 6D...


def table(deck_text: str = DECK) -> GameState:
    rules = Rules(builtin("khrap"), 4)
    listed = parse_cards(deck_text)
    state = GameState(rules, 4, decks=[listed + [c for c in rules.deck if c not in listed]])
    state.start_deal()
    return state


def _cards_in(fields: dict) -> set[int]:
    found: set[int] = set()
    for key, value in fields.items():
        if key == "card" and value is not None:
            found.add(value)
        elif key == "cards":
            found.update(value)
        elif key == "hands":
            found.update(c for hand in value for c in hand)
    return found


def _hidden(state: GameState) -> set[int]:
    """The cards face down now: in a hand (not shown, not the turned card taken up), the stock, the discards."""
    down = {c for hand in state.hands for c in hand} | set(state.stock) | set(state.discards)
    return down - set(state.shown) - set(state.turned) - set(parse_cards("9H"))


def _assert_nothing_hidden(state: GameState) -> None:
    view = spectator_view(state)
    hidden = _hidden(state)
    assert view.seat is None and view.hand is None and view.drawn == [] and view.thrown == []
    assert view.legal == [] and view.numbers() == {}
    assert all(event.secret is None for event in view.events)
    held = set(view.turned) | set(view.shown) | {c for _, c, _ in view.trick}
    for event in view.events:
        held |= _cards_in(event.fields)
    assert not held & hidden
    text = repr(to_json(view))
    for card in hidden:
        assert f"'{card_str(card)}'" not in text


def test_a_spectator_never_holds_a_card_not_yet_public() -> None:
    state = table()
    _assert_nothing_hidden(state)
    for seat, word in ((1, "khrap"), (2, "help"), (3, "pass"), (0, "pass"), (3, "pass"), (0, "pass")):
        state.apply(word, seat)
        _assert_nothing_hidden(state)
    state.apply("exchange 6D 7C", 1)  # seat 1 throws 6D 7C and draws QS KS, the stock's top two
    state.apply("exchange 6S 8C", 2)  # seat 2 throws 6S 8C and draws 6H 7H
    _assert_nothing_hidden(state)
    # The seats themselves hold what the spectator does not: the test can fail.
    one, two = seat_view(state, 1), seat_view(state, 2)
    assert one.hand == sorted(parse_cards("AS KH QS KS")) and one.drawn == parse_cards("QS KS")
    assert sorted(one.thrown) == sorted(parse_cards("6D 7C"))
    assert two.drawn == parse_cards("6H 7H") and sorted(two.thrown) == sorted(parse_cards("6S 8C"))
    assert any(isinstance(e, Exchanged) and e.secret for e in one.events)  # its own exchange, whole
    assert not any(e.secret for e in one.events if e.seat != 1)  # the others' without their secrets
    spectator = spectator_view(state)
    assert [type(e) for e in spectator.events] == [type(e) for e in one.events]  # the same events, public
    assert any(isinstance(e, Drew) and e.seat == 1 and e.fields["count"] == 2 for e in spectator.events)
    assert any(isinstance(e, Dealt) for e in spectator.events)
    while state.pending is not None:  # the play: every card played becomes public, no other
        state.apply(state.legal_actions()[0])
        _assert_nothing_hidden(state)
    assert spectator_view(state).stacks == state.stacks


def test_the_spectator_view_does_not_depend_on_hidden_cards() -> None:
    # QH (seat 2's, dealt 2nd) and TC (in the stock) swapped: the spectator cannot tell the two apart.
    a, b = table(), table(DECK.replace("QH", "TC"))
    for state in (a, b):
        state.apply("khrap", 1)
        state.apply("help", 2)
    assert a.hands[2] != b.hands[2]
    assert to_json(spectator_view(a)) == to_json(spectator_view(b))


def test_the_spectator_json_is_the_public_part_of_every_seats() -> None:
    state = table()
    state.apply("khrap", 1)
    spectator = to_json(spectator_view(state))
    for seat in range(4):
        seen = state.observation(seat)
        for key in ("phase", "to_act", "turned", "shown", "hand_sizes", "stacks", "pot", "statuses", "calls",
                    "trick", "tricks"):
            assert spectator[key] == seen[key]
    assert spectator["hand"] is None and spectator["legal"] == [] and spectator["seat"] is None


@pytest.mark.large
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(every_table()), seed=st.integers(0, 2**32 - 1))
def test_the_observation_is_the_rendering_of_the_seat_view(table, seed) -> None:
    name, players = table
    state = new_table(name, players, seed=seed)
    rng = random.Random(seed)

    def check(s: GameState) -> None:
        for seat in range(players):
            view = seat_view(s, seat)
            assert to_json(view) == s.observation(seat)
            if s.to_act == seat and s.pending is not None:
                assert view.legal == s.legal_actions()
                assert view.numbers() == s.legal_numbers()
        _ = spectator_view(s)

    for _ in range(2):
        if state.session_over:
            break
        random_deal(state, rng, check)


@pytest.mark.parametrize(("name", "players"), every_table())
def test_the_events_since_a_place_and_the_hand_are_the_seat_views(name: str, players: int) -> None:
    """``events_since`` is the view's events from a place on (the very event objects: its own secret events
    whole, the others' without their secrets), and a reader that keeps what it read and asks for the new events
    at every step holds the view's events; ``seat_hand`` is the view's hand; ``spectator_observation`` is the
    spectator's view rendered without events; ``own_since`` says where a seat's events are not the spectator's."""
    state = new_table(name, players, seed=players)
    rng = random.Random(name)
    viewers = [None, *range(players)]
    own = 0  # places where a seat holds an event otherwise than the spectator (its own secret): the overlay
    for _ in range(2):
        if state.session_over:
            break
        state.start_deal()
        kept: dict[int | None, list] = {v: [] for v in viewers}
        while True:
            table = seat_view(state, None).events
            assert spectator_observation(state) == render(seat_view(state, None), [], [], [])
            for viewer in viewers:
                view = seat_view(state, viewer)
                whole = view.events
                assert seat_hand(state, viewer) == view.hand
                for start in {0, 1, len(whole) // 2, len(whole) - 1, len(whole), len(whole) + 3}:
                    since = events_since(state, viewer, start)
                    assert len(since) == len(whole[start:])
                    assert own_since(state, viewer, start) == any(a is not b for a, b in zip(
                        since, events_since(state, None, start), strict=True))
                    assert all(a is b for a, b in zip(since, whole[start:], strict=True))
                kept[viewer] += events_since(state, viewer, len(kept[viewer]))
                assert all(a is b for a, b in zip(kept[viewer], whole, strict=True))
                assert len(kept[viewer]) == len(whole)
                own += sum(a is not b for a, b in zip(whole, table, strict=True))
            if state.pending is None:
                break
            state.apply(rng.choice(state.legal_actions()))
    if name in ("khrap", "frap"):  # (their exchanges and draws are their seats' secrets)
        assert own > 0


def test_the_rl_vector_of_the_typed_view_is_the_vector_of_its_observation() -> None:
    pytest.importorskip("numpy")
    from khrap.rl.observe import Encoder

    for name, players in (("khrap", 4), ("frap", 3), ("frap", 5)):
        state = new_table(name, players, seed=7)
        encoder = Encoder(state.rules)

        def check(s: GameState, encoder: Encoder = encoder, players: int = players) -> None:
            for seat in range(players):
                assert (encoder.encode_view(seat_view(s, seat)) == encoder.encode(s.observation(seat))).all()

        random_deal(state, random.Random(players), check)
