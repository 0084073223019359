"""The `khrap rules` and `khrap diff` commands (registered on the main app by khrap/cli.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from khrap.cli_safety import AllowOutsideOpt, allow_outside, fail, write_or_fail
from khrap.rulebook.i18n import languages
from khrap.safe_text import terminal
from khrap.variant.loader import VariantError

FormatOpt = Annotated[str, typer.Option("--format", "-f", help="html, md or txt.")]
RulesFormatOpt = Annotated[
    str, typer.Option("--format", "-f", help="html, md, txt, or pdf (A4; needs the pdf extra and -o FILE).")
]
LANG_HELP = f"Language of the sheet: {', '.join(languages())} (every language with a catalog)."
LangOpt = Annotated[str, typer.Option("--lang", "-l", help=LANG_HELP)]
OutOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of printing.")]
VariantArg = Annotated[str, typer.Argument(help="A built-in variant name or a path to a .yaml file.")]


def _emit(text: str | bytes, output: Path | None) -> None:
    """The sheet on stdout or in the file named: control and bidi characters from the variant escaped
    (HTML is escaped by its templates as well); a file is replaced only once the sheet is complete.
    A binary sheet (bytes) is written as it is."""
    if isinstance(text, bytes):
        if output is None:
            _fail("a binary rule sheet needs -o FILE")
        write_or_fail(output, text)
        typer.echo(f"wrote {terminal(str(output), one_line=True)}", err=True)
        return
    text = terminal(text)
    if output is None:
        typer.echo(text, nl=not text.endswith("\n"))
    else:
        write_or_fail(output, text)
        typer.echo(f"wrote {terminal(str(output), one_line=True)}", err=True)


def _fail(message: str) -> None:
    fail(message)


def in_language(err: Exception, lang: str) -> str:
    """A mistake as the user reads it: a file's mistakes located (``FILE:LINE:COL: ...``, the location as it
    always is) and worded in ``lang`` through the checker's catalogs beside the sheets'; English where a
    message has no translation."""
    from khrap.rulebook.i18n import checker_translations

    if isinstance(err, VariantError):
        return err.shown(checker_translations(lang).gettext)
    return str(err)


def rules(variant: VariantArg, fmt: RulesFormatOpt = "html", lang: LangOpt = "en", output: OutOpt = None,
          outside: AllowOutsideOpt = False) -> None:
    """Print a rule sheet of a variant (house rules included): HTML to print, Markdown, plain text or PDF."""
    from khrap.rulebook.sheet import render_rules

    allow_outside(outside)
    try:
        if fmt == "pdf":
            _emit_pdf(variant, lang, output)
            return
        _emit(render_rules(variant, fmt, lang), output)
    except (VariantError, ValueError) as err:
        _fail(in_language(err, lang))
    _warn(variant, lang)


def _warn(variant: str, lang: str = "en") -> None:
    """One line on stderr when the variant has warnings, pointing at `khrap validate`, in ``lang``."""
    from khrap.rulebook.i18n import checker_translations
    from khrap.variant.lint import warnings_line

    line = warnings_line(variant, checker_translations(lang).gettext)
    if line:
        typer.echo(line, err=True)


def _emit_pdf(variant: str, lang: str, output: Path | None) -> None:
    """The sheet as A4 PDF, into a file (a PDF is not for a terminal)."""
    from khrap.rulebook.pdf import PdfUnavailable, render_pdf

    if output is None:
        _fail("a PDF is binary: give the file to write with -o FILE (e.g. -o rules.pdf)")
    try:
        data = render_pdf(variant, lang)
    except PdfUnavailable as err:
        _fail(str(err))
    _emit(data, output)


def diff(
    first: Annotated[str, typer.Argument(help="The variant compared against (name or path).")],
    second: Annotated[str, typer.Argument(help="The variant whose differences are told (name or path).")],
    fmt: FormatOpt = "txt",
    lang: LangOpt = "en",
    output: OutOpt = None,
    outside: AllowOutsideOpt = False,
) -> None:
    """Say in words what the second variant changes in the first."""
    from khrap.rulebook.sheet import render_diff

    allow_outside(outside)
    try:
        _emit(render_diff(first, second, fmt, lang), output)
    except (VariantError, ValueError) as err:
        _fail(in_language(err, lang))


def register(app: typer.Typer) -> None:
    """Add `rules` and `diff` to the `khrap` command."""
    app.command("rules")(rules)
    app.command("diff")(diff)
