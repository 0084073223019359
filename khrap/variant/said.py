"""A mistake's message in the player's language: English with its values, translated only when shown.

A checker message is built where the mistake is found, long before anyone knows who reads it; so it is
kept as :class:`Said` (an English gettext msgid with named ``%(values)s``) and the parts it is joined
with, and put in a language by whoever shows it, with that language's ``gettext``
(``khrap.rulebook.i18n.translations(lang).gettext``: the rule sheets' catalogs).  ``str()`` is the English,
word for word what the message always said.

The variant layer imports no catalog (the rulebook imports the variant layer, not the reverse): the
caller passes the translation function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Translate = Callable[[str], str]


def _english(text: str) -> str:
    return text


class Said:
    """One message: ``text`` (an English msgid with ``%(name)s`` fields) and its ``values`` (plain text, or
    :class:`Said` themselves, translated with it)."""

    __slots__ = ("text", "values")

    def __init__(self, text: str, **values: Any) -> None:
        self.text = text
        self.values = values

    def shown(self, translate: Translate = _english) -> str:
        values = {k: shown(v, translate) for k, v in self.values.items()}
        template = translate(self.text) if self.text else self.text
        try:
            return template % values
        except (KeyError, ValueError, TypeError):  # a broken translation: the English, never a crash
            return self.text % values

    def __str__(self) -> str:
        return self.shown()

    def __add__(self, other: Any) -> Joined:
        return Joined([self, other])

    def __radd__(self, other: Any) -> Joined:
        return Joined([other, self])

    def __repr__(self) -> str:
        return f"Said({self.text!r}, **{self.values!r})"


class Counted(Said):
    """A message that says a count: its English singular and plural (``Counted("%(n)s card", "%(n)s cards", n,
    n=n)``), and in a language the form that language's plural rule picks for ``count`` (gettext's ngettext,
    as the sheets' counts: Lithuanian 1 korta, 2 kortos, 10 kortų; Russian 1 карта, 2 карты, 5 карт)."""

    __slots__ = ("count", "plural")

    def __init__(self, singular: str, plural: str, count: int, /, **values: Any) -> None:
        super().__init__(singular, **values)
        self.plural, self.count = plural, count

    def shown(self, translate: Translate = _english) -> str:
        values = {k: shown(v, translate) for k, v in self.values.items()}
        english = self.text if self.count == 1 else self.plural
        try:
            return _ngettext(translate)(self.text, self.plural, self.count) % values
        except (KeyError, ValueError, TypeError):  # a broken translation: the English, never a crash
            return english % values

    def __repr__(self) -> str:
        return f"Counted({self.text!r}, {self.plural!r}, {self.count!r}, **{self.values!r})"


def _ngettext(translate: Translate) -> Callable[[str, str, int], str]:
    """The plural lookup of the catalog whose ``gettext`` is ``translate`` (every caller passes a catalog's bound
    ``gettext``, so the one argument stays as it was); English's rule for anything else."""
    ngettext = getattr(getattr(translate, "__self__", None), "ngettext", None)
    return ngettext if callable(ngettext) else lambda one, many, n: one if n == 1 else many


class Joined(Said):
    """Messages and plain text one after another (``Said(...) + "; " + Said(...)``)."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[Any]) -> None:
        super().__init__("")
        self.parts: list[Any] = [p for part in parts for p in (part.parts if isinstance(part, Joined) else [part])]

    def shown(self, translate: Translate = _english) -> str:
        return "".join(shown(part, translate) for part in self.parts)

    def __repr__(self) -> str:
        return f"Joined({self.parts!r})"


def shown(message: Any, translate: Translate = _english) -> str:
    """A message (a :class:`Said`, or text as it is) in the language of ``translate``."""
    return message.shown(translate) if isinstance(message, Said) else str(message)


__all__ = ["Counted", "Joined", "Said", "Translate", "shown"]
