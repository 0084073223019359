"""The strong bot compiled (``BOT_MODULES``, docs/compiled.md) makes the same choices as its plain ``.py`` files.

The plain sources are the reference.  In the CI's compiled stage this process imports the compiled
solver; the same deals are played again in a subprocess that imports only the package's ``.py`` files
(a copy without the extension modules), and the digests of every action taken must be equal.  Where
nothing is compiled there is nothing to compare, and the test is skipped.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import khrap
from khrap.kernel_build import kernel_kind

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
RUNS = [("khrap", 2), ("frap", 1)]  # (variant, deals): calls, exchanges, discards and cards all searched


def plain_copy(into: Path) -> Path:
    """A copy of the imported package's sources with no extension module: what runs is the ``.py`` files."""
    package = Path(khrap.__file__).parent
    shutil.copytree(package, into / "khrap", ignore=shutil.ignore_patterns("__pycache__", *(f"*{s}" for s in SUFFIXES)))
    return into


def digest(variant: str, deals: int, path: Path | None = None) -> dict:
    """``benchmarks/strong_speed.py --json`` in a subprocess: ``path`` first on its import path if given, else
    the package this Python has installed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "strong_speed.py"), "--variant", variant,
                           "--deals", str(deals), "--json"], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.skipif(kernel_kind() != "compiled", reason="nothing compiled: the plain files are the reference")
@pytest.mark.parametrize(("variant", "deals"), RUNS)
def test_the_compiled_bot_makes_the_plain_bots_choices(tmp_path: Path, variant: str, deals: int) -> None:
    compiled = digest(variant, deals)
    plain = digest(variant, deals, plain_copy(tmp_path))
    assert (compiled["kernel"], plain["kernel"]) == ("compiled", "plain")
    assert compiled["actions"] >= 15 * deals  # the deals were played
    assert plain["digest"] == compiled["digest"]
