"""Message catalogs: the rulebook's fixed text in every language, English as the fallback.

Each language is one gettext catalog, ``locale/LANG/LC_MESSAGES/messages.po``,
compiled in memory the first time it is used (Babel reads the .po, writes the
binary .mo into a buffer, and :class:`gettext.GNUTranslations` reads that).
Why in memory rather than at build time: the .po file stays the only source, so
there is no compiled file to forget to rebuild or to ship, an editable install
and a wheel behave alike, and adding a language is dropping in one file.  It
costs a few milliseconds once per process.

An untranslated or fuzzy message is left out of the compiled catalog, so
gettext answers with the English msgid: a missing translation shows English,
never a blank.
"""

from __future__ import annotations

import gettext
from functools import cache
from io import BytesIO
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"


def catalog_path(lang: str) -> Path:
    """Where the catalog of ``lang`` lives (it may not exist)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> list[str]:
    """English (the source language) and every language that has a catalog."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return [SOURCE_LANGUAGE, *[lang for lang in found if lang != SOURCE_LANGUAGE]]


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``; English (and an unknown language) translate to themselves."""
    path = catalog_path(lang)
    if lang == SOURCE_LANGUAGE or not path.is_file():
        return gettext.NullTranslations()
    return compile_po(path.read_bytes(), lang)


def compile_po(data: bytes, lang: str) -> gettext.GNUTranslations:
    """Compile the text of a .po file into translations, in memory."""
    # Babel is imported here, not at the top: the `khrap` command lists the languages in its
    # --help (see languages()) and should not pay for Babel unless a sheet is translated.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(BytesIO(data), locale=lang, domain=DOMAIN)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def localized(text: dict[str, str] | None, lang: str, default: str = "") -> str:
    """A variant file's ``{en: ..., ru: ...}`` text in ``lang``, else English, else ``default``."""
    text = text or {}
    return text.get(lang) or text.get(SOURCE_LANGUAGE) or default
