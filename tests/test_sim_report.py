"""The balance report: two variants side by side, every plot inline, numbers in tables beside them."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from khrap.cli import app

pytest.importorskip("matplotlib", reason="the report needs the `report` extra: pip install 'khrap[report]'")

MUST_BEAT = str(Path(__file__).parents[1] / "docs" / "house-rules" / "khrap-must-beat.yaml")
PLOTS = ("measures", "calls", "success", "results", "seats", "pot", "swing")


def test_report_renders_for_two_variants(tmp_path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(app, ["analyze", "khrap", MUST_BEAT, "--deals", "40",
                                      "--chunk", "20", "--workers", "1", "--seed", "3", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Khrap vs Khrap, must beat" in page
    for plot in PLOTS:
        start = page.index(f'id="plot-{plot}"')
        assert page.index("<svg", start) < page.index("</figure>", start), plot
    assert page.count("<svg") == len(PLOTS) + 1 + 2  # and the paired differences, an evening per variant
    for outside in ("<script", "<link", "src=", 'href="http', "url(http"):  # self-contained: nothing is fetched
        assert outside not in page, outside
    for heading in ("Call success rates", "Results per call", "Seat fairness", "Pot distribution", "Swing per deal"):
        assert heading in page
    assert "1: Khrap" in page and "2: Khrap, must beat" in page  # tables name both variants
    assert "decisiveness" in page and "drama" in page and "fairness" in page


def test_report_is_the_same_for_the_same_seed(tmp_path) -> None:
    pages = []
    for workers in ("1", "2"):
        out = tmp_path / f"r{workers}.html"
        args = ["analyze", "frap", "--deals", "40", "--chunk", "10", "--workers", workers, "-o", str(out)]
        assert CliRunner().invoke(app, args).exit_code == 0
        text = out.read_text(encoding="utf-8")
        pages.append(text[text.index("<h2"):])  # the header tells speeds and workers
    assert pages[0] == pages[1]


def test_the_reports_english_does_not_call_every_player_he() -> None:
    # "the player at the dealer's left (he speaks first)", "the chips he takes home minus his stack", "by his
    # hand as dealt": players are not all "he" (the Russian keeps its own grammar).
    import re

    from khrap.sim.report_words import ENGLISH, RU
    from khrap.sim.table_words import TEXT
    from khrap.sim.verdict import WORDS

    english = [*ENGLISH.values(), *RU, *TEXT["en"].values(), *(text for entry in WORDS.values() for text in entry[:2])]
    assert len(english) > 100
    assert [t for t in english if re.search(r"\b(he|him|his|himself)\b", t, re.IGNORECASE)] == []
