"""The doubling offer (docs/house-rules/khrap-double.yaml, docs/extending.md) on the table's page in real
headless Chromium: the seat asked sees the registry's answers as buttons by their names in his language, a tap
doubles, the asking ends there and the declarer leads.  The deal seeds are fixed (``fixed_seeds``).

In CI (KHRAP_CI=1) a missing Chromium fails the test instead of skipping it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.conftest import fixed_seeds
from tests.web.test_browser_table import _create, _play, _seated, browser  # noqa: F401 (the fixture)

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

DOUBLE = (Path(__file__).parents[2] / "docs" / "house-rules" / "khrap-double.yaml").read_text(encoding="utf-8")


def test_a_helper_doubles_from_the_page_by_the_answers_names(live_server, browser) -> None:  # noqa: F811
    # Four people, test_browser.py's deal (seed "browser-test:0": seat 0 deals, seat 1 speaks first).  The plan
    # of test_browser_table._play: seat 1 says Khrap, seats 2, 3 and 0 help, everyone keeps his hand.  Then the
    # offer goes to the helpers clockwise from the declarer's left: seat 2 first, who doubles; seat 3 and seat 0
    # are not asked (once per deal) and the declarer, seat 1, leads the first trick.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("browser-test"),
                         session_seed=lambda: 7)
    errors: list[str] = []
    pages = _seated(browser, errors, _create(server, variant=None, text=DOUBLE, bots={}), lang="ru")
    asked = 'button.action[data-action="double"]'
    _play(pages, lambda: any(page.query_selector(asked) for page in pages.values()))
    page = pages[2]
    page.wait_for_selector(asked)
    assert [p.query_selector(asked) is None for s, p in pages.items() if s != 2] == [True, True, True]
    buttons = {b.get_attribute("data-action"): b.inner_text().strip() for b in page.query_selector_all("button.action")}
    assert buttons == {"no-double": "Не удваиваю", "double": "Удваиваю"}  # the registry's Russian names
    step = page.evaluate("() => document.body.dataset.step")
    page.click(asked)
    page.wait_for_function(f"() => document.body.dataset.step !== {step!r}")
    pages[1].wait_for_function("() => document.body.dataset.toAct === '1'")  # the declarer leads: nobody else asked
    assert all(p.query_selector("button.action") is None for p in pages.values())  # no offer left on any page
    pages[1].wait_for_selector("#hand button.card.legal")
    state = next(iter(server.host.tables.values())).session.state
    assert state.phase == "play" and state.to_act == 1
    assert state.stake_of[1] == 4 and state.stake_of[2] == 3  # the declarer's 2 added to his 2 and the doubler's 1
    assert errors == []
