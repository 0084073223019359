"""`khrap play` and `khrap replay`: thin wrappers over ``khrap.play.game`` and ``khrap.session``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from khrap.bots import DEFAULT, KINDS, STRENGTH_HELP, kinds_text, strength_word
from khrap.cli_safety import AllowOutsideOpt, allow_outside, check_writable, fail, write_or_fail
from khrap.engine import RulesError
from khrap.gamelog import _, languages, translate, translations
from khrap.gamelog.voice import _p
from khrap.play.game import Table, run
from khrap.safe_io import OutputError, held_save
from khrap.safe_text import terminal
from khrap.session import RecordError, Session
from khrap.variant.catalog import load_variant
from khrap.variant.derived import default_players
from khrap.variant.loader import VariantError
from khrap.variant.schema import MAX_DEALS


def _fail(message: str) -> None:
    fail(message)


def _warn(variant_ref: str, lang: str = "en") -> None:
    """One line on stderr when the variant has warnings, pointing at `khrap validate`, in ``lang``."""
    from khrap.rulebook.i18n import checker_translations
    from khrap.variant.lint import warnings_line

    line = warnings_line(variant_ref, checker_translations(lang).gettext)
    if line:
        typer.echo(line, err=True)


def _players(variant_ref: str, players: int | None) -> int:
    variant = load_variant(variant_ref)
    if players is not None:
        return players
    return default_players(variant)


def _new_session(variant: str, players: int | None, seed: int | None, lang: str = "en") -> Session:
    try:
        return Session(variant, _players(variant, players), seed=seed)
    except (VariantError, RulesError, ValueError) as err:
        from khrap.rulebook.cli import in_language

        _fail(in_language(err, lang))  # a house rule's mistakes in the language the game is asked in


def play(
    variant: Annotated[str | None, typer.Argument(
        help="A built-in variant or a .yaml file; leave out with --resume.")] = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seats at the table (default 4).")] = None,
    seat: Annotated[list[int] | None, typer.Option(
        "--seat", help="Your seat (default 0); repeat it for several people at one keyboard.")] = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", help=f"Bots at the other seats: {STRENGTH_HELP}. Also random, mcts, and the old names rule, "
                       "heuristic, search (docs/bots.md).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Fixes every shuffle and every bot's choice.")] = None,
    deals: Annotated[int | None, typer.Option(
        "--deals",
        help="End once the session has completed this many deals (default: until you quit).")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots play every seat; you watch.")] = False,
    save: Annotated[Path | None, typer.Option("--save", help="Write the session to FILE after every action.")] = None,
    lang: Annotated[str, typer.Option(
        "--lang", help="Language of the game's log and table (every language with a game-log catalog).")] = "en",
    resume: Annotated[Path | None, typer.Option("--resume", help="Continue the session saved in FILE.")] = None,
    outside: AllowOutsideOpt = False,
) -> None:
    """Play a session against bots at the terminal: deal after deal, chips carried over.

    Choose an action by its number or type it (`khrap`, `exchange 6D 7C`, `play KH`); q quits.
    With --save (or --resume) the session is saved after every action.
    """
    allow_outside(outside)
    if deals is not None and not 1 <= deals <= MAX_DEALS:
        _fail(f"--deals: give a number from 1 to {MAX_DEALS}")
    if seed is not None and not 0 <= seed < 2**64:
        _fail("--seed: give a whole number from 0 to 2^64 - 1")
    if players is not None and not 2 <= players <= 12:
        _fail("--players: give a number from 2 to 12")
    if seat and any(not 0 <= s < 12 for s in seat):
        _fail("--seat: seats are numbered from 0 to 11 at most")
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
        session = _new_session(variant, players, seed, lang)
        _warn(variant, lang)
    saved = session.table
    if lang not in languages():
        _fail(f"--lang {lang}: the game can be shown in {', '.join(languages())}")
    if not isinstance(saved.get("humans", []), list) or not isinstance(saved.get("deals", 0), int | None):
        _fail(f"{resume}: `table` must hold humans (a list of seats) and deals (a number or null)")
    table = Table(
        humans=[] if watch else list(seat or saved.get("humans", [0])),
        bots=bots or saved.get("bots") or DEFAULT,
        deals=deals if deals is not None else saved.get("deals"),
        save=save or resume,
        lang=lang,
    )
    if not isinstance(table.bots, str) or table.bots not in KINDS:
        where = f"{resume}: `table.bots`: " if bots is None and resume is not None else "--bots: "
        _fail(f"{where}unknown bot kind {terminal(repr(table.bots), one_line=True)[:40]} (use {kinds_text()})")
    wrong = [s for s in table.humans if not isinstance(s, int) or not 0 <= s < session.players]
    if wrong:
        _fail(f"--seat {wrong[0]}: seats are 0 to {session.players - 1}")
    check_writable(table.save)
    try:
        with held_save(table.save):  # one session per save: a second one is refused, not merged
            typer.echo(terminal(_welcome(session, table)))
            run(session, table, write=lambda text: typer.echo(terminal(text)), recap=resume is not None)
    except OutputError as err:
        _fail(str(err))


# The bots' kinds as the welcome line says them (context "bots"; other kinds by their own names).
BOT_WORDS = {"easy": _p("bots", "easy"), "normal": _p("bots", "normal"), "strong": _p("bots", "strong"),
             "random": _p("bots", "random")}


def _welcome(session: Session, table: Table) -> str:
    lang = table.lang
    catalog = translations(lang)
    title = session.variant.name.get(lang) or session.variant.name.get("en", session.variant_name)
    if lang == "en":
        title = f"{title} ({session.variant_name})"
    head = translate(lang, _("{title}, {players} players, seed {seed}."), title=title, players=session.players,
                     seed=session.seed)
    # An old name (rule, heuristic, search) is said by its strength's word, the word the player chose the bots
    # by (the catalogs hold the strengths' words; "Heuristic" stood in a Russian sentence, and in English).
    kind = strength_word(table.bots)
    bots = catalog.pgettext("bots", BOT_WORDS.get(kind, kind))
    if not table.humans:
        return f"{head} " + translate(lang, _("{Bots} bots play every seat; you watch."), Bots=bots.capitalize())
    who = ", ".join(translate(lang, _("seat {seat}"), seat=s) for s in table.humans)
    others = session.players - len(set(table.humans))
    text = f"{head} " + translate(lang, _("You play {who}"), who=who)
    if not others:
        return text + "."
    return text + translate(lang, _("; {bots} bots play the other {count}."), bots=bots, count=others)


def replay(
    record: Annotated[Path, typer.Argument(help="A record written by `khrap play --save` or Session.save.")],
    scenario: Annotated[bool, typer.Option("--scenario", help="Print a scenario file (CONTRACT.md) instead.")] = False,
    deal: Annotated[int | None, typer.Option("--deal", help="Only this deal (1 = the first).")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help=(
        "Write to FILE instead of printing (with --scenario, a variant that is not a built-in is "
        "written beside it as FILE's name + .variant.yaml, never over a different file)."))] = None,
    lang: Annotated[str, typer.Option("--lang", help="Language of the story (not of --scenario, which is "
                                                     "CONTRACT.md's words).")] = "en",
    outside: AllowOutsideOpt = False,
) -> None:
    """Tell a recorded session deal by deal, or turn it (or one deal) into a scenario test."""
    from khrap.session.narrate import narrative
    from khrap.session.record import load_record
    from khrap.session.to_scenario import record_to_scenario

    allow_outside(outside)
    if lang not in languages():
        _fail(f"--lang {lang}: the game can be told in {', '.join(languages())}")
    check_writable(output)
    try:
        data = load_record(record)
        files = record_to_scenario(data, deal, output) if scenario else \
            {output: narrative(data, deal, lang) + "\n"}
    except RecordError as err:
        _fail(str(err) if str(err).startswith(str(record)) else f"{record}: {err}")
    for path in files:
        if path is not None and path != output:
            _refuse_overwrite(path, files[path])
    for path, text in sorted(files.items(), key=lambda item: item[0] == output):  # the scenario last
        if path is None:
            typer.echo(terminal(text), nl=False)
        else:
            write_or_fail(path, text)
            typer.echo(f"wrote {terminal(str(path), one_line=True)}")


def _refuse_overwrite(path: Path, text: str) -> None:
    """A file the user did not name is written only where there is none (or it already says the same)."""
    try:
        same = path.is_file() and path.stat().st_size == len(text.encode()) and path.read_text("utf-8") == text
    except (OSError, UnicodeDecodeError):
        same = False
    if (path.exists() or path.is_symlink()) and not same:
        _fail(f"{path}: exists and would be replaced by the record's variant; move it away or choose another -o")
