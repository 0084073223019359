"""What a field of a variant file expects, in a player's words, with a one-line example.

The loader uses these phrases when a value has the wrong type: "must be true or false, e.g.
`must_beat: true`".  They are made from the schema's annotations and defaults, so a new field
gets a sensible phrase without being listed here; a few examples are written out by hand where
the generated one would not show what a table writes.
"""

from __future__ import annotations

import json
import re
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

__all__ = ["choices", "expected", "example", "flow"]

# Examples a table would write, where the generated one would be poor (by model name, field name).
_EXAMPLES: dict[tuple[str, str], str] = {
    ("Variant", "deck"): "{ranks: [6, 7, 8, 9, T, J, Q, K, A]}",
    ("Deck", "ranks"): "[6, 7, 8, 9, T, J, Q, K, A]",
    ("DeckByPlayers", "ranks"): "[6, 7, 8, 9, T, J, Q, K, A]",
    ("Variant", "calls"): "{sad: {enabled: false}}",
    ("Variant", "stages"): "[{id: bidding, kind: calls, calls: [khrap, pass]}, {id: play, kind: play}]",
    ("Variant", "instant_wins"): "{four-aces: {enabled: false}}",
    ("Variant", "statuses"): "{declarer: {tricks: 2, stake: {base: 2}}}",
    ("Variant", "joker"): "{card: 7S}",
    ("Joker", "card"): "7S",
    ("Call", "effects"): "{status: helper}",
    ("Settlement", "penalties"): "[{pay: stake}]",
    ("Penalty", "pay"): "{base: 2}",
    ("StatusRule", "stake"): "{base: 2}",
    ("CallsStage", "calls"): "[khrap, pass]",
    ("Requires", "holds"): "[{rank: A, suit: trump}]",
    ("Effects", "keep"): "[{rank: A, suit: trump}]",
    ("Penalty", "held"): "[{rank: A, suit: trump}]",
}
_EXAMPLES.update({
    ("Effects", "skip_stages"): "[exchange]",
    ("FirstLead", "calls"): "[take-five]",
    ("Penalty", "calls"): "[frap]",
    ("ExchangeGroup", "calls"): "[take-five]",
    ("ExchangeGroup", "statuses"): "[declarer, helper]",
})
# What a field is, where its type alone ("a list of texts") would say too little.
_PHRASES: dict[tuple[str, str], str] = {
    ("Effects", "skip_stages"): "a list of stage ids",
    ("CallsStage", "calls"): "a list of call ids",
    ("FirstLead", "calls"): "a list of call ids",
    ("Penalty", "calls"): "a list of call ids",
    ("ExchangeGroup", "calls"): "a list of call ids",
}
# A noun for models whose plain "a mapping" would say too little.
_NOUNS = {"Amount": "an amount of chips", "CardPattern": "a card"}
_STAGE_KINDS = ("calls", "exchange", "name_trump", "instant_wins", "play")


def _members(tp: Any) -> list[Any]:
    if get_origin(tp) in (Union, types.UnionType):
        return [a for a in get_args(tp) if a is not type(None)]
    return []


def _is_rank(tp: Any) -> bool:
    """Whether ``tp`` is the schema's Rank (a str read by the rank validator)."""
    if get_origin(tp) is not Annotated:
        return False
    return any(getattr(getattr(m, "func", None), "__name__", "") == "_rank_word" for m in get_args(tp)[1:])


def _plain(tp: Any) -> Any:
    """``tp`` without Annotated and Optional, keeping a Rank recognisable."""
    while True:
        if _is_rank(tp):
            return tp
        if get_origin(tp) is Annotated:
            tp = get_args(tp)[0]
        elif len(members := _members(tp)) == 1:
            tp = members[0]
        else:
            return tp


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def choices(values: Any) -> str:
    """```a`, `b` or `c``"""
    return _choices(tuple(values))


def _choices(values: tuple[Any, ...]) -> str:
    words = [f"`{flow(v)}`" for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def bounds(field: FieldInfo | None) -> tuple[Any, Any]:
    """The least and the greatest value a field allows (None: no bound)."""
    low = high = None
    for meta in field.metadata if field is not None else ():
        low = getattr(meta, "ge", None) if getattr(meta, "ge", None) is not None else low
        high = getattr(meta, "le", None) if getattr(meta, "le", None) is not None else high
    return low, high


def _bounds(field: FieldInfo | None) -> str:
    low, high = bounds(field)
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    return f" of at most {high}" if high is not None else ""


def expected(tp: Any, field: FieldInfo | None = None, holder: Any = None, key: Any = None) -> str:
    """What a value of type ``tp`` must be, as a noun phrase: "true or false", "a whole number from 2 to 12"."""
    if _is_model(holder) and (holder.__name__, key) in _PHRASES:
        return _PHRASES[(holder.__name__, key)]
    tp = _plain(tp)
    if members := _members(tp):
        if all(_is_model(m) and "kind" in m.model_fields for m in members):
            return f"a stage (a mapping with an `id` and a `kind`: {_choices(_STAGE_KINDS)})"
        return " or ".join(dict.fromkeys(expected(m) for m in members))
    origin, args = get_origin(tp), get_args(tp)
    if _is_rank(tp):
        return "a rank (2-9, 10 or T, J, Q, K, A)"
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number" + _bounds(field)
    if tp is float:
        return "a number"
    if tp is str:
        return "a text"
    if origin is Literal:
        return _choices(args) if len(args) == 1 else "one of " + _choices(args)
    if origin is dict:
        if args and _plain(args[1]) is str:
            return "a text per language"
        if args and get_origin(_plain(args[0])) is Literal:
            return f"a mapping whose keys are {_choices(get_args(_plain(args[0])))}"
        return "a mapping of ids to their rules"
    if origin in (list, tuple, set, frozenset):
        return "a list" + (f" of {_plural(expected(args[0]))}" if args else "")
    if _is_model(tp):
        return _NOUNS.get(tp.__name__, "a mapping")
    return "a value of another kind"


def _plural(phrase: str) -> str:
    """ "a rank (...)" -> "ranks (...)"; phrases without an article are kept."""
    match = re.match(r"(an?|one of) (\w+)(.*)", phrase)
    if not match or match[1] == "one of":
        return f"values that are each {phrase}"
    return f"{match[2]}s{match[3]}"


def flow(value: Any) -> str:
    """``value`` written as YAML on one line (flow style)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        plain = re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_ .'-]*", value) and value.strip() == value
        risky = value.lower() in ("yes", "no", "on", "off", "true", "false", "null", "y", "n")
        return value if plain and not risky and ": " not in value else json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return flow(str(value))


def example(tp: Any, field: FieldInfo | None = None, holder: Any = None, key: Any = None,
            written: Any = None, depth: int = 0) -> str:
    """A right value of type ``tp`` as one line of YAML; ``written`` (what the user wrote) is reused
    where it fits, e.g. a plain name becomes ``{en: "My Khrap"}``."""
    if _is_model(holder) and (holder.__name__, key) in _EXAMPLES:
        return _EXAMPLES[(holder.__name__, key)]
    tp = _plain(tp)
    default = _default(field)
    if members := _members(tp):
        if all(_is_model(m) and "kind" in m.model_fields for m in members):
            return "{id: play, kind: play}"
        return example(members[0], None, depth=depth)
    origin, args = get_origin(tp), get_args(tp)
    if _is_rank(tp):
        return "A"
    if tp is bool:
        return flow(default if isinstance(default, bool) else True)
    if tp is int:
        low = next((m.ge for m in (field.metadata if field else ()) if getattr(m, "ge", None) is not None), None)
        return flow(default if isinstance(default, int) and not isinstance(default, bool) else max(low or 1, 1))
    if tp is str:
        if key == "id":
            return "my-step"
        return flow(written) if isinstance(written, str) and written else '"..."'
    if origin is Literal:
        return flow(default if default in args else args[0])
    if origin is dict:
        if args and _plain(args[1]) is str:
            text = written if isinstance(written, str) and written.strip() else "..."
            return "{en: " + flow(text) + "}"
        return "{ID: {...}}"
    if origin in (list, tuple, set, frozenset):
        return "[" + (example(args[0], depth=depth + 1) if args and depth < 2 else "...") + "]"
    if _is_model(tp):
        return _model_example(tp, depth)
    return "..."


def _default(field: FieldInfo | None) -> Any:
    if field is None or field.is_required() or field.default_factory is not None:
        return None
    return field.default


def _model_example(model: type[BaseModel], depth: int) -> str:
    """``{a: 1, b: x}``: the required fields first, then fields with a plain default; two at most."""
    if depth >= 2:
        return "{...}"
    fields = sorted(model.model_fields.items(), key=lambda kv: not kv[1].is_required())
    parts = []
    for name, info in fields:
        simple = info.is_required() or isinstance(_default(info), (bool, int, str))
        if simple:
            parts.append(f"{name}: {example(info.annotation, info, model, name, depth=depth + 1)}")
        if len(parts) == 2:
            break
    if not parts and fields:
        name, info = fields[0]
        parts.append(f"{name}: {example(info.annotation, info, model, name, depth=depth + 1)}")
    return "{" + ", ".join(parts) + "}"
