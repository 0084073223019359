"""Issue 16: the Russian sheets read as a Russian card player would (guards
khrap/rulebook/locale/ru/LC_MESSAGES/messages.po, its plural rule, and the Russian names in variants/)."""

from __future__ import annotations

import pytest

from khrap.rulebook.i18n import translations
from khrap.rulebook.sheet import render_rules
from khrap.variant.catalog import builtin, builtin_names
from khrap.variant.schema import Variant


def ru(ref, *, example: bool = True) -> str:
    return " ".join(render_rules(ref, "md", "ru", example=example).split())


WRONG_TERMS = ["разыгрывающ", "Разыгрывающ", "помощник", "Помощник", "Анте", "анте", "вслепую", "сдающ", "раздающ",
               "фраппующ"]


@pytest.mark.parametrize("name", builtin_names())
def test_the_games_own_terms(name: str) -> None:
    text = ru(name)
    found = [term for term in WRONG_TERMS if term in text]
    assert not found, found
    assert ("храпящ" in text or "фрапующ" in text) and "сдатчик" in text
    assert "помогающ" in text or "вистующ" in text


@pytest.mark.parametrize("name", builtin_names())
def test_stake_words(name: str) -> None:
    text = ru(name)
    assert "базов" in text and "ставк" in text and "взнос" not in text
    assert "Ставка на кон:" in text or "Ставки на кон нет" in text


def test_blind_is_vtyomnuyu_and_frap_terms() -> None:
    text = ru("frap")
    assert "Фрап втёмную" in text and "втёмную" in text
    assert "Подрезаю" in text and "Режу" not in text
    assert "Покупка" in text  # frap's exchange, by its own name
    assert "фрапующ" in text


def test_cut_in_snore_is_podrezayu() -> None:
    assert "Подрезаю" in ru("snore") and "Режу" not in ru("snore")


def test_exactly_five_players() -> None:
    data = builtin("khrap").model_dump(mode="json")
    data["players"] = {"min": 5, "max": 5}
    assert "Ровно 5 игроков." in ru(Variant.model_validate(data), example=False)
    data["players"] = {"min": 2, "max": 2}
    assert "Ровно 2 игрока." in ru(Variant.model_validate(data), example=False)


def test_card_counts_agree() -> None:
    assert "32 карты" in ru("frap") and "32 карт " not in ru("frap")
    assert "52 карты" in ru("frap")
    assert "36 карт" in ru("khrap")


def test_a_game_named_in_a_sentence_keeps_its_name_whole() -> None:
    """«в „Студенческом храпе“», not «в „Студенческий храп“»: the name follows «в игре»."""
    text = ru("student-snore")
    assert "в игре «Студенческий храп»" in text
    assert "в «Студенческий храп»" not in text


def test_merry_shows_the_trump_ace_and_keeps_it() -> None:
    assert "показывает козырного туза и оставляет его себе" in ru("khrap")
    assert "показывает козырную шестёрку и оставляет её себе" in ru("khrap")


def test_plural_forms_come_from_the_catalogs_plural_rule() -> None:
    tr = translations("ru")
    forms = {n: tr.ngettext("draws %(num)s card", "draws %(num)s cards", n) for n in (1, 2, 5, 21, 22, 25, 11)}
    # the catalog's Plural-Forms decides: 1 and 21 one form, 2 and 22 another, 5, 25 and 11 the third
    assert forms[1] == forms[21] != forms[2] == forms[22] != forms[5] == forms[25] == forms[11]
    chips = {n: tr.ngettext("%(count)s chip", "%(count)s chips", n) % {"count": n} for n in (1, 3, 7)}
    assert chips == {1: "1 фишку", 3: "3 фишки", 7: "7 фишек"}


def test_frap_and_snore_say_their_own_roles() -> None:
    """«фрапующий» and «вистующий» in frap, «вистующий» in snore, through the variants' `terms:`."""
    frap = ru("frap")
    assert "фрапующ" in frap and "вистующ" in frap
    assert "храпящ" not in frap and "помогающ" not in frap
    assert "Фрапующий и вистующие разыгрывают взятки" in frap
    snore = ru("snore")
    assert "храпящ" in snore and "вистующ" in snore and "помогающ" not in snore


def test_a_penalty_clause_is_set_off_by_commas() -> None:
    """«игрок, сказавший «…», платит»: a participle clause after its noun takes commas on both sides, so the
    penalty line is one catalog message per shape, not words joined by spaces."""
    frap = " ".join(ru("frap").split())
    assert "провалившийся игрок, сказавший «Фрап втёмную», с 1 взяткой, платит 2 × P" in frap
    assert "провалившийся фрапующий с 1 взяткой платит 1 × P" in frap  # no clause, no commas


def test_a_stake_of_base_stakes_and_pots_is_paid_in_the_accusative() -> None:
    """«платит 1 базовую ставку + банк × 1», as «платит 1 базовую ставку» (issue 30: «банк × 1», not «1 × банк»)."""
    data = builtin("khrap").model_dump(mode="json")
    data["statuses"]["declarer"]["stake"] = {"base": 1, "pots": 1}
    text = " ".join(ru(Variant.model_validate(data), example=False).split())
    assert "1 базовую ставку + банк × 1" in text and "1 базовая ставка" not in text


def test_a_read_through_against_the_seeds() -> None:
    # Read against seed 004 and a card player's ear: "сдаются 4 карты" (2 to 4 agree in the plural), the shared
    # pot split by "все их взятки", "Игра заканчивается только раздачей, после которой ..." (not "после раздачи,
    # после которой"), and a penalty's condition closed before what is paid ("..., если к началу розыгрыша среди
    # его карт — козырной туз: платит 3 × P", not "... козырной туз платит").
    khrap, frap = ru("khrap"), ru("frap")
    assert "Каждому сдаются 4 карты, в раздаче 4 взятки." in khrap
    assert "Каждому сдаётся 4 карты" not in khrap
    assert "каждый получает ⌊банк × его взятки ÷ все их взятки⌋" in khrap
    assert "Игра заканчивается только раздачей, после которой банк пуст" in khrap
    assert "при провале с 1 взяткой, если к началу розыгрыша среди его карт — козырной туз: платит 3 × P" in frap
    assert "при провале с 1 взяткой: платит 2 × P" in frap


def test_lithuanian_says_the_stack_may_go_negative() -> None:
    text = " ".join(render_rules("khrap-shoot", "md", "lt").split())
    assert "Žaidėjo žetonų skaičius gali tapti neigiamas: skola užrašoma." in text
    assert "mažiau nei nulis" not in text
