"""The seeds' languages on the rule sheets: Lithuanian (seed 001), Finnish (002) and Armenian (000).

Each catalog carries the plural rule CLDR gives its language (Babel's data), translates every
message with the same placeholders, and the variant files name every call in every language, so a
sheet or a `khrap diff` in these languages has no English left in it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from khrap.rulebook import i18n
from khrap.rulebook.sheet import render_diff, render_rules
from khrap.variant.catalog import builtin, builtin_names

ROOT = Path(__file__).resolve().parents[1]
SEED_LANGS = ["lt", "fi", "hy"]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def catalog(lang: str):
    with i18n.catalog_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang)


def test_the_seed_languages_are_offered() -> None:
    assert set(SEED_LANGS) <= set(i18n.languages())


@pytest.mark.parametrize("lang", SEED_LANGS)
def test_catalog_header_has_the_cldr_plural_rule(lang: str) -> None:
    cat = catalog(lang)
    rule = get_plural(lang)
    assert (cat.num_plurals, cat.plural_expr) == (rule.num_plurals, rule.plural_expr)
    text = i18n.catalog_path(lang).read_text(encoding="utf-8")
    assert f'"Plural-Forms: nplurals={rule.num_plurals}; plural=' in text
    assert not cat.fuzzy, "the header is filled in, not a draft"


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        # Lithuanian: 1, 21, 31 (one); 2-9, 22-29 (few); 0, 10-20, 30 (other): kyšį / kyšius / kyšių
        ("lt", {1: "1 kyšį", 21: "21 kyšį", 2: "2 kyšius", 9: "9 kyšius",
                0: "0 kyšių", 11: "11 kyšių", 20: "20 kyšių"}),
        # Finnish: 1 (one), everything else: tikin / tikkiä
        ("fi", {1: "1 tikin", 0: "0 tikkiä", 2: "2 tikkiä", 21: "21 tikkiä"}),
        # Armenian: 0 and 1 (one), more (other); the noun after a numeral stays singular
        ("hy", {0: "0 կաշառք", 1: "1 կաշառք", 5: "5 կաշառք"}),
    ],
)
def test_compiled_catalog_picks_the_plural_form(lang: str, forms: dict[int, str]) -> None:
    t = i18n.translations(lang)
    for n, expected in forms.items():
        assert t.ngettext("%(count)s trick", "%(count)s tricks", n) % {"count": n} == expected


@pytest.mark.parametrize("lang", SEED_LANGS)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    template = {m.id for m in read_po((i18n.LOCALE_DIR / "messages.pot").open("rb")) if m.id}
    cat = catalog(lang)
    problems = []
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(strings):
            problems.append(f"untranslated: {ids[0]}")
            continue
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        problems += [f"placeholders {sorted(wanted)} in {ids[0]!r}: {s!r}" for s in strings
                     if set(PLACEHOLDER.findall(s)) != wanted]
    assert {m.id for m in cat if m.id} == template, "catalog out of step: python -m khrap.rulebook.messages"
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", SEED_LANGS)
@pytest.mark.parametrize("name", builtin_names())
def test_variant_files_name_every_call_in_every_language(name: str, lang: str) -> None:
    v = builtin(name)
    missing = [f"name/description of {name}"] if not (v.name.get(lang) and v.description.get(lang)) else []
    for cid, call in v.calls.items():
        if call.enabled and not (call.name.get(lang) and call.description.get(lang)):
            missing.append(f"call {cid}")
    for wid, win in v.instant_wins.items():
        if not (win.name.get(lang) and win.description.get(lang)):
            missing.append(f"instant win {wid}")
    assert not missing


ENGLISH = ("What you need", "The calls", "Settlement", "When allowed", "Course of a deal", "Exchange order",
           "the declarer", "helper", "trick", "Take five", "Helicopter", "Pass")  # Whist is Finnish too


@pytest.mark.parametrize("lang", SEED_LANGS)
@pytest.mark.parametrize("name", builtin_names())
def test_sheet_has_no_english_left(name: str, lang: str) -> None:
    text = render_rules(name, "txt", lang)
    text = text.replace("khrap rules", "")  # the command's name stays as typed
    left = [w for w in ENGLISH if re.search(rf"\b{w}\b", text, re.I)]
    assert not left, f"English in the {lang} sheet of {name}: {left}"


@pytest.mark.parametrize("lang", SEED_LANGS)
def test_diff_is_told_in_the_language(lang: str) -> None:
    text = render_diff("khrap", "khrap-52", "txt", lang)
    assert i18n.localized(builtin("khrap-52").name, lang) in text
    assert not re.search(r"\b(Players|Deck|Penalties|Exchange order|not in this game)\b", text)


# The seeds' own words, where each sheet must use them (seed, where in it, the word).
SEED_TERMS = {
    # seed 001: „knarkimas“, „knarkiantis“ žaidėjas, „Padėsiu“, „Sraigtasparnis“, „Aš apvynioju“,
    # „Imu penkias“, kyšis, koziris, bankas, dalytojas, pikų septynetas „jokeris“
    ("khrap", "lt"): ["Knarkimas", "knarkiantysis", "Padėsiu", "Sraigtasparnis", "Apvynioju", "Imu penkias",
                      "kyši", "kozir", "bank", "dalytoj"],
    ("khrap-shoot", "lt"): ["Šauti", "Apvyniojimas", "Pagalba", "Penki"],
    ("student-snore", "lt"): ["Studentų knarkimas", "jokeri"],
    # seed 002: "kuorsaus", kuorsaaja, "Autan", "käärin", "helikopteri", "otan viisi", jakaja, valtti,
    # potti, leikkaa, whist, opiskelijakuorsaus
    ("khrap", "fi"): ["Kuorsaus", "kuorsaaja", "Autan", "Käärin", "Helikopteri", "Otan viisi", "jakaja",
                      "valtti", "pott"],
    ("frap", "fi"): ["Whist", "Leikkaan", "Sokea frap"],
    ("student-snore", "fi"): ["Opiskelijakuorsaus", "jokeri"],
    # seed 000: «Խռմփոց», խռմփացող, «Ես կօգնեմ», «Ուղղաթիռ», «Փաթաթում եմ», հաղթաթուղթ, կաշառք, բանկ, դիլեր
    ("khrap", "hy"): ["Խռմփոց", "խռմփացող", "Կօգնեմ", "Ուղղաթիռ", "Փաթաթում եմ", "հաղթաթուղթ", "կաշառք",
                      "բանկ", "դիլեր"],
    ("khrap-shoot", "hy"): ["Կրակել", "Փաթաթել", "Օգնություն"],
    ("student-snore", "hy"): ["Ուսանողական խռմփոց", "ջոկեր"],
}


@pytest.mark.parametrize(("name", "lang"), sorted(SEED_TERMS))
def test_sheet_uses_the_seeds_terms(name: str, lang: str) -> None:
    text = render_rules(name, "md", lang)
    missing = [term for term in SEED_TERMS[name, lang] if term not in text]
    assert not missing


def test_lang_help_lists_every_catalog() -> None:
    for command in ("rules", "diff"):
        result = subprocess.run([sys.executable, "-m", "khrap.cli", command, "--help"], capture_output=True,
                                text=True, cwd=ROOT, env={"COLUMNS": "200", "PATH": ""})
        assert result.returncode == 0, result.stderr
        assert ", ".join(i18n.languages()) in result.stdout


def test_unknown_language_names_the_known_ones() -> None:
    result = subprocess.run([sys.executable, "-m", "khrap.cli", "rules", "khrap", "--lang", "xx"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert all(lang in result.stderr for lang in SEED_LANGS)


@pytest.mark.parametrize("lang", i18n.languages())
@pytest.mark.parametrize("name", builtin_names())
def test_plain_text_calls_table_keeps_each_name_whole(name: str, lang: str) -> None:
    """The first column of the plain-text calls table is as wide as the longest name word
    (Lithuanian "Sraigtasparnis" has 14 letters; the column had 12 and cut it)."""
    lines = render_rules(name, "txt", lang).splitlines()
    for call in builtin(name).calls.values():
        if call.enabled:
            first = i18n.localized(call.name, lang).split()[0]
            assert any(re.match(rf"{re.escape(first)}\s*(\||\s)", line) for line in lines), first


# Frap's and snore's own words for the roles (`terms:` in their variant files), per language:
# the general word must not be left anywhere on the sheet, the game's own must be there.
ROLE_WORDS = {
    ("frap", "lt"): (["knarkiant", "knarkianč", "pagalbinink"], ["frapuojantysis", "vistuotoj"]),
    ("frap", "fi"): (["kuorsaaj", "auttaj"], ["frappaaja", "whistaaja"]),
    ("frap", "hy"): (["խռմփացող", "օգնող"], ["ֆրապող", "վիստ խաղացող"]),
    ("snore", "lt"): (["pagalbinink"], ["knarkiantysis", "vistuotoj"]),
    ("snore", "fi"): (["auttaj"], ["kuorsaaja", "whistaaja"]),
    ("snore", "hy"): (["օգնող"], ["խռմփացող", "վիստ խաղացող"]),
}


@pytest.mark.parametrize(("name", "lang"), sorted(ROLE_WORDS))
def test_sheet_uses_the_games_own_role_words(name: str, lang: str) -> None:
    general, own = ROLE_WORDS[name, lang]
    text = render_rules(name, "md", lang).lower()
    assert not [w for w in general if w in text]
    assert all(w in text for w in own)
