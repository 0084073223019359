"""The doubling offer's answers are kernel words: a house rule may not name a call `double` or `no-double`.

With `double: true` a deal asks the helpers `double` or `no-double` before the first lead; a call of the
same name would read, in a scenario line or a record, as either.  The file below is refused where the call
is written; the expected lines are worked by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from khrap.cli import app

runner = CliRunner()

STAGES = """stages:
  - {id: bidding, kind: calls, phase: bidding, speakers: all, start: dealer_left,
     calls: [khrap, help, WORD, merry, sad, wrap, helicopter, pass], out_hands: at_end}
  - {id: fives, kind: calls, phase: offers, speakers: out, start: declarer_left, calls: [take-five, pass]}
  - {id: exchange, kind: exchange, order: [{statuses: [declarer, helper]}]}
  - {id: four-aces-check, kind: instant_wins}
  - {id: play, kind: play}
"""


def _file(tmp_path: Path, word: str) -> Path:
    path = tmp_path / "doubles.yaml"
    path.write_text("extends: khrap\ndouble: true\ncalls:\n"
                    f"  {word}:\n"
                    "    name: {en: Helps twice}\n"
                    "    requires: {declarer: exists}\n"
                    "    effects: {status: helper}\n" + STAGES.replace("WORD", word), encoding="utf-8")
    return path


@pytest.mark.parametrize("word", ["double", "no-double"])
def test_a_call_named_as_a_doubling_answer_is_refused_where_it_is_written(tmp_path: Path, word: str) -> None:
    path = _file(tmp_path, word)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    # the call's rules begin on line 5, column 5 (`    name: ...`, under `  WORD:` on line 4)
    assert result.stderr.splitlines() == [
        f"{path}:5:5: '{word}' is an action word of the kernel and cannot be a call id"]


def test_a_call_named_otherwise_is_a_valid_house_rule(tmp_path: Path) -> None:
    path = _file(tmp_path, "twice")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.stderr


def _listed(label: str) -> set[str]:
    """The backquoted words of the docs' list item that starts with ``label`` (docs/house-rules.md, "Names the
    game already uses"), up to the item's first sentence's end."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "house-rules.md").read_text(encoding="utf-8")
    section = text.split("### Names the game already uses", 1)[1].split("\n## ", 1)[0]
    item = next(part for part in section.split("\n- ") if part.startswith(label))
    return set(re.findall(r"`([a-z0-9-]+)`", item.split(". ")[0].replace("\n", " ")))


def test_the_docs_list_every_builtin_name_call_and_action_word() -> None:
    from khrap.variant.catalog import builtin, builtin_names
    from khrap.words import KERNEL_WORDS

    assert _listed("Built-in games") == set(builtin_names())
    ids = {i for name in builtin_names() for i in (*builtin(name).calls, *builtin(name).instant_wins)}
    assert _listed("Calls and instant wins") == ids
    assert _listed("Action words") == set(KERNEL_WORDS)
    assert "house" not in KERNEL_WORDS  # (the docs say so: a field, not an action)
