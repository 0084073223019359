"""The kernel's state lives in slots (``Table.__slots__``), not in an instance dict, in plain Python.

With seventy-odd attributes in an instance dict CPython 3.11 specialises neither ``self._step(...)``
nor the attribute reads of the kernel's steps; with slots it does (docs/compiled.md).  The slots
are a second list of the attributes ``Table`` declares with their types: they must stay the same
list, and every class of the line must say ``__slots__ = ()`` or its instances get a dict again.
"""

import ast
import copy
import random
from pathlib import Path

import pytest

import khrap
from khrap.engine import Rules
from khrap.engine.compiled import Machine
from khrap.engine.randomness import chooser
from khrap.engine.state import GameState
from khrap.kernel_build import kernel_kind
from khrap.variant.catalog import builtin

TABLE = Path(khrap.__file__).parent / "engine" / "compiled" / "table.py"


def table_class() -> ast.ClassDef:
    if not TABLE.is_file():
        pytest.skip("the kernel's sources are not installed beside it")
    tree = ast.parse(TABLE.read_text(encoding="utf-8"))
    return next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Table")


def test_the_slots_are_the_attributes_table_declares():
    declared, slots = [], None
    for node in table_class().body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if not ast.unparse(node.annotation).startswith("ClassVar"):
                declared.append(node.target.id)
        elif isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__slots__"]:
            slots = ast.literal_eval(node.value)
    assert slots is not None, "Table has no __slots__"
    assert len(declared) > 50 and len(set(slots)) == len(slots)
    assert sorted(slots) == sorted(declared)


@pytest.mark.skipif(kernel_kind() != "plain", reason="a native class keeps its attributes in its own struct")
def test_no_class_of_the_line_gives_the_kernel_a_dict():
    machine = Machine(Rules(builtin("khrap"), 4).program, seed=5)
    assert not hasattr(machine, "__dict__")
    machine.play_deal(chooser(random.Random(5)))
    state = GameState(builtin("khrap"), 4, seed=5)
    # Only what the face adds is in a table's dict; the kernel's state is in the slots.
    assert set(vars(state)) <= {"last_legal", "_words", "seat_views"} | {n for n in vars(type(state).__mro__[1])}
    assert "hands" not in vars(state) and state.hands


def test_copies_carry_every_slot():
    program = Rules(builtin("khrap"), 4).program
    machine = Machine(program, seed=7)
    machine.start_deal()
    shallow, deep = copy.copy(machine), copy.deepcopy(machine)  # (a program holds functions: no pickle)
    for made in (shallow, deep):
        for name in ("hands", "stock", "turned", "stacks", "pot", "dealer", "kind", "seat", "statuses", "queue"):
            assert getattr(made, name) == getattr(machine, name), name
    assert shallow.hands is machine.hands and deep.hands is not machine.hands
    choose = chooser(random.Random(1))
    while deep.kind is not None:  # the deep copy plays on, alone
        deep.apply(choose(deep.legal()))
    assert deep.settled and not machine.settled and sum(map(len, machine.hands)) == 16
