"""A long name, in headless Chromium on a phone and a laptop: cut with "…" between two letters, whole in a tooltip.

A name was cut at 24 characters by the server, silently (no "…"), and by code points: a letter written with its
accent as a second character (Й as И and a combining breve) lost the accent when the cut fell between them, and
the name's end was gone for good.  The server now keeps 64 characters, cut between letters; the page shows 24
letters, the 24th a "…" when the name is longer, and the whole name as the title of the seat's box, its standings
row and the host's row."""

from __future__ import annotations

import pytest

from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_table import PHONE, _create, _page, _seated, browser  # noqa: E402, F401  (the fixture)

LAPTOP = {"width": 1200, "height": 900}
RUSSIAN = "Александра Константиновна Преображенская"  # 40 letters
ARMENIAN = "Անահիտ Տեր-Մինասյան Ղազարոսյանց Մելիքսեթյան"  # 43 letters
BREVES = "И\u0306" * 30  # 30 letters of two characters each: Й written as И and a combining breve


def _named(page, name: str) -> None:
    page.fill("#name", name)
    page.dispatch_event("#name", "change")


def _shown(page, seat: int) -> tuple[str, str | None]:
    at = f"#seat-{seat} .seat-name"
    return page.inner_text(at), page.get_attribute(at, "title")


def test_a_long_name_is_cut_between_letters_with_an_ellipsis_and_shown_whole_in_its_title(live_server, browser) -> None:  # noqa: F811,E501
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("long-names"))
    errors: list[str] = []
    answer = _create(server, bots={"2": "rule", "3": "rule"})
    pages = _seated(browser, errors, answer, lang="ru")
    laptop = _page(browser, errors, LAPTOP)
    laptop.goto(answer["host"].replace("/play#", "/play?lang=ru#"))
    laptop.wait_for_selector("#seat-1 .seat-name")
    for name, cut in ((RUSSIAN, "Александра Константинов…"), (ARMENIAN, "Անահիտ Տեր-Մինասյան Ղազ…"),
                      (BREVES, "И\u0306" * 23 + "…")):
        _named(pages[1], name)
        for page in (pages[0], laptop):
            page.wait_for_function("(cut) => document.querySelector('#seat-1 .seat-name').textContent === cut", arg=cut)
            assert _shown(page, 1) == (cut, name)
        assert pages[1].inner_text("#seat-1 .seat-name") == f"{cut} (вы)"  # his own, cut alike
        assert pages[1].input_value("#name") == name  # the whole name kept, as he wrote it
        if not laptop.is_visible("#host li[data-seat='1'] b"):
            laptop.click("#host summary")  # the host's controls, folded until he opens them
        row = laptop.query_selector("#host li[data-seat='1'] b")
        assert (row.inner_text(), row.get_attribute("title")) == (cut, name)
        for page in (*pages.values(), laptop):  # nothing scrolls sideways
            assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
    short = "Борис" + "Ж" * 19  # 24 letters: shown whole, no tooltip
    _named(pages[1], short)
    pages[0].wait_for_function("(n) => document.querySelector('#seat-1 .seat-name').textContent === n", arg=short)
    assert _shown(pages[0], 1) == (short, None)
    assert errors == []


def test_the_server_keeps_64_characters_of_a_name_cut_between_letters() -> None:
    from khrap.web.host import readable

    assert readable(RUSSIAN) == RUSSIAN and readable(ARMENIAN) == ARMENIAN  # whole: the page cuts what it shows
    assert readable("И\u0306" * 40) == "И\u0306" * 32  # 80 characters: 64 kept, the 64th a breve with its И
    assert readable("Ж" * 63 + "И\u0306" + "Ж") == "Ж" * 63  # the 64th character an И whose breve is the 65th
    assert readable("Ж" * 63 + " Борис") == "Ж" * 63  # (no space left at the end)
