"""Every message of the checks (khrap/variant/checks.py) and of the linter (khrap/variant/lint.py) under
`--lang ru`: no English sentence is left in it.

The files: for the checks, the refused variant of every rule in tests/test_checks_both_ways.py (one or more
per check function); for the linter, tests/house-warnings/*.yaml, one file per family of warnings (a call
nothing offers, calls that can never be made, fines nobody pays, lists that drop the parent's rules, an
ante the all-pass stakes do not follow, a value equal to the parent's).  What may stay in Latin letters is
what the file wrote or a key to write: quoted ids (`'sad'`), code in backquotes (`` `min_trumps` ``) and
single words (a status id such as helper, a field such as min_discard); two Latin words in a row outside
quotes are a sentence left in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from khrap.cli import app
from khrap.rulebook.i18n import checker_translations
from khrap.variant import catalog
from khrap.variant.errors import errors_of
from khrap.variant.lint import lint_file
from khrap.variant.loader import VariantError
from tests.test_checks_both_ways import REFUSED

WARNINGS = sorted((Path(__file__).parent / "house-warnings").glob("*.yaml"))
QUOTED = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"|“[^”]*”|\{[^{}]*\}|\[[^\[\]]*\]")
SENTENCE = re.compile(r"\b[A-Za-z][a-z]+[ ,]+[A-Za-z][a-z]+\b")
runner = CliRunner()


def english_left(text: str) -> list[str]:
    """Runs of two Latin words outside quotes, code and the flow values a message quotes."""
    bare = QUOTED.sub("…", text)
    bare = QUOTED.sub("…", bare)  # (a quote inside a flow value)
    return SENTENCE.findall(bare)


def test_the_detector_finds_english_and_passes_quoted_words() -> None:
    assert english_left("call 'sad' can never be made") == ["can never", "be made"]
    assert english_left("заявку 'take-five' нельзя сказать: `min_trumps: 5` больше, чем у helper") == []


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_every_check_speaks_russian(tmp_path: Path, case: str) -> None:
    text, _, english = REFUSED[case]
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(VariantError) as info:
        catalog.load_variant(str(path))
    say = checker_translations("ru").gettext
    for error in errors_of(info.value):
        russian = error.text(say)
        assert english_left(russian) == [], russian
        assert error.text() != russian or not english_left(error.text())


@pytest.mark.parametrize("path", WARNINGS, ids=[p.stem for p in WARNINGS])
def test_every_warning_speaks_russian(path: Path) -> None:
    found = lint_file(path)[1]
    assert found, "each file of tests/house-warnings has a warning or a note"
    say = checker_translations("ru").gettext
    for warning in found:
        russian = warning.text(say)
        assert english_left(russian) == [], russian


def test_validate_says_a_check_and_a_warning_in_russian_at_the_same_place(tmp_path: Path) -> None:
    warned = Path(__file__).parent / "house-warnings" / "unoffered.yaml"
    english = runner.invoke(app, ["validate", str(warned)])
    russian = runner.invoke(app, ["validate", str(warned), "--lang", "ru"])
    assert english.exit_code == russian.exit_code == 0
    assert english.stderr.splitlines() == [
        f"{warned}:3:3: warning: call 'sadd' is defined but no stage offers it, so it can never be said: add it "
        "to the `calls` of a stage, or remove it (or is it a misspelt 'sad'?)"]
    assert russian.stderr.splitlines() == [
        f"{warned}:3:3: warning: заявка 'sadd' задана, но ни один шаг её не предлагает, так что сказать её нельзя: "
        "добавьте её в `calls` какого-нибудь шага или удалите (может быть, имелось в виду 'sad'?)"]
    path = tmp_path / "pyatnitsa.yaml"
    path.write_text("extends: khrap\nstages:\n  - {id: play, kind: play}\n", encoding="utf-8")
    english = runner.invoke(app, ["validate", str(path)])
    russian = runner.invoke(app, ["validate", str(path), "--lang", "ru"])
    assert english.exit_code == russian.exit_code == 2
    first = "the first stage must be a calls stage (someone has to become declarer)"
    where = next(line.split(first)[0] for line in english.stderr.splitlines() if first in line)
    assert where.startswith(f"{path}:")
    assert where + "первым шагом должен быть шаг заявок (кто-то должен стать храпящим)" in russian.stderr.splitlines()
