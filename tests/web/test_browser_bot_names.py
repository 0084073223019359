"""A bot is shown by the strength the table was made with, in headless Chromium.

The create API accepts the bots' old names (rule, heuristic, search: easy, normal, strong), and a table made
with one showed «бот (эвристический)» / "bot (heuristic)" in its seat boxes and the host's row, a word the
player never chose the bots by.  Every place says the strength's word in the viewer's language."""

from __future__ import annotations

import pytest

from tests.web.conftest import fixed_seeds

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_table import PHONE, _create, _page, browser  # noqa: E402, F401  (the fixture)


def test_a_table_made_with_old_bot_names_shows_their_strengths(live_server, browser) -> None:  # noqa: F811
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("old-names"))
    answer = _create(server, bots={"1": "heuristic", "2": "rule", "3": "search"})
    # the API's answer names the seats' bots as the table holds them: by strength
    assert [s["bot"] for s in answer["seats"]] == [None, "normal", "easy", "strong"]
    errors: list[str] = []
    shown = {}
    for lang in ("ru", "en"):
        page = _page(browser, errors, PHONE)
        page.goto(answer["host"].replace("/play#", f"/play?lang={lang}#"))
        page.wait_for_selector("#seat-3 .seat-tags")
        page.click("#host summary")  # the host's row says each bot seat's kind too
        shown[lang] = ([page.inner_text(f"#seat-{s} .seat-tags") for s in (1, 2, 3)],
                       [page.inner_text(f"#host li[data-seat='{s}']") for s in (1, 2, 3)])
    tags, rows = shown["ru"]
    for tag, row, word in zip(tags, rows, ("обычный", "лёгкий", "сильный"), strict=True):
        assert f"бот ({word})" in tag and f"бот ({word})" in row, (tag, row)
    tags, rows = shown["en"]
    for tag, row, word in zip(tags, rows, ("normal", "easy", "strong"), strict=True):
        assert f"bot ({word})" in tag and f"bot ({word})" in row, (tag, row)
    for text in [*sum(shown["ru"], []), *sum(shown["en"], [])]:
        for old in ("эвристич", "простым правилам", "глубок", "heuristic", "rules of thumb", "deep search"):
            assert old not in text, text
    assert errors == []
