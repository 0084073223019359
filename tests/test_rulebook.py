"""Rule sheets (`khrap rules`), differences (`khrap diff`), languages and the worked examples."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from khrap.rulebook import arithmetic, i18n
from khrap.rulebook.example import play_example
from khrap.rulebook.messages import extract
from khrap.rulebook.render import FORMATS, WIDTH, environment
from khrap.rulebook.sheet import render_diff, render_rules
from khrap.rulebook.steps import Deal, Settle, Trick
from khrap.variant.catalog import builtin, builtin_names
from khrap.variant.schema import Variant

ROOT = Path(__file__).resolve().parents[1]
LANGS = i18n.languages()


def khrap(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "khrap.cli", *args], capture_output=True, text=True, cwd=ROOT)


def test_english_and_russian_are_offered() -> None:
    assert LANGS[:1] == ["en"] and "ru" in LANGS


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", builtin_names())
def test_every_builtin_renders(name: str, fmt: str, lang: str) -> None:
    text = render_rules(name, fmt, lang)
    title = i18n.localized(builtin(name).name, lang)
    assert title.upper() in text.upper()
    for call in builtin(name).calls.values():
        if call.enabled:
            assert i18n.localized(call.name, lang) in text
    if fmt == "html":
        assert text.startswith("<!DOCTYPE html>") and "@page" in text and "A4" in text
        assert not re.search(r"""(src|href)\s*=|@import|url\(""", text), "the page must be self-contained"
        assert 'class="card red">' in text  # hearts and diamonds in red
    if fmt == "txt":
        long = [line for line in text.splitlines() if len(line) > WIDTH]
        assert not long, f"lines over {WIDTH} columns: {long[:3]}"
    if fmt == "md":
        assert text.startswith(f"# {title}") and "| --- |" in text


@pytest.mark.parametrize("name", builtin_names())
def test_russian_sheet_is_translated(name: str) -> None:
    english = render_rules(name, "txt", "en")
    russian = render_rules(name, "txt", "ru")
    for phrase in ("What you need", "The calls", "Settlement", "When allowed"):
        assert phrase.upper() in english.upper() or phrase in english
        assert phrase not in russian and phrase.upper() not in russian


def test_sections_a_player_expects() -> None:
    text = render_rules("khrap", "md", "en")
    for heading in ("What you need", "The deal", "The calls", "Exchange", "Play", "Settlement", "Special features",
                    "A deal played out"):
        assert f"## {heading}" in text
    assert "| Call | When allowed | What it obliges | What it costs |" in text
    assert "For example, say P = 10" in text  # the worked settlement


def test_variant_text_is_escaped_in_html(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "extends: khrap\n"
        "name: {en: '<script>alert(1)</script> & Co', ru: '<i>дом</i>'}\n"
        "description: {en: '<img src=x onerror=alert(2)>'}\n"
        "calls:\n"
        "  khrap: {name: {en: '<b>Snort</b>'}, description: {en: 'a <u>call</u>'}}\n",
        encoding="utf-8",
    )
    for lang in LANGS:
        html = render_rules(str(house), "html", lang)
        assert "<script>" not in html and "<b>Snort" not in html and "<img" not in html and "<u>" not in html
        assert "<i>дом" not in html
        assert "&amp;lt;" not in html, "escaped twice"
    assert "&lt;b&gt;Snort&lt;/b&gt;" in render_rules(str(house), "html", "en")
    assert "&lt;i&gt;дом&lt;/i&gt;" in render_rules(str(house), "html", "ru")
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in render_rules(str(house), "html", "en")
    md = render_rules(str(house), "md", "en")
    assert "<b>Snort" not in md and "&lt;b&gt;Snort" in md
    diff = render_diff("khrap", str(house), "html", "en")
    assert "<b>Snort" not in diff and "&lt;b&gt;Snort&lt;/b&gt;" in diff and "&amp;lt;" not in diff


def test_missing_translation_falls_back_to_english() -> None:
    data = builtin("khrap").model_dump(mode="json")
    data["name"] = {"en": "Only English"}
    data["calls"]["help"]["name"] = {"en": "Assist", "ru": ""}
    data["calls"]["help"]["description"] = {}
    text = render_rules(Variant.model_validate(data), "txt", "ru")
    assert "ONLY ENGLISH" in text and "Assist" in text
    po = b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\nmsgid "What you need"\nmsgstr ""\n'
    assert i18n.compile_po(po, "de").gettext("What you need") == "What you need"


def test_a_third_language_is_one_catalog_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = tmp_path / "de" / "LC_MESSAGES" / "messages.po"
    catalog.parent.mkdir(parents=True)
    catalog.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "What you need"\nmsgstr "Was man braucht"\n\n'
        'msgid "Deck"\nmsgstr ""\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    environment.cache_clear()
    try:
        assert i18n.languages() == ["en", "de"]
        text = render_rules("khrap", "txt", "de")
        assert "WAS MAN BRAUCHT" in text  # translated
        assert "THE DEAL" in text and "A call makes a player the declarer" in text  # the rest falls back to English
    finally:
        i18n.translations.cache_clear()
        environment.cache_clear()


def test_catalogs_are_complete_and_current() -> None:
    from babel.messages.pofile import read_po

    template = extract()
    ids = {m.id for m in template if m.id}
    with (i18n.LOCALE_DIR / "messages.pot").open("rb") as handle:
        assert {m.id for m in read_po(handle) if m.id} == ids, "run: python -m khrap.rulebook.messages"
    for lang in LANGS[1:]:
        with i18n.catalog_path(lang).open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        messages = {m.id: m for m in catalog if m.id}
        assert set(messages) == ids, f"{lang}: run python -m khrap.rulebook.messages"
        untranslated = [m.id for m in messages.values() if m.fuzzy or not all(m.string if isinstance(m.string, tuple)
                                                                               else [m.string])]
        assert not untranslated, f"{lang}: untranslated or fuzzy: {untranslated[:5]}"


def test_a_sheet_shows_what_a_house_rule_changes(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: khrap\nname: {en: Beat it}\nplay: {must_beat: true}\n", encoding="utf-8")
    text = render_rules(str(house), "txt", "en")
    assert "WHAT DIFFERS FROM “KHRAP”" in text
    flat = " ".join(text.split())
    assert "- Khrap: Following suit, a player need not beat the cards played." in flat
    assert "+ Beat it: Following suit, a player must beat the best card of that suit on the trick if they can." in flat
    assert "must beat the best card" in text.split("PLAY\n")[1]  # the rule itself, in the Play section
    assert "WHAT DIFFERS" not in render_rules("khrap", "txt", "en")  # khrap extends nothing
    assert "HOW IT DIFFERS FROM “KHRAP”" in render_rules("khrap-52", "txt", "en")  # a built-in: not "house rules"


def test_diff_of_any_two_variants() -> None:
    text = render_diff("khrap", "khrap-shoot", "txt", "en")
    assert "Shoot" in text and "(not in this game)" in text
    assert "plays exactly like" in render_diff("khrap", "khrap", "txt", "en")
    assert "plays exactly like" in render_diff("khrap", str(ROOT / "variants" / "khrap.yaml"), "md", "ru") or \
        "играется точно так же" in render_diff("khrap", str(ROOT / "variants" / "khrap.yaml"), "md", "ru")


@pytest.mark.parametrize("name", builtin_names())
def test_worked_example_is_played_by_the_engine(name: str) -> None:
    example = play_example(builtin(name))
    kinds = [type(e) for e in example.events]
    assert Deal in kinds and Trick in kinds and kinds[-1] is Settle
    assert example.stacks_after != example.stacks_before
    assert sum(example.stacks_after) + example.settlement.pot == sum(example.stacks_before)  # chips are conserved
    assert play_example(builtin(name)).events == example.events  # deterministic


@pytest.mark.parametrize("name", builtin_names())
def test_worked_settlement_matches_the_kernel(name: str) -> None:
    v = builtin(name)
    rng = random.Random(name)
    tables = [arithmetic.sample_table(v)]
    for _ in range(40):
        table = arithmetic.sample_table(v)
        table.pot = rng.randrange(0, 40)
        left = v.hand_size
        for player in table.players:
            player.tricks = rng.randint(0, left)
            left -= player.tricks
            rule = v.statuses[player.status]
            player.stake = rule.stake.base * v.base_stake + rule.stake.pots * table.pot
            player.locked = player.stake if rule.locked else 0
            player.held = rng.sample(["AH", "6H", "KS", "7S"], 2)
        table.declarer_round = rng.randint(1, 3)
        tables.append(table)
    for table in tables:
        arithmetic.check(v, table, arithmetic.itemize(v, table))


def test_rules_command(tmp_path: Path) -> None:
    out = tmp_path / "sheet.html"
    result = khrap("rules", "khrap", "--format", "html", "--lang", "ru", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "Храп" in out.read_text(encoding="utf-8")
    result = khrap("rules", "snore", "--format", "txt")
    assert result.returncode == 0 and result.stdout.startswith("SNORE")
    result = khrap("rules", "nope")
    assert result.returncode == 2 and "unknown built-in variant 'nope'" in result.stderr
    result = khrap("rules", "khrap", "--format", "doc")
    assert result.returncode == 2 and "unknown format" in result.stderr
    result = khrap("rules", "khrap", "--format", "pdf")  # a PDF goes to a file (tests/test_sheet_pdf.py)
    assert result.returncode == 2 and "-o FILE" in result.stderr


def test_diff_command() -> None:
    result = khrap("diff", "khrap", "docs/house-rules/khrap-must-beat.yaml")
    assert result.returncode == 0, result.stderr
    assert "must beat the best card" in result.stdout


def test_house_rules_guide_example_validates_and_prints(tmp_path: Path) -> None:
    guide = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", guide, re.S)
    assert blocks, "docs/house-rules.md shows its house rule in a ```yaml block"
    house = tmp_path / "my-khrap.yaml"
    house.write_text(blocks[-1], encoding="utf-8")
    assert khrap("validate", str(house)).returncode == 0
    text = render_rules(str(house), "txt", "en")
    assert "WHAT DIFFERS FROM “KHRAP”" in text
