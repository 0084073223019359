"""Message catalogs: the rulebook's fixed text in every language, English as the fallback.

Each language is one gettext catalog, ``locale/LANG/LC_MESSAGES/messages.po``,
compiled in memory the first time it is used (:mod:`khrap.catalogs` says how
and why).  The names here read ``LOCALE_DIR`` when called, so a test may point
it elsewhere.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from khrap import catalogs

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SOURCE_LANGUAGE = catalogs.SOURCE_LANGUAGE


def catalog_path(lang: str) -> Path:
    """Where the catalog of ``lang`` lives (it may not exist)."""
    return catalogs.catalog_path(LOCALE_DIR, DOMAIN, lang)


def languages() -> list[str]:
    """English (the source language) and every language that has a catalog."""
    return catalogs.languages(LOCALE_DIR, DOMAIN)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``; English (and an unknown language) translate to themselves."""
    return catalogs.load(LOCALE_DIR, DOMAIN, lang)


CHECKER_DOMAIN = "checker"
"""The house-rule checker's messages (:mod:`khrap.variant.said`): a domain of their own beside the sheets'
``messages``, in the same directory and read the same way, so that a language may have its sheets before its
checker messages (a message without a translation shows in English)."""


@cache
def checker_translations(lang: str) -> gettext.NullTranslations:
    """The compiled checker catalog of ``lang`` (``locale/LANG/LC_MESSAGES/checker.po``)."""
    return catalogs.load(LOCALE_DIR, CHECKER_DOMAIN, lang)


def compile_po(data: bytes, lang: str) -> gettext.GNUTranslations:
    """Compile the text of a .po file of the rule sheets into translations, in memory."""
    return catalogs.compile_po(data, lang, DOMAIN)


def localized(text: dict[str, str] | None, lang: str, default: str = "") -> str:
    """A variant file's ``{en: ..., ru: ...}`` text in ``lang``, else English, else ``default``."""
    text = text or {}
    return text.get(lang) or text.get(SOURCE_LANGUAGE) or default
