"""benchmarks/serve.py runs, briefly, and reports what it promises (the figures are in the closing note)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "serve.py"


def test_the_serve_benchmark_reports_rate_and_latency() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--tables", "2", "--seconds", "1.5", "--max-actions", "200",
                          "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    (row,) = json.loads(out.stdout)
    assert row["tables"] == 2 and row["connections"] == 8
    assert 0 < row["actions"] <= 200 and row["actions_per_s"] > 0
    assert 0 < row["p50_ms"] <= row["p99_ms"]
    # every seat decoded an update for each action (four seats; the last action of each table may be unseen
    # when the clock stops), and no patch found its seat's view at another number
    assert row["messages"] >= 4 * (row["actions"] - row["tables"]) and row["missed"] == 0


def test_the_probe_times_the_loops_turns_and_the_servers_pieces(tmp_path: Path) -> None:
    """``--probe``: each server's event-loop turns and the pieces of its work in them, and the client's turns."""
    probe = tmp_path / "probe.json"
    out = subprocess.run([sys.executable, str(SCRIPT), "--tables", "2", "--seconds", "1.5", "--max-actions", "200",
                          "--json", "--probe", str(probe)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    (row,) = json.loads(out.stdout)
    assert "probe" not in row and row["p50_first_ms"] <= row["p50_ms"]  # (the first seat's view, then the last)
    (probed,) = json.loads(probe.read_text())
    (server,), client = probed["probe"]["servers"], probed["probe"]["client"]
    for report in (server, client):
        assert report["turns"] > 0 and sum(report["histogram_ms"].values()) == report["turns"]
    counts = server["counts"]
    # every action applied (in a deal or settling it) is stored once, and was read from a message
    applied = counts.get("apply", 0) + counts.get("apply (deal over: settlement)", 0)
    assert applied > 0 and counts["sqlite: action"] == applied
    assert counts["receive (decode, dispatch)"] >= applied and counts["broadcast"] >= 1
    assert all(cpu <= wall + 1 for wall, cpu in server["longest_ms"].values())


def test_the_probe_reports_between_pieces() -> None:
    """A report or reset asked for by a signal while a piece runs (an action applied, not yet written) waits
    for the outermost piece to end, so that the counts it reports agree (the CI once read 200 actions applied
    and 199 written); asked for between pieces, it is done at once."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import loop_probe
    finally:
        sys.path.remove(str(SCRIPT.parent))
    probe = loop_probe.Probe()
    done: list[dict] = []
    probe.enter("receive")
    probe.enter("apply")
    probe.leave()
    probe.between_pieces(lambda: done.append(dict(probe.counts)))  # (the signal: inside "receive")
    assert done == []
    probe.enter("sqlite: action")
    probe.leave()
    assert done == []
    probe.leave()  # (the outermost piece ends: the report sees the action applied and written)
    assert done == [{"apply": 1, "sqlite: action": 1, "receive": 1}]
    probe.between_pieces(probe.reset)
    assert probe.counts == {}


def test_the_evening_benchmark_reports_each_round_of_deals() -> None:
    """benchmarks/serve_evening.py: a row a round of deals, its time an action and the memory after it."""
    script = SCRIPT.with_name("serve_evening.py")
    out = subprocess.run([sys.executable, str(script), "--tables", "2", "--deals", "3"], capture_output=True,
                         text=True, timeout=120, cwd=SCRIPT.parent)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["deal"] for r in rows] == [1, 2, 3]
    assert all(r["server_us"] > 0 and r["rss_mb"] > 10 for r in rows)
