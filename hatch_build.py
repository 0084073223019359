"""Build hook: with KHRAP_COMPILE=1, the kernel's hot modules compiled by mypyc into the wheel (docs/compiled.md).

    KHRAP_COMPILE=1 pip wheel . -w dist        # a compiled wheel for this Python and platform
    KHRAP_COMPILE=strict pip wheel . -w dist   # the same, but a failed compile fails the build (CI)

Without the variable (or with 0) nothing is compiled: the wheel is the plain pure-Python package.
An editable install is never compiled, whatever the variable says, so a working tree only ever
runs its own ``.py`` files.  The modules are compiled from a copy of ``khrap/`` in a temporary
directory; the extension files go into the wheel beside the sources (Python imports an extension
module before a ``.py`` of the same name) and are never written into the working tree.  When
compiling fails (no C compiler, no Python headers, a module mypyc refuses), the hook says so on
stderr and the build goes on as a plain wheel, unless KHRAP_COMPILE=strict.

The modules compiled are ``KERNEL_MODULES``, ``BOT_MODULES`` and ``SERVER_MODULES`` of ``khrap/kernel_build.py``
(the kernel's, the strong bot's solver, the web server's), read here without importing the package (its
dependencies are not in the build environment).
"""

from __future__ import annotations

import ast
import importlib.machinery
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).parent
MYPYC_REQUIREMENTS = ["mypy>=1.11,<3", "setuptools>=61"]
MYPY_CONFIG = """\
[mypy]
python_version = {major}.{minor}
follow_imports = silent
ignore_missing_imports = True
"""


def compile_mode() -> str:
    """'' (plain build), 'on' (compile, fall back to plain) or 'strict' (compile or fail), from KHRAP_COMPILE."""
    value = os.environ.get("KHRAP_COMPILE", "").strip().lower()
    if value in ("", "0", "no", "false", "off"):
        return ""
    return "strict" if value == "strict" else "on"


_LISTS = ("KERNEL_MODULES", "BOT_MODULES", "SERVER_MODULES")


def kernel_modules(root: Path = ROOT) -> list[str]:
    """``KERNEL_MODULES``, ``BOT_MODULES`` and ``SERVER_MODULES`` of khrap/kernel_build.py (dotted names), read from
    its source."""
    tree = ast.parse((root / "khrap" / "kernel_build.py").read_text(encoding="utf-8"))
    found: dict[str, list[str]] = {}
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id in _LISTS and node.value is not None:
            found[target.id] = list(ast.literal_eval(node.value))
    if "KERNEL_MODULES" not in found:
        raise RuntimeError("khrap/kernel_build.py defines no KERNEL_MODULES")
    return found["KERNEL_MODULES"] + found.get("BOT_MODULES", []) + found.get("SERVER_MODULES", [])


def compile_kernel(root: Path, work: Path, modules: list[str]) -> dict[str, str]:
    """Compile ``modules`` from a copy of ``root/khrap`` in ``work``; {extension file: its path in the wheel}."""
    shutil.copytree(root / "khrap", work / "khrap", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    config = work / "mypy.ini"
    config.write_text(MYPY_CONFIG.format(major=sys.version_info[0], minor=sys.version_info[1]), encoding="utf-8")
    files = [str(Path(*name.split(".")).with_suffix(".py")) for name in modules]
    command = [sys.executable, "-m", "mypyc", "--config-file", str(config), *files]
    done = subprocess.run(command, cwd=work, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-25:])
        raise RuntimeError(f"mypyc exited with {done.returncode}:\n{tail}")
    found: dict[str, str] = {}
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in work.glob(f"*{suffix}"):  # mypyc's shared runtime of the group, at the top level
            found[str(path)] = path.name
        for path in (work / "khrap").rglob(f"*{suffix}"):
            found[str(path)] = path.relative_to(work).as_posix()
    missing = [m for m in modules if not any(v.startswith(m.replace(".", "/") + ".") for v in found.values())]
    if missing:
        raise RuntimeError(f"mypyc built no extension for {', '.join(missing)}")
    return found


class KernelBuildHook(BuildHookInterface):
    """Hatch's custom build hook (``[tool.hatch.build.targets.wheel.hooks.custom]`` in pyproject.toml)."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return list(MYPYC_REQUIREMENTS) if compile_mode() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._work: str | None = None
        mode = compile_mode()
        if not mode or self.target_name != "wheel":
            return
        if version == "editable":
            sys.stderr.write("khrap: an editable install is never compiled (KHRAP_COMPILE ignored): "
                             "the working tree runs its own .py files\n")
            return
        self._work = tempfile.mkdtemp(prefix="khrap-mypyc-")
        modules = kernel_modules(Path(self.root))
        start = time.perf_counter()
        try:
            found = compile_kernel(Path(self.root), Path(self._work), modules)
        except Exception as error:  # noqa: BLE001 - any failure: the plain package, unless strict
            if mode == "strict":
                raise
            sys.stderr.write(f"khrap: compiling the kernel failed, building the plain package instead\n{error}\n")
            return
        build_data["force_include"].update(found)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        sys.stderr.write(f"khrap: compiled {len(modules)} kernel, bot and server modules with mypyc in "
                         f"{time.perf_counter() - start:.0f} s\n")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if getattr(self, "_work", None):
            shutil.rmtree(self._work, ignore_errors=True)
