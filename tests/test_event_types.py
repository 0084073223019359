"""Typed events: a class per kind (``engine/events.py``), what the kernel emits, and the narrated flag."""

from __future__ import annotations

import copy
import random

import pytest

from khrap.engine import GameState
from khrap.engine.events import EVENT_TYPES, Event, Played, Threw, make_event
from khrap.gamelog import kinds
from khrap.variant.catalog import builtin, builtin_names


@pytest.mark.parametrize("name", builtin_names())
def test_the_kernel_emits_each_kind_as_its_class(name: str) -> None:
    """Every event of random deals is of the class its kind declares; the log's are narrated, ``quiet``'s not."""
    rng = random.Random(name)
    state = GameState(builtin(name), 4, seed=rng.randrange(10**6))
    quiet: list[Event] = []
    for _ in range(3):
        if state.session_over:
            break
        state.start_deal()
        while state.pending is not None:
            state.apply(rng.choice(state.legal_actions()))
        quiet += state.quiet
    for event in state.log:
        assert type(event) is EVENT_TYPES[event.kind] and event.narrated, event
    for event in quiet:
        assert type(event) is EVENT_TYPES[event.kind] and not event.narrated, event
    assert any(isinstance(e, Played) for e in state.log) and any(isinstance(e, Threw) for e in quiet)


def test_every_narrated_kind_has_a_sentence_and_no_textless_one_does() -> None:
    narrated = {kind for kind, made in EVENT_TYPES.items() if made().narrated}
    assert narrated == kinds()


def test_a_copy_keeps_its_class() -> None:
    event = make_event("drew", 1, {"count": 1, "source": "top"}, {"cards": (0,)})
    public = event.public_copy()
    assert type(public) is type(event) and public.secret is None and public.fields == event.fields
    assert copy.deepcopy(event) is event
    assert type(make_event("no_such_kind")) is Event
