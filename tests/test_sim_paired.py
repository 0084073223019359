"""Paired comparisons (common random numbers): the same deck and bot dice for each deal number in every variant,
intervals from the per-deal differences, the verdict, the table size, the evening view and the hands table."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from khrap.cli import app
from khrap.sim.evening import EveningSpec, run_evenings, summarize_evenings, wilson
from khrap.sim.hands import hand_rows
from khrap.sim.paired import PairedSpec, PairingError, deal_seed, hand_features, play_paired_chunk, simulate_paired
from khrap.sim.runner import SimSpec
from khrap.sim.verdict import verdict, words
from khrap.variant.catalog import load_variant

HOUSE = Path(__file__).parents[1] / "docs" / "house-rules"
MUST_BEAT = str(HOUSE / "khrap-must-beat.yaml")
JOKER_CUT = str(HOUSE / "khrap-joker-cut.yaml")


def _pair(refs, bots="random", seed=7, deals=200, chunk=100, players=4, engine="auto") -> PairedSpec:
    return PairedSpec.make([SimSpec.make(load_variant(r), players, bots, seed, deals, chunk, engine=engine)
                            for r in refs])


def test_deal_seeds_depend_on_the_run_and_the_deal_only() -> None:
    assert deal_seed(1, 5, "deck") == deal_seed(1, 5, "deck")
    assert len({deal_seed(1, d, s) for d in range(50) for s in ("deck", "bots")}) == 100
    assert deal_seed(1, 5, "deck") != deal_seed(2, 5, "deck")


def test_paired_runs_deal_the_same_deck_for_the_same_deal_number_in_every_variant() -> None:
    # the reference kernel keeps every deck it deals; the records of both variants are kept beside them
    pspec = _pair(["khrap", MUST_BEAT], bots="random", deals=60, chunk=20, engine="reference")
    result = simulate_paired(pspec, 1, keep_records=True)
    first, second = result.decks
    assert len(first) == len(second) == 60 and all(d is not None for d in first)
    assert first == second  # deal d: the same 36 cards in the same order under both rules
    assert len(set(first)) == 60  # and a new deck each deal
    recs = [r.records for r in result.results]
    assert len(recs[0]) == len(recs[1]) == 60
    # the same cards but a different rule: some deals went otherwise (the pairing does not copy the deals)
    assert any(a.trick_winners != b.trick_winners for a, b in zip(*recs, strict=True))
    # dealt from the same dealer position: the first deal of each chunk is dealt by seat 0 in both
    assert [r.dealer for r in recs[0][::20]] == [r.dealer for r in recs[1][::20]] == [0, 0, 0]


def test_a_chunk_plays_the_same_deals_alone_as_in_a_run() -> None:
    pspec = _pair(["khrap", MUST_BEAT], deals=30, chunk=10, engine="reference")
    whole = simulate_paired(pspec, 1, keep_records=True)
    alone = play_paired_chunk(pspec, 2, keep_records=True)
    assert alone.records[1] == whole.results[1].records[20:30]
    assert alone.decks[0] == whole.decks[0][20:30]


def test_the_paired_interval_is_narrower_than_the_unpaired_one() -> None:
    """Khrap against "must beat", random bots, seed 7, 1000 deals; the first speaker's edge.

    The measure of one deal is x = 4 * (first speaker's chips) - (table's total), in quarter base stakes.
    Khrap:      n = 1000, sum x = -1685, sum x^2 = 77797 -> sd = sqrt((77797 - 1685^2/1000) / 999) / 4 = 2.1655
    must beat:  n = 1000, sum x = -1867, sum x^2 = 76483 -> sd = 2.1373
    difference: n = 1000, sum d = -182,  sum d^2 = 6964  -> sd = sqrt((6964 - 182^2/1000) / 999) / 4 = 0.6585
    Mean difference: -182 / 1000 / 4 = -0.0455 base stakes.
    Paired half-width:   1.96 * 0.6585 / sqrt(1000) = 0.0408 -> [-0.086, -0.005]: a real change.
    Unpaired half-width: 1.96 * sqrt(2.1655^2 / 1000 + 2.1373^2 / 1000) = 0.1886 -> [-0.234, +0.143]: it holds 0.
    The same cards go to the same positions under both rules, so most of a deal's result is the same under both
    and cancels in the difference (the two variances add up to 9.26 / 1000, the difference's is 0.43 / 1000).
    (These sums are the kernel's deals from seed 7: a kernel that deals or lists actions otherwise changes them.)
    """
    result = simulate_paired(_pair(["khrap", MUST_BEAT], deals=1000), 1)
    pair = result.pairs[1]["first_edge"]
    assert (pair.base.n, pair.base.s, pair.base.ss) == (1000, -1685, 77797)
    assert (pair.own.n, pair.own.s, pair.own.ss) == (1000, -1867, 76483)
    assert (pair.diff.n, pair.diff.s, pair.diff.ss) == (1000, -182, 6964)
    d = result.difference(1, "first_edge")
    assert d["difference"] == pytest.approx(-0.0455)
    assert d["ci"] == pytest.approx([-0.0863, -0.0047], abs=1e-3)
    assert d["unpaired_ci"] == pytest.approx([-0.2341, 0.1431], abs=1e-3)
    assert d["significant"]
    assert d["ci"][1] - d["ci"][0] < (d["unpaired_ci"][1] - d["unpaired_ci"][0]) / 4


def test_a_variant_against_itself_differs_on_no_deal() -> None:
    result = simulate_paired(_pair(["khrap", "khrap"], deals=100), 1)
    for d in result.differences(1):
        assert d["difference"] == 0 and d["ci"] == [0, 0] and not d["significant"] and d["deals_needed"] is None
    assert result.difference(1, "first_edge")["unpaired_ci"][1] > 0.1  # unpaired, the same deals still look noisy
    text = verdict("Khrap", "Khrap", result.differences(1), 100, 4, "random")
    assert "played exactly as" in text


def test_an_unclear_difference_says_how_many_deals_would_tell() -> None:
    result = simulate_paired(_pair(["khrap", MUST_BEAT], deals=200), 1)
    unclear = [d for d in result.differences(1) if not d["significant"] and d["deals_needed"]]
    assert unclear
    for d in unclear:
        # (1.96 + 0.84)^2 * sd^2 / difference^2: the deals at which the interval would leave out 0 (80% of the time)
        assert d["deals_needed"] == math.ceil(((1.959964 + 0.841621) * d["sd"] / abs(d["difference"])) ** 2)
        assert d["ci"][0] <= 0 <= d["ci"][1]


def _diff(key, base, value, half, sd):
    diff = value - base
    return {"key": key, "deals": 1000, "base": base, "value": value, "difference": diff,
            "ci": [diff - half, diff + half], "unpaired_ci": [diff - 3 * half, diff + 3 * half], "sd": sd,
            "base_sd": sd, "significant": abs(diff) > half, "deals_needed": 0 if abs(diff) > half else 5000,
            "effect": abs(diff) / sd}


def test_the_verdict_names_the_largest_significant_change_first() -> None:
    diffs = [
        _diff("swing", 1.80, 1.95, 0.05, 1.0),          # significant, 0.15 sd
        _diff("all_pass", 0.10, 0.30, 0.02, 0.3),       # significant, 0.67 sd: the largest
        _diff("first_edge", 0.10, 0.90, 1.00, 2.0),     # larger in stakes, but not significant
        _diff("held:cut", 0.0, 2.3, 0.1, 0.01),         # a new call: told apart, not the largest change
    ]
    text = verdict("Khrap", "My rule", diffs, 1000, 4, "heuristic")
    first = text.split(". ")[0]
    assert words("all_pass", 4)[0] in first and "10.0% to 30.0%" in first
    assert text.index(words("swing", 4)[0]) > text.index(words("all_pass", 4)[0])
    assert "No measurable difference at 1000 deals in the first speaker's edge" in text
    assert "cut 0.00 → 2.30" in text and "heuristic bots" in text


def test_paired_specs_refuse_different_table_sizes() -> None:
    a = SimSpec.make(load_variant("khrap"), 4, "random", 1, 10)
    b = SimSpec.make(load_variant("khrap"), 5, "random", 1, 10)
    with pytest.raises(PairingError, match="4 players.*5"):
        PairedSpec.make([a, b])


def _only(tmp_path: Path, players: int, parent: str = "khrap") -> str:
    path = tmp_path / f"only{players}.yaml"
    path.write_text(f"extends: {parent}\nname: {{en: Only {players}}}\nplayers: {{min: {players}, max: {players}}}\n")
    return str(path)


def test_analyze_compares_at_the_count_every_variant_allows_and_labels_each_seat(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.html"
    res = CliRunner().invoke(app, ["analyze", "khrap", _only(tmp_path, 5), "--deals", "40", "--chunk", "20",
                                   "--workers", "1", "--bots", "random", "--evenings", "0", "--json", "-o", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["players"] == 5 and "5 players" in data["headline"] and "Compared at 5 players" in data["headline"]
    for summary in data["summaries"]:
        assert summary["players"] == 5
        assert [p["name"] for p in summary["positions"]] == [
            "first speaker", "speaker 2", "speaker 3", "speaker 4", "dealer"]
    page = out.read_text(encoding="utf-8")
    seats = page[page.index('id="seats"'):page.index('id="pot"')]
    assert seats.count("<tr><td>dealer</td>") == 1 and "speaker 4" in seats
    dealer = next(p for p in data["summaries"][1]["positions"] if p["name"] == "dealer")
    assert f"{dealer['mean']:.2f} [" in seats.split("<tr><td>dealer</td>")[1].split("</tr>")[0]


def test_analyze_refuses_variants_with_no_table_size_in_common(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    res = CliRunner().invoke(app, ["analyze", "khrap", _only(tmp_path, 6, "khrap-52"), "--deals", "20",
                                   "--workers", "1", "-o", str(out)])
    assert res.exit_code != 0
    assert "no number of players suits every variant" in res.output and "same table size" in res.output
    assert not out.exists()


def test_a_report_of_runs_with_different_table_sizes_labels_each_seat_by_name() -> None:
    pytest.importorskip("matplotlib")
    from khrap.sim import simulate
    from khrap.sim.report import render_report

    runs = [(f"{n} players", simulate(SimSpec.make(load_variant("khrap"), n, "random", 1, 50)).summary())
            for n in (4, 5)]
    page = render_report(runs)
    assert "different numbers of players" in page
    seats = page[page.index('id="seats"'):page.index('id="pot"')]
    rows = {row.split("</td>")[0]: row for row in seats.split("<tr><td>")[1:]}
    four_dealer, five_dealer = (next(p for p in s["positions"] if p["name"] == "dealer") for _, s in runs)
    assert f"{four_dealer['mean']:.2f}" in rows["dealer"] and f"{five_dealer['mean']:.2f}" in rows["dealer"]
    assert "–" in rows["speaker 4"]  # the 4-player table has no fourth speaker


def test_analyze_defaults_to_the_heuristic_bot_and_says_so(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.html"
    res = CliRunner().invoke(app, ["analyze", "khrap", MUST_BEAT, "--deals", "20", "--chunk", "10",
                                   "--workers", "1", "--evening", "5", "--evenings", "4", "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    assert "normal bots" in page[:page.index("<h2")]
    assert page.index('class="verdict"') < page.index("<svg")  # the verdict before the plots
    assert "what it means" in page and "An evening at the table" in page
    lines = res.stdout.splitlines()
    # the verdict in the table's words first: heuristic bots beat anyway
    assert lines[0].startswith("“Khrap, must beat” played exactly as “Khrap” on every one of the 20 deals")
    assert lines[1].startswith("Played by normal bots")
    assert any(line.startswith("Verdict: “Khrap, must beat” played exactly as “Khrap”") for line in lines)
    head = next(line for line in lines if line.endswith("1 worker(s)."))
    assert "normal bots" in head and lines.index(head) < lines.index(next(x for x in lines if "What changes" in x))


def test_default_bots_fall_back_to_random_only_for_runs_too_long_for_heuristic_ones() -> None:
    from khrap.sim.cli import default_bots

    assert default_bots(2000, 1) == ("normal", "")
    kind, why = default_bots(10_000_000, 2)
    assert kind == "random" and "--bots normal" in why


def test_workers_and_batches_do_not_change_paired_numbers() -> None:
    pspec = _pair(["khrap", MUST_BEAT], deals=120, chunk=10)
    one, two = simulate_paired(pspec, 1), simulate_paired(pspec, 2)
    assert two.workers == 2
    assert [r.stats for r in one.results] == [r.stats for r in two.results]
    assert one.differences(1) == two.differences(1)


def test_paired_runs_on_dask_give_the_numbers_of_one_worker() -> None:
    distributed = pytest.importorskip("distributed")
    from khrap.sim.paired import simulate_paired_on_dask

    pspec = _pair(["khrap", MUST_BEAT], deals=80, chunk=10)
    local = simulate_paired(pspec, 1)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        remote = simulate_paired_on_dask(pspec, client)
    assert [r.stats for r in remote.results] == [r.stats for r in local.results]
    assert remote.differences(1) == local.differences(1)


def test_evenings_count_results_and_players_gone_broke() -> None:
    spec = SimSpec.make(load_variant("khrap"), 4, ["heuristic", "random", "random", "random"], 3, 10)
    espec = EveningSpec(spec, stack=20, deals=30, evenings=12)
    evenings = run_evenings(espec)
    assert evenings == run_evenings(espec, tasks=5)  # the same evenings however they are batched
    summary = summarize_evenings(espec, evenings)
    rows = {r["seat"]: r for r in summary["rows"]}
    assert set(rows) == {"heuristic", "random", "any player"}
    assert rows["heuristic"]["players"] == 12 and rows["random"]["players"] == 36
    broke = sum(b for ev in evenings for b in ev[1][1:]) / 36
    assert rows["random"]["broke"] == pytest.approx(broke)
    for ev in evenings:  # chips are neither made nor lost: results plus the pot left add up to 0
        assert sum(ev[0]) <= 0
    lo, hi = wilson(0, 20)
    assert lo == 0 and 0.1 < hi < 0.2


def test_a_wilson_interval_holds_its_own_share_at_the_ends() -> None:
    # 0 of n and n of n: the formula's floats once put the upper end at 0.9999999999999999 for a share of 1
    # (CI saw it in analyze --json's makeable figures); the ends are exact now.
    for n in range(1, 2000):
        assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
    lo, hi = wilson(7, 10)  # by hand: p = 0.7, z = 1.96: centre 0.6445, half 0.2477
    assert lo == pytest.approx(0.3968, abs=1e-3) and hi == pytest.approx(0.8922, abs=1e-3)


def test_hand_features_and_the_hands_table() -> None:
    # spades are suit 0: A♠ = 12, K♠ = 11, 7♠ = 5; K♥ = 24
    assert hand_features([12, 11, 5, 24], trump=0) == {"trumps": 3, "trump_ace": 1, "high_cards": 3}
    assert hand_features([12, 24], trump=None) == {"trumps": 0, "trump_ace": 0, "high_cards": 2}
    result = simulate_paired(_pair(["khrap"], bots="heuristic", deals=100, seed=2), 1)
    rows = hand_rows(result.hands[0], 1, min_count=1)  # every row: each judged khrap is counted once per feature
    khrap = [r for r in rows if r["call"] == "khrap" and r["feature"] == "trumps"]
    assert khrap and sum(r["count"] for r in khrap) == result.results[0].stats.contracts["khrap"].judged
    shown = hand_rows(result.hands[0], 1, min_count=5)  # the table a player reads leaves out rare rows
    assert all(r["count"] >= 5 for r in shown) and len(shown) < len(rows)
    assert all(0 <= r["success"] <= 1 and r["ci"][0] <= r["mean"] <= r["ci"][1] for r in rows)


def test_measures_that_carry_over_take_their_interval_from_the_sessions() -> None:
    from khrap.sim.paired import CARRIED, session_half_width, t95

    assert t95(9) == pytest.approx(2.262, abs=5e-3) and t95(19) == pytest.approx(2.093, abs=1e-3)
    # three sessions of 10 deals whose differences sum to 1, 2 and 6: mean 0.3, session means 0.1, 0.2, 0.6
    # -> sd of session means 0.2646, half-width t(2) * 0.2646 / sqrt(3); t(2) = 4.303 (the series gives ~4.0)
    expected = t95(2) * 0.26458 / math.sqrt(3)
    assert session_half_width([(10, 1), (10, 2), (10, 6)], 1) == pytest.approx(expected, rel=1e-4)
    result = simulate_paired(_pair(["khrap", MUST_BEAT], deals=1000, chunk=50), 1)  # 20 sessions
    for key in ("drama", "first_edge"):
        d = result.difference(1, key)
        assert d["interval_from"] == ("sessions" if key in CARRIED else "deals")
        assert d["ci"] == (d["session_ci"] if key in CARRIED else d["ci"])


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_position_labels_hold_that_position_s_chips_at_every_table_size(players: int) -> None:
    from khrap.sim import simulate

    result = simulate(SimSpec.make(load_variant("khrap-52"), players, "random", 4, 60, chunk=30), keep_records=True)
    positions = result.summary()["positions"]
    names = [p["name"] for p in positions]
    assert names[0] == "first speaker" and names[-1] == "dealer" and len(names) == players
    for p, row in enumerate(positions):  # the dealer's left speaks first; the dealer speaks last
        chips = [r.delta[(r.dealer + 1 + p) % players] for r in result.records]
        assert row["mean"] == pytest.approx(sum(chips) / len(chips))
    dealer = [r.delta[r.dealer] for r in result.records]
    assert positions[-1]["mean"] == pytest.approx(sum(dealer) / len(dealer))


@pytest.mark.parametrize("bots,engine", [("random", "auto"), ("heuristic", "auto")])
def test_evenings_are_the_paired_sessions(bots: str, engine: str) -> None:
    # 50 deals in sessions of 20: two whole sessions (evenings), and a last chunk of 10 that is not one
    pspec = _pair(["khrap", MUST_BEAT], bots=bots, deals=50, chunk=20, engine=engine)
    result = simulate_paired(pspec, 1, keep_records=True)
    for v in range(2):
        records, evenings = result.results[v].records, result.evenings[v]
        assert len(evenings) == 2
        for i, (chips, broke, played) in enumerate(evenings):
            session = records[20 * i: 20 * i + played]
            # a fresh table of 100 chips a seat: each seat's result is the sum of his chips won deal by deal
            assert chips == tuple(sum(r.delta[s] for r in session) for s in range(4))
            assert broke == tuple(any(r.stacks[s] <= 0 for r in session) for s in range(4))
            # the pot started empty: what it holds after the last deal came out of the seats' stacks
            assert sum(chips) == -session[-1].pot_after
            assert 0 < played <= 20
    assert simulate_paired(pspec, 2).evenings == result.evenings  # the same whatever the workers


def test_analyze_reads_the_evenings_off_its_sessions(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.html"
    args = ["analyze", "khrap", MUST_BEAT, "--deals", "40", "--workers", "1", "--evening", "10", "--bots",
            "random", "--json", "-o", str(out)]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    # sessions of --evening deals by default: four sessions, four evenings, read off them
    assert "sessions of 10 deals" in data["headline"]
    assert [e["evenings"] for e in data["evenings"]] == [4, 4]
    assert all(sum(r["players"] for r in e["rows"] if r["seat"] != "any player") == 16 for e in data["evenings"])
    # a stack other than the sessions' 100 chips: the evenings are played apart, as many as asked
    res = CliRunner().invoke(app, args + ["--stack", "30", "--evenings", "3"])
    assert res.exit_code == 0, res.output
    assert [e["evenings"] for e in json.loads(res.stdout)["evenings"]] == [3, 3]


def test_paired_chunks_fold_in_chunk_order_whatever_order_they_come_in() -> None:
    from khrap.sim.paired import PairedMerge

    pspec = _pair(["khrap", MUST_BEAT], bots="random", deals=30, chunk=10)
    chunks = [play_paired_chunk(pspec, i) for i in range(3)]
    merged = []
    for order in ([0, 1, 2], [2, 0, 1]):
        fold = PairedMerge(pspec)
        for k, i in enumerate(order):
            fold.add(chunks[i])
            # chunk 2 come first waits for chunks 0 and 1 before it is folded in; then nothing waits
            assert sorted(fold.pending) == ([2] if order[0] == 2 and k < 2 else [])
        merged.append(fold.result(1.0, 1))
    first, second = merged
    assert [r.summary() for r in first.results] == [r.summary() for r in second.results]
    assert first.evenings == second.evenings == [[c.evenings[v] for c in chunks] for v in range(2)]
    assert {k: p.diff for k, p in first.pairs[1].items()} == {k: p.diff for k, p in second.pairs[1].items()}
