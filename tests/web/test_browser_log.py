"""The log ("What happened") on the table page names every player by the name he sat down with, in the
reader's language, from the typed events: the redeal, override and settlement lines were the server's
sentences, "seat 1" / «место 1», beside lines that said "Anna".  Each test here failed before."""

from __future__ import annotations

import json
import re

import pytest

from khrap.cards import card_str
from khrap.engine import events as ev
from khrap.web import i18n
from khrap.web.table import Table, _public_event
from tests.web.conftest import fixed_seeds, who_deal

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_table import PHONE, _create, _page, _play, browser  # noqa: E402, F401  (the fixture)

NAMES = ["Anna", "Борис <b>", "Вера", "Dan"]
SAMPLES: dict[type, tuple[int | None, dict]] = {
    ev.Anted: (None, {"reason": "round", "round": 2, "chips": 1, "pot": 8}),
    ev.Dealt: (None, {"dealer": 3, "size": 4}),
    ev.Turned: (None, {"card": 22, "trump": 1}),
    ev.Redealt: (1, {}),
    ev.AllPassed: (None, {"round": 2}),
    ev.SessionOver: (2, {"reason": "ante", "chips": 1}),
    ev.Looked: (0, {}),
    ev.Called: (0, {"call": "khrap", "action": "khrap"}),
    ev.Decided: (1, {"decision": "look", "action": "look"}),
    ev.Overridden: (0, {"status": "helper"}),
    ev.Forced: (2, {}),
    ev.Shown: (1, {"cards": (8,)}),
    ev.Swapped: (1, {"position": 2, "card": 8}),
    ev.TookTurned: (3, {"card": 8}),
    ev.Drew: (2, {"count": 2, "source": "top"}),
    ev.NamedTrump: (3, {"suit": 2}),
    ev.Exchanged: (3, {"count": 1}),
    ev.Discarded: (2, {}),
    ev.Credited: (0, {"tricks": 4}),
    ev.Played: (1, {"card": 8, "joker": False}),
    ev.TookTrick: (1, {"count": 2}),
    ev.Settling: (None, {"pot": 8, "tricks": ((0, 1), (1, 3))}),
    ev.PaidOut: (1, {"chips": 6, "pot": 2, "reason": "share", "tricks": 3, "unit": 2}),
    ev.PaidIn: (2, {"chips": 2, "pot": 4, "reason": "penalty", "status": "declarer", "tricks": 1}),
    ev.InstantWin: (3, {"win": "four-aces"}),
    ev.TookPot: (3, {"chips": 8}),
    ev.HouseShare: (1, {"chips": 1, "win": 6, "taxed": 5, "percent": 4}),
    ev.Settled: (None, {"stacks": (99, 105, 97, 100), "pot": 1}),
}
"""One event of every kind the log tells, with fields as the kernel makes them (cards and suits as ints)."""


def test_the_samples_are_every_kind_the_log_tells() -> None:
    # A new narrated kind fails here until it has a sample (and the page a wording: the next test).
    narrated = {kind for kind in ev.EVENT_TYPES.values() if kind(None, {}).narrated}
    assert narrated == set(SAMPLES)


def test_the_page_gets_every_told_event_as_data_without_hands_or_ledger() -> None:
    # The page got the kind alone of the events it did not word (redeal, override, settlement...), so it
    # could show only the server's sentence, "seat 1".
    dealt = ev.Dealt(None, {"dealer": 0, "size": 4}, {"hands": ((1, 2), (3, 4))})
    assert _public_event(dealt, 0) == {"kind": "dealt", "seat": None, "dealer": 0, "size": 4}
    settled = ev.Settled(None, {"stacks": (1, 2), "pot": 0, "ledger": None})
    assert _public_event(settled, None) == {"kind": "settled", "seat": None, "stacks": [1, 2], "pot": 0}
    paid = ev.PaidIn(2, {"chips": 2, "pot": 4, "reason": "penalty", "status": "declarer", "tricks": 1})
    assert _public_event(paid, 0)["status"] == "declarer"
    drew = ev.Drew(2, {"count": 1, "source": "top"}, {"cards": (5,)})
    assert "cards" not in _public_event(drew, 1) and _public_event(drew, 2)["cards"] == [card_str(5)]


def _state(lang: str) -> dict:
    """A real view of a settled deal (seat 0's, in ``lang``), its seats named and its log replaced by one
    event of every told kind; the server's sentences replaced by a marker the page must never show."""
    from khrap.variant.catalog import builtin

    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1,
                         bots={1: "rule", 2: "rule", 3: "rule"}, deals=2, seed_source=fixed_seeds("log"),
                         session_seed=7)
    table.start_deal()
    while table.in_deal:
        table.apply(table.session.to_act, table.bot_action(table.session.to_act, "rule"), by="bot")
    for seat, name in zip(table.seats, NAMES, strict=True):
        seat.name = name
    view = table.view(0, lang)
    made = [kind(seat, dict(fields)) for kind, (seat, fields) in SAMPLES.items()]
    view["events"] = [_public_event(e, 0) for e in made]
    view["log"] = ["SERVER-SENTENCE"] * len(made)
    return view


# The page's socket, replaced: it opens, and the server's one message is the state above.
FAKE_SOCKET = """
window.WebSocket = class {
  constructor() { this.readyState = 1; this.heard = {};
    setTimeout(() => { this.say("open", {}); this.say("message", { data: JSON.stringify(window.STATE) }); }, 0); }
  addEventListener(kind, f) { (this.heard[kind] ||= []).push(f); }
  send() {}
  say(kind, e) { for (const f of this.heard[kind] || []) f(e); }
};
window.WebSocket.OPEN = 1;
"""


def showing(server, browser, errors: list[str], state: dict, lang: str):  # noqa: F811
    """A phone page of ``server`` in ``lang`` whose socket is ``FAKE_SOCKET``: it is sent ``state`` as its one
    message, with no table behind it (a state made by hand, to look at how the page words it)."""
    page = _page(browser, errors, PHONE)
    page.add_init_script(f"window.STATE = {json.dumps(state)};" + FAKE_SOCKET)
    page.goto(server.url + f"/play?lang={lang}#token")
    return page


GENDER = re.compile(r"\b[а-яё]*[аеёиоуыэюя]л(?:ся)?\b|\b(?:обязан|один|сам|он|него|его|ему)\b", re.IGNORECASE)
"""A Russian word that says a player is a man: a past tense («ушёл», «взял», «не выполнил»), «обязан», «один», «он»."""
NOT_GENDER = {"стол", "правил", "провал"}
"""Words GENDER finds that are not verbs: a table, the rules' genitive, a failure."""


def gendered(text: str) -> list[str]:
    """The words of a Russian ``text`` that guess a player's gender (a name says nothing of it: Anna, Dan)."""
    return [w for w in GENDER.findall(text) if w.lower() not in NOT_GENDER]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_log_line_names_the_players_by_their_names(live_server, browser, lang) -> None:  # noqa: F811
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = showing(server, browser, errors, _state(lang), lang)
    page.wait_for_selector("#log ol li")
    lines = [li.inner_text() for li in page.query_selector_all("#log ol li")]
    words = i18n.strings(lang)
    assert len(lines) == len(SAMPLES)
    numbered = [str(words["seat_n"]).format(seat=s).lower() for s in range(4)]
    for (kind, (seat, _fields)), line in zip(SAMPLES.items(), lines, strict=True):
        assert "SERVER-SENTENCE" not in line and not any(n in line.lower() for n in numbered), (kind, line)
        if seat is not None:
            assert NAMES[seat] in line, (kind, line)
        assert "{" not in line and "undefined" not in line and "status_" not in line, (kind, line)
    by_kind = dict(zip(SAMPLES, lines, strict=True))
    # The lists name each seat too: the settlement's tricks and the stacks after it.
    assert all(name in by_kind[ev.Settled] for name in NAMES) and "Anna" in by_kind[ev.Settling]
    assert page.query_selector("#log b") is None  # a name is text, never markup
    if lang == "en":  # hand-written: what each line says, in English
        assert by_kind[ev.Redealt] == "Redeal: Борис <b> deals"
        assert by_kind[ev.Overridden] == "Anna (you) is overridden and becomes helper"
        assert by_kind[ev.PaidOut] == "Борис <b> takes 6 from the pot (3 tricks × 2); pot 2"
        assert by_kind[ev.PaidIn] == "Вера pays 2 into the pot (failed as declarer with 1 trick); pot 4"
        assert by_kind[ev.Settled] == ("Deal settled: Anna (you) 99 chips, Борис <b> 105 chips, Вера 97 chips, "
                                       "Dan 100 chips; pot 1")
        assert by_kind[ev.Settling] == "Settlement: pot 8; tricks: Anna (you) 1 trick, Борис <b> 3 tricks"
        assert by_kind[ev.InstantWin] == "Dan: Four aces"
    if lang == "ru":  # (it said «не выполнил»: a man's verb, of Вера)
        assert by_kind[ev.PaidIn] == "Вера платит в банк 2: провал (играет), 1 взятка; банк 4"
        assert [(kind, line) for kind, line in by_kind.items() if gendered(line)] == []
    assert errors == []


def test_a_deal_played_names_the_players_in_its_settlement_lines(live_server, browser) -> None:  # noqa: F811
    # The deal of test_browser_table.py (seed "browser-test:0", its fixed plan), Anna at seat 0 on a laptop in
    # English, Борис at seat 1 on a phone in Russian.  Its settlement (worked out there): seat 0 takes 1
    # (1 trick × 1), seat 1 pays 2 (failed declarer, 0 tricks); stacks 100, 97, 104, 98, pot 1.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    answer = _create(server, bots={"2": "rule", "3": "rule"})
    pages = {}
    for seat, lang, name in ((0, "en", "Anna"), (1, "ru", "Борис")):
        pages[seat] = page = _page(browser, errors, PHONE if seat else {"width": 1280, "height": 800})
        page.goto(answer["seats"][seat]["link"].replace("/play#", f"/play?lang={lang}#"))
        page.wait_for_selector("#next")
        page.fill("#name", name)
        page.dispatch_event("#name", "change")
    for page in pages.values():
        page.wait_for_function("() => document.querySelector('#seat-1 .seat-name').textContent.startsWith('Борис')")
        page.click("#next")
    _play(pages, lambda: False)
    anna, boris = (pages[0].inner_text("#log ol"), pages[1].inner_text("#log ol"))
    assert "Anna (you) takes 1 from the pot (1 trick × 1); pot 0" in anna
    assert "Борис pays 2 into the pot (failed as declarer with 0 tricks); pot 2" in anna
    assert "Deal settled: Anna (you) 100 chips, Борис 97 chips, Bot 2 104 chips, Bot 3 98 chips; pot 1" in anna
    assert "Борис (вы) платит в банк 2: провал (играет), 0 взяток; банк 2" in boris
    for log in (anna, boris):
        assert not any(s in log.lower() for s in ("seat 0", "seat 1", "место 0", "место 1")), log
    assert errors == []


def test_a_move_is_named_for_whoever_made_it_when_the_seat_changes_hands(live_server, browser) -> None:  # noqa: F811
    # Seed "who": Boris (seat 1, first to speak) says khrap himself, then leaves the table (his seat goes to a bot);
    # Anna (seat 0, the dealer) says help herself, then is away and the takeover bot plays her seat.  The log wrote
    # every line of a seat by its name of the moment: Boris's own khrap as "Bot (Boris's seat)" once he had left,
    # the bot's cards at Anna's seat as hers ("Anna plays J♠").  The events now say who made each move (``by``).
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    table = who_deal(leave=True)
    errors: list[str] = []
    page = showing(server, browser, errors, table.view(None, "en"), "en")
    page.wait_for_selector("#log ol li")
    lines = [li.inner_text() for li in page.query_selector_all("#log ol li")]
    assert "Boris: Khrap" in lines and "Anna: Help" in lines  # their own calls (the deal's first two by them)
    assert "Bot (Boris's seat) plays 9♠" in lines and "Bot (Anna's seat) plays J♠" in lines  # the bots' cards
    assert not any(line.startswith(("Anna plays", "Boris plays", "Bot (Boris's seat): ")) for line in lines), lines
    assert errors == []
