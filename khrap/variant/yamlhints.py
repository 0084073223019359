"""YAML syntax errors in a player's words: what is wrong, where it really is, and what to do.

PyYAML says where its parser gave up ("mapping values are not allowed here", "expected <block
end>, but found '<block mapping start>'"); that is often a line after the real mistake and in
words only a parser writer reads.  :func:`explain` looks at the text around the mark and says
what a person most likely did (a tab, a missing colon, a key indented out of line, a quote or
bracket never closed), pointing at the line to fix.  Nothing of PyYAML's wording is passed on.
"""

from __future__ import annotations

import re

import yaml

from khrap.variant.said import Said

Where = tuple[int, int]  # 1-based line and column

__all__ = ["explain"]

_GENERAL = Said("this is not valid YAML: check the indentation (spaces, not tabs), the colon after each key "
                "(`key: value`), and that every quote and bracket is closed")


def _pos(mark: yaml.Mark | None) -> Where | None:
    return None if mark is None else (mark.line + 1, mark.column + 1)


def _safe(text: str, limit: int = 40) -> str:
    """Text of the file shown in a message: printable characters only (no terminal escapes), and short."""
    shown = "".join(c if c.isprintable() else "?" for c in text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def _key_of(line: str) -> str:
    words = line.strip().lstrip("- ").split(":")[0].split() if line.strip() else []
    return _safe(words[0]) if words else ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def explain(err: yaml.MarkedYAMLError, text: str) -> tuple[Said, Where | None]:
    """A message (``Said``: put in the reader's language where it is shown) and the position to report, for a
    PyYAML syntax error in ``text``."""
    lines = text.splitlines()
    problem, context = err.problem or "", err.context or ""
    at, ctx_at = _pos(err.problem_mark), _pos(err.context_mark)
    char = re.search(r"found character '(.+?)' that cannot start any token", problem)
    if char and char[1] in ("\\t", "\t"):
        return Said("a tab is used here: YAML needs spaces, not tabs, for indentation and after colons; "
                    "replace the tab with spaces"), at
    if char:
        first = _safe(char[1], 8)
        return Said("a value cannot start with '%(first)s': put the value in quotes, e.g. \"%(first)s...\"",
                    first=first), at
    if "could not find expected ':'" in problem and ctx_at is not None:
        key = _key_of(lines[ctx_at[0] - 1]) if ctx_at[0] <= len(lines) else ""
        return _colon(key), ctx_at
    if "mapping values are not allowed here" in problem and at is not None:
        return _mapping_value(lines, at)
    if "scanning a quoted scalar" in context and ctx_at is not None:
        return Said("the quote opened here is never closed: add the closing %(quote)s at the end of the text",
                    quote=_quote(lines, ctx_at)), ctx_at
    flow = re.search(r"expected ',' or '([\]}])', but got '(.*)'", problem)
    if flow and ctx_at is not None:
        return _flow(flow[1], flow[2], ctx_at, at)
    if "expected <block end>" in problem and at is not None:
        return _block_end(lines, at, problem)
    if "found undefined alias" in problem:
        name = re.search(r"alias '?(.+?)'?$", problem)
        label = name[1] if name else ""
        return Said("'*%(label)s' refers to an anchor '&%(label)s' that is not defined above it: define "
                    "'&%(label)s' first, or write the value out", label=label), at
    if "scanning an alias" in context or "scanning an anchor" in context:
        return Said("'*' and '&' start an alias or an anchor and must be followed by a name: put the value in "
                    "quotes if it is text"), ctx_at or at
    if "while scanning a block scalar" in context:
        return Said("after '|' or '>' only an indentation number or '-'/'+' may follow on the same line: "
                    "start the text on the next line"), ctx_at or at
    if "found unexpected end of stream" in problem:
        return Said("the file ends in the middle of a value: close the quote or bracket opened above"), ctx_at or at
    if "document start" in problem or "directive" in context:
        return Said("a line starting with '%%' or '---' is read as a YAML directive: remove it or put the value "
                    "in quotes"), at
    return _GENERAL, at or ctx_at


def _colon(key: str) -> Said:
    if key:
        return Said("a colon is missing after '%(key)s'? write `%(key)s: VALUE` (with a space after the colon)",
                    key=key)
    return Said("a colon is missing? write `key: value` (with a space after the colon)")


def _quote(lines: list[str], where: Where) -> str:
    line = lines[where[0] - 1] if where[0] <= len(lines) else ""
    mark = line[where[1] - 1 : where[1]] if where[1] <= len(line) else '"'
    return "'" if mark == "'" else '"'


def _mapping_value(lines: list[str], at: Where) -> tuple[Said, Where]:
    """``key: value`` where a colon may not stand: a key above lost its colon, or this line is indented
    under a key that already has a value, or a value holds ': ' and needs quotes."""
    row = at[0] - 1
    here = lines[row] if row < len(lines) else ""
    for prev in range(row - 1, -1, -1):
        above = lines[prev]
        if not above.strip() or above.lstrip().startswith("#"):
            continue
        if ":" not in above and _indent(above) <= _indent(here):
            return _colon(_key_of(above)), (prev + 1, _indent(above) + 1)
        if ":" in above and _indent(here) > _indent(above) and not above.rstrip().endswith(":"):
            key = _key_of(above)
            return Said("this line is indented more than '%(key)s' above it, which already has a value on its own "
                        "line: start '%(here)s' in the same column as '%(key)s'", key=key, here=_key_of(here)), \
                (row + 1, _indent(here) + 1)
        break
    value = _safe(here.split(":", 1)[1].strip(), 60).replace('"', "'") if ":" in here else ""
    return (Said("this value holds ': ', which YAML reads as another key: put it in quotes, e.g. \"%(value)s\"",
                 value=value) if value else _GENERAL), at


def _flow(close: str, got: str, opened: Where, at: Where | None) -> tuple[Said, Where | None]:
    where = {"line": opened[0], "column": opened[1]}
    if close == "]":
        if got == ":":
            return Said("a value in this list holds ': ' (or the '[' opened at line %(line)s, column %(column)s is "
                        "not closed with ']'): put such a value in quotes", **where), at
        return Said("the list opened with '[' at line %(line)s, column %(column)s needs a ',' between its entries "
                    "and a ']' at its end", **where), at
    if got == ":":
        return Said("a value in this mapping holds ': ' (or the '{' opened at line %(line)s, column %(column)s is "
                    "not closed with '}'): put such a value in quotes", **where), at
    return Said("the mapping opened with '{' at line %(line)s, column %(column)s needs a ',' between its entries "
                "and a '}' at its end", **where), at


def _block_end(lines: list[str], at: Where, problem: str) -> tuple[Said, Where]:
    row = at[0] - 1
    here = lines[row] if row < len(lines) else ""
    key = _key_of(here)
    if "'?'" in problem or "'-'" in problem:
        return Said("'%(key)s' does not line up with the entries above: a list's entries each start with '- ' "
                    "in the same column, and keys of one mapping start in the same column", key=key), at
    return Said("'%(key)s' is not lined up with the keys above it: the keys of one mapping must start in the same "
                "column (indent with spaces only)", key=key), at
