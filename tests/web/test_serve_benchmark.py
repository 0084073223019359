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
