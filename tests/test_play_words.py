"""The terminal's end of the evening as people read it: the winner's line marks the player's own seat "(you)"
("(вы)"), as the settlement's rows do ("← you"), and chips below zero are written with the minus sign (U+2212)
the web page writes, not a hyphen; no change is "0", as the web writes it, not "+0".  Expected strings written
by hand."""

from __future__ import annotations

from khrap.play import Table, run
from khrap.play.game import _stacks, _winners
from khrap.session import Session

MINUS = "\u2212"


def test_the_winner_is_marked_you_when_the_seat_is_the_players() -> None:
    # 112 % 100 is 12, a teen: «фишек»
    assert _winners([94, 112, 80, 99], "ru", [1]) == "Побеждает место 1 (вы): 112 фишек."
    assert _winners([94, 112, 80, 99], "ru", [0]) == "Побеждает место 1: 112 фишек."
    assert _winners([120, 80, 100, 100], "en", [0]) == "Seat 0 (you) wins with 120 chips."
    assert _winners([120, 80, 100, 100], "en", []) == "Seat 0 wins with 120 chips."  # (--watch: nobody's seat)
    assert _winners([101, 99, 101, 99], "en", [2]) == "Seats 0, 2 (you) share the win with 101 chips each."
    assert _winners([101, 99, 101, 99], "ru", [0, 1]) == "Победу делят места 0 (вы), 2: по 101 фишке."


def test_chips_below_zero_are_written_with_the_minus_sign() -> None:
    assert _stacks([-8, 108, 0], "en") == f"seat 0: {MINUS}8, seat 1: 108, seat 2: 0"
    assert _stacks([-8, 108], "ru") == f"место 0: {MINUS}8, место 1: 108"


def _first_settlement(seed: int) -> tuple[Session, list[str], list[str]]:
    """A khrap deal at the terminal (seat 0 a person answering "1", rule bots), in English: the session, the
    screen's lines and the four rows of its settlement table."""
    out: list[str] = []
    game = Session("khrap", 4, seed=seed)
    assert run(game, Table(humans=[0], bots="rule", deals=1, lang="en"), read=lambda _p: "1", write=out.append)
    lines = "\n".join(out).splitlines()
    head = next(i for i, line in enumerate(lines) if line.split() == ["seat", "before", "after", "change"])
    return game, lines, lines[head + 1:head + 5]


def test_the_settlements_changes_use_the_minus_sign_and_the_winner_line_says_you() -> None:
    game, lines, rows = _first_settlement(5)
    changes = [row.split()[4] for row in rows]  # "seat", "0", before, after, change
    assert any(change.startswith(MINUS) for change in changes) and not any("-" in row for row in rows), rows
    for row in rows:  # each change is after - before, in the sign people read
        before, after = int(row.split()[2]), int(row.split()[3])
        assert row.split()[4] == (f"{after - before:+}".replace("-", MINUS) if after != before else "0")
    winner = next(line for line in lines if " wins with " in line or " share the win " in line)
    assert ("(you)" in winner) == (game.stacks[0] == max(game.stacks)), winner


def test_a_negative_winner_and_the_logs_stacks_use_the_minus_sign() -> None:
    # every stack below zero (a table with debts): the best is -1 chip, written "−1", in both languages
    assert _winners([-3, -5, -1, -7], "en") == f"Seat 2 wins with {MINUS}1 chip."  # (the form of one, as in Russian)
    assert _winners([-3, -1, -1, -7], "ru", [1]) == f"Победу делят места 1 (вы), 2: по {MINUS}1 фишке."
    # the game log's settled line and the record's story, as the terminal's own stacks line writes them
    from khrap.engine.events import Settled
    from khrap.gamelog import listed

    line = Settled(None, {"stacks": (98, -3, 0, 105), "pot": 0}).render("en")
    assert line == f"deal settled; stacks 98, {MINUS}3, 0, 105; pot 0"
    assert listed([-12, 4]) == f"{MINUS}12, 4"


def test_a_seat_whose_chips_did_not_change_reads_0_not_plus_0() -> None:
    # The web's settlement writes no change as "0" and the log every payment unsigned ("pays 0"); the
    # terminal wrote "+0".  With seed 1 and rule bots, seat 2 ends the first deal as it began, 100 chips.
    rows = [row.split() for row in _first_settlement(1)[2]]
    assert rows[2][:4] == ["seat", "2", "100", "100"] and rows[2][4] == "0", rows
    assert all(row[4] != "+0" for row in rows), rows
