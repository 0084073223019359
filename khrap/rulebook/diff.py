"""What differs between two variants, in words: the sheets' sentences compared concept by concept.

Both variants are worded with the same sentence macros; a concept (a rule
field, a step, a call's when/obliges/costs) whose sentence differs is a
difference.  Descriptions are left out: they are free text, and every rule
they describe has its own sentence.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from khrap.rulebook.facts import SECTIONS, Facts, Line, facts
from khrap.rulebook.render import Words, cap
from khrap.variant.catalog import variants_dir
from khrap.variant.loader import read_yaml
from khrap.variant.schema import Variant


@dataclass(frozen=True)
class Concept:
    key: str
    label: str
    text: str
    call: str | None = None  # the call a calls-table cell belongs to
    title: str = ""  # a step's title, to name a step the other variant does not have
    step: int = 0  # a step's number and kind, to pair a step replaced by another at its place
    kind: str = ""


@dataclass(frozen=True)
class Difference:
    label: str
    old: str | None  # None: the concept does not exist in the first variant
    new: str | None
    key: str = ""  # the concept (a sheet line's key, or calls.ID.COLUMN)
    call: str | None = None  # the call whose row it is in


def concepts(words: Words, found: Facts | None = None) -> list[Concept]:
    """Every worded concept of the rules proper, with a label for it."""
    found = found or facts(words.v)
    out: list[Concept] = []
    steps = {line.key: i + 1 for i, line in enumerate(found.sections["course"])}
    for section in SECTIONS:
        heading = words.macro("heading", section)
        for line in found.sections[section]:
            if line.key == "object":  # its own label ("Object: ...") left out: the list prints the concept's
                text = cap(words.line(Line(line.key, line.macro, {**line.args, "bare": True})))
            else:
                text = words.line(line)
            if not text:
                continue
            title, kind = "", ""
            if line.key in steps:
                label = words.macro("step_label", steps[line.key])
                stage = next(s for s in words.v.stages if line.key == f"steps.{s.id}")
                title, kind = words.macro("step_title", stage), stage.kind
            elif line.key.startswith("instant_wins."):
                label = words.winname(line.args["win"])
            else:
                label = words.macro("concept_label", line.key) or heading
            out.append(Concept(line.key, label, _unlabelled(text, label), title=title, step=steps.get(line.key, 0),
                               kind=kind))
        if section == "calls":
            for row in found.calls:
                name = words.line(row.name)
                for column, cells in (("col_when", row.when), ("col_obliges", row.obliges), ("col_costs", row.costs)):
                    label = words.join([name, words.macro("heading", column)], ": ")
                    out.append(Concept(f"calls.{row.cid}.{column}", label, words.clause_list(cells), row.cid))
    for index, note in enumerate(words.notes()):
        out.append(Concept(f"notes.{index + 1}", words.macro("concept_label", "notes"), note))
    return out


def _named(concept: Concept) -> str:
    """The label of a concept only one variant has: a step by its number in that variant and its title."""
    return f"{concept.label} ({concept.title})" if concept.title else concept.label


def _unlabelled(text: str, label: str) -> str:
    """A sentence that opens with its own label ("Locked stakes: a player who...") without it: the list of
    differences prints the label before it already."""
    head = f"{label}:"
    return cap(text[len(head):].lstrip()) if label and text.startswith(head) else text


def _whole_call(words: Words, cells: list[Concept]) -> str:
    """A call's three cells in one text."""
    return words.join([c.text for c in cells], ". ") + "."


def differences(old: Words, new: Words) -> list[Difference]:
    """The concepts whose sentences differ, in the second variant's order, then those it lacks.

    A call that only one of the two has is one difference, not one per column.
    """
    before = concepts(old)
    after = concepts(new)
    was = {c.key: c for c in before}
    now = {c.key: c for c in after}
    old_calls = {c.call for c in before if c.call}
    new_calls = {c.call for c in after if c.call}
    # a call under another id but the same name in this language (student-snore's Snore for khrap-52's Khrap
    # in lt, fi, hy) is the same call to a reader: its cells are compared, it is not listed as new and gone
    by_name = {old.callname(c): c for c in old_calls - new_calls}
    same = {c: by_name[new.callname(c)] for c in new_calls - old_calls if new.callname(c) in by_name}
    for cid, was_id in same.items():
        for column in ("col_when", "col_obliges", "col_costs"):
            if f"calls.{was_id}.{column}" in was:
                was[f"calls.{cid}.{column}"] = was.pop(f"calls.{was_id}.{column}")
    old_calls = (old_calls - set(same.values())) | set(same)
    # steps pair by id; a step put in the place of a gone one of its kind (khrap's offers of Take five
    # replaced by offers of Cut) is that step changed
    gone = {c.step: c for c in before if c.step and c.key not in now}
    for c in after:
        old_step = gone.get(c.step) if c.step and c.key not in was else None
        if old_step is not None and old_step.kind == c.kind:
            was[c.key] = old_step
            now[old_step.key] = c
    found = []
    for concept in after:
        if concept.call and concept.call not in old_calls:
            if concept.key.endswith("col_when"):
                cells = [c for c in after if c.call == concept.call]
                found.append(Difference(
                    new.callname(concept.call), None, cap(_whole_call(new, cells)), concept.key, concept.call
                ))
            continue
        previous = was.get(concept.key)
        if previous is None:
            found.append(Difference(_named(concept), None, concept.text, concept.key, concept.call))
        elif previous.text != concept.text:
            found.append(Difference(concept.label, previous.text, concept.text, concept.key, concept.call))
    for concept in before:
        if concept.call in same.values():
            continue  # compared under its new id
        if concept.call and concept.call not in new_calls:
            if concept.key.endswith("col_when"):
                cells = [c for c in before if c.call == concept.call]
                found.append(Difference(
                    old.callname(concept.call), cap(_whole_call(old, cells)), None, concept.key, concept.call
                ))
        elif concept.key not in now:
            found.append(Difference(_named(concept), concept.text, None, concept.key, concept.call))
    return found


def parent_ref(ref: str | os.PathLike[str]) -> str | None:
    """The variant a variant file ``extends`` (a built-in name or a path), or None."""
    path = Path(ref)
    if not (str(ref).endswith((".yaml", ".yml")) or os.sep in str(ref) or "/" in str(ref)):
        path = variants_dir() / f"{ref}.yaml"
    if not path.is_file():
        return None
    data, _ = read_yaml(path)
    value = data.get("extends")
    if not isinstance(value, str):
        return None
    if value.endswith((".yaml", ".yml")) or "/" in value:
        return str(path.parent / value)
    return value


def parent_of(ref: str | os.PathLike[str]) -> tuple[str, Variant] | None:
    """The reference and resolved variant of the parent of ``ref``, if it extends one."""
    from khrap.variant.catalog import load_variant

    parent = parent_ref(ref)
    return None if parent is None else (parent, load_variant(parent))
