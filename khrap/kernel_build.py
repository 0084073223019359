"""Which kernel runs: the plain ``.py`` files, or the same files compiled by mypyc (docs/compiled.md).

``KERNEL_MODULES`` are the kernel's hot modules, ``BOT_MODULES`` the strong bot's (its exact solver
and the solver's door to the kernel) and ``SERVER_MODULES`` the web server's, the ones a compiled wheel
(``KHRAP_COMPILE=1``, read by the build hook ``hatch_build.py``) holds as extension modules beside their
sources.  They are written so that mypyc can compile them, and CI type-checks them with mypy so they stay so:

    python -m khrap.kernel_build            # which kernel this Python imports
    python -m khrap.kernel_build --files    # the modules' files (for mypy)
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from pathlib import Path

KERNEL_MODULES = (
    "khrap.engine.compiled.sink",
    "khrap.engine.compiled.table",
    "khrap.engine.compiled.tricks",
    "khrap.engine.compiled.payouts",
    "khrap.engine.compiled.program",
    "khrap.engine.compiled.listers",
    "khrap.engine.compiled.machine",
    "khrap.engine.trick",
    "khrap.engine.randomness",
    "khrap.engine.compiled.face",
    "khrap.engine.events",
    "khrap.engine.observation",
    "khrap.engine.state",
)
"""Compiled together into one group (they call each other as native code): ``khrap.engine.KERNEL_MODULES``
(the hot modules) and what they need compiled with them (``table``, the base of the machine's classes;
``listers``).  Written out, not imported, so that the build hook reads it without importing the package."""

BOT_MODULES = (
    "khrap.engine.copying",
    "khrap.bots.position",
    "khrap.bots.solver",
    "khrap.bots.estimate",
    "khrap.bots.heuristic",
    "khrap.bots.search",
)
"""The strong bot's hot modules, compiled in the same group as the kernel (the solver's calls of the kernel's
``playable`` and trick comparison are native calls): the deal's copy (every sample, candidate and settlement
starts from one), the exact solver and its door to the kernel, the normal bot (its hand model and its
decisions), which plays every playout, and the search itself (docs/solver.md, "Speed").  Written out for the
build hook, like ``KERNEL_MODULES``."""

SERVER_MODULES = (
    "khrap.web.delta",
    "khrap.web.table",
    "khrap.session.core",
    "khrap.web.fanout",
    "khrap.web.acting",
)
"""The server's hot modules, in the same group: the patches a broadcast makes for every connection
(``delta.diff``, ``delta.patch``: dicts and lists compared and copied; compiled, the server's instructions an
action fall by 7 %: docs/compiled.md, "The server's patches"), the table with its views (``table.py``: the
parts of every connection's view, the deal's worded logs; 18 % more: "The server's views"), the session a table
plays (``session/core.py``), a broadcast's loop over the connections (``fanout.py``; docs/compiled.md, "The
session and the broadcast loop") and the act path from a message to its broadcast (``acting.py``: "The act
path").  They need nothing of the web extra.  Written out for the build hook, like
``KERNEL_MODULES``."""

COMPILED_MODULES = KERNEL_MODULES + BOT_MODULES + SERVER_MODULES


def _compiled(name: str) -> bool:
    path = getattr(importlib.import_module(name), "__file__", None) or ""
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def kernel_kind() -> str:
    """'compiled' when every compiled module (the kernel's, the bot's, the server's) imported is an extension
    module, 'plain' when none is, else 'mixed'."""
    found = {_compiled(name) for name in COMPILED_MODULES}
    return "mixed" if len(found) > 1 else "compiled" if found == {True} else "plain"


def kernel_label() -> str:
    """The kernel in a reader's words, for ``khrap simulate`` and benchmarks/speed.py."""
    return {"compiled": "compiled (mypyc)", "plain": "plain Python", "mixed": "partly compiled (mypyc)"}[kernel_kind()]


def module_files() -> list[str]:
    """The compiled modules' source files (the kernel's, the bot's, the server's), relative to the project root."""
    return [str(Path(*name.split(".")).with_suffix(".py")) for name in COMPILED_MODULES]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--files"]:
        print("\n".join(module_files()))
        return
    print(f"kernel: {kernel_label()}")
    for name in COMPILED_MODULES:
        print(f"  {name}: {importlib.import_module(name).__file__}")


if __name__ == "__main__":
    main()
