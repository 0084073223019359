"""What a fourth evening at the browser table showed (friends making tables from their own files on phones and a
laptop, in Russian and English): each test here failed on the page before its fix."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from tests.web.test_browser_table import PHONE, _page, browser  # noqa: E402, F401  (the fixture)

# A Russian house rule as Windows saves it by default (Windows-1251), and the same file in UTF-8.
RUSSIAN = 'extends: khrap\nbase_stake: 2\nname: {en: "Friday", ru: "Пятничный храп"}\n'


def test_a_file_that_is_not_utf8_is_refused_with_its_line(live_server, browser) -> None:  # noqa: F811
    # A house rule saved as Windows-1251 and uploaded on the Russian create page: the page read it with
    # File.text(), which puts U+FFFD for each byte that is not UTF-8, and said «Файл без ошибок: ��������� ����»
    # (the server only ever saw the garbled text); `khrap validate` says "3:24: not UTF-8 text" of that file.
    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    errors: list[str] = []
    page = _page(browser, errors, PHONE)
    page.goto(f"{server.url}/?lang=ru")
    page.set_input_files("#file", {"name": "friday.yaml", "mimeType": "text/yaml",
                                   "buffer": RUSSIAN.encode("cp1251")})
    page.wait_for_selector("#mistakes .mistake")
    assert page.inner_text("#mistakes .mistake") == (
        "Файл не в кодировке UTF-8 (строка 3): сохраните его в UTF-8 и загрузите снова")
    assert page.input_value("#house") == ""  # (nothing garbled is put in the box)
    page.set_input_files("#file", {"name": "friday.yaml", "mimeType": "text/yaml",
                                   "buffer": b"\xef\xbb\xbf" + RUSSIAN.encode("utf-8")})  # with a BOM, as Notepad saves
    page.wait_for_selector("#mistakes .ok")
    assert page.inner_text("#mistakes .ok") == "Файл без ошибок: Пятничный храп"
    assert page.input_value("#house") == RUSSIAN
    page.goto(f"{server.url}/?lang=en")
    page.set_input_files("#file", {"name": "cafe.yaml", "mimeType": "text/yaml",
                                   "buffer": b'extends: khrap\nname: {en: "Caf\xe9 rules"}\n'})  # Latin-1
    page.wait_for_selector("#mistakes .mistake")
    assert page.inner_text("#mistakes .mistake") == (
        "The file is not UTF-8 text (line 2): save it as UTF-8 and upload it again")
    assert errors == []


def test_the_invite_is_copied_at_a_table_served_on_the_home_network(live_server) -> None:
    # The host served the table to the flat (`khrap serve --host 0.0.0.0`) and made it at http://192.168.…:8000/:
    # "copy" beside each invite did nothing, without a word (the clipboard API exists only on https or on this
    # machine: navigator.clipboard is undefined there).  The name khrap.lan is the server's loopback address for
    # this browser, an http origin that is not this machine's, so not a secure context.
    from playwright.sync_api import sync_playwright

    from tests.web.conftest import chromium

    server = live_server(bot_delay=0.0, takeover_seconds=600.0)
    lan = server.url.replace("127.0.0.1", "khrap.lan")
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(),
                                    args=["--no-sandbox", "--host-resolver-rules=MAP khrap.lan 127.0.0.1"])
        try:
            context = browser.new_context(viewport={"width": 1200, "height": 900})
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
            create = context.new_page()
            create.on("pageerror", lambda e: errors.append(str(e)))
            create.goto(lan + "/?lang=ru")
            assert create.evaluate("() => window.isSecureContext") is False
            create.select_option("#variant", "khrap")
            create.fill("#deals", "8")
            create.click("#create")
            create.wait_for_selector(".seat-link")
            link = create.get_attribute('.seat-link[data-seat="0"]', "href")
            assert link.startswith(lan + "/play#")
            button = 'li.invite:has(.seat-link[data-seat="0"]) button.copy'
            create.click(button)
            assert create.inner_text(button) == "скопировано"  # the button says it went
            reader = context.new_page()  # the clipboard read back on a secure origin of the same browser
            reader.goto(server.url + "/static/common.js")
            assert reader.evaluate("() => navigator.clipboard.readText()") == f"Храп (8 раздач), Место 0: {link}"
        finally:
            browser.close()
    assert errors == []
