"""A house rule whose names hold a bidi override, embedding or isolate is refused where the file is read: a web
table showed the title "Пятница\u202eEVIL_TABLE" reversed, and an unclosed override reversed the text beside it.
The marks (U+200E, U+200F, U+061C) only nudge the text around them and are kept.  Expected lines by hand."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from khrap.cli import app
from khrap.safe_text import BIDI_CONTROLS
from khrap.web.host import readable

runner = CliRunner()
OVERRIDE_EN = ("a bidirectional control character U+202E (RIGHT-TO-LEFT OVERRIDE) in a name or text: it would "
               "reorder the text around it wherever it is shown; remove it")
OVERRIDE_RU = ("управляющий символ направления текста U+202E (RIGHT-TO-LEFT OVERRIDE) в имени или тексте: он "
               "переставит текст вокруг себя везде, где его покажут; удалите его")
# `name: {en: "` is 12 characters and Пятница 7: the override is the 20th character of line 2
HOSTILE = 'extends: khrap\nname: {en: "Пятница\u202eEVIL_TABLE"}\n'


def _validate(tmp_path: Path, text: str, *lang: str) -> tuple[Path, int, str]:
    path = tmp_path / "friday.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path), *lang])
    return path, result.exit_code, result.stderr


def test_an_override_in_a_title_is_refused_in_english_and_russian(tmp_path: Path) -> None:
    path, code, err = _validate(tmp_path, HOSTILE)
    assert (code, err) == (2, f"{path}:2:20: {OVERRIDE_EN}\n")
    path, code, err = _validate(tmp_path, HOSTILE, "--lang", "ru")
    assert (code, err) == (2, f"{path}:2:20: {OVERRIDE_RU}\n")


def test_an_isolate_in_a_call_name_and_an_escaped_embedding_are_refused(tmp_path: Path) -> None:
    path, code, err = _validate(tmp_path, "extends: khrap\ncalls:\n  sa\u2067d: {enabled: false}\n")
    assert code == 2 and err.startswith(f"{path}:3:5: a bidirectional control character U+2067 (RIGHT-TO-LEFT "
                                        "ISOLATE) in a name or text"), err
    # written as an escape, the character is not in the file's text: the value it is in is located
    path, code, err = _validate(tmp_path, 'extends: khrap\nterms: {en: {pot: "bank\\u202b"}}\n')
    assert code == 2 and err.startswith(f"{path}:2:19: a bidirectional control character U+202B (RIGHT-TO-LEFT "
                                        "EMBEDDING)"), err


def test_the_marks_are_kept(tmp_path: Path) -> None:
    path, code, err = _validate(tmp_path, 'extends: khrap\nname: {en: "Friday\u200f", ru: "\u061cПятница\u200e"}\n')
    assert (code, err) == (0, "")


def test_a_players_name_drops_the_same_characters() -> None:
    assert len(BIDI_CONTROLS) == 9  # U+202A..U+202E and U+2066..U+2069
    assert readable("Ann\u202aa\u202bb\u202cc\u202dd\u202ee\u2066f\u2067g\u2068h\u2069") == "Annabcdefgh"
