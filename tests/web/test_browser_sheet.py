"""A table's rule sheet on a phone (issue 27), in real headless Chromium: no sideways scroll at 390×844 in
any sheet language (a wide table scrolls inside its own box), and the house changes marked against the
built-in the table's rules change.  Each check failed on the sheet before (a Russian sheet was 454 px wide;
a pasted house rule's sheet marked nothing)."""

from __future__ import annotations

import pytest

from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_table import PHONE, _create, _page, browser  # noqa: E402, F401  (the fixture)

DEAR_HELP = """extends: khrap-52
name: {en: "Dear help", ru: "Дорогая помощь"}
allow_debt: false
statuses:
  helper: {stake: {pots: 3}}
"""


def _sheet(page, url: str) -> dict:
    page.goto(url)
    return page.evaluate("""() => ({
        wide: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        box: document.querySelector('aside.house')?.innerText || '',
        marked: [...document.querySelectorAll('.changed .mark')].length })""")


@pytest.mark.parametrize("lang", ["en", "ru", "lt", "fi", "hy"])
def test_a_house_rules_sheet_fits_a_phone_and_marks_its_changes(live_server, browser, lang) -> None:  # noqa: F811
    server = live_server(seed_source=fixed_seeds("sheet"))
    answer = _create(server, variant=None, text=DEAR_HELP, players=4, bots={"2": "normal", "3": "normal"})
    errors: list[str] = []
    page = _page(browser, errors, PHONE)
    found = _sheet(page, f"{server.url}/sheet/{answer['table']}?lang={lang}")
    assert found["wide"] <= 0, f"the {lang} sheet scrolls sideways by {found['wide']} px"
    # the changes against Khrap-52: no debts (one line) and the helper's stake (the calls that make a helper)
    assert found["marked"] >= 2 and "52" in found["box"], found
    assert errors == []


def test_a_built_in_at_another_stake_says_so_and_plain_marks_nothing(live_server, browser) -> None:  # noqa: F811
    server = live_server(seed_source=fixed_seeds("sheet"))
    errors: list[str] = []
    page = _page(browser, errors, PHONE)
    dearer = _create(server, base_stake=3)
    found = _sheet(page, f"{server.url}/sheet/{dearer['table']}?lang=en")
    assert "A base stake is 3 chips" in found["box"] and found["wide"] <= 0
    plain = _create(server)
    found = _sheet(page, f"{server.url}/sheet/{plain['table']}?lang=en")
    assert found["box"] == "" and found["marked"] == 0
    assert errors == []
