"""A whole rule sheet: the rules proper, a worked deal and the house-rule differences, laid out.

:func:`render_rules` is what ``khrap rules`` prints; :func:`render_diff` what
``khrap diff`` prints.  Both take a built-in name, a path, or a resolved
:class:`~khrap.variant.schema.Variant`.
"""

from __future__ import annotations

import os
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from khrap import words as w
from khrap.cards import parse_card
from khrap.rulebook import arithmetic
from khrap.rulebook.diff import Difference, differences, parent_of
from khrap.rulebook.example import Example, NoExample, play_example
from khrap.rulebook.facts import SECTIONS, facts
from khrap.rulebook.i18n import languages
from khrap.rulebook.render import FORMATS, Words, environment, text_table, wrap
from khrap.rulebook.steps import Call, Deal, Exchange, Play, Settle, Step, Thrown, Trick, Trump
from khrap.variant.catalog import builtin_names, load_variant
from khrap.variant.schema import (
    CallsStage,
    ExchangeStage,
    InstantWinsStage,
    NameTrumpStage,
    PlayStage,
    StageBase,
    Variant,
)

EXAMPLE_DEALS = Path(__file__).resolve().parent / "example_deals.yaml"

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


NAMING_STAGES: tuple[type[StageBase], ...] = (ExchangeStage,)
"""The kinds of stage whose one named step gives its name to the sections telling it (``STEP_SECTIONS``):
frap's Buying heads the exchange's section.  An instant-wins stage does not: "Special features" tells other
things beside it, and the course's line points to it by that heading."""


def _heading(words: Words, section: str) -> str:
    """A section's heading: what the variant calls its one step of a naming kind told there, or the sheet's own."""
    for kind in NAMING_STAGES:
        if section in STEP_SECTIONS[kind]:
            named = [s for s in words.v.stages if isinstance(s, kind)]
            if len(named) == 1 and named[0].name:
                return words.stagename(named[0])
    return words.macro("heading", section)


def _rules_context(words: Words, changed: frozenset[str] = frozenset()) -> dict[str, Any]:
    """What the rules proper say; ``changed``: concept keys (and call ids) a house rule changes, marked."""
    v = words.v
    found = facts(v)
    sections = []
    for section in SECTIONS:
        lines = found.sections[section]
        if section == "course":
            steps = [
                {"title": words.macro("step_title", stage), "text": words.line(line), "changed": line.key in changed}
                for stage, line in zip(v.stages, lines, strict=True)
            ]
            sections.append({"id": section, "heading": words.macro("heading", section), "steps": steps, "lines": []})
            continue
        worded = [{"text": words.line(line), "changed": line.key in changed} for line in lines]
        worded = [line for line in worded if line["text"]]
        if worded or section == "calls":
            heading = _heading(words, section)
            sections.append({"id": section, "heading": heading, "steps": [], "lines": worded})
    calls = [
        {
            "name": words.line(row.name),
            "description": words.line(row.description),
            "when": words.clause_list(row.when),
            "obliges": words.clause_list(row.obliges),
            "costs": words.clause_list(row.costs),
            "changed": row.cid in changed,
        }
        for row in found.calls
    ]
    columns = [words.macro("heading", c) for c in ("col_call", "col_when", "col_obliges", "col_costs")]
    rows = [[("▶ " if c["changed"] else "") + f"{c['name']}", c["when"], c["obliges"], c["costs"]] for c in calls]
    table = arithmetic.sample_table(v)
    result = arithmetic.itemize(v, table)
    arithmetic.check(v, table, result)
    return {
        "title": words.title(),
        "description": words.description(),
        "notes": words.notes(),
        "notes_heading": words.macro("heading", "notes"),
        "changed_mark": words.narrate("changed_mark"),
        "sections": sections,
        "calls": calls,
        "columns": columns,
        "calls_table": text_table(columns, rows, text_columns([r[0] for r in rows]), [c["description"] for c in calls])
        if words.fmt == "txt"
        else "",
        "arithmetic": words.narrate("sample", table, result),
    }


@cache
def example_deals() -> dict[str, dict[str, Any]]:
    """The worked example of each built-in, as data (``example_deals.yaml``: deck, calls shown, base stake)."""
    return yaml.safe_load(EXAMPLE_DEALS.read_text(encoding="utf-8"))


def worked_example(v: Variant, name: str | None = None) -> tuple[Example, Variant] | None:
    """The example deal of a sheet: a built-in's own deal from its data, else the first ordinary shuffled one.

    The variant returned is the one played (a built-in's example may use another base stake)."""
    spec = example_deals().get(name or "")
    try:
        if spec is None:
            return play_example(v), v
        played = v.model_copy(update={"base_stake": spec["base_stake"]})
        deck = [parse_card(c) for c in spec["deck"]]
        return play_example(played, deck=deck, prefer=tuple(spec["prefer"])), played
    except NoExample:
        return None


def _trick_reason(plays: tuple[Play, ...], winner: int | None, trump: str | None) -> str:
    """Why the trick's winner took it: the joker, a trump on another suit, the highest trump or card led."""
    card = next((c for seat, c, _ in plays if seat == winner), None)
    if card is None:
        return ""
    if any(joker for seat, _, joker in plays if seat == winner):
        return "joker"
    led = plays[0].card[-1]
    if trump and card[-1] == trump:
        return "trumped" if led != trump else "high_trump"
    return "high_card" if card[-1] == led else ""


def explained(events: list[Step]) -> list[Step]:
    """The example's events, each trick with the reason its winner took it (the trump read from the deal),
    each call the first time it is said with its description, each pass with the trumps and aces of the
    hand he was dealt (what the example's players count: khrap.rulebook.policy.strength)."""
    trump: str | None = None
    said: set[str] = set()
    hands: dict[int, tuple[str, ...]] = {}
    out: list[Step] = []
    for event in events:
        if isinstance(event, Deal):
            hands = dict(event.hands)
            if event.turned:
                trump = event.turned[-1]
        elif isinstance(event, Thrown):  # a later pass is not explained by cards he no longer holds
            for seat in event.seats:
                hands.pop(seat, None)
        elif isinstance(event, Call):  # a call is explained the first time it is said; a pass by the hand held
            hand = hands.get(event.seat, ())
            strength = None
            if trump and hand and event.status == w.OUT:
                strength = sum(1 for c in hand if c[-1] == trump or c[0] == "A")
            event = replace(event, explain=event.call not in said, strength=strength)
            said.add(event.call)
        elif isinstance(event, Trump):
            trump = event.suit
        elif isinstance(event, Exchange) and trump and event.lost:
            low = all(c[-1] != trump and c[0] in "23456789T" for c in event.lost)
            event = replace(event, why="low" if low else "")
        elif isinstance(event, Trick):
            event = replace(event, why=_trick_reason(event.plays, event.seat, trump))
        out.append(event)
    return out


def _example_context(words: Words, name: str | None = None) -> dict[str, Any] | None:
    found = worked_example(words.v, name)
    if found is None:
        return None
    example, played = found
    lines = [words.narrate(e.sentence, e) for e in explained(example.events)]
    pot = next((e.result.pot for e in example.events if isinstance(e, Settle)), 0)
    return {
        "heading": words.macro("heading", "example"),
        "intro": words.narrate("intro", example, played.base_stake),
        "lines": [line for line in lines if line] + [words.narrate("totals", example, pot)],
    }


def _diff_context(
    old: Words, new: Words, found: list[Difference], builtin: bool = False, compact: bool | None = None
) -> dict[str, Any]:
    """The differences in words; ``builtin``: the second is a built-in (not house rules); ``compact``: say
    only how the second plays each changed rule (a built-in's own sheet)."""
    compact = builtin if compact is None else compact
    parent, child = old.title(), new.title()
    rows = [
        {"label": d.label, "old": d.old if d.old is not None else old.narrate("diff_missing"),
         "new": d.new if d.new is not None else new.narrate("diff_missing")}
        for d in found
    ]
    if not rows:
        intro = new.narrate("diff_none", parent, child)
    elif compact:
        intro = new.narrate("diff_intro_short", parent, child)
    else:
        intro = new.narrate("diff_intro", parent, child)
    return {
        "heading": new.macro("heading", "builtin_diff" if builtin else "diff", parent=parent),
        "intro": intro,
        "parent": parent,
        "child": child,
        "rows": rows,
        # a built-in's sheet tells only how it plays each changed rule (the parent has its own sheet)
        "compact": compact,
    }


def render_rules(ref: VariantRef, fmt: str = "html", lang: str = "en", *, example: bool = True,
                 parent: tuple[str, Variant] | None = None) -> str:
    """The rule sheet of a variant.  ``example=False`` leaves out the worked deal and the differences.
    ``parent``: what a resolved variant extends (a path's own ``extends`` is read), so its sheet marks
    the house changes (``khrap serve``'s table of a pasted house rule)."""
    _check(fmt, lang)
    v = _resolve(ref)
    words = Words(v, fmt, lang)
    if parent is None and not isinstance(ref, Variant):
        parent = parent_of(ref)
    builtin = isinstance(ref, str) and ref in builtin_names()
    found: list[Difference] = []
    if parent is not None:
        old = Words(parent[1], fmt, lang)
        found = differences(old, words)
    # a house-rule sheet marks what it changes where the rule stands, and lists it in a box on page 1
    changed = frozenset() if builtin else frozenset(
        key for d in found for key in (d.key, d.call) if key and d.new is not None
    )
    context = _rules_context(words, changed)
    context["example"] = _example_context(words, ref if builtin else None) if example else None
    context["diff"] = None
    context["house"] = None
    if parent is not None and example:
        context["diff"] = _diff_context(old, words, found, builtin)
    if parent is not None and not builtin:
        context["house"] = {
            "heading": words.macro("heading", "house", parent=old.title()),
            "intro": words.narrate("house_intro", old.title()),
            "rows": [{"label": d.label, "text": d.new if d.new is not None else words.narrate("house_dropped")}
                     for d in found if not d.key.startswith("notes.")],  # the notes have a box of their own
        }
    return environment(fmt, lang).get_template(f"sheet.{fmt}.j2").render(lang=lang, **context)


def render_diff(old_ref: VariantRef, new_ref: VariantRef, fmt: str = "txt", lang: str = "en") -> str:
    """In words, what the second variant changes in the first."""
    _check(fmt, lang)
    old = Words(_resolve(old_ref), fmt, lang)
    new = Words(_resolve(new_ref), fmt, lang)
    builtin = isinstance(new_ref, str) and new_ref in builtin_names()
    context = _diff_context(old, new, differences(old, new), builtin, compact=False)  # both sides, always
    return environment(fmt, lang).get_template(f"diff.{fmt}.j2").render(lang=lang, diff=context)


STEP_SECTIONS: dict[type[StageBase], tuple[str, ...]] = {
    CallsStage: ("calls",), ExchangeStage: ("exchange",), NameTrumpStage: ("play",),
    InstantWinsStage: ("quirks",), PlayStage: ("play",)}
"""The sections of the sheet that tell a step of each kind of stage, by the schema's class (its line of the
course comes first)."""


def render_step(ref: VariantRef, lang: str = "en", stage_id: str | None = None) -> str:
    """The sheet's text for one step of the deal (plain text): its line of "How a deal goes" and the section
    that tells that kind of step (the calls with their table, the exchange, the play); the settlement when
    ``stage_id`` names no step of the variant (after a deal).  What ``rules`` and ``?`` print at the table."""
    _check("txt", lang)
    v = _resolve(ref)
    ids = [stage.id for stage in v.stages]
    stage_index = ids.index(stage_id) if stage_id in ids else None
    words = Words(v, "txt", lang)
    context = _rules_context(words)
    by_id = {s["id"]: s for s in context["sections"]}
    out: list[str] = []

    def heading(section: dict) -> None:
        out.extend(["", section["heading"].upper(), "-" * len(section["heading"])])

    if stage_index is None:
        wanted: tuple[str, ...] = ("settlement",)
    else:
        course = by_id["course"]
        step = course["steps"][stage_index]
        heading(course)
        title = step["title"] + ("" if step["title"].endswith("?") else ".")
        out.append(wrap(f"{title} {step['text']}", "    ", f"{stage_index + 1}.".ljust(4)))
        wanted = STEP_SECTIONS.get(type(v.stages[stage_index]), ())
    for section_id in wanted:
        section = by_id.get(section_id)
        if section is None:
            continue
        heading(section)
        out += [wrap(line["text"]) for line in section["lines"]]
        if section_id == "calls":
            out += ["", context["calls_table"]]
        if section_id == "settlement":
            out += ["", wrap(context["arithmetic"], "  ", "  ")]
    return "\n".join(out).strip("\n") + "\n"
