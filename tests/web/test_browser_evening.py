"""What an evening of four friends at the browser table showed wrong (two phones, two laptops, one page in
Russian; Frap with a redeal, a frap and its whists, the buying, a player away and back, one who left, the
settlement, the rule sheet): each test here failed on the page before its fix."""

from __future__ import annotations

import re

import pytest

from khrap.web import i18n
from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_log import _state, showing  # noqa: E402
from tests.web.test_browser_table import PHONE, _create, _page, browser  # noqa: E402, F401  (the fixture)

RED = "rgb(192, 24, 43)"
"""The red of ♥ and ♦ on the cards (style.css's .card.red)."""
SMALL_PHONE = {"width": 375, "height": 667}
NAMES = ("Anna", "Boris", "Вера", "Gleb")


def _table(variant: str, seed: str, stop, act=None):
    """A four-seat table of ``variant`` played by bots (deal seeds from ``seed``), or by ``act(table, seat)``,
    until ``stop(table, seat)`` says the seat to act is at the moment looked for; its seats named as the
    friends were."""
    from khrap.variant.catalog import builtin
    from khrap.web.table import Table

    table = Table.create(builtin(variant), name=variant, source=None, players=4, stacks=100, base_stake=1,
                         bots={1: "rule", 2: "rule", 3: "rule"}, deals=4, seed_source=fixed_seeds(seed),
                         session_seed=7)
    for seat, name in zip(table.seats, NAMES, strict=True):
        seat.name = name
    table.start_deal()
    while table.in_deal and not stop(table, table.session.to_act):
        seat = table.session.to_act
        # (by the friends the seats are named for: the log names a bot's move for the bot)
        table.apply(seat, act(table, seat) if act else table.bot_action(seat, "rule"), by="human")
    assert table.in_deal, "the deal ended before the moment looked for"
    return table


def _playing_to_a_lead(table, seat) -> bool:
    """Anna (seat 0) is to play a card to a trick somebody led (Frap, seed "evening": the second trick)."""
    view = table.view(seat, "en")
    return seat == 0 and bool(view["obs"]["trick"]) and any(a["word"] == "play" for a in view["legal"])


def _box(page, selector: str) -> dict:
    return page.evaluate(f"() => document.querySelector({selector!r}).getBoundingClientRect().toJSON()")


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, lang) for lang in i18n.LANGS]
                         + [(SMALL_PHONE, lang) for lang in i18n.LANGS])
def test_a_phone_sees_its_turn_and_its_hand_without_scrolling(live_server, browser, viewport, lang) -> None:  # noqa: F811
    # The head of the page took three rows on a phone (105 px: the title and the fingerprint, the rule sheet and
    # the five languages, the sound switch and "connected"), and the line over the seats two more (the takeover
    # rule): on a 375×667 phone Вера's hand, at her turn with a card led, was under the screen's edge.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    table = _table("frap", "evening", _playing_to_a_lead)
    state = table.view(0, lang)
    state["takeover_seconds"] = 60.0  # (the host's figure, which a view made here lacks)
    page = showing(server, browser, errors, state, lang)
    page.set_viewport_size(viewport)
    page.wait_for_selector("#hand .card")
    assert _box(page, "#top")["height"] <= 48  # one row
    assert _box(page, "#todo")["bottom"] <= viewport["height"]
    assert _box(page, "#hand")["bottom"] <= viewport["height"]
    # what the head no longer shows is still on the page: the fingerprint (under "Fair deals"), the sound
    # switch's words (its label), "connected" (a dot, its word a tooltip), the takeover rule (under the hand)
    assert state["table"]["fingerprint"] in page.text_content("#fair .fingerprint")
    assert i18n.strings(lang)["signal_off"] == page.get_attribute("#signal", "aria-label")
    assert page.get_attribute("#status", "title") == i18n.strings(lang)["connected"] and page.is_visible("#status")
    assert page.is_visible("#away-rule")
    # the head shows the page's language alone: a tap on it unfolds the others
    other = "en" if lang != "en" else "ru"
    assert not page.is_visible(f'.langs [data-lang="{other}"]')
    page.click(f'.langs [data-lang="{lang}"]')
    assert page.is_visible(f'.langs [data-lang="{other}"]') and page.url.endswith("#token")
    assert errors == []


def _naming_trump(table, seat) -> bool:
    """Snore (seed "trump0"): Boris (seat 1) names the trump."""
    return any(a["word"] == "trump" for a in table.view(seat, "en")["legal"])


def _red(page, selector: str) -> list[str]:
    """The texts of the red parts of what ``selector`` finds (its ♥ and ♦)."""
    return page.evaluate(f"""() => [...document.querySelectorAll({selector!r})].flatMap((node) =>
      [...node.querySelectorAll("*")].filter((x) => getComputedStyle(x).color === {RED!r}))
      .map((x) => x.textContent)""")


def test_hearts_and_diamonds_are_red_in_the_trump_buttons_and_the_log(live_server, browser) -> None:  # noqa: F811
    # "Trump ♥" and "Trump ♦" were drawn black on the buttons that name the trump (the cards draw them red), and
    # so was every ♥ and ♦ of the log ("Boris exchanges 8♥ Q♥") and of the turn's line ("you must follow ♥").
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    table = _table("snore", "trump0", _naming_trump)
    page = showing(server, browser, errors, table.view(1, "en"), "en")
    page.wait_for_selector("button.action")
    buttons = {b.get_attribute("data-action"): b.inner_text() for b in page.query_selector_all("button.action")}
    assert buttons == {"trump S": "Trump ♠", "trump H": "Trump ♥", "trump D": "Trump ♦", "trump C": "Trump ♣"}
    for suit, said in (("S", []), ("H", ["♥"]), ("D", ["♦"]), ("C", [])):
        assert _red(page, f'button.action[data-action="trump {suit}"]') == said, suit
    # Frap, seed "evening": Anna's turn to follow a lead; her log tells the cards dealt, turned and played
    table = _table("frap", "evening", _playing_to_a_lead)
    page = showing(server, browser, errors, table.view(0, "en"), "en")
    page.wait_for_selector("#log li")
    lines = [li.inner_text() for li in page.query_selector_all("#log li")]
    red_in_lines = "".join(re.findall("[♥♦]", "".join(lines)))
    assert red_in_lines  # (the deal's log has red cards: the test looks at something)
    assert "".join(_red(page, "#log li")) == red_in_lines
    todo = page.inner_text("#todo")
    assert "".join(_red(page, "#todo")) == "".join(re.findall("[♥♦]", todo))
    assert errors == []


HIS = re.compile(r"\b(?:he|his|him|himself|she|her|hers|herself)\b", re.IGNORECASE)


def test_english_says_nothing_of_a_players_gender(live_server, browser) -> None:  # noqa: F811
    # "Вера is away: a bot plays for him until he returns", "a player away for 60 s is replaced by a bot until
    # he returns", "Anna looks at his cards", "his share of what was left": a name says nothing of it (the
    # Russian page already spoke without a gender).
    assert {key: text for key, text in i18n.UI.items() if HIS.search(text)} == {}
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    state = _state("en")  # a log with one event of every told kind
    state["takeover_seconds"] = 60.0
    state["table"]["seats"][2]["takeover"] = True  # Вера away: a bot plays for her
    page = showing(server, browser, errors, state, "en")
    page.wait_for_selector("#takeover")
    assert page.inner_text("#takeover") == "Вера is away: a bot plays the seat meanwhile."
    log = page.inner_text("#log")
    assert "Anna (you) looks at the cards" in log, log
    assert HIS.findall(page.inner_text("body")) == []
    assert errors == []


def test_a_seat_keeps_a_name_a_player_can_read(live_server, browser) -> None:  # noqa: F811
    # Anna named her seat on her phone; her laptop's page (or any client) said hello with an empty name, and
    # every page showed her seat with no name at all ("" over her chips, " took the trick").  A name of
    # characters that draw nothing (a Hangul filler, the blank Braille pattern, a lone combining mark) was kept
    # as it came: a seat nobody could read.  Now: a hello's empty name leaves the name as it was, and a name
    # with nothing to read is no name (the page says "Seat 1").
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("names"))
    answer = _create(server, bots={"2": "rule", "3": "rule"})
    errors: list[str] = []
    pages = {}
    for s in answer["seats"][:2]:
        pages[s["seat"]] = page = _page(browser, errors, PHONE)
        page.goto(s["link"].replace("/play#", "/play?lang=en#"))
        page.wait_for_selector("#name")
    pages[0].fill("#name", "Anna")
    pages[0].dispatch_event("#name", "change")
    shown = "() => document.querySelector('#seat-0 .seat-name').textContent"
    pages[1].wait_for_function(f"{shown} === 'Anna'")
    token = answer["seats"][0]["link"].split("#")[1]
    said = pages[1].evaluate("""(token) => new Promise((done) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token, lang: "en", name: "" }));
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.type === "state") { ws.close(); done(m.table.seats[0].name); }
      };
    })""", token)
    assert said == "Anna"
    pages[1].wait_for_timeout(300)
    assert pages[1].evaluate(shown) == "Anna"
    # The page draws itself anew at every update (the name box too): an update landing between a `fill` and its
    # `change` event (the other tab's hello and goodbye above each send one) put the server's name back in the box
    # before the event read it.  So the box is set and its event fired in one turn of the page's loop, as a typing
    # player's change is.
    say = """(v) => { const i = document.getElementById("name"); i.value = v; i.dispatchEvent(new Event("change")); }"""
    for blank in ("\u3164\u3164", "\u2800", " \u0301 "):
        pages[0].evaluate(say, blank)
        pages[1].wait_for_function(f"{shown} === 'Seat 0'")
        pages[0].evaluate(say, "Anna")
        pages[1].wait_for_function(f"{shown} === 'Anna'")
    assert errors == []


def test_chips_below_zero_are_written_with_a_minus_sign(live_server, browser) -> None:  # noqa: F811
    # Frap lets a stack go below zero: the seat said "-40 chips" and the standings "-58" (a hyphen) beside the
    # settlement's "−113" (a minus sign, the same width as the digits).
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    state = _state("en")  # a settled deal of four seats
    state["obs"]["stacks"][1] = -40
    state["table"]["standings"] = [[100, 64, 108, 80], [47, -58, 133, 92]]
    page = showing(server, browser, errors, state, "en")
    page.wait_for_selector("#standings")
    assert page.inner_text("#seat-1 .seat-stack").startswith("\u221240 chips")
    assert page.inner_text('#standings tr[data-seat="1"] td[data-chips="-58"]') == "\u221258"
    assert "-" not in page.inner_text("#standings tbody")
    assert errors == []


def _passing(table, seat) -> str:
    """Everybody passes (looking first where a blind frap waits)."""
    return "pass" if any(a["text"] == "pass" for a in table.view(seat, "en")["legal"]) else "look"


def test_a_redeal_is_told_on_the_felt_where_a_phone_sees_it(live_server, browser) -> None:  # noqa: F811
    # Everybody passed three rounds: four more chips each went into the pot and Boris dealt new hands.  A phone
    # showed new cards and fewer chips under "No cards on the table": the redeal was told only in the log,
    # two screens below.  Now the felt tells the last three things that happened until the first card.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    redealt = lambda table, seat: any(e["kind"] == "redealt" for e in table.view(seat, "en")["events"])  # noqa: E731
    table = _table("frap", "evening", redealt, _passing)
    table.apply(table.session.to_act, "look", by="human")  # the new deal's first speaker looks at the cards
    state = table.view(0, "en")
    state["takeover_seconds"] = 60.0
    page = showing(server, browser, errors, state, "en")
    page.wait_for_selector("#trick")
    assert page.is_visible("#news")
    assert [d.inner_text() for d in page.query_selector_all("#news div")] == [
        "Redeal: Boris deals", "Boris deals 4 cards each", "J♠ is turned: ♠ is trump", "Вера looks at the cards"]
    assert _box(page, "#news")["bottom"] <= PHONE["height"]
    assert errors == []


def test_a_bot_from_the_start_is_called_a_bot(live_server, browser) -> None:  # noqa: F811
    # Boris's house-rule table: Boris, Вера and two bots.  The bots were "Seat 2" and "Seat 3" («Место 3»)
    # everywhere: «Взятку берёт Место 3», «Вечер окончен: побеждает Место 3» - as if somebody sat there.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    state = _state("ru")  # a settled deal; seats 1, 2 and 3 played by bots
    for seat in (2, 3):
        state["table"]["seats"][seat]["name"] = ""
    page = showing(server, browser, errors, state, "ru")
    page.wait_for_selector("#log li")
    assert [page.inner_text(f"#seat-{s} .seat-name") for s in range(4)] == ["Anna (вы)", "Борис <b>", "Бот 2", "Бот 3"]
    settled = page.query_selector_all("#log li")[-1].inner_text()
    assert "Бот 2 — 97 фишек, Бот 3 — 100 фишек" in settled, settled
    assert "Место" not in page.inner_text("body")
    assert errors == []


def test_a_player_back_from_away_is_told_what_the_bot_did_at_the_seat(live_server, browser) -> None:  # noqa: F811
    # Вера's phone went away mid-deal; the takeover bot played her seat and she came back to a hand of one card
    # fewer, with nothing on her screen to say which card had gone (the log, two screens below, said it among
    # everybody's).  The deal of test_browser.py (seed "browser-test:0"): seat 1 speaks first.
    import time

    server = live_server(bot_delay=0.3, takeover_seconds=1.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    answer = _create(server, bots={"0": "rule", "2": "rule", "3": "rule"})
    errors: list[str] = []
    page = _page(browser, errors, PHONE)
    link = answer["seats"][1]["link"].replace("/play#", "/play?lang=en#")
    page.goto(link)
    page.click("#next")
    page.wait_for_selector("button.action")  # her turn to speak
    assert page.query_selector("#missed") is None  # (nothing was missed)
    context = page.context
    page.close()  # away: after a second her seat's bot speaks for her
    table = next(iter(server.host.tables.values()))
    deadline = time.monotonic() + 20
    while table.in_deal and table.session.to_act == 1:
        assert time.monotonic() < deadline, "the takeover bot did not act"
        time.sleep(0.1)
    back = context.new_page()
    back.on("pageerror", lambda e: errors.append(str(e)))
    back.goto(link)
    back.wait_for_selector("#missed")
    said = back.inner_text("#missed")
    # her seat's bot passed first (the deal's log: "Bot 1: Pass", the bot's move, then the others speak; it said
    # "Seat 1 (you): Pass", as if she had)
    assert said.startswith("While you were away, at your seat: Bot 1: Pass"), said
    assert errors == []


def test_a_player_back_in_a_later_deal_is_told_what_the_deals_meanwhile_came_to(live_server, browser) -> None:  # noqa: F811,E501
    # Boris's phone slept from deal 1's first call to the middle of the next deal: his seat's bot finished deal 1 and
    # spoke for him in deal 2, and he came back to another count of chips and "Boris (you): Pass" in the log, nothing
    # at the top of the page to say so (what was missed was looked for in the deal he had left only).
    import time

    server = live_server(bot_delay=0.4, takeover_seconds=1.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    # Anna (seat 0) stays, her decisions left to the turn clock's bot (a table with nobody here waits)
    answer = _create(server, deals=3, clock=1, bots={"2": "rule", "3": "rule"})
    errors: list[str] = []
    page = _page(browser, errors, PHONE)
    link = answer["seats"][1]["link"].replace("/play#", "/play?lang=en#")
    page.goto(link)
    page.click("#next")  # (Anna, not here yet, does not hold the table up)
    page.wait_for_function("() => document.body.dataset.toAct !== ''")  # deal 1 begun: he goes
    context = page.context
    page.close()
    anna = _page(browser, errors, PHONE)
    anna.goto(answer["seats"][0]["link"])
    table = next(iter(server.host.tables.values()))
    deadline, begun = time.monotonic() + 60, None
    while begun is None or not any(seat == 1 for seat, _, _ in table.actions[begun:]):  # his bot acted in deal 2
        assert time.monotonic() < deadline and table.session.deals_started <= 2, "deal 2 came to no call of his"
        if begun is None and table.session.deals_started == 2:
            begun = len(table.actions)
        if anna.query_selector("#next:not([disabled])"):
            anna.click("#next")
        time.sleep(0.05)
    assert table.in_deal
    back = context.new_page()
    back.on("pageerror", lambda e: errors.append(str(e)))
    back.goto(link)
    back.wait_for_selector("#missed")
    said = back.inner_text("#missed")
    change = table.view(1, "en")["table"]["standings"][0][1] - 100  # (the server's tally of deal 1)
    sign = f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "0"
    assert said.startswith(f"While you were away, at your seat: deal 1 played, {sign} chips for you; "), said
    assert "Bot 1: " in said  # and what his seat's bot did in this deal (by the bot: it said "Seat 1 (you)")
    assert errors == []


def test_before_the_first_deal_the_felt_says_what_begins_the_evening(live_server, browser) -> None:  # noqa: F811
    # The first screen of every friend: the felt showed an empty deal, "Pot 0 · Trump — · Stock 0". It says what
    # begins the evening, and to one who has pressed "Start the game" whom the table waits for.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    answer = _create(server, deals=3, bots={"2": "rule", "3": "rule"})
    errors: list[str] = []
    pages = []
    for seat, lang in ((0, "en"), (1, "ru")):
        page = _page(browser, errors, PHONE)
        page.goto(answer["seats"][seat]["link"].replace("/play#", f"/play?lang={lang}#"))
        page.wait_for_selector("#lobby")
        pages.append(page)
    assert pages[0].inner_text("#lobby") == "The first deal begins when every player here has pressed “Start the game”."
    assert pages[1].inner_text("#lobby") == ("Первая раздача начнётся, когда каждый игрок за столом нажмёт "
                                             "«Начать игру».")
    assert pages[0].query_selector("#pot") is None and pages[0].query_selector("#trump") is None
    pages[0].click("#next")
    pages[0].wait_for_function("() => document.querySelector('#lobby').textContent.startsWith('Waiting')")
    assert pages[0].inner_text("#lobby") == "Waiting for Seat 1 to press “Start the game”"
    pages[1].click("#next")
    pages[1].wait_for_selector("#pot")  # the deal: the felt is the deal's
    assert pages[1].query_selector("#lobby") is None
    assert errors == []


@pytest.mark.parametrize("lang", ["ru", "hy"])
def test_reconnecting_fits_a_phones_head(live_server, browser, lang) -> None:  # noqa: F811
    # The server went away: the head of a 360 px phone said «переподключение…» on its one row and the page
    # grew 65 px wider than the screen (it scrolled sideways under the thumb).
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("reconnect"))
    link = _create(server)["seats"][0]["link"].replace("/play#", f"/play?lang={lang}#")
    errors: list[str] = []
    page = _page(browser, errors, {"width": 360, "height": 640})
    page.goto(link)
    page.wait_for_selector("#next")
    server.stop()
    page.wait_for_selector("#status.bad")
    assert page.inner_text("#status") == i18n.strings(lang)["reconnecting"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    assert _box(page, "#top")["height"] <= 60
    assert errors == []
