"""The Python API (docs/api.md): the runnable example, and the promises it makes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from khrap.session import IllegalAction, Session, load_variant

ROOT = Path(__file__).resolve().parents[1]
DECK = "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"


def test_the_documented_example_runs() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "examples" / "api_example.py")],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "refused: help needs a khrap" in result.stdout
    assert "after deal 1:" in result.stdout


def test_docs_name_every_public_method() -> None:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    public = [name for name in dir(Session) if not name.startswith("_")]
    missing = [name for name in public if f"`{name}" not in text and f".{name}" not in text]
    assert not missing, f"docs/api.md does not describe: {missing}"


def test_apply_records_canonical_text_and_refuses_with_reasons() -> None:
    game = Session("khrap", 4, seed=1, decks=[DECK])
    with pytest.raises(IllegalAction, match="no deal is in progress"):
        game.apply("khrap")  # no deal has begun
    game.start_deal()
    with pytest.raises(IllegalAction, match="not seat 2's turn; seat 1 is to act"):
        game.apply("khrap", seat=2)
    with pytest.raises(IllegalAction, match="deal in progress"):
        game.start_deal()
    for text in ("khrap", "help", "pass", "pass", "pass", "pass"):
        game.apply(text)
    assert game.apply("exchange 6d 7c") == "exchange 6D 7C"
    assert game.actions[-1] == (1, "exchange 6D 7C")
    with pytest.raises(IllegalAction, match="not a card"):
        game.apply("exchange ZZ")


def test_clone_is_independent() -> None:
    game = Session("khrap", 4, seed=5)
    game.start_deal()
    copy = game.clone()
    copy.apply(copy.legal_actions()[0])
    assert len(game.actions) == 0 and len(copy.actions) == 1
    assert game.observation(game.to_act) != copy.observation(game.to_act)


def test_restore_gives_the_same_observations_and_legal_actions() -> None:
    game = Session(load_variant("snore"), 4, seed=8, name="snore")
    game.start_deal()
    for _ in range(5):
        game.apply(game.legal_actions()[-1])
    again = Session.from_record(json.loads(json.dumps(game.to_record())))
    assert again.variant_name == "snore" and again.seed == 8
    assert [again.observation(s) for s in range(4)] == [game.observation(s) for s in range(4)]
    assert again.legal_words() == game.legal_words() and again.to_act == game.to_act


def test_a_hand_written_record_needs_only_a_few_fields() -> None:
    record = {"variant": "khrap", "players": 4, "decks": [DECK], "actions": ["1 khrap", [2, "help"]]}
    game = Session.from_record(record)
    assert game.observation(2)["calls"] == [None, "khrap", "help", None]
    assert game.observation(1)["hand"] == ["AS", "KH", "6D", "7C"]


def test_unseeded_sessions_choose_and_keep_a_seed() -> None:
    game = Session("khrap", 3)
    game.start_deal()
    again = Session.from_record(game.to_record())
    assert again.seed == game.seed and again.observation(0) == game.observation(0)
