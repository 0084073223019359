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

from khrap.rulebook.facts import SECTIONS, Facts, facts
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
            text = words.line(line)
            if not text:
                continue
            if line.key in steps:
                label = words.macro("step_label", steps[line.key])
            elif line.key.startswith("instant_wins."):
                label = words.winname(line.args["win"])
            else:
                label = words.macro("concept_label", line.key) or heading
            out.append(Concept(line.key, label, text))
        if section == "calls":
            for row in found.calls:
                name = words.line(row.name)
                for column, cells in (("col_when", row.when), ("col_obliges", row.obliges), ("col_costs", row.costs)):
                    label = words.join([name, words.macro("heading", column)], ": ")
                    out.append(Concept(f"calls.{row.cid}.{column}", label, words.clause_list(cells), row.cid))
    for index, note in enumerate(words.notes()):
        out.append(Concept(f"notes.{index + 1}", words.macro("concept_label", "notes"), note))
    return out


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
            found.append(Difference(concept.label, None, concept.text, concept.key, concept.call))
        elif previous.text != concept.text:
            found.append(Difference(concept.label, previous.text, concept.text, concept.key, concept.call))
    for concept in before:
        if concept.call and concept.call not in new_calls:
            if concept.key.endswith("col_when"):
                cells = [c for c in before if c.call == concept.call]
                found.append(Difference(
                    old.callname(concept.call), cap(_whole_call(old, cells)), None, concept.key, concept.call
                ))
        elif concept.key not in now:
            found.append(Difference(concept.label, concept.text, None, concept.key, concept.call))
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
