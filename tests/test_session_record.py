"""Records: a session replays to exactly the same stacks, `khrap replay` tells it, and a scenario derived
from it (whole, or one deal) runs to the same stacks with `khrap run`."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from khrap.bots import decision_rng, make_bot
from khrap.scenario import load_scenario
from khrap.scenario import run as run_scenario
from khrap.session import RecordError, Session, load_record
from khrap.session.to_scenario import record_to_scenario

CONTRACT_DECK = "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"
CONTRACT_DEAL = ["khrap", "help", "pass", "pass", "pass", "pass", "exchange 6D 7C", "exchange 8C",
                 "play KH", "play 6H", "play AS", "play 6S", "play KS", "play QH", "play AD", "play QS"]
# Seat 1 wins KH/6H and AS/6S, seat 2 trumps KS with QH and wins AD/QS.  P = 4 (the antes): each trick
# pays 4 // 4 = 1; nobody failed; stacks 99 + 2 for seats 1 and 2, 99 for seats 0 and 3; pot 0.
CONTRACT_STACKS = [99, 101, 101, 99]


def khrap(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "khrap.cli", *args], capture_output=True, text=True)


def bot_deals(session: Session, deals: int, kinds: tuple[str, ...] = ("rule", "random")) -> list[list[int]]:
    """Play ``deals`` deals with bots; the stacks after each."""
    bots = [make_bot(kinds[seat % len(kinds)], session.rules) for seat in range(session.players)]
    after = []
    for _ in range(deals):
        session.start_deal()
        while not session.deal_over:
            seat = session.to_act
            rng = decision_rng(session.seed, len(session.actions))
            session.apply(bots[seat].choose(session.observation(seat), session.legal_actions(), rng))
        after.append(session.stacks)
    return after


def scenario_stacks(path: Path) -> tuple[list[int], int]:
    result = khrap("run", str(path), "--json")
    assert result.returncode == 0, result.stderr  # its expect: holds too
    data = json.loads(result.stdout)
    return data["stacks"], data["pot"]


def test_hand_checked_deal_replays_and_becomes_the_same_scenario(tmp_path: Path) -> None:
    game = Session("khrap", 4, seed=0, decks=[CONTRACT_DECK])
    game.start_deal()
    for text in CONTRACT_DEAL:
        game.apply(text)
    assert game.stacks == CONTRACT_STACKS and game.pot == 0
    game.save(tmp_path / "deal.json")
    assert Session.load(tmp_path / "deal.json").stacks == CONTRACT_STACKS
    result = khrap("replay", str(tmp_path / "deal.json"), "--scenario", "-o", str(tmp_path / "deal.yaml"))
    assert result.returncode == 0, result.stderr
    assert scenario_stacks(tmp_path / "deal.yaml") == (CONTRACT_STACKS, 0)
    scenario = load_scenario(tmp_path / "deal.yaml")
    assert [" ".join([str(s.seat), s.text]) for s in scenario.actions][:2] == ["1 khrap", "2 help"]


def test_bot_session_record_and_derived_scenarios_reach_the_same_stacks(tmp_path: Path) -> None:
    game = Session("khrap", 4, seed=21)
    after = bot_deals(game, 3)
    game.start_deal()
    for _ in range(3):  # and a few actions into deal 4
        game.apply(game.legal_actions()[0])
    path = tmp_path / "session.json"
    game.save(path)
    assert Session.load(path).stacks == game.stacks

    told = khrap("replay", str(path))
    assert told.returncode == 0, told.stderr
    assert "Deal 3: seat 2 deals" in told.stdout and "Deal 4 is in progress" in told.stdout
    assert f"stacks {', '.join(map(str, game.stacks))}" in told.stdout  # (a Python list, "[99, 101, ...]", before)

    whole = tmp_path / "whole.yaml"
    assert khrap("replay", str(path), "--scenario", "-o", str(whole)).returncode == 0
    assert scenario_stacks(whole) == (game.stacks, game.pot)
    for deal in (1, 2, 3):
        one = tmp_path / f"deal{deal}.yaml"
        assert khrap("replay", str(path), "--scenario", "--deal", str(deal), "-o", str(one)).returncode == 0
        assert scenario_stacks(one)[0] == after[deal - 1]


def test_a_deal_dealt_without_ante_brings_the_deal_before_it(tmp_path: Path) -> None:
    # Seat 1 is dealt the four aces (dealer 0 deals seat 1 first, every fourth card); TS turned.
    # Deal 1: antes make the pot 4; 1 khrap, 2 help, the others pass; nobody exchanges; four aces:
    # seat 1 takes the pot (99 + 4 = 103), the helper pays his stake 1 (98): pot 1, so deal 2 has no ante.
    game = Session("khrap", 4, seed=4, decks=["AS 6S 6H 6D AH 7S 7H 7D AD 8S 8H 8D AC 9S 9H 9D TS"])
    game.start_deal()
    for text in ("khrap", "help", "pass", "pass", "pass", "pass", "exchange", "exchange"):
        game.apply(text)
    assert game.stacks == [99, 103, 98, 99] and game.pot == 1
    bot_deals(game, 1)
    files = record_to_scenario(game.to_record(), deal=2)
    text = files[None]
    assert text.startswith("# Deals 1 to 2 of a recorded khrap session")
    path = tmp_path / "deal2.yaml"
    path.write_text(text)
    state = run_scenario(load_scenario(path))
    assert state.stacks == game.stacks and state.pot == game.pot


def test_house_rules_record_restores_without_its_file(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: khrap\nname: {en: 'Khrap, must beat'}\nplay:\n  must_beat: true\n")
    game = Session(house, 4, seed=9)
    bot_deals(game, 2)
    record = game.to_record()
    house.unlink()  # the record carries the resolved variant
    restored = Session.from_record(json.loads(json.dumps(record)))
    assert restored.variant.play.must_beat and restored.stacks == game.stacks
    with pytest.raises(RecordError, match="-o FILE"):
        record_to_scenario(record)
    out = tmp_path / "s.yaml"
    for path, body in record_to_scenario(record, out=out).items():
        path.write_text(body)
    assert (tmp_path / "s.variant.yaml").is_file()
    assert scenario_stacks(out) == (game.stacks, game.pot)


def test_a_record_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    game = Session("khrap", 4, seed=2)
    bot_deals(game, 1)
    record = game.to_record()
    wrong = json.loads(json.dumps(record))
    wrong["result"]["stacks"][0] += 1
    with pytest.raises(RecordError, match="does not replay to its result: stacks"):
        Session.from_record(wrong)
    wrong = json.loads(json.dumps(record))
    wrong["actions"][0][1] = "help"
    with pytest.raises(RecordError, match="action 1"):
        Session.from_record(wrong)
    wrong = json.loads(json.dumps(record))
    wrong["seed"] = 3
    with pytest.raises(RecordError):
        Session.from_record(wrong)
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(RecordError, match="broken.json:1:2"):
        load_record(path)
    result = khrap("replay", str(path))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_replays_deal_head_writes_the_stacks_as_a_reader_does() -> None:
    # The head of each deal told by `khrap replay` gives the stacks before its ante seat by seat, "90, 100, 110",
    # as the setup line and the settlement do (b10ce31); it printed a Python list, "stacks [90, 100, 110]",
    # and «фишки [90, 100, 110]» in Russian.  Three seats given 90, 100 and 110 chips; seat 0 deals first.
    from khrap.session.narrate import narrative

    game = Session("khrap", 3, seed=0, stacks=[90, 100, 110])
    game.start_deal()
    lines = {lang: narrative(game.to_record(), lang=lang).splitlines() for lang in ("en", "ru")}
    assert "Deal 1: seat 0 deals; stacks 90, 100, 110, pot 0" in lines["en"]
    assert "Сдача 1: сдаёт место 0; фишки 90, 100, 110, банк 0" in lines["ru"]
    assert not any("[" in line for line in lines["en"] + lines["ru"])


def test_a_replay_after_a_settled_deal_ends_with_the_stacks_as_a_reader_writes_them() -> None:
    # One deal played to its end: the replay's closing line is "After 1 deals: stacks A, B, C, pot P." (no Python
    # list), and the 300 chips the three seats began with are all there, in the stacks and the pot.
    import re

    from khrap.session.narrate import narrative

    game = Session("khrap", 3, seed=0, stacks=[90, 100, 110])
    bot_deals(game, 1)
    [last] = [line for line in narrative(game.to_record()).splitlines() if line.startswith("After ")]
    found = re.fullmatch(r"After 1 deals: stacks (\d+), (\d+), (\d+), pot (\d+)\.", last)
    assert found is not None, last
    assert sum(map(int, found.groups())) == 300


def test_a_replay_in_the_middle_of_a_deal_gives_the_locked_stakes_as_a_reader_writes_them() -> None:
    # 52-card Khrap, four seats, seat 0 deals: each antes 1 (pot 4, stacks 99); seats 1 and 2 pass and seat 3 calls
    # khrap, whose stake is locked at once, 2 x the pot = 8 (his stack 91).  The line of where the replay stands gives
    # the locked stakes seat by seat as it gives the stacks (a Python list, "[0, 0, 0, 8]", before b10ce31).
    from khrap.session.narrate import narrative

    game = Session("khrap-52", 4, seed=0)
    game.start_deal()
    for seat, text in ((1, "pass"), (2, "pass"), (3, "khrap")):
        game.apply(text, seat)
    assert "Deal 1 is in progress (bidding, seat 0 to act): stacks 99, 99, 99, 91, pot 4, locked 0, 0, 0, 8." in \
        narrative(game.to_record()).splitlines()
