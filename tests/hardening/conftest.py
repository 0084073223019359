"""Prints, after a run of the hardening tests, the commands run per kind of case, the slowest of each
and the peak memory of the test process (the figures of the closing note; `-p no:terminal` hides them)."""

from __future__ import annotations

from tests.hardening.common import COUNTS, SLOWEST, peak_rss_mib


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ARG001
    if not COUNTS:
        return
    write = terminalreporter.write_line
    write("hardening cases: commands run per kind, the slowest of each")
    for kind in sorted(COUNTS):
        took, case = SLOWEST.get(kind, (0.0, ""))
        write(f"  {kind:<10} {COUNTS[kind]:>5} commands; slowest {took:6.2f} s: {case}")
    write(f"  peak memory of the test process: {peak_rss_mib():.0f} MiB")
