"""Seats change hands, in real headless Chromium (issue 27): the host gives a seat to a new link or to a
bot, a player leaves, the same link open on two devices.  Each test failed on the page before it."""

from __future__ import annotations

import time

import pytest

from khrap.web import i18n
from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_table import PHONE, _create, _made_on_the_page, _page, _shot, browser  # noqa: E402, F401  (the fixture)


def answer_id(server) -> str:
    """The one table of a test's server."""
    return next(iter(server.host.tables))


def test_the_host_hands_seats_to_a_new_link_and_to_a_bot(live_server, browser) -> None:  # noqa: F811
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("seats"))
    errors: list[str] = []
    create = _made_on_the_page(browser, errors, server, ("", "", "", "normal"))
    create.wait_for_selector("#host-link")
    links = {int(a.get_attribute("data-seat")): a.get_attribute("href")
             for a in create.query_selector_all(".seat-link")}
    mine = create.context.new_page()  # the host's own seat, in the browser that created the table
    mine.on("pageerror", lambda e: errors.append(str(e)))
    mine.goto(links[0].replace("/play#", "/play?lang=en#"))
    mine.wait_for_selector("#host li[data-seat='1'] .host-link", state="attached")
    assert "face down" not in mine.inner_text("#table")  # nothing is dealt before the first deal
    mine.click("#host summary")  # the host's controls, folded until he opens them
    assert mine.inner_text("#host li[data-seat='1'] .host-link") == links[1]
    friend = _page(browser, errors, PHONE)
    friend.goto(links[1].replace("/play#", "/play?lang=en#"))
    friend.wait_for_selector("#next")
    assert friend.query_selector("#host") is None  # a friend's page has no host's controls
    mine.click("[data-new-link='1']")
    mine.click("#host-confirm")  # (said twice: test_browser_evening_left)
    friend.wait_for_selector("#refusal")
    said = friend.inner_text("#refusal")  # his seat as he knows it: "your seat", not its number (seat 1)
    assert "gave your seat to a new link: this link no longer plays it" in said and "seat 1" not in said
    assert friend.query_selector("#next") is None and friend.query_selector("#hand") is None
    friend.wait_for_selector("#status", state="hidden")  # it said "reconnecting…" under that sentence, for ever
    shown = "#host li[data-seat='1'] .host-link"
    mine.wait_for_function(f"() => document.querySelector({shown!r}).textContent !== {links[1]!r}")
    new = mine.inner_text("#host li[data-seat='1'] .host-link")
    other = _page(browser, errors, PHONE)
    other.goto(new.replace("/play#", "/play?lang=en#"))
    other.wait_for_selector("#next")
    assert "(you)" in other.inner_text("#seat-1 .seat-name")
    friend.reload()  # the old link, opened again: the same plain sentence
    friend.wait_for_selector("#refusal")
    assert "no longer plays it" in friend.inner_text("#refusal")
    friend.wait_for_selector("#status", state="hidden")
    _shot(mine, "serve-laptop-host", "=#host")
    # His connection drops (the server closes it) and the page connects again: the host's controls come back.
    clients = server.host.clients[answer_id(server)]
    dropped = next(c for c in clients if c.host and c.seat == 0)
    dropped.conn.handler.get_loop().call_soon_threadsafe(dropped.conn.close, "dropped")
    mine.wait_for_selector("#status.bad")
    mine.wait_for_selector("#status.ok")
    deadline = time.monotonic() + 20
    while not any(c.host and c.seat == 0 and c is not dropped for c in clients):
        assert time.monotonic() < deadline, "the page did not show its host token again"
        time.sleep(0.05)
    mine.wait_for_selector("[data-to-bot='2']")
    mine.click("[data-to-bot='2']")
    mine.click("#host-confirm")
    mine.wait_for_function("() => document.querySelector('#seat-2 .seat-tags').textContent.includes('bot')")
    assert mine.query_selector("[data-to-bot='2']") is None
    phone = _page(browser, errors, PHONE)  # the host's link on his phone: the links wrap, nothing scrolls sideways
    phone.goto(create.get_attribute("#host-link", "href").replace("/play#", "/play?lang=en#"))
    phone.wait_for_selector("#host summary")
    phone.click("#host summary")
    assert phone.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    friend.goto(server.url + "/?lang=en")  # his list of tables says the seat is no longer his
    friend.wait_for_selector("#mine li")
    assert "no longer yours" in friend.inner_text("#mine li")
    assert errors == []


def test_a_player_leaves_and_one_link_on_two_devices_is_not_silent(live_server, browser) -> None:  # noqa: F811
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("seats"))
    errors: list[str] = []
    answer = _create(server, bots={"3": "rule"})
    link = {s["seat"]: s["link"].replace("/play#", "/play?lang=en#") for s in answer["seats"] if s["human"]}
    anna = _page(browser, errors, PHONE)
    anna.goto(link[0])
    laptop = _page(browser, errors)
    laptop.goto(link[1])
    laptop.wait_for_selector("#next")
    phone = _page(browser, errors, PHONE)  # Boris opens his link on his phone too
    phone.goto(link[1])
    phone.wait_for_selector("#next")
    laptop.wait_for_selector("#elsewhere")
    assert "open in another tab or on another device" in laptop.inner_text("#elsewhere")
    assert laptop.query_selector("#next") is None and laptop.query_selector("#name") is None
    assert phone.query_selector("#elsewhere") is None
    laptop.click("#claim")  # "Play here": the laptop plays, the phone watches
    phone.wait_for_selector("#elsewhere")
    laptop.wait_for_selector("#next")
    laptop.click("#leave")
    laptop.click("#leave-confirm")
    laptop.wait_for_selector("#refusal")
    assert "You left the table" in laptop.inner_text("#refusal")
    phone.wait_for_selector("#refusal")
    assert "You left the table" in phone.inner_text("#refusal")
    laptop.wait_for_selector("#status", state="hidden")  # a link that plays no more does not say "reconnecting…"
    anna.wait_for_function("() => document.querySelector('#seat-1 .seat-tags').textContent.includes('left the table')")
    assert "left the table: a bot plays the seat" in anna.inner_text("#takeover")
    assert errors == []


def test_quick_reactions_and_table_talk_are_text_in_each_readers_language(live_server, browser) -> None:  # noqa: F811
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("seats"))
    errors: list[str] = []
    answer = _create(server, bots={"2": "rule", "3": "rule"})
    link = {s["seat"]: s["link"] for s in answer["seats"] if s["human"]}
    anna = _page(browser, errors, PHONE)
    anna.goto(link[0].replace("/play#", "/play?lang=en#"))
    boris = _page(browser, errors)
    boris.goto(link[1].replace("/play#", "/play?lang=ru#"))
    watcher = _page(browser, errors, PHONE)
    watcher.goto(answer["spectator"].replace("/play#", "/play?lang=en#"))
    for page in (anna, boris, watcher):
        page.wait_for_selector("#chat-list", state="attached")
    assert watcher.is_hidden("#chat-form") and watcher.is_hidden("#reactions")  # spectators read only
    anna.click("[data-react='well_played']")  # sent as an id, said in each reader's language
    boris.wait_for_selector("#chat-list li")
    assert boris.inner_text("#chat-list li").endswith("Хорошо сыграно!")
    assert "Хорошо сыграно!" in boris.inner_text("#seat-0 .bubble")  # by Anna's seat, for a few seconds
    hostile = '<img src=x onerror="document.title=1"> see https://evil.example/x'
    anna.fill("#chat-text", hostile)
    anna.press("#chat-text", "Enter")
    for page in (anna, boris, watcher):
        page.wait_for_function("() => document.querySelectorAll('#chat-list li').length === 2")
        assert page.inner_text("#chat-list li >> nth=-1").endswith(hostile)  # as text (the newest is shown on top)
        assert page.query_selector("#chat-list img, #chat-list a, .bubble img") is None  # no markup, no link
    boris.fill("#chat-text", "x")  # what is being typed survives the table's redraws
    anna.click("[data-react='thumbs_up']")
    boris.wait_for_function("() => document.querySelectorAll('#chat-list li').length === 3")
    assert boris.input_value("#chat-text") == "x"
    for _ in range(5):  # a flood: the chat box says so, the table is untouched
        anna.click("[data-react='laugh']")
    anna.wait_for_selector("#chat-note:not([hidden])")
    assert "Too many messages" in anna.inner_text("#chat-note")
    assert anna.query_selector("#refusal") is None
    said = len(server.host.chats[next(iter(server.host.tables))])
    watcher.reload()  # a page that comes (back) is told the talk so far
    watcher.wait_for_function(f"() => document.querySelectorAll('#chat-list li').length === {said}")
    assert errors == []


def test_a_seat_its_player_left_is_the_bots_and_no_russian_line_guesses_his_gender(live_server, browser) -> None:  # noqa: F811,E501
    # Anna (seat 0) and Борис (seat 1) on Russian phones, the deal of test_browser_table.py by its fixed plan (seat 1
    # declares and fails; seat 2 takes the last trick).  Its settlement said «Взятку взял: Место 2», «не выполнил»;
    # Anna away, «отошёл»; Anna gone, «Anna ушёл из-за стола» and her seat, played by a bot, still «Anna».
    from tests.web.test_browser_log import gendered
    from tests.web.test_browser_table import _play

    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    answer = _create(server, deals=2)
    link = {s["seat"]: s["link"].replace("/play#", "/play?lang=ru#") for s in answer["seats"] if s["human"]}
    pages = {}
    for seat, name in ((0, "Anna"), (1, "Борис")):
        pages[seat] = page = _page(browser, errors, PHONE)
        page.goto(link[seat])
        page.wait_for_selector("#next")
        page.fill("#name", name)
        page.dispatch_event("#name", "change")
    anna, boris = pages[0], pages[1]
    for page in pages.values():
        page.wait_for_function("() => document.querySelector('#seat-0 .seat-name').textContent.startsWith('Anna')")
        page.click("#next")
    _play(pages, lambda: False)
    words = i18n.strings("ru")
    seen = ["#trick-winner", "#settlement", "#log ol", ".seats"]
    boris.wait_for_selector("#settlement")
    assert [(at, gendered(boris.inner_text(at))) for at in seen] == [(at, []) for at in seen]
    anna.close()  # her phone is off a while: her seat says she is away
    away = f"() => document.querySelector('#seat-0 .seat-tags').textContent.includes({words['away']!r})"
    boris.wait_for_function(away)
    assert gendered(boris.inner_text("#seat-0")) == []
    anna = anna.context.new_page()  # back, on the same phone
    anna.goto(link[0])
    anna.wait_for_selector("#leave")
    anna.fill("#chat-text", "пока!")
    anna.press("#chat-text", "Enter")
    boris.wait_for_selector("#chat-list li")
    anna.click("#leave")
    anna.click("#leave-confirm")
    boris.wait_for_selector("#takeover")
    assert boris.inner_text("#takeover") == words["left_banner"].format(seat="Anna")  # who left: Anna, not her bot
    assert boris.inner_text("#seat-0 .seat-name") == words["bot_seat"].format(name="Anna")  # the bot's, hers before
    tags = boris.inner_text("#seat-0 .seat-tags")
    assert words["left_tag"] in tags and words["bot_kind"].format(kind=words["bot_normal"]) in tags
    assert gendered(boris.inner_text("#takeover")) == gendered(boris.inner_text(".seats")) == []
    assert boris.inner_text("#chat-list li b") == "Anna"  # she said it, not the bot that plays her seat now
    # The next deal: her seat's card in a trick is labelled with the whole name (it was cut to «Бот (место:…»).
    boris.click("#next")
    boris.wait_for_function("() => document.body.dataset.toAct !== ''")
    _play({1: boris}, lambda: boris.query_selector('#trick .played[data-seat="0"]') is not None)
    label = boris.query_selector('#trick .played[data-seat="0"] small')
    assert label.inner_text() == words["bot_seat"].format(name="Anna")
    assert label.evaluate("(s) => s.scrollWidth <= s.clientWidth && s.scrollHeight <= s.clientHeight")  # none hidden
    assert errors == []


def _anna_and_boris(server, browser, errors: list[str], lang: str) -> tuple[dict, object, object]:  # noqa: F811
    """A new table's seats 0 and 1 on two phones in ``lang``, seat 0 named "Anna" on hers, once seat 1's page
    shows the name: (the seats' links, her page, his page)."""
    answer = _create(server)
    link = {s["seat"]: s["link"].replace("/play#", f"/play?lang={lang}#") for s in answer["seats"] if s["human"]}
    anna, boris = _page(browser, errors, PHONE), _page(browser, errors, PHONE)
    boris.goto(link[1])
    anna.goto(link[0])
    anna.wait_for_selector("#name")
    anna.fill("#name", "Anna")
    anna.dispatch_event("#name", "change")
    boris.wait_for_function("() => document.querySelector('#seat-0 .seat-name').textContent === 'Anna'")
    return link, anna, boris


def test_a_players_name_stays_when_she_opens_her_link_on_another_device(live_server, browser) -> None:  # noqa: F811
    # Anna names herself on her phone, then opens her link on her laptop, whose browser keeps no name: the page
    # said an empty name on connecting, and the table called her "Seat 0" again.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("seats"))
    errors: list[str] = []
    link, phone, boris = _anna_and_boris(server, browser, errors, "en")
    laptop = _page(browser, errors)
    laptop.goto(link[0])
    laptop.wait_for_selector("#next")
    phone.wait_for_selector("#elsewhere")  # the laptop's connection is the seat's now: it has said hello
    assert laptop.input_value("#name") == "Anna" and laptop.inner_text("#seat-0 .seat-name") == "Anna (you)"
    assert boris.inner_text("#seat-0 .seat-name") == "Anna"
    assert errors == []


def test_a_player_away_is_said_without_a_gender(live_server, browser) -> None:  # noqa: F811
    # Anna's phone goes off between deals; 2 s later a bot plays her seat until she is back.  Борис's Russian page
    # said «Anna: игрока нет, пока он не вернётся, за него играет бот.»: he, of Anna.
    from tests.web.test_browser_log import gendered

    server = live_server(bot_delay=0.0, takeover_seconds=2.0, seed_source=fixed_seeds("seats"))
    errors: list[str] = []
    link, anna, boris = _anna_and_boris(server, browser, errors, "ru")
    anna.close()
    boris.wait_for_selector("#takeover", timeout=20_000)
    words = i18n.strings("ru")
    assert boris.inner_text("#takeover") == words["takeover_banner"].format(seat="Anna")
    assert words["taken_over"] in boris.inner_text("#seat-0 .seat-tags")
    assert boris.inner_text("#seat-0 .seat-name") == "Anna"  # her seat for a while: still hers
    assert gendered(boris.inner_text("#takeover")) == gendered(boris.inner_text(".seats")) == []
    assert errors == []
