"""What the last evening at the browser table left (issues 29, 31, 32's leftovers), seen again on a third: a host
who made the table in Russian, Snore's cut, a five-seat settlement on a phone, the evening's chart, Student Snore's
drawing calls.  Each test here failed on the page before its fix."""

from __future__ import annotations

import pytest

from khrap.cards import cards_str
from khrap.web import i18n
from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_log import showing  # noqa: E402
from tests.web.test_browser_table import PHONE, _create, _page, browser  # noqa: E402, F401  (the fixture)

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


# (JS) how each settlement row's words lie on a phone (how many lines), and whether every figure stands in its seat's
# column (its middle under that seat's head) and the pot's in the pot's.
LEDGER_LAYOUT = """() => {
  const lines = (node) => { const r = document.createRange(); r.selectNodeContents(node);
                            return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
  const heads = [...document.querySelectorAll("#ledger thead th.num")].map((th) => th.getBoundingClientRect());
  const under = (cell, head) => { const b = cell.getBoundingClientRect(), mid = (b.left + b.right) / 2;
                                  return head.left <= mid && mid <= head.right; };
  const misplaced = [...document.querySelectorAll("#ledger tbody td[data-chips], #ledger tfoot td[data-chips]")]
    .filter((td) => !under(td, heads[td.classList.contains("pot") ? heads.length - 1 : +td.dataset.seat]))
    .map((td) => td.closest("tr").querySelector("th").textContent);
  const box = document.querySelector("#settlement .scroll");
  return { lines: [...document.querySelectorAll("#ledger tbody th")].map(lines), misplaced,
           fits: box.scrollWidth <= box.clientWidth };
}"""


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_five_seat_settlement_on_a_phone_keeps_each_rows_words_on_a_line(live_server, browser, lang) -> None:  # noqa: F811
    # Five seats on a 390 px phone: the seats' five columns and the pot's left the rows' words a column of 6rem, and
    # they broke over three and four lines («Остаток банка, / поделённый / по взяткам», "What was left in the / pot,
    # shared by / tricks"), each row as tall as four.  A row's words now stand on a line across the table, its
    # figures under them, each in its seat's column; the change's and the chips' rows too (Armenian's
    # «Փոփոխություն» as the first column pushed the pot's column past the screen's edge).
    from tests.web.test_browser_phone import _evening_over

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    state = _evening_over(lang, deals=6)
    assert state["table"]["players"] == 5 and len(state["moves"]["rows"]) >= 5
    page = showing(server, browser, errors, state, lang)
    page.wait_for_selector("#ledger")
    seen = page.evaluate(LEDGER_LAYOUT)
    assert seen["lines"] == [1] * (1 + len(state["moves"]["rows"])), seen  # (the pot carried in, then each row)
    assert seen["misplaced"] == [] and seen["fits"], seen
    page.set_viewport_size(LAPTOP)  # a laptop keeps the table as it was: the words in their column, the figures beside
    assert page.evaluate("() => getComputedStyle(document.querySelector('#ledger')).display") == "table"
    assert page.evaluate(LEDGER_LAYOUT)["misplaced"] == []
    assert errors == []


def test_seats_with_the_same_stack_keep_their_own_lines_on_the_chart(live_server, browser) -> None:  # noqa: F811
    # The evening's chart drew a line a seat at its stacks: seats with the same stack after a deal were one line over
    # another (at the start, every seat's), and two seats tied through the evening showed as one line; stacks a chip
    # apart overlapped as much.  Here Dan (seat 3) has Anna's stacks after every deal, and Борис and Вера end level:
    # every seat's line stands apart from every other at every deal, by no less than a line's width (2.5, style.css's
    # .chart .line).
    from tests.web.test_browser_phone import _evening_over

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    state = _evening_over("en", deals=6)
    standings = [list(row) for row in state["table"]["standings"]]
    for row in standings:
        row[3] = row[0]
    standings[-1][2] = standings[-1][1]
    state["table"]["standings"] = standings
    for viewport in (PHONE, LAPTOP):
        page = showing(server, browser, errors, state, "en")
        page.set_viewport_size(viewport)
        page.wait_for_selector("svg.chart polyline")
        lines = page.eval_on_selector_all("svg.chart polyline", "ls => ls.map((l) => l.getAttribute('points'))")
        points = [[tuple(map(float, p.split(","))) for p in line.split()] for line in lines]
        assert len(points) == 5 and all(len(line) == 7 for line in points)  # five seats: the start, six deals
        for d in range(7):
            ys = sorted(line[d][1] for line in points)
            assert min(b - a for a, b in zip(ys, ys[1:], strict=False)) >= 2.5, (d, ys)
        box = page.evaluate("() => document.querySelector('svg.chart').viewBox.baseVal.height")
        assert all(0 <= y <= box for line in points for _, y in line)  # (inside the chart's box)
    assert errors == []


def test_student_snores_drawing_calls_draw_from_where_the_player_says(live_server, browser) -> None:  # noqa: F811
    # Student Snore: "every drawing action (exchange, take-five, merry, wrap) may name from top, from bottom or from N"
    # (RULES.md §6, student-snore.yaml's draw_from: anywhere).  The page offered where to draw from for the exchange
    # alone: take five, merry and wrap drew from the top.  Seed "draw6:0": seats 1-3 pass or snore (rule bots), and
    # Anna (seat 0, the dealer, last to speak) may help, take five or pass; she takes five from the bottom.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("draw6"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    answer = _create(server, variant="student-snore", bots={"1": "rule", "2": "rule", "3": "rule"})
    page = _page(browser, errors, PHONE)
    page.goto(answer["seats"][0]["link"].replace("/play#", "/play?lang=en#"))
    page.fill("#name", "Anna")
    page.dispatch_event("#name", "change")
    page.click("#next")
    page.wait_for_selector('button.action[data-action="take-five"]')
    table = next(iter(server.host.tables.values()))
    # the seat's view marks the calls that draw as they are made (take five: 5, student-snore.yaml via khrap-52),
    # not help or pass, which draw nothing now
    offered = {a["text"]: a.get("from", False) for a in table.view(0, "en")["legal"]}
    assert offered == {"help": False, "take-five": True, "pass": False}
    assert page.query_selector("#actions #draw-from") is not None, "no choice of where to draw beside take five"
    assert [o.inner_text() for o in page.query_selector_all("#draw-from option")] == [
        "the top of the stock", "the bottom of the stock"]
    bottom = sorted(cards_str(table.session.state.stock[-5:]))  # (the stock's last five cards: its bottom)
    page.select_option("#draw-from", "bottom")
    page.click('button.action[data-action="take-five"]')
    page.wait_for_function("() => document.body.dataset.step !== undefined && !document.querySelector("
                           "'button.action[data-action=\"take-five\"]')")
    drew = next(e for e in table.view(0, "en")["events"] if e["kind"] == "drew" and e["seat"] == 0)
    assert drew["source"] == "bottom" and sorted(drew["cards"]) == bottom
    page.wait_for_function("() => document.querySelector('#log').textContent.includes('from the bottom of the stock')")
    said = [li.inner_text() for li in page.query_selector_all("#log li") if "bottom" in li.inner_text()]
    assert len(said) == 1 and said[0].startswith("Anna (you) draws ")
    assert said[0].endswith(" from the bottom of the stock")
    assert sum(said[0].count(suit) for suit in "♠♥♦♣") == 5, said  # her five cards, named to her
    # her call says the call, not the kernel's "from bottom" in English (the line under it says where, in words)
    assert "Anna (you): Take five" in [li.inner_text() for li in page.query_selector_all("#log li")]
    watcher = _page(browser, errors, LAPTOP)  # a spectator's Russian log: the count, where from, no card
    watcher.goto(answer["spectator"].replace("/play#", "/play?lang=ru#"))
    watcher.wait_for_function("() => document.querySelector('#log') && "
                              "document.querySelector('#log').textContent.includes('со дна колоды')")
    line = next(li.inner_text() for li in watcher.query_selector_all("#log li") if "со дна колоды" in li.inner_text())
    assert line == "Anna берёт со дна колоды 5 карт", line
    assert errors == []


def test_the_doubling_offer_says_what_the_seat_decides(live_server, browser) -> None:  # noqa: F811
    # The doubling offer (docs/house-rules/khrap-double.yaml, a kind of decision of its own, in the offers phase):
    # its turn line said "make your call." as well.  Its answers by the registry's Russian names (as
    # test_browser_double.py reads them on the buttons): «Не удваиваю», «Удваиваю».
    from pathlib import Path

    from khrap.web.app import check_upload
    from khrap.web.table import Table

    variant, _ = check_upload((Path(__file__).parents[2] / "docs/house-rules/khrap-double.yaml").read_text())
    table = Table.create(variant, name="khrap-double", source=None, players=4, stacks=100, base_stake=1,
                         bots={1: "rule", 2: "rule", 3: "rule"}, deals=2, seed_source=fixed_seeds("dbl0"),
                         session_seed=7)
    table.start_deal()
    while not any(a["word"] == "double" for a in table.view(table.session.to_act, "ru")["legal"]):
        table.apply(table.session.to_act, table.bot_action(table.session.to_act, "rule"), by="bot")
    state = table.view(table.session.to_act, "ru")
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = showing(server, browser, errors, state, "ru")
    page.wait_for_selector("#todo")
    assert page.inner_text("#todo") == "ваш выбор: Не удваиваю или Удваиваю."
    assert errors == []


def _shooting(table, seat) -> str:
    """Seat 0 shoots when he may (khrap-shoot.yaml's shoot: at the exchange he throws exactly three cards)."""
    legal = [a["text"] for a in table.view(seat, "en")["legal"]]
    return "shoot" if seat == 0 and "shoot" in legal else table.bot_action(seat, "rule")


def _exchanging(table, seat) -> bool:
    return seat == 0 and any(a["word"] == "exchange" for a in table.view(seat, "en")["legal"])


def test_the_shooters_exchange_says_exactly_three_and_offers_no_keeping(live_server, browser) -> None:  # noqa: F811
    # Khrap-shoot (seed "shoot0"): Глеб shoots, and at the exchange must throw exactly three of his four cards
    # (khrap-shoot.yaml: min_discard 3, max_discard 3).  The page said "choose the cards to change (or keep your
    # hand)", "(at most 3)" under a grey "Keep my hand": he tapped it, and nothing happened.
    from tests.web.test_browser_evening import _table

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    table = _table("khrap-shoot", "shoot0", _exchanging, _shooting)
    state = table.view(0, "ru")
    assert state["obs"]["calls"][0] == "shoot" and {len(a["cards"]) for a in state["legal"]} == {3}
    page = showing(server, browser, errors, state, "ru")
    page.wait_for_selector("#exchange")
    assert page.inner_text("#todo") == "выберите карты для замены."
    assert page.inner_text("#exchange-help") == "Коснитесь карт, которые меняете (ровно 3), и нажмите кнопку."
    assert page.inner_text("#exchange") == "Поменять 3" and not page.is_enabled("#exchange")
    for card in state["obs"]["hand"][:3]:
        page.click(f'#hand [data-card="{card}"]')
    assert page.inner_text("#exchange") == "Поменять 3" and page.is_enabled("#exchange")
    assert errors == []


def _staked(table, seat) -> bool:
    """Seat 0 to act while another seat has chips at stake (khrap-52: a declarer's stake is locked)."""
    view = table.view(seat, "ru")
    return seat == 0 and any(view["obs"]["locked"][1:])


def test_a_seats_stake_is_kept_in_one_piece_on_a_phone(live_server, browser) -> None:  # noqa: F811
    # Khrap on 52 cards in Russian on a phone (seed "staked1": seat 2 declared, 8 chips at stake): a seat's box said
    # «фишек: 91 (в ставке:» and «8)» on the next line.
    from tests.web.test_browser_evening import _table

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    state = _table("khrap-52", "staked1", _staked).view(0, "ru")
    seat = next(i for i, chips in enumerate(state["obs"]["locked"]) if chips)
    page = showing(server, browser, errors, state, "ru")
    page.wait_for_selector(f"#seat-{seat} .seat-stack")
    lines = page.evaluate("""(seat) => {
      const box = document.querySelector(`#seat-${seat} .seat-stack`), text = box.textContent;
      const range = document.createRange();
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT), nodes = [];
      while (walker.nextNode()) nodes.push(walker.currentNode);
      const node = nodes.find((n) => n.textContent.includes("(")), at = node.textContent.indexOf("(");
      range.setStart(node, at); range.setEnd(nodes.at(-1), nodes.at(-1).textContent.length);
      const tops = [...range.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.top));
      return { text, lines: new Set(tops).size };
    }""", seat)
    assert lines["text"].endswith(f"(в ставке: {state['obs']['locked'][seat]})") and lines["lines"] == 1, lines
    assert errors == []
