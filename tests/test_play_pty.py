"""`khrap play` in a pseudo-terminal: a whole deal typed at the keyboard, invalid input answered, the right settlement.

The deal is the CONTRACT.md example deck (tests/scenarios/khrap/contract_example.yaml), started from a
hand-written record so that the cards are fixed; four people share the keyboard (`--seat` for each seat).
"""

import io
import json
import re
import signal
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from khrap.session import Session, load_record  # noqa: E402

DECK = "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"


def spawn(*args: str, cwd: Path) -> "pexpect.spawn":
    return pexpect.spawn(sys.executable, ["-m", "khrap.cli", *args], cwd=str(cwd), encoding="utf-8",
                         timeout=90, dimensions=(60, 200))


def write_start(path: Path, humans: list[int], deals: int = 1) -> None:
    record = {"format": "khrap-record", "version": 1, "variant": "khrap", "players": 4, "dealer": 0,
              "stacks": 100, "decks": [DECK], "table": {"humans": humans, "deals": deals}}
    path.write_text(json.dumps(record))


def test_a_typed_deal_with_an_invalid_input_ends_with_the_right_settlement(tmp_path: Path) -> None:
    # Dealer 0 deals one card at a time from seat 1: seat 1 AS KH 7C 6D, seat 2 QH 6S 8C AD,
    # seat 3 7S 8S 9S TS, seat 0 JS 6C 7D 8D; 9H is turned: hearts are trump.  The stock then
    # holds the unlisted cards in canonical order: QS KS 6H 7H ...
    start = tmp_path / "table.json"
    write_start(start, humans=[0, 1, 2, 3])
    child = spawn("play", "--resume", str(start), cwd=tmp_path)
    child.logfile_read = transcript = io.StringIO()
    steps = [
        (1, "khrap"), (2, "help"), (3, "pass"), (0, "pass"),  # bidding; the passers' cards go
        (3, "2"), (0, "pass"),  # "Fives?": seat 3 picks choice 2 (pass) by number
        (1, "exchange 6D 7C"),  # draws QS KS: AS KH QS KS
        (2, "exchange 8C"),  # draws 6H: QH 6S AD 6H
        (1, "play KH"),
        (2, "play AD"),  # invalid: seat 2 holds hearts and must follow suit
        (2, "play 6H"),  # KH wins
        (1, "play AS"), (2, "play 6S"),  # AS wins
        (1, "play KS"), (2, "play QH"),  # void in spades, seat 2 trumps and wins
        (2, "play AD"), (1, "play QS"),  # seat 1 is void in diamonds and trumps: AD wins
    ]
    for seat, text in steps:
        child.expect_exact(f"seat {seat}> ")
        if text == "2":
            assert "2) pass" in child.before
        child.sendline(text)
    child.expect(pexpect.EOF)
    child.close()
    out = transcript.getvalue().replace("\r\n", "\n")
    assert child.exitstatus == 0, out
    assert "seat 2 must follow suit" in out and "; legal: " in out  # the reason and the legal choices
    # Tricks: seat 1 two (KH, AS), seat 2 two (KS trumped, AD).  P = 4 (the antes): each trick pays
    # 4 // 4 = 1; nobody failed (declarer 2 >= 2, helper 2 >= 1): seats 1 and 2 gain 2 - 1 = +1,
    # seats 0 and 3 lose their ante.  Final stacks [99, 101, 101, 99], pot 0.
    assert "deal 1 settled" in out
    assert "seat 1 takes 2 (2 tricks" in out and "seat 2 takes 2 (2 tricks" in out
    minus = "\u2212"  # (the minus sign people read, not a hyphen)
    for seat, after, change in ((0, 99, f"{minus}1"), (1, 101, "+1"), (2, 101, "+1"), (3, 99, f"{minus}1")):
        assert re.search(rf"seat {seat}\s+100\s+{after}\s+{re.escape(change)}  ← you", out), out
    assert "The session is over after 1 deal: seat 0: 99, seat 1: 101, seat 2: 101, seat 3: 99; pot 0." in out
    assert "Seats 1 (you), 2 (you) share the win with 101 chips each." in out  # (the four seats are people here)
    restored = Session.from_record(load_record(start))  # the saved record replays to the same stacks
    assert restored.stacks == [99, 101, 101, 99] and restored.pot == 0


def test_you_against_three_bots_by_number_and_ctrl_c(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    child = spawn("play", "khrap", "--seed", "3", "--save", str(save), cwd=tmp_path)
    child.expect_exact("You play seat 0; normal bots play the other 3.")
    for _ in range(3):
        child.expect_exact("seat 0> ")
        screen = child.before
        assert "your hand (seat 0)" in screen
        assert "deals 4 cards each (" not in screen  # nobody else's cards are ever shown
        child.sendline("1")
    child.expect_exact("seat 0> ")
    child.sendintr()  # Ctrl-C at the prompt
    child.expect_exact("You stopped the session.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    restored = Session.from_record(load_record(save))
    assert sum(restored.stacks) + restored.pot + sum(restored.state.locked) == 400


def test_quit_words_and_end_of_input(tmp_path: Path) -> None:
    for word in ("q", "quit", None):
        child = spawn("play", "khrap", "--seed", "3", cwd=tmp_path)
        child.expect_exact("seat 0> ")
        if word is None:
            child.sendeof()
        else:
            child.sendline(word)
        child.expect_exact("You stopped the session.")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0 and child.signalstatus != signal.SIGKILL
