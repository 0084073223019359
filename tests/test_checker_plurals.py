"""A count in a house-rule mistake in each language's plural form (khrap.variant.said.Counted, gettext's
ngettext over checker.po): Lithuanian and Russian have three forms (1 and 21, 2-9 and 22, 0 and 10-20),
Finnish two, Armenian one noun after any number.  Before, the checker chose between two English messages by
``count == 1``, so the Russian and the Lithuanian could only write «карт: 3» / «kortų: 3»."""

from __future__ import annotations

from pathlib import Path

import pytest

from khrap.rulebook.i18n import checker_translations
from khrap.variant import catalog
from khrap.variant.errors import errors_of
from khrap.variant.lint import lint_file
from khrap.variant.loader import VariantError
from khrap.variant.said import Counted
from tests.test_checks_both_ways import REFUSED

CARDS = {  # the forms worked by hand from each language's grammar, not read from the program
    "en": {1: "1 card", 2: "2 cards", 5: "5 cards", 11: "11 cards", 21: "21 cards"},
    "ru": {1: "1 карта", 2: "2 карты", 4: "4 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта", 22: "22 карты"},
    "lt": {1: "1 korta", 2: "2 kortos", 9: "9 kortos", 10: "10 kortų", 11: "11 kortų", 21: "21 korta",
           22: "22 kortos"},
    "fi": {1: "1 kortti", 2: "2 korttia", 21: "21 korttia"},
    "hy": {1: "1 քարտ", 2: "2 քարտ", 21: "21 քարտ"},
}


@pytest.mark.parametrize("lang", sorted(CARDS))
def test_a_count_of_cards_takes_the_languages_plural_form(lang: str) -> None:
    say = checker_translations(lang).gettext
    for count, words in CARDS[lang].items():
        assert Counted("%(count)s card", "%(count)s cards", count, count=count).shown(say) == words


def test_without_a_catalog_the_english_rule_picks_the_form() -> None:
    # khrap.variant.catalog's stage naming shows a message with `str` by default: not a catalog's gettext
    assert Counted("%(n)s trick", "%(n)s tricks", 1, n=1).shown(str) == "1 trick"
    assert Counted("%(n)s trick", "%(n)s tricks", 0, n=0).shown() == "0 tricks"


def _refused(tmp_path: Path, case: str, lang: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text(REFUSED[case][0], encoding="utf-8")
    with pytest.raises(VariantError) as info:
        catalog.load_variant(str(path))
    return " | ".join(error.text(checker_translations(lang).gettext) for error in errors_of(info.value))


def test_the_cards_a_caller_is_left_with(tmp_path: Path) -> None:
    # 'help' throws the hand, keeps an ace it does not require and draws 3: a caller with no ace has 3 cards
    case = "_hand_sizes:kept-cards-are-required"
    assert "останется 3 карты, а не размер руки 4" in _refused(tmp_path, case, "ru")
    assert "liks 3 kortos, o ne rankos dydis 4" in _refused(tmp_path, case, "lt")
    assert "jää 3 korttia eikä käden koko 4" in _refused(tmp_path, case, "fi")
    assert "կմնա 3 քարտ, ոչ թե ձեռքի չափը՝ 4" in _refused(tmp_path, case, "hy")


def test_the_discards_an_out_caller_owes_and_the_card_he_keeps(tmp_path: Path) -> None:
    # 'fold' keeps his required ace (1 card) and owes 2 discards
    case = "_out_discards:an-out-caller-keeps-the-cards-he-owes"
    russian = _refused(tmp_path, case, "ru")
    assert "с долгом сбросить 2 карты (`then_discard: 2`)" in russian and "остаётся всего 1 карта" in russian
    lithuanian = _refused(tmp_path, case, "lt")
    assert "nusimesti 2 kortas (`then_discard: 2`)" in lithuanian and "jam lieka tik 1 korta" in lithuanian
    finnish = _refused(tmp_path, case, "fi")
    assert "heittämään pois 2 korttia (`then_discard: 2`)" in finnish and "hänelle jää vain 1 kortti" in finnish
    # and owing one: stage 'late' throws his hand as he goes out
    case = "_out_discards:an-out-caller-owing-a-discard-keeps-his-hand-until-the-stage-ends"
    assert "с долгом сбросить 1 карту (`then_discard: 1`)" in _refused(tmp_path, case, "ru")
    assert "nusimesti 1 kortą (`then_discard: 1`)" in _refused(tmp_path, case, "lt")
    assert "heittämään pois 1 kortin (`then_discard: 1`)" in _refused(tmp_path, case, "fi")


def test_the_tricks_a_fine_charges(tmp_path: Path) -> None:
    # frap's helpers must take 1 trick: a fine on a helper with 1 trick, and one with 2, is never paid
    for tricks, russian, lithuanian, finnish in ((1, "взявшего 1 взятку", "paėmusį 1 kyšį", "joka otti 1 tikin"),
                                                 (2, "взявшего 2 взятки", "paėmusį 2 kyšius", "joka otti 2 tikkiä")):
        path = tmp_path / f"fines{tricks}.yaml"
        path.write_text("extends: frap\nsettlement:\n  penalties:\n"
                        f"    - {{status: helper, tricks: {tricks}, pay: {{pots: 1}}}}\n    - {{pay: stake}}\n",
                        encoding="utf-8")
        warned = [w for w in lint_file(path)[1] if "can never be paid" in str(w)]
        assert len(warned) == 1
        for lang, words in (("ru", russian), ("lt", lithuanian), ("fi", finnish)):
            assert words in warned[0].text(checker_translations(lang).gettext)
