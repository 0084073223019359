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
