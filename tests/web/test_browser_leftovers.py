"""What the last evening at the browser table left (issues 29, 31, 32's leftovers), seen again on a third: a host
who made the table in Russian, Snore's cut, a five-seat settlement on a phone, the evening's chart, Student Snore's
drawing calls.  Each test here failed on the page before its fix."""

from __future__ import annotations

import pytest

from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_log import showing  # noqa: E402
from tests.web.test_browser_table import PHONE, _page, browser  # noqa: E402, F401  (the fixture)

LAPTOP = {"width": 1366, "height": 768}


def test_the_hosts_seat_opens_in_the_language_the_table_was_made_in(live_server, browser) -> None:  # noqa: F811
    # Глеб opened the start page as /?lang=ru, made the table and tapped "open" on his own seat: his seat's page
    # came up in English (the link carries no language, and the browser's own is English).
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("host-lang"))
    errors: list[str] = []
    create = _page(browser, errors, PHONE)
    create.goto(f"{server.url}/?lang=ru")
    create.select_option("#variant", "khrap")
    for seat, kind in enumerate(("", "", "normal", "normal")):
        create.select_option(f"#seat-{seat}", kind)
    create.click("#create")
    create.wait_for_selector(".seat-link")
    with create.context.expect_page() as opened:
        create.click('.seat-link[data-seat="0"]')
    seat = opened.value
    seat.on("pageerror", lambda e: errors.append(str(e)))
    seat.wait_for_selector("#next")
    assert seat.evaluate("() => document.documentElement.lang") == "ru"
    assert seat.inner_text("#next") == "Начать игру"  # ("Start the game" in the page's Russian catalog)
    # the invites he copies for his friends still carry no language: each friend's browser chooses his own
    assert "lang=" not in create.get_attribute('.seat-link[data-seat="1"]', "href")
    assert errors == []


def _at_the_cut(seed: str, lang: str) -> dict:
    """Snore (seed "cut0:0"): the rule bots bid, the snorer found, and seat 0, who passed, is offered the cut."""
    from khrap.variant.catalog import builtin
    from khrap.web.table import Table

    table = Table.create(builtin("snore"), name="snore", source=None, players=4, stacks=100, base_stake=1,
                         bots={1: "rule", 2: "rule", 3: "rule"}, deals=4, seed_source=fixed_seeds(seed),
                         session_seed=7)
    table.start_deal()
    while not (table.session.to_act == 0 and any(a["word"] == "cut" for a in table.view(0, lang)["legal"])):
        table.apply(table.session.to_act, table.bot_action(table.session.to_act, "rule"), by="bot")
    return table.view(0, lang)


@pytest.mark.parametrize(("lang", "said"), [("en", "your choice: Cut or Pass."),
                                            ("ru", "ваш выбор: Подрезаю или Пас.")])
def test_snores_cut_says_what_the_seat_decides(live_server, browser, lang, said) -> None:  # noqa: F811
    # Snore's cut is offered to the seats that passed, once the snorer is known: "cut" or "pass" (snore.yaml's
    # calls, named Cut/Подрезаю and Pass/Пас there).  The turn line said "make your call.", as in the bidding.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    state = _at_the_cut("cut0", lang)
    assert state["obs"]["phase"] == "offers" and sorted(a["word"] for a in state["legal"]) == ["cut", "pass"]
    page = showing(server, browser, errors, state, lang)
    page.wait_for_selector("#todo")
    assert page.inner_text("#todo") == said
    assert errors == []
