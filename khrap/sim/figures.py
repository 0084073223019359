"""The analysis report's figures as its language writes them: one formatter for every number it prints.

A figure is formatted by Python's format spec first (``+.1f``, ``,``, ``.0f``), then written in the
language's own marks: Russian writes ``3,9`` (a decimal comma), ``−34`` (a minus sign, not a hyphen) and
``1 153`` (a thin space between thousands), and an interval ``[−1,2; 3,4]`` (a semicolon, since the comma
is the decimal mark).  English keeps Python's marks, so its text is what it always was.

Only the report's words and tables pass through here; ``--json`` writes the numbers themselves.
"""

from __future__ import annotations

import string
from typing import Any

# decimal mark, thousands separator, minus sign, the separator of an interval's two ends
MARKS: dict[str, tuple[str, str, str, str]] = {
    "en": (".", ",", "-", ", "),
    "ru": (",", "\u202f", "\u2212", "; "),
}


class Figures(string.Formatter):
    """``str.format`` whose numbers are written in ``lang``'s marks (other values as they are)."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang
        self.decimal, self.group, self.minus, self.between = MARKS.get(lang, MARKS["en"])

    def format_field(self, value: Any, format_spec: str) -> str:
        text = format(value, format_spec)
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return self.written(text) if is_number else text

    def written(self, text: str) -> str:
        """A number formatted by Python (``-1,234.5``) in this language's marks."""
        if self.lang not in MARKS or self.lang == "en":
            return text
        # one pass, so a mark put in is never replaced again (Russian's comma is English's separator)
        marks = {".": self.decimal, ",": self.group, "-": self.minus}
        return "".join(marks.get(c, c) for c in text)

    def __call__(self, value: float, spec: str = "") -> str:
        """One figure: ``figures(3.94, ".1f")`` is ``3.9`` in English, ``3,9`` in Russian."""
        return self.format_field(value, spec)

    def interval(self, lo: float, hi: float, spec: str = "") -> str:
        """``[lo, hi]`` (``[lo; hi]`` where the comma is the decimal mark)."""
        return self.bracket(self(lo, spec), self(hi, spec))

    def bracket(self, lo: str, hi: str) -> str:
        """Two ends already written (with their units or signs) as an interval."""
        return f"[{lo}{self.between}{hi}]"


class Template(str):
    """A text of the report in its language whose ``format`` writes the figures in that language."""

    figures: Figures = Figures()

    def format(self, *args: Any, **kwargs: Any) -> str:  # noqa: D102  (str.format, localized)
        return self.figures.vformat(str(self), args, kwargs)


def template_class(lang: str) -> type[Template]:
    """The :class:`Template` of ``lang`` (English: Python's marks)."""
    return _TEMPLATES.setdefault(lang, type(f"Template_{lang}", (Template,), {"figures": Figures(lang)}))


_TEMPLATES: dict[str, type[Template]] = {}
