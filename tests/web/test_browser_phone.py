"""The table page on a 390×844 phone, in real headless Chromium: what a friend's phone showed wrong in an
evening (issue 27's follow-up).  Each test here failed on the page before it."""

from __future__ import annotations

import functools
import shutil
import subprocess

import pytest

from khrap.web import i18n
from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_table import PHONE, _create, _page, _play, _seated, browser  # noqa: E402, F401

# (JS) the rows of the settlement and the standings that the bar hides on the screen, after the browser brought
# each into view (as it does for a focused button or a found word): none should be.  The bar sticks at the top of
# the screen while the ledger is read (it stood at the foot, over the rows a whole-page picture showed there):
# where the reader leaves the page a row may pass under it as under any page's head, so the other check is that
# every row can be read, wholly on the screen and clear of the bar, somewhere as the page scrolls (ROWS_READ).
HIDDEN_ROWS = """() => {
  const bar = document.getElementById("next-bar"), hidden = [];
  const under = (r, b) => Math.min(r.bottom, b.bottom, innerHeight) > Math.max(r.top, b.top, 0) + 0.5;
  for (const row of document.querySelectorAll("#settlement tr, #standings tr")) {
    row.scrollIntoView({ block: "end" });
    if (under(row.getBoundingClientRect(), bar.getBoundingClientRect())) hidden.push(row.textContent);
  }
  return hidden;
}"""

# (JS) the cells of the settlement and the standings that are never, at any place the reader scrolls to, wholly on
# the screen and clear of the bar: none should be (the ledger's last rows included).
ROWS_UNREAD = """() => {
  const CELLS = "#settlement th, #settlement td, #standings th, #standings td";
  const rows = [...document.querySelectorAll(CELLS)].filter((c) => c.getBoundingClientRect().height > 0);
  const read = new Set();
  for (let y = 0; y <= document.documentElement.scrollHeight; y += 10) {
    window.scrollTo(0, y);
    const b = document.getElementById("next-bar").getBoundingClientRect();
    rows.forEach((row, i) => {
      const r = row.getBoundingClientRect();
      if (r.top >= 0 && r.bottom <= innerHeight && (r.bottom <= b.top + 0.5 || r.top >= b.bottom - 0.5)) read.add(i);
    });
  }
  window.scrollTo(0, 0);
  return rows.filter((_, i) => !read.has(i)).map((row) => row.textContent);
}"""


def _two_deals_played(live_server, browser, errors: list[str]) -> dict:  # noqa: F811
    """The deal of test_browser_table.py (seed "browser-test:0", its fixed plan) and one more, played to the end
    on two Russian phones: their pages, by seat."""
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    pages = _seated(browser, errors, _create(server, deals=2), lang="ru")
    _play(pages, lambda: False)
    return pages


# (JS) the cells of the settlement and the standings (a phone lays the deal's ledger out as a grid of its cells: its
# rows have no box) that the bar covers as the page is drawn from its top: what a
# whole-page picture of the phone shows (Chromium draws a sticky bar where the first screen puts it).
COVERED_AT_THE_TOP = """() => {
  window.scrollTo(0, 0);
  const b = document.getElementById("next-bar").getBoundingClientRect();
  return [...document.querySelectorAll("#settlement th, #settlement td, #standings th, #standings td")].filter((c) => {
    const r = c.getBoundingClientRect();
    return r.height > 0 && r.bottom > b.top + 0.5 && r.top < b.bottom - 0.5;
  }).map((c) => c.textContent);
}"""

def test_a_whole_page_picture_of_the_settlement_shows_every_row(live_server, browser, tmp_path) -> None:  # noqa: F811
    # The deal of test_browser_table.py on two Russian phones (390x844), then the evening's end.  The bar with
    # "Next deal" stuck at the foot of the screen: a whole-page screenshot drew it there, over the ledger's rows
    # (its head and first rows: «0★ 1 Бот2 Бот3 Банк»).  It now stands under the trick, before the ledger, and sticks
    # at the top while the ledger is read; every cell of the ledger, its last rows too, can be read clear of it,
    # and no row brought into view stands under it («Итог», «Сейчас» did). (It was two tests playing the same deals.)
    errors: list[str] = []
    pages = _two_deals_played(live_server, browser, errors)
    for seat, page in pages.items():
        page.wait_for_selector("#settlement")
        assert page.evaluate("() => getComputedStyle(document.getElementById('next-bar')).position") == "sticky"
        assert page.evaluate(COVERED_AT_THE_TOP) == []
        assert page.evaluate(HIDDEN_ROWS) == [] and page.evaluate(ROWS_UNREAD) == []
        page.screenshot(path=tmp_path / f"settled-{seat}.png", full_page=True)  # (what a reader's picture is)
        page.evaluate("() => window.scrollTo(0, 0)")
        assert page.evaluate("() => document.getElementById('next').getBoundingClientRect().bottom <= innerHeight")
        page.click("#next")
    for page in pages.values():
        page.wait_for_function("() => document.body.dataset.toAct !== ''")
    _play(pages, lambda: False)
    for page in pages.values():
        page.wait_for_selector("#winner")
        assert page.evaluate(COVERED_AT_THE_TOP) == []
        assert page.evaluate(HIDDEN_ROWS) == [] and page.evaluate(ROWS_UNREAD) == []
    assert errors == []


def _placeholder_fits(page) -> bool:
    return page.evaluate("""() => {
      const input = document.getElementById("chat-text"), style = getComputedStyle(input);
      const ctx = document.createElement("canvas").getContext("2d");
      ctx.font = style.font;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return ctx.measureText(input.placeholder).width <= room;
    }""")


@pytest.mark.parametrize("width", [360, 390])
def test_the_chat_placeholder_fits_a_phone_in_every_language(live_server, browser, width) -> None:  # noqa: F811
    # «Короткое сообщение (200 знаков)» was cut to «Короткое сообщение (200 з» on a 390 px phone.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("placeholder"))
    link = _create(server)["seats"][0]["link"]
    errors: list[str] = []
    page = _page(browser, errors, {"width": width, "height": 844})
    for lang in i18n.LANGS:
        page.goto(link.replace("/play#", f"/play?lang={lang}#"))
        page.wait_for_selector("#chat-text")
        assert page.get_attribute("#chat-text", "placeholder") == i18n.strings(lang)["chat_placeholder"]
        assert _placeholder_fits(page), lang
        if lang == "ru":
            from tests.web.test_browser_table import _shot

            _shot(page, f"serve-phone-chat-ru-{width}", "=#chat")
    assert errors == []


@functools.cache
def _in_a_font(char: str) -> bool:
    """Whether a font of this machine draws ``char`` (fontconfig's answer)."""
    found = subprocess.run(["fc-list", f":charset={ord(char):x}", "family"], capture_output=True, text=True)
    return bool(found.stdout.strip())


def missing_glyphs(page) -> list[str]:
    """The characters the page shows (its text and its inputs' placeholders) that no font here draws: a box."""
    if shutil.which("fc-list") is None:
        pytest.skip("no fontconfig (fc-list) to ask which characters a font draws")
    text = page.evaluate("() => document.body.innerText + [...document.querySelectorAll('input')]"
                         ".map((i) => i.placeholder).join('')")
    return sorted({c for c in text if ord(c) > 0x7F and not c.isspace() and not _in_a_font(c)})


def test_reactions_and_the_clock_are_drawn_without_an_emoji_font(live_server, browser) -> None:  # noqa: F811
    # The reactions were emoji (👍 😂 😮 😬 🎉) and the clock ⏱: boxes on a machine without an emoji font,
    # this one and CI.  They are inline SVG pictures now, named in the reader's language.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    page = _seated(browser, errors, _create(server, clock=60, bots={"0": "rule", "2": "rule", "3": "rule"}),
                   lang="ru")[1]
    page.wait_for_selector("#clock")  # seat 1 speaks first: his clock runs
    words = i18n.strings("ru")
    pictures = {b.get_attribute("data-react"): b.query_selector("svg.icon")
                for b in page.query_selector_all("#reactions button")}
    for react in ("thumbs_up", "laugh", "wow", "grimace", "party"):
        assert pictures[react] is not None and pictures[react].get_attribute("aria-label") == words[f"react_{react}"]
    assert page.query_selector("#clock svg.icon") is not None
    page.click("#reactions button[data-react='laugh']")
    page.wait_for_selector("#chat-list li svg.icon-laugh")
    page.wait_for_selector("#seat-1 .bubble svg.icon-laugh")  # the bubble by his seat too
    assert missing_glyphs(page) == []
    assert errors == []


def _evening_over(lang: str, players: int = 5, deals: int = 6) -> dict:
    """A real view (seat 1's, in ``lang``) of a five-seat evening of six deals (or ``players``, ``deals``), played
    to its end by bots; its people named."""
    from khrap.variant.catalog import builtin
    from khrap.web.table import Table

    table = Table.create(builtin("khrap"), name="khrap", source=None, players=players, stacks=50, base_stake=1,
                         bots={seat: "rule" for seat in range(players) if seat != 1}, deals=deals,
                         seed_source=fixed_seeds("evening-over"), session_seed=5)
    while not table.finished:
        table.start_deal()
        while table.in_deal:
            table.apply(table.session.to_act, table.bot_action(table.session.to_act, "rule"), by="bot")
    for seat, name in zip(table.seats, ["Anna", "Борис", "Вера", "Dan"], strict=False):
        seat.name = name
    return table.view(1, lang)


def test_the_evenings_end_on_a_phone_names_every_column_and_keeps_the_change_in_sight(live_server, browser) -> None:  # noqa: F811,E501
    # Five seats, six deals, a 390 px phone.  The settlement's columns were headed 0, 1★, 2, 3, 4: numbers the
    # page shows nowhere else (the seats are "Anna", "Борис (вы)"...); the standings (a column a deal) scrolled
    # sideways with the evening's change out of sight at the far right; the chart's key "Место 4" broke
    # over two lines.
    from tests.web.test_browser_log import showing

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    # (ten deals: six now fit a phone, their columns headed by number, and no longer scroll)
    page = showing(server, browser, errors, _evening_over("ru", deals=10), "ru")
    page.wait_for_selector("#standings")
    heads = [th.inner_text() for th in page.query_selector_all("#ledger thead th.num:not(.pot-head)")]
    assert heads == ["Ann", "Бор★", "Вер", "Dan", "Бот4"]  # (the bot's column was "4": a seat number, read as a figure)
    assert page.evaluate("() => { const box = document.querySelector('#settlement .scroll'); "
                         "return box.scrollWidth <= box.clientWidth; }")  # every column on the phone
    in_sight = page.evaluate("""() => {
      const box = document.querySelector("#standings .scroll"), b = box.getBoundingClientRect();
      const seen = (cell) => {
        const r = cell.getBoundingClientRect();
        return r.left >= b.left - 0.5 && r.right <= b.right + 0.5;
      };
      return { scrolls: box.scrollWidth > box.clientWidth, names: [...box.querySelectorAll("tbody th")].every(seen),
               change: [...box.querySelectorAll(".net")].every(seen) };
    }""")
    assert in_sight == {"scrolls": True, "names": True, "change": True}
    page.evaluate("() => { document.querySelector('#standings .scroll').scrollLeft = 1e6; }")  # and scrolled
    assert page.evaluate("() => [...document.querySelectorAll('#standings tbody th')].every((th) => "
                         "th.getBoundingClientRect().left >= th.closest('.scroll').getBoundingClientRect().left - 0.5)")
    keys = page.query_selector_all("figcaption .key")
    assert len(keys) == 5 and all(k.evaluate("(k) => k.getClientRects().length") == 1 for k in keys)
    lines = page.evaluate("() => [...document.querySelectorAll('figcaption .key')]"
                          ".map((k) => k.getBoundingClientRect().height)")
    assert max(lines) < 1.6 * min(lines)  # one line each
    assert errors == []


def test_an_evening_of_four_deals_fits_a_phone_column_by_column(live_server, browser) -> None:  # noqa: F811
    # Four seats, four deals, a 390 px phone in Russian (an evening of khrap-shoot played on one): the standings'
    # columns were headed «Раздача 1» ... «Раздача 4», so they scrolled sideways and the fourth deal's column stood
    # half under the sticky «Итог», showing "2" of 20 as if it were a figure.  Headed 1 ... 4, they all fit.
    from tests.web.test_browser_log import showing

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = showing(server, browser, errors, _evening_over("ru", players=4, deals=4), "ru")
    page.wait_for_selector("#standings")
    heads = [th.inner_text() for th in page.query_selector_all("#standings thead th.num")]
    assert heads == ["Начало", "1", "2", "3", "4", "Итог"]
    assert page.get_attribute("#standings thead th.num:nth-child(3)", "title") == "Раздача 1"  # its name, on a tap
    assert page.evaluate("() => { const box = document.querySelector('#standings .scroll'); "
                         "return box.scrollWidth <= box.clientWidth; }")  # every column on the phone, none cut
    page.set_viewport_size({"width": 1366, "height": 768})  # a laptop names them in full
    heads = [th.inner_text() for th in page.query_selector_all("#standings thead th.num")]
    assert heads == ["Начало", "Раздача 1", "Раздача 2", "Раздача 3", "Раздача 4", "Итог"]
    assert errors == []


@pytest.mark.parametrize(("lang", "blind"), [("en", "blind"), ("ru", "втёмную")])
def test_a_blind_call_is_named_once_in_the_face_down_note(live_server, browser, lang, blind) -> None:  # noqa: F811
    # Frap (seed "ev2frap:0"): seat 1 speaks first, his cards face down, and may still call blind frap.  The
    # note said the call's name and "blind" after it: "you may still call Blind frap blind", «Фрап втёмную втёмную».
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("ev2frap"))
    errors: list[str] = []
    answer = _create(server, variant="frap", bots={"0": "rule", "2": "rule", "3": "rule"})
    page = _seated(browser, errors, answer, lang=lang)[1]
    page.wait_for_selector("button.action[data-action='blind-frap']")
    note = page.inner_text("#hand").lower()
    name = page.inner_text("button.action[data-action='blind-frap']").lower()
    assert name in note and note.count(blind) == 1, note
    assert errors == []


# (JS) where the line that says whose turn it is stands, at the top of the page: its "Your turn" and what he is
# asked, against the screen's foot and the hand's top.
TURN_LINE = """(said) => {
  window.scrollTo(0, 0);
  const head = [...document.querySelectorAll("b")].find((b) => b.textContent === said);
  const todo = document.getElementById("todo"), hand = document.getElementById("hand");
  return { head: head ? head.getBoundingClientRect().bottom <= innerHeight : "missing",
           todo: todo ? todo.getBoundingClientRect().bottom <= innerHeight : "missing",
           above_hand: head ? head.getBoundingClientRect().bottom <= hand.getBoundingClientRect().top : "missing",
           button: document.getElementById("exchange").getBoundingClientRect().bottom <= innerHeight };
}"""


@pytest.mark.parametrize("width", [360, 390])
def test_the_exchange_says_your_turn_in_sight_above_the_hand(live_server, browser, width) -> None:  # noqa: F811
    # The deal of test_browser_table.py (seed "browser-test:0", its fixed plan): seat 1 calls khrap and is the
    # first to exchange.  On a Russian phone «Ваш ход: выберите карты для замены» stood under his hand and the
    # "keep my hand" button, below the foot of the screen: he saw his cards and no word that it was his turn.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    pages = _seated(browser, errors, _create(server, bots={"2": "rule", "3": "rule"}),
                    viewport={"width": width, "height": 844}, lang="ru")
    _play(pages, lambda: pages[1].query_selector("#exchange") is not None)
    words = i18n.strings("ru")
    seen = pages[1].evaluate(TURN_LINE, words["your_turn"])
    assert seen == {"head": True, "todo": True, "above_hand": True, "button": True}
    assert pages[1].inner_text("#todo") == words["todo_exchange"]
    from tests.web.test_browser_table import _shot

    _shot(pages[1], f"serve-phone-exchange-ru-{width}", "#top")
    assert errors == []


# (JS) each time with its unit the page shows ("600 с", the clock's "599 с") that a line break splits: the number
# and the unit after it measured as one range of the text.
SPLIT_TIMES = r"""(unit) => {
  const split = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const time = new RegExp(String.raw`\d+\s${unit}(?!\p{L})`, "gu");  // (not "0 сдаёт")
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (const m of node.data.matchAll(time)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) split.push(m[0]);
    }
  }
  return split;
}"""


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_time_and_its_unit_stay_on_one_line(live_server, browser, lang) -> None:  # noqa: F811
    # «за игрока, которого нет 600 / с, играет бот» broke between the number and its unit on a 360 px phone.
    # Every width from 300 to 480 px, the rule's line and the turn clock (seat 1 speaks first, his clock runs).
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    page = _seated(browser, errors, _create(server, clock=600, bots={"0": "rule", "2": "rule", "3": "rule"}),
                   lang=lang)[1]
    page.wait_for_selector("#clock")
    unit = i18n.strings(lang)["seconds"].replace("{seconds}", "").strip()
    times = r"(u) => [...document.body.innerText.matchAll(new RegExp(String.raw`\d+\s${u}(?!\p{L})`, 'gu'))].length"
    assert page.evaluate(times, unit) == 2  # the rule's 600 s and the clock's: both looked at
    for width in range(300, 481, 2):
        page.set_viewport_size({"width": width, "height": 844})
        assert page.evaluate(SPLIT_TIMES, unit) == [], width
    assert errors == []


# (JS) whether an element is on the screen as the reader left it, and at the top of the page: not under the sticky
# bar at the foot of the screen (unless it is in it).
IN_SIGHT = """(at) => {
  const seen = () => {
    const node = document.querySelector(at), r = node.getBoundingClientRect();
    const bar = document.querySelector("#next-bar.sticky");
    return r.top >= 0 && r.bottom <= (bar && !bar.contains(node) ? bar.getBoundingClientRect().top : innerHeight);
  };
  const asLeft = seen();
  window.scrollTo(0, 0);
  return [asLeft, seen()];
}"""


SMALL = {"width": 375, "height": 667}


def test_what_the_deal_came_to_and_who_won_are_in_sight_on_a_phone(live_server, browser) -> None:  # noqa: F811
    # The deal of test_browser_table.py (seed "browser-test:0", its fixed plan), two deals, on Russian phones.  The
    # first ends with stacks 100, 97, 104, 98 (worked out in test_browser.py): seat 0's change 0, seat 1's −3.  The
    # settlement and the standings said so under the trick, below the screen: nobody saw what he had won, nor at
    # the evening's end who won it, without scrolling down to look for it.  On a smaller phone too (375×667).
    errors: list[str] = []
    pages = _two_deals_played(live_server, browser, errors)
    # Seat 0's change of nothing is said in words: «у вас 0» read as "you have 0 (chips)".
    expected = {0: "Раздача 1 окончена: у вас без изменений, 100 фишек",
                1: "Раздача 1 окончена: у вас −3, теперь 97 фишек"}
    for seat, page in pages.items():
        page.wait_for_selector("#settlement")
        assert page.inner_text("#result") == expected[seat]
        assert page.evaluate(IN_SIGHT, "#result") == [True, True]
        page.set_viewport_size(SMALL)
        assert page.evaluate(IN_SIGHT, "#result") == [True, True]
        page.set_viewport_size(PHONE)
        assert page.query_selector("#hand") is None  # (it said «Карт нет» there between deals)
        page.click("#next")
    for page in pages.values():
        page.wait_for_function("() => document.body.dataset.toAct !== ''")
    _play(pages, lambda: False)
    for page in pages.values():
        page.wait_for_selector("#winner")
        assert page.inner_text("#result") == page.inner_text("#winner")  # the standings' head, said in the bar too
        assert page.evaluate(IN_SIGHT, "#result") == [True, True]
        page.set_viewport_size(SMALL)
        assert page.evaluate(IN_SIGHT, "#result") == [True, True]
        assert page.evaluate(HIDDEN_ROWS) == [] and page.evaluate(ROWS_UNREAD) == []  # the bar hides no row for good
    assert errors == []


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_pot_the_trump_and_the_stock_are_each_on_one_line(live_server, browser, lang) -> None:  # noqa: F811
    # The line over the trick, «Банк 4 · Козырь ♣ · Колода 19 · Открыта: 6♣», broke inside a fact on a narrow phone:
    # «Колода» at the end of a line, «19» at the start of the next.  Every width from 280 to 480 px.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    page = _seated(browser, errors, _create(server, bots={"0": "rule", "2": "rule", "3": "rule"}), lang=lang)[1]
    page.wait_for_selector("button.action")
    split = """() => ["pot", "trump", "stock"].filter((id) => {
      const node = document.getElementById(id), range = document.createRange();
      range.selectNodeContents(node);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size !== 1;
    })"""
    for width in range(280, 481, 2):
        page.set_viewport_size({"width": width, "height": 844})
        assert page.evaluate(split) == [], width
    assert errors == []


def test_a_house_rules_long_words_stay_inside_a_phone(live_server, browser) -> None:  # noqa: F811
    # A house rule whose khrap is one long word, and a player who named himself with one: the call's button and the
    # seat boxes (a grid of two columns, each as wide as its longest word) stretched a 390 px phone's page to 474 px,
    # and the create page's "The file is valid: TITLE" to 653 px.  Seed "browser-test": seat 1 speaks first.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    long_call, long_title = "Snore" + "Y" * 40, "Friday" + "X" * 60
    text = f'extends: khrap\nname: {{en: "{long_title}"}}\ncalls:\n  khrap: {{name: {{en: "{long_call}"}}}}\n'
    errors: list[str] = []
    wide = "() => document.scrollingElement.scrollWidth"
    create = _page(browser, errors, PHONE)
    create.goto(f"{server.url}/?lang=en")
    create.select_option("#variant", "")
    create.fill("#house", text)
    create.click("#check")
    create.wait_for_selector("#mistakes li.ok")
    assert create.evaluate(wide) <= PHONE["width"]
    pages = _seated(browser, errors, _create(server, text=text))
    boris = pages[1]
    boris.fill("#name", "Борис" + "Ж" * 19)  # 24 letters, the most a name is shown whole
    boris.dispatch_event("#name", "change")
    boris.wait_for_selector(f"button.action:has-text('{long_call}')")
    pages[0].wait_for_function("() => document.querySelector('#seat-1 .seat-name').textContent.startsWith('Борис')")
    assert boris.evaluate(wide) <= PHONE["width"] and pages[0].evaluate(wide) <= PHONE["width"]
    assert errors == []
