"""The words of one language at one table: cards as players write them, calls by the variant's names.

A ``Voice`` is what the game log, the terminal and a replay say things with.  Two styles:

- ``codes``: CONTRACT.md's notation (``TS``, call ids, ``S H D C``): the English log of ``khrap run``,
  word for word, whatever the language of the sentences around it;
- otherwise the players' own: ``10♥``, picture ranks in the language's letters (the rule sheets' own
  letters, read from their catalog so the sheet and the table never differ: Russian В Д К Т), suits as
  ♠ ♥ ♦ ♣, each call by its name in the variant (``Пас``), kernel words (``exchange``, a new decision
  kind's word) from the game log's catalog (context ``action``).

Counts go through ``ngettext`` so that each language says them in its own grammar ("1 trick", "2
взятки", "5 взяток").  Nothing here reads a sentence back: the terminal's reader (``khrap.play.reader``)
builds its vocabulary from the same Voice.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Any

from khrap import catalogs
from khrap import words as w
from khrap.cards import RANKS, SUIT_SYMBOLS, SUITS, card_str, suit_str
from khrap.terms import own_words, variant_terms

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SHEET_LOCALE_DIR = Path(__file__).resolve().parent.parent / "rulebook" / "locale"
"""The rule sheets' catalogs: the rank letters a language's sheet prints are the ones the table shows."""


def _(message: str) -> str:
    return message


def _p(context: str, message: str) -> str:
    """Mark a message with a context for extraction (``pgettext``)."""
    return message


# The kernel's own action words as a player reads and types them (context "action"); a decision kind a
# rule adds gets its word here too (one catalog line), or shows its kernel word until it does.
ACTION_WORDS = {
    w.EXCHANGE: _p("action", "exchange"),
    w.DISCARD: _p("action", "discard"),
    w.PLAY: _p("action", "play"),
    w.TRUMP: _p("action", "trump"),
    w.LOOK: _p("action", "look"),
    w.JOKER: _p("action", "joker"),
    w.FROM: _p("action", "from"),
    w.TOP: _p("action", "top"),
    w.BOTTOM: _p("action", "bottom"),
}

# Suit names a player may type (context "suit"), besides the symbols and the letters S H D C.
SUIT_NAMES = {"S": _p("suit", "spades"), "H": _p("suit", "hearts"), "D": _p("suit", "diamonds"),
              "C": _p("suit", "clubs")}


@cache
def _sheet_catalog(lang: str) -> gettext.NullTranslations:
    return catalogs.load(SHEET_LOCALE_DIR, "messages", lang)


@cache
def _log_catalog(lang: str) -> gettext.NullTranslations:
    return catalogs.load(LOCALE_DIR, "gamelog", lang)


def rank_label(lang: str, rank: int) -> str:
    """A rank as the language's sheet prints it: ``10`` for ten, picture ranks in its letters."""
    letter = RANKS[rank]
    if letter == "T":
        return "10"
    return _sheet_catalog(lang).pgettext("rank", letter)


class Voice:
    """Cards, suits, calls and actions in ``lang`` for ``variant`` (None: call ids), or CONTRACT codes."""

    def __init__(self, lang: str = catalogs.SOURCE_LANGUAGE, variant: Any = None, codes: bool = False) -> None:
        self.lang, self.variant, self.codes = lang, variant, codes
        self.catalog = _log_catalog(lang)
        self.ranks = [rank_label(lang, r) for r in range(13)]
        self.terms = {} if codes else variant_terms(variant, lang)
        self._own = own_words(self.terms)

    # ---------------------------------------------------------- sentences
    def own(self, text: str) -> str:
        """``text`` with the variant's own words (its ``terms:``: a frap declarer is «фрапующий»), by the project's one
        substitution (``terms.own_words``: one pass, longest first, never fed back)."""
        return self._own(text)

    def t(self, message: str, **values: Any) -> str:
        text = self.own(self.catalog.gettext(message))
        return text.format(**values) if values else text

    def n(self, singular: str, plural: str, count: int, **values: Any) -> str:
        """A counted message in the language's grammar; ``{count}`` is ``count``."""
        return self.own(self.catalog.ngettext(singular, plural, count)).format(count=count, **values)

    # ---------------------------------------------------------- cards
    def card(self, card: int) -> str:
        if self.codes or not 0 <= card < 52:
            return card_str(card)
        return self.ranks[card % 13] + SUIT_SYMBOLS[SUITS[card // 13]]

    def cards(self, cards: Any) -> str:
        return " ".join(self.card(c) for c in cards)

    def suit(self, suit: int) -> str:
        return suit_str(suit) if self.codes else SUIT_SYMBOLS[SUITS[suit]]

    def card_text(self, code: str) -> str:
        """A card in CONTRACT notation (``AS``: an observation's) as this voice shows it."""
        from khrap.cards import parse_card

        return self.card(parse_card(code))

    # ---------------------------------------------------------- calls and actions
    def call(self, cid: str) -> str:
        """Call ``cid`` by its name in the variant (in this language, else English), or its id."""
        if self.codes or self.variant is None:
            return cid
        call = self.variant.calls.get(cid)
        if call is None:
            return cid
        return call.name.get(self.lang) or call.name.get(catalogs.SOURCE_LANGUAGE) or cid

    def kernel_word(self, word: str) -> str:
        """A kernel action word (``exchange``; a decision kind a rule adds: its name in the registry) as a
        player types it."""
        if self.codes:
            return word
        if word not in ACTION_WORDS:
            from khrap.engine.decisions import display_name

            return display_name(word, self.lang) or word
        return self.catalog.pgettext("action", ACTION_WORDS[word])

    def answer(self, action: Any) -> str:
        """An answer to a decision a rule offers (a ``decided`` event's ``Action``), its word named as the registry
        names it in this language (in every style: the English log names it too), what it carries as ``action``
        says it."""
        from khrap.engine.decisions import display_name

        return " ".join([display_name(action.word, self.lang) or action.word, *self.carried(action)])

    def action(self, action: Any) -> str:
        """An ``Action`` in this voice's words (CONTRACT words with ``codes``)."""
        if self.codes:
            return str(action)
        calls = self.variant.calls if self.variant is not None else {}
        word = self.call(action.word) if action.word in calls else self.kernel_word(action.word)
        return " ".join([word, *self.carried(action)])

    def carried(self, action: Any) -> list[str]:
        """What ``action`` carries beyond its word (a suit, cards, joker, the turned card, a position, where it
        draws from), each in this voice's words, in the order of its CONTRACT words."""
        from khrap.words import TOP

        parts = []
        if action.word == w.TRUMP and action.suit is not None:
            parts.append(self.suit(action.suit))
        parts += [self.card(c) for c in action.cards]
        if action.joker:
            parts.append(self.kernel_word("joker"))
        if action.take_turned:
            parts.append(self.kernel_word("trump"))
        if action.position is not None:
            parts.append(str(action.position))
        if action.source != TOP:
            where = action.source if isinstance(action.source, int) else self.kernel_word(str(action.source))
            parts += [self.kernel_word("from"), str(where)]
        return parts

    def suit_name(self, letter: str) -> str:
        """A suit's name as a player may type it (``пики``)."""
        return self.catalog.pgettext("suit", SUIT_NAMES[letter])
