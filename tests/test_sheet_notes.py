"""Issue 16: table rules the engine cannot play, the `notes:` field (guards khrap/variant/schema.py's
`notes`, its box in templates/sheet.*.j2 and its entries in khrap/rulebook/diff.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from khrap.rulebook.render import FORMATS
from khrap.rulebook.sheet import render_diff, render_rules

ROOT = Path(__file__).resolve().parents[1]
HOUSE = """extends: khrap
name: {en: At Anna's, ru: У Анны}
notes:
  - {en: "Whoever loses most in an evening brings the snacks.", ru: "Кто больше всех проиграл, несёт закуску."}
  - {en: "Nobody loses more than 50 chips in an evening."}
"""


@pytest.fixture
def house(tmp_path: Path) -> Path:
    path = tmp_path / "anna.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", FORMATS)
def test_notes_are_printed_in_their_own_box(house: Path, fmt: str) -> None:
    text = " ".join(render_rules(str(house), fmt, "en").split())
    assert "Table rules (agreed at the table; the program does not enforce them)".upper() in text.upper()
    assert "Whoever loses most in an evening brings the snacks." in text
    assert "Nobody loses more than 50 chips in an evening." in text
    if fmt == "html":
        assert '<aside class="box notes">' in text


def test_a_note_not_translated_prints_in_english(house: Path) -> None:
    text = " ".join(render_rules(str(house), "txt", "ru").split())
    assert "Кто больше всех проиграл, несёт закуску." in text
    assert "Nobody loses more than 50 chips in an evening." in text  # never silently dropped


def test_diff_lists_the_notes(house: Path) -> None:
    text = " ".join(render_diff("khrap", str(house)).split())
    assert text.count("* Table rules") == 2
    assert "+ At Anna's: Whoever loses most in an evening brings the snacks." in text
    result = subprocess.run([sys.executable, "-m", "khrap.cli", "diff", "khrap", str(house)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0 and "Nobody loses more than 50 chips" in result.stdout


def test_notes_do_not_change_play(house: Path) -> None:
    from khrap.variant.catalog import builtin, load_variant

    plain, noted = builtin("khrap").model_dump(), load_variant(house).model_dump()
    for key in ("notes", "name"):
        plain.pop(key), noted.pop(key)
    assert plain == noted


def test_a_note_is_text_not_markup(tmp_path: Path) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text("extends: khrap\nname: {en: X}\nnotes:\n  - {en: '<script>alert(1)</script> | *b*'}\n",
                    encoding="utf-8")
    html = render_rules(str(path), "html", "en")
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    md = render_rules(str(path), "md", "en")
    assert "\\| \\*b\\*" in md
