"""A call's line in the page's log is worded from the ``called`` event's typed fields (``events.call_event``: its
draw source, hand position, taking of the turned card), an answer's from the ``decided`` event's
(``events.decided_event``), never from its words: the page split the words at CONTRACT's "from", and showed a
taken turned card as the English word "trump" in every language."""

from __future__ import annotations

import pytest

from khrap.engine import events as ev
from khrap.engine.actions import Action
from khrap.variant.catalog import builtin
from khrap.web.table import Table, _public_event
from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_log import showing  # noqa: E402
from tests.web.test_browser_table import browser  # noqa: E402, F401  (the fixture)

NAMES = ["Anna", "Boris", "Vera"]


def _view(name: str, lang: str, events: list) -> dict:
    """Seat 0's view of a 3-player ``name`` table after a deal bots played, its log replaced by ``events``."""
    table = Table.create(builtin(name), name=name, source=None, players=3, stacks=100, base_stake=1,
                         bots={1: "rule", 2: "rule"}, deals=2, seed_source=fixed_seeds(f"call-{name}"), session_seed=5)
    table.start_deal()
    while table.in_deal:
        table.apply(table.session.to_act, table.bot_action(table.session.to_act, "rule"), by="bot")
    for seat, person in zip(table.seats, NAMES, strict=True):
        seat.name = person
    view = table.view(0, lang)
    view["events"] = [_public_event(e, 0) for e in events]
    view["log"] = ["SERVER-SENTENCE"] * len(events)
    return view


CASES = {
    # Student Snore: take five, its five cards drawn from the bottom (the drew line says where from).
    "student-snore": [ev.call_event(1, "take-five", Action("take-five", source="bottom"), "take-five from bottom"),
                      ev.Drew(1, {"count": 5, "source": "bottom"}, {"cards": (1, 2, 3, 4, 5)})],
    # Frap: cut, taking the turned trump; Khrap-shoot: wrap, swapping hand card 2.
    "frap": [ev.call_event(2, "cut", Action("cut", take_turned=True), "cut trump")],
    "khrap-shoot": [ev.call_event(1, "wrap", Action("wrap", position=2), "wrap 2")],
    # An answer to a rule's offer (the doubling house rule's): named from its typed answer, not its words (here
    # other words, which a page that split them would show).
    "khrap": [ev.decided_event(2, "double", Action("no-double"), "OTHER WORDS")],
}
LINES = {  # worked by hand from web.pot / ru's web.po ("{seat}: {call}", "{call} and take the turned card", ...)
    ("student-snore", "en"): ["Boris: Take five", "Boris draws 5 cards from the bottom of the stock"],
    ("student-snore", "ru"): ["Boris: Беру пять", "Boris берёт со дна колоды 5 карт"],
    ("frap", "en"): ["Vera: Cut and take the turned card"],
    ("frap", "ru"): ["Vera: Подрезаю + открытая карта"],
    ("khrap-shoot", "en"): ["Boris: Wrap 2"],
    ("khrap-shoot", "ru"): ["Boris: Заворачиваю 2"],
    ("khrap", "en"): ["Vera: No double"],  # (the registry's names of the answers, engine/compiled/face.py)
    ("khrap", "ru"): ["Vera: Не удваиваю"],
}


@pytest.mark.parametrize(("name", "lang"), sorted(LINES))
def test_a_calls_line_is_worded_from_its_typed_fields(live_server, browser, name, lang) -> None:  # noqa: F811
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = showing(server, browser, errors, _view(name, lang, CASES[name]), lang)
    page.wait_for_selector("#log ol li")
    assert [li.inner_text() for li in page.query_selector_all("#log ol li")] == LINES[name, lang]
    assert errors == []


def test_the_called_event_carries_what_the_call_carries() -> None:
    # The page's data of a call: its typed fields beside its words (which no consumer reads).
    called = _public_event(CASES["student-snore"][0], 0)
    assert called == {"kind": "called", "seat": 1, "call": "take-five", "action": "take-five from bottom",
                      "source": "bottom", "position": None, "take_turned": False, "cards": []}
    assert _public_event(CASES["frap"][0], None)["take_turned"] is True
    assert _public_event(CASES["khrap-shoot"][0], None)["position"] == 2


def test_the_log_says_the_variants_own_words(live_server, browser) -> None:  # noqa: F811
    # Snore's terms (fi: auttaj -> whistaaj): the page's "{seat} joutuu auttajaksi" and its status "auttaja" read
    # in the variant's words, which the table's view carries (``table.own``, substituted by the server's one
    # substitution); the page said khrap's words.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    events = [ev.make_event("forced", 2, {}), ev.make_event("overridden", 1, {"status": "helper"})]
    page = showing(server, browser, errors, _view("snore", "fi", events), "fi")
    page.wait_for_selector("#log ol li")
    assert [li.inner_text() for li in page.query_selector_all("#log ol li")] == [
        "Vera joutuu whistaajaksi", "Boris ohitetaan, ja hänestä tulee whistaaja"]
    assert errors == []
