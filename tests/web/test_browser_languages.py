"""The table page in the other sheet languages (issue 27): Lithuanian, Finnish and Armenian, in real headless
Chromium.  The page's words come from its catalogs, the calls' names from the variant and the log's
sentences from the game log's catalogs: nothing on the page is left in English, and the log shows no call
id and no card code.  Each failed before (the page offered English and Russian only)."""

from __future__ import annotations

import re

import pytest

from khrap.web import i18n
from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_table import PHONE, _create, _page, browser  # noqa: E402, F401  (the fixture)

KEPT = {"khrap", "replay", "verify", "record", "sha-256", "yaml", "extends"}
"""English-looking words a translation keeps: commands, a hash's name, a file format's keys."""
ENGLISH = {w for text in i18n.UI.values() for w in re.findall(r"[a-z]{4,}", text.lower())} - KEPT
"""Every word of four letters or more the page says in English."""


@pytest.mark.parametrize("lang", ["lt", "fi", "hy"])
def test_the_page_speaks_the_players_language(live_server, browser, lang) -> None:  # noqa: F811
    # The deal of test_browser.py (seed "browser-test:0"): seat 0 deals, seat 1 (the person) speaks first.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    answer = _create(server, bots={"0": "rule", "2": "rule", "3": "rule"})
    errors: list[str] = []
    page = _page(browser, errors, PHONE)
    page.goto(answer["seats"][1]["link"].replace("/play#", f"/play?lang={lang}#"))
    page.wait_for_selector("#next")
    words = i18n.strings(lang)
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert page.inner_text("#next") == words["start"]
    assert [b.get_attribute("data-lang") for b in page.query_selector_all(".langs button")] == list(i18n.LANGS)
    page.click("#next")
    page.wait_for_selector("button.action")  # his first call: the table, his cards, the calls, the log
    page.click("#log summary") if not page.is_visible("#log ol") else None
    text = page.inner_text("body")
    left = sorted(ENGLISH & set(re.findall(r"[a-z]{4,}", text.lower())))
    assert left == [], f"English on the {lang} page: {left}"
    log = page.inner_text("#log ol")
    assert log and not re.search(r"\b[2-9TJQKA][SHDC]\b", log) and "khrap" not in log.lower(), log
    assert words["your_turn"] in page.inner_text("#turn")  # (the line above the hand: the buttons are under it)
    assert errors == []


def test_the_russian_page_writes_cards_with_the_sheets_rank_letters(live_server, browser) -> None:  # noqa: F811
    # The deal of test_browser_table.py (seed "browser-test:0", its fixed plan): seat 0 holds KD KC AD JD;
    # trick 1 is led by seat 3 with AS, and seat 0 must trump with KC.  On the Russian page every card is
    # written with the Russian sheet's letters (rank_label: В Д К Т, as the terminal and the log write
    # them), while the page's data attributes and the actions it sends stay CONTRACT codes.
    from khrap.cards import SUIT_SYMBOLS
    from tests.web.test_browser_table import _act, _play, _seated, _trick

    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    pages = _seated(browser, errors, _create(server, bots={"2": "rule", "3": "rule"}), lang="ru")
    seat0 = pages[0]
    _play(pages, lambda: len(_trick(seat0)) == 1 and seat0.query_selector("#hand .card.legal") is not None)
    assert _trick(seat0) == ["3 AS"]
    ranks = i18n.ranks("ru")
    assert {ranks[r] for r in "JQKA"}.isdisjoint("JQKA")  # the catalog gives Russian letters

    def shown(selector: str) -> dict[str, str]:
        return {c.get_attribute("data-card"): c.inner_text() for c in seat0.query_selector_all(f"{selector} .card")}

    def tooltips(selector: str) -> dict[str, str]:
        cards = seat0.query_selector_all(f"{selector} .card")
        return {c.get_attribute("data-card"): c.get_attribute("title") for c in cards}

    hand, trick = shown("#hand"), shown("#trick")
    assert sorted(hand) == ["AD", "JD", "KC", "KD"] and list(trick) == ["AS"]  # codes in the attributes
    for code, text in {**hand, **trick}.items():
        assert text == ranks[code[0]] + SUIT_SYMBOLS[code[1]], (code, text)
        assert not re.search(r"[JQKA]", text), text
    # A card's tooltip is the reader's too (it said the code, "KC"): the hand's king of clubs is «К♣ (трефы)»,
    # the trick's ace of spades «Т♠ (пики)» (the suit names the terminal's reader takes typed).
    assert tooltips("#hand")["KC"] == "К♣ (трефы)" and tooltips("#trick")["AS"] == "Т♠ (пики)"
    for code, title in {**tooltips("#hand"), **tooltips("#trick")}.items():
        assert title == f"{ranks[code[0]]}{SUIT_SYMBOLS[code[1]]} ({i18n.suits('ru')[code[1]]})", (code, title)
    _act(seat0)  # the card it sends is the code: the server applies KC
    table = next(iter(server.host.tables.values()))
    played = [text for seat, text, _who in table.actions if seat == 0]
    assert played[-1].endswith("KC"), played
    log = seat0.inner_text("#log ol") if seat0.is_visible("#log ol") else ""
    assert not re.search(r"\b[JQKA][♠♥♦♣]", log), log
    assert errors == []


def _turned_offered(lang: str) -> dict:
    """A real view of Frap (seed "turned5:0", every seat played by rules of thumb up to it) where seat 0 may cut
    and take the turned card: his, in ``lang``."""
    from khrap.variant.catalog import builtin
    from khrap.web.table import Table

    table = Table.create(builtin("frap"), name="frap", source=None, players=4, stacks=100, base_stake=1,
                         bots={1: "rule", 2: "rule", 3: "rule"}, deals=1, seed_source=fixed_seeds("turned5"),
                         session_seed=7)
    table.start_deal()
    while not (table.session.to_act == 0 and any(a["take_turned"] for a in table.view(0, lang)["legal"])):
        table.apply(table.session.to_act, table.bot_action(table.session.to_act, "rule"), by="bot")
    return table.view(0, lang)


def test_a_call_that_takes_the_turned_card_reads_as_one_phrase_in_russian(live_server, browser) -> None:  # noqa: F811
    # Frap's "cut" and "cut, taking the turned card": the second button said «Подрезаю и взять открытую карту», a
    # first person and an infinitive in one phrase.
    from tests.web.test_browser_log import showing

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = showing(server, browser, errors, _turned_offered("ru"), "ru")
    page.wait_for_selector("button.action[data-action='cut trump']")
    assert page.inner_text("button.action[data-action='cut']") == "Подрезаю"
    assert page.inner_text("button.action[data-action='cut trump']") == "Подрезаю + открытая карта"
    assert errors == []
