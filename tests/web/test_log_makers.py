"""Who made each of the log's events (``by``, ``Table._makers``), without a browser: the page's own test
(test_browser_log) reads only some lines, and test_view_cache compares ``_makers`` with itself."""

from __future__ import annotations

from tests.web.conftest import who_deal

ACTS = {"called", "drew", "discarded", "exchanged", "played"}  # an action's own events, about the acting seat


def test_each_event_says_who_made_it_and_what_follows_an_action_says_nobody() -> None:
    # test_browser_log's deal (seed "who"): Anna (seat 0) and Boris (seat 1) each make their first call
    # themselves, then bots act for every seat; a trick taken and the settlement are made by nobody.
    table = who_deal()
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
