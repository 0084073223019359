"""The whole analysis in Russian (`analyze --lang ru`): the report page and the terminal, display names, no ids."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from khrap.cli import app

FIVE_SIX = str(Path(__file__).parents[1] / "docs" / "house-rules" / "khrap-five-six.yaml")
IDS = ("take-five", "khrap (overridden)", "forced helper", "forced declarer", "first speaker", "heuristic")


def _analyze(tmp_path: Path, lang: str) -> tuple[str, str]:
    out = tmp_path / f"{lang}.html"
    res = CliRunner().invoke(app, ["analyze", "khrap", FIVE_SIX, "--deals", "40", "--evening", "10", "--workers",
                                   "1", "--bots", "normal", "--lang", lang, "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out.read_text(encoding="utf-8"), res.stdout


def test_the_report_and_the_terminal_speak_russian(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    page, text = _analyze(tmp_path, "ru")
    assert '<html lang="ru">' in page
    for heading in ("Вечер за столом", "Меры устройства игры", "Сказанные заявки", "Справедливость мест",
                    "Распределение банка", "Как считаются меры", "Вывод."):
        assert heading in page
    assert "Что меняется, «Храп, пять и шесть" in text or "Что меняется, «" in text
    # the headings and notes of the English page are gone, and no call id shows: neither on the page (its plots
    # included) nor on the terminal
    for english in ("An evening at the table", "Game-design measures", "What it means", "How the measures"):
        assert english not in page
    visible = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    for word in IDS:
        assert word not in visible, word
        assert word not in text, word
    assert "Вывод:" in text and "Что меняется" in text and "Вечер из 10 раздач" in text


def test_english_stays_english(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    page, text = _analyze(tmp_path, "en")
    assert '<html lang="en">' in page and "An evening at the table" in page and "Verdict:" in text
    assert "Вечер" not in page
