"""Gettext catalogs compiled in memory: one mechanism for every domain (rule sheets, game log).

Each language of a domain is one catalog, ``LOCALE/LANG/LC_MESSAGES/DOMAIN.po``,
compiled in memory the first time it is used (Babel reads the .po, writes the
binary .mo into a buffer, and :class:`gettext.GNUTranslations` reads that).
Why in memory rather than at build time: the .po file stays the only source, so
there is no compiled file to forget to rebuild or to ship, an editable install
and a wheel behave alike, and adding a language is dropping in one file.

English is the source language of every domain: its text is the msgids, so it
needs no catalog.  An untranslated or fuzzy message is left out of the compiled
catalog, so gettext answers with the English msgid: a missing translation shows
English, never a blank.

A leaf module: it imports nothing of khrap, so the rulebook and the game log
(which the engine's events render through) share it without importing each other.
"""

from __future__ import annotations

import gettext
from io import BytesIO
from pathlib import Path

SOURCE_LANGUAGE = "en"


def catalog_path(locale_dir: Path, domain: str, lang: str) -> Path:
    """Where the catalog of ``lang`` lives (it may not exist)."""
    return locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"


def languages(locale_dir: Path, domain: str) -> list[str]:
    """English (the source language) and every language that has a catalog of ``domain``."""
    found = sorted(p.parent.parent.name for p in locale_dir.glob(f"*/LC_MESSAGES/{domain}.po"))
    return [SOURCE_LANGUAGE, *[lang for lang in found if lang != SOURCE_LANGUAGE]]


def load(locale_dir: Path, domain: str, lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``; English (and a language without a catalog) translate to themselves."""
    path = catalog_path(locale_dir, domain, lang)
    if lang == SOURCE_LANGUAGE or not path.is_file():
        return gettext.NullTranslations()
    return compile_po(path.read_bytes(), lang, domain)


def compile_po(data: bytes, lang: str, domain: str) -> gettext.GNUTranslations:
    """Compile the text of a .po file into translations, in memory."""
    # Babel is imported here, not at the top: the `khrap` command lists the languages in its
    # --help and should not pay for Babel unless something is translated.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(BytesIO(data), locale=lang, domain=domain)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)
