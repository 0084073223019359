"""What every `khrap` command shares at the trust boundary: the --allow-outside flag, one-line
escaped failures (exit 2), and outputs written only when complete (``khrap.safe_io``)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from khrap.safe_io import OutputError, check_output, write_output
from khrap.safe_text import terminal
from khrap.variant import loader

AllowOutsideOpt = Annotated[bool, typer.Option(
    "--allow-outside",
    help="Let a file name files outside its own folder (extends:, a scenario's or record's variant:). "
         "Only for files you trust: without it a file may name only built-ins and files in its folder or below.")]


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one message on stderr, control and bidi characters escaped, and exit (2: a user mistake)."""
    typer.echo(terminal(message), err=True)
    raise typer.Exit(code)


def allow_outside(flag: bool) -> None:
    """Apply --allow-outside (or its absence) for the running command; restored when the command ends."""
    saved = loader.TRUST
    loader.TRUST = loader.ANYWHERE if flag else loader.LOCAL
    ctx = _current_context()
    if ctx is not None:
        ctx.call_on_close(lambda: setattr(loader, "TRUST", saved))


def _current_context() -> Any:
    """The running command's context: typer >= 0.20 carries its own copy of click, older ones use click."""
    for name in ("typer._click.globals", "click"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        ctx = module.get_current_context(silent=True)
        if ctx is not None:
            return ctx
    return None


def check_writable(path: Path | None) -> None:
    """Refuse an output that cannot be written before the work that fills it."""
    if path is not None:
        try:
            check_output(path)
        except OutputError as err:
            fail(str(err))


def write_or_fail(path: Path, text: str | bytes) -> None:
    """Write an output the user named, replaced only once complete; one message and exit 2 on failure."""
    try:
        write_output(path, text)
    except OutputError as err:
        fail(str(err))


__all__ = ["AllowOutsideOpt", "allow_outside", "check_writable", "fail", "write_or_fail"]
