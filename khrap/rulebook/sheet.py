"""A whole rule sheet: the rules proper, a worked deal and the house-rule differences, laid out.

:func:`render_rules` is what ``khrap rules`` prints; :func:`render_diff` what
``khrap diff`` prints.  Both take a built-in name, a path, or a resolved
:class:`~khrap.variant.schema.Variant`.
"""

from __future__ import annotations

import os
from typing import Any

from khrap.rulebook import arithmetic
from khrap.rulebook.diff import Difference, differences, parent_of
from khrap.rulebook.example import NoExample, play_example
from khrap.rulebook.facts import SECTIONS, facts
from khrap.rulebook.i18n import languages
from khrap.rulebook.render import FORMATS, Words, environment, text_table
from khrap.variant.catalog import load_variant
from khrap.variant.schema import Variant

TEXT_COLUMNS = [12, 20, 24, 15]
"""Widths of the calls table in plain text: with the ' | ' between them, 80 columns."""


def text_columns(names: list[str]) -> list[int]:
    """TEXT_COLUMNS, the first widened to the longest one-word call name (Lithuanian "Sraigtasparnis"),
    so no name is cut in the middle; the third column gives up what the first takes."""
    longest = max((len(word) for name in names for word in name.split()), default=0)
    extra = max(0, min(longest, 16) - TEXT_COLUMNS[0])
    return [TEXT_COLUMNS[0] + extra, TEXT_COLUMNS[1], TEXT_COLUMNS[2] - extra, TEXT_COLUMNS[3]]

VariantRef = str | os.PathLike[str] | Variant


def _resolve(ref: VariantRef) -> Variant:
    return ref if isinstance(ref, Variant) else load_variant(ref)


def _check(fmt: str, lang: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (use one of {', '.join(FORMATS)})")
    if lang not in languages():
        raise ValueError(f"unknown language '{lang}' (use one of {', '.join(languages())})")


def _rules_context(words: Words) -> dict[str, Any]:
    v = words.v
    found = facts(v)
    sections = []
    for section in SECTIONS:
        lines = found.sections[section]
        if section == "course":
            steps = [
                {"title": words.macro("step_title", stage), "text": words.line(line)}
                for stage, line in zip(v.stages, lines, strict=True)
            ]
            sections.append({"id": section, "heading": words.macro("heading", section), "steps": steps, "lines": []})
            continue
        sentences = words.lines(lines)
        if sentences or section == "calls":
            heading = words.macro("heading", section)
            sections.append({"id": section, "heading": heading, "steps": [], "lines": sentences})
    calls = [
        {
            "name": words.line(row.name),
            "description": words.line(row.description),
            "when": words.clause_list(row.when),
            "obliges": words.clause_list(row.obliges),
            "costs": words.clause_list(row.costs),
        }
        for row in found.calls
    ]
    columns = [words.macro("heading", c) for c in ("col_call", "col_when", "col_obliges", "col_costs")]
    rows = [[f"{c['name']}", c["when"], c["obliges"], c["costs"]] for c in calls]
    table = arithmetic.sample_table(v)
    result = arithmetic.itemize(v, table)
    arithmetic.check(v, table, result)
    return {
        "title": words.title(),
        "description": words.description(),
        "sections": sections,
        "calls": calls,
        "columns": columns,
        "calls_table": text_table(columns, rows, text_columns([r[0] for r in rows]), [c["description"] for c in calls])
        if words.fmt == "txt"
        else "",
        "arithmetic": words.narrate("sample", table, result),
    }


def _example_context(words: Words) -> dict[str, Any] | None:
    try:
        example = play_example(words.v)
    except NoExample:
        return None
    lines = [words.narrate("event", e) for e in example.events]
    return {
        "heading": words.macro("heading", "example"),
        "intro": words.narrate("intro", example),
        "lines": [line for line in lines if line],
    }


def _diff_context(old: Words, new: Words, found: list[Difference]) -> dict[str, Any]:
    parent, child = old.title(), new.title()
    rows = [
        {"label": d.label, "old": d.old if d.old is not None else old.narrate("diff_missing"),
         "new": d.new if d.new is not None else new.narrate("diff_missing")}
        for d in found
    ]
    intro = new.narrate("diff_intro", parent, child) if rows else new.narrate("diff_none", parent, child)
    return {
        "heading": new.macro("heading", "diff", parent=parent),
        "intro": intro,
        "parent": parent,
        "child": child,
        "rows": rows,
    }


def render_rules(ref: VariantRef, fmt: str = "html", lang: str = "en", *, example: bool = True) -> str:
    """The rule sheet of a variant.  ``example=False`` leaves out the worked deal and the differences."""
    _check(fmt, lang)
    v = _resolve(ref)
    words = Words(v, fmt, lang)
    context = _rules_context(words)
    context["example"] = _example_context(words) if example else None
    context["diff"] = None
    if example and not isinstance(ref, Variant):
        parent = parent_of(ref)
        if parent is not None:
            old = Words(parent[1], fmt, lang)
            context["diff"] = _diff_context(old, words, differences(old, words))
    return environment(fmt, lang).get_template(f"sheet.{fmt}.j2").render(lang=lang, **context)


def render_diff(old_ref: VariantRef, new_ref: VariantRef, fmt: str = "txt", lang: str = "en") -> str:
    """In words, what the second variant changes in the first."""
    _check(fmt, lang)
    old = Words(_resolve(old_ref), fmt, lang)
    new = Words(_resolve(new_ref), fmt, lang)
    context = _diff_context(old, new, differences(old, new))
    return environment(fmt, lang).get_template(f"diff.{fmt}.j2").render(lang=lang, diff=context)
