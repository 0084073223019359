"""The kernel names no variant and no call: every rule reaches it as data.

Every string constant (f-string parts included) and identifier in the kernel's
source is split into words; none may be a built-in variant id or a call id of
any built-in variant, except the kernel's own action words (khrap/words.py).
"""

import ast
import re
from pathlib import Path

from khrap import words
from khrap.variant.catalog import builtin, builtin_names

KERNEL = Path(words.__file__).parent
KERNEL_FILES = sorted((KERNEL / "engine").rglob("*.py")) + [KERNEL / "words.py"]  # the compiled machine too
# `pass` is one of the kernel's own words too (the log says "all pass"), though variants define it as a call.
ALLOWED = set(words.KERNEL_WORDS) | {"pass"}


def forbidden_words() -> set[str]:
    names = set(builtin_names())
    for name in builtin_names():
        v = builtin(name)
        names |= set(v.calls) | set(v.instant_wins)
    return names - ALLOWED


def words_in(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.Name | ast.Attribute | ast.FunctionDef | ast.arg):
            text = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", None) or node.arg
            text = text.replace("_", "-")
        else:
            continue
        found += [(node.lineno, word) for word in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower())]
    return found


def test_forbidden_list_covers_every_builtin() -> None:
    names = forbidden_words()
    assert set(builtin_names()) <= names | ALLOWED
    assert {"khrap", "merry", "wrap", "helicopter"} <= names


def test_kernel_source_names_no_variant_or_call() -> None:
    forbidden = forbidden_words()
    hits = [
        f"{path.name}:{line}: {word}" for path in KERNEL_FILES for line, word in words_in(path) if word in forbidden
    ]
    assert not hits, "variant or call ids in kernel code:\n" + "\n".join(hits)


def test_the_check_catches_a_name(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('if call == "merry":\n    pass\n')
    assert (1, "merry") in words_in(sample)
