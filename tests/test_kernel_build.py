"""The compiled kernel's build (hatch_build.py) and which kernel runs (khrap/kernel_build.py): docs/compiled.md.

The slow tests build wheels with pip (a build environment with hatchling, mypy and setuptools);
they run with KHRAP_BUILD_TESTS=1, as the CI's compiled stage does.  KHRAP_EXPECT_KERNEL (plain or
compiled) makes the suite fail when another kernel is imported than the one a CI stage installed.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import pytest

from khrap.kernel_build import COMPILED_MODULES, KERNEL_MODULES, kernel_kind, kernel_label, module_files

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
slow_build = pytest.mark.skipif(os.environ.get("KHRAP_BUILD_TESTS") != "1",
                                reason="builds wheels; set KHRAP_BUILD_TESTS=1 (the CI's compiled stage does)")


def load_hook(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """hatch_build.py, with a stand-in for hatchling's base class (hatchling lives in build environments)."""
    names = ["hatchling", "hatchling.builders", "hatchling.builders.hooks", "hatchling.builders.hooks.plugin",
             "hatchling.builders.hooks.plugin.interface"]
    for name in names:
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    sys.modules[names[-1]].BuildHookInterface = object  # type: ignore[attr-defined]
    spec = importlib.util.spec_from_file_location("khrap_hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_kernel_that_runs_is_the_one_expected() -> None:
    expected = os.environ.get("KHRAP_EXPECT_KERNEL")
    assert kernel_kind() == (expected or kernel_kind())
    assert kernel_kind() in ("plain", "compiled")  # never some modules compiled and others not
    assert kernel_label() in ("plain Python", "compiled (mypyc)")


def test_the_hook_compiles_the_modules_listed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    hook = load_hook(monkeypatch)
    assert hook.kernel_modules(ROOT) == list(COMPILED_MODULES)
    assert all((ROOT / f).is_file() for f in module_files())


@pytest.mark.parametrize(("value", "mode"), [("", ""), ("0", ""), ("1", "on"), ("yes", "on"), ("strict", "strict")])
def test_compiling_is_opt_in(monkeypatch: pytest.MonkeyPatch, value: str, mode: str) -> None:
    hook = load_hook(monkeypatch)
    monkeypatch.setenv("KHRAP_COMPILE", value)
    assert hook.compile_mode() == mode
    assert bool(hook.KernelBuildHook.dependencies(None)) == bool(mode)  # mypy only when compiling


def test_an_editable_install_is_never_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    hook = load_hook(monkeypatch)
    monkeypatch.setenv("KHRAP_COMPILE", "strict")
    builder = hook.KernelBuildHook()
    builder.target_name, builder.root = "wheel", str(ROOT)
    build_data: dict = {"force_include": {}, "pure_python": True, "infer_tag": False}
    builder.initialize("editable", build_data)
    assert build_data == {"force_include": {}, "pure_python": True, "infer_tag": False}


def test_no_compiled_file_lies_in_the_working_tree() -> None:
    """An extension module beside a kernel source would be imported instead of the edited ``.py``."""
    package = ROOT / "khrap"
    if os.environ.get("KHRAP_EXPECT_KERNEL") == "compiled":  # the CI's compiled stage: a copy of the installed wheel
        pytest.skip("khrap/ here is the installed compiled package, not a working tree")
    assert [str(p) for p in package.rglob("*") if p.name.endswith(SUFFIXES)] == []
    assert [str(p) for p in ROOT.glob("*__mypyc*")] == []


def build_wheel(tmp_path: Path, **env: str) -> tuple[Path, str]:
    out = tmp_path / "wheel"
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", str(ROOT), "--no-deps", "-w", str(out)],
                          capture_output=True, text=True, env={**os.environ, **env}, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = out.glob("khrap-*.whl")
    return wheel, done.stdout + done.stderr


@slow_build
def test_a_failed_compile_still_builds_the_plain_package(tmp_path: Path) -> None:
    wheel, said = build_wheel(tmp_path, KHRAP_COMPILE="1", CC="false")  # no working C compiler
    assert "compiling the kernel failed" in said
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert "khrap/engine/compiled/machine.py" in names
    assert [n for n in names if n.endswith(SUFFIXES)] == []


@slow_build
def test_a_plain_build_compiles_nothing(tmp_path: Path) -> None:
    wheel, _ = build_wheel(tmp_path, KHRAP_COMPILE="0")
    assert wheel.name.endswith("-py3-none-any.whl")


def test_the_cpu_benchmark_says_which_kernel_ran() -> None:
    done = subprocess.run([sys.executable, "kernel_cpu.py", "--seconds", "0.05", "--rounds", "1", "--no-bots",
                           "--variant", "khrap", "--json"], capture_output=True, text=True, timeout=300,
                          cwd=ROOT / "benchmarks")
    assert done.returncode == 0, done.stderr
    import json

    out = json.loads(done.stdout)
    assert out["kernel"] == kernel_label()
    assert out["variants"][0]["variant"] == "khrap" and 0 < out["variants"][0]["to_bare"] < 5


def test_every_hot_module_of_the_kernel_is_compiled() -> None:
    from khrap.engine import KERNEL_MODULES as HOT

    assert set(HOT) <= set(KERNEL_MODULES)


def test_the_compiled_modules_type_check(tmp_path: Path) -> None:
    """mypyc compiles only what mypy accepts, and CI's compiled stage runs mypy on the compiled modules first;
    run here too (where mypy is installed), a change that breaks the compiled build fails before it lands:
    the modules of other developers (the server's ``delta``) included."""
    pytest.importorskip("mypy", reason="mypy is not installed (CI's compiled stage installs it and runs the same)")
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), *module_files()],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_the_servers_patches_and_views_are_compiled_with_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/compiled.md, "The server's patches", "The server's views" and "The session and the broadcast loop": the
    # compiled wheel compiles khrap.web.delta, khrap.web.table, the session and the broadcast's loop with the kernel
    # (an empty SERVER_MODULES kept every other test of this file passing; without one of them the test fails here,
    # and mypy no longer checks its file)
    from khrap.kernel_build import SERVER_MODULES

    assert SERVER_MODULES == ("khrap.web.delta", "khrap.web.table", "khrap.session.core", "khrap.web.fanout",
                              "khrap.web.acting")
    for name in SERVER_MODULES:
        assert name in load_hook(monkeypatch).kernel_modules(ROOT)
        assert name.replace(".", "/") + ".py" in [Path(f).as_posix() for f in module_files()]


@pytest.mark.parametrize(("which", "kind", "label"), [
    ("all", "compiled", "compiled (mypyc)"),
    ("none", "plain", "plain Python"),
    ("first", "mixed", "partly compiled (mypyc)"),
])
def test_the_kernel_is_compiled_only_when_every_module_is(monkeypatch: pytest.MonkeyPatch, which: str, kind: str,
                                                          label: str) -> None:
    # One module compiled and another not (a stale extension beside a plain tree) is "mixed", never "compiled".
    import khrap.kernel_build as kernel_build

    first = COMPILED_MODULES[0]
    monkeypatch.setattr(kernel_build, "_compiled", lambda name: which == "all" or (which == "first" and name == first))
    assert (kernel_build.kernel_kind(), kernel_build.kernel_label()) == (kind, label)
