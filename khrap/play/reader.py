"""What a player types at the table, read in his language: words into CONTRACT.md's action words.

The vocabulary is made from the same ``Voice`` that shows the table, so what is shown can be typed
back: each call by its name in the language and by its id (ids and English words are always accepted,
CONTRACT.md), the kernel's action words in the language (``меняю``, ``хожу``), cards as the language
writes them (``В♠``, ``10♥``, ``Дч``) or in CONTRACT notation (``JS``), suits by symbol, letter or name.
A card typed alone is taken as the pending decision's own word (``play``, ``discard``, ``exchange``:
the registry's ``Decision.word``), so ``10♥`` plays the ten of hearts when a card is to be played.
A word it does not know gets "did you mean" from the vocabulary (difflib).
"""

from __future__ import annotations

import difflib
from typing import Any

from khrap import words as w
from khrap.cards import SUIT_SYMBOLS, SUIT_WORDS, SUITS, CardError, make, parse_card
from khrap.gamelog import _
from khrap.gamelog.voice import ACTION_WORDS, Voice
from khrap.variant.derived import enabled

MAX_PHRASE = 3
"""The most words a call's name has (``Четыре туза``, ``Беру пять``): longer phrases are not looked up."""


class Unreadable(ValueError):
    """Typed text that is no action; the message is in the player's language."""


def normal(text: str) -> str:
    """A word as compared: case-folded, ё as е, quotes and a final full stop dropped."""
    return text.casefold().replace("ё", "е").strip("«»\"'“”„.!")


class Reader:
    """Typed text in ``voice``'s language -> CONTRACT words, for ``variant``."""

    def __init__(self, voice: Voice, variant: Any) -> None:
        self.voice, self.variant = voice, variant
        self.phrases: dict[str, str] = {}  # normal(phrase) -> its CONTRACT word
        self.shown: dict[str, str] = {}  # normal(phrase) -> the phrase as shown (for "did you mean")
        own: list[tuple[str, str]] = []  # what the table shows: suggested first
        calls = enabled(variant)  # the calls switched on, in the variant's order
        own += [(voice.call(cid), cid) for cid in calls]
        own += [(voice.kernel_word(word), word) for word in ACTION_WORDS]
        from khrap.engine.decisions import display_names  # the words of decision kinds a rule adds

        registry = display_names(voice.lang)
        own += [(name, word) for word, name in registry.items()]
        # A kernel word spelled like a call's name (a language may say both alike) is that word while its
        # decision is waited for.
        self.kernel = {normal(voice.kernel_word(word)): word for word in ACTION_WORDS}
        for phrase, word in own:
            self._add(phrase, word)
        self.own = list(self.phrases)
        for cid, call in calls.items():  # ids and English words: always accepted (CONTRACT.md)
            self._add(cid, cid)
            self._add(call.name.get("en") or cid, cid)
        for word in [*ACTION_WORDS, *registry]:
            self._add(word, word)
        self.suits: dict[str, str] = {}
        for letter in SUITS:
            for name in (letter, SUIT_SYMBOLS[letter], voice.suit_name(letter)):
                self.suits[normal(name)] = letter
        for name, letter in SUIT_WORDS.items():
            self.suits.setdefault(normal(name), letter)
        initials: dict[str, list[str]] = {}
        for letter in SUITS:  # a suit's initial in the language (Russian ч for черви), where only one suit has it
            initials.setdefault(normal(voice.suit_name(letter))[:1], []).append(letter)
        self.suit_initials = {k: v[0] for k, v in initials.items() if len(v) == 1 and k}
        self.ranks = {normal(label): rank for rank, label in enumerate(voice.ranks)}

    def _add(self, phrase: str, word: str) -> None:
        key = " ".join(normal(part) for part in phrase.split())
        if key and key not in self.phrases:
            self.phrases[key] = word
            self.shown[key] = phrase

    # ---------------------------------------------------------- cards and suits
    def card(self, token: str) -> int | None:
        """The card ``token`` names (the language's letters, or CONTRACT notation), or None."""
        key = normal(token)
        for cut in range(len(key) - 1, 0, -1):  # the language's rank, then a suit by any of its names
            rank = self.ranks.get(key[:cut])
            tail = key[cut:]
            suit = self.suits.get(tail) or self.suit_initials.get(tail) if rank is not None else None
            if rank is not None and suit is not None:
                return make(rank, SUITS.index(suit))
        try:
            return parse_card(token)
        except CardError:
            return None

    def suit(self, token: str) -> str | None:
        return self.suits.get(normal(token))

    # ---------------------------------------------------------- text
    def read(self, text: str, pending_word: str | None) -> str:
        """``text`` as CONTRACT words; ``pending_word``: the word of the decision waited for (a card typed
        alone is that action).  Unreadable (in the player's language) for a word it does not know."""
        tokens = text.split()
        out: list[str] = []
        i = 0
        while i < len(tokens):
            found = self._phrase(tokens, i, pending_word)
            if found is not None:
                word, i = found
                out.append(word)
                continue
            token = tokens[i]
            card = self.card(token)
            suit = self.suit(token)
            if suit is not None and (card is None or (out and out[-1] == w.TRUMP)):
                out.append(suit)
            elif card is not None:
                if not out and pending_word is not None:
                    out.append(pending_word)
                out.append(_code(card))
            elif token.isascii() and token.isdigit() or out and out[0] in self.variant.calls:
                out.append(token)
            else:
                raise Unreadable(self.unknown(token, first=not out))
            i += 1
        if len(out) == 1 and pending_word == w.TRUMP and out[0] in SUITS:
            out.insert(0, w.TRUMP)
        return " ".join(out)

    def _phrase(self, tokens: list[str], i: int, pending_word: str | None) -> tuple[str, int] | None:
        for size in range(min(MAX_PHRASE, len(tokens) - i), 0, -1):
            key = " ".join(normal(t) for t in tokens[i:i + size])
            if i == 0 and pending_word is not None and self.kernel.get(key) == pending_word:
                return pending_word, i + size
            if key in self.phrases:
                return self.phrases[key], i + size
        return None

    def unknown(self, token: str, first: bool = True) -> str:
        """Why ``token`` is not read (the first word: as a call), with the closest word it may have meant."""
        close = difflib.get_close_matches(normal(token), self.own, n=1, cutoff=0.6) or \
            difflib.get_close_matches(normal(token), list(self.phrases), n=1, cutoff=0.6)
        if first:
            text = self.voice.t(_("unknown call '{word}'"), word=token)
        else:
            text = self.voice.t(_("'{word}' is not a card or a word of this game"), word=token)
        if close:
            text += self.voice.t(_("; did you mean '{close}'?"), close=self.shown[close[0]])
        return text


def _code(card: int) -> str:
    from khrap.cards import card_str

    return card_str(card)
