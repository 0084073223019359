"""Mutation run: does a wrong rule make a test fail?

    python benchmarks/mutation.py                      # every mutant in benchmarks/mutants/*.yaml
    python benchmarks/mutation.py --only khrap/variant/ --jobs 2
    python benchmarks/mutation.py --list               # the mutants, nothing run
    python benchmarks/mutation.py --json > report.json

Each mutant is one small, realistic change to the source, written by hand in a YAML list under
``benchmarks/mutants/`` (one file per area)::

    - id: checks-always-open-dropped          # optional; default FILE-STEM:N
      file: khrap/variant/checks.py
      original: "if not any(_always_open(c) for c in enabled):"   # exact text, once in the file
      replacement: "if False:"
      why: a stage with no always-open call (such as pass) accepted
      tests: [tests/test_checks_both_ways.py]  # optional: run these first (files or node ids)
      equivalent: "..."                        # optional: why no test can tell; the mutant is not run

A mutant is applied to a throwaway copy of the tree (the files git knows, with their uncommitted
changes), never to the working tree; pytest runs in that copy with ``-x``, first its ``tests``, then
the rest of the suite, but for tests/test_lint.py (a mutant that only offends the linter, such as
``if False:``, has not been caught by a test of the rules).  A failing (or timed-out) run kills the
mutant; a passing one lets it survive.  The report gives killed / survived / equivalent per package
and the score killed / (killed + survived); ``--json`` prints it for another program.  A mutant whose
original text is no longer in its file (or is there more than once) is reported as ``stale`` and
makes the run exit 1: rewrite it.

Why a script and not mutmut or cosmic-ray: both generate every operator mutation of every line (a few
thousand here), each worth one run of a ~70 s suite on a shared two-core machine: days.  A hand-written
list of single realistic changes (a dropped check, a flipped boundary, a wrong default) costs one run
each, reads as the rule it breaks, and survives refactoring as long as its snippet does.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "benchmarks" / "mutants"
KEYS = {"id", "file", "original", "replacement", "why", "tests", "equivalent"}


@dataclass
class Mutant:
    id: str
    file: str
    original: str
    replacement: str
    why: str
    tests: list[str] = field(default_factory=list)
    equivalent: str | None = None
    source: str = ""  # the YAML file that lists it

    @property
    def package(self) -> str:
        """The package the file belongs to: khrap/NAME (its templates and data included), else its folder."""
        parts = Path(self.file).parts
        return "/".join(parts[:2]) if parts[0] == "khrap" and len(parts) > 2 else str(Path(self.file).parent)


@dataclass
class Result:
    id: str
    file: str
    package: str
    why: str
    status: str  # killed | survived | equivalent | stale
    killer: str | None = None  # the first failing test, or "timeout"
    seconds: float = 0.0
    note: str | None = None


def load_mutants(folder: Path = MUTANTS) -> list[Mutant]:
    mutants: list[Mutant] = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        except yaml.YAMLError as err:
            raise SystemExit(f"{path}: {err}") from None
        if not isinstance(entries, list):
            raise SystemExit(f"{path}: expected a list of mutants")
        for n, entry in enumerate(entries, 1):
            unknown = set(entry) - KEYS
            missing = {"file", "original", "replacement", "why"} - set(entry)
            if unknown or missing:
                raise SystemExit(f"{path}: mutant {n}: unknown keys {sorted(unknown)}, missing {sorted(missing)}")
            entry.setdefault("id", f"{path.stem}:{n}")
            mutants.append(Mutant(**entry, source=path.name))
    ids = [m.id for m in mutants]
    doubles = sorted({i for i in ids if ids.count(i) > 1})
    if doubles:
        raise SystemExit(f"mutant ids used twice: {', '.join(doubles)}")
    return mutants


def stale_reason(m: Mutant, root: Path = ROOT) -> str | None:
    """Why the mutant cannot be applied to today's file, or None."""
    path = root / m.file
    if not path.is_file():
        return f"{m.file} does not exist"
    count = path.read_text(encoding="utf-8").count(m.original)
    if count != 1:
        return f"the original text occurs {count} times in {m.file} (it must occur once)"
    if m.original == m.replacement:
        return "the replacement is the original"
    missing = [t for t in m.tests if not (root / t.split("::")[0]).exists()]
    if missing:
        return f"its tests do not exist: {', '.join(missing)}"
    return None


def tracked_files(root: Path) -> list[str]:
    """The files git knows (tracked, or new and not ignored), as they are in the working tree."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                         capture_output=True, check=True).stdout.decode()
    return [f for f in out.split("\0") if f and (root / f).is_file()]


def make_copy(root: Path, into: Path, rev: str | None = None) -> Path:
    """A copy of the working tree (or, with ``rev``, of that commit) in ``into``."""
    into.mkdir(parents=True)
    if rev is not None:
        archive = subprocess.run(["git", "archive", rev], cwd=root, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
        return into
    for rel in tracked_files(root):
        target = into / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, target)
    return into


def run_pytest(copy: Path, args: list[str], timeout: float) -> tuple[int | None, str]:
    """(exit code or None on timeout, output) of pytest in ``copy``, importing khrap from the copy."""
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1",
               HYPOTHESIS_PROFILE=os.environ.get("HYPOTHESIS_PROFILE", "ci"))
    lint = ["--ignore=tests/test_lint.py"] if (copy / "tests" / "test_lint.py").is_file() else []
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *lint, *args]
    proc = subprocess.Popen(cmd, cwd=copy, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    RUNNING.add(proc)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out
    finally:
        RUNNING.discard(proc)


RUNNING: set[subprocess.Popen] = set()  # the pytest runs under way, stopped with the script


def stop(tmp: tempfile.TemporaryDirectory) -> None:
    """On SIGTERM: end the pytest runs under way, remove the copies, exit at once."""
    for proc in list(RUNNING):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    shutil.rmtree(tmp.name, ignore_errors=True)
    os._exit(143)


def first_failure(output: str) -> str | None:
    for line in output.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            return line.split(" - ")[0].split(" ", 1)[1]
    return None


def rest_args(first: list[str]) -> list[str]:
    """pytest arguments that leave out the tests already run first."""
    args = []
    for t in first:
        args += [f"--deselect={t}"] if "::" in t else [f"--ignore={t}"]
    return args


def test_mutant(m: Mutant, copy: Path, timeout: float, extra: list[str], named_only: bool = False) -> Result:
    result = Result(m.id, m.file, m.package, m.why, "survived")
    path = copy / m.file
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    try:
        path.write_text(text.replace(m.original, m.replacement, 1), encoding="utf-8")
        stages = ([m.tests] if m.tests else []) + [rest_args(m.tests) if m.tests else []]
        if named_only:
            stages = [m.tests]
        for stage in stages:
            code, out = run_pytest(copy, [*extra, *stage], timeout)
            if code is None:
                result.status, result.killer = "killed", "timeout"
                break
            if code == 4:  # pytest's usage error: the mutant's test names are wrong, nothing was tested
                result.status, result.note = "stale", "pytest usage error: " + out.strip().splitlines()[-1]
                break
            if code == 5 and stage is not stages[-1]:  # the named tests were all deselected: go on
                continue
            if code != 0:
                result.status, result.killer = "killed", first_failure(out) or f"pytest exit {code}"
                if code not in (1,):  # 1: tests failed; else an error (e.g. import error) kills too
                    result.note = out.strip().splitlines()[-1] if out.strip() else None
                break
    finally:
        path.write_text(text, encoding="utf-8")
    result.seconds = round(time.perf_counter() - start, 1)
    return result


def summary(results: list[Result]) -> dict:
    by_package: dict[str, dict] = defaultdict(lambda: {"killed": 0, "survived": 0, "equivalent": 0, "stale": 0})
    for r in results:
        by_package[r.package][r.status] += 1
    for counts in by_package.values():
        real = counts["killed"] + counts["survived"]
        counts["score"] = round(counts["killed"] / real, 3) if real else None
    return dict(sorted(by_package.items()))


def report(results: list[Result], seconds: float) -> str:
    lines = [f"{'package':28} {'killed':>6} {'survived':>8} {'equivalent':>10} {'stale':>5}  score"]
    for package, c in summary(results).items():
        score = "-" if c["score"] is None else f"{c['score']:.0%}"
        lines.append(f"{package:28} {c['killed']:>6} {c['survived']:>8} {c['equivalent']:>10} {c['stale']:>5}  {score}")
    for status in ("survived", "stale", "equivalent"):
        chosen = [r for r in results if r.status == status]
        if chosen:
            lines.append(f"\n{status}:")
            lines += [f"  {r.id} ({r.file}): {r.why}" + (f" [{r.note}]" if r.note else "") for r in chosen]
    lines.append(f"\n{len(results)} mutants in {seconds:.0f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="The mutants and their format: benchmarks/mutants/*.yaml "
                                            "(see this script's docstring and docs/testing.md).")
    parser.add_argument("--only", action="append", default=[], metavar="PATH_PREFIX",
                        help="only mutants of files under this prefix (repeatable), e.g. khrap/rulebook/")
    parser.add_argument("--id", action="append", default=[], metavar="ID", help="only this mutant (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the chosen mutants and run nothing")
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once, each in its own copy (1)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per pytest run; longer kills (600)")
    parser.add_argument("--equivalent-too", action="store_true",
                        help="run the mutants marked equivalent as well (to check the claim)")
    parser.add_argument("--rev", metavar="COMMIT",
                        help="mutate that commit's tree (e.g. main, to score the suite before a change) instead of "
                             "the working tree; a mutant's `tests` missing there are left out (the whole suite runs)")
    parser.add_argument("--named-only", action="store_true",
                        help="run only each mutant's own `tests`, not the rest of the suite: a quick, partial score "
                             "(a survivor may still be killed by the rest); mutants without `tests` are skipped")
    parser.add_argument("--pytest-arg", action="append", default=[], metavar="ARG",
                        help="an extra pytest argument for every run (repeatable), e.g. --pytest-arg=-p=no:warnings")
    args = parser.parse_args(argv)

    mutants = [m for m in load_mutants()
               if (not args.only or any(m.file.startswith(p) for p in args.only))
               and (not args.id or m.id in args.id)]
    if args.list:
        if args.json:
            print(json.dumps([asdict(m) for m in mutants], indent=2, ensure_ascii=False))
        else:
            for m in mutants:
                mark = " (equivalent)" if m.equivalent else ""
                print(f"{m.id:40} {m.file}: {m.why}{mark}")
            print(f"{len(mutants)} mutants", file=sys.stderr)
        return 0

    results: dict[str, Result] = {}
    runnable = []
    tmp = tempfile.TemporaryDirectory(prefix="khrap-mutation-")
    signal.signal(signal.SIGTERM, lambda *_: stop(tmp))  # a stopped run leaves no process and no copy
    pristine = make_copy(ROOT, Path(tmp.name) / "pristine", args.rev) if args.rev else ROOT
    for m in mutants:
        if args.rev:
            m.tests = [t for t in m.tests if (pristine / t.split("::")[0]).exists()]
        stale = stale_reason(m, pristine)
        if stale:
            results[m.id] = Result(m.id, m.file, m.package, m.why, "stale", note=stale)
        elif m.equivalent and not args.equivalent_too:
            results[m.id] = Result(m.id, m.file, m.package, m.why, "equivalent", note=m.equivalent)
        elif args.named_only and not m.tests:
            results[m.id] = Result(m.id, m.file, m.package, m.why, "stale", note="no `tests` to run (--named-only)")
        else:
            runnable.append(m)

    start = time.perf_counter()
    jobs = max(1, min(args.jobs, len(runnable) or 1))
    with tmp:
        copies: queue.Queue[Path] = queue.Queue()
        for n in range(jobs):
            copies.put(make_copy(ROOT, Path(tmp.name) / f"copy{n}", args.rev))
        lock = threading.Lock()
        done = [0]

        def work(m: Mutant) -> Result:
            copy = copies.get()
            try:
                r = test_mutant(m, copy, args.timeout, args.pytest_arg, args.named_only)
            finally:
                copies.put(copy)
            with lock:
                done[0] += 1
                print(f"[{done[0]}/{len(runnable)}] {r.status:8} {m.id} ({r.seconds:.0f} s)"
                      + (f" by {r.killer}" if r.killer else ""), file=sys.stderr, flush=True)
            return r

        with ThreadPoolExecutor(jobs) as pool:
            for r in pool.map(work, runnable):
                results[r.id] = r

    ordered = [results[m.id] for m in mutants]
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"seconds": round(seconds, 1), "packages": summary(ordered),
                          "mutants": [asdict(r) for r in ordered]}, indent=2, ensure_ascii=False))
    else:
        print(report(ordered, seconds))
    return 1 if any(r.status == "stale" for r in ordered) else 0


if __name__ == "__main__":
    sys.exit(main())
