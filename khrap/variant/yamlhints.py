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

Where = tuple[int, int]  # 1-based line and column

__all__ = ["explain"]

_GENERAL = ("this is not valid YAML: check the indentation (spaces, not tabs), the colon after each key "
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


def explain(err: yaml.MarkedYAMLError, text: str) -> tuple[str, Where | None]:
    """A message and the position to report, for a PyYAML syntax error in ``text``."""
    lines = text.splitlines()
    problem, context = err.problem or "", err.context or ""
    at, ctx_at = _pos(err.problem_mark), _pos(err.context_mark)
    char = re.search(r"found character '(.+?)' that cannot start any token", problem)
    if char and char[1] in ("\\t", "\t"):
        return "a tab is used here: YAML needs spaces, not tabs, for indentation and after colons; " \
               "replace the tab with spaces", at
    if char:
        first = _safe(char[1], 8)
        return (f"a value cannot start with '{first}': put the value in quotes, e.g. \"{first}...\"", at)
    if "could not find expected ':'" in problem and ctx_at is not None:
        key = _key_of(lines[ctx_at[0] - 1]) if ctx_at[0] <= len(lines) else ""
        return _colon(key), ctx_at
    if "mapping values are not allowed here" in problem and at is not None:
        return _mapping_value(lines, at)
    if "scanning a quoted scalar" in context and ctx_at is not None:
        return (f"the quote opened here is never closed: add the closing {_quote(lines, ctx_at)} "
                "at the end of the text", ctx_at)
    flow = re.search(r"expected ',' or '([\]}])', but got '(.*)'", problem)
    if flow and ctx_at is not None:
        return _flow(flow[1], flow[2], ctx_at, at)
    if "expected <block end>" in problem and at is not None:
        return _block_end(lines, at, problem)
    if "found undefined alias" in problem:
        name = re.search(r"alias '?(.+?)'?$", problem)
        label = name[1] if name else ""
        return (f"'*{label}' refers to an anchor '&{label}' that is not defined above it: define "
                f"'&{label}' first, or write the value out", at)
    if "scanning an alias" in context or "scanning an anchor" in context:
        return ("'*' and '&' start an alias or an anchor and must be followed by a name: put the value in "
                "quotes if it is text", ctx_at or at)
    if "while scanning a block scalar" in context:
        return ("after '|' or '>' only an indentation number or '-'/'+' may follow on the same line: "
                "start the text on the next line", ctx_at or at)
    if "found unexpected end of stream" in problem:
        return "the file ends in the middle of a value: close the quote or bracket opened above", ctx_at or at
    if "document start" in problem or "directive" in context:
        return ("a line starting with '%' or '---' is read as a YAML directive: remove it or put the value "
                "in quotes", at)
    return _GENERAL, at or ctx_at


def _colon(key: str) -> str:
    if key:
        return f"a colon is missing after '{key}'? write `{key}: VALUE` (with a space after the colon)"
    return "a colon is missing? write `key: value` (with a space after the colon)"


def _quote(lines: list[str], where: Where) -> str:
    line = lines[where[0] - 1] if where[0] <= len(lines) else ""
    mark = line[where[1] - 1 : where[1]] if where[1] <= len(line) else '"'
    return "'" if mark == "'" else '"'


def _mapping_value(lines: list[str], at: Where) -> tuple[str, Where]:
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
            return (f"this line is indented more than '{key}' above it, which already has a value on its own "
                    f"line: start '{_key_of(here)}' in the same column as '{key}'", (row + 1, _indent(here) + 1))
        break
    value = _safe(here.split(":", 1)[1].strip(), 60).replace('"', "'") if ":" in here else ""
    return (f"this value holds ': ', which YAML reads as another key: put it in quotes, e.g. "
            f"\"{value}\"" if value else _GENERAL), at


def _flow(close: str, got: str, opened: Where, at: Where | None) -> tuple[str, Where | None]:
    kind = "list" if close == "]" else "mapping"
    opener = "[" if close == "]" else "{"
    if got == ":":
        return (f"a value in this {kind} holds ': ' (or the '{opener}' opened at line {opened[0]}, column "
                f"{opened[1]} is not closed with '{close}'): put such a value in quotes", at)
    return (f"the {kind} opened with '{opener}' at line {opened[0]}, column {opened[1]} needs a ',' between "
            f"its entries and a '{close}' at its end", at)


def _block_end(lines: list[str], at: Where, problem: str) -> tuple[str, Where]:
    row = at[0] - 1
    here = lines[row] if row < len(lines) else ""
    key = _key_of(here)
    if "'?'" in problem or "'-'" in problem:
        return (f"'{key}' does not line up with the entries above: a list's entries each start with '- ' "
                "in the same column, and keys of one mapping start in the same column", at)
    return (f"'{key}' is not lined up with the keys above it: the keys of one mapping must start in the same "
            "column (indent with spaces only)", at)
