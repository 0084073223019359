"""The solver's and the search bot's benchmark scripts run and report what they say (tiny sizes)."""

import json
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _run(script: str, *args: str) -> list[dict]:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args, "--json"], capture_output=True,
                          text=True, timeout=300, cwd=BENCHMARKS)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_solver_benchmark_reports_deals_per_second() -> None:
    [out] = _run("solver.py", "--variants", "khrap", "--players", "3", "--deals", "3")
    [row] = out["rows"]
    assert out["bare_deals_per_second"] > 0
    assert row["variant"] == "khrap" and row["players"] == 3 and row["deals"] >= 1
    assert row["deals_per_second"] > 0 and row["nodes_per_second"] > 0 and row["max_ms"] >= row["median_ms"]


def test_decision_times_are_reported_per_kind() -> None:
    rows = _run("decisions.py", "--variants", "frap", "--deals", "1", "--players", "3")
    assert [r["kind"] for r in rows] == ["call", "play", "all"]
    every = rows[-1]
    assert every["decisions"] == rows[0]["decisions"] + rows[1]["decisions"]
    if every["decisions"]:
        assert every["max_ms"] >= every["p99_ms"] >= every["median_ms"] > 0


def test_the_strong_bots_speed_is_reported_with_a_digest_of_its_choices() -> None:
    args = ("--variant", "snore", "--players", "3", "--deals", "1")
    first, again = (_run("strong_speed.py", *args)[0] for _ in range(2))
    assert first["deals"] == 1 and first["actions"] > 0 and first["deals_per_cpu_second"] > 0
    assert first["digest"] == again["digest"]  # untimed: the same choices whatever the load


def test_the_strong_bots_speed_by_kind_counts_its_decisions_and_overrides() -> None:
    # khrap's deal of seed 6 has a call the search overrides (its second action, two candidates, the prior's own
    # margin 0.247 chip: under khrap's ``call_gate`` of 0.25, so searched; 32 samples; seen with ``strong_speed.py
    # --decisions``). Seed 3's deal has none since khrap's gates changed (3c4d5ad, 82d8448), seed 1's none since
    # its race starts at 4 samples (``race_from``).
    args = ("--variant", "khrap", "--deals", "1", "--first-seed", "6")
    [plain] = _run("strong_speed.py", *args)
    [found] = _run("strong_speed.py", *args, "--by-kind")
    assert found["digest"] == plain["digest"]  # timing each decision changes no choice
    kinds = found["kinds"]
    assert sum(k["decisions"] for k in kinds.values()) == found["actions"]
    assert all(k["decisions"] >= k["searched"] >= k["overridden"] for k in kinds.values())
    assert kinds["calls"]["overridden"] >= 1


def test_the_strong_bots_samples_are_recorded_and_replay_its_choices(tmp_path: Path) -> None:
    # ``strong_speed.py --samples F``: each searched decision's samples one by one.  Recording changes no choice, and
    # the override rule (``SearchBot._pick``) replayed on a decision's recorded samples, with the rivals still tried
    # after its last one, overrides the prior exactly where the bot did (seed 6's deal overrides a call: above).
    from khrap.bots import SearchBot
    from khrap.engine import Action, GameState
    from khrap.variant.catalog import builtin

    args = ("--variant", "khrap", "--deals", "1", "--first-seed", "6")
    [plain] = _run("strong_speed.py", *args)
    file = tmp_path / "samples.jsonl"
    [found] = _run("strong_speed.py", *args, "--by-kind", "--samples", str(file))
    assert found["digest"] == plain["digest"]
    lines = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == sum(k["searched"] for k in found["kinds"].values())
    assert sum(line["overrode"] for line in lines) == sum(k["overridden"] for k in found["kinds"].values()) >= 1
    bot = SearchBot(GameState(builtin("khrap"), 4).rules, timed=False)
    for line in lines:
        rows = [row for row, _, _, _ in line["samples"]]
        weights = [weight for _, weight, _, _ in line["samples"]]
        bot._alive = alive = line["samples"][-1][2]
        assert len({len(row) for row in rows}) == 1 and len(alive) == len(rows[0])
        lefts = [left for *_, left in line["samples"]]
        assert all(a > b for a, b in zip(lefts, lefts[1:], strict=False))  # every sample costs work
        # a rival dropped after a sample is no longer tried: on the next samples its value is the prior's
        for (_, _, before, _), (row, _, _, _) in zip(line["samples"], line["samples"][1:], strict=False):
            assert all(row[i] == row[line["prior"]] for i, live in enumerate(before) if not live)
        candidates = [Action(f"c{i}") for i in range(len(alive))]
        prior = candidates[line["prior"]]
        assert (bot._pick(candidates, prior, rows, weights, alive) != prior) == line["overrode"]
    assert any(not all(line["samples"][-1][2]) for line in lines)  # the race dropped some rival
