"""The heuristic and search bots name no variant and no call: they judge calls by their data.

Same check as the kernel's (tests/test_kernel_names.py) over the bots' own
modules: no string constant or identifier holds a built-in variant id or a
call id, except the kernel's own action words and the package's name in
module paths (``khrap.bots``).
"""

import ast
import re
from pathlib import Path

from khrap import bots
from tests.test_kernel_names import ALLOWED, forbidden_words

BOTS = Path(bots.__file__).parent
FILES = [BOTS / f for f in ("heuristic.py", "estimate.py", "knowledge.py", "determinize.py", "mcts.py")]


def words_in(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.Name | ast.Attribute | ast.FunctionDef | ast.ClassDef | ast.arg):
            text = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", None) or node.arg
            text = text.replace("_", "-")
        else:
            continue
        text = re.sub(r"\bkhrap\.[a-z_.]+", "", text.lower())  # module paths
        found += [(node.lineno, word) for word in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text)]
    return found


def test_bots_name_no_variant_and_no_call() -> None:
    forbidden = forbidden_words() - ALLOWED
    hits = [f"{path.name}:{line}: {word}" for path in FILES for line, word in words_in(path) if word in forbidden]
    assert not hits, "the bots name variants or calls:\n" + "\n".join(hits)
