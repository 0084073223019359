"""How a house rule merges with the variant it extends, on the built-ins (README, "House rules"):
mappings merge key by key, in the parent's order; any other value (null, a list, a number) replaces the
parent's value whole."""

from __future__ import annotations

from pathlib import Path

from khrap.variant import catalog


def load(tmp_path: Path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return catalog.load_variant(str(path))


def test_null_removes_the_parents_joker(tmp_path: Path) -> None:
    """student-snore has the seven of spades as joker; `joker: null` plays without one."""
    assert catalog.builtin("student-snore").joker is not None
    assert load(tmp_path, "extends: student-snore\njoker: null\n").joker is None


def test_a_mapping_merges_key_by_key(tmp_path: Path) -> None:
    """Changing the joker's led_demands keeps the parent's joker card."""
    joker = load(tmp_path, "extends: student-snore\njoker: {led_demands: trump}\n").joker
    assert (joker.card, joker.led_demands) == ("7S", "trump")


def test_a_list_replaces_the_parents_list(tmp_path: Path) -> None:
    """khrap's stages with the child's list of three: the fives and the instant-win check are gone."""
    variant = load(tmp_path, "extends: khrap\nstages:\n"
                   "  - {id: bidding, kind: calls, calls: [khrap, help, merry, sad, wrap, helicopter, pass]}\n"
                   "  - {id: exchange, kind: exchange}\n  - {id: play, kind: play}\n"
                   "calls: {helicopter: {effects: {skip_stages: [exchange]}}, take-five: {enabled: false}}\n"
                   "play: {first_lead: {calls: []}}\n")
    assert [s.id for s in variant.stages] == ["bidding", "exchange", "play"]


def test_a_number_replaces_the_parents(tmp_path: Path) -> None:
    assert load(tmp_path, "extends: khrap\nbase_stake: 3\n").base_stake == 3


def test_merged_keys_keep_the_parents_order(tmp_path: Path) -> None:
    """Calls changed in another order stay where the parent lists them; a new call comes last."""
    variant = load(tmp_path, "extends: khrap\ncalls:\n  pass: {description: {en: Out.}}\n"
                   "  khrap: {description: {en: Declare.}}\n"
                   "  nap: {name: {en: Nap}, effects: {status: out}}\n")
    assert list(variant.calls) == [*catalog.builtin("khrap").calls, "nap"]
    assert variant.calls["pass"].description["en"] == "Out."
    parent_name = catalog.builtin("khrap").calls["pass"].name
    assert parent_name["en"] == "Pass" and parent_name["ru"] == "Пас"
    assert variant.calls["pass"].name == parent_name  # merged: the name is the parent's, every language of it


def test_a_house_rules_name_is_its_own_in_every_language(tmp_path: Path) -> None:
    """A name given in English alone is the house rule's in Lithuanian too (the sheet's and the table's title read
    English where a language is not given): merged key by key, a Lithuanian table of "Friday khrap" was headed by
    the built-in's "Knarkimas", over a box saying it plays differently from "Knarkimas"."""
    from khrap.rulebook.render import localized

    variant = load(tmp_path, "extends: khrap\nname: {en: Friday khrap, ru: Пятничный храп}\nbase_stake: 2\n")
    assert variant.name == {"en": "Friday khrap", "ru": "Пятничный храп"}
    assert localized(variant.name, "lt") == "Friday khrap"
    # a file with no name keeps its parent's, in every language
    assert load(tmp_path, "extends: khrap\nbase_stake: 2\n").name == catalog.builtin("khrap").name
