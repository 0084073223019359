"""`khrap analyze --makeable`: how often each contract that reached the card play was makeable with every card open."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from khrap.bots.solver import SolverTimeout
from khrap.cards import parse_cards
from khrap.cli import app
from khrap.engine import GameState, Rules
from khrap.sim import runner
from khrap.sim.makeable import FirstCard, Tally, contracts_in_play, headline, is_solved, summary
from khrap.sim.paired import PairedSpec, play_paired_chunk, simulate_paired
from khrap.sim.runner import SimSpec
from khrap.variant.catalog import load_variant


class Script:
    """A bot that plays the actions it is given (what the heuristic bots chose on this deck when the test was
    written: fixed here, so that a change to the heuristic does not change the scenario)."""

    searches = False

    def __init__(self, actions: list[tuple[int, str]], seat: int) -> None:
        self.actions = [text for who, text in actions if who == seat]

    def choose(self, observation: dict, legal: list, rng: random.Random):
        text = self.actions.pop(0)
        return next(a for a in legal if str(a) == text)


def _deal(variant: str, players: int, decks: list[str], actions: list[tuple[int, str]]):
    """Play one deal of ``decks`` with the scripted actions: its record and the deal at its first card."""
    rules = Rules(load_variant(variant), players)
    state = GameState(rules, players, seed=0, decks=[parse_cards(d) for d in decks])
    watch = FirstCard()
    watch.arm()
    rec = runner._play_deal(state, [Script(actions, s) for s in range(players)], random.Random(0), watch)
    return rec, watch.take()


def _sure(state, seat: int, need: int) -> bool:
    """Brute force through the kernel, independent of the solver: can ``seat`` take ``need`` tricks whatever the
    others play?  (Every legal card of every seat, every line; small positions only.)"""
    if state.pending is None or state.pending.kind != "play":
        return state.tricks[seat] >= need
    results = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        results.append(_sure(child, seat, need))
    return any(results) if state.pending.seat == seat else all(results)


# Frap, 3 players (the heuristic bots' deal from seed 7, dealt twice: the first dealing was all-passed).  Hearts
# are trumps.  Seat 2 fraps (needs 2 tricks), seat 1 whists (needs 1), seat 0 passes.  At the first card, after
# the exchanges: seat 2 (declarer, to lead) holds AH JH QC JD; seat 1 holds KH TH 9H KS.
FRAP_7 = ["JC 8H TD 9H QC QS AS KD 7S KH 7H AH AD 7C QD QH 8C TC KS 7D 9C 9D TH TS 8D 9S 8S AC JH JS KC JD",
          "JH 9S 9H AH AD KH KC 7D 7S TD 7C TH 7H QC JD KS QD QS KD 8C 9D AC JC 9C QH 8H JS TC 8D 8S AS TS"]
# As the bots played: AH (9H under it), JD ruffed with TH, seat 1 leads KH (JH under it) and KS (QC thrown):
# the declarer takes one trick and fails.
FRAP_7_ACTIONS = [(1, "look"), (1, "pass"), (2, "look"), (2, "pass"), (0, "look"), (0, "pass"), (1, "pass"),
                  (2, "pass"), (0, "pass"), (1, "pass"), (2, "pass"), (0, "pass"), (2, "look"), (2, "frap"),
                  (0, "pass"), (1, "whist"), (2, "exchange TD KC"), (1, "exchange 7S"), (0, "pass"),
                  (2, "play AH"), (1, "play 9H"), (2, "play JD"), (1, "play TH"), (1, "play KH"), (2, "play JH"),
                  (1, "play KS"), (2, "play QC")]
# Makeable all the same: lead QC first.  Seat 1 has no club.
# - It throws KS: QC wins (trick 1), and AH, the top trump, wins a second: 2.
# - It ruffs with a heart and must lead from two of KH TH 9H and KS, against AH JH JD:
#   KH led: AH takes it, then JH beats the last of TH/9H: 2;  TH or 9H led: JH takes it, then AH: 2;
#   KS led: seat 2 has no spade, ruffs with JH (seat 1 has played), then AH: 2.
# Every defence leaves the declarer two tricks.  Leading AH first (as the bot did) lets seat 1 keep KH over JH.


def test_a_makeable_contract_the_bots_failed_is_counted_as_failed_though_makeable() -> None:
    rec, start = _deal("frap", 3, FRAP_7, FRAP_7_ACTIONS)
    frap = next(c for c in rec.contracts if c.label == "frap")
    assert (frap.seat, frap.need, frap.tricks, frap.fulfilled) == (2, 2, 1, False)
    assert sorted(parse_cards("AH JH QC JD")) == sorted(start.hands[2])
    assert _sure(start.clone(), 2, 2)  # the brute force agrees with the hand count above
    tally = Tally()
    tally.add(rec, start, 10.0)
    assert tally.calls == {"frap": [1, 0, 1, 0], "whist": [1, 1, 1, 1]}  # contracts, made, makeable, both
    data = summary("Frap", tally, 1, 10.0)
    assert data["total"]["failed_makeable"] == 1 and data["total"]["made_unmakeable"] == 0
    assert data["rows"][0]["made_of_makeable"] == 0.0  # frap first (ties by name): made 0 of 1 makeable


# Frap, 3 players (seed 18).  Clubs are trumps.  Seat 0 fraps (needs 2), seat 1 cuts (needs 1) and leads.  At the
# first card: seat 0 holds KC QC 9D 8D, seat 1 AC 8C JC 8H.
FRAP_18 = ["7S TC JS QH 9C 7D JH TD KC 9S AD QC 8S AC 9D 8D 8C 7H JC 8H KD QS 7C JD AH KS AS 9H KH QD TS TH"]
FRAP_18_ACTIONS = [(1, "look"), (1, "pass"), (2, "look"), (2, "pass"), (0, "look"), (0, "pass"), (1, "pass"),
                   (2, "pass"), (0, "frap"), (1, "pass"), (2, "pass"), (0, "exchange JS 7D"), (1, "cut trump"),
                   (1, "discard 7H"), (2, "pass"), (1, "play AC"), (0, "play QC"), (1, "play 8H"), (0, "play KC"),
                   (0, "play 9D"), (1, "play 8C"), (1, "play JC"), (0, "play 8D")]
# Not makeable: seat 1 leads AC (seat 0 must follow with KC or QC), then 8C (seat 0 must follow with its last
# club and takes the trick: 1).  Seat 0 is left with 9D 8D against JC 8H: a diamond led is ruffed by JC, then 8H
# wins (seat 0 has no heart and no trump).  Seat 0 takes one trick whatever it plays: 2 is out of reach.


def test_a_contract_the_defence_could_always_beat_is_not_makeable() -> None:
    rec, start = _deal("frap", 3, FRAP_18, FRAP_18_ACTIONS)
    frap = next(c for c in rec.contracts if c.label == "frap")
    assert (frap.seat, frap.need, frap.tricks, frap.fulfilled) == (0, 2, 1, False)
    assert not _sure(start.clone(), 0, 2)
    tally = Tally()
    tally.add(rec, start, 10.0)
    assert tally.calls == {"frap": [1, 0, 0, 0], "cut": [1, 1, 1, 1]}
    assert (tally.played, tally.solved, tally.unsolved) == (1, 1, 0)


def test_the_deal_at_its_first_card_is_kept_only_when_armed_and_only_for_contracts_in_play() -> None:
    rec, start = _deal("frap", 3, FRAP_18, FRAP_18_ACTIONS)
    assert start.pending.kind == "play" and not start.trick and not start.won
    assert [c.label for c in contracts_in_play(rec)] == ["frap", "cut"]
    watch = FirstCard()  # not armed: keeps nothing
    rules = Rules(load_variant("frap"), 3)
    state = GameState(rules, 3, seed=0, decks=[parse_cards(FRAP_18[0])])
    runner._play_deal(state, [Script(FRAP_18_ACTIONS, s) for s in range(3)], random.Random(0), watch)
    assert watch.take() is None
    tally = Tally()
    tally.add(rec, None, 10.0)  # no card play kept: nothing counted
    assert tally == Tally()


def test_a_deal_not_solved_in_time_is_counted_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    import khrap.bots.solver

    rec, start = _deal("frap", 3, FRAP_7, FRAP_7_ACTIONS)

    def too_slow(*args, **kwargs):
        raise SolverTimeout

    monkeypatch.setattr(khrap.bots.solver, "can_make", too_slow)
    tally = Tally()
    tally.add(rec, start, 0.01)
    assert (tally.played, tally.solved, tally.unsolved, tally.unsolved_contracts, tally.calls) == (1, 0, 1, 2, {})
    assert "1 deal(s) (2 contracts) not solved within 0.01 s" in headline(summary("Frap", tally, 1, 0.01))


def test_the_solved_deals_are_spread_evenly_and_exactly_as_many_as_asked() -> None:
    for deals, solve in ((10, 2), (100, 7), (1000, 999), (5, 5), (5, 9), (7, 1)):
        chosen = [d for d in range(deals) if is_solved(d, deals, solve)]
        assert len(chosen) == min(deals, solve)
    assert [d for d in range(10) if is_solved(d, 10, 2)] == [4, 9]
    assert not any(is_solved(d, 10, 0) for d in range(10))


def _pspec(deals: int, solve: int, chunk: int = 10) -> PairedSpec:
    specs = [SimSpec.make(load_variant(v), 4, "heuristic", 3, deals, chunk, engine="reference")
             for v in ("khrap", "frap")]
    return PairedSpec.make(specs, solve=solve, solve_seconds=30.0)


def _figures(result) -> list:
    return [(t.calls, t.played, t.solved, t.unsolved, t.unsolved_contracts) for t in result.makeable]


def test_workers_do_not_change_the_makeable_figures() -> None:
    pspec = _pspec(60, 40)
    one, two = simulate_paired(pspec, 1), simulate_paired(pspec, 2)
    assert two.workers == 2
    assert _figures(one) == _figures(two)
    assert one.makeable[0].solved > 0 and one.makeable[0].unsolved == 0
    assert [r.stats for r in one.results] == [r.stats for r in two.results]


def test_the_option_off_costs_nothing_and_on_changes_no_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    import khrap.bots.solver

    on = play_paired_chunk(_pspec(20, 20), 0)
    off = play_paired_chunk(_pspec(20, 0), 0)
    assert on.makeable is not None and off.makeable is None
    assert on.stats == off.stats and on.pairs == off.pairs  # the solver watches; the bots play the same deals

    def never(*args, **kwargs):
        raise AssertionError("the solver ran with the option off")

    monkeypatch.setattr(khrap.bots.solver, "can_make", never)
    monkeypatch.setattr(FirstCard, "__call__", never)  # no copy of the deal either
    again = play_paired_chunk(_pspec(20, 0), 0)
    assert again.stats == off.stats and again.makeable is None


def test_analyze_json_carries_the_makeable_figures_and_the_text_prints_them(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.html"
    args = ["analyze", "frap", "--players", "3", "--deals", "40", "--chunk", "20", "--workers", "1",
            "--evenings", "0", "--seed", "2", "-o", str(out)]
    res = CliRunner().invoke(app, [*args, "--solve", "30", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    (frap,) = data["makeable"]
    assert {"variant", "deals", "played", "solved", "unsolved", "unsolved_contracts", "seconds_per_deal",
            "solver_seconds", "rows", "total"} <= frap.keys()
    assert frap["deals"] == 30 and frap["solved"] + frap["unsolved"] == frap["played"] > 0
    for r in [*frap["rows"], frap["total"]]:
        assert {"call", "contracts", "made", "makeable", "made_and_makeable", "failed_makeable", "made_unmakeable",
                "made_share", "made_ci", "makeable_share", "makeable_ci", "made_of_makeable",
                "made_of_makeable_ci"} <= r.keys()
        assert r["made_and_makeable"] <= min(r["made"], r["makeable"]) and r["makeable"] <= r["contracts"]
        lo, hi = r["makeable_ci"]
        assert lo <= r["makeable_share"] <= hi
    assert frap["total"]["contracts"] == sum(r["contracts"] for r in frap["rows"])
    assert "How often each contract was makeable" in out.read_text(encoding="utf-8")
    text = CliRunner().invoke(app, [*args, "--makeable"])
    assert text.exit_code == 0, text.output
    assert "How often each contract was makeable" in text.stdout and "made/makeable" in text.stdout
    plain = CliRunner().invoke(app, [*args, "--json"])
    assert json.loads(plain.stdout)["makeable"] is None  # off by default


def test_analyze_with_random_bots_reads_the_deals_through_gamestate(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    res = CliRunner().invoke(app, ["analyze", "khrap", "--bots", "random", "--deals", "20", "--chunk", "10",
                                   "--workers", "1", "--evenings", "0", "--makeable", "--json",
                                   "-o", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    (khrap,) = json.loads(res.stdout)["makeable"]
    assert khrap["played"] > 0 and khrap["total"]["contracts"] > 0


def _without_time(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "solver_seconds"}


def test_simulate_judges_the_same_deals_whatever_the_workers_and_plays_them_as_without() -> None:
    from khrap.sim.runner import simulate

    def spec(solve: int) -> SimSpec:
        return SimSpec.make(load_variant("frap"), 4, "heuristic", 5, 60, 10, solve=solve, solve_seconds=30.0)

    one, two, off = simulate(spec(45), 1), simulate(spec(45), 2), simulate(spec(0), 1)
    assert two.workers == 2
    assert _without_time(one.summary()["makeable"]) == _without_time(two.summary()["makeable"])
    assert one.summary()["makeable"]["deals"] == 45 and one.makeable.played > 0
    assert one.stats == two.stats == off.stats and "makeable" not in off.summary() and off.makeable is None


def test_simulate_prints_the_makeable_table_and_json(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["simulate", "khrap", "--bots", "random", "--deals", "20", "--chunk", "10",
                                   "--workers", "1", "--makeable", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)["makeable"]
    assert data["deals"] == 20 and data["played"] > 0 and data["total"]["contracts"] > 0
    text = CliRunner().invoke(app, ["simulate", "frap", "--deals", "30", "--workers", "1", "--solve", "10"])
    assert text.exit_code == 0, text.output
    assert "How often each contract was makeable" in text.stdout and "of the 10 deals judged" in text.stdout
    bad = CliRunner().invoke(app, ["simulate", "frap", "--deals", "30", "--solve-seconds", "0"])
    assert bad.exit_code != 0 and "--solve-seconds" in bad.output


def test_a_dask_cluster_gives_the_makeable_figures_of_one_worker() -> None:
    distributed = pytest.importorskip("distributed", reason="the Dask backend is the `dask` extra")
    from khrap.sim.cluster import simulate_on_dask
    from khrap.sim.paired import simulate_paired_on_dask
    from khrap.sim.runner import simulate

    pspec = _pspec(40, 30)
    spec = SimSpec.make(load_variant("frap"), 4, "heuristic", 5, 40, 10, solve=30, solve_seconds=30.0)
    local, local_sim = simulate_paired(pspec, 1), simulate(spec, 1)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        remote = simulate_paired_on_dask(pspec, client)
        remote_sim = simulate_on_dask(spec, client)
    assert _figures(remote) == _figures(local) and local.makeable[1].played > 0
    assert _without_time(remote_sim.summary()["makeable"]) == _without_time(local_sim.summary()["makeable"])
