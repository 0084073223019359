"""The kernel's event sink (``engine/compiled/sink.py``): each step tells its sink what happened, once.

The null sink (a playout's) must drop nothing the recorder keeps by accident of a missing method: every
event method of ``Sink`` is overridden by ``Recorder`` and names a kind of event the log knows; a
machine's ``emitting`` is its sink; and the two sinks hold no state, so a copied machine keeps its own.
That the events and the outcomes are the same with either sink is ``tests/test_kernel_branches.py``'s
lockstep (a bare machine stepped with the null sink against ``GameState`` with the recorder).
"""

from __future__ import annotations

import copy
import inspect

from khrap.engine import GameState, Rules
from khrap.engine.compiled import Machine
from khrap.engine.compiled.sink import NULL_SINK, RECORDER, Recorder, Sink
from khrap.engine.events import EVENT_TYPES
from khrap.variant.catalog import builtin

# Methods of a sink that are not one kind of event: the deal's start, the ledger's lines and the ledger.
NOT_EVENTS = {"new_deal", "unlock_items", "ledger"}


def _event_methods() -> list[str]:
    return [name for name, _ in inspect.getmembers(Sink, callable)
            if not name.startswith("_") and name not in NOT_EVENTS and not name.endswith("_item")]


def test_every_event_method_is_recorded_and_names_a_kind_of_event() -> None:
    names = _event_methods()
    assert len(names) >= 30
    for name in [*names, *NOT_EVENTS, *(n for n, _ in inspect.getmembers(Sink, callable) if n.endswith("_item"))]:
        assert getattr(Recorder, name) is not getattr(Sink, name), f"Recorder does not record {name}"
    unknown = [name for name in names if name not in EVENT_TYPES]
    assert not unknown, f"sink methods that are no kind of event: {unknown}"


def test_emitting_is_the_sink() -> None:
    rules = Rules(builtin("khrap"), 4)
    machine = Machine(rules.program, seed=3)
    assert machine.sink is NULL_SINK and not machine.emitting
    machine.emitting = True
    assert machine.sink is RECORDER
    machine.start_deal()
    assert machine.log, "a recording machine logs the deal"
    machine.emitting = False
    machine.log.clear()
    while machine.kind is not None:
        machine.apply(machine.legal()[0])
    assert machine.log == [] and machine.settled


def test_a_copied_machine_keeps_a_stateless_sink() -> None:
    state = GameState(Rules(builtin("khrap"), 4), 4, seed=5)
    state.start_deal()
    clone = state.clone()
    assert clone.sink is RECORDER and copy.copy(NULL_SINK) is NULL_SINK
    clone.apply(clone.legal_actions()[0])
    assert len(clone.log) > len(state.log)  # the clone's events go to the clone's log
