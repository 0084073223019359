"""`khrap play` and `khrap replay`: thin wrappers over ``khrap.play.game`` and ``khrap.session``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from khrap.bots import KINDS
from khrap.engine import RulesError
from khrap.gamelog import languages
from khrap.play.game import Table, run
from khrap.session import RecordError, Session
from khrap.variant.catalog import load_variant
from khrap.variant.loader import VariantError


def _fail(message: str) -> None:
    typer.echo(message, err=True)
    raise typer.Exit(2)


def _warn(variant_ref: str) -> None:
    """One line on stderr when the variant has warnings, pointing at `khrap validate`."""
    from khrap.variant.lint import warnings_line

    line = warnings_line(variant_ref)
    if line:
        typer.echo(line, err=True)


def _players(variant_ref: str, players: int | None) -> int:
    variant = load_variant(variant_ref)
    if players is not None:
        return players
    return min(max(4, variant.players.min), variant.players.max)


def _new_session(variant: str, players: int | None, seed: int | None) -> Session:
    try:
        return Session(variant, _players(variant, players), seed=seed)
    except (VariantError, RulesError, ValueError) as err:
        _fail(str(err))


def play(
    variant: Annotated[str | None, typer.Argument(
        help="A built-in variant or a .yaml file; leave out with --resume.")] = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seats at the table (default 4).")] = None,
    seat: Annotated[list[int] | None, typer.Option(
        "--seat", help="Your seat (default 0); repeat it for several people at one keyboard.")] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", help="Bots at the other seats: random, rule, heuristic or mcts (docs/bots.md).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Fixes every shuffle and every bot's choice.")] = None,
    deals: Annotated[int | None, typer.Option(
        "--deals", min=1, help="End once the session has completed this many deals (default: until you quit).")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots play every seat; you watch.")] = False,
    save: Annotated[Path | None, typer.Option("--save", help="Write the session to FILE after every action.")] = None,
    lang: Annotated[str, typer.Option("--lang", help="Language of the game's log and table: en or ru.")] = "en",
    resume: Annotated[Path | None, typer.Option("--resume", help="Continue the session saved in FILE.")] = None,
) -> None:
    """Play a session against bots at the terminal: deal after deal, chips carried over.

    Choose an action by its number or type it (`khrap`, `exchange 6D 7C`, `play KH`); q quits.
    With --save (or --resume) the session is saved after every action.
    """
    if (variant is None) == (resume is None):
        _fail("give a VARIANT to start a session, or --resume FILE to continue one (not both)")
    if resume is not None:
        if seed is not None or players is not None:
            _fail("--seed and --players belong to the saved session; leave them out with --resume")
        try:
            session = Session.load(resume)
        except RecordError as err:
            _fail(f"{resume}: {err}")
    else:
        session = _new_session(variant, players, seed)
        _warn(variant)
    saved = session.table
    if lang not in languages():
        _fail(f"--lang {lang}: the game can be shown in {', '.join(languages())}")
    if not isinstance(saved.get("humans", []), list) or not isinstance(saved.get("deals", 0), int | None):
        _fail(f"{resume}: `table` must hold humans (a list of seats) and deals (a number or null)")
    table = Table(
        humans=[] if watch else list(seat or saved.get("humans", [0])),
        bots=bots or saved.get("bots") or "rule",
        deals=deals if deals is not None else saved.get("deals"),
        save=save or resume,
        lang=lang,
    )
    if table.bots not in KINDS:
        _fail(f"unknown bot kind '{table.bots}' (use {' or '.join(KINDS)})")
    wrong = [s for s in table.humans if not isinstance(s, int) or not 0 <= s < session.players]
    if wrong:
        _fail(f"--seat {wrong[0]}: seats are 0 to {session.players - 1}")
    typer.echo(_welcome(session, table))
    run(session, table, write=lambda text: typer.echo(text), recap=resume is not None)


def _welcome(session: Session, table: Table) -> str:
    title = session.variant.name.get("en", session.variant_name)
    head = f"{title} ({session.variant_name}), {session.players} players, seed {session.seed}."
    if not table.humans:
        return f"{head} {table.bots.capitalize()} bots play every seat; you watch."
    who = ", ".join(f"seat {s}" for s in table.humans)
    bots = session.players - len(set(table.humans))
    return f"{head} You play {who}" + (f"; {table.bots} bots play the other {bots}." if bots else ".")


def replay(
    record: Annotated[Path, typer.Argument(help="A record written by `khrap play --save` or Session.save.")],
    scenario: Annotated[bool, typer.Option("--scenario", help="Print a scenario file (CONTRACT.md) instead.")] = False,
    deal: Annotated[int | None, typer.Option("--deal", help="Only this deal (1 = the first).")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to FILE instead of printing.")] = None,
) -> None:
    """Tell a recorded session deal by deal, or turn it (or one deal) into a scenario test."""
    from khrap.session.narrate import narrative
    from khrap.session.record import load_record
    from khrap.session.to_scenario import record_to_scenario

    try:
        data = load_record(record)
        files = record_to_scenario(data, deal, output) if scenario else {output: narrative(data, deal) + "\n"}
    except RecordError as err:
        _fail(f"{record}: {err}")
    for path, text in files.items():
        if path is None:
            typer.echo(text, nl=False)
        else:
            path.write_text(text, encoding="utf-8")
            typer.echo(f"wrote {path}")
