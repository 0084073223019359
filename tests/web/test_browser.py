"""The web table in real headless Chromium (Debian's package, driven by Playwright for Python with the
system browser's path; Playwright never downloads a browser here).

Two players in two browser contexts and two bots play a whole deal of Khrap, from the table's
creation on the create page to the settlement; seat 1 reloads his page in the middle of the play
and carries on.  The deal seeds are fixed (``fixed_seeds``), so the deal is the same every time.

In CI (KHRAP_CI=1) a missing Chromium fails the test instead of skipping it.
"""

from __future__ import annotations

import pytest

from tests.web.conftest import chromium, fixed_seeds

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

# The deal (seed "browser-test:0"; seat 0 deals, clubs trump with 6C turned):
#   seat 0: KD KC AD JD   seat 1: 9S AH TD 6D   seat 2: JC AC 7S TC   seat 3: KH QD TH 9D
# The people play a fixed plan: say `khrap` if they may, else `help`, else pass; keep their hand at
# the exchange; play the first card the page lets them play (their hand is in canonical order).
# Bidding: seat 1 khrap (declarer), seat 2 (bot) help, seat 3 (bot) pass, seat 0 help; "fives?":
# seat 3 takes five (draws 8C AS JH 7H 6H, discards 6H).  Exchange: 1 keeps, 2 changes 7S for 7D, 0 keeps.
# Play (seat 3 leads: the first player after the declarer who took five; C trump; follow suit, else trump):
#   1. 3 AS, 0 KC (no spade: must trump), 1 9S, 2 AC (must trump)   -> seat 2 (highest trump)
#   2. 2 JC, 3 8C, 0 JD (no club, no trump), 1 AH                   -> seat 2 (only trumps JC, 8C)
#   3. 2 7D, 3 7H, 0 KD, 1 6D (follows)                             -> seat 0 (KD highest diamond)
#   4. 0 AD, 1 TD, 2 TC (no diamond: trump), 3 JH                   -> seat 2 (trump)
# Tricks: seat 2 three, seat 0 one, seats 1 and 3 none.
# Settlement (RULES.md §1 khrap; P = 4, the antes of 1 each):
#   1. each trick pays floor(4 / 4) = 1: seat 2 +3, seat 0 +1; pot 0.
#   2. the failed pay their stakes in: seat 1 (declarer, 0 < 2 tricks) 2, seat 3 (helper, 0 < 1) 1; pot 3.
#   3. the pot of 3 goes to those who did not fail by tricks: seat 2 floor(3 * 3 / 4) = 2,
#      seat 0 floor(3 * 1 / 4) = 0; 1 chip stays in the pot.
# Stacks (100 each, ante 1): seat 0 100 - 1 + 1 = 100; seat 1 100 - 1 - 2 = 97;
# seat 2 100 - 1 + 3 + 2 = 104; seat 3 100 - 1 - 1 = 98; pot 1.
EXPECTED_STACKS = [100, 97, 104, 98]
EXPECTED_POT = 1


def _my_turn(page, seat: int) -> bool:
    return page.evaluate("() => document.body.dataset.toAct") == str(seat) and \
        page.query_selector(f"#seat-{seat}.turn") is not None


def _act(page, seat: int) -> None:
    """One action of the fixed plan, then wait until the server's next view arrives."""
    step = page.evaluate("() => document.body.dataset.step")
    actions = [b.get_attribute("data-action") for b in page.query_selector_all("button.action")]
    for wanted in ("khrap", "help", "pass"):
        if wanted in actions:
            page.click(f'button.action[data-action="{wanted}"]')
            break
    else:
        if page.query_selector("#exchange"):
            page.click("#exchange")  # nothing selected: "keep my hand"
        else:
            page.click("#hand button.card.legal >> nth=0")
    page.wait_for_function(f"() => document.body.dataset.step !== {step!r}")


def test_two_players_and_two_bots_play_a_deal_in_chromium(live_server) -> None:
    path = chromium()
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            host_context = browser.new_context()
            create = host_context.new_page()
            create.on("pageerror", lambda e: errors.append(str(e)))
            create.goto(server.url + "/?lang=en")
            create.select_option("#variant", "khrap")
            create.fill("#players", "4")
            create.dispatch_event("#players", "input")
            create.select_option("#seat-0", "")
            create.select_option("#seat-1", "")
            create.select_option("#seat-2", "easy")
            create.select_option("#seat-3", "easy")
            create.fill("#stacks", "100")
            create.fill("#deals", "1")
            create.click("#create")
            create.wait_for_selector(".seat-link")
            fingerprint = create.inner_text("#fingerprint")
            links = {int(a.get_attribute("data-seat")): a.get_attribute("href")
                     for a in create.query_selector_all(".seat-link")}
            assert sorted(links) == [0, 1]

            pages = {}
            for seat in (0, 1):
                context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone's screen
                page = context.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(links[seat])
                page.wait_for_selector("#next")
                assert fingerprint in page.inner_text("#fingerprint")  # every seat sees the same rules
                pages[seat] = page
            commitment = pages[0].locator("#fair .commitment").first.inner_text()
            for page in pages.values():
                page.click("#next")  # both ready: the first deal begins
            for page in pages.values():
                page.wait_for_selector("#hand")

            reloaded = False
            for _ in range(200):
                if pages[0].query_selector("#settlement"):
                    break
                for seat, page in pages.items():
                    if _my_turn(page, seat):
                        _act(page, seat)
                        if seat == 1 and not reloaded and page.query_selector("#trick .card"):
                            page.reload()  # mid-deal: the same link rejoins the table as it is
                            page.wait_for_selector("#hand")
                            reloaded = True
                pages[0].wait_for_timeout(50)
            assert reloaded, "seat 1 reloaded his page during the play"

            for page in pages.values():
                page.wait_for_selector("#settlement")
                stacks = [int(page.get_attribute(f"#seat-{s} .seat-stack", "data-chips")) for s in range(4)]
                assert stacks == EXPECTED_STACKS
                assert int(page.get_attribute("#pot", "data-chips")) == EXPECTED_POT
                page.click("#fair summary")
                assert page.locator("#fair .verified").count() == 1  # the page checked the deck against the seed
                assert commitment in page.inner_text("#fair")  # the commitment shown before the deal
                assert page.query_selector("#download") is not None  # the session (one deal) is over
            rules = pages[0].get_attribute("#rules-link", "href")
            sheet = pages[0].context.new_page()
            sheet.goto(server.url + rules)
            assert fingerprint.split(":")[-1].strip() in sheet.inner_text("body")  # printed on the sheet too
        finally:
            browser.close()
    assert errors == []
