"""Who made each of the log's events (``by``, ``Table._makers``), without a browser: the page's own test
(test_browser_log) reads only some lines, and test_view_cache compares ``_makers`` with itself."""

from __future__ import annotations

from khrap.variant.catalog import builtin
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds

ACTS = {"called", "drew", "discarded", "exchanged", "played"}  # an action's own events, about the acting seat


def test_each_event_says_who_made_it_and_what_follows_an_action_says_nobody() -> None:
    # test_browser_log's deal (seed "who"): Anna (seat 0) and Boris (seat 1) each make their first call
    # themselves, then bots act for every seat; a trick taken and the settlement are made by nobody.
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1,
                         bots={2: "rule", 3: "rule"}, deals=1, seed_source=fixed_seeds("who"), session_seed=7)
    table.start_deal()
    spoke: set[int] = set()
    while table.in_deal:
        seat = table.session.to_act
        person = seat in (0, 1) and seat not in spoke
        table.apply(seat, "khrap" if person and seat == 1 else table.bot_action(seat, "rule"),
                    by="human" if person else "bot")
        spoke.add(seat)
    events = table.view(None, "en")["events"]
    called: set[int] = set()
    expected = []
    for e in events:
        if e["kind"] == "called" and e["seat"] in (0, 1) and e["seat"] not in called:
            expected.append("human")
        else:
            expected.append("bot" if e["kind"] in ACTS else None)
        if e["kind"] == "called":
            called.add(e["seat"])
    assert [e.get("by") for e in events] == expected
    assert expected.count("human") == 2 and {"took_trick", "settled"} <= {e["kind"] for e in events}
