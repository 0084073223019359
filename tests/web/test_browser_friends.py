"""What a table of friends found wrong on the page in an evening (stop 41: Khrap of two people and two bots on
a laptop and a Russian phone, Snore and Frap of four people on phones and a laptop, eight deals each): each test
here failed on the page before its fix."""

from __future__ import annotations

import re

import pytest

from khrap.web import i18n

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_evening import _box, _passing, _table  # noqa: E402
from tests.web.test_browser_log import showing  # noqa: E402
from tests.web.test_browser_table import PHONE, browser  # noqa: E402, F401  (the fixture)


def _seat_zero(server, chromium_browser, errors: list[str], table, lang: str):
    """The page of seat 0 of ``table`` as the server would send it (a 60 s takeover said), in ``lang``."""
    state = table.view(0, lang)
    state["takeover_seconds"] = 60.0
    return showing(server, chromium_browser, errors, state, lang)


def _second_round(table, seat) -> bool:
    """Khrap (seed "evening"): everybody passed over Q♠, 10♣ was turned, and somebody has spoken since."""
    events = table.view(seat, "en")["events"]
    return [e["kind"] for e in events].count("turned") == 2 and events[-1]["kind"] == "called"


def test_the_felt_tells_the_trump_that_stands_after_a_round_of_passes(live_server, browser) -> None:  # noqa: F811
    # Everybody passed over Q♠ and 10♣ was turned: clubs were trump.  The felt still said "Q♠ is turned: ♠ is
    # trump" over the first speaker's pass (it told the deal's first turned card), beside "Trump ♣".
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = _seat_zero(server, browser, errors, _table("khrap", "evening", _second_round, _passing), "en")
    page.wait_for_selector("#news")
    assert [d.inner_text() for d in page.query_selector_all("#news div")] == [
        "Anna (you) deals 4 cards each", "All pass in round 1", "10♣ is turned: ♣ is trump", "Boris: Pass"]
    assert page.inner_text("#trump") == "Trump ♣"
    assert _box(page, "#news")["bottom"] <= PHONE["height"]
    assert errors == []


def _snoring(table, seat) -> str:
    """Anna says "snore" when she may; the others as the rule bot would."""
    legal = [a["text"] for a in table.view(seat, "en")["legal"]]
    return "snore" if seat == 0 and "snore" in legal else table.bot_action(seat, "rule")


def _buying(table, seat) -> bool:
    return seat == 0 and any(a["word"] == "exchange" for a in table.view(seat, "en")["legal"])


def test_the_buying_says_how_many_cards_may_go(live_server, browser) -> None:  # noqa: F811
    # Snore's buying: two cards of five may go.  Kirill tapped three and the button went grey, with "Tap the cards
    # to change, then press the button." under it: nothing said how many were allowed, or why it was grey.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = _seat_zero(server, browser, errors, _table("snore", "evening", _buying, _snoring), "ru")
    page.wait_for_selector("#exchange")
    assert page.inner_text("#exchange-help") == "Коснитесь карт, которые меняете (не больше 2), и нажмите кнопку."
    for card in ("9S", "AH"):
        page.click(f'#hand [data-card="{card}"]')
    assert page.is_enabled("#exchange") and page.inner_text("#exchange") == "Поменять 2"
    page.click('#hand [data-card="6C"]')
    assert not page.is_enabled("#exchange")
    assert page.inner_text("#exchange-help") == "Менять можно не больше 2: коснитесь лишней карты ещё раз."
    page.click('#hand [data-card="9S"]')  # put back
    assert page.is_enabled("#exchange")
    assert page.inner_text("#exchange-help").startswith("Коснитесь карт")
    assert errors == []


GAP = """() => {
  let least = Infinity;  // px between two figures side by side in a row of the settlement (each cell's text)
  for (const row of document.querySelectorAll("#ledger tbody tr, #ledger tfoot tr")) {
    const boxes = [...row.querySelectorAll(".num")].filter((c) => c.textContent).map((c) => {
      const range = document.createRange(); range.selectNodeContents(c); return range.getBoundingClientRect(); });
    for (let i = 1; i < boxes.length; i++) least = Math.min(least, boxes[i].left - boxes[i - 1].right);
  }
  return least;
}"""


def test_the_settlements_figures_stand_apart_on_a_phone(live_server, browser) -> None:  # noqa: F811
    # A 390 px phone, four seats: each seat's column was as narrow as its widest figure, 0.2 rem either side, so
    # "88 88 136 88" and "−12 −12 +36 −12" read as one string of digits (6 px between them).
    from tests.web.test_browser_log import _state

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = showing(server, browser, errors, _state("ru"), "ru")
    page.wait_for_selector("#ledger")
    assert page.inner_text("#ledger tfoot tr.now").split() == ["Сейчас", "88", "88", "136", "88", "0"]
    assert page.evaluate(GAP) >= 9
    assert page.evaluate("() => { const box = document.querySelector('#settlement .scroll'); "
                         "return box.scrollWidth <= box.clientWidth; }")  # and every column still on the screen
    assert errors == []


NESTED = re.compile(r"\([^()]*\(")
"""A parenthesis opened inside another one."""


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_log_line_nests_parentheses(live_server, browser, lang) -> None:  # noqa: F811
    # «Вера платит в банк 2 (провал (играет), 1 взятка); банк 4»: the reason of a payment, in parentheses, held
    # the status in its own (Lithuanian, Finnish and Armenian the same).  Now the reason follows a colon.
    from tests.web.test_browser_log import _state

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = showing(server, browser, errors, _state(lang), lang)
    page.wait_for_selector("#log ol li")
    lines = [li.inner_text() for li in page.query_selector_all("#log ol li")]
    assert [line for line in lines if NESTED.search(line)] == []
    if lang == "ru":
        assert "Вера платит в банк 2: провал (играет), 1 взятка; банк 4" in lines
    assert errors == []


def test_an_invite_says_which_game_it_is_for(live_server, browser) -> None:  # noqa: F811
    # The host copied a seat's link and sent it: the friend got "http://…/play#…" and asked what they were
    # playing.  The links page did not say it either.  Now each copy button copies the game with the link.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    for lang, said in (("en", "Khrap (8 deals)"), ("ru", "Храп (8 раздач)")):
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
        create = context.new_page()
        create.goto(server.url + f"/?lang={lang}")
        create.select_option("#variant", "khrap")
        create.fill("#deals", "8")
        for seat, kind in enumerate(("", "", "normal", "normal")):
            create.select_option(f"#seat-{seat}", kind)
        create.click("#create")
        create.wait_for_selector(".seat-link")
        assert create.inner_text("#invite-table") == said
        link = create.get_attribute('.seat-link[data-seat="1"]', "href")
        create.click('li.invite:has(.seat-link[data-seat="1"]) button.copy')
        seat = "Seat 1" if lang == "en" else "Место 1"
        assert create.evaluate("() => navigator.clipboard.readText()") == f"{said}, {seat}: {link}"
        context.close()


def test_a_second_tab_of_the_same_browser_is_called_a_tab(live_server, browser) -> None:  # noqa: F811
    # Anna opened her link again in a second tab of her laptop: the first said "This seat is open on another
    # device", and she had one device.
    from tests.web.test_browser_table import _create

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    link = _create(server)["seats"][0]["link"].replace("/play#", "/play?lang=ru#")
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    first = context.new_page()
    first.goto(link)
    first.wait_for_selector("#next")
    second = context.new_page()
    second.goto(link)
    second.wait_for_selector("#next")
    first.wait_for_selector("#elsewhere")
    assert first.inner_text("#elsewhere").startswith("Это место открыто в другой вкладке или на другом устройстве")
    context.close()


def test_a_page_opened_mid_trick_does_not_slide_the_trick_in_again(live_server, browser) -> None:  # noqa: F811
    # Вера's phone slept and she opened her link again: every card of the trick on the table slid in, as if all
    # were played that moment.  Only a card played while the page watches slides in.
    import json

    from tests.web.test_browser_log import FAKE_SOCKET
    from tests.web.test_browser_table import _page

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    table = _table("frap", "evening", lambda t, s: len(t.view(s, "en")["obs"]["trick"]) == 2)
    before = table.view(0, "en")
    table.apply(table.session.to_act, table.bot_action(table.session.to_act, "rule"), by="bot")
    after = table.view(0, "en")
    assert len(after["obs"]["trick"]) == 3
    page = _page(browser, errors, PHONE)
    exposed = FAKE_SOCKET.replace("constructor() {", "constructor() { window.SOCKET = this;")
    page.add_init_script(f"window.STATE = {json.dumps(before)};" + exposed)
    page.goto(server.url + "/play?lang=en#token")
    page.wait_for_selector("#trick .played")
    assert page.eval_on_selector_all("#trick .played", "(cards) => cards.map((c) => c.classList.contains('fresh'))") \
        == [False, False]
    page.evaluate(f"() => window.SOCKET.say('message', {{ data: JSON.stringify({json.dumps(after)}) }})")
    page.wait_for_function("() => document.querySelectorAll('#trick .played').length === 3")
    assert page.eval_on_selector_all("#trick .played", "(cards) => cards.map((c) => c.classList.contains('fresh'))") \
        == [False, False, True]
    assert errors == []
