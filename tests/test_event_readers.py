"""Issue 31: every consumer reads events by class.  ``bots.knowledge.deal_facts`` read the observation's JSON
events by their kind words (``e["kind"] == "played"`` ...); it now reads them back as typed events
(``events.from_data``) through the resampler's one reader (``resample.facts_of``).  The RL vector and the facts
are the same numbers as before: the old reader is kept here, word for word as it was (7c924b1), as the
reference, and both are run over seeded random deals of every built-in, at every decision, for every seat.
"""

from __future__ import annotations

import random

import pytest

from khrap.bots.knowledge import deal_facts
from khrap.cards import card_str
from khrap.engine import GameState, Rules
from khrap.engine.events import EVENT_TYPES, Played, from_data
from khrap.engine.resample import DealFacts
from khrap.variant import catalog

_CARD = {card_str(c): c for c in range(52)}


def _card(value):
    return value if isinstance(value, int) else _CARD[value]


def old_deal_facts(events, seat: int) -> DealFacts:
    """The JSON reader as it was before (``khrap/bots/knowledge.py`` at 7c924b1), the reference."""
    kinds = [e["kind"] for e in events]
    start = next((i for i in range(len(kinds) - 1, -1, -1) if kinds[i] == "dealt"), 0)
    facts = DealFacts()
    current: list = []
    for event in events[start:]:
        kind, who = event["kind"], event["seat"]
        if kind == "played":
            entry = (who, _card(event["card"]), bool(event["joker"]))
            facts.played.append(entry)
            current.append(entry)
            facts.public_in_hand.get(who, set()).discard(entry[1])
        elif kind == "took_trick":
            facts.tricks.append(current)
            current = []
        elif kind in ("shown", "took_turned", "swapped"):
            cards = [_card(c) for c in event["cards"]] if kind == "shown" else [_card(event["card"])]
            facts.public_in_hand.setdefault(who, set()).update(cards)
            if who == seat:
                facts.own_seen.update(cards)
        elif who != seat:
            continue
        elif kind == "drew" and "cards" in event:
            facts.own_seen.update(_card(c) for c in event["cards"])
        elif kind == "exchanged" and "cards" in event:
            facts.own_gone.update(_card(c) for c in event["cards"])
        elif kind == "discarded" and "card" in event:
            facts.own_gone.add(_card(event["card"]))
    return facts


@pytest.mark.parametrize("name", catalog.builtin_names())
def test_the_rl_vector_and_the_facts_are_the_old_readers(name: str, monkeypatch) -> None:
    pytest.importorskip("numpy")
    from khrap.rl import observe

    players = 3 if name == "student-snore" else 4
    rules = Rules(catalog.builtin(name), players)
    encoder = observe.Encoder(rules)
    state = GameState(rules, players, seed=11)
    rng = random.Random(11)
    compared = {"facts": 0, "drawn": 0, "gone": 0}
    for _ in range(5):
        state.start_deal()
        while state.pending is not None:
            for seat in range(players):
                obs = state.observation(seat)
                old = old_deal_facts(obs["events"], seat)
                assert deal_facts(obs["events"], seat) == old, (name, seat, state.log[-1])
                new_vector = encoder.encode(obs)
                with monkeypatch.context() as patched:
                    patched.setattr(observe, "deal_facts", old_deal_facts)
                    assert (encoder.encode(obs) == new_vector).all(), (name, seat, state.log[-1])
                compared["facts"] += bool(old.played or old.public_in_hand)
                compared["drawn"] += bool(old.own_seen)
                compared["gone"] += bool(old.own_gone)
            state.apply(rng.choice(state.legal_actions()))
    assert compared["facts"] > 100, compared  # (the deals reached play: the comparison held facts)


def test_the_drawn_and_thrown_cards_are_read_back() -> None:
    """Random deals of the built-ins draw and exchange (khrap's draws, frap's exchange): at least one seat's own
    cards seen and gone are read in each, so the readers were compared on the secrets too."""
    seen = gone = 0
    for name in ("khrap", "frap"):
        rules = Rules(catalog.builtin(name), 4)
        state = GameState(rules, 4, seed=5)
        rng = random.Random(5)
        for _ in range(4):
            state.start_deal()
            while state.pending is not None:
                state.apply(rng.choice(state.legal_actions()))
                for seat in range(4):
                    facts = deal_facts(state.observation(seat)["events"], seat)
                    assert facts == old_deal_facts(state.observation(seat)["events"], seat)
                    seen += bool(facts.own_seen)
                    gone += bool(facts.own_gone)
    assert seen > 0 and gone > 0


def test_from_data_gives_the_class_and_the_kernels_values() -> None:
    """A played event read back from its JSON is a ``Played`` with the card an int; every kind's word gives its
    class; the seat's own secret (a drawn card) comes back into the fields it saw."""
    state = GameState(Rules(catalog.builtin("khrap"), 4), 4, seed=3)
    rng = random.Random(3)
    state.start_deal()
    while state.pending is not None:
        state.apply(rng.choice(state.legal_actions()))
    for event in state.log:
        for viewer in (None, event.seat):
            back = from_data(event.data(viewer))
            assert type(back) is EVENT_TYPES[event.kind] and back.seat == event.seat
            seen = event.visible(viewer)
            for key in ("card", "cards", "trump", "suit"):  # cards and suits: the kernel's ints again
                if key in seen:
                    assert back.fields[key] == (tuple(seen[key]) if key == "cards" else seen[key]), (event, key)
            if isinstance(event, Played):
                assert back.fields == {"card": event.fields["card"], "joker": event.fields["joker"]}
            elif event.secret is not None and viewer is not None and "cards" in event.secret:
                assert back.fields["cards"] == tuple(event.secret["cards"])
