"""Records checked like scenarios: dealer, pot, seats, cards, sizes, huge integers, Unicode digits,
malformed JSON; each refused by `replay` and `play --resume` in one line, exit 2."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from khrap.session import RecordError, Session
from tests.hardening.common import assert_clean, assert_refused, invoke


@pytest.fixture(scope="module")
def good() -> dict:
    session = Session("khrap", 4, seed=5)
    for _ in range(2):
        session.start_deal()
        while not session.deal_over:
            session.apply(session.legal_words()[0])
    return session.to_record()


def set_path(record: dict, path: tuple, value) -> dict:
    record = copy.deepcopy(record)
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


BAD_FIELDS = [
    (("dealer",), 99), (("dealer",), -7), (("dealer",), "2"), (("dealer",), 2.0), (("dealer",), True),
    (("pot",), -1000), (("pot",), 10**40), (("players",), 99), (("players",), 1), (("players",), "²"),
    (("seed",), -1), (("seed",), 2**70), (("stacks",), [1, 2]), (("stacks",), [10**4000, 0, 0, 0]),
    (("stacks",), 10**13), (("stacks",), "100"), (("version",), 99), (("version",), "1"),
    (("format",), "other"), (("variant",), 5), (("variant",), "x" * 5000),
    (("actions",), "1 pass"), (("actions", 0), [99, "pass"]), (("actions", 0), [-1, "pass"]),
    (("actions", 0), ["²", "pass"]), (("actions", 0), "² pass"), (("actions", 0), "1" * 5000 + " pass"),
    (("actions", 0), [1, "x" * 10_000]), (("actions", 0), [1, 2]), (("actions", 0), [True, "pass"]),
    (("actions", 0), [1, "draw from ²"]), (("actions", 0), [1, "khrap ²"]),
    (("decks",), [10**9]), (("decks",), [[10**9]]), (("decks",), ["AS AS"]), (("decks",), ["ZZ"]),
    (("decks",), "AS"), (("decks",), ["AS"] * 20_000), (("table",), []), (("table", "bots"), ["rule"]),
    (("table", "bots"), 5), (("table", "bots"), {"a": 1}), (("table", "bots"), "nonsense"),
    (("table", "humans"), [99]), (("table", "humans"), "0"), (("table", "deals"), -1),
    (("table", "deals"), 10**20), (("deals_started",), 10**9), (("deals_started",), -1),
    (("result",), [1, 2]), (("result", "pot"), 10**4000), (("dealt",), 5), (("dealt", 0), "AS"),
    (("rules", "hand_size"), 99), (("rules", "hand_size"), "four"), (("rules",), "khrap"),
    (("rules", "base_stake"), 10**300), (("rules", "name"), {"en": "\ud800"}), (("rules", "calls"), {}),
]


@pytest.mark.parametrize("case", range(len(BAD_FIELDS)), ids=lambda i: f"{BAD_FIELDS[i][0]}={BAD_FIELDS[i][1]!r}"[:40])
def test_a_bad_field_is_refused(tmp_path: Path, good: dict, case: int) -> None:
    path, value = BAD_FIELDS[case]
    record = set_path(good, path, value)
    file = tmp_path / "r.json"
    file.write_text(json.dumps(record), encoding="utf-8")
    for args in (["replay", file], ["play", "--resume", file, "--deals", "3"], ["replay", file, "--scenario"]):
        result = invoke(args, "records")
        if result.exit_code == 0 and (args[0] == "play" and path == ("table", "deals") or
                                      args[0] == "replay" and path == ("table", "bots")):
            continue  # a field the command line overrides (--deals), or one only `play` reads
        message = assert_refused(result, file)
        assert len(message) < 400, message  # a huge value is never echoed in full


MALFORMED = {
    "brackets": "[" * 200_000,
    "braces": '{"a":' * 100_000,
    "nan": '{"format": "khrap-record", "variant": "khrap", "pot": NaN}',
    "big_int": '{"format": "khrap-record", "variant": "khrap", "pot": ' + "9" * 5000 + "}",
    "surrogate": '{"format": "khrap-record", "variant": "khrap\\ud800"}',
    "not_object": "[1, 2, 3]",
    "empty": "",
    "latin1": '{"variant": "kh\xe9rap"}',
    "nul": '{"variant": "khrap\\u0000"}',
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_record_is_one_line(tmp_path: Path, case: str) -> None:
    file = tmp_path / "r.json"
    file.write_bytes(MALFORMED[case].encode("latin-1" if case == "latin1" else "utf-8"))
    for args in (["replay", file], ["play", "--resume", file]):
        assert_refused(invoke(args, "records"), file)


def test_random_record_mutations_never_crash(tmp_path: Path, good: dict) -> None:
    """Any field replaced by a random value of a random type: a clean replay or one refusal."""
    rng = random.Random("records")
    values = [None, True, -1, 0, 1, 7, 10**20, -(10**20), "", "²", "pass", "AS KH", [], [1], [[0, "pass"]], {},
              {"a": 1}, 1.5, "\x1b[2J"]
    for i in range(60):
        record = copy.deepcopy(good)
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(sorted(record))
            if isinstance(record[key], dict) and record[key] and rng.random() < 0.5:
                record[key][rng.choice(sorted(record[key]))] = rng.choice(values)
            elif isinstance(record[key], list) and record[key] and rng.random() < 0.5:
                record[key][rng.randrange(len(record[key]))] = rng.choice(values)
            else:
                record[key] = rng.choice(values)
        file = tmp_path / f"m{i}.json"
        file.write_text(json.dumps(record))
        assert_clean(invoke(["replay", file], "records"))


def test_a_record_without_rules_names_a_builtin_or_a_file_beside_it(tmp_path: Path, good: dict) -> None:
    bare = {k: v for k, v in good.items() if k != "rules"}
    for name in ("no-such", "gone.yaml", "../x.yaml"):
        file = tmp_path / "r.json"
        file.write_text(json.dumps({**bare, "variant": name}))
        assert_refused(invoke(["replay", file], "records"), file)
    file.write_text(json.dumps({**bare, "variant": "khrap"}))
    assert invoke(["replay", file]).exit_code == 0


def test_the_api_refuses_the_same(good: dict) -> None:
    for path, value in BAD_FIELDS[:12]:
        with pytest.raises(RecordError):
            Session.from_record(set_path(good, path, value))


def test_an_invalid_rules_message_is_one_line_without_a_url(tmp_path: Path, good: dict) -> None:
    file = tmp_path / "r.json"
    file.write_text(json.dumps(set_path(good, ("rules", "hand_size"), "four")))
    message = assert_refused(invoke(["replay", file], "records"), file)
    assert "hand_size" in message and "http" not in message
