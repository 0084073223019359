"""A rule file is text on every page: a house rule made to carry script (in its names, notes, call
names and ``terms:``) is rendered through every route that shows it, in real Chromium, and no
element, attribute or script of its making reaches the DOM; every HTML response has a strict
Content-Security-Policy with no inline script.  Also the expansion bomb: ``terms:`` substituted in
one pass, so a chain of terms cannot multiply a sheet."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from html.parser import HTMLParser

import pytest

from khrap.rulebook.sheet import render_rules
from khrap.web.app import check_upload
from tests.web.conftest import chromium, fixed_seeds

PWN = "window.__pwned=1"
HOSTILE = f"""extends: khrap
name: {{en: '<img src=x onerror="{PWN}">', ru: '<script>{PWN}</script>'}}
description: {{en: '<marquee onmouseover="{PWN}">desc</marquee>'}}
notes:
  - {{en: '<iframe srcdoc="<script>{PWN}</script>"></iframe>'}}
calls:
  khrap: {{name: {{en: '<svg onload="{PWN}">', ru: '<svg onload="{PWN}">'}}}}
terms:
  en: {{span: 'img src=x onerror={PWN} x', class: 'onload={PWN} x', Player: '<script>{PWN}</script>'}}
  ru: {{span: 'img src=x onerror={PWN} x', Игрок: '<script>{PWN}</script>'}}
"""
"""Markup in every field a sheet or a page prints; the terms rewrite inside tags on the old sheet
(``span`` -> an ``img`` with ``onerror``, ``class`` -> an ``onload`` attribute)."""

# The page's own pictures are SVG (common.js ``icon``: the reactions and the turn clock; table.js: the evening's
# chart), made with createElementNS: an SVG is the page's only as one of those, with no element but shapes
# inside; any other SVG, or one with a handler, came from the rule file.
CHECK_DOM = """() => {
  const ICONS = ['thumbs_up', 'laugh', 'wow', 'grimace', 'party', 'clock'];
  const SHAPES = ['title', 'path', 'circle', 'ellipse', 'rect', 'line', 'polyline'];
  const own = (e) => e.tagName.toUpperCase() === 'SVG'
    && ((ICONS.includes(e.dataset.icon) && e.getAttribute('class') === 'icon icon-' + e.dataset.icon)
        || (e.getAttribute('class') === 'chart' && e.parentElement.classList.contains('chart-box')))
    && [...e.querySelectorAll('*')].every((c) => SHAPES.includes(c.tagName.toLowerCase()));
  const bad = [];
  for (const e of document.querySelectorAll('*')) {
    if (['IMG', 'SVG', 'IFRAME', 'MARQUEE'].includes(e.tagName.toUpperCase()) && !own(e)) bad.push(e.tagName);
    for (const a of e.attributes) if (a.name.startsWith('on')) bad.push(e.tagName + '@' + a.name);
  }
  for (const s of document.scripts) if (!s.src || !s.src.includes('/static/')) bad.push('script:' + s.text);
  return {bad, pwned: window.__pwned === 1, text: document.body ? document.body.innerText : ''};
}"""


class _Tags(HTMLParser):
    """Elements and attributes a rule file must never make: script, img, svg, iframe, on* handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.bad: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("script", "img", "svg", "iframe", "marquee"):
            self.bad.append(tag)
        self.bad += [f"{tag}@{name}" for name, _ in attrs if name.startswith("on")]


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as reply:
        return json.loads(reply.read())


def _headers(url: str) -> dict:
    with urllib.request.urlopen(url) as reply:
        return dict(reply.headers)


def test_the_terms_never_rewrite_markup() -> None:
    variant, errors = check_upload(HOSTILE)
    assert errors == []
    for lang in ("en", "ru"):
        page = render_rules(variant, "html", lang)
        tags = _Tags()
        tags.feed(page)
        assert tags.bad == []
        assert "&lt;script&gt;" in page  # the term's word is shown, as text


def test_a_chain_of_terms_is_substituted_once() -> None:
    """la -> 20 x "lb", lb -> 20 x "lc", lc -> 20 x "ld": applied one after another (the old sheet) each
    "la" became 8,000 letters pairs; in one pass it becomes 20 pairs "lb" and nothing more."""
    chain = "extends: khrap\nterms:\n  en: {la: " + "lb" * 20 + ", lb: " + "lc" * 20 + ", lc: " + "ld" * 20 + "}\n"
    variant, errors = check_upload(chain)
    assert errors == []
    plain = "".join(render_rules(check_upload("extends: khrap\n")[0], "txt", "en").split())  # no terms
    page = "".join(render_rules(variant, "txt", "en").split())  # (the lines are wrapped: spaces left out)
    occurrences = plain.count("la") + plain.count("La")
    assert occurrences > 5  # "player", "play": the chain has something to bite on
    assert "ld" * 20 not in page and "lc" * 20 not in page  # never fed back
    assert "lb" * 20 in page  # the first term applied
    assert len(page) < 2 * len(plain)  # grown by about 38 characters per "la" (fed back: 8,000 each)


def test_hostile_rules_on_every_page_in_chromium(live_server) -> None:
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
    path = chromium()
    server = live_server(bot_delay=0.0, takeover_seconds=600.0, seed_source=fixed_seeds("hostile-rules"))
    answer = _post(server.url + "/api/tables", {"text": HOSTILE, "players": 4, "bots": {"2": "rule", "3": "rule"}})
    assert answer["ok"], answer
    table, link = answer["table"], answer["seats"][0]["link"]
    pages = [f"/sheet/{table}?lang={lang}" for lang in ("en", "ru", "lt", "fi", "hy")] + [
        link.removeprefix(server.url), answer["spectator"].removeprefix(server.url),
        answer["host"].removeprefix(server.url),  # the host's page lists the seats (and their names)
        link.removeprefix(server.url).replace("/play", "/play?lang=hy"), "/"]
    for url in pages + ["/static/table.js", "/nowhere", f"/sheet/{table}x"]:
        try:
            headers = _headers(server.url + url.split("#")[0])
        except urllib.error.HTTPError as err:
            headers = dict(err.headers)
        policy = headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy or "default-src 'none'" in policy, (url, policy)
        assert "unsafe-inline" not in policy and headers.get("x-content-type-options") == "nosniff", url
    errors: list[str] = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            page = browser.new_context().new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            for url in pages:
                page.goto(server.url + url)
                page.wait_for_load_state("networkidle")
                if url.startswith("/play"):
                    page.wait_for_selector("#fingerprint")
                found = page.evaluate(CHECK_DOM)
                assert found["bad"] == [] and not found["pwned"], (url, found["bad"])
                if url.startswith("/sheet") and url.endswith("en"):
                    assert "<img src=x" in found["text"] and "<svg onload" in found["text"]  # shown, as text
                    assert f"<script>{PWN}</script>" in found["text"]  # the term's word, as text
            page.goto(server.url + "/")  # the create page checks the pasted file and shows its title
            page.wait_for_selector("#check", state="attached")
            page.evaluate("(text) => { document.getElementById('house').value = text; "
                          "document.getElementById('check').click(); }", HOSTILE)
            page.wait_for_selector("li.ok", timeout=10_000)
            found = page.evaluate(CHECK_DOM)
            assert found["bad"] == [] and not found["pwned"], found["bad"]
            page.click("#create")  # the links page names the rules in its heading and in every invite copied
            page.wait_for_selector("#invite-table")
            found = page.evaluate(CHECK_DOM)
            assert found["bad"] == [] and not found["pwned"], found["bad"]
            assert "<img src=x" in page.inner_text("#invite-table")  # the title, as text
            copied = page.eval_on_selector_all("button.copy", "(bs) => bs.map((b) => b.dataset.copy)")
            assert copied and all(c.startswith('<img src=x onerror="') for c in copied), copied
        finally:
            browser.close()
    assert errors == []


def test_a_sheet_over_the_page_limit_is_not_served(tmp_path, monkeypatch) -> None:
    """Past ``SHEET_BYTES`` the server answers 413 with a sentence (a built-in's sheet is far under it)."""
    from starlette.testclient import TestClient

    from khrap.web import app as web

    with TestClient(web.create_app(tmp_path / "t.sqlite", bot_delay=0.0)) as client:
        body = {"text": "extends: khrap\nterms:\n  en: {la: " + "lb" * 20 + "}\n", "players": 2}
        table = client.post("/api/tables", json=body).json()["table"]
        normal = client.get(f"/sheet/{table}")
        assert normal.status_code == 200 and "default-src 'none'" in normal.headers["content-security-policy"]
        monkeypatch.setattr(web, "SHEET_BYTES", len(normal.content) - 1)
        refused = client.get(f"/sheet/{table}")
        assert refused.status_code == 413 and "KiB" in refused.text


def test_a_sheet_is_framed_by_this_servers_pages_only(tmp_path) -> None:
    """The table shows the rule sheet in a frame over itself (its way back): the sheet's policy lets this
    server's pages frame it, and no other site ('self' alone; with the directive left out any page could)."""
    from starlette.testclient import TestClient

    from khrap.web import app as web

    with TestClient(web.create_app(tmp_path / "t.sqlite", bot_delay=0.0)) as client:
        table = client.post("/api/tables", json={"text": "extends: khrap\n", "players": 4}).json()["table"]
        sheet = client.get(f"/sheet/{table}")
        assert sheet.status_code == 200
        directives = dict(d.strip().split(" ", 1) for d in sheet.headers["content-security-policy"].split(";"))
        assert directives["frame-ancestors"] == "'self'" and directives["default-src"] == "'none'"
