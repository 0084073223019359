"""Simulations: per-deal records read from the kernel, their statistics, seed-determinism across workers.

The scripted session below is worked out by hand from RULES.md §1 (classic
Khrap, 4 players, dealer 0, 100 chips a seat).  Every deck lists the same 17
cards; with dealer D the first four cards of each hand go, in dealing order
(D+1, D+2, D+3, D):  AS KH 7C 6D | QH 6S 8C AD | 7S 8S 9S TS | JS 6C 7D 8D,
and 9H is turned (hearts trump).  The stock then starts QS KS 6H ...
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from khrap.cli import app
from khrap.engine import GameState, Rules
from khrap.session import complete_deck
from khrap.sim import Contract, DealRecord, SimSpec, Stats, deal_record, decided_after, play_chunk, simulate
from khrap.variant.catalog import load_variant
from tests.conftest import examples

DECK = "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"

# Deal 1, dealer 0: seat 1 (AS KH 7C 6D) khraps, seat 2 (QH 6S 8C AD) helps, 3 and 0 pass and refuse five.
# Both stand pat; the declarer leads.  AS-6S: seat 1; KH-QH: seat 1 (2 = declarer made); 7C-8C: seat 2
# (helper made: every outcome certain after trick 3); AD-6D: seat 2.  P = 4 antes, a trick pays 4 // 4 = 1:
# seats 1 and 2 take 2 each, nobody fails, pot 0.  Chips: (-1, -1 + 2, -1 + 2, -1) = (-1, +1, +1, -1).
DEAL_1 = """1 khrap
2 help
3 pass
0 pass
3 pass
0 pass
1 exchange
2 exchange
1 play AS
2 play 6S
1 play KH
2 play QH
1 play 7C
2 play 8C
2 play AD
1 play 6D"""

# Deal 2: the deal passes to seat 1 (seat 2 AS KH 7C 6D, seat 3 QH 6S 8C AD).  Rounds 1-3: all four pass
# (turned: 9H, then QS, then KS; nobody may wrap a king, nobody holds the trump six and ace).  After the
# third all-pass everyone adds 1 (pot 4 + 4 = 8; two turn-ups after an all-pass) and seat 2 redeals with no
# ante: seat 3 (AS KH 7C 6D) khraps, seat 0 (QH 6S 8C AD) helps, the play of deal 1 two seats on: tricks to
# 3, 3, 0, 0.  P = 8, a trick pays 2: seats 3 and 0 take 4 each.  Chips: -2 each, then (+2, -2, -2, +2).
DEAL_2 = "\n".join(["2 pass", "3 pass", "0 pass", "1 pass"] * 3) + """
3 khrap
0 help
1 pass
2 pass
1 pass
2 pass
3 exchange
0 exchange
3 play AS
0 play 6S
3 play KH
0 play QH
3 play 7C
0 play 8C
0 play AD
3 play 6D"""

# Deal 3: the redeal's dealer was seat 2, so seat 3 deals.  Seat 0 (AS KH 7C 6D) khraps, everyone
# passes and refuses five; he stands pat and plays alone: credited 4 tricks x 4 // 4 = 4.
# Chips: (-1 + 4, -1, -1, -1) = (+3, -1, -1, -1).
DEAL_3 = """0 khrap
1 pass
2 pass
3 pass
1 pass
2 pass
3 pass
0 exchange"""


def play_script(state: GameState, script: str):
    stacks, pot = list(state.stacks), state.pot
    state.log.clear()
    state.start_deal()
    lines = script.splitlines()
    for line in lines:
        seat, action = line.split(" ", 1)
        state.apply(action, int(seat))
    assert state.pending is None, "the script must finish the deal"
    return deal_record(state, stacks, pot, len(lines))


@pytest.fixture(scope="module")
def scripted():
    rules = Rules(load_variant("khrap"), 4)
    deck = complete_deck(DECK, rules)
    state = GameState(rules, 4, decks=[deck] * 5)
    return [play_script(state, s) for s in (DEAL_1, DEAL_2, DEAL_3)]


def test_records_of_scripted_deals(scripted) -> None:
    one, two, three = scripted
    assert one.calls == ((1, "khrap"), (2, "help"), (3, "pass"), (0, "pass"), (3, "pass"), (0, "pass"))
    assert [(c.label, c.status, c.need, c.tricks, c.fulfilled) for c in one.contracts] == [
        ("pass", "out", 0, 0, None), ("khrap", "declarer", 2, 2, True),
        ("help", "helper", 1, 2, True), ("pass", "out", 0, 0, None)]
    assert one.trick_winners == (1, 1, 2, 2)
    assert (one.delta, one.pot_before, one.pot_settle, one.pot_after) == ((-1, 1, 1, -1), 0, 4, 0)
    assert (one.dealer, one.rounds, one.all_passes, one.turn_ups, one.redeals, one.ending) == (0, 1, 0, 0, 0, "play")
    assert decided_after(one) == 3

    assert two.calls[:12] == tuple((s, "pass") for s in (2, 3, 0, 1) * 3)
    assert two.calls[12:] == ((3, "khrap"), (0, "help"), (1, "pass"), (2, "pass"), (1, "pass"), (2, "pass"))
    assert (two.all_passes, two.turn_ups, two.redeals, two.rounds, two.dealer) == (3, 2, 1, 1, 2)
    assert (two.delta, two.pot_settle, two.pot_after, two.trick_winners) == ((2, -2, -2, 2), 8, 0, (3, 3, 0, 0))
    assert decided_after(two) == 3
    assert two.actions == 12 + 6 + 2 + 8

    assert (three.ending, three.dealer, three.trick_winners, three.delta) == ("lone", 3, (), (3, -1, -1, -1))
    assert three.contracts[0].fulfilled is True and three.contracts[0].tricks == 4
    assert decided_after(three) is None


def test_statistics_of_scripted_deals_by_hand(scripted) -> None:
    stats = Stats(4)
    stats.add_session(scripted)
    s = stats.summary()
    calls = {c["call"]: c["made"] for c in s["calls"]}
    assert calls == {"pass": 4 + 16 + 6, "khrap": 3, "help": 2}
    contracts = {c["contract"]: c for c in s["contracts"]}
    assert (contracts["khrap"]["count"], contracts["khrap"]["fulfilled"], contracts["khrap"]["mean"]) == (3, 3, 2.0)
    assert contracts["khrap"]["ci"] == pytest.approx([2 - 1.959964 / 3**0.5, 2 + 1.959964 / 3**0.5], abs=1e-5)
    assert (contracts["help"]["count"], contracts["help"]["success"], contracts["help"]["mean"]) == (2, 1.0, 1.5)
    assert contracts["pass"]["count"] == 7 and contracts["pass"]["judged"] == 0
    assert contracts["pass"]["mean"] == pytest.approx(-9 / 7)  # -1 -1, -2 -2, -1 -1 -1
    # positions from the dealer's left: deal 1 (+1 +1 -1 -1), deal 2 (dealer 2: +2 +2 -2 -2), deal 3 (+3 -1 -1 -1)
    assert [p["mean"] for p in s["positions"]] == pytest.approx([2, 2 / 3, -4 / 3, -4 / 3])
    assert [p["mean"] for p in s["seats"]] == pytest.approx([4 / 3, -2 / 3, -2 / 3, 0])
    r, m = s["rates"], s["measures"]
    assert (r["all_pass"], r["turn_up"], r["redeal"]) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert r["endings"] == pytest.approx({"lone": 1 / 3, "play": 2 / 3})
    assert m["fairness"] == pytest.approx(2 + 4 / 3)
    assert m["swing"] == pytest.approx((4 + 8 + 6) / 12)
    assert m["decisiveness"] == 1.0  # both played deals were decided after trick 3 of 4
    # stacks after each deal: (99, 101, 101, 99): seats 1 and 2 lead, seat 1 counts (the lowest);
    # (101, 99, 99, 101): seat 1 is no longer ahead, seat 0 leads (a change); (104, 98, 98, 100): seat 0 still
    assert [rec.stacks for rec in scripted] == [(99, 101, 101, 99), (101, 99, 99, 101), (104, 98, 98, 100)]
    assert m["drama"] == 0.5  # 1 change in 2 steps
    assert s["pot"]["settlement"]["histogram"] == {"4": 2, "8": 1}
    assert s["length"]["actions"]["histogram"] == {"8": 1, "16": 1, "28": 1}


def test_statistics_of_three_random_deals_match_their_records() -> None:
    spec = SimSpec.make(load_variant("khrap"), 4, "random", seed=11, deals=3)
    result = play_chunk(spec, 0, keep_records=True)
    records = result.records
    assert len(records) == 3
    calls: Counter = Counter()
    chips = [0, 0, 0, 0]
    for rec in records:
        for _, word in rec.calls:
            calls[word] += 1
        for seat in range(4):
            chips[seat] += rec.delta[seat]
        assert sum(rec.delta) == rec.pot_before - rec.pot_after  # chips are conserved
    s = result.stats.summary()
    assert {c["call"]: c["made"] for c in s["calls"]} == dict(calls)
    assert [p["mean"] * 3 for p in s["seats"]] == pytest.approx(chips)
    assert s["deals"] == 3


def _figures(result) -> dict:
    summary = result.summary()
    for key in ("seconds", "cpu_seconds", "deals_per_second", "workers"):
        summary.pop(key)
    return summary


def test_same_seed_same_numbers_with_one_or_two_workers() -> None:
    spec = SimSpec.make(load_variant("frap"), 4, "random", seed=5, deals=120, chunk=30)
    one = simulate(spec, workers=1, keep_records=True)
    two = simulate(spec, workers=2, keep_records=True)
    assert two.workers == 2
    assert _figures(one) == _figures(two)
    assert one.records == two.records
    other = simulate(SimSpec.make(load_variant("frap"), 4, "random", seed=6, deals=120, chunk=30))
    assert _figures(other) != _figures(one)


def test_simulate_command_json_and_csv(tmp_path) -> None:
    out = tmp_path / "deals.csv"
    result = CliRunner().invoke(app, ["simulate", "khrap", "--deals", "12", "--seed", "2", "--workers", "1",
                                      "--chunk", "5", "--json", "--csv", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["deals"] == 12 and data["players"] == 4 and data["chunk"] == 5
    assert {"calls", "contracts", "positions", "pot", "rates", "length", "measures"} <= set(data)
    text = out.read_bytes().decode("utf-8")
    assert "\r" not in text and "\\x0d" not in text  # plain "\n" lines, no escaped carriage return
    rows = text.split("\n")
    assert len(rows) == 14 and rows[-1] == "" and rows[0].startswith("deal,chunk,dealer")
    assert all(row.count(",") == rows[0].count(",") for row in rows[1:-1])
    assert result.stderr.strip() == f"wrote {out}"  # no progress bar when stderr is not a terminal


def test_simulate_command_text_and_errors() -> None:
    result = CliRunner().invoke(app, ["simulate", "snore", "--deals", "5", "--workers", "1", "--bots", "rule"])
    assert result.exit_code == 0, result.output
    assert "deals/s" in result.stdout and "first speaker" in result.stdout
    bad = CliRunner().invoke(app, ["simulate", "khrap", "--deals", "5", "--bots", "genius"])
    assert bad.exit_code == 2 and "unknown bot kind" in bad.output
    bad = CliRunner().invoke(app, ["simulate", "khrap", "--deals", "5", "--players", "9"])
    assert bad.exit_code == 2 and "players" in bad.output



HRAPOFF = Path(__file__).resolve().parents[1] / "docs" / "house-rules" / "hrapoff.yaml"


def test_a_table_whose_stacks_decide_who_is_dealt_in_is_simulated_with_enough_chips() -> None:
    """hrapoff.yaml: base stake 100 chips, ``min_stack: 3`` (300 chips to be dealt in), no debts.  At the 100
    chips a seat that a simulation gave every variant, nobody could be dealt in and it played 0 deals, saying
    nothing.  A seat now brings the variant's seat stack: 100 base stakes (10,000 chips) here, 100 where
    stacks only count (every built-in: their figures are unchanged)."""
    from khrap.variant.derived import seat_stack

    hrapoff = load_variant(str(HRAPOFF))
    assert seat_stack(hrapoff) == 100 * 100
    assert {seat_stack(load_variant(name)) for name in ("khrap", "frap", "snore")} == {100}
    result = simulate(SimSpec.make(hrapoff, 4, "rule", seed=3, deals=20, chunk=10), workers=1)
    assert result.stats.deals == 20

def _tables() -> list[tuple[str, int]]:
    from khrap.variant.catalog import builtin, builtin_names

    out = []
    for name in builtin_names():
        v = builtin(name)
        out += [(name, n) for n in sorted({v.players.min, min(v.players.max, 6)})]
    return out


@pytest.mark.parametrize(("name", "players"), _tables())
def test_records_agree_with_the_rules_in_every_variant(name: str, players: int) -> None:
    variant = load_variant(name)
    spec = SimSpec.make(variant, players, "random", seed=3, deals=25)
    for rec in play_chunk(spec, 0, keep_records=True).records:
        assert sum(rec.delta) == rec.pot_before - rec.pot_after  # chips are conserved
        assert all(word in variant.calls for _, word in rec.calls)
        active = [c for c in rec.contracts if c.status in ("declarer", "helper")]
        if rec.ending == "play":
            assert len(rec.trick_winners) == variant.hand_size
            assert all(rec.trick_winners.count(c.seat) == c.tricks for c in rec.contracts)
            assert all(c.fulfilled == (c.tricks >= c.need) for c in active)
            assert decided_after(rec) <= variant.hand_size
        if rec.ending in ("play", "lone"):
            assert sum(c.tricks for c in rec.contracts) == variant.hand_size
            assert rec.pot_settle is not None
        assert rec.turn_ups <= rec.all_passes and rec.redeals <= rec.all_passes


# ------------------------------------------------------------ engines
NO_DEBT = Path(__file__).parent / "house-variants" / "frap-no-debt.yaml"


def _both_engines(variant, players: int, deals: int, seed: int = 7):
    runs = []
    for engine in ("auto", "reference"):
        spec = SimSpec.make(variant, players, "random", seed=seed, deals=deals, chunk=100, engine=engine)
        assert spec.compiled == (engine == "auto")
        runs.append(simulate(spec, workers=1, keep_records=True))
    return runs


@pytest.mark.parametrize(("name", "players"), _tables())
def test_compiled_machine_gives_the_reference_numbers(name: str, players: int) -> None:
    """With random bots, ``auto`` runs on the compiled machine, ``reference`` on the kernel: same seed, same
    records deal by deal, same statistics."""
    fast, reference = _both_engines(load_variant(name), players, 200)
    assert fast.records == reference.records
    assert fast.stats == reference.stats
    assert _figures(fast) == _figures(reference)


def test_compiled_machine_starts_new_sessions_as_the_reference() -> None:
    """A table without debts ends its session when nobody can cover a call; both engines start the next
    session of the chunk from the same seed."""
    fast, reference = _both_engines(load_variant(str(NO_DEBT)), 4, 300)
    assert sum(rec.ending == "session_over" for rec in reference.records) >= 3
    assert fast.records == reference.records and fast.stats == reference.stats


def test_engine_choice() -> None:
    variant = load_variant("khrap")
    assert SimSpec.make(variant, 4, "random", seed=1, deals=5).compiled
    assert not SimSpec.make(variant, 4, "random", seed=1, deals=5, engine="reference").compiled
    assert not SimSpec.make(variant, 4, ["random", "rule", "random", "random"], seed=1, deals=5).compiled
    with pytest.raises(ValueError, match="unknown engine"):
        SimSpec.make(variant, 4, "random", seed=1, deals=5, engine="fast")


def test_simulate_command_engine_option() -> None:
    outputs = []
    for engine in ("auto", "reference"):
        result = CliRunner().invoke(app, ["simulate", "snore", "--deals", "30", "--seed", "4", "--workers", "1",
                                          "--json", "--engine", engine])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        outputs.append({k: v for k, v in data.items() if k not in ("seconds", "cpu_seconds", "deals_per_second")})
    assert outputs[0] == outputs[1]
    bad = CliRunner().invoke(app, ["simulate", "khrap", "--deals", "5", "--engine", "fast"])
    assert bad.exit_code == 2 and "--engine" in bad.output


def test_local_tasks_batch_chunks_and_play_each_as_alone() -> None:
    from khrap.sim.pool import batch_size, play_chunks
    from khrap.variant.catalog import builtin

    # 200 chunks on 2 workers: 8 tasks a worker, 200 // 16 = 12 chunks a task; never fewer than one
    assert batch_size(200, 2) == 12
    assert batch_size(3, 2) == 1
    spec = SimSpec.make(builtin("khrap"), 4, "random", seed=5, deals=30, chunk=10)
    together = play_chunks(spec, [0, 1, 2], keep_records=True)
    alone = [play_chunk(spec, i, keep_records=True) for i in range(3)]
    assert [r.records for r in together] == [r.records for r in alone]
    assert [r.stats.summary() for r in together] == [r.stats.summary() for r in alone]


def _decided_by_definition(winners: tuple[int, ...], needs: dict[int, int]) -> int:
    """The first trick count after which every active seat is certain to make or to fail its need, literally."""
    size = len(winners)
    for t in range(size + 1):
        left = size - t
        taken = {seat: winners[:t].count(seat) for seat in needs}
        if all(taken[s] >= need or taken[s] + left < need for s, need in needs.items()):
            return t
    raise AssertionError("every outcome is certain after the last trick")


@pytest.mark.large
@settings(max_examples=examples(200), deadline=None)
@given(hand=st.integers(1, 8), data=st.data())
def test_decided_after_is_the_first_trick_that_settles_every_contract(hand: int, data) -> None:
    seats = 4
    winners = tuple(data.draw(st.lists(st.integers(0, seats - 1), min_size=hand, max_size=hand)))
    statuses = data.draw(st.lists(st.sampled_from(["declarer", "helper", "out"]), min_size=seats, max_size=seats))
    needs = {s: data.draw(st.integers(0, hand)) for s in range(seats) if statuses[s] != "out"}
    contracts = tuple(Contract(s, statuses[s], statuses[s], needs.get(s, 0), winners.count(s), None)
                      for s in range(seats))
    record = DealRecord(seats, hand, 1, 0, (), contracts, (0,) * seats, (100,) * seats, 0, 0, 0, 1, 0, 0, 0, 0,
                        winners, "play")
    assert decided_after(record) == _decided_by_definition(winners, needs)
    assert decided_after(record._replace(ending="lone")) is None


def test_chunks_and_their_sizes() -> None:
    spec = SimSpec.make(load_variant("khrap"), 4, "random", seed=1, deals=250)
    assert spec.chunks() == [(0, 100), (1, 100), (2, 50)]
    assert [spec.chunk_deals(i) for i in range(3)] == [100, 100, 50]
    with pytest.raises(IndexError):
        spec.chunk_deals(3)


def test_a_record_as_plain_data(scripted) -> None:
    data = scripted[0].as_dict()
    assert data["contracts"][1] == {"seat": 1, "label": "khrap", "status": "declarer", "need": 2, "tricks": 2,
                                    "fulfilled": True}
    assert (data["delta"], data["ending"], data["pot_settle"]) == ((-1, 1, 1, -1), "play", 4)
    assert json.loads(json.dumps(data))["trick_winners"] == [1, 1, 2, 2]


def test_chunk_results_merged_in_chunk_order_whatever_order_they_come_in() -> None:
    # A run folds each chunk's result in as soon as every chunk before it has been (memory flat in the
    # number of deals); results that come out of order wait, so the figures are those of chunk order.
    from khrap.sim.runner import merge, play_chunk

    spec = SimSpec.make(load_variant("khrap"), 4, "random", seed=8, deals=70, chunk=10)
    results = [play_chunk(spec, index, True) for index, _ in spec.chunks()]
    shuffled = results[3:] + results[:3][::-1]
    ordered, mixed = merge(spec, iter(results), 1.0, 1), merge(spec, iter(shuffled), 1.0, 1)
    assert _figures(ordered) == _figures(mixed) == _figures(simulate(spec, workers=1, keep_records=True))
    assert ordered.records == mixed.records and len(mixed.records) == 70
