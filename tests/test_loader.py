"""Tests for khrap.variant.loader, against toy models (the loader is model-agnostic); at the end, the
semantic checks of khrap.variant.checks as the loader reports them for real variant files."""

from __future__ import annotations

import random
import re
import time
import tracemalloc
from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from khrap.engine import GameState, Rules
from khrap.variant import catalog as real
from khrap.variant import loader
from khrap.variant.loader import (
    Limits,
    Marks,
    Origins,
    VariantError,
    did_you_mean,
    errors_of,
    load_data,
    locate_error,
    read_yaml,
    validate,
)
from tests.conftest import random_deal


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Deal(Strict):
    hand_size: int
    rounds: int = 1


class Card(Strict):
    name: str
    power: int = 0


class Amount(Strict):
    base: int = 0


class DrawRule(Strict):
    kind: Literal["draw"]
    count: int


class DiscardRule(Strict):
    kind: Literal["discard"]
    count: int
    at_end: bool = False


Rule = Annotated[DrawRule | DiscardRule, Field(discriminator="kind")]


class Toy(Strict):
    name: str
    players: int
    deal: Deal
    cards: list[Card] = []
    rules: list[Rule] = []
    scoring: dict[str, Card] = {}
    stake: Amount | Literal["pot"] = "pot"
    mode: Literal["fast", "slow"] = "fast"


GOOD = """\
name: toy
players: 4
deal:
  hand_size: 4
  rounds: 2
cards:
  - {name: ace, power: 11}
  - name: ten
    power: 10
rules:
  - kind: draw
    count: 1
  - kind: discard
    count: 2
"""


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def load_variant(ref: str | Path, catalog: Path) -> Toy:
    return validate(Toy, *load_data(ref, catalog))


def load(path: Path, catalog: Path | None = None) -> Toy:
    return load_variant(path, catalog or path.parent)


def fails(path: Path, catalog: Path | None = None) -> str:
    with pytest.raises(VariantError) as info:
        load(path, catalog)
    return str(info.value)


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    """A fake built-in catalog with two variants."""
    write(tmp_path / "cat" / "khrap.yaml", GOOD)
    write(tmp_path / "cat" / "frap.yaml", "extends: khrap\nname: frap\n")
    return tmp_path / "cat"


# --------------------------------------------------------------------------- VariantError, helpers


def test_error_formats() -> None:
    assert str(VariantError("bad", "f.yaml", 3, 7)) == "f.yaml:3:7: bad"
    assert str(VariantError("bad", "f.yaml")) == "f.yaml: bad"
    assert str(VariantError("bad")) == "bad"
    err = VariantError("bad", Path("f.yaml"), 3, 7)
    assert (err.message, err.path, err.line, err.col) == ("bad", "f.yaml", 3, 7)


def test_did_you_mean() -> None:
    assert did_you_mean("hand_sise", ["hand_size", "players"]) == "; did you mean 'hand_size'?"
    assert did_you_mean("zzz", ["hand_size", "players"]) == ""


def test_marks_locate_falls_back_to_ancestor(tmp_path: Path) -> None:
    _, marks = read_yaml(tmp_path / "x.yaml", "a:\n  b: [1, 2]\n")
    assert marks.locate(("a", "b", 1)) == (2, 10)
    assert marks.locate(("a", "b", 1, "nope", 3)) == (2, 10)
    assert marks.locate(("a", "zz")) == (2, 3)
    assert marks.key(("a", "b")) == (2, 3)
    assert marks.key(("a", "b", 0)) is None
    assert isinstance(marks, Marks)


# --------------------------------------------------------------------------- single files


def test_good_file_loads(tmp_path: Path) -> None:
    toy = load(write(tmp_path / "toy.yaml", GOOD))
    assert toy.deal.hand_size == 4
    assert [c.power for c in toy.cards] == [11, 10]
    assert isinstance(toy.rules[1], DiscardRule)


def test_unknown_key_with_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD.replace("  hand_size: 4", "  hand_sise: 4"))
    assert fails(path) == f"{path}:4:3: deal: unknown key 'hand_sise'; did you mean 'hand_size'?"


def test_unknown_top_level_key(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD + "playrs: 3\n")
    assert fails(path) == f"{path}:15:1: unknown key 'playrs'; did you mean 'players'?"


def test_unknown_key_without_close_match(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD + "zebra: 3\n")
    assert fails(path) == (f"{path}:15:1: unknown key 'zebra' (the keys here are: name, players, deal, cards, rules, "
                           "scoring, stake, mode, extends)")


def test_unknown_key_inside_discriminated_union_whose_tag_is_also_a_key(tmp_path: Path) -> None:
    # pydantic's loc is ('rules', 1, 'discard', 'cuont'): the tag must not be taken for a key
    path = write(tmp_path / "toy.yaml", GOOD.replace("    count: 2", "    cuont: 2"))
    assert fails(path) == f"{path}:14:5: rules[1]: unknown key 'cuont'; did you mean 'count'?"


def test_unknown_key_inside_smart_union_member(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD + "stake: {bsae: 2}\n")
    assert fails(path) == f"{path}:15:9: stake: unknown key 'bsae'; did you mean 'base'?"


def test_wrong_type_located(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD.replace("players: 4", "players: four"))
    assert fails(path) == f"{path}:2:10: players: must be a whole number, e.g. `players: 1`; got 'four'"


def test_wrong_type_in_list_item(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD.replace("power: 10", "power: high"))
    assert fails(path) == f"{path}:9:12: cards[1].power: must be a whole number, e.g. `power: 0`; got 'high'"


def test_literal_error_suggests(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD + "mode: fsat\n")
    assert fails(path) == f"{path}:15:7: mode: must be one of `fast` or `slow`; got 'fsat'; did you mean 'fast'?"


def test_bad_discriminator_value(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD.replace("kind: draw", "kind: darw"))
    assert fails(path) == (
        f"{path}:11:11: rules[0].kind: must be one of `draw` or `discard`; got 'darw'; did you mean 'draw'?"
    )


def test_missing_required_key(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD.replace("  hand_size: 4\n", ""))
    assert fails(path) == f"{path}:4:3: deal: `hand_size` is missing: add it, e.g. `hand_size: 1`"


def test_yaml_syntax_error_located(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", "name: toy\n  players: 4\n")
    assert fails(path) == (f"{path}:2:3: invalid YAML: this line is indented more than 'name' above it, which "
                           "already has a value on its own line: start 'players' in the same column as 'name'")


def test_duplicate_key(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", "name: a\nplayers: 2\nname: b\n")
    assert fails(path) == f"{path}:3:1: duplicate key 'name' (first at line 1)"


def test_duplicate_nested_key(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", "deal:\n  rounds: 1\n  rounds: 2\n")
    assert fails(path) == f"{path}:3:3: duplicate key 'rounds' (first at line 2)"


def test_not_utf8(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", b"name: toy\nplayers: caf\xe9\n")
    assert fails(path) == f"{path}:2:13: not UTF-8 text"


@pytest.mark.parametrize("text", ["", "   \n\n", "# only a comment\n", "---\n...\n"])
def test_empty_file(tmp_path: Path, text: str) -> None:
    path = write(tmp_path / "toy.yaml", text)
    assert fails(path) == f"{path}: file is empty"


def test_top_level_list(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", "# a list\n- name: toy\n")
    assert fails(path) == f"{path}:2:1: the top level must be a mapping of keys to values, got a list"


def test_control_character_located(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", "name: a\x07b\n")
    assert fails(path) == f"{path}:1:8: invalid character #x0007 (special characters are not allowed)"


def test_unsafe_tag_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", "name: !!python/object/apply:os.system [echo hi]\n")
    assert fails(path) == f"{path}:1:7: unsupported YAML tag '!!python/object/apply:os.system'"


def test_dates_stay_text(tmp_path: Path) -> None:
    data, _ = read_yaml(tmp_path / "x.yaml", "when: 2024-01-31\n")
    assert data == {"when": "2024-01-31"}


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    assert fails(path) == f"{path}: no such file"


def test_yaml_merge_keys(tmp_path: Path) -> None:
    text = "base: &b {hand_size: 4, rounds: 2}\ndeal:\n  <<: *b\n  rounds: 3\n"
    data, marks = read_yaml(tmp_path / "x.yaml", text)
    assert data["deal"] == {"rounds": 3, "hand_size": 4}
    assert marks.locate(("deal", "rounds")) == (4, 11)


# --------------------------------------------------------------------------- limits


def test_billion_laughs_refused_quickly(tmp_path: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    path = write(tmp_path / "bomb.yaml", "\n".join(lines) + "\n")
    tracemalloc.start()
    start = time.perf_counter()
    try:
        message = fails(path)
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert time.perf_counter() - start < 2
    assert peak < 20 * 1024 * 1024
    # uses are counted as expanded: b costs 10, each '*b' in c costs 11, so inside the
    # 9th '*b' (count 99) the 2nd '*a' of b's definition (line 2, col 12) is use 101
    assert message == f"{path}:2:12: too many alias expansions (more than 100)"


def test_recursive_alias_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "loop.yaml", "a: &x\n  - *x\n")
    assert fails(path) == f"{path}:2:5: recursive alias: an anchor may not contain an alias to itself"


def test_nesting_depth_200_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "deep.yaml", "x: " + "[" * 200 + "]" * 200 + "\n")
    # the root mapping is level 1, so the 64th '[' (column 3 + 64) is level 65
    assert fails(path) == f"{path}:1:67: nesting too deep (more than 64 levels)"


def test_nesting_depth_64_allowed(tmp_path: Path) -> None:
    data, _ = read_yaml(tmp_path / "x.yaml", "x: " + "[" * 63 + "]" * 63 + "\n")
    assert "x" in data


def test_two_mib_file_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "big.yaml", "name: toy\n" + "# padding\n" * (2 * 1024 * 1024 // 10))
    assert fails(path) == f"{path}: file is too large (the limit is 256 KiB)"


def test_too_many_nodes_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limits = Limits(file_bytes=256 * 1024, chain_bytes=384 * 1024, depth=64, aliases=100, nodes=50_000, chain=16)
    assert limits == loader.LIMITS
    monkeypatch.setattr(loader, "LIMITS", Limits(nodes=1000))  # the real limit takes seconds to reach
    path = write(tmp_path / "wide.yaml", "x: [" + "0, " * 2000 + "]\n")
    # node 1 is the root mapping, 2 the key, 3 the list: item 998 (0-based 997) is node 1001
    assert fails(path) == f"{path}:1:{5 + 3 * 997}: too many YAML nodes (more than 1000)"


def test_alias_expansion_counts_nodes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "LIMITS", Limits(nodes=1000))
    items = ", ".join(["0"] * 300)
    path = write(tmp_path / "wide.yaml", f"a: &a [{items}]\nb: [*a, *a, *a]\n")
    # built: root, a (301 nodes), b, then 301 per '*a': the third reaches 1001 at a's item 94
    assert fails(path) == f"{path}:1:{8 + 3 * 94}: too many YAML nodes after alias expansion (more than 1000)"


# --------------------------------------------------------------------------- extends


def test_extends_relative_path(tmp_path: Path) -> None:
    write(tmp_path / "sub" / "base.yaml", GOOD)
    child = write(tmp_path / "child.yaml", "extends: sub/base.yaml\nname: child\n")
    toy = load(child, tmp_path / "empty")
    assert (toy.name, toy.players) == ("child", 4)


def test_extends_outside_the_folder_only_when_allowed(tmp_path: Path) -> None:
    """A file names files in its own folder or below; a parent folder only with --allow-outside."""
    write(tmp_path / "base.yaml", GOOD)
    child = write(tmp_path / "sub" / "child.yaml", "extends: ../base.yaml\nname: child\n")
    assert fails(child).startswith(f"{child}:1:10: extends: '../base.yaml' is outside the folder")
    with loader.trusting(loader.ANYWHERE):
        toy = load(child, tmp_path / "empty")
    assert (toy.name, toy.players) == ("child", 4)


def test_extends_builtin_name(tmp_path: Path, catalog: Path) -> None:
    child = write(tmp_path / "mine.yaml", "extends: khrap\nplayers: 5\n")
    data, _ = load_data(child, catalog)
    assert "extends" not in data
    assert (data["name"], data["players"]) == ("toy", 5)


def test_builtin_name_as_ref(catalog: Path) -> None:
    toy = load_variant("frap", catalog)
    assert (toy.name, toy.players) == ("frap", 4)


def test_unknown_builtin_ref() -> None:
    with pytest.raises(VariantError) as info:
        load_data("khrapp", Path(__file__).parent / "no-catalog")
    assert str(info.value) == "unknown built-in variant 'khrapp'"


def test_unknown_builtin_in_extends(tmp_path: Path, catalog: Path) -> None:
    child = write(tmp_path / "mine.yaml", "name: x\nextends: khrpa\n")
    assert fails(child, catalog) == f"{child}:2:10: unknown built-in variant 'khrpa'; did you mean 'khrap'?"


def test_extends_missing_file(tmp_path: Path) -> None:
    child = write(tmp_path / "mine.yaml", "extends: gone.yaml\n")
    assert fails(child) == f"{child}:1:10: extends: no such file 'gone.yaml' (looked for {tmp_path / 'gone.yaml'})"


def test_extends_must_be_text(tmp_path: Path) -> None:
    child = write(tmp_path / "mine.yaml", "extends: [a, b]\n")
    assert fails(child) == f"{child}:1:10: extends must be a built-in variant name or a file path, got a list"


def test_chain_of_three(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", GOOD)
    write(tmp_path / "b.yaml", "extends: a.yaml\nplayers: 3\ndeal: {rounds: 5}\n")
    c = write(tmp_path / "c.yaml", "extends: b.yaml\nname: c\ndeal: {hand_size: 6}\n")
    toy = load(c)
    assert (toy.name, toy.players, toy.deal) == ("c", 3, Deal(hand_size=6, rounds=5))


def test_child_overrides_one_nested_key(tmp_path: Path) -> None:
    write(tmp_path / "base.yaml", GOOD)
    child = write(tmp_path / "child.yaml", "extends: base.yaml\ndeal:\n  rounds: 9\n")
    data, _ = load_data(child, tmp_path)
    assert data["deal"] == {"hand_size": 4, "rounds": 9}
    assert list(data) == ["name", "players", "deal", "cards", "rules"]


def test_list_replaced_wholesale(tmp_path: Path) -> None:
    write(tmp_path / "base.yaml", GOOD)
    child = write(tmp_path / "child.yaml", "extends: base.yaml\ncards:\n  - name: joker\n")
    assert load(child).cards == [Card(name="joker")]


def test_error_in_inherited_value_points_into_parent(tmp_path: Path) -> None:
    base = write(tmp_path / "base.yaml", GOOD.replace("rounds: 2", "rounds: many"))
    child = write(tmp_path / "child.yaml", "extends: base.yaml\ndeal:\n  hand_size: 5\n")
    assert fails(child) == f"{base}:5:11: deal.rounds: must be a whole number, e.g. `rounds: 1`; got 'many'"


def test_error_in_override_points_into_child(tmp_path: Path) -> None:
    write(tmp_path / "base.yaml", GOOD)
    child = write(tmp_path / "child.yaml", "extends: base.yaml\ndeal:\n  hand_size: lots\n")
    assert fails(child) == f"{child}:3:14: deal.hand_size: must be a whole number, e.g. `hand_size: 1`; got 'lots'"


def test_unknown_key_in_parent_located_at_its_key(tmp_path: Path) -> None:
    base = write(tmp_path / "base.yaml", GOOD.replace("  rounds: 2", "  rouns: 2"))
    child = write(tmp_path / "child.yaml", "extends: base.yaml\nname: c\n")
    assert fails(child) == f"{base}:5:3: deal: unknown key 'rouns'; did you mean 'rounds'?"


def test_misspelt_extends_suggested(tmp_path: Path) -> None:
    path = write(tmp_path / "toy.yaml", GOOD + "extnds: base.yaml\n")
    assert fails(path) == f"{path}:15:1: unknown key 'extnds'; did you mean 'extends'?"


def test_extends_cycle(tmp_path: Path) -> None:
    a = write(tmp_path / "a.yaml", "extends: b.yaml\nname: a\n")
    b = write(tmp_path / "b.yaml", "name: b\nextends: a.yaml\n")
    assert fails(a) == f"{b}:2:10: extends cycle: a.yaml -> b.yaml -> a.yaml"


def test_self_extends(tmp_path: Path) -> None:
    a = write(tmp_path / "a.yaml", "name: a\nextends: ./a.yaml\n")
    assert fails(a) == f"{a}:2:10: extends cycle: a.yaml -> a.yaml"


def test_chain_depth_limit(tmp_path: Path) -> None:
    write(tmp_path / "f0.yaml", GOOD)
    for i in range(1, 18):
        write(tmp_path / f"f{i}.yaml", f"extends: f{i - 1}.yaml\n")
    assert load(tmp_path / "f15.yaml").name == "toy"  # 16 files
    assert fails(tmp_path / "f16.yaml") == f"{tmp_path / 'f1.yaml'}:1:10: extends chain too long (more than 16 files)"


# --------------------------------------------------------------------------- later checks


def test_locate_error_for_semantic_checks(tmp_path: Path) -> None:
    base = write(tmp_path / "base.yaml", GOOD)
    child = write(tmp_path / "child.yaml", "extends: base.yaml\nplayers: 9\n")
    data, origins = load_data(child, tmp_path)
    toy = validate(Toy, data, origins)
    assert toy.players == 9
    assert str(locate_error(origins, ("players",), "too many")) == f"{child}:2:10: too many"
    assert str(locate_error(origins, ("cards", 1, "power"), "too strong")) == f"{base}:9:12: too strong"
    assert str(locate_error(origins, ("deal", "hand_size"), "bad", key=True)) == f"{base}:4:3: bad"


def test_validate_single_file_with_origins_for_file(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    data, marks = read_yaml(path, GOOD.replace("count: 1", "count: one"))
    with pytest.raises(VariantError) as info:
        validate(Toy, data, Origins.for_file(path, marks))
    assert str(info.value) == f"{path}:12:12: rules[0].count: must be a whole number, e.g. `count: 1`; got 'one'"


def test_latest_of_several_locations_is_the_one_the_child_wrote(tmp_path: Path) -> None:
    write(tmp_path / "base.yaml", GOOD)
    child = write(tmp_path / "child.yaml", "extends: base.yaml\ndeal:\n  rounds: 3\n")
    _, origins = load_data(child, tmp_path)
    assert origins.latest([("deal", "hand_size"), ("deal", "rounds")]) == ("deal", "rounds")
    assert origins.latest([("deal", "rounds"), ("deal", "hand_size")]) == ("deal", "rounds")
    # a default no file writes belongs to the file that wrote its mapping, but a written value wins
    assert origins.latest([("deal", "players"), ("deal", "rounds")]) == ("deal", "rounds")
    assert origins.latest([("name",), ("cards", 1, "power")]) == ("name",)  # both the parent's: the first


# --------------------------------------------------------------------------- checks of real variants

HOUSE_FILES = [
    *sorted((Path(__file__).parents[1] / "docs" / "house-rules").glob("*.yaml")),
    *sorted((Path(__file__).parents[1] / "tests" / "house-variants").glob("*.yaml")),
]
KHRAP_STAGES = """\
stages:
  - {{id: bidding, kind: calls, phase: bidding, speakers: {speakers}, start: dealer_left,
     calls: [khrap, help, merry, sad, wrap, helicopter, pass], out_hands: at_end}}
  - {{id: fives, kind: calls, phase: offers, speakers: out, start: declarer_left, calls: [take-five, pass]}}
  - {{id: exchange, kind: exchange}}
  - {{id: four-aces-check, kind: instant_wins}}
  - {{id: play, kind: play}}
"""
SHOOT_STAGES = """\
stages:
  - {id: declare, kind: calls, calls: [snore, helicopter, shoot, wrap, pass]}
  - {id: answers, kind: calls, speakers: others, start: declarer_left, calls: [help, pass]}
  - {id: offers, kind: calls, speakers: out, start: declarer_left, calls: [five, fold], out_hands: on_call}
  - {id: exchange, kind: exchange, order: [{statuses: [declarer]}, {statuses: [helper]}]}
  - {id: play, kind: play}
"""
SNORE_STAGES = """\
stages:
  - {id: bidding, kind: calls, calls: [snore, whist, pass]}
  - {id: whist, kind: calls, speakers: others, start: declarer_left, calls: [whist, pass]}
  - {id: cut, kind: calls, speakers: out, start: declarer_left, calls: [cut, pass], out_hands: on_call}
  - {id: buying, kind: exchange, order: [{statuses: [declarer]}, {statuses: [helper]}], max_discard: 2}
  - {id: name-trump, kind: name_trump}
  - {id: play, kind: play}
"""
# khrap with a deferred merry (with the trump king) that a wrap or a helicopter may override
DEFERRED_MERRY = (
    "extends: khrap\noverridden_becomes: {becomes}\ncalls:\n"
    "  merry:\n    requires: {{holds: [{{rank: K, suit: trump}}]}}\n"
    "    effects: {{keep: [{{rank: K, suit: trump}}], when: exchange}}\n"
    "  helicopter:\n    effects: {{skip_stages: [fives]}}\n"
)
# house rules the kernel cannot play: (file text, line:col of the message in that file, message)
UNPLAYABLE = {
    "skip-the-name-trump-stage": (
        "extends: snore\ncalls:\n  snore:\n    effects: {skip_stages: [name-trump]}\n", "4:29",
        "call 'snore' skips stage 'name-trump' (`skip_stages`), where the declarer names trump (`kind: name_trump`), "
        "but this variant has no other trump (`trump.source: named`), so the deal would be played with no trump at "
        "all: remove 'name-trump' from `skip_stages`",
    ),
    "named-trump-with-no-stage-to-name-it": (
        "extends: snore\n" + SNORE_STAGES.replace("  - {id: name-trump, kind: name_trump}\n", ""), "3:3",
        "trump is named by the declarer (`trump.source: named`), but no stage lets him name it (`kind: name_trump`), "
        "so the deal would be played with no trump at all: add `{id: name-trump, kind: name_trump}` to the stages "
        "before the play stage, or write `trump.source: turned`",
    ),
    "turned-trump-named-again": (
        "extends: khrap\n" + KHRAP_STAGES.format(speakers="all").replace(
            "  - {id: play", "  - {id: name-trump, kind: name_trump}\n  - {id: play"), "8:28",
        "stage 'name-trump' lets the declarer name trump (`kind: name_trump`), but trump is the turned card "
        "(`trump.source: turned`), so naming a suit would change trump after the calls were made under the turned "
        "one: remove stage 'name-trump', or write `trump.source: named`",
    ),
    "declarer-may-help-later": (
        "extends: khrap-shoot\n" + SHOOT_STAGES.replace("speakers: others, start: declarer_left, calls: [help, pass]",
                                                         "speakers: all, start: declarer_left, calls: [help]"),
        "4:42",
        "call 'help' makes its caller a helper (`status: helper`), and stage 'answers' asks the declarer too "
        "(`speakers: all`): a declarer who says it stays the deal's declarer, who leads to the first trick and whose "
        "call orders the exchange, yet his status is helper, so nobody plays for the declarer's tricks: write "
        "`speakers: others` or `speakers: out` in stage 'answers'",
    ),
    "reserving-declarer-overridden-out": (
        "extends: khrap\noverridden_becomes: out\ncalls:\n  khrap:\n    exchange: {min_discard: 1}\n"
        "  helicopter:\n    effects: {skip_stages: [fives]}\n", "2:21",
        "call 'khrap' reserves draws for its caller's exchange turn (`exchange: {min_discard: 1}`), but call 'merry', "
        "which may be said after it in the same deal, overrides its caller (`override: true`) and puts him out "
        "(`overridden_becomes: out`), and players who are out have no exchange turn, so that exchange would never "
        "happen and the draws it reserves would stay reserved for the rest of the deal: write `overridden_becomes: "
        "helper`, or write `min_discard: 0`",
    ),
    "deferred-declarer-overridden-out": (
        DEFERRED_MERRY.format(becomes="out"), "2:21",
        "call 'merry' waits for its caller's exchange turn (`when: exchange`), but call 'wrap', which may be said "
        "after it in the same deal, overrides its caller (`override: true`) and puts him out (`overridden_becomes: "
        "out`), and players who are out have no exchange turn, so its cards would never move and the draws it "
        "reserves would stay reserved for the rest of the deal: write `overridden_becomes: helper`, or write "
        "`when: now`",
    ),
    "deferred-swap": (
        "extends: khrap-shoot\ncalls:\n  wrap:\n    effects: {when: exchange}\n", "4:21",
        "call 'wrap' takes the turned card (`take_turned: swap`) only at the exchange (`when: exchange`), but the "
        "hand position named with the call is not kept until then: write `when: now`, or `take_turned: no`",
    ),
    "deferred-optional-take": (
        "extends: frap\ncalls:\n  cut:\n    effects: {when: exchange}\n", "4:21",
        "call 'cut' takes the turned card (`take_turned: optional`) only at the exchange (`when: exchange`), but the "
        "choice made with the call (`CALL trump`) is not kept until then: write `when: now`, or `take_turned: no`",
    ),
    "deferred-take": (  # `when: exchange` comes from the parent: the message points at what the child wrote
        'extends: khrap-shoot\ncalls:\n  five:\n    effects: {take_turned: "yes", draw: 4}\n', "4:28",
        "call 'five' takes the turned card (`take_turned: yes`) only at the exchange (`when: exchange`), but "
        "another call may take the card first: write `when: now`, or `take_turned: no`",
    ),
    "swap-after-throwing-the-hand": (
        "extends: khrap-shoot\ncalls:\n  wrap:\n    effects: {discard_hand: true, draw: 4}\n", "4:29",
        "call 'wrap' swaps the turned card for a named hand position (`take_turned: swap`) after throwing the hand "
        "(`discard_hand: true`), so the position names a thrown card: write `take_turned: yes` (the card joins "
        "the new hand), or `discard_hand: false`",
    ),
    "out-owing-a-discard-as-the-hand-is-thrown": (
        "extends: frap\ncalls:\n  cut:\n    effects: {status: out}\n", "4:23",
        "call 'cut' puts its caller out owing 1 discard (`then_discard: 1`), but stage 'cut' throws his hand as he "
        "goes out (`out_hands: on_call`), so he would have no card to discard and no legal action: write "
        "`then_discard: 0` (an out player's cards are not played), or `out_hands: at_end` in stage 'cut'",
    ),
    "out-owing-a-discard-after-the-hand-was-thrown": (
        "extends: khrap\ncalls:\n  pass:\n    effects: {then_discard: 1}\n", "4:29",
        "call 'pass' puts its caller out owing 1 discard (`then_discard: 1`), but stage 'fives' asks players who "
        "are out (`speakers: out`), whose hands stage 'bidding' may have thrown, so he could have no card to "
        "discard and no legal action: write `then_discard: 0` (an out player's cards are not played)",
    ),
    "out-owing-a-discard-after-throwing-it": (
        "extends: khrap\ncalls:\n  pass:\n    effects: {discard_hand: true, then_discard: 2}\n", "4:49",
        "call 'pass' puts its caller out owing 2 discards (`then_discard: 2`), but it throws his hand "
        "(`discard_hand: true`) and leaves him no card to discard and no legal action: write `then_discard: 0` "
        "(an out player's cards are not played)",
    ),
    "instant-win-id-of-two-words": (
        "extends: khrap\ninstant_wins:\n  two aces: {name: {en: Two aces}, rank: A, count: 2}\n", "3:13",
        "instant win id 'two aces' must be one word (e.g. 'two-aces')",
    ),
    "declarer-may-pass-himself-out-later": (
        "extends: khrap\n"
        + KHRAP_STAGES.format(speakers="all").replace("offers, speakers: out", "offers, speakers: all")
        .replace("[take-five, pass]", "[pass, take-five]"),  # the first refused call: pass
        "5:55",
        "call 'pass' puts its caller out, and stage 'fives' asks the declarer too (`speakers: all`): a declarer who "
        "says it stays the deal's declarer and leads to the first trick, yet he is no longer among the players in "
        "play, so the tricks cannot be played: write `speakers: others` or `speakers: out` in stage 'fives'",
    ),
    "first-stage-asks-nobody": (
        "extends: khrap\n" + KHRAP_STAGES.format(speakers="out"), "3:58",
        "stage 'bidding' asks only players who are out (`speakers: out`), but nobody is out when a deal begins, so "
        "nobody is asked and every deal passes out and is dealt again, forever: write `speakers: all` (or "
        "`others`) in the first calls stage",
    ),
    "skip-the-play": (
        "extends: khrap\ncalls:\n  helicopter:\n    effects: {skip_stages: [exchange, play]}\n", "4:39",
        "call 'helicopter' skips the play stage 'play' (`skip_stages`), but a deal ends only when its tricks are "
        "played (or by an instant win): remove 'play' from `skip_stages`",
    ),
    "skip-the-stage-it-is-said-in": (  # a pass that skips the bidding left the deal with no declarer
        "extends: khrap-52\ncalls:\n  pass:\n    effects: {skip_stages: [bidding]}\n", "4:29",
        "call 'pass' skips stage 'bidding' (`skip_stages`), which does not come after stage 'bidding' where the call "
        "is said: a stage is skipped when the deal comes to it, so this one would stop at once without its ending (no "
        "all-pass round while nobody has declared, no out players' hands thrown) and the deal could go on with no "
        "declarer: skip only stages after 'bidding', or write `ends_stage: true` to end the stage it is said in",
    ),
    "skip-a-stage-already-run": (
        "extends: khrap\ncalls:\n  take-five:\n    effects: {skip_stages: [bidding]}\n", "4:29",
        "call 'take-five' skips stage 'bidding' (`skip_stages`), which does not come after stage 'fives' where the "
        "call is said: that stage has run when the call is said, so the skip does nothing: skip only stages after "
        "'fives'",
    ),
    "declarer-goes-out-throwing-his-hand": (
        "extends: khrap-shoot\ncalls:\n  fold:\n    effects: {status: out, discard_hand: true}\n"
        + SHOOT_STAGES.replace("speakers: others, start: declarer_left, calls: [help, pass]",
                               "speakers: all, start: declarer_left, calls: [fold]")
        .replace("order: [{statuses: [declarer]}", "order: [{calls: [five]}, {statuses: [declarer]}"), "7:42",
        "call 'fold' puts its caller out, and stage 'answers' asks the declarer too (`speakers: all`): a declarer who "
        "says it stays the deal's declarer and leads to the first trick, but the call throws his hand "
        "(`discard_hand: true`), so he could lead with no card and have no legal action: write `speakers: others` "
        "in stage 'answers', or `discard_hand: false`",
    ),
    "keeping-cards-not-required": (
        "extends: khrap\ncalls:\n  merry:\n    requires: {holds: []}\n", "4:23",
        "call 'merry' throws the hand but for cards it keeps (`keep`) without requiring them (`requires.holds`), so "
        "a caller who lacks them is left with 3 cards, not the hand size 4, and play could find him with no card to "
        "play: list every kept card in `requires.holds` too",
    ),
    "out-players-offered-help-after-their-hands-were-thrown": (
        "extends: khrap\n"
        + KHRAP_STAGES.format(speakers="all").replace("[take-five, pass]", "[take-five, help, pass]"), "5:101",
        "stage 'fives' offers call 'help' to players who are out (`speakers: out`), whose hands stage 'bidding' may "
        "have thrown, but the call puts its caller in play (`status: helper`) without throwing the hand and drawing "
        "a whole new one, so he could play with no card and find no legal action: give 'help' `discard_hand: true` "
        "and draws that make a hand of 4 (as 'take-five' does), or do not offer it in stage 'fives'",
    ),
    "deferred-call-of-an-out-player": (
        "extends: khrap-shoot\ncalls:\n  five:\n    effects: {status: out}\n", "4:23",
        "call 'five' waits for its caller's exchange turn (`when: exchange`), but it puts him out, and players who "
        "are out have no exchange turn, so its cards would never move and the draws it reserves would stay reserved "
        "for the rest of the deal: write `when: now`, or give the call a status in play (`status: helper`)",
    ),
    "reserved-exchange-of-an-out-player": (
        "extends: khrap-shoot\ncalls:\n  fold:\n    exchange: {min_discard: 1}\n", "4:29",
        "call 'fold' reserves draws for its caller's exchange turn (`exchange: {min_discard: 1}`), but it puts him "
        "out, and players who are out have no exchange turn, so that exchange would never happen and the draws it "
        "reserves would stay reserved for the rest of the deal: write `min_discard: 0`, or give the call a status "
        "in play (`status: helper`)",
    ),
    "deferred-call-after-the-exchange": (  # the stages of SHOOT_STAGES with the exchange before the offers
        "extends: khrap-shoot\n" + "".join(SHOOT_STAGES.splitlines(True)[k] for k in (0, 1, 2, 4, 3, 5)),
        "6:76",
        "call 'five' waits for its caller's exchange turn (`when: exchange`), but stage 'offers' offers it after the "
        "last exchange stage, so its cards would never move and the draws it reserves would stay reserved for the "
        "rest of the deal: write `when: now`, or offer it in a stage before an exchange stage",
    ),
    "exchange-skipped-while-a-shoot-waits-for-it": (
        "extends: khrap-shoot\ncalls:\n  help:\n    effects: {skip_stages: [exchange]}\n", "4:29",
        "call 'shoot' reserves draws for its caller's exchange turn (`exchange: {min_discard: 3}`), but call 'help', "
        "which may be said in the same deal, skips exchange stage 'exchange' (`skip_stages`), so that exchange would "
        "never happen and the draws it reserves would stay reserved for the rest of the deal: take 'exchange' out of "
        "the `skip_stages` of 'help', or write `min_discard: 0`",
    ),
    "deferred-call-with-no-exchange-turn": (
        "extends: khrap-shoot\n" + SHOOT_STAGES.replace("{statuses: [declarer]}, {statuses: [helper]}",
                                                         "{statuses: [declarer]}"), "6:43",
        "call 'five' waits for its caller's exchange turn (`when: exchange`), but exchange stage 'exchange', the "
        "next after stage 'offers' where it is said, gives its caller no turn (neither status 'helper' nor call "
        "'five' is in its `order`), so its cards would never move and the draws it reserves would stay reserved for "
        "the rest of the deal: add `{calls: [five]}` to that order, or write `when: now`",
    ),
}
# near them, house rules the kernel plays: they must stay valid
PLAYABLE = {
    "skip-a-stage-before-naming-trump": "extends: snore\ncalls:\n  snore:\n    effects: {skip_stages: [cut]}\n",
    "named-trump-named-in-its-stage": "extends: snore\n" + SNORE_STAGES,
    "helpers-asked-without-the-declarer": "extends: khrap-shoot\n" + SHOOT_STAGES.replace(
        "calls: [help, pass]", "calls: [help]"),
    "deferred-declarer-overridden-helps": DEFERRED_MERRY.format(becomes="helper"),
    "out-owing-a-discard-before-the-stage-ends": (
        "extends: frap\ncalls:\n  cut:\n    effects: {status: out}\n"
        "stages:\n  - {id: bidding, kind: calls, calls: [frap, blind-frap, whist, pass]}\n"
        "  - {id: whist, kind: calls, speakers: others, start: declarer_left, calls: [whist, pass]}\n"
        "  - {id: buying, kind: exchange, order: [{statuses: [declarer]}, {statuses: [helper]}], max_discard: 4}\n"
        "  - {id: cut, kind: calls, speakers: out, start: declarer_left, calls: [cut, pass], out_hands: at_end}\n"
        "  - {id: play, kind: play}\n"
    ),
    "first-stage-asks-others": "extends: khrap\n" + KHRAP_STAGES.format(speakers="others"),
    "swap-keeping-the-hand": 'extends: khrap-shoot\ncalls:\n  wrap:\n    effects: {when: now}\n',
    "skip-later-stages": (
        "extends: khrap\ncalls:\n  helicopter:\n    effects: {skip_stages: [fives, exchange, four-aces-check]}\n"
    ),
    "keeping-required-cards": (
        "extends: khrap\ncalls:\n  merry:\n    requires: {holds: [{rank: A}, {rank: K}]}\n"
        "    effects: {keep: [{rank: A}, {rank: K}], draw: 3}\n"
    ),
    "out-players-offered-help-with-their-hands-kept": "extends: khrap\n" + KHRAP_STAGES.format(speakers="all")
    .replace("[take-five, pass]", "[take-five, help, pass]").replace("out_hands: at_end", "out_hands: keep"),
    "deferred-call-with-a-status-turn": "extends: khrap-shoot\n" + SHOOT_STAGES,
}


@pytest.mark.parametrize("case", sorted(UNPLAYABLE))
def test_unplayable_house_rule_refused_with_its_place_and_fix(tmp_path: Path, case: str) -> None:
    text, where, message = UNPLAYABLE[case]
    path = write(tmp_path / f"{case}.yaml", text)
    with pytest.raises(VariantError) as info:
        real.load_variant(str(path))
    # the first mistake in file order, without the notes added to every message (the sheet's name of a stage,
    # the inherited values a house rule clashes with), which tests/test_house_rule_mistakes.py checks
    assert without_notes(str(errors_of(info.value)[0])) == f"{path}:{where}: {message}"


def without_notes(message: str) -> str:
    message = re.sub(r" \(“[^”]+”, step \d+(?: of '[^']+')?\)", "", message)
    return re.sub(r" \(inherited: [^()]*(?:\([^()]*\)[^()]*)*\)$", "", message)


def test_unplayable_rule_inherited_whole_points_into_the_parent(tmp_path: Path) -> None:
    parent = write(tmp_path / "frap-cut-out.yaml", UNPLAYABLE["out-owing-a-discard-as-the-hand-is-thrown"][0])
    child = write(tmp_path / "child.yaml", "extends: frap-cut-out.yaml\nallow_debt: false\n")
    with pytest.raises(VariantError) as info:
        real.load_variant(str(child))
    assert str(info.value).startswith(f"{parent}:4:23: call 'cut' puts its caller out owing 1 discard")
    assert str(info.value).endswith(f"(inherited by {child})")


def test_unplayable_rule_made_by_a_list_points_at_the_list_item(tmp_path: Path) -> None:
    """The parent makes `cut` an out call owing a discard; the child's list of stages throws hands on the call."""
    parent_text = PLAYABLE["out-owing-a-discard-before-the-stage-ends"]
    write(tmp_path / "parent.yaml", parent_text)
    stages = parent_text[parent_text.index("stages:"):].replace("out_hands: at_end", "out_hands: on_call")
    child = write(tmp_path / "child.yaml", "extends: parent.yaml\n" + stages)
    with pytest.raises(VariantError) as info:
        real.load_variant(str(child))
    assert str(info.value).startswith(f"{child}:6:96: call 'cut' puts its caller out owing 1 discard")


@pytest.mark.parametrize("case", sorted(PLAYABLE))
def test_playable_neighbours_stay_valid_and_play(tmp_path: Path, case: str) -> None:
    variant = real.load_variant(str(write(tmp_path / f"{case}.yaml", PLAYABLE[case])))
    for players in (2, 4):
        state = GameState(Rules(variant, players), players, seed=3)
        rng = random.Random(3)
        total, cards = state.total_chips, len(state.rules.deck)

        def conserved(s, total: int = total, cards: int = cards) -> None:
            assert s.chips_in_play() + s.house == total and s.cards_in_play() == cards

        played = sum(random_deal(state, rng, conserved) > 0 for _ in range(8))
        assert played == 8, f"{case}: the session ended after {played} deals at {players} players"


@pytest.mark.parametrize("ref", [*real.builtin_names(), *map(str, HOUSE_FILES)])
def test_builtin_and_house_rule_files_pass_every_check(ref: str) -> None:
    assert real.load_variant(ref)
