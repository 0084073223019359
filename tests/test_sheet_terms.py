"""A language review anyone can repeat (issue 30): docs/terms/LANG.yaml lists each game term, the word the
sheets use for it and its source in the seed texts.  The sheets must keep using every listed word; with
KHRAP_SEEDS set to the directory of the seed texts, every quote is checked against its seed too."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from khrap.rulebook.i18n import languages
from khrap.rulebook.sheet import render_rules

TERMS = Path(__file__).resolve().parents[1] / "docs" / "terms"
ENTRIES = [(path.stem, term) for path in sorted(TERMS.glob("*.yaml"))
           for term in yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]]


def test_every_sheet_language_but_english_has_a_term_list() -> None:
    assert sorted(path.stem for path in TERMS.glob("*.yaml")) == sorted(set(languages()) - {"en"})


@pytest.mark.parametrize(("lang", "term"), ENTRIES, ids=[f"{lang}-{t['concept']}" for lang, t in ENTRIES])
def test_the_sheet_uses_the_listed_word(lang: str, term: dict) -> None:
    text = render_rules(term["sheet"], "md", lang)
    assert term["word"].lower() in text.lower(), f"{lang} {term['sheet']}: no {term['word']!r} ({term['concept']})"
    assert term["seed"] == "none" or term["quote"], "a term from a seed quotes it"


@pytest.mark.skipif(not os.environ.get("KHRAP_SEEDS"), reason="KHRAP_SEEDS (the seed texts' directory) not set")
@pytest.mark.parametrize(("lang", "term"), [e for e in ENTRIES if e[1]["seed"] != "none"],
                         ids=[f"{lang}-{t['concept']}" for lang, t in ENTRIES if t["seed"] != "none"])
def test_the_quote_is_in_its_seed(lang: str, term: dict) -> None:
    seeds = {p.name[:3]: p for p in Path(os.environ["KHRAP_SEEDS"]).iterdir()}
    assert term["quote"] in seeds[term["seed"]].read_text(encoding="utf-8")
