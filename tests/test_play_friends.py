"""The terminal game in Russian as friends read it (stop 41: `khrap play khrap --lang ru`, four deals): each
test here failed before its fix."""

from __future__ import annotations

import re

from khrap.play import Table, run
from khrap.session import Session

NESTED = re.compile(r"\([^()]*\(")
"""A parenthesis opened inside another one."""


def _evening(lang: str, deals: int = 4) -> list[str]:
    """Khrap of four (seed 5), seat 0 a person who always takes the first choice; every line printed."""
    out: list[str] = []
    game = Session("khrap", 4, seed=5)
    assert run(game, Table(humans=[0], bots="rule", deals=deals, lang=lang), read=lambda _p: "1", write=out.append)
    return "\n".join(out).splitlines()


def test_a_penalty_line_nests_no_parentheses_and_guesses_no_gender() -> None:
    # «место 1 платит 2 (провалился (храпящий): 0 взяток); банк 2»: the reason in parentheses held the status in
    # its own, and «провалился» is a man's verb (a seat's player may be anybody).  Lithuanian, Finnish and
    # Armenian nested the same.
    for lang in ("ru", "lt", "fi", "hy"):
        lines = _evening(lang)
        assert [line for line in lines if NESTED.search(line)] == [], lang
    lines = _evening("ru")
    penalties = [line.strip() for line in lines if " платит " in line and "провал" in line]
    said = re.compile(r"место \d платит \d+: провал \((храпящий|помогающий)\), \d+ взят\w*; банк \d+")
    assert penalties and all(said.fullmatch(line) for line in penalties), penalties
    assert not any("провалился" in line for line in lines)


def test_a_seat_that_has_not_spoken_is_deciding_not_a_man_who_has_not() -> None:
    # The table's status column said «не решил» (a man's past tense) of every seat still to speak.
    from khrap.play.screen import render

    game = Session("khrap", 4, seed=5)
    game.start_deal()
    screen = render(game, 0, "ru")
    assert "не решил" not in screen
    assert re.search(r"^> место \d +99 +0  решает ", screen, re.M), screen


def test_the_evenings_end_names_each_seats_chips_and_the_winner() -> None:
    # «Игра окончена после 4 сдач: фишки [94, 94, 112, 99], банк 1.»: a Python list, and nobody said who won.
    lines = [line.strip() for line in _evening("ru")]
    end = next(i for i, line in enumerate(lines) if line.startswith("Игра окончена"))
    said = re.fullmatch(r"Игра окончена после 4 сдач: место 0: (-?\d+), место 1: (-?\d+), место 2: (-?\d+), "
                        r"место 3: (-?\d+); банк (\d+)\.", lines[end])
    assert said, lines[end]
    stacks = [int(n) for n in said.groups()[:4]]
    best = max(stacks)
    winners = [seat for seat, chips in enumerate(stacks) if chips == best]
    assert len(winners) == 1, stacks  # (this evening has one winner)
    teen = best % 100 // 10 == 1
    form = "фишка" if best % 10 == 1 and not teen else "фишки" if 2 <= best % 10 <= 4 and not teen else "фишек"
    assert lines[end + 1] == f"Побеждает место {winners[0]}: {best} {form}."


def test_the_tricks_at_the_settlement_do_not_run_a_seat_into_its_count() -> None:
    # «расчёт: банк 4; взятки: место 1 0, место 2 3, место 3 0, место 0 1»: two numbers side by side, a seat's
    # and its tricks'.  (Armenian said «տեղ 1՝ 0» already.)
    for lang, seat in (("ru", "место"), ("lt", "vieta"), ("fi", "paikka")):
        lines = [line.strip() for line in _evening(lang, deals=1)]
        told = [line for line in lines if re.search(rf"{seat} \d \d", line)]
        assert told == [], (lang, told)
    lines = [line.strip() for line in _evening("ru", deals=1)]
    assert any(re.fullmatch(r"расчёт: банк \d+; взятки: место \d — \d(, место \d — \d)*", line) for line in lines)
