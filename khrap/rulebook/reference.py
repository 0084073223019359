"""The variant schema as a list of fields, for the reference page and for tests.

:func:`schema_fields` walks :class:`~khrap.variant.schema.Variant` and every
model under it and yields one :class:`FieldDoc` per field, named by its path
in a variant file: ``calls.*.requires.holds[].rank`` (``*`` any key of a
mapping, ``[]`` any item of a list).  :func:`reference_markdown` writes
``docs/variant-reference.md`` from them: meaning, type, allowed values,
default and an example (taken from a built-in variant where one sets it).
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import yaml
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from khrap.variant.catalog import builtin, builtin_names
from khrap.variant.schema import Variant

EXAMPLE_WIDTH = 160
"""Longer examples (whole calls, whole stages) are left to the variant files themselves."""


@dataclass(frozen=True)
class FieldDoc:
    path: str
    owner: type[BaseModel]
    name: str
    info: FieldInfo

    @property
    def composite(self) -> bool:
        """Whether the field holds models (its meaning is in its own fields)."""
        return bool(models_in(self.info.annotation))

    @property
    def collection(self) -> bool:
        """A list or mapping of models: entries can be added and removed."""
        return self.composite and _origin(_strip(self.info.annotation)) in (list, dict)


def _strip(tp: Any) -> Any:
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    return tp


def _origin(tp: Any) -> Any:
    return get_origin(tp) or tp


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def models_in(tp: Any) -> list[type[BaseModel]]:
    """The models a type annotation holds (through Optional, unions, lists and mappings)."""
    tp = _strip(tp)
    if _is_model(tp):
        return [tp]
    found: list[type[BaseModel]] = []
    for arg in get_args(tp):
        found += [m for m in models_in(arg) if m not in found]
    return found


def _suffix(tp: Any) -> str:
    """How a path goes into a field's value: ``[]`` for lists, ``.*`` for mappings."""
    tp = _strip(tp)
    origin = _origin(tp)
    if origin in (Union, types.UnionType):
        inner = {_suffix(a) for a in get_args(tp) if a is not type(None)} - {""}
        return inner.pop() if len(inner) == 1 else ""
    if origin is list:
        return "[]" + _suffix(get_args(tp)[0])
    if origin is dict:
        return ".*" + _suffix(get_args(tp)[1])
    return ""


def schema_fields(model: type[BaseModel] = Variant, prefix: str = "") -> list[FieldDoc]:
    """Every field of the schema, depth first, each model's fields after the field that holds it."""
    out: list[FieldDoc] = []
    for name, info in model.model_fields.items():
        path = f"{prefix}{name}"
        out.append(FieldDoc(path, model, name, info))
        inner = path + _suffix(info.annotation)
        for sub in models_in(info.annotation):
            out += [f for f in schema_fields(sub, inner + ".") if f.path not in {x.path for x in out}]
    return out


# ------------------------------------------------------------------ wording a field
def type_text(tp: Any) -> str:
    """A field's type in words."""
    tp = _strip(tp)
    origin = _origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        text = " or ".join(type_text(a) for a in args)
        return f"{text} or null" if len(args) < len(get_args(tp)) else text
    if origin is Literal:
        return "one of " + ", ".join(f"`{a}`" for a in get_args(tp))
    if origin is list:
        return f"list of {type_text(get_args(tp)[0])}"
    if origin is dict:
        key, value = get_args(tp)
        if _strip(key) is str and _strip(value) is str:
            return "text per language (`{en: ..., ru: ...}`)"
        return f"mapping of {type_text(key)} to {type_text(value)}"
    if _is_model(tp):
        return f"mapping ({tp.__name__})"
    return {bool: "true/false", int: "whole number", str: "text"}.get(tp, getattr(tp, "__name__", str(tp)))


def bounds_text(info: FieldInfo) -> str:
    parts = []
    for meta in info.metadata:
        for attr, word in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<"), ("min_length", "at least"),
                           ("max_length", "at most")):
            value = getattr(meta, attr, None)
            if value is not None:
                parts.append(f"{word} {value}" if word[0] != "a" else f"{word} {value} item(s)")
    return ", ".join(parts)


def default_of(info: FieldInfo) -> Any:
    if info.default_factory is not None:
        value = info.default_factory()
    elif info.default is PydanticUndefined:
        return PydanticUndefined
    else:
        value = info.default
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {k: v.model_dump(mode="json") if isinstance(v, BaseModel) else v for k, v in value.items()}
    if isinstance(value, list):
        return [v.model_dump(mode="json") if isinstance(v, BaseModel) else v for v in value]
    return value


def inline_yaml(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=10_000).strip()
    return text.removesuffix("...").strip()


def values_at(data: Any, path: str) -> list[Any]:
    """Every value at a field path in resolved variant data (``*`` and ``[]`` match everything)."""
    steps: list[str] = []
    for part in path.split("."):
        name = part.replace("[]", "")
        if name:
            steps.append(name)
        steps += ["[]"] * part.count("[]")
    found = [data]
    for step in steps:
        nxt = []
        for value in found:
            if step == "[]" and isinstance(value, list):
                nxt += value
            elif step == "*" and isinstance(value, dict):
                nxt += list(value.values())
            elif isinstance(value, dict) and step in value:
                nxt.append(value[step])
        found = nxt
    return found


def example_of(doc: FieldDoc) -> tuple[str, str] | None:
    """(built-in variant, value) where a built-in sets the field to something other than its default."""
    default = default_of(doc.info)
    for name in builtin_names():
        data = builtin(name).model_dump(mode="json")
        for value in values_at(data, doc.path):
            if value != default and value not in (None, [], {}):
                return name, inline_yaml(value)
    return None


def meaning(doc: FieldDoc) -> str:
    if doc.info.description:
        return doc.info.description
    for model in models_in(doc.info.annotation):
        if model.__doc__:
            return " ".join(model.__doc__.split())
    return ""


def reference_markdown() -> str:
    """``docs/variant-reference.md``: every field of the schema."""
    lines = [
        "# Variant file reference",
        "",
        "<!-- Generated by `python -m khrap.rulebook.build_docs` from khrap/variant/schema.py; do not edit. -->",
        "",
        "Every field a variant file may set, in the order of the schema. A path names where the field",
        "sits: `calls.*.requires.dealer` is `requires: {dealer: ...}` inside any call; `[]` means any",
        "item of a list. A house-rules file (`extends: khrap`) sets only the fields it changes: mappings",
        "merge key by key with the parent, lists replace the parent's list. See",
        "[house-rules.md](house-rules.md) for a walk-through and `khrap schema` for the JSON Schema.",
        "",
        "A field that holds other fields (a mapping such as `play`) has no value of its own; its fields",
        "follow it.",
        "",
    ]
    for doc in schema_fields():
        depth = doc.path.count(".")
        heading = "##" if depth == 0 else "###"
        lines += [f"{heading} `{doc.path}`", ""]
        text = meaning(doc)
        if text:
            lines += [text, ""]
        rows = [("type", type_text(doc.info.annotation))]
        bounds = bounds_text(doc.info)
        if bounds:
            rows.append(("allowed", bounds))
        default = default_of(doc.info)
        rows.append(("default", "required" if default is PydanticUndefined else f"`{inline_yaml(default)}`"))
        example = example_of(doc)
        if example and len(example[1]) <= EXAMPLE_WIDTH:
            rows.append(("example", f"`{doc.name}: {example[1]}` (in `{example[0]}`)"))
        lines += [f"- {key}: {value}" for key, value in rows]
        lines.append("")
    return "\n".join(lines + limits_markdown())


def limits_markdown() -> list[str]:
    """The "Limits" section: every bound on a file and its values, from where each is stated."""
    from khrap.session.record import RECORD_BYTES
    from khrap.variant.checks import DEAL_DECISIONS
    from khrap.variant.loader import LIMITS
    from khrap.variant.schema import LIMITS_TEXT

    kib = 1024
    lines = [
        "## Limits",
        "",
        "Files come from strangers, so every file and every value has a bound; a file beyond one is refused",
        "with a located message. Each bound is stated once (`khrap/variant/schema.py`, the loader's `Limits`).",
        "They are chosen so that every variant that validates finishes every deal in a bounded number of",
        f"actions (at most {DEAL_DECISIONS}, checked when it is loaded) and its checking takes time linear in",
        "its size.",
        "",
        f"- one variant or scenario file: {LIMITS.file_bytes // kib} KiB; a whole `extends` chain: "
        f"{LIMITS.chain_bytes // kib} KiB, at most {LIMITS.chain} files",
        f"- YAML: nesting {LIMITS.depth} levels, {LIMITS.nodes} nodes, {LIMITS.aliases} alias expansions",
        f"- a record (saved session): {RECORD_BYTES // (kib * kib)} MiB",
        "- a file names other files only as a built-in name or a path in its own folder or below "
        "(`--allow-outside` lifts this for files you trust); only regular files are read",
    ]
    lines += [f"- {what}: at most {value}" for what, value in LIMITS_TEXT.items()]
    return lines + [""]
