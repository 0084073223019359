"""The house-rule checker's catalogs (checker.po) in every language of the rule sheets: every message of the
checks, the reading and the lint translated, its values (`%(name)s`) exactly those of the English, and a
stage still found by its word, so its step title is named after it as in English.

A player reads a sheet in Lithuanian, Finnish or Armenian and must read his file's mistakes in the same
language: a message with no translation would print in English (the fallback, tested last), and a
translation that drops or misspells a value would print the English too (``Said.shown`` falls back rather
than crash), so both are caught here, message by message, before anyone sees them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from khrap import catalogs
from khrap.cli import app
from khrap.rulebook import i18n
from khrap.rulebook.i18n import CHECKER_DOMAIN, LOCALE_DIR, checker_translations
from khrap.rulebook.messages import extract_checker
from khrap.variant.said import Said

VALUE = re.compile(r"%\([a-z_]+\)s|%%")
STAGE = re.compile(r"\bstage '%\(([a-z_]+)\)s'")
CHECKER_LANGS = catalogs.languages(LOCALE_DIR, CHECKER_DOMAIN)[1:]
runner = CliRunner()


def _catalog(lang: str):
    with catalogs.catalog_path(LOCALE_DIR, CHECKER_DOMAIN, lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=CHECKER_DOMAIN)


def _forms(message) -> list[str]:
    string = message.string
    return list(string) if isinstance(string, (list, tuple)) else [string]


def _ids(message) -> list[str]:
    return list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]


def test_every_sheet_language_has_its_checker_catalog() -> None:
    assert set(CHECKER_LANGS) >= {"ru", "lt", "fi", "hy"}
    assert set(CHECKER_LANGS) == set(i18n.languages()[1:])


def test_the_values_are_found_by_the_test() -> None:
    assert VALUE.findall("a deck of %(cards)s cards at '%%' and %(n)s") == ["%(cards)s", "%%", "%(n)s"]
    assert STAGE.findall("call '%(call)s' skips stage '%(stage)s' after stage '%(said)s'") == ["stage", "said"]


@pytest.mark.parametrize("lang", CHECKER_LANGS)
def test_every_checker_message_is_translated_with_the_same_values(lang: str) -> None:
    catalog = _catalog(lang)
    english = [m for m in extract_checker() if m.id]
    assert len(english) >= 200
    missing, fuzzy, values = [], [], []
    for message in english:
        found = catalog.get(message.id)
        if found is None or not all(_forms(found)):
            missing.append(message.id)
            continue
        if found.fuzzy:
            fuzzy.append(message.id)
        wanted = set(VALUE.findall(_ids(message)[-1]))  # (a value may be said once where the English says it twice)
        values += [(message.id, form) for form in _forms(found) if set(VALUE.findall(form)) != wanted]
    assert (missing, fuzzy, values) == ([], [], [])


@pytest.mark.parametrize("lang", CHECKER_LANGS)
def test_a_stage_is_named_by_the_word_the_step_titles_follow(lang: str) -> None:
    # khrap.variant.catalog names a stage's step after "<the word for stage>… '<id>'": the translation must
    # put that word (or a form of it) right before each stage's id, as the English does
    say = checker_translations(lang).gettext
    word = re.escape(say("stage"))
    unnamed = []
    for message in (m for m in _catalog(lang) if m.id and not isinstance(m.id, (list, tuple))):
        for name in STAGE.findall(message.id):
            if not re.search(rf"\b{word}\w* '%\({name}\)s'", message.string):
                unnamed.append((name, message.string))
    assert unnamed == []


def test_the_deck_too_small_in_every_language(tmp_path: Path) -> None:
    # khrap's 36 cards for 4 players of 9 cards, and 3 trumps turned (all_pass: rounds 3, turn_up): 4 x 9 + 3 = 39
    path = tmp_path / "nine.yaml"
    path.write_text("extends: khrap\nplayers: {min: 4, max: 6}\nhand_size: 9\n", encoding="utf-8")
    said = {
        "en": "a deck of 36 cards is too small for 4 players: 4 hands of 9 and 3 turned cards need 39",
        "ru": "колода мала для числа игроков 4: в ней карт 36, а нужно 39 (по 9 каждому игроку и открытых "
              "козырей: 3)",
        "lt": "kaladė per maža, kai žaidėjų yra 4: joje kortų yra 36, o reikia 39 (kiekvienam žaidėjui po 9 "
              "ir atverstos kortos: 3)",
        "fi": "pakka on liian pieni 4 pelaajalle: siinä on 36 korttia, mutta tarvitaan 39 (jokaiselle pelaajalle "
              "9 ja käännettyjä kortteja 3)",
        "hy": "տախտակամածը փոքր է 4 խաղացողի համար. դրանում 36 քարտ կա, իսկ պետք է 39 (յուրաքանչյուր "
              "խաղացողին՝ 9, և բացված քարտեր՝ 3)",
    }
    for lang, text in said.items():
        result = runner.invoke(app, ["validate", str(path), "--lang", lang])
        assert result.exit_code == 2 and "Traceback" not in result.output
        first = result.stderr.splitlines()[0]
        assert first.startswith(f"{path}:2:24: {text} ("), first
    # the old Russian put "4 карт" (a wrong plural) in "раздача (рук: 4, по 4 карт)"
    assert "рук:" not in runner.invoke(app, ["validate", str(path), "--lang", "ru"]).stderr


def test_a_message_a_catalog_lacks_shows_in_english_never_blank() -> None:
    text = catalogs.catalog_path(LOCALE_DIR, CHECKER_DOMAIN, "fi").read_text(encoding="utf-8")
    finnish = 'msgstr "on oltava vähintään %(limit)s; annettiin %(value)s"'
    assert finnish in text
    said = Said("must be at least %(limit)s, got %(value)s", limit=2, value=1)
    whole = catalogs.compile_po(text.encode(), "fi", CHECKER_DOMAIN).gettext
    lacking = catalogs.compile_po(text.replace(finnish, 'msgstr ""').encode(), "fi", CHECKER_DOMAIN).gettext
    assert said.shown(whole) == "on oltava vähintään 2; annettiin 1"
    assert said.shown(lacking) == "must be at least 2, got 1"


def test_a_file_that_cannot_be_read_is_refused_in_the_players_language(tmp_path: Path) -> None:
    # khrap.safe_io words its reasons in English (a leaf module); the reading turns each into a catalog message
    from khrap.safe_io import InputRefused, read_limited
    from khrap.variant import reading

    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (reading.LIMITS.file_bytes + 1))
    reasons = []
    for path in (tmp_path / "gone.yaml", tmp_path, big, "a\0b.yaml"):
        with pytest.raises(InputRefused) as refused:
            read_limited(path, reading.LIMITS.file_bytes)
        reasons.append(str(refused.value))
    assert [str(reading._refused(reason)) for reason in reasons] == reasons  # the same English, word for word
    assert all(isinstance(reading._refused(reason), Said) for reason in reasons)
    said = {"ru": ("нет такого файла", "это папка, а не файл", "файл слишком велик (предел — 256 КиБ)"),
            "lt": ("tokio failo nėra", "tai aplankas, o ne failas", "failas per didelis (riba – 256 KiB)"),
            "fi": ("tiedostoa ei ole", "on kansio eikä tiedosto", "tiedosto on liian suuri (raja on 256 KiB)"),
            "hy": ("այդպիսի ֆայլ չկա", "սա թղթապանակ է, ոչ թե ֆայլ", "ֆայլը չափազանց մեծ է (սահմանը 256 KiB է)")}
    assert reading.LIMITS.file_bytes == 256 * 1024
    for lang, (gone, folder, large) in said.items():
        result = runner.invoke(app, ["validate", str(tmp_path / "gone.yaml"), str(tmp_path), str(big), "--lang", lang])
        assert result.exit_code == 2
        assert result.stderr.splitlines() == [f"{tmp_path / 'gone.yaml'}: {gone}", f"{tmp_path}: {folder}",
                                               f"{big}: {large}"]
