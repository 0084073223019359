"""Validation errors in a player's words: each pydantic error placed on the data, located in the file
(through ``extends``) and worded without pydantic's sentences.
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterable, Mapping, MutableMapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from khrap.variant.errors import (
    Loc,
    VariantError,
    VariantErrors,
    _show,
    did_you_mean,
    dotted,
    meant,
    said_kind,
    said_value,
)
from khrap.variant.extends import Origins
from khrap.variant.said import Said

M = TypeVar("M", bound=BaseModel)


# --------------------------------------------------------------------------- validation


def locate_error(origins: Origins, loc: Loc, message: str | Said, key: bool = False) -> VariantError:
    """A :class:`VariantError` pointing at ``loc`` (at its key with ``key=True``)."""
    return VariantError(message, *origins.locate(loc, key))


def validate(
    model_cls: type[M], data: dict[Any, Any], origins: Origins,
    found: Sequence[VariantError] = (), quiet: Iterable[Loc] = (),
) -> M:
    """Validate merged data; every mistake (with ``found``, those the caller found first) is raised at
    once as :class:`VariantErrors`, each located and in a player's words.

    Pydantic errors at or under a location in ``quiet`` are left out: the caller reported them better.
    """
    errors = list(found)
    try:
        model = model_cls.model_validate(data)
    except ValidationError as exc:
        errors += _from_pydantic(model_cls, data, origins, exc.errors(), tuple(tuple(q) for q in quiet))
        model = None
    if errors or model is None:
        errors = errors or [VariantError(Said("the file is not valid"), origins.user_file)]
        raise VariantErrors(errors, origins.user_file)
    return model


# --- mapping a pydantic loc onto the data and the model's annotations
#
# Pydantic's loc mixes real keys/indexes with labels it adds inside unions: the
# member tried ("Amount", "literal['stake']", "function-after[...]") or the
# discriminator tag ("calls").  A tag can equal a real key, so we walk the
# annotations to know where a label is due, and fall back to "is it in the data?".

_MAPPINGS = (dict, Mapping, MutableMapping)
_SEQUENCES = (list, set, frozenset, Sequence, MutableSequence)


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _members(tp: Any) -> list[Any]:
    return [a for a in get_args(tp) if a is not type(None)] if get_origin(tp) in (Union, types.UnionType) else []


def _strip(tp: Any) -> Any:
    """Drop Annotated and Optional wrappers (pydantic adds no loc label for those)."""
    while True:
        if get_origin(tp) is Annotated:
            tp = get_args(tp)[0]
        elif len(members := _members(tp)) == 1:
            tp = members[0]
        else:
            return tp


def _has(cur: Any, comp: Any) -> bool:
    if isinstance(cur, dict):
        return comp in cur
    return isinstance(cur, list) and type(comp) is int and 0 <= comp < len(cur)


def _literals(model: type[BaseModel]) -> dict[str, tuple[Any, ...]]:
    """Literal-typed fields by key (name and alias): the usual discriminators."""
    out: dict[str, tuple[Any, ...]] = {}
    for name, field in model.model_fields.items():
        ann = _strip(field.annotation)
        if get_origin(ann) is Literal:
            for key in {name, field.alias} - {None}:
                out[str(key)] = get_args(ann)
    return out


def _member_for_tag(members: list[Any], tag: Any) -> Any:
    named = [m for m in members if getattr(_strip(m), "__name__", None) == tag]
    tagged = [m for m in members if _is_model(_strip(m)) and any(tag in v for v in _literals(_strip(m)).values())]
    found = named or tagged
    return _strip(found[0]) if len(found) == 1 else None


def _member_for_data(members: list[Any], value: Any) -> Any:
    """The one union member whose shape (and Literal fields) fit ``value``, else None."""
    fits = [_strip(m) for m in members if _fits(_strip(m), value)]
    return fits[0] if len(fits) == 1 else None


def _fits(tp: Any, value: Any) -> bool:
    if members := _members(tp):
        return any(_fits(_strip(m), value) for m in members)
    origin = get_origin(tp) or tp
    if isinstance(value, dict):
        if _is_model(tp):
            lits = _literals(tp)
            return all(value[k] in allowed for k, allowed in lits.items() if k in value)
        return origin in _MAPPINGS
    if isinstance(value, list):
        return origin in _SEQUENCES or origin is tuple
    return False


def _child_type(tp: Any, comp: Any) -> Any:
    if _is_model(tp):
        for name, field in tp.model_fields.items():
            if comp in (name, field.alias, field.validation_alias):
                return field.annotation
        return None
    origin, args = get_origin(tp), get_args(tp)
    if origin in _MAPPINGS:
        return args[1] if len(args) == 2 else None
    if origin in _SEQUENCES:
        return args[0] if args else None
    if origin is tuple and args:
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
        return args[comp] if type(comp) is int and comp < len(args) else None
    return None


def _walk(model_cls: type[BaseModel], data: Any, raw: Loc) -> tuple[Loc, Any, Any]:
    """The real data path of a pydantic loc, the type holding its last real step, and the type there.

    A type is None where we could not tell (they are only used for wording and suggestions).
    """
    tp: Any = model_cls
    cur = data
    path: list[Any] = []
    holder: Any = model_cls
    for comp in raw:
        tp = _strip(tp) if tp is not None else None
        if members := _members(tp):
            pick = _member_for_tag(members, comp)
            if pick is not None or not _has(cur, comp):  # a label pydantic added
                tp = pick if pick is not None else _member_for_data(members, cur)
                continue
            tp = _member_for_data(members, cur)
        if not _has(cur, comp):
            continue  # a missing key, or a label we could not place
        holder = tp
        tp = _child_type(tp, comp) if tp is not None else None
        path.append(comp)
        cur = cur[comp]
    return tuple(path), holder, (_strip(tp) if tp is not None else None)


def _field_keys(model: type[BaseModel]) -> list[str]:
    keys: list[str] = []
    for name, field in model.model_fields.items():
        keys += [k for k in (name, field.alias, field.validation_alias) if isinstance(k, str) and k not in keys]
    return keys


# --- turning one pydantic error into one line


def _prefixed(loc: Loc, message: str | Said) -> str | Said:
    if isinstance(message, Said):  # the player's words, put in a language when shown
        return dotted(loc) + ": " + message if loc else message
    message = " ".join(message.split())  # one line, whatever a validator wrote
    return f"{dotted(loc)}: {message}" if loc else message


_TYPE_KINDS = frozenset({
    "model_type", "model_attributes_type", "dict_type", "list_type", "tuple_type", "set_type", "int_type",
    "int_parsing", "int_from_float", "float_type", "float_parsing", "bool_type", "bool_parsing", "string_type",
    "literal_error", "union_tag_invalid", "union_tag_not_found", "none_required", "is_instance_of",
})
_RANGES = {"greater_than_equal": ("ge", Said("must be at least %(limit)s, got %(value)s")),
           "greater_than": ("gt", Said("must be more than %(limit)s, got %(value)s")),
           "less_than_equal": ("le", Said("must be at most %(limit)s, got %(value)s")),
           "less_than": ("lt", Said("must be less than %(limit)s, got %(value)s"))}
# What a value must be, where the phrase is whole (no bounds, no list of choices): said in the player's language.
_PHRASES = {said.text: said for said in (
    Said("true or false"), Said("a whole number"), Said("a number"), Said("a text"), Said("a text per language"),
    Said("a mapping"), Said("a mapping of ids to their rules"), Said("a card"), Said("an amount of chips"),
    Said("a list of call ids"), Said("a list of stage ids"), Said("a rank (2-9, 10 or T, J, Q, K, A)"))}


@dataclass
class _Found:
    """One pydantic error placed on the data: its real location and the types around it."""

    err: Mapping[str, Any]
    raw: Loc
    loc: Loc
    holder: Any
    tp: Any

    @property
    def kind(self) -> str:
        return str(self.err["type"])

    @property
    def key_error(self) -> bool:
        return self.kind == "extra_forbidden" or self.raw[-1:] == ("[key]",)


def _from_pydantic(model_cls: type[BaseModel], data: Any, origins: Origins, errs: Sequence[Mapping[str, Any]],
                   quiet: tuple[Loc, ...] = ()) -> list[VariantError]:
    """Each pydantic error as one located line, less those another error explains."""
    found = [_Found(e, tuple(e["loc"]), *_walk(model_cls, data, tuple(e["loc"]))) for e in errs]
    found = [f for f in found if not any(f.loc[: len(q)] == q for q in quiet)]
    unknown = [f for f in found if f.key_error]
    meant = {(f.loc[:-1], _suggestion(f)) for f in unknown if f.kind == "extra_forbidden"}
    kept: list[_Found] = []
    for f in found:
        if any(u is not f and f.loc[: len(u.loc)] == u.loc for u in unknown):
            continue  # inside a key that is itself unknown
        if f.kind == "missing" and (f.loc, str(f.raw[-1])) in meant:
            continue  # the misspelt key next to it is the mistake
        if f.kind in _TYPE_KINDS and not f.key_error and any(
            len(g.loc) > len(f.loc) and g.loc[: len(f.loc)] == f.loc for g in found
        ):
            continue  # another member of a union fits the shape: its errors inside say more
        kept.append(f)
    # the members of a union each say the value does not fit them: one line for the value, with a suggestion
    # when a member has one (the literal)
    by_loc: dict[Loc, _Found] = {}
    for f in kept:
        if f.kind in _TYPE_KINDS and not f.key_error:
            seen = by_loc.get(f.loc)
            if seen is None or (f.kind == "literal_error" and seen.kind != "literal_error"):
                by_loc[f.loc] = f
    kept = [f for f in kept if f.kind not in _TYPE_KINDS or f.key_error or by_loc.get(f.loc) is f]
    return [_one(model_cls, data, origins, f) for f in kept]


def _suggestion(f: _Found) -> str:
    allowed = _field_keys(f.holder) if _is_model(f.holder) else []
    match = re.findall(r"'([^']*)'", did_you_mean(str(f.raw[-1]), allowed))
    return match[0] if match else ""


def _one(model_cls: type[BaseModel], data: Any, origins: Origins, f: _Found) -> VariantError:
    loc, raw, kind = f.loc, f.raw, f.kind
    if kind == "extra_forbidden" and raw:
        return _unknown_key(origins, loc, f.holder, raw[-1])
    if kind == "missing" and raw:
        return _missing(origins, loc, f.tp, raw[-1])
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return _bad_tag(origins, data, loc, f.err, f.tp)
    if f.raw[-1:] == ("[key]",):
        return _bad_dict_key(origins, loc, f.err)
    return locate_error(origins, loc, _prefixed(loc, _human(f, data)))


# A text in these lists is an id of something defined elsewhere in the file: (what it is, where they are).
_ID_LISTS = {"calls": ("a call id", "calls"), "skip_stages": ("a stage id", "stages")}


def _id_phrase(data: Any, loc: Loc) -> str | None:
    """"a call id, e.g. `khrap`" for an item of a list of call ids (and so on), else None."""
    named = next((c for c in reversed(loc) if isinstance(c, str)), None)
    if named not in _ID_LISTS or not loc or not isinstance(loc[-1], int):
        return None
    what, where = _ID_LISTS[named]
    pool = data.get(where) if isinstance(data, dict) else None
    ids = list(pool) if isinstance(pool, dict) else [s.get("id") for s in pool or () if isinstance(s, dict)]
    first = next((i for i in ids if isinstance(i, str)), None)
    return f"{what}, e.g. `{first}`" if first else what


def _field_info(model: Any, key: Any) -> Any:
    if not _is_model(model):
        return None
    for name, field in model.model_fields.items():
        if key in (name, field.alias):
            return field
    return None


def _missing(origins: Origins, loc: Loc, holder: Any, key: Any) -> VariantError:
    from khrap.variant.expect import example

    holder = _strip(holder) if holder is not None else None
    field = _field_info(holder, key)
    sample = example(field.annotation, field, holder, key) if field is not None else "..."
    message = Said("`%(key)s` is missing: add it, e.g. `%(key)s: %(sample)s`", key=key, sample=sample)
    return locate_error(origins, loc, _prefixed(loc, message))


def _unknown_key(origins: Origins, loc: Loc, holder: Any, name: Any) -> VariantError:
    parent = loc[:-1] if loc and loc[-1] == name else loc
    allowed = _field_keys(holder) if _is_model(holder) else []
    if not parent:
        allowed += origins.extra_top_keys
    hint = meant(str(name), allowed)
    if not hint and allowed:
        hint = Said(" (the keys here are: %(keys)s)", keys=", ".join(allowed))
    message = Said("unknown key %(key)s", key=_show(name)) + hint
    return locate_error(origins, parent + (name,), _prefixed(parent, message), key=True)


def _bad_dict_key(origins: Origins, loc: Loc, err: Mapping[str, Any]) -> VariantError:
    """A key of a mapping whose keys are fixed words (``statuses: {declarer: ..., helper: ...}``)."""
    words = re.findall(r"'([^']*)'", str((err.get("ctx") or {}).get("expected", "")))
    name = loc[-1] if loc else err.get("input")
    parent = loc[:-1] if loc and loc[-1] == name else loc
    hint = meant(str(name), words) or (Said(" (use %(words)s)", words=" or ".join(words)) if words else "")
    message = Said("unknown key %(key)s", key=_show(name)) + hint
    return locate_error(origins, parent + (name,), _prefixed(parent, message), key=True)


def _bad_tag(origins: Origins, data: Any, loc: Loc, err: Mapping[str, Any], tp: Any = None) -> VariantError:
    """A discriminated union whose tag key is absent or has an unknown value."""
    ctx = err.get("ctx") or {}
    key = str(ctx.get("discriminator", "")).strip("'")
    target: Any = data
    for comp in loc:
        target = target[comp]
    expected = re.findall(r"'([^']*)'", str(ctx.get("expected_tags", "")))
    if not expected:  # pydantic names the tags only when one is written
        for member in _members(tp) if tp is not None else []:
            member = _strip(member)
            expected += [str(t) for t in (_literals(member).get(key, ()) if _is_model(member) else ())]
    if not (isinstance(target, dict) and key in target):
        if not isinstance(target, dict):
            return locate_error(origins, loc, _prefixed(loc, Said("must be a mapping, got %(kind)s",
                                                                  kind=said_kind(target))))
        message: Said = Said("`%(key)s` is missing: add it, e.g. `%(key)s: %(sample)s`", key=key,
                             sample=expected[0] if expected else "...")
        if expected:
            from khrap.variant.expect import choices

            message += Said(" (one of %(choices)s)", choices=choices(expected))
        return locate_error(origins, loc, _prefixed(loc, message))
    tag = target[key]
    from khrap.variant.expect import choices

    message = Said("must be one of %(choices)s; got %(value)s", choices=choices(expected), value=_show(tag)) \
        + meant(str(tag), expected)
    return locate_error(origins, loc + (key,), _prefixed(loc + (key,), message))


_CLEAN_PREFIXES = ("Value error, ", "Assertion failed, ")


def _human(f: _Found, data: Any = None) -> str | Said:
    """What is wrong with the value at ``f.loc``, in a player's words; never pydantic's sentence."""
    from khrap.variant.expect import example, expected

    err, kind = f.err, f.kind
    value = err.get("input")
    ctx = err.get("ctx") or {}
    if kind in ("value_error", "assertion_error"):
        raised = ctx.get("error")  # a validator's own words, kept to be put in the reader's language
        if isinstance(raised, Exception) and raised.args and isinstance(raised.args[0], Said):
            return raised.args[0]
        msg = str(err["msg"])
        for prefix in _CLEAN_PREFIXES:
            msg = msg.removeprefix(prefix)
        return msg
    if kind in _RANGES:
        name, said = _RANGES[kind]
        return Said(said.text, limit=ctx.get(name), value=said_value(value))
    if kind == "string_too_long":
        return Said("is too long: at most %(size)s characters", size=ctx.get("max_length"))
    if kind == "string_too_short":
        return Said("is too short: at least %(size)s characters", size=ctx.get("min_length"))
    if kind in ("too_short", "too_long"):
        size = ctx.get("min_length" if kind == "too_short" else "max_length")
        count = ctx.get("actual_length")
        if count is None:  # (pydantic gives a mapping's length as None: "got None" was said of 40 `terms:`)
            count = len(value) if isinstance(value, dict | list | tuple | str) else "?"
        if kind == "too_short":
            said = Said("needs at least %(size)s entry, got %(count)s") if size == 1 else \
                Said("needs at least %(size)s entries, got %(count)s")
        else:
            said = Said("needs at most %(size)s entry, got %(count)s") if size == 1 else \
                Said("needs at most %(size)s entries, got %(count)s")
        return Said(said.text, size=size, count=count)
    key = f.loc[-1] if f.loc else None
    holder = f.holder if _is_model(f.holder) and f.loc else None
    field = _field_info(holder, key)
    tp = field.annotation if field is not None else f.tp
    if tp is None:
        return Said("is not a valid value here, got %(value)s", value=said_value(value))
    what = expected(tp, field, holder, key)
    ident = _id_phrase(data, f.loc) if what == "a text" else None
    if ident is not None:
        return Said("must be %(what)s; got %(value)s", what=ident, value=said_value(value))
    message: Said | str
    if what.startswith(("one of ", "`")):  # the choices are the example
        if what.startswith("one of "):
            message = Said("must be one of %(choices)s; got %(value)s", choices=what[len("one of "):],
                           value=said_value(value))
        else:
            message = Said("must be %(what)s; got %(value)s", what=what, value=said_value(value))
    else:
        sample = example(tp, field, holder, key, written=value)
        shown = f"`{key}: {sample}`" if isinstance(key, str) else f"`{sample}`"
        message = Said("must be %(what)s, e.g. %(sample)s; got %(value)s", what=_what(what, tp, field),
                       sample=shown, value=said_value(value))
    if kind == "literal_error" and isinstance(value, str):
        message += meant(value, re.findall(r"'([^']*)'", str(ctx.get("expected", ""))))
    return message + _comma_hint(f.loc, value)


def _what(what: str, tp: Any, field: Any) -> str | Said:
    """What a value must be, in the player's language where the phrase is one of those said (``_PHRASES``, a
    whole number and its bounds); else as ``expected`` wrote it."""
    from khrap.variant.expect import _plain, bounds

    if what in _PHRASES:
        return _PHRASES[what]
    if _plain(tp) is int and field is not None:
        low, high = bounds(field)
        if low is not None and high is not None:
            said = Said("a whole number from %(low)s to %(high)s", low=low, high=high)
        elif low is not None:
            said = Said("a whole number of at least %(low)s", low=low)
        elif high is not None:
            said = Said("a whole number of at most %(high)s", high=high)
        else:
            return what
        return said if str(said) == what else what  # (never a phrase other than the English one)
    return what


def _comma_hint(loc: Any, value: Any) -> str:
    """A key with no value in `{...}` is most likely the tail of a text after a comma (`{en: Khrap with
    friends, at home}` reads `at home` as a key): say to quote the whole text."""
    if value is not None or not loc or not isinstance(loc[-1], str) or " " not in loc[-1].strip():
        return ""
    tail = "".join(c if c.isprintable() else "?" for c in loc[-1])
    tail = tail if len(tail) <= 30 else tail[:27] + "..."
    return (f" (a comma inside `{{...}}` ends a text, so '{tail}' was read as a key: if it belongs to the "
            f"text before it, put that whole text in quotes, e.g. `\"..., {tail}\"`)")
