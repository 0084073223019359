"""The generated docs (docs/rules/*, docs/variant-reference.md) match the variant files, schema and templates."""

from __future__ import annotations

from khrap.rulebook import build_docs
from khrap.rulebook.i18n import languages
from khrap.rulebook.reference import schema_fields
from khrap.variant.catalog import builtin_names


def test_generated_docs_are_up_to_date() -> None:
    stale = [str(p.relative_to(build_docs.ROOT)) for p in build_docs.stale()]
    assert not stale, "out of date (regenerate with: python -m khrap.rulebook.build_docs): " + ", ".join(stale)


def test_reference_lists_every_field() -> None:
    text = (build_docs.DOCS / "variant-reference.md").read_text(encoding="utf-8")
    missing = [d.path for d in schema_fields() if f"`{d.path}`" not in text]
    assert not missing


def test_every_builtin_has_sheets_in_both_languages() -> None:
    names = {p.name for p in build_docs.RULES.iterdir()}
    assert {"en", "ru"} <= set(languages())
    for name in builtin_names():
        for lang in languages():
            assert {f"{name}.{lang}.md", f"{name}.{lang}.html"} <= names
