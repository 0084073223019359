"""A mistake in a file the user gave: its class, located at FILE:LINE:COL, and the words shared by every
message (a value shown as written, a location as a house rule writes it, a suggestion for a misspelling).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Sequence
from typing import Any

from khrap.safe_text import excerpt, terminal
from khrap.variant.said import Said, Translate, shown

Loc = tuple[Any, ...]
Pos = tuple[int, int]


class VariantError(Exception):
    """A user mistake in a variant (or scenario) file, with its location.  ``message`` is the English;
    ``said``, when the message was built as :class:`~khrap.variant.said.Said`, puts it in another language
    (:meth:`shown`)."""

    def __init__(
        self, message: str | Said, path: str | os.PathLike[str] | None = None, line: int | None = None,
        col: int | None = None,
    ) -> None:
        self.said = message if isinstance(message, Said) else None
        self.message = str(message)
        self.path = None if path is None else str(path)
        self.line = line
        self.col = col
        super().__init__(str(self))

    def __str__(self) -> str:
        return self.shown()

    def text(self, translate: Translate | None = None) -> str:
        """The message alone, in the language of ``translate`` (English without one)."""
        return self.message if translate is None or self.said is None else shown(self.said, translate)

    def shown(self, translate: Translate | None = None) -> str:
        """``FILE:LINE:COL: message`` with the message in the language of ``translate`` (the location as it
        always is)."""
        # Escaped here, once: a path or a quoted value may hold terminal escapes or bidi overrides.
        message = terminal(self.text(translate))
        if self.path is None:
            return message
        path = terminal(self.path, one_line=True)
        if self.line is None:
            return f"{path}: {message}"
        if self.col is None:
            return f"{path}:{self.line}: {message}"
        return f"{path}:{self.line}:{self.col}: {message}"


MAX_ERRORS = 20
"""Mistakes printed for one file at most; the rest are counted."""


class VariantErrors(VariantError):
    """Every mistake found in one file, in file order; it reads (and locates) as the first one."""

    def __init__(self, errors: Sequence[VariantError], user_file: str | None = None) -> None:
        home = None if user_file is None else str(user_file)
        unique = list({str(e): e for e in errors}.values())
        self.errors = sorted(unique, key=lambda e: (e.path != home, e.path or "", e.line or 0, e.col or 0))
        first = self.errors[0]
        super().__init__(first.message, first.path, first.line, first.col)

    def shown(self, translate: Translate | None = None) -> str:
        errors = getattr(self, "errors", [])
        lines = [VariantError.shown(e, translate) for e in errors[:MAX_ERRORS]]
        if len(errors) > MAX_ERRORS:
            more = Said("... and %(n)s more mistakes (fix these first)", n=len(errors) - MAX_ERRORS)
            lines.append(shown(more, translate or str))
        return "\n".join(lines) if lines else VariantError.shown(self, translate)


def errors_of(err: VariantError) -> list[VariantError]:
    """The single mistakes in ``err`` (itself when it holds one)."""
    return list(err.errors) if isinstance(err, VariantErrors) else [err]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``"; did you mean 'x'?"`` for the closest choice, or ``""``."""
    return str(meant(word, choices))


def meant(word: str, choices: Iterable[str]) -> Said | str:
    """:func:`did_you_mean` as a message to translate (``""`` when nothing is close)."""
    names = [c for c in choices if isinstance(c, str)]
    match = difflib.get_close_matches(str(word), names, n=1, cutoff=0.6)
    return Said("; did you mean %(word)s?", word="'" + match[0] + "'") if match else ""


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return _show(value)


_KINDS: dict[type, Said] = {dict: Said("a mapping"), list: Said("a list")}


def said_kind(value: Any) -> Said | str:
    """:func:`_kind` put in the reader's language when shown (a mapping, a list); other values as written."""
    return _KINDS.get(type(value)) or _kind(value)


def said_value(value: Any) -> Said | str:
    """:func:`_show` put in the reader's language when shown where it names a kind (a mapping, a list)."""
    return _KINDS.get(type(value)) or _show(value)


def _show(value: Any) -> str:
    """A value as the user wrote it, short enough for one line."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return excerpt(value)  # short, one line, escaped: every message quotes user text through here
    if isinstance(value, (dict, list)):
        return _kind(value)
    if isinstance(value, int) and abs(value) >= 10**15:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    return terminal(text if len(text) <= 40 else text[:37] + "...", one_line=True)


def dotted(loc: Loc) -> str:
    """A location as a house rule would write it: ``calls.sad.effects.skip_stages[0]``."""
    out = ""
    for comp in loc:
        out += f"[{comp}]" if type(comp) is int else (f".{comp}" if out else str(comp))
    return out


def value_at(data: Any, loc: Loc, missing: Any = None) -> Any:
    """The value at ``loc`` in plain YAML data, or ``missing`` where the path does not exist."""
    for comp in loc:
        if isinstance(data, dict):
            inside = comp in data
        else:
            inside = isinstance(data, list) and isinstance(comp, int) and 0 <= comp < len(data)
        if not inside:
            return missing
        data = data[comp]
    return data
