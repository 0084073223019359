"""Text from files never reaches a terminal raw: control sequences, bidi overrides, surrogates.

Each hostile text is put where a file can hold text (a variant's name, a call's name, a key, a
call id in a stage, a scenario's action) and every command that shows it is run; nothing on
stdout or stderr may hold a raw control, bidi or surrogate character.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from khrap.safe_text import PLOT_RC, bidi_control_at, excerpt, json_text, surrogate_at, terminal
from tests.hardening.common import UNSAFE, assert_clean, assert_refused, invoke

BASE = [
    "\x1b]0;PWNED\x07\x1b]52;c;ZWNobw==\x07\x1b[2J",  # the name: title, clipboard, clear screen
    "\x1b[31mred\x1b[0m", "\x9b2J", "bell\x07", "back\x08\x08\x08space", "\rover", "del\x7f",
    "\u202eevil\u202c", "\u2066isolate\u2069", "\u200fmark", "line\u2028break", "\x1bP+q\x1b\\",
]


def hostile_texts(count: int = 24) -> list[str]:
    """The base cases, then random mixes of unsafe characters with ordinary text (fixed seed)."""
    rng = random.Random("terminal")
    unsafe = [chr(c) for c in (*range(0x01, 0x09), *range(0x0b, 0x20), *range(0x7f, 0xa0))]
    unsafe += list("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029")
    out = list(BASE)
    while len(out) < count:
        out.append("".join(rng.choice(unsafe) if rng.random() < 0.4 else rng.choice("abcXYZ ;[]") for _ in range(12)))
    return out


def yaml_text(text: str) -> str:
    """A YAML double-quoted scalar holding ``text`` (JSON's escapes are YAML's)."""
    return json.dumps(text)


@pytest.mark.parametrize("text", hostile_texts(), ids=lambda t: json.dumps(t)[:24])
def test_a_hostile_name_is_escaped_everywhere(tmp_path: Path, text: str) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: khrap\nname: {{en: {yaml_text(text)}}}\n"
                     f"calls: {{khrap: {{name: {{en: {yaml_text(text)}}}}}}}\n")
    save = tmp_path / "s.json"
    commands = [
        ["rules", house, "--format", "txt"], ["rules", house, "--format", "md"], ["rules", house],
        ["diff", "khrap", house], ["show", house], ["show", house, "--json"], ["validate", house],
        ["play", house, "--watch", "--deals", "1", "--seed", "4", "--save", save],
        ["replay", save], ["play", "--resume", save, "--deals", "1"],
    ]
    for args in commands:
        assert_clean(invoke(args, "terminal"))
    shown = invoke(["show", house, "--json"])
    if bidi_control_at(text) is not None:  # an override or isolate: refused where the file is read, located
        assert_refused(shown, house, contains="bidirectional control character")
        return
    assert json.loads(shown.stdout)["name"]["en"] == text  # escaped for the screen, the same JSON


@pytest.mark.parametrize("text", hostile_texts(12), ids=lambda t: json.dumps(t)[:24])
def test_hostile_text_in_error_messages(tmp_path: Path, text: str) -> None:
    """"unknown key ...", "unknown call ...", a bad action, a bad path: one escaped line each."""
    cases = {
        "key.yaml": f"extends: khrap\n{yaml_text(text)}: 1\n",
        "call.yaml": f"extends: khrap\nstages:\n  - {{id: bid, kind: calls, calls: [{yaml_text(text)}]}}\n"
                     "  - {id: play, kind: play}\n",
        "value.yaml": f"extends: khrap\nhand_size: {yaml_text(text)}\n",
        "extends.yaml": f"extends: {yaml_text(text)}\n",
        "nested.yaml": f"extends: khrap\nplay: {{{yaml_text(text)}: true}}\n",
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text(content)
        for command in (["validate"], ["show"], ["rules", "--format", "txt"]):
            assert_refused(invoke([command[0], path, *command[1:]], "terminal"), path)
    scenario = tmp_path / "scn.yaml"
    scenario.write_text(f"variant: khrap\nactions: |\n  1 {json.dumps(text)[1:-1]}\n")
    assert_clean(invoke(["run", scenario], "terminal"))
    scenario.write_text(f"variant: khrap\n{yaml_text(text)}: 1\n")
    assert_refused(invoke(["run", scenario], "terminal"), scenario)


def test_a_hostile_file_name_is_escaped(tmp_path: Path) -> None:
    for i, text in enumerate(hostile_texts(8)):
        name = text.replace("/", "_").replace("\0", "_")
        path = tmp_path / f"{i}{name}.yaml"
        path.write_text("extends: khrap\nhand_size: 99\n")
        assert_refused(invoke(["validate", path], "terminal"))
        assert_refused(invoke(["validate", tmp_path / f"missing{name}.yaml"], "terminal"))


def test_the_escaping_functions() -> None:
    for text in hostile_texts(40):
        for escaped in (terminal(text, one_line=True), excerpt(text, 1000)):
            assert not UNSAFE.search(escaped.replace("\n", "").replace("\t", ""))
        assert not UNSAFE.search(terminal(text).replace("\n", "").replace("\t", ""))
        assert json.loads(json_text(json.dumps(text, ensure_ascii=False))) == text
    assert terminal("a\nb\tc") == "a\nb\tc" and terminal("a\nb", one_line=True) == "a\\x0ab"
    assert terminal("\x1b[2J\u202e") == "\\x1b[2J\\u202e"
    assert excerpt("x" * 100, 10) == "'xxxxxxx...'"
    assert surrogate_at("ok\ud800") == 2 and surrogate_at("Фрап ♠") is None
    assert PLOT_RC["text.parse_math"] is False


def test_mixed_scripts_stay_readable() -> None:
    """Only controls are escaped: Cyrillic, Armenian, suits and emoji are text."""
    for text in ("Храп", "Խռպ", "7♠ A♥", "🂡", "Lietuvių", "עברית"):
        assert terminal(text) == text


@pytest.mark.parametrize("pair", list(itertools.islice(itertools.combinations(BASE, 2), 6)))
def test_text_output_files_are_escaped_too(tmp_path: Path, pair: tuple[str, str]) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: khrap\nname: {{en: {yaml_text(pair[0] + pair[1])}}}\n")
    out = tmp_path / "sheet.txt"
    assert invoke(["rules", house, "--format", "txt", "-o", out], "terminal").exit_code == 0
    assert not UNSAFE.search(out.read_text().replace("\n", "").replace("\t", ""))
