"""The `khrap rules` and `khrap diff` commands (registered on the main app by khrap/cli.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from khrap.rulebook.i18n import languages
from khrap.variant.loader import VariantError

FormatOpt = Annotated[str, typer.Option("--format", "-f", help="html, md or txt.")]
RulesFormatOpt = Annotated[
    str, typer.Option("--format", "-f", help="html, md, txt, or pdf (A4; needs the pdf extra and -o FILE).")
]
LANG_HELP = f"Language of the sheet: {', '.join(languages())} (every language with a catalog)."
LangOpt = Annotated[str, typer.Option("--lang", "-l", help=LANG_HELP)]
OutOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of printing.")]
VariantArg = Annotated[str, typer.Argument(help="A built-in variant name or a path to a .yaml file.")]


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        typer.echo(text, nl=not text.endswith("\n"))
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {output}", err=True)


def _fail(message: str) -> None:
    typer.echo(message, err=True)
    raise typer.Exit(2)


def rules(variant: VariantArg, fmt: RulesFormatOpt = "html", lang: LangOpt = "en", output: OutOpt = None) -> None:
    """Print a rule sheet of a variant (house rules included): HTML to print, Markdown, plain text or PDF."""
    from khrap.rulebook.sheet import render_rules

    try:
        if fmt == "pdf":
            _emit_pdf(variant, lang, output)
            return
        _emit(render_rules(variant, fmt, lang), output)
    except (VariantError, ValueError) as err:
        _fail(str(err))


def _emit_pdf(variant: str, lang: str, output: Path | None) -> None:
    """The sheet as A4 PDF, into a file (a PDF is not for a terminal)."""
    from khrap.rulebook.pdf import PdfUnavailable, render_pdf

    if output is None:
        _fail("a PDF is binary: give the file to write with -o FILE (e.g. -o rules.pdf)")
    try:
        data = render_pdf(variant, lang)
    except PdfUnavailable as err:
        _fail(str(err))
    output.write_bytes(data)
    typer.echo(f"wrote {output}", err=True)


def diff(
    first: Annotated[str, typer.Argument(help="The variant compared against (name or path).")],
    second: Annotated[str, typer.Argument(help="The variant whose differences are told (name or path).")],
    fmt: FormatOpt = "txt",
    lang: LangOpt = "en",
    output: OutOpt = None,
) -> None:
    """Say in words what the second variant changes in the first."""
    from khrap.rulebook.sheet import render_diff

    try:
        _emit(render_diff(first, second, fmt, lang), output)
    except (VariantError, ValueError) as err:
        _fail(str(err))


def register(app: typer.Typer) -> None:
    """Add `rules` and `diff` to the `khrap` command."""
    app.command("rules")(rules)
    app.command("diff")(diff)
