"""Fair deals and records: a finished web session downloads as a record that ``khrap replay`` tells and
``khrap verify`` checks; a changed seed, commitment or deck is caught.  And the page's words are all
translated into Russian, with the same placeholders."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

from khrap.fairness import commitment, deck_from_seed, verify_record
from khrap.variant.catalog import builtin
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds


def finished_table(deals: int = 3) -> Table:
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=3, stacks=50, base_stake=1,
                         bots={1: "rule", 2: "rule"}, deals=deals, seed_source=fixed_seeds("record"), session_seed=1)
    while not table.finished:
        table.start_deal()
        while table.in_deal:
            seat = table.session.to_act
            table.apply(seat, table.bot_action(seat, "rule"))
    return table


def test_the_deck_of_a_seed_is_a_fixed_shuffle() -> None:
    canonical = list(range(36))
    seed = "00" * 32
    deck = deck_from_seed(canonical, seed)
    assert sorted(deck) == canonical and deck != canonical
    assert deck == deck_from_seed(canonical, seed) != deck_from_seed(canonical, seed, 1)
    # SHA-256 of 32 zero bytes, a published test value
    assert commitment(seed) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"


def test_the_shuffle_of_a_seed_worked_by_hand() -> None:
    # fairness.py's steps on small decks, the digests from `sha256sum` of 40 bytes: the zero seed, then the index
    # and the counter (4 bytes each, big-endian).  Index 0: 2c34ce1d f23b838c 5abf2a7f ...; the last of four
    # places takes 0x2c34ce1d % 4 = 1: [0, 1, 2, 3] -> [0, 3, 2, 1]; the next (3 choices) 0xf23b838c =
    # 4,063,986,572, remainder 2 by 3 (the card stays); the next (2 choices) 0x5abf2a7f, odd (it stays): [0, 3,
    # 2, 1].  Index 1 (a redeal), three cards: 3bef79ba 8af50e48 ...; 0x3bef79ba % 3 = 2 (stays), then even:
    # [1, 0, 2].
    seed = "00" * 32
    assert deck_from_seed([0, 1, 2, 3], seed) == [0, 3, 2, 1]
    assert deck_from_seed([0, 1, 2], seed, 1) == [1, 0, 2]


def test_a_downloaded_record_replays_and_verifies(tmp_path: Path) -> None:
    table = finished_table()
    record = table.record()
    good, bad = verify_record(record)
    assert not bad and len(good) == 3
    path = tmp_path / "session.json"
    from khrap.session.record import dumps

    path.write_text(dumps(record))
    run = [sys.executable, "-m", "khrap.cli"]
    told = subprocess.run([*run, "replay", str(path)], capture_output=True, text=True)
    assert told.returncode == 0, told.stderr
    assert "deal" in told.stdout.lower()
    checked = subprocess.run([*run, "verify", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0 and "fair: 3 deals checked" in checked.stdout


def test_verify_catches_a_changed_seed_commitment_or_deck(tmp_path: Path) -> None:
    record = finished_table(2).record()
    other = copy.deepcopy(record)
    other["table"]["fair"][1]["seed"] = "11" * 32
    assert any("not the commitment" in p for p in verify_record(other)[1])
    other = copy.deepcopy(record)
    seed = "22" * 32
    other["table"]["fair"][0].update(seed=seed, commitment=commitment(seed))  # consistent, but not what was dealt
    assert any("not the one its seed makes" in p for p in verify_record(other)[1])
    other = copy.deepcopy(record)
    other["table"]["fair"][0]["seed"] = None
    assert verify_record(other)[1]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(other))
    checked = subprocess.run([sys.executable, "-m", "khrap.cli", "verify", str(path)], capture_output=True, text=True)
    assert checked.returncode == 1 and checked.stderr


def test_every_word_of_the_page_is_translated_into_russian() -> None:
    from khrap.web import i18n

    ru = i18n.strings("ru")
    placeholder = re.compile(r"\{(\w+)\}")
    for key, english in i18n.UI.items():
        words = placeholder.sub("", english)
        assert ru[key] != english or not re.search("[a-z]{3}", words), f"untranslated: {key}"
        assert set(placeholder.findall(ru[key])) == set(placeholder.findall(english)), key
    for key in i18n.PLURAL:  # Russian counts: 1 взятка, 2 взятки, 5 взяток
        forms = ru[key]
        assert len(set(forms)) == 3 and all(f.count("{n}") == 1 and not re.search("[a-z]{3}", f) for f in forms), key
    assert i18n.strings("en") == {**i18n.UI, **{k: [one, many, many] for k, (one, many) in i18n.PLURAL.items()}}


def test_every_word_the_page_asks_for_is_in_the_catalog() -> None:
    from khrap.web import i18n

    static = Path(i18n.__file__).parent / "static"
    asked = set()
    for script in static.glob("*.js"):
        asked |= set(re.findall(r'\bt\("(\w+)"', script.read_text()))
    assert asked <= set(i18n.UI), sorted(asked - set(i18n.UI))
    counted = set()
    for script in static.glob("*.js"):
        counted |= set(re.findall(r'\bplural\("(\w+)"', script.read_text()))
    assert counted and counted <= set(i18n.PLURAL), sorted(counted - set(i18n.PLURAL))
