"""The `khrap` command: listing, showing, validating, the schema and `run`.

User mistakes give one located line and exit code 2.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def khrap(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "khrap.cli", *args], capture_output=True, text=True, cwd=cwd)


def test_variants_lists_builtins_as_json() -> None:
    result = khrap("variants", "--json")
    assert result.returncode == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert set(rows) == {"khrap", "khrap-52", "khrap-shoot", "frap", "snore", "student-snore"}
    assert rows["frap"]["deck"] == [32, 36, 52] and rows["snore"]["hand_size"] == 5
    assert rows["khrap"]["players"] == [2, 5]
    assert rows["khrap"]["deck"] == [36]
    assert "helicopter" in rows["khrap"]["calls"]


def test_show_resolves_a_house_rule(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: khrap\nplay:\n  must_beat: true\n")
    result = khrap("show", str(tmp_path / "house.yaml"), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["play"]["must_beat"] is True
    assert data["hand_size"] == 4 and "merry" in data["calls"]  # inherited


def test_schema_is_json_schema() -> None:
    result = khrap("schema")
    doc = json.loads(result.stdout)
    assert "hand_size" in doc["properties"] and "extends" in doc["properties"]


BROKEN = {
    "bad_yaml": ("extends: khrap\nplay: [must_beat\n", ":3:1: "),
    "wrong_type": ("extends: khrap\nhand_size: four\n", ":2:12: hand_size: "),
    "unknown_key": ("extends: khrap\nhand_sise: 5\n", ":2:1: unknown key 'hand_sise'; did you mean 'hand_size'?"),
    "misspelt_call": (
        "extends: khrap\nplay:\n  first_lead: {calls: [take-fve]}\n",
        ":3:24: unknown call 'take-fve'; did you mean 'take-five'?",
    ),
    "deck_too_small": (
        "extends: khrap\ndeck: {ranks: [J, Q, K, A]}\n",
        ":2:7: a deck of 16 cards is too small for 4 players: 4 hands of 4 and 3 turned cards need 19",
    ),
    "unknown_parent": ("extends: krap\n", ":1:10: "),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_validate_broken_file_gives_located_lines_in_the_users_file(tmp_path: Path, case: str) -> None:
    text, expected = BROKEN[case]
    path = tmp_path / f"{case}.yaml"
    path.write_text(text)
    result = khrap("validate", str(path))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    # one line per mistake, each in the user's file (a small deck also strands the ranks calls name)
    assert len(lines) == (4 if case == "deck_too_small" else 1), result.stderr
    assert all(line.startswith(str(path) + ":") for line in lines), result.stderr
    assert expected in lines[0], lines[0]
    assert "Traceback" not in result.stderr


def test_validate_good_files() -> None:
    result = khrap("validate", "khrap", str(ROOT / "variants" / "khrap.yaml"))
    assert result.returncode == 0 and result.stdout.count(": ok") == 2


def test_run_contract_example_json() -> None:
    result = khrap("run", str(ROOT / "tests" / "scenarios" / "khrap" / "contract_example.yaml"), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    fields = {"variant", "phase", "to_act", "legal", "dealer", "next_dealer", "deals_completed", "round", "trump",
              "turned", "stock_count", "stacks", "pot", "locked", "statuses", "hands", "trick", "tricks", "log"}
    assert set(data) == fields
    assert data["phase"] == "offers" and data["to_act"] == 3 and sorted(data["legal"]) == ["pass", "take-five"]


def test_run_illegal_action_names_line_reason_and_legal(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("variant: khrap\nplayers: 4\nseed: 1\nactions: |\n  1 help\n")
    result = khrap("run", str(path))
    assert result.returncode == 2
    line = result.stderr.strip()
    assert line.startswith(f"{path}:5: help: help needs a khrap"), line
    assert "; legal: " in line and "khrap" in line.split("legal:")[1]


def test_run_wrong_turn(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("variant: khrap\nplayers: 4\nactions: |\n  2 khrap\n")
    result = khrap("run", str(path))
    assert result.returncode == 2
    assert f"{path}:4: khrap: not seat 2's turn; seat 1 is to act" in result.stderr


@pytest.mark.parametrize(
    ("deck", "message"),
    [('"AS AS"', "AS is listed twice"), ('"2S"', "2S is not in the deck"), ('"XX"', "is not a card")],
)
def test_run_bad_deck_is_located(tmp_path: Path, deck: str, message: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(f"variant: khrap\nplayers: 4\ndecks:\n  - {deck}\n")
    result = khrap("run", str(path))
    assert result.returncode == 2
    assert result.stderr.startswith(f"{path}:4:5: ") and message in result.stderr


def test_run_readable_account_of_the_example() -> None:
    result = khrap("run", str(ROOT / "examples" / "khrap-first-deal.yaml"))
    assert result.returncode == 0, result.stderr
    assert "seat 1: khrap" in result.stdout and "phase settled" in result.stdout


def test_python_dash_m_khrap_is_the_khrap_command() -> None:
    # `python -m khrap serve` (the way a checkout is run without installing it) said "No module named
    # khrap.__main__".
    result = subprocess.run([sys.executable, "-m", "khrap", "variants", "--json"], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "snore" in {row["name"] for row in json.loads(result.stdout)}
