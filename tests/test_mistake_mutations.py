"""Generated mistakes: the built-ins' own files, each broken in one place, get a message in a player's words.

Every mutation (a key misspelt, a value of the wrong type, an id misspelt where it is used) is written as the
user's file; the load must fail, and every line of the report must name that file and a line in it, and use
none of the libraries' wording (pydantic's "Input should be", PyYAML's "<block end>", ...).  The mutations are
sampled with a fixed seed, so that a run is the same every time and fits in a few seconds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from khrap.variant.catalog import builtin_names, load_variant, variants_dir
from khrap.variant.loader import VariantError, errors_of

# Phrases of pydantic and PyYAML that must never reach a player.
LIBRARY_WORDING = (
    "Input should", "Field required", "Extra inputs", "validation error", "pydantic", "instance of",
    "valid dictionary", "unable to parse", "unable to interpret", "Value error", "literal[", "function-after",
    "union_tag", "type=", "[key]", "<block", "mapping values are not allowed", "could not find expected",
    "found character", "while scanning", "while parsing", "but found", "Assertion failed", "model_type",
)
PER_KIND = 12  # mutations of each kind per built-in file (the whole space is a few thousand)
# Keys the player names freely: renaming one of them makes another valid file, not a mistake.
FREE_KEYS = ("instant_wins", "description", "name", "terms", "notes")
# Where a value is an id or word that must match one defined elsewhere (a call, a stage, a status, a rank...).
REFERENCE_KEYS = {"calls", "skip_stages", "statuses", "status", "kind", "rank", "suit", "turned_rank", "card",
                  "phase", "speakers", "start", "out_hands", "when", "source", "pay", "take_turned", "declarer"}
Loc = tuple[Any, ...]


def _walk(data: Any, loc: Loc = ()) -> Iterator[tuple[Loc, Any]]:
    yield loc, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _walk(value, loc + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _walk(value, loc + (i,))


def _typo(word: str) -> str:
    """A likely slip of the keyboard: two letters swapped, or one letter too many."""
    swapped = word[1] + word[0] + word[2:] if len(word) > 2 and word[0] != word[1] else ""
    return swapped or word + "x"


def _parent(data: Any, loc: Loc) -> Any:
    for comp in loc[:-1]:
        data = data[comp]
    return data


def _renamed_keys(data: dict) -> list[tuple[str, Any]]:
    out = []
    for loc, _ in _walk(data):
        if not loc or isinstance(loc[-1], int) or loc[0] == "extends" or any(k in FREE_KEYS for k in loc[:-1]):
            continue
        if loc[0] == "calls" and len(loc) == 2:
            continue  # a call id: renamed, it is another call (the "misspelt id" mutations cover references)
        out.append((f"key {'.'.join(map(str, loc))} renamed", ("rename", loc)))
    return out


def _wrong_types(data: dict) -> list[tuple[str, Any]]:
    out = []
    for loc, value in _walk(data):
        if not loc or loc[0] == "extends" or isinstance(value, (dict, list)):
            continue
        if isinstance(value, bool) or value is None:
            wrong: Any = "perhaps"
        elif isinstance(value, int):
            wrong = "lots"
        else:
            wrong = {"x": 1}
        out.append((f"{'.'.join(map(str, loc))} given {wrong!r}", ("set", loc, wrong)))
    return out


def _misspelt_ids(data: dict) -> list[tuple[str, Any]]:
    out = []
    for loc, value in _walk(data):
        named_by = next((k for k in reversed(loc) if isinstance(k, str)), None)
        if not isinstance(value, str) or named_by not in REFERENCE_KEYS or loc[0] == "extends":
            continue
        if any(k in ("description", "name") for k in loc):
            continue
        out.append((f"{'.'.join(map(str, loc))}: {value!r} misspelt", ("set", loc, _typo(value))))
    return out


def _apply(data: dict, mutation: Any) -> dict:
    data = yaml.safe_load(yaml.safe_dump(data))  # a deep copy
    if mutation[0] == "rename":
        loc = mutation[1]
        holder = _parent(data, loc)
        key = loc[-1]
        items = [(_typo(str(k)) if k == key else k, v) for k, v in holder.items()]
        holder.clear()
        holder.update(items)
    else:
        _, loc, value = mutation
        _parent(data, loc)[loc[-1]] = value
    return data


def _cases() -> list[Any]:
    rng = random.Random(17)
    cases = []
    for name in builtin_names():
        data = yaml.safe_load((variants_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
        for kind in (_renamed_keys, _wrong_types, _misspelt_ids):
            found = kind(data)
            for label, mutation in rng.sample(found, min(PER_KIND, len(found))):
                cases.append(pytest.param(name, mutation, id=f"{name}: {label}"))
    return cases


@pytest.mark.parametrize(("name", "mutation"), _cases())
def test_a_mutated_builtin_gets_located_words_for_players(tmp_path: Path, name: str, mutation: Any) -> None:
    data = yaml.safe_load((variants_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
    path = tmp_path / f"my-{name}.yaml"
    path.write_text(yaml.safe_dump(_apply(data, mutation), allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(str(path))
    for err in errors_of(info.value):
        line = str(err)
        assert err.path == str(path) and err.line is not None, line
        assert not [w for w in LIBRARY_WORDING if w in line], line
