"""benchmarks/strength.py's duplicate protocol and benchmarks/calibrate.py, on tiny runs."""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import calibrate  # noqa: E402
import strength  # noqa: E402

from khrap.bots import make_bot  # noqa: E402
from khrap.bots.calibration import constants_for  # noqa: E402
from khrap.engine import Rules  # noqa: E402
from khrap.variant.catalog import load_variant  # noqa: E402


def test_arrangements_balance_the_seats() -> None:
    four = strength.arrangements(4)
    assert len(four) == 6 and len(set(four)) == 6  # every way of giving A two of four seats
    assert all(sum(a) == 2 for a in four)
    assert [sum(a[s] for a in four) for s in range(4)] == [3, 3, 3, 3]  # each seat is A's half the time
    three = strength.arrangements(3)
    assert len(three) == 6 and [sum(a[s] for a in three) for s in range(3)] == [3, 3, 3]
    assert strength.arrangements(4, "alternate") == [(True, False, True, False), (False, True, False, True)]


def test_every_arrangement_plays_the_same_decks_with_the_pot_carried() -> None:
    rules = Rules(load_variant("frap"), 4)
    a, b = make_bot("heuristic", rules), make_bot("rule", rules)
    for seed in range(7, 40):  # the first seed whose sessions nobody leaves broke before their end
        rows: list[dict] = []
        value = strength.seed_value(rules, a, b, seed, session=3, record=rows.append)
        if len(rows) == 18:
            break
    assert isinstance(value, float)
    # --pool's arithmetic on the records gives the played figure back
    assert strength.values_from_records(rows, 4, 3) == {seed: pytest.approx(value)}
    by_deal = defaultdict(list)
    for row in rows:
        by_deal[row["deal"]].append(row)
    assert sorted(by_deal) == [0, 1, 2]
    for deal, seen in by_deal.items():
        assert len(seen) == 6, deal  # once per arrangement
        assert len({tuple(r["deck"]) for r in seen}) == 1, deal  # the same first deck in each
        assert len({r["arrangement"] for r in seen}) == 6
    first = [r for r in rows if r["deal"] == 0]
    assert all(r["pot"] == 0 for r in first)
    # frap's fines and remainders stay in the pot: some later deal starts from a pot carried over
    assert any(r["pot"] > 0 for r in rows if r["deal"] > 0)
    # chips are conserved: what the seats lost over a deal went into the pot, and back
    for row in rows:
        nxt = [r for r in rows if r["arrangement"] == row["arrangement"] and r["deal"] == row["deal"] + 1]
        if nxt:
            assert nxt[0]["pot"] == row["pot"] - sum(row["delta"])


def test_strength_main_reports_the_old_and_new_protocols(capsys, tmp_path) -> None:
    out = tmp_path / "out.jsonl"
    strength.main(["random", "rule", "--variant", "snore", "--deals", "12", "--session", "2", "--out", str(out)])
    strength.main(["random", "rule", "--variant", "snore", "--deals", "4", "--session", "1",
                   "--arrangements", "alternate"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert '"deals": 12' in lines[0] and '"session": 2' in lines[0]
    assert '"deals": 4' in lines[1] and '"arrangements": "alternate"' in lines[1]
    assert out.read_text(encoding="utf-8").count("\n") == 1


def test_calibration_script_on_a_tiny_run(tmp_path) -> None:
    target = tmp_path / "calibration.yaml"
    table = tmp_path / "table.md"
    calibrate.main(["frap", "--deals", "30", "--session", "3", "--rounds", "1", "--tune-deals", "18",
                    "--out", str(target), "--table", str(table)])
    data = yaml.safe_load(target.read_text(encoding="utf-8"))
    (entry,) = data["variants"]
    assert entry["name"] == "frap" and entry["fitted_on"]["calls"] > 0
    assert {row["call"] for row in entry["table"]} <= {"frap", "whist", "cut", "blind-frap"}
    for row in entry["table"]:
        assert 0 <= row["predicted"] <= 1 and 0 <= row["actual"] <= 1 and row["n"] > 0
    k = constants_for(load_variant("frap"), target)
    assert k.data() == entry["constants"]
    assert k.caution in calibrate.CAUTION_GRID  # the tuned margin: one of the trials
    assert "| frap |" in table.read_text(encoding="utf-8")


def test_workers_give_the_same_figures_and_records_as_one_process(capsys, tmp_path) -> None:
    # the seeds are played in worker processes and taken back in seed order: the same values, the same
    # records line for line, whatever the number of workers
    outs = []
    for workers in (1, 2):
        records = tmp_path / f"records-{workers}.jsonl"
        strength.main(["heuristic", "rule", "--variant", "khrap", "--deals", "36", "--session", "2",
                       "--workers", str(workers), "--records", str(records)])
        final = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        outs.append(({k: final[k] for k in ("seeds", "deals", "diff", "ci95")}, records.read_text()))
    assert outs[0] == outs[1]
    assert outs[0][0]["seeds"] == 3 and len(outs[0][1].splitlines()) == 3 * 6 * 2


def test_a_session_carries_the_next_dealer_the_variant_names() -> None:
    """student-snore says ``next_dealer: declarer``, khrap ``left``: the benchmarks' sessions (strength.py,
    call_gains.py, call_diff.py) pass the deal as the variant says, not always to the dealer's left."""
    seen = set()
    for variant in ("student-snore", "khrap"):
        rules = Rules(load_variant(variant), 4)
        bots = [make_bot("easy", rules)] * 4
        for seed in range(40):
            _, state = strength.play_deal(rules, bots, seed, "carry", dealer=1, stacks=[100] * 4, pot=8)
            declarer, left = state.declarer, (state.dealer + 1) % 4  # (state.dealer: the last dealer, redeals included)
            if declarer is None or declarer == left:
                continue  # (no declarer, or one sitting where the two rules agree: nothing told apart)
            stacks, pot, dealer = strength.carried(state)
            assert (stacks, pot) == (list(state.stacks), state.pot)
            assert dealer == (declarer if variant == "student-snore" else left), (variant, seed)
            seen.add(variant)
            break
    assert seen == {"student-snore", "khrap"}


def test_override_worth_replays_the_strength_deals(capsys, tmp_path) -> None:
    # benchmarks/override_worth.py must play strength.py's very deals (the same decks, seatings and decision
    # seeds), or the worth it finds is not that of the measured lead; and each override it weighs is a real one
    import override_worth

    records = tmp_path / "records.jsonl"
    strength.main(["strong", "normal", "--variant", "snore", "--deals", "6", "--session", "1", "--first-seed", "10",
                   "--ms", "5000", "--records", str(records)])
    check = {(r["seed"], r["arrangement"], r["deal"]): r["delta"]
             for r in map(json.loads, records.read_text().splitlines())}
    assert len(check) == 6
    found = override_worth.run("snore", 10, 1, 1, 5000.0, True, check)  # (4 overrides there)
    assert "!= records" not in capsys.readouterr().err
    assert found and all(row["prior"] != row["chosen"] for row in found)
    # strong seats 0 and 2 gain 4 and -1, normal seats 1 and 3 lose 2 and 1: (4 - 1) / 2 - (-2 - 1) / 2
    assert override_worth.side([4, -2, -1, -1], [True, False, True, False]) == 3.0


def test_pool_takes_the_figure_from_records_by_hand(capsys, tmp_path) -> None:
    # four seats: arrangement 0 gives A seats 0 and 1, arrangement 1 seats 0 and 2, arrangement 5 seats 2 and 3
    def row(seed: int, arrangement: int, deal: int, delta: list[int]) -> str:
        return json.dumps({"seed": seed, "arrangement": str(arrangement), "deal": deal, "delta": delta}) + "\n"

    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(row(5, 0, 0, [4, 0, -2, -2]) + row(5, 0, 1, [0, 0, 0, -16]) + row(5, 5, 0, [3, 3, -3, -3]),
                     encoding="utf-8")
    # seed 5 again in the second file (ignored: a seed counts from its first file) and seed 6, one deal
    second.write_text(row(5, 0, 0, [90, 90, -90, -90]) + row(6, 1, 0, [12, 0, 0, -12]), encoding="utf-8")
    strength.main(["strong", "normal", "--pool", str(first), str(second), "--session", "2", "--by-deal"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # seed 5: arrangement 0 over both deals, A's seats 4 and 0 (mean 2), B's -2 and -18 (mean -10): 12;
    # arrangement 5, A's -3, B's 3: -6; (12 - 6) / 6 arrangements / 2 deals = 0.5.  Seed 6: 6 - -6 = 12, / 6 / 2 = 1
    whole, deal0, deal1 = out
    assert (whole["deal"], whole["seeds"], whole["deals"], whole["diff"]) == ("all", 2, 24, 0.75)
    assert whole["ci95"] == 0.49  # 1.96 x sqrt(0.125 / 2)
    # deal 0 alone: seed 5 (2 + 2 - 6) / 6 = -1/3, seed 6 12 / 6 = 2; deal 1: seed 5 only, (0 + 8) / 6
    assert (deal0["seeds"], deal0["diff"], deal0["sd"]) == (2, round(5 / 6, 4), round(7 / 3 / 2 ** 0.5, 4))
    assert (deal1["seeds"], deal1["diff"], deal1["sd"]) == (1, round(4 / 3, 4), 0.0)


def test_a_debt_ends_a_session_only_where_the_variant_forbids_debts() -> None:
    # khrap-shoot allows debts (its fines are pots: a stack of 100 can go below zero in one failed shoot); the
    # evening goes on as the variant plays it.  A house rule without debts: a broke seat ends the session there.
    from types import SimpleNamespace

    variant = load_variant("khrap-shoot")
    shoot, no_debt = Rules(variant, 4), Rules(variant.model_copy(update={"allow_debt": False}), 4)
    assert shoot.variant.allow_debt and not no_debt.variant.allow_debt
    broke = SimpleNamespace(stacks=[-37, 112, 101, 104], session_over=False)
    solvent = SimpleNamespace(stacks=[1, 112, 101, 66], session_over=False)
    assert not strength.session_ends(shoot, broke)
    assert strength.session_ends(no_debt, broke)
    assert not strength.session_ends(no_debt, solvent)
    # the kernel's own end of the session (nobody can cover a call, a stack below the minimum) stops it anywhere
    assert strength.session_ends(shoot, SimpleNamespace(stacks=[1, 112, 101, 66], session_over=True))
