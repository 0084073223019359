"""Issue 16: a sheet a player would pick up (guards templates/sheet.*.j2, templates/style.css and the
section order in khrap/rulebook/facts.py): the overview first, the sections in a card-rule page's
order, 10 pt print, suits that survive black-and-white printing, house rules in front and marked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from khrap.rulebook.sheet import render_rules
from khrap.variant.catalog import builtin_names

STYLE = Path(__file__).resolve().parents[1] / "khrap" / "rulebook" / "templates" / "style.css"
HOUSE = "extends: khrap\nname: {en: At Anna's}\nplay: {must_beat: true}\n"


def headings(name: str, lang: str = "en") -> list[str]:
    return re.findall(r"^## (.+)$", render_rules(name, "md", lang), flags=re.M)


@pytest.mark.parametrize("name", builtin_names())
def test_overview_first_then_a_card_rule_pages_order(name: str) -> None:
    found = headings(name)
    assert found[0] == "The game"
    order = ["The game", "What you need", "The deal", "Course of a deal", "The calls", "Play", "Settlement",
             "Sessions"]
    assert [h for h in found if h in order] == order
    exchange = [h for h in found if h in ("Exchange", "Buying")]
    assert exchange and found.index(exchange[0]) < found.index("Play")
    overview = render_rules(name, "md", "en").split("## The game")[1].split("## ")[0]
    for words in ("Object:", "players", "A deck of", "Cards rank from high to low"):
        assert words in overview or (words == "A deck of" and "The deck depends" in overview), words


def test_a_named_exchange_step_heads_its_section() -> None:
    """frap names its one exchange step "Buying" (Покупка): the section telling it is headed so in every
    language; khrap's exchange step has no name: "Exchange" (``sheet.NAMING_STAGES``)."""
    assert "Buying" in headings("frap") and "Exchange" not in headings("frap")
    assert "Покупка" in headings("frap", "ru")
    assert "Exchange" in headings("khrap") and "Buying" not in headings("khrap")


def _print_rules() -> str:
    css = STYLE.read_text(encoding="utf-8")
    return css[css.index("@media print"):]


def test_print_body_is_at_least_10pt() -> None:
    css = _print_rules()
    sizes = [float(x) for x in re.findall(r"font-size:\s*([\d.]+)pt", css)]
    assert sizes and min(sizes) >= 10, sizes
    assert not re.search(r"font-size:\s*[\d.]+(em|%|px)", css), "print sizes in pt only"
    assert re.search(r"body \{[^}]*font-size:\s*10pt", css)


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_red_suits_print_dark_and_every_suit_by_its_shape() -> None:
    css = STYLE.read_text(encoding="utf-8")
    red = re.search(r"--red:\s*#([0-9a-fA-F]{6})", css).group(1)
    contrast = 1.05 / (_luminance(red) + 0.05)
    assert contrast >= 7, f"the red prints too light in grey (contrast {contrast:.1f}:1 on white)"
    assert re.search(r"\.card \{[^}]*font-weight:\s*700", css)
    html = render_rules("khrap", "html", "en")
    for symbol in "♠♥♦♣":
        assert symbol in html  # the suit is its own glyph, never a colour alone


def test_call_descriptions_print_at_body_size() -> None:
    html = render_rules("khrap", "html", "en")
    assert "<small>" not in html and 'class="desc"' in html


def test_house_rules_box_on_page_one_and_marks(tmp_path: Path) -> None:
    house = tmp_path / "anna.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    html = render_rules(str(house), "html", "en")
    box = html.index('class="box house"')
    assert box < html.index('<main class="rules">')  # before the rules: page 1
    assert "This table plays differently from “Khrap”" in html
    assert "<b>Beating:</b> Following suit, a player must beat the best card" in html
    marked = re.findall(r'<p class="line changed"><span class="mark"[^>]*>▶</span> ([^<]+)', html)
    assert marked == ["Following suit, a player must beat the best card of that suit on the trick if they can."]
    text = render_rules(str(house), "txt", "en")
    assert "▶ Following suit, a player must beat" in text
    assert "THIS TABLE PLAYS DIFFERENTLY" in text.split("THE GAME")[0]


@pytest.mark.parametrize("name", builtin_names())
def test_a_builtin_has_no_house_box_and_no_marks(name: str) -> None:
    html = render_rules(name, "html", "en")
    assert 'class="box house"' not in html and "▶" not in html
