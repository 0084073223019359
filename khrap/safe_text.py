"""Text from files made safe for where it goes (a leaf module: no khrap imports).

A name in a house-rule file, a save or a scenario may hold anything: terminal
escape sequences (``ESC ] 52`` writes the clipboard, ``ESC [ 2J`` clears the
screen), bidi overrides that make a line read differently than it runs, lone
surrogates that cannot be encoded, or matplotlib's ``$...$`` math markup.

- :func:`terminal` escapes control, bidi and surrogate characters for a screen
  or a text file (newlines and tabs kept unless ``one_line``);
- :func:`excerpt` is a short, escaped, one-line quote of user text for messages;
- :func:`surrogate_at` finds a lone surrogate (refused when a file is loaded);
- :data:`PLOT_RC` is the matplotlib setting that sets every text literally, so
  ``$5 or $6`` stays as written and ``$\\frac{$`` cannot break a plot.
"""

from __future__ import annotations

import re

__all__ = ["BIDI_CONTROLS", "PLOT_RC", "bidi_control_at", "excerpt", "json_text", "surrogate_at", "terminal"]

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""The bidi embeddings, overrides and isolates (Unicode UAX #9): each reorders the text after it, past the end of
its own string where it is not closed.  A rule file holding one is refused (khrap.variant.reading); a player's
name drops them (khrap.web.host.readable)."""
# Plus the marks (harmless in a name, but invisible), all escaped on a screen.
_BIDI = "\u061c\u200e\u200f" + BIDI_CONTROLS
_BIDI_CONTROL = re.compile(f"[{BIDI_CONTROLS}]")
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")
_UNSAFE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")
_UNSAFE_JSON = re.compile(f"[\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff]")  # json.dumps escapes C0 itself
_SURROGATE = re.compile("[\ud800-\udfff]")

PLOT_RC = {"text.parse_math": False, "text.usetex": False}
"""matplotlib rc settings under which a label is set exactly as written (no mathtext, no TeX)."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal(text: str, one_line: bool = False) -> str:
    """``text`` with control, bidi and surrogate characters written as ``\\xNN`` / ``\\uNNNN``.

    Newlines and tabs are kept (a rule sheet has lines) unless ``one_line``.
    """
    pattern = _UNSAFE_LINE if one_line else _UNSAFE
    return pattern.sub(_escape, text)


def excerpt(text: str, limit: int = 40) -> str:
    """At most ``limit`` characters of ``text`` (then ``...``), on one line, escaped, in quotes."""
    cut = text if len(text) <= limit else text[: max(1, limit - 3)] + "..."
    return "'" + terminal(cut, one_line=True) + "'"


def surrogate_at(text: str) -> int | None:
    """Index of the first lone surrogate in ``text`` (not valid Unicode text), or None."""
    match = _SURROGATE.search(text)
    return None if match is None else match.start()


def bidi_control_at(text: str) -> int | None:
    """Index of the first of :data:`BIDI_CONTROLS` in ``text``, or None."""
    match = _BIDI_CONTROL.search(text)
    return None if match is None else match.start()


def json_text(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with the characters :func:`terminal`
    escapes written as ``\\uNNNN``: still the same JSON, and safe on a screen."""
    return _UNSAFE_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
