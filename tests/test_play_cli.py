"""`khrap play` and `khrap replay` without a terminal: any input is answered, never a crash; option mistakes
give one line and exit 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from khrap.session import Session, load_record


def khrap(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "khrap.cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def test_any_input_is_answered_with_a_reason(tmp_path: Path) -> None:
    lines = ["", "foo", "play ZZ", "99", "0", "exchange", "look", "help me", "?", "trump X", "q"]
    result = khrap("play", "khrap", "--seed", "3", "--save", str(tmp_path / "s.json"), stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert "unknown call 'foo'; legal: " in out
    assert "'ZZ' is not a card" in out
    assert "there is no choice 99" in out and "there is no choice 0" in out
    assert "look is legal only while a blind call is open to you" in out
    assert "You stopped the session." in out
    assert "exchange is not allowed now; seat 0 must make a call" in out and "'help' does not take 'me'" in out
    actions = load_record(tmp_path / "s.json")["actions"]
    assert len(actions) == 3 and all(seat != 0 for seat, _ in actions)  # the bots spoke; seat 0 did nothing


def test_watch_runs_the_given_number_of_deals(tmp_path: Path) -> None:
    result = khrap("play", "frap", "--watch", "--players", "3", "--seed", "2", "--deals", "2", "--bots", "random",
                   "--save", str(tmp_path / "w.json"))
    assert result.returncode == 0, result.stderr
    assert "Random bots play every seat; you watch." in result.stdout
    assert "deal 1 settled" in result.stdout and "deal 2 settled" in result.stdout
    assert "The session is over after 2 deals" in result.stdout
    game = Session.load(tmp_path / "w.json")
    assert game.deals_completed == 2 and game.table == {"humans": [], "bots": "random", "deals": 2}
    told = khrap("replay", str(tmp_path / "w.json"), "--deal", "2")
    assert told.returncode == 0 and "Deal 2: seat 1 deals" in told.stdout and "Deal 1:" not in told.stdout


def test_a_house_rules_file_can_be_played(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: khrap\nplay:\n  must_beat: true\n")
    result = khrap("play", str(house), "--watch", "--deals", "1", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "deal 1 settled" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give a VARIANT to start a session, or --resume FILE"),
        (("khrap", "--players", "9"), "for 2 to 5 players, not 9"),
        (("khrap", "--seat", "4"), "--seat 4: seats are 0 to 3"),
        (("khrap", "--bots", "clever"), "unknown bot kind 'clever'"),
        (("krap",), "krap"),
        (("--resume", "missing.json"), "missing.json"),
        (("--resume", "bad.json"), "bad.json:1:1: not a JSON record"),
        (("--resume", "wrong.json", "--seed", "3"), "--seed and --players belong to the saved session"),
    ],
)
def test_option_mistakes_give_one_line(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    (tmp_path / "bad.json").write_text("nonsense")
    (tmp_path / "wrong.json").write_text(json.dumps({"variant": "khrap"}))
    result = khrap("play", *args, cwd=tmp_path)
    assert result.returncode == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_a_wrong_number_where_one_choice_is_offered_says_the_one() -> None:
    # Frap in Russian (seed 5): after «фрап» the exchange offers one choice, «1) меняю»; a 9 typed was answered
    # «выберите от 1 до 1».
    result = khrap("play", "frap", "--lang", "ru", "--seed", "5", stdin="фрап\n9\nq\n")
    assert result.returncode == 0, result.stderr
    assert "варианта 9 нет; есть только 1, или введите действие" in result.stdout
    assert "от 1 до 1" not in result.stdout


def test_an_old_bot_name_is_said_by_its_strength_in_the_players_language() -> None:
    # `--bots heuristic --lang ru` welcomed with «играют боты (Heuristic)»: the old names are accepted, but the
    # Russian sentence named the bot in English; simulate's header says «боты: обычные» for the same kind.
    said = {}
    for kind in ("heuristic", "normal", "rule"):
        result = khrap("play", "khrap", "--watch", "--seed", "2", "--deals", "1", "--bots", kind, "--lang", "ru")
        assert result.returncode == 0, result.stderr
        said[kind] = result.stdout.splitlines()[0]
    assert "(Обычные)" in said["normal"] and said["heuristic"] == said["normal"]
    assert "(Лёгкие)" in said["rule"]
    assert not any(word in line for line in said.values() for word in ("Heuristic", "Rule"))
    # English too: the player chose the bots by strength (the old names mean easy/normal/strong), so the welcome
    # says the strength, never the bot's inner name ("Heuristic bots play every seat")
    english = khrap("play", "khrap", "--watch", "--seed", "2", "--deals", "1", "--bots", "heuristic")
    assert "Normal bots play every seat; you watch." in english.stdout.splitlines()[0]
    assert "Heuristic" not in english.stdout
