"""The whole analysis in Russian (`analyze --lang ru`): the report page and the terminal, display names, no ids."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from khrap.cli import app

FIVE_SIX = str(Path(__file__).parents[1] / "docs" / "house-rules" / "khrap-five-six.yaml")
IDS = ("take-five", "khrap (overridden)", "forced helper", "forced declarer", "first speaker", "heuristic")


def _analyze(tmp_path: Path, lang: str) -> tuple[str, str]:
    out = tmp_path / f"{lang}.html"
    res = CliRunner().invoke(app, ["analyze", "khrap", FIVE_SIX, "--deals", "40", "--evening", "10", "--workers",
                                   "1", "--bots", "normal", "--lang", lang, "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out.read_text(encoding="utf-8"), res.stdout


def test_the_report_and_the_terminal_speak_russian(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    page, text = _analyze(tmp_path, "ru")
    assert '<html lang="ru">' in page
    for heading in ("Вечер за столом", "Меры устройства игры", "Сказанные заявки", "Справедливость мест",
                    "Распределение банка", "Как считаются меры", "Вывод."):
        assert heading in page
    assert "Что меняется, «Храп, пять и шесть" in text or "Что меняется, «" in text
    # the headings and notes of the English page are gone, and no call id shows: neither on the page (its plots
    # included) nor on the terminal
    for english in ("An evening at the table", "Game-design measures", "What it means", "How the measures"):
        assert english not in page
    visible = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    for word in IDS:
        assert word not in visible, word
        assert word not in text, word
    assert "Вывод:" in text and "Что меняется" in text and "Вечер из 10 раздач" in text


def test_english_stays_english(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    page, text = _analyze(tmp_path, "en")
    assert '<html lang="en">' in page and "An evening at the table" in page and "Verdict:" in text
    assert "Вечер" not in page
    # no record label for a name in English either: no table cell or plot label reads as one (the names are
    # "Khrap (overridden)", "Forced to help"; the page's prose may still speak of "a forced helper")
    for word in ("take-five", "khrap (overridden)", "forced helper", "forced declarer", "heuristic"):
        assert not re.search(rf">\s*{re.escape(word)}\s*<", page), word
        assert word not in text, word


DOUBLE = str(Path(__file__).parents[1] / "docs" / "house-rules" / "khrap-double.yaml")
ALLOWED = {"CardStock"}  # a proper name (the measures' source, in MEASURES_DOC): every other ASCII word is English
ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z'_-]{2,}")
OPTION = re.compile(r"--[a-z][a-z-]*(?: [a-z][a-z,]*)?")


class _Visible(HTMLParser):
    """A page's text a reader sees: every text node (the plots' SVG captions included) but style and script."""

    def __init__(self) -> None:
        super().__init__()
        self.hidden, self.parts = 0, []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.hidden += tag in ("style", "script")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("style", "script")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def english_words(text: str, given: Sequence[str] = ()) -> dict[str, str]:
    """Each ASCII word of 3 letters or more in ``text`` (the files named on the command line aside), with the
    line it is in."""
    for ref in sorted(given, key=len, reverse=True):  # a path before the name inside it
        text = text.replace(ref, "")
    text = OPTION.sub("", text)  # what the reader types: an option of the command and its value
    return {word: line.strip()[:160] for line in text.splitlines() for word in ENGLISH_WORD.findall(line)
            if word not in ALLOWED}


ENGLISH_FIGURE = re.compile(r"\d\.\d|(?<![\w-])-\d|\[[−+]?\d[\d,]*, ")


def english_figures(text: str, given: Sequence[str] = ()) -> list[str]:
    """Each figure written the English way in ``text`` (a decimal point, a hyphen for a minus, an interval's
    ends split by a comma), with what is around it; the files named on the command line aside."""
    for ref in sorted(given, key=len, reverse=True):
        text = text.replace(ref, "")
    return [text[max(0, m.start() - 30):m.end() + 10] for m in ENGLISH_FIGURE.finditer(text)]


def visible_text(page: str) -> str:
    parser = _Visible()
    parser.feed(page)
    return "\n".join(parser.parts)


SOLVE = ["--makeable", "--solve", "2"]


@pytest.mark.parametrize(("refs", "bots", "more"), [(["khrap", DOUBLE], "normal", SOLVE),
                                                    (["khrap"], "rule,heuristic,heuristic,heuristic", SOLVE),
                                                    (["khrap", DOUBLE], "random", [])],
                         ids=["against its parent", "alone, mixed bots by their old names", "random bots"])
def test_no_english_word_reaches_a_russian_reader(tmp_path: Path, refs: list[str], bots: str, more: list) -> None:
    """The page (its plots too) and the terminal of `analyze --lang ru` with the solver's makeable tables, an
    offer (the double), an instant win (four aces), one variant alone (its portrait), mixed bots (the evening
    by bot kind) and random bots (no hands table): no English word."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "ru.html"
    res = CliRunner().invoke(app, ["analyze", *refs, "--deals", "40", "--evening", "10", "--workers", "1", "--bots",
                                   bots, "--lang", "ru", *more, "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert english_words(visible_text(out.read_text(encoding="utf-8")), refs) == {}
    assert english_words(res.stdout, refs) == {}
    # every figure as Russian writes it: "3,9", "−34", "[−1,20; 0,40]", never "3.9", "-34", "[-1.20, 0.40]"
    assert english_figures(visible_text(out.read_text(encoding="utf-8")), refs) == []
    assert english_figures(res.stdout, refs) == []
    assert re.search(r"\d,\d", res.stdout) and "−" in res.stdout


def test_the_check_finds_english() -> None:
    """The check above fails on an English word left in a Russian text, and not on a file name or numbers."""
    assert english_words("Вывод: 12% [3, 4] the банк", ["docs/x.yaml"]) == {"the": "Вывод: 12% [3, 4] the банк"}
    assert english_words("docs/house-rules/x.yaml: p10 P: 5", ["docs/house-rules/x.yaml"]) == {}
    assert english_words("задайте --bots normal или --engine reference") == {}
    assert english_words(visible_text("<style>body { font: sans }</style><p>раз</p><svg><text>% of players</text>"
                                      "</svg>")) == {"players": "% of players"}


def test_the_check_finds_english_figures() -> None:
    assert english_figures("ставка 3.9, итог -34") == ["ставка 3.9, итог -34", "ставка 3.9, итог -34"]
    assert english_figures("от −249416 до +11290 [−1,20; +0,40]") == []
    assert english_figures("[+1,16, +1,34]") == ["[+1,16, +1,34]"]
    assert english_figures("khrap-52.yaml 0,5", ["khrap-52.yaml"]) == []


def test_the_russian_figures() -> None:
    """One formatter writes every figure of the report: Python's format spec, then the language's marks."""
    from khrap.sim.figures import Figures, template_class

    ru, en = Figures("ru"), Figures("en")
    assert ru(3.94, ".1f") == "3,9" and ru(-34, "+d") == "−34" and ru(-0.5, ".2f") == "−0,50"
    assert ru(16642, ",") == "16\u202f642" and ru(1234.5, ",.1f") == "1\u202f234,5"
    assert ru.interval(-1.2, 0.4, "+.2f") == "[−1,20; +0,40]"
    assert en(-1234.5, ",.1f") == "-1,234.5" and en.interval(-1.2, 0.4, "+.2f") == "[-1.20, +0.40]"
    template = template_class("ru")("за {n} раздач: {x:+.1f} из {k:,}; {name}")
    assert template.format(n=200, x=-3.94, k=4546, name="Храп-2.0") == "за 200 раздач: −3,9 из 4\u202f546; Храп-2.0"


def test_the_progress_bars_speak_russian() -> None:
    """The captions of an analysis's progress bars (drawn on a terminal only), the solver's and the evenings'
    included."""
    from types import SimpleNamespace

    from khrap.sim.cli import _bars
    from khrap.variant.catalog import load_variant

    loaded = [load_variant("khrap"), load_variant(DOUBLE)]
    specs = [SimpleNamespace(name=v.name["en"]) for v in loaded]
    bars = _bars(loaded, specs, 200, 10, 50, 4, "ru")
    assert [total for _, total in bars] == [200, 8, 2]
    assert english_words("\n".join(caption for caption, _ in bars)) == {}
    assert bars[0][0] == "Храп + Храп с удвоением (решается раздач: 10)"
    assert _bars(loaded, specs, 200, 0, 50, 0, "en") == [("Khrap + Khrap, with a double", 200), ("the report", 2)]


@pytest.mark.parametrize("bots", ["normal", "random"])
def test_simulate_prints_its_statistics_in_russian(bots: str) -> None:
    """`khrap simulate --lang ru` (the house rule with a call the parent lacks, its makeable table included):
    no English word, calls and contracts by their Russian names, no call id; English stays the default."""
    args = ["simulate", DOUBLE, "--deals", "12", "--workers", "1", "--bots", bots, *SOLVE]
    result = CliRunner().invoke(app, [*args, "--lang", "ru"])
    assert result.exit_code == 0, result.output
    assert set(english_words(result.stdout, [DOUBLE])) <= {"mypyc"}  # (the compiled kernel's name, a proper name)
    assert "Храп" in result.stdout and "Пас" in result.stdout and "место 0" in result.stdout
    assert "take-five" not in result.stdout and "khrap" not in result.stdout.lower().replace(DOUBLE.lower(), "")
    english = CliRunner().invoke(app, args)
    assert english.exit_code == 0, english.output
    assert "Take five" in english.stdout and "take-five" not in english.stdout  # a call by its name, not its id
    bad = CliRunner().invoke(app, [*args, "--lang", "xx"])
    assert bad.exit_code == 2 and "--lang xx" in bad.output


def test_the_russian_verdict_names_the_bots_in_the_nominative() -> None:
    # «Измерено на 40 раздачах, сыгранных ботами обычные» (the instrumental "by bots" with the strength's word, a
    # nominative plural): the strength stands after a colon, as the report's other lines name it («боты: обычные»)
    from khrap.sim.report_words import tr

    t = tr("ru")
    setup = t("Measured on {deals} deals played by {bots} bots at {players} players, each deal with the same {what} "
              "and the same bot dice under both rules.").format(deals=40, bots=t("normal"), players=4, what="картами")
    assert setup.startswith("Измерено на 40 раздачах за столом из 4 игроков (боты: обычные), каждая раздача")
    headline = t("{deals}, {players} players, {bots} bots, seed {seed}, sessions of {chunk} deals (100 chips a seat), "
                 "{workers} worker(s).").format(deals=40, players=4, bots=t("normal"), seed=0, chunk=10, workers=1)
    assert "боты: обычные, зерно 0" in headline
