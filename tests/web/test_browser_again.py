"""After "Play again" the host is the new table's host, in real headless Chromium: the host plays the evening to
its end from his own seat, presses "Play again" and lands at his seat of the new table with the host's controls;
his friend's page reads who started it and is never sent a host link."""

from __future__ import annotations

import time

import pytest

from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_table import PHONE, _made_on_the_page, _page, _play, browser  # noqa: E402, F401  (the fixture)


def test_play_again_keeps_the_host_and_says_who_started_it(live_server, browser) -> None:  # noqa: F811
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("again"))
    errors: list[str] = []
    create = _made_on_the_page(browser, errors, server, deals=1)
    links = {int(a.get_attribute("data-seat")): a.get_attribute("href")
             for a in create.query_selector_all(".seat-link")}
    anna = create.context.new_page()  # the host's own seat, in the browser that created the table
    anna.on("pageerror", lambda e: errors.append(str(e)))
    boris = _page(browser, errors, PHONE)
    frames: list[str] = []  # everything the server sends Boris's page
    boris.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else "")))
    pages = {0: anna, 1: boris}
    for seat, page in pages.items():
        page.goto(links[seat].replace("/play#", "/play?lang=en#"))
        page.wait_for_selector("#next")
        page.fill("#name", ("Anna", "Boris")[seat])
        page.dispatch_event("#name", "change")
    anna.wait_for_selector("#host", state="attached")  # her seat's page has the host's controls
    hosting = create.context.new_page()  # and her host page is open too (no seat: she watches with the controls)
    hosting.on("pageerror", lambda e: errors.append(str(e)))
    hosting.goto(create.get_attribute("#host-link", "href").replace("/play#", "/play?lang=en#"))
    hosting.wait_for_selector("#host", state="attached")
    for page in pages.values():
        page.wait_for_function("() => document.querySelector('#seat-0 .seat-name').textContent.startsWith('Anna')")
        page.click("#next")
    for page in pages.values():
        page.wait_for_selector("#hand .card")
    _play(pages, lambda: False)
    for page in pages.values():
        page.wait_for_selector("#again")
    old = next(iter(server.host.tables.values()))
    assert old.finished
    anna.click("#again")  # the host asks to play again
    for page in pages.values():
        page.wait_for_selector("#again-link")
    assert anna.inner_text("#again-link") == "To the new table"  # she pressed it: no news to her
    assert boris.inner_text("#again-link") == "Anna started a new evening: to the new table"
    new = server.host.get(server.host.rematch_of(old.id))
    assert new is not None and new.setup["after"] == old.id
    hosting.wait_for_selector("#again-link")  # her host page leads to the new table's host page
    assert hosting.get_attribute("#again-link", "href") == "/play#" + new.host_token
    hosting.click("#again-link")
    hosting.wait_for_selector("#host li[data-seat='1'] .host-link", state="attached")
    anna.click("#again-link")
    anna.wait_for_selector("#host li[data-seat='1'] .host-link", state="attached")  # the host's controls there
    assert anna.evaluate("() => location.hash") == "#" + new.seats[0].token
    deadline = time.monotonic() + 20
    while not any(c.host and c.seat == 0 for c in server.host.clients[new.id]):
        assert time.monotonic() < deadline, "her page at the new table did not show the new host link"
        time.sleep(0.05)
    boris.click("#again-link")
    boris.wait_for_selector("#next")
    assert boris.query_selector("#host") is None  # his page at the new table has no host's controls
    assert frames and not [f for f in frames if new.host_token in f or old.host_token in f]
    assert new.host_token not in boris.evaluate("() => JSON.stringify(localStorage)")
    assert errors == []
