"""A variant's own words (its ``terms:``) put into sentences: the one substitution of the project.

The rule sheet, the game log and the terminal (``gamelog.Voice``), the web page's worded names and the analysis
report all say a variant's words through ``own_words``: a frap declarer is «фрапующий» where the general word is
«храпящий», the same way on every face.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

_MD_SPECIAL = re.compile(r"([\\`*_\[\]#|~])")
_TAG = re.compile(r"(<[^>]*>)")


def md_escape(text: str) -> str:
    """Text from a variant file, made inert in Markdown (no markup, no HTML, no table breaks)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def own_words(terms: dict[str, str], fmt: str = "txt") -> Callable[[Any], Any]:
    """The substitution of a variant's ``terms:`` (general word -> the game's word, and the same
    capitalized) for sentences in ``fmt`` (``txt``: plain text; ``md``; ``html``).

    The words come from a file, so they are text, never markup: they replace words of the plain text
    only (in HTML the text between tags, unescaped first and escaped after; never inside a tag or an
    attribute), all in one pass, longest first, and what one puts in is never searched again (a chain
    of terms cannot grow a sentence more than the longest word over the shortest it replaces)."""
    pairs: dict[str, str] = {}
    for general, word in terms.items():
        pairs.setdefault(general, word)
        pairs.setdefault(general[:1].upper() + general[1:], word[:1].upper() + word[1:])
    pairs = {k: v for k, v in pairs.items() if k}
    if not pairs:
        return lambda text: text
    pattern = re.compile("|".join(re.escape(k) for k in sorted(pairs, key=lambda k: (-len(k), k))))
    if fmt == "md":
        pairs = {k: md_escape(v) for k, v in pairs.items()}

    def plain(text: str) -> str:
        return pattern.sub(lambda m: pairs[m.group(0)], text)

    def markup(text: Markup) -> Markup:
        parts = _TAG.split(str(text))
        for i in range(0, len(parts), 2):  # even parts are text between tags, odd ones the tags
            if pattern.search(html.unescape(parts[i])):
                parts[i] = str(escape(plain(html.unescape(parts[i]))))
        return Markup("".join(parts))

    return lambda text: markup(text) if isinstance(text, Markup) else plain(text)


def variant_terms(variant: Any, lang: str) -> dict[str, str]:
    """``variant``'s ``terms:`` in ``lang`` (none for no variant)."""
    terms = getattr(variant, "terms", None) or {}
    return dict(terms.get(lang, {}))


__all__ = ["md_escape", "own_words", "variant_terms"]
