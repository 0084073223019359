"""Malformed input: mutated, truncated, mis-encoded, hostile and huge files.

Every command that reads a variant, a scenario or a saved session answers a bad
file with one message and exit code 2, never a traceback.  The files are made
from the built-in variants, a scenario and a real saved session, mutated with a
fixed seed; KHRAP_FUZZ_FILES raises how many are tried.
"""

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from khrap.cli import app
from tests.conftest import size

ROOT = Path(__file__).resolve().parents[2]
COUNT = size("KHRAP_FUZZ_FILES", 40)
runner = CliRunner()

SCENARIO = """variant: khrap
players: 4
decks:
  - "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"
actions: |
  1 khrap
  2 help
  3 pass
  0 pass
"""


def mutations(text: str, rng: random.Random) -> list[bytes]:
    """Ways a file can come out wrong: truncated, bytes flipped, lines swapped, re-encoded, garbage."""
    raw = text.encode("utf-8")
    out = []
    for _ in range(COUNT):
        kind = rng.randrange(6)
        if kind == 0:
            out.append(raw[: rng.randrange(1, len(raw))])
        elif kind == 1:
            data = bytearray(raw)
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            out.append(bytes(data))
        elif kind == 2:
            lines = text.splitlines()
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            out.append("\n".join(lines).encode())
        elif kind == 3:
            out.append(text.encode(rng.choice(["utf-16", "utf-32", "cp1251"]), errors="replace"))
        elif kind == 4:
            out.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 400))))
        else:
            lines = text.splitlines()
            i = rng.randrange(len(lines))
            lines[i] = lines[i].replace(":", rng.choice([": [", ": {", ": !!python/object:os.system", ":: "]), 1)
            out.append("\n".join(lines).encode())
    return out


def assert_clean(result, path: Path) -> None:
    """Exit 0 (the mutation happened to be harmless) or 2 with a message naming the file; no traceback."""
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{path}: {type(result.exception).__name__}: {str(result.exception)[:300]}"
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    if result.exit_code == 2:
        message = result.stderr.strip()
        assert message and "Traceback" not in message
        assert str(path) in message.splitlines()[0], message  # the file, or a parent it inherits from


@pytest.mark.large
@pytest.mark.parametrize("name", ["khrap", "frap", "student-snore"])
@pytest.mark.parametrize("command", [["validate"], ["show"], ["rules", "--format", "txt"]])
def test_mutated_variant_files(tmp_path: Path, name: str, command: list[str]) -> None:
    text = (ROOT / "variants" / f"{name}.yaml").read_text(encoding="utf-8")
    if "extends:" in text:
        text = text.replace("extends: ", f"extends: {ROOT / 'variants'}/", 1).replace("\nextends", "\nextends")
        text = text.replace(f"{ROOT / 'variants'}/khrap-52", f"{ROOT / 'variants'}/khrap-52.yaml")
    rng = random.Random(f"{name}-{command[0]}")
    for i, data in enumerate(mutations(text, rng)):
        path = tmp_path / f"m{i}.yaml"
        path.write_bytes(data)
        assert_clean(runner.invoke(app, [command[0], str(path), *command[1:]]), path)


@pytest.mark.large
def test_mutated_scenarios(tmp_path: Path) -> None:
    rng = random.Random("scenario")
    for i, data in enumerate(mutations(SCENARIO, rng)):
        path = tmp_path / f"s{i}.yaml"
        path.write_bytes(data)
        assert_clean(runner.invoke(app, ["run", str(path), "--json"]), path)


def saved_session(tmp_path: Path) -> str:
    save = tmp_path / "saved.json"
    result = runner.invoke(app, ["play", "khrap", "--watch", "--deals", "1", "--seed", "3", "--save", str(save)])
    assert result.exit_code == 0, result.output
    return save.read_text(encoding="utf-8")


@pytest.mark.large
def test_mutated_saved_sessions(tmp_path: Path) -> None:
    text = saved_session(tmp_path)
    rng = random.Random("save")
    for i, data in enumerate(mutations(text, rng)):
        path = tmp_path / f"r{i}.json"
        path.write_bytes(data)
        assert_clean(runner.invoke(app, ["replay", str(path)]), path)


def test_hand_edited_save_is_detected(tmp_path: Path) -> None:
    record = json.loads(saved_session(tmp_path))
    record["actions"][3][1] = "play AS" if record["actions"][3][1] != "play AS" else "pass"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and str(path) in result.stderr


HOSTILE = {
    "alias_bomb": "a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
              for p, c in zip("abcdefgh", "bcdefghi", strict=True)),
    "deep_nesting": "name: " + "[" * 5000 + "]" * 5000 + "\n",
    "python_tag": "name: !!python/object/apply:os.system ['echo hacked']\n",
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_yaml_is_refused(tmp_path: Path, case: str) -> None:
    path = tmp_path / f"{case}.yaml"
    path.write_text(HOSTILE[case])
    for command in (["validate"], ["show"], ["rules"]):
        result = runner.invoke(app, [*command, str(path)])
        assert result.exit_code == 2 and result.stderr.startswith(str(path))


def test_huge_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("name: {en: x}\n" + "# padding\n" * 400_000)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "MiB" in result.stderr or "large" in result.stderr
