"""Keep the message catalogs in step with the templates.

    python -m khrap.rulebook.messages            # write messages.pot, update every LANG/…/messages.po
    python -m khrap.rulebook.messages --init de  # start a new language (then translate its .po)
    python -m khrap.rulebook.messages --init-checker de  # its house-rule checker messages (checker.po)

The fixed text of the sheets is in the templates' ``{% trans %}`` blocks and
``_()``/``ngettext()`` calls; Babel extracts it into ``locale/messages.pot``.
Updating a catalog keeps its translations, adds new messages untranslated
(they show in English until translated) and marks changed ones fuzzy.
"""

from __future__ import annotations

import argparse
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from khrap import catalogs
from khrap.rulebook.i18n import CHECKER_DOMAIN, DOMAIN, LOCALE_DIR, catalog_path, languages

TEMPLATES = Path(__file__).resolve().parent / "templates"
TEMPLATE_FILE = LOCALE_DIR / f"{DOMAIN}.pot"
CHECKER_TEMPLATE_FILE = LOCALE_DIR / f"{CHECKER_DOMAIN}.pot"
METHODS = [("**.j2", "jinja2.ext:babel_extract")]
OPTIONS = {"**.j2": {"extensions": "jinja2.ext.do", "trimmed": "true", "newstyle_gettext": "true"}}
# The house-rule checker's messages (khrap.variant.said): the same directory and mechanism, a domain of their
# own (khrap.rulebook.i18n.CHECKER_DOMAIN), so a player reads the sheet and the file's mistakes in one language.
VARIANT = Path(__file__).resolve().parents[1] / "variant"
CHECKER_METHODS = [("**.py", "python")]
CHECKER_KEYWORDS = {"Said": None, "Counted": (1, 2)}  # Counted(singular, plural, count): ngettext's
PO_OPTIONS = {"width": 100, "omit_header": False, "sort_output": False, "no_location": True}


def extract() -> Catalog:
    """Every message of the templates, with where it is used."""
    catalog = Catalog(project="khrap", domain=DOMAIN, fuzzy=False, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(TEMPLATES, METHODS, OPTIONS):
        catalog.add(message, None, [(f"templates/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def extract_checker() -> Catalog:
    """Every message of the house-rule checker (``Said("...")`` in khrap/variant), with where it is used."""
    catalog = Catalog(project="khrap", domain=CHECKER_DOMAIN, fuzzy=False, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            VARIANT, CHECKER_METHODS, keywords=CHECKER_KEYWORDS):
        catalog.add(message, None, [(f"variant/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


HEADER = (
    "# Messages of the khrap rule sheets{language}.\n"
    "# Translate the msgstr lines; `python -m khrap.rulebook.messages` brings the msgids up to date.\n"
    "# A message left empty (or marked fuzzy) prints in English."
)


def render(catalog: Catalog) -> bytes:
    """The catalog as .po text, without the dates Babel would change on every run."""
    catalog.header_comment = HEADER.format(language=f" ({catalog.locale})" if catalog.locale else "")
    catalog.version = "1"
    buffer = BytesIO()
    write_po(buffer, catalog, ignore_obsolete=True, include_previous=False, **PO_OPTIONS)
    dated = (b'"POT-Creation-Date', b'"PO-Revision')
    return b"\n".join(line for line in buffer.getvalue().split(b"\n") if not line.startswith(dated))


def updated(lang: str, template: Catalog, domain: str = DOMAIN) -> bytes:
    """The catalog of ``lang`` brought up to date with ``template``."""
    with _path(lang, domain).open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=domain)
    catalog.update(template, no_fuzzy_matching=False)
    return render(catalog)


def _path(lang: str, domain: str) -> Path:
    return catalog_path(lang) if domain == DOMAIN else catalogs.catalog_path(LOCALE_DIR, domain, lang)


def new_catalog(lang: str, template: Catalog, domain: str = DOMAIN) -> bytes:
    """A new, empty catalog of ``lang``, its header filled in (language, team, Babel's plural rule for
    the language) and so not marked fuzzy, like the catalogs already there."""
    team = Locale.parse(lang).english_name
    catalog = Catalog(locale=lang, domain=domain, project="khrap", charset="utf-8", fuzzy=False,
                      last_translator="khrap project", language_team=team)
    catalog.update(template)
    return render(catalog)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--init", metavar="LANG", help="create the catalog of a new language")
    parser.add_argument("--init-checker", metavar="LANG", help="create the checker catalog of a language")
    args = parser.parse_args(argv)
    template = extract()
    TEMPLATE_FILE.write_bytes(render(template))
    print(f"wrote {TEMPLATE_FILE} ({len(template)} messages)")
    if args.init:
        path = catalog_path(args.init)
        if path.exists():
            parser.error(f"{path} exists already")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(new_catalog(args.init, template))
        print(f"wrote {path}")
    for lang in languages()[1:]:
        catalog_path(lang).write_bytes(updated(lang, template))
        print(f"updated {catalog_path(lang)}")
    checker = extract_checker()
    CHECKER_TEMPLATE_FILE.write_bytes(render(checker))
    print(f"wrote {CHECKER_TEMPLATE_FILE} ({len(checker)} messages)")
    if args.init_checker:
        path = _path(args.init_checker, CHECKER_DOMAIN)
        if path.exists():
            parser.error(f"{path} exists already")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(new_catalog(args.init_checker, checker, CHECKER_DOMAIN))
        print(f"wrote {path}")
    for lang in catalogs.languages(LOCALE_DIR, CHECKER_DOMAIN)[1:]:
        _path(lang, CHECKER_DOMAIN).write_bytes(updated(lang, checker, CHECKER_DOMAIN))
        print(f"updated {_path(lang, CHECKER_DOMAIN)}")


if __name__ == "__main__":
    main()
