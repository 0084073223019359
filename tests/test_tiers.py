"""The tiers of the suite (docs/testing.md "Tiers"): a test sized by ``tests.conftest.examples`` or ``size``
(hypothesis examples, deals, files: ten times more under ``HYPOTHESIS_PROFILE=large``) carries the ``large``
marker, so that ``-m large`` finds every test the large run grows."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _sized_names(tree: ast.Module) -> set[str]:
    """The module's names bound to ``size(...)``: ``DEALS = size("KHRAP_PROPERTY_DEALS", 300)``."""
    names = set()
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "size"):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def _marked_large(function: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Attribute) and d.attr == "large" for d in function.decorator_list)


def unmarked_sized_tests(source: str) -> list[str]:
    """The test functions of ``source`` that call ``examples(...)`` or read a name bound to ``size(...)``
    and carry no ``large`` marker."""
    tree = ast.parse(source)
    sized = _sized_names(tree) | {"examples"}
    found = []
    for node in tree.body:
        if (isinstance(node, ast.FunctionDef) and node.name.startswith("test_") and not _marked_large(node)
                and any(isinstance(n, ast.Name) and n.id in sized for n in ast.walk(node))):
            found.append(node.name)
    return found


def test_every_sized_test_is_marked_large() -> None:
    found = [f"{path.relative_to(TESTS)}::{name}" for path in sorted(TESTS.rglob("test_*.py"))
             for name in unmarked_sized_tests(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_check_finds_an_unmarked_sized_test() -> None:
    source = '''
DEALS = size("KHRAP_X", 3)

@settings(max_examples=examples(5))
def test_a(): pass

def test_b():
    for _ in range(DEALS): pass

@pytest.mark.large
def test_c():
    for _ in range(DEALS): pass

def test_d(): pass
'''
    assert unmarked_sized_tests(source) == ["test_a", "test_b"]
