"""Issue 30: the sheet findings of a rules editor's read, each guarded (templates/sentences.j2, facts.py,
diff.py, the catalogs).  Each test names the wrong or missing wording of the sheets before the fix, and
fails on it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from khrap.rulebook.i18n import languages
from khrap.rulebook.sheet import render_diff, render_rules
from khrap.variant.catalog import builtin_names

BUILTINS = builtin_names()


def flat(text: str) -> str:
    return " ".join(text.split())


def sheet(name: str, lang: str = "en") -> str:
    return flat(render_rules(name, "md", lang, example=False))


def calls_row(ref: str, call: str) -> str:
    rows = [line for line in render_rules(ref, "md", "en", example=False).splitlines()
            if re.match(rf"\| (▶ )?\*\*{re.escape(call)}\*\*", line)]
    assert rows, f"no row for {call}"
    return rows[0]


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ the omission
@pytest.mark.parametrize("lang", languages())
def test_khrap_says_any_other_call_means_the_dealer_has_looked(lang: str) -> None:
    """A dealer who passed in round one has looked: he cannot wrap in round two (RULES §0 Looking)."""
    text = sheet("khrap", lang)
    words = {"en": "Any other call, a pass too, means looking first",
             "ru": "Любая другая заявка, и пас тоже, значит, что он сначала смотрит карты",
             "lt": "Bet kuris kitas pasakymas, ir pasas taip pat",
             "fi": "Mikä tahansa muu ilmoitus, myös passi",
             "hy": "Ցանկացած այլ հայտ, նաև պասը"}
    assert words[lang] in text


# ------------------------------------------------------------------ ambiguities
def test_passers_come_back_at_every_later_step_that_asks_them() -> None:
    # khrap-shoot's step 2 (answers, `speakers: others`) asks earlier passers too, as frap's whist step does
    assert "Out for now, but may still come in at steps 2 and 3" in calls_row("khrap-shoot", "Pass")
    assert "Out for now, but may still come in at steps 2 and 4" in calls_row("frap", "Pass")
    # khrap's bidding throws passers' cards
    assert "Out for now, but may still come in at step 2 |" in calls_row("khrap", "Pass")


def test_frap_fine_says_when_the_trump_ace_was_held() -> None:
    assert "having held the trump ace when play began" in calls_row("frap", "Blind frap")
    assert "having held the trump ace when play began pays 3 × P" in sheet("frap")


def test_a_general_exchange_order_is_not_restated_for_a_call() -> None:
    text = sheet("khrap-shoot")
    assert "When the declarer said Snore, the order is" not in text  # Snore's order is the general one
    assert "When the declarer said Shoot, the order is: the declarer, then those who said Five" in text


# ------------------------------------------------------------------ wording
@pytest.mark.parametrize(("name", "lang", "title"), [
    ("frap", "en", "(see Buying)"), ("snore", "en", "(see Buying)"), ("frap", "ru", "(см. «Покупка»)"),
    ("khrap", "en", "(see Exchange)"),
])
def test_the_exchange_step_points_at_the_section_by_its_heading(name: str, lang: str, title: str) -> None:
    assert title in sheet(name, lang)


def test_a_prize_for_every_round_has_no_later_round() -> None:
    text = sheet("snore")  # two bidding rounds, two prizes
    assert "round 2: ⌊P / 2⌋." in text
    assert "in any later round" not in text


def test_a_sheet_whose_fines_are_in_base_stakes_does_not_explain_p_for_them() -> None:
    assert "a fine counted in P" not in sheet("khrap")
    assert "Then a failed player pays their stake into the pot." in sheet("khrap")
    assert "P is the pot as it was before the shares were taken" in sheet("frap")


@pytest.mark.parametrize("name", BUILTINS)
def test_the_fine_rules_read_as_rules(name: str) -> None:
    assert "the first of these that matches him" not in sheet(name)


# ------------------------------------------------------------------ lists of differences
@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("name", BUILTINS)
def test_no_label_is_printed_twice(name: str, lang: str) -> None:
    """'Locked stakes: Locked stakes:', 'Колода: Колода:': a row's label is not repeated by its sentence."""
    text = render_rules(name, "md", lang)
    doubled = [m.group(0) for m in re.finditer(r"\*\*([^*]+):\*\* \1:", text)]
    assert doubled == []


def test_khrap_52_is_compared_with_khrap_step_by_step_id() -> None:
    text = flat(render_diff("khrap", "khrap-52", "md"))
    assert "Step 3" not in text  # play is step 5 of khrap and step 3 of khrap-52: the same step
    assert "Step 2 (Fives?)" in text and "Step 4 (Instant wins)" in text  # khrap's, gone in khrap-52


def test_inserting_a_step_changes_only_that_step(tmp_path: Path) -> None:
    stages = ("stages:\n"
              "  - {id: bidding, kind: calls, phase: bidding, speakers: all, start: dealer_left,\n"
              "     calls: [khrap, help, merry, sad, wrap, helicopter, pass], out_hands: at_end}\n"
              "  - {id: extra, kind: calls, phase: offers, speakers: out, start: declarer_left, calls: [pass]}\n"
              "  - {id: fives, kind: calls, phase: offers, speakers: out, start: declarer_left,\n"
              "     calls: [take-five, pass]}\n"
              "  - {id: exchange, kind: exchange, order: [{statuses: [declarer, helper]}]}\n"
              "  - {id: four-aces-check, kind: instant_wins}\n"
              "  - {id: play, kind: play}\n")
    ref = write(tmp_path, "extra.yaml", "extends: khrap\n" + stages)
    text = render_diff("khrap", ref)
    labels = re.findall(r"^\* (Step \d[^\n]*)$", text, re.M)
    assert labels == ["Step 2 (Offers)"]


def test_an_english_term_does_not_double_the_object_label(tmp_path: Path) -> None:
    ref = write(tmp_path, "snorer.yaml", "extends: khrap\nterms: {en: {declarer: snorer}}\n")
    text = flat(render_diff("khrap", ref))
    assert "+ Khrap: In each deal one player, the snorer, promises" in text
    assert "Object:" not in text


def test_blind_frap_does_not_say_a_failure_costs_double() -> None:
    """Its fines are 2 × P, 4 × P and, with the trump ace, 3 × P: not always double a frap's."""
    row = calls_row("frap", "Blind frap")
    assert "costs double" not in row and "a failure costs more than a frap's" in row


def test_the_lowest_card_for_the_first_dealer_settles_ties() -> None:
    assert "Players who tie for the lowest draw again, until one is lowest." in sheet("snore")


def test_frap_cut_draws_five_or_the_trump_and_four() -> None:
    row = calls_row("frap", "Cut")
    assert "draws 5 cards, or takes the turned trump card and draws 4 (the trump suit stays the same)" in row
    assert "as one of the cards drawn" not in row


@pytest.mark.parametrize(("lang", "name"), [("lt", "Knarkimas"), ("fi", "Kuorsaan"), ("hy", "Խռմփոց"), ("ru", "Храп")])
def test_student_snore_does_not_list_its_call_as_both_new_and_gone(lang: str, name: str) -> None:
    """Student Snore's Snore and khrap-52's removed Khrap share one name here: the same call to a reader."""
    text = render_rules("student-snore", "md", lang)
    diff = text[text.rindex("\n## "):]
    rows = [line for line in diff.splitlines() if line.startswith(f"- **{name}")]
    assert rows and all(":** " in row and not row.endswith(")") for row in rows), rows


# ------------------------------------------------------------------ the seeds' own words (seed 004) and grammar
def test_russian_khrap_uses_the_seed_s_words() -> None:
    text = sheet("khrap", "ru")
    assert "2. **Пятаки?** Начиная с игрока слева от храпящего" in text  # the declarer's offer, «Пятаки?»
    assert "из «пятаков» (сказавших «Беру пять»)" in text  # those who took five lead first
    assert "взявший меньше провалился («угрелся»)" in text
    assert "(говорят и «Полетели»)" in text  # the other name of Вертолёт


@pytest.mark.parametrize("name", BUILTINS)
def test_russian_wording(name: str) -> None:
    text = render_rules(name, "md", "ru")
    for wrong in ("заявился", "заявившись", "не провалившимися", "имея на руке:", "× банк", "Если шаг закончился",
                  "Встреча за столом", "Храплю"):
        assert wrong not in text, wrong
    assert not re.search(r"\d-\d", text.split("\n## ")[0]), "a hyphen for a dash in the description"


@pytest.mark.parametrize("name", BUILTINS)
def test_a_stake_paid_is_in_the_accusative(name: str) -> None:
    lt, fi = render_rules(name, "md", "lt"), render_rules(name, "md", "fi")
    assert not re.search(r"moka \d+ bazini(s|ai) statym", lt)  # moka 2 bazinius statymus
    assert not re.search(r"maksaa 1 peruspanos\b", fi)  # maksaa 1 peruspanoksen


def test_lithuanian_and_finnish_names() -> None:
    assert "Frapas 2–12 žaidėjams" in sheet("frap", "lt")
    assert "Ikävää" not in sheet("khrap", "fi")


@pytest.mark.parametrize("name", BUILTINS)
def test_armenian_has_no_latin_semicolon(name: str) -> None:
    assert ";" not in render_rules(name, "md", "hy")


# ------------------------------------------------------------------ the worked examples
def test_a_pass_after_the_cards_are_thrown_is_not_explained_by_them() -> None:
    text = render_rules("khrap", "md", "en")
    assert "12. A says Pass.\n" in text  # at the offers A's cards are gone already


def test_forced_helpers_are_listed_clockwise_with_their_locks() -> None:
    text = render_rules("khrap-52", "md", "en")  # C says Helicopter: D, A, B clockwise from him
    assert "D is now a helper and locks 4. A is now a helper and locks 4. B is now a helper and locks 4." in text
    assert "C: «Вертолёт» — блокирует 8." in render_rules("khrap-52", "md", "ru")
