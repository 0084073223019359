"""The benchmark scripts run and report what they say (tiny sizes: the figures themselves are not checked)."""

import json
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run_json(script: str, *args: str) -> object:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args, "--json"], capture_output=True,
                          text=True, timeout=300, cwd=BENCHMARKS)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_random_playout_reports_both_engines() -> None:
    compiled = run_json("random_playout.py", "--seconds", "0.05", "--variant", "khrap")
    reference = run_json("random_playout.py", "--seconds", "0.05", "--variant", "khrap", "--reference")
    assert [r["engine"] for r in compiled + reference] == ["compiled", "reference"]
    assert all(r["deals_per_second"] > 0 and r["players"] == 4 for r in compiled + reference)


def test_speed_report_has_every_column() -> None:
    out = run_json("speed.py", "--seconds", "0.05", "--rounds", "1", "--variant", "snore", "--no-bots",
                   "--sim-deals", "200")
    assert out["bare"] > 0 and out["bare_khrap"] > 0 and out["interface_khrap_to_bare"] > 0
    assert [row["variant"] for row in out["variants"]] == ["snore", "frap-simple"]
    for row in out["variants"]:
        assert row["compiled"] > 0 and row["reference"] > 0 and row["compiled_to_bare"] > 0
        assert row["stepped"] > 0 and row["stepped_to_bare"] > 0
        assert row["observed"] > 0 and row["observed_to_bare"] > 0
    sim = out["simulate"]
    assert sim["same_numbers"] is True
    assert (sim["deals"], sim["rounds"]) == (200, 1)
    assert sim["one_worker"] > 0 and sim["machine_alone"] > 0 and sim["one_to_machine"] > 0 and sim["ceiling"] > 0


def test_bare_khrap_conserves_chips() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bare_khrap
    finally:
        sys.path.remove(str(BENCHMARKS))
    assert bare_khrap.deals_per_second(0.05) > 0  # it asserts that stacks and pot still add up to 400


def test_khrap_by_hand_behind_the_interface_plays_the_machines_deals() -> None:
    """The yardstick is only fair if it does the machine's work: the same deals, calls, tricks and chips."""
    import random

    from khrap.engine import Rules
    from khrap.engine.compiled import Machine, Program
    from khrap.engine.randomness import chooser
    from khrap.variant.catalog import builtin

    sys.path.insert(0, str(BENCHMARKS))
    try:
        import interface_khrap
    finally:
        sys.path.remove(str(BENCHMARKS))
    program = Program(Rules(builtin("khrap"), 4))
    deals = 0
    for seed in range(8):
        table, machine = interface_khrap.Table(seed), Machine(program, seed=seed)
        ours, theirs = chooser(random.Random(seed)), chooser(random.Random(seed))
        for _ in range(150):
            if machine.session_over:
                break
            said, winners = table.play_deal(ours)
            machine.play_deal(theirs)
            assert (said, winners, table.stacks, table.pot) == (machine.said, machine.trick_winners, machine.stacks,
                                                                machine.pot)
            assert (table.statuses, table.call_of) == (machine.statuses, machine.call_of)
            deals += 1
    assert deals > 1000
    assert interface_khrap.deals_per_second(0.05) > 0


def test_mutation_list_reads_every_mutant_file() -> None:
    """benchmarks/mutation.py --list --json: every mutant of benchmarks/mutants/*.yaml, each with its why."""
    mutants = run_json("mutation.py", "--list")
    assert len(mutants) >= 80 and len({m["id"] for m in mutants}) == len(mutants)
    assert all(m["file"] and m["original"] and m["why"] for m in mutants)
    files = {m["file"] for m in mutants}
    assert {"khrap/variant/checks.py", "khrap/rulebook/facts.py", "khrap/session/core.py"} <= files


def test_deal_count_plays_each_kind_of_deal() -> None:
    """benchmarks/deal_count.py (what cachegrind counts instructions of) plays each of its four loops."""
    for what in ("machine", "stepped", "observed", "bare"):
        done = subprocess.run([sys.executable, str(BENCHMARKS / "deal_count.py"), what, "3"], capture_output=True,
                              text=True, timeout=300, cwd=BENCHMARKS)
        assert done.returncode == 0 and not done.stdout, (what, done.stderr)


def test_offer_gains_plays_each_offer_out_both_ways() -> None:
    """benchmarks/offer_gains.py (the doubling's measured rate, docs/extending.md): it finds the rule's offers
    and compares each answer; a variant that offers none is told so."""
    rule = str(BENCHMARKS.parent / "docs" / "house-rules" / "khrap-double.yaml")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "offer_gains.py"), rule, "--deals", "2"],
                          capture_output=True, text=True, timeout=300, cwd=BENCHMARKS)
    assert done.returncode == 0, done.stderr
    head, *rows = done.stdout.splitlines()
    assert "seeds 0-1, normal bots:" in head and " offers, an answer other than the first taken at " in head
    assert rows and all(row.startswith("  double against the first answer, where the bot ") for row in rows)
    done = subprocess.run([sys.executable, str(BENCHMARKS / "offer_gains.py"), "khrap"], capture_output=True,
                          text=True, timeout=300, cwd=BENCHMARKS)
    assert done.returncode == 1 and "offers no decision in a stage of its own" in done.stderr


def test_the_two_stepped_readers_play_the_same_deals() -> None:
    """speed.py's ``stepped`` (the typed seat view read at each decision) and ``observed`` (the observation dict)
    differ only in what the seat to act reads: from one seed they play the same deals, action for action, to the
    same stacks, pot and records."""
    import random

    from khrap.engine import GameState, Rules
    from khrap.engine.randomness import chooser
    from khrap.sim.records import deal_record
    from khrap.variant.catalog import builtin

    sys.path.insert(0, str(BENCHMARKS))
    try:
        import random_playout
    finally:
        sys.path.remove(str(BENCHMARKS))
    for name in ("khrap", "frap"):
        rules = Rules(builtin(name), 4)
        played = []
        for read in ("view", "dict"):
            state, choose = GameState(rules, 4, seed=3), chooser(random.Random(3))
            records = []
            for _ in range(12):
                if state.session_over:
                    break
                stacks, pot = list(state.stacks), state.pot
                random_playout.READERS[read](state, choose)
                records.append(deal_record(state, stacks, pot, 0))
            played.append((records, state.stacks, state.pot, state.decks_dealt))
        assert len(played[0][0]) == 12 and played[0] == played[1], name
