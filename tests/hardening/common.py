"""What every hardening test checks of a command's answer to a hostile input."""

from __future__ import annotations

import re
import resource
import time
from pathlib import Path

from typer.testing import CliRunner

from khrap.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                    "\u2028\u2029\ud800-\udfff]")
"""Characters that must never reach a terminal raw: C0/C1 controls (but newline and tab), bidi controls, surrogates."""

SLOWEST: dict[str, tuple[float, str]] = {}
"""Per kind of case, the slowest case seen (seconds, case): printed at the end of a run (conftest.py)."""
COUNTS: dict[str, int] = {}
"""Per kind of case, how many commands were run."""


def invoke(args: list[str], kind: str = "", **kw):
    """Run ``khrap ARGS`` in-process; record the time per kind of case."""
    started = time.perf_counter()
    result = runner.invoke(app, [str(a) for a in args], **kw)
    took = time.perf_counter() - started
    if kind:
        COUNTS[kind] = COUNTS.get(kind, 0) + 1
    if kind and took > SLOWEST.get(kind, (0.0, ""))[0]:
        SLOWEST[kind] = (took, " ".join(str(a) for a in args)[:120])
    return result


def crashed(result) -> str | None:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"{type(result.exception).__name__}: {str(result.exception)[:300]}"
    return None


def assert_refused(result, path: str | Path | None = None, *, contains: str = "") -> str:
    """Exit 2 with one line on stderr per mistake (``FILE[:LINE:COL]: message``), no traceback, nothing raw.

    A variant file with several mistakes gets one located line for each (issue 17); every line then
    names the file.
    """
    assert crashed(result) is None, crashed(result)
    assert result.exit_code == 2, (result.exit_code, result.output)
    message = result.stderr.rstrip("\n")
    assert message, "nothing on stderr"
    assert "Traceback" not in message and "errors.pydantic.dev" not in message, message
    assert not UNSAFE.search(message), f"raw control character in {message!r}"
    for line in message.split("\n"):
        assert line.strip(), f"an empty line in {message!r}"
        if path is not None:
            assert line.startswith(str(path)), f"{line!r} does not start with {path}"
    assert contains in message, f"{contains!r} not in {message!r}"
    return message


def assert_clean(result) -> None:
    """A clean run (exit 0), or one refusal line; never a traceback; nothing unsafe on either stream."""
    assert crashed(result) is None, crashed(result)
    if result.exit_code == 2:
        assert_refused(result)
    else:
        assert result.exit_code == 0, (result.exit_code, result.output)
    assert not UNSAFE.search(result.stdout), f"raw control character in stdout: {result.stdout[:300]!r}"
    assert not UNSAFE.search(result.stderr), f"raw control character in stderr: {result.stderr[:300]!r}"


def peak_rss_mib() -> float:
    """The test process's peak resident memory so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
