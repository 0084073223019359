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
SENTENCE = re.compile(r"\b[A-Za-z][a-z]*[ ,]+[A-Za-z][a-z]+\b")
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


# The reading of the file and the values one field checks alone (khrap/variant/reading.py, schema.py): one file each.
READING = {
    "rank-twice": b"extends: khrap\ndeck: {ranks: [6, 7, 8, 9, T, J, Q, K, A, A]}\n",
    "not-a-rank": b"extends: khrap\ncalls:\n  sad: {requires: {turned_rank: Ace1}}\n",
    "rank-a-mapping": b"extends: khrap\ncalls:\n  sad: {requires: {turned_rank: {a: 1}}}\n",
    "not-a-card": b"extends: student-snore\njoker: {card: 7x}\n",
    "ranks-not-a-list": b"extends: khrap\ndeck: {ranks: 5}\n",
    "unsupported-tag": b"extends: khrap\nhand_size: !!python/int 4\n",
    "value-for-a-tag": b"extends: khrap\nhand_size: !!int four\n",
    "merge-key": b"extends: khrap\n<<: 5\n",
    "key-not-plain": b"extends: khrap\n? [a]\n: 1\n",
    "not-utf-8": b"extends: khrap\nname: {en: \"\xff\"}\n",
    "control-character": b"extends: khrap\nname: {en: \"a\x07\"}\n",
    "recursive-alias": b"a: &x [1, *x]\n",
    "lone-surrogate": b"extends: khrap\nname: {en: \"\\ud800\"}\n",
    "a-list-for-a-mapping": b"extends: khrap\nante: [1]\n",
    "a-list-at-the-top": b"- extends\n- khrap\n",
}


@pytest.mark.parametrize("case", sorted(READING))
def test_every_reading_mistake_speaks_russian(tmp_path: Path, case: str) -> None:
    path = tmp_path / "house.yaml"
    path.write_bytes(READING[case])
    with pytest.raises(VariantError) as info:
        catalog.load_variant(str(path))
    say = checker_translations("ru").gettext
    for error in errors_of(info.value):
        assert english_left(error.text(say)) == [], error.text(say)
        assert error.text(say) != error.text()  # (the English, as it always read, is not the Russian)


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
        f"{warned}:3:3: предупреждение: заявка 'sadd' задана, но ни один шаг её не предлагает, так что сказать её "
        "нельзя: добавьте её в `calls` какого-нибудь шага или удалите (может быть, имелось в виду 'sad'?)"]
    path = tmp_path / "pyatnitsa.yaml"
    path.write_text("extends: khrap\nstages:\n  - {id: play, kind: play}\n", encoding="utf-8")
    english = runner.invoke(app, ["validate", str(path)])
    russian = runner.invoke(app, ["validate", str(path), "--lang", "ru"])
    assert english.exit_code == russian.exit_code == 2
    first = "the first stage must be a calls stage (someone has to become declarer)"
    where = next(line.split(first)[0] for line in english.stderr.splitlines() if first in line)
    assert where.startswith(f"{path}:")
    assert where + "первым шагом должен быть шаг заявок (кто-то должен стать храпящим)" in russian.stderr.splitlines()


def test_the_words_warning_and_note_follow_the_language_and_the_location_stays_exact() -> None:
    # same.yaml restates khrap's hand size (a note); unoffered.yaml defines a call no stage offers (a warning).
    # The location is the file's, byte for byte; the kind's word is said in the reader's language, and in
    # English the line is what a CI greps for, unchanged.
    here = Path(__file__).parent / "house-warnings"
    same, unoffered = here / "same.yaml", here / "unoffered.yaml"
    russian = runner.invoke(app, ["validate", str(same), str(unoffered), "--lang", "ru"])
    english = runner.invoke(app, ["validate", str(same), str(unoffered)])
    assert russian.stderr.splitlines() == [
        f"{same}:2:1: примечание: `hand_size: 4` уже есть в 'khrap' (оставлено как запись правил стола)",
        f"{unoffered}:3:3: предупреждение: заявка 'sadd' задана, но ни один шаг её не предлагает, так что сказать "
        "её нельзя: добавьте её в `calls` какого-нибудь шага или удалите (может быть, имелось в виду 'sad'?)"]
    assert english.stderr.splitlines() == [
        f"{same}:2:1: note: `hand_size: 4` is what 'khrap' has already (kept as a record of the table's rules)",
        f"{unoffered}:3:3: warning: call 'sadd' is defined but no stage offers it, so it can never be said: add it "
        "to the `calls` of a stage, or remove it (or is it a misspelt 'sad'?)"]
    # the other catalogs say "warning" in the word their verdict line already uses (1 varoitus, 1 įspėjimas, ...)
    for lang, word in (("fi", "varoitus"), ("lt", "įspėjimas"), ("hy", "զգուշացում")):
        said = runner.invoke(app, ["validate", str(unoffered), "--lang", lang])
        assert said.stderr.startswith(f"{unoffered}:3:3: {word}: "), said.stderr


def test_the_verdict_and_the_count_of_warnings_speak_russian_too() -> None:
    # frapfines.yaml drops three calls frap's penalties charged (blind-frap, whist, cut): three warnings
    path = Path(__file__).parent / "house-warnings" / "frapfines.yaml"
    ok = runner.invoke(app, ["validate", str(path), "--lang", "ru"])
    assert ok.exit_code == 0 and ok.stdout.splitlines() == [f"{path}: в порядке (предупреждений: 3)"]
    strict = runner.invoke(app, ["validate", str(path), "--lang", "ru", "--strict"])
    assert strict.exit_code == 2
    assert strict.stderr.splitlines()[-1] == f"{path}: предупреждений: 3, а с --strict это ошибки"
    sheet = runner.invoke(app, ["rules", str(path), "--format", "txt", "--lang", "ru"])
    assert sheet.exit_code == 0
    assert sheet.stderr.splitlines() == [f"{path}: предупреждений: 3; прочтите их: `khrap validate {path}`"]
    clean = runner.invoke(app, ["validate", "khrap", "--lang", "ru"])
    assert clean.stdout.splitlines() == ["khrap: в порядке"]


def test_the_card_and_rank_sentences_are_those_of_khrap_cards_word_for_word(tmp_path: Path) -> None:
    # schema.py says them as Said (khrap/cards.py imports nothing of ours): the English must not drift from them
    from khrap.cards import CardError, parse_card, parse_rank

    for case, parse, word in (("not-a-rank", parse_rank, "Ace1"), ("not-a-card", parse_card, "7x")):
        with pytest.raises(CardError) as said:
            parse(word)
        path = tmp_path / f"{case}.yaml"
        path.write_bytes(READING[case])
        with pytest.raises(VariantError) as info:
            catalog.load_variant(str(path))
        assert errors_of(info.value)[0].text().endswith(": " + str(said.value))
