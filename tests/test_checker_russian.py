"""A Russian table's house rule with mistakes, read back in Russian: the YAML syntax, the `extends:` name and the
rules that do not fit together said in English under `--lang ru` (checker.po had the field-by-field messages
only), and `khrap play FILE --lang ru` said even those in English.  The expected lines are written by hand."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from khrap.cli import app
from khrap.variant.catalog import variants_dir

runner = CliRunner()


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pyatnitsa.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_yaml_mistake_is_said_in_russian(tmp_path: Path) -> None:
    path = _file(tmp_path, 'extends: khrap\nname: {en: "Friday khrap"\n')  # the '{' of line 2 is never closed
    result = runner.invoke(app, ["validate", str(path), "--lang", "ru"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"{path}:3:1: ошибка в YAML: в словаре, открытом '{{' в строке 2, "
                                          "столбце 7, нужны ',' между элементами и '}' в конце"]
    english = runner.invoke(app, ["validate", str(path)])  # (the English as it always read)
    assert english.stderr.splitlines() == [f"{path}:3:1: invalid YAML: the mapping opened with '{{' at line 2, "
                                           "column 7 needs a ',' between its entries and a '}' at its end"]


def test_a_misspelt_extends_is_said_in_russian_by_play_too(tmp_path: Path) -> None:
    path = _file(tmp_path, "extends: khrapp\n")
    for command in (["validate", str(path), "--lang", "ru"], ["play", str(path), "--lang", "ru", "--watch"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, command
        assert result.stderr.splitlines() == [f"{path}:1:10: нет встроенного варианта 'khrapp'; вы имели в виду "
                                              "'khrap'?"], command


def test_rules_that_do_not_fit_together_are_said_in_russian(tmp_path: Path) -> None:
    # 4 players × 9 cards and Khrap's 3 turned trumps need 39 cards; its deck has 36
    path = _file(tmp_path, "extends: khrap\nplayers: {min: 2, max: 9}\nhand_size: 9\n")
    result = runner.invoke(app, ["validate", str(path), "--lang", "ru"])
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    khrap = variants_dir() / "khrap.yaml"
    assert first.startswith(f"{path}:2:24: колода мала для числа игроков 4: в ней карт 36, а нужно 39 (по 9 "
                            "каждому игроку и открытых козырей: 3) (унаследовано: `deck: {ranks: [6, 7, 8, 9, "
                            f"T, J, Q, K, A]}}` в {khrap}:"), first
    assert "после заявки 'merry' в руке остаётся карт: 4, а не размер руки 9" in result.stderr


def test_an_extends_cycle_and_players_out_of_order_are_said_in_russian(tmp_path: Path) -> None:
    # two of the 37 messages no test above reaches: each English sentence built as Said, not as an f-string
    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text("extends: b.yaml\nname: a\n", encoding="utf-8")
    b.write_text("name: b\nextends: a.yaml\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(a), "--lang", "ru"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"{b}:2:10: extends по кругу: a.yaml -> b.yaml -> a.yaml"]
    path = _file(tmp_path, "extends: khrap\nplayers: {min: 5, max: 4}\n")
    result = runner.invoke(app, ["validate", str(path), "--lang", "ru"])
    assert result.exit_code == 2
    # located at min's value: "players: {min: " is 15 characters, so the 5 is column 16
    assert result.stderr.splitlines() == [f"{path}:2:16: players.min (5) больше, чем players.max (4)"]
