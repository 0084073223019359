"""A variant's ``terms:`` are put in by one substitution on every face (issue 31): ``terms.own_words``, one pass,
longest first, what it puts in never searched again.  A hostile house rule's terms chain: the helper's word
«помогающ» becomes «вистующ при храпящ», whose «храпящ» is itself a term (→ «фрапующ»).  Substituted once, a
helper is «вистующ при храпящий»; a face that substituted term after term (as ``Voice.own`` and ``gamelog.word``
did, with ``str.replace``) says «вистующ при фрапующий»."""

from __future__ import annotations

import pytest

from khrap.engine import events as ev
from khrap.gamelog import render, word
from khrap.gamelog.voice import Voice
from khrap.rulebook.sheet import render_rules
from khrap.sim import table_words as tw
from khrap.terms import own_words
from khrap.variant.catalog import builtin
from khrap.web.table import Table, own_page_words
from tests.web.conftest import fixed_seeds

TERMS = {"ru": {"помогающ": "вистующ при храпящ", "храпящ": "фрапующ"}}
ONCE = "вистующ при храпящ"  # the helper, once
TWICE = "вистующ при фрапующ"  # what a chain of replacements makes of it


def house():
    return builtin("khrap").model_copy(update={"terms": TERMS})


def test_the_substitution_is_one_pass() -> None:
    own = own_words(TERMS["ru"])
    assert own("помогающий и храпящий") == "вистующ при храпящий и фрапующий"
    assert own("Помогающий") == "Вистующ при храпящий"  # (and the same capitalized)


@pytest.mark.parametrize("fmt", ["txt", "html"])
def test_the_sheet(fmt: str) -> None:
    sheet = render_rules(house(), fmt, "ru", example=False)
    assert ONCE in sheet and "фрапующ" in sheet and TWICE not in sheet


def test_the_game_log() -> None:
    voice = Voice("ru", house())
    assert render(ev.Overridden(1, {"status": "helper"}), "ru", voice=voice) == \
        "место 1 перебито и теперь вистующ при храпящий"
    assert render(ev.Overridden(1, {"status": "declarer"}), "ru", voice=voice).endswith("фрапующий")


def test_the_terminal() -> None:
    # the status column (``play.screen``) and the refusals say statuses through ``gamelog.word``
    assert word("ru", "helper", house()) == "вистующ при храпящий"
    assert word("ru", "declarer", house()) == "фрапующий"


def test_the_web_logs_words() -> None:
    # the page's own messages, as the table's view carries them (its log's «ставка помогающего», «приз храпящего»)
    own = own_page_words(house(), "ru")
    assert own["why_helper_stake"] == "ставка вистующ при храпящего"
    assert own["why_prize"] == "приз фрапующего, круг {round}"
    table = Table.create(house(), name="house", source=None, players=3, stacks=100, base_stake=1,
                         bots={1: "rule", 2: "rule"}, deals=1, seed_source=fixed_seeds("terms"), session_seed=5)
    assert table.view(0, "ru")["table"]["own"] == own
    assert table.view(0, "en")["table"]["own"] == {}  # (no English terms)


def test_the_report() -> None:
    # a forced status no call gives by choice: its own word, in the variant's terms (put in once: the status's word
    # in the variant's terms, then the name in them again, made «вистующ при фрапующий»)
    variant = house()
    nobody = variant.model_copy(update={"calls": {c: x for c, x in variant.calls.items()
                                                  if x.effects.status != "helper"}})
    assert tw.contract_name(nobody, "forced helper", "ru") == "вистующ при храпящий (обязательно)"
