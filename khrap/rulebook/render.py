"""Jinja2 environments per output format and language, and the wording of sheet lines.

Three formats share the sentences (``templates/sentences.j2``) and differ in
layout templates and in how cards and variant text are written:

- ``html``: autoescaped; cards as coloured spans; one self-contained page.
- ``md``: variant text escaped for Markdown; suit symbols.
- ``txt``: plain, wrapped to 80 columns.

Variant text (titles, call names and descriptions) reaches the output only
through :class:`Words` (``callname`` and friends), where it is escaped for
the format: in HTML a call named ``<b>x</b>`` shows as that text.
"""

from __future__ import annotations

import re
import textwrap
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from khrap.cards import RANKS, SUITS
from khrap.rulebook.facts import Line
from khrap.rulebook.i18n import localized, translations
from khrap.terms import md_escape, own_words  # (the one substitution of a variant's terms; md_escape: its Markdown)
from khrap.variant.schema import InstantWin, Variant

FORMATS = ("html", "md", "txt")
WIDTH = 80
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}
def _rank(lang: str):
    def rank(letter: str) -> str:
        """A rank as printed: 10 for T, picture ranks in the language's letters."""
        letter = letter.upper()
        return "10" if letter == "T" else translations(lang).pgettext("rank", letter)

    return rank


def _card(fmt: str, lang: str):
    rank_of = _rank(lang)

    def card(text: str) -> str:
        rank, suit = rank_of(text[:-1]), text[-1].upper()
        if fmt == "html":
            colour = " red" if suit in RED else ""
            return Markup(f'<span class="card{colour}">{rank}{SYMBOLS[suit]}</span>')
        return f"{rank}{SYMBOLS[suit]}"

    return card


def _suit(fmt: str):
    def suit(letter: str) -> str:
        if fmt == "html":
            colour = " red" if letter in RED else ""
            return Markup(f'<span class="card{colour}">{SYMBOLS[letter]}</span>')
        return SYMBOLS[letter]

    return suit


def _cards(fmt: str, lang: str):
    card = _card(fmt, lang)

    def cards(items: list[str]) -> str:
        shown = [card(c) for c in items]
        return Markup(" ").join(shown) if fmt == "html" else " ".join(shown)

    return cards


def wrap(text: str, indent: str = "", first: str | None = None, width: int = WIDTH) -> str:
    """Fill ``text`` to ``width`` columns (plain text)."""
    return textwrap.fill(
        " ".join(str(text).split()), width=width, initial_indent=indent if first is None else first,
        subsequent_indent=indent, break_long_words=True, break_on_hyphens=False,
    )


def text_table(headers: list[str], rows: list[list[str]], widths: list[int], notes: list[str] | None = None) -> str:
    """A plain-text table whose cells wrap inside fixed column widths (columns joined by ' | ').

    ``notes``: a line of text per row, printed under it across the whole width.
    """
    def block(cells: list[str]) -> list[str]:
        wrapped = [
            textwrap.wrap(" ".join(str(c).split()), w, break_on_hyphens=False) or [""]
            for c, w in zip(cells, widths, strict=True)
        ]
        height = max(len(col) for col in wrapped)
        return [
            " | ".join(
                (col[i] if i < len(col) else "").ljust(w) for col, w in zip(wrapped, widths, strict=True)
            ).rstrip()
            for i in range(height)
        ]

    rule = "-+-".join("-" * w for w in widths)
    out = block(headers) + [rule]
    for i, row in enumerate(rows):
        out += block(row)
        if notes and notes[i]:
            out.append(wrap(notes[i], "  ", "  ", width=sum(widths) + 3 * (len(widths) - 1)))
        out.append(rule)
    return "\n".join(out)


def cap(text: str) -> str:
    """The first letter in capitals (markup left alone)."""
    if not text or text[0] == "<":
        return text
    first = text[0].upper() + text[1:]
    return Markup(first) if isinstance(text, Markup) else first


def run_of(ranks: list[str]) -> list[str]:
    """The unbroken run of ranks from the lowest to the highest of ``ranks``."""
    order = sorted(RANKS.index(r) for r in ranks)
    return [RANKS[i] for i in range(order[0], order[-1] + 1)]


@cache
def environment(fmt: str, lang: str) -> Environment:
    """The Jinja2 environment of one format and language (cached)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (use one of {', '.join(FORMATS)})")
    env = Environment(
        loader=PackageLoader("khrap.rulebook", "templates"),
        autoescape=fmt == "html",
        extensions=["jinja2.ext.i18n", "jinja2.ext.do"],
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations(lang), newstyle=True)
    env.filters.update(
        card=_card(fmt, lang), cards=_cards(fmt, lang), suit=_suit(fmt), rank=_rank(lang), cap=cap, wrap=wrap
    )
    env.globals.update(run_of=run_of, cap_first=cap, fmt=fmt, lang=lang)
    return env


def collapse(text: Any) -> str:
    """One line, single spaces (markup kept as markup)."""
    flat = " ".join(str(text).split())
    return Markup(flat) if isinstance(text, Markup) else flat


_MID_STOP = {"hy": "."}
_SEMICOLON = re.compile(r"&#?\w+;|;")  # an HTML entity's semicolon stays


class Words:
    """Words a variant in one format and language: the sentence macros bound to its names."""

    def __init__(self, v: Variant, fmt: str, lang: str) -> None:
        self.v, self.fmt, self.lang = v, fmt, lang
        # the game's own words for the roles (frap's «фрапующий» for the general «храпящий»)
        self.terms = own_words(v.terms.get(lang, {}), fmt)
        self.env = environment(fmt, lang)
        helpers = {
            "callname": self.callname,
            "calldescription": self.calldescription,
            "winname": self.winname,
            "all_suits": self.all_suits,
            "player": self.player,
            "stagename": self.stagename,
        }
        self.sentences = self.env.get_template("sentences.j2").make_module(helpers)
        self.narrative = self.env.get_template("narrative.j2").make_module({**helpers, "words": self})

    # variant text, escaped for the format
    def text(self, value: str) -> str:
        return md_escape(value) if self.fmt == "md" else value

    def callname(self, cid: str) -> str:
        call = self.v.calls.get(cid)
        return self.text(localized(call.name if call else None, self.lang, cid))

    def calldescription(self, cid: str) -> str:
        call = self.v.calls.get(cid)
        return self.text(localized(call.description if call else None, self.lang))

    def winname(self, win: InstantWin) -> str:
        return self.text(localized(win.name, self.lang))

    def stagename(self, stage: Any) -> str:
        return self.text(localized(getattr(stage, "name", None), self.lang))

    def title(self) -> str:
        return self.text(localized(self.v.name, self.lang))

    def description(self) -> str:
        return self.text(localized(self.v.description, self.lang))

    def notes(self) -> list[str]:
        """The variant's table rules (``notes:``) in this language, English where one is not translated."""
        return [self.text(text) for text in (localized(note, self.lang) for note in self.v.notes) if text]

    def all_suits(self, rank: str) -> str:
        return _cards(self.fmt, self.lang)([rank + s for s in SUITS])

    @staticmethod
    def player(seat: int) -> str:
        return "ABCDEFGHIJKL"[seat]

    def own(self, text: Any) -> Any:
        """A sheet's sentence in the game's own words (``terms:``) and the language's punctuation; markup stays
        markup."""
        text = self.terms(text)
        if self.lang in _MID_STOP and ";" in text:  # Armenian has no semicolon: its mid stop, as the catalog writes
            mark = _MID_STOP[self.lang]
            swapped = _SEMICOLON.sub(lambda m: m[0] if m[0] != ";" else mark, text)
            text = Markup(swapped) if isinstance(text, Markup) else swapped
        return text

    # sentences
    def line(self, line: Line) -> str:
        return self.own(collapse(getattr(self.sentences, line.macro)(**line.args)))

    def lines(self, lines: list[Line]) -> list[str]:
        return [text for text in (self.line(line) for line in lines) if text]

    def join(self, parts: list[str], separator: str) -> str:
        """Worded parts joined (markup stays markup in HTML)."""
        return (Markup(separator) if self.fmt == "html" else separator).join(parts)

    def clause_list(self, lines: list[Line]) -> str:
        """Clauses of a table cell joined by semicolons, capitalized."""
        return cap(self.join(self.lines(lines), _MID_STOP.get(self.lang, ";") + " "))

    def macro(self, name: str, *args: Any, **kwargs: Any) -> str:
        return self.own(collapse(getattr(self.sentences, name)(*args, **kwargs)))

    def narrate(self, name: str, *args: Any, **kwargs: Any) -> str:
        return self.own(collapse(getattr(self.narrative, name)(*args, **kwargs)))
