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
