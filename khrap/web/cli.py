"""The `khrap serve` and `khrap verify` commands (registered on the main app by khrap/cli.py).

`serve` needs the web extra (Starlette, uvicorn); `verify` needs nothing more than khrap.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Annotated

import typer

from khrap.cli_safety import fail
from khrap.safe_text import terminal


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only; "
                                                     "0.0.0.0: every network; behind a proxy see docs/serve.md).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    db: Annotated[Path, typer.Option("--db", help="The SQLite file that keeps every table (created if missing).")]
    = Path("khrap.sqlite"),
    takeover: Annotated[float, typer.Option(
        "--takeover", help="Seconds a player may be away before a bot plays the seat (until back).")] = 60.0,
    bot_delay: Annotated[float, typer.Option("--bot-delay", help="Seconds a bot waits before it acts.")] = 0.7,
    rate: Annotated[float, typer.Option(
        "--rate", help="Messages a second one connection may send (more are refused; a flood is cut off).")] = 10.0,
    post_rate: Annotated[float, typer.Option(
        "--post-rate", help="Requests a second one client address may POST (house-rule checks, creations).")] = 1.0,
    creates: Annotated[float, typer.Option(
        "--creates", help="Tables one client address may create an hour (10 at once).")] = 30.0,
    per_address: Annotated[int, typer.Option(
        "--per-address", help="WebSockets one client address may hold open at once (raise it behind a proxy that "
                              "does not pass the client's address on, or for a load test).")] = 64,
    expire: Annotated[float, typer.Option(
        "--expire", help="Days after which a table nobody finished and nobody played at is deleted "
                         "(finished tables are kept).")] = 30.0,
    backup: Annotated[Path | None, typer.Option(
        "--backup", help="Copy the database (--db) to this file consistently, even while a server plays on it, "
                         "and exit.")] = None,
    origin: Annotated[list[str] | None, typer.Option(
        "--origin", help="Another origin whose pages may open the table's WebSocket (e.g. https://cards.example.org "
                         "behind a proxy that changes the Host); repeatable.")] = None,
) -> None:
    """Run a web table for friends: create a table, send the invite links, play in the browser.

    Every table is kept in the SQLite file (--db) as its setup and actions, so a restarted server
    resumes each one exactly. Open http://HOST:PORT/ to start a table."""
    try:
        from khrap.web.app import serve as run
    except ImportError as err:
        fail(f"khrap serve needs the web extra: pip install 'khrap[web]' ({err.name} is missing)")
    if not 1 <= port <= 65535:
        fail("--port must be from 1 to 65535")
    if not 1 <= per_address <= 1_000_000:
        fail("--per-address must be from 1 to 1000000")
    if takeover < 0 or bot_delay < 0 or rate <= 0 or post_rate <= 0 or creates <= 0 or expire <= 0:
        fail("--takeover and --bot-delay must be 0 or more; --rate, --post-rate, --creates and --expire more than 0")
    from khrap.web.store import StoreError

    if backup is not None:
        _backup(db, backup)
        return
    from khrap.kernel_build import kernel_label

    # (the kernel said at start: a compiled wheel serves a tenth or more faster, docs/serve.md)
    typer.echo(f"khrap serve: http://{host}:{port}/  (tables in {terminal(str(db), one_line=True)}; "
               f"kernel: {kernel_label()}; Ctrl-C stops)")
    try:
        run(host, port, str(db), takeover_seconds=takeover, bot_delay=bot_delay, origins=tuple(origin or ()),
            rate=rate, post_rate=(post_rate, max(20.0, post_rate * 3)), creates=(creates, min(10.0, creates)),
            expire_days=expire, per_address=per_address)
    except StoreError as err:
        fail(str(err))


def _backup(db: Path, target: Path) -> None:
    """``khrap serve --backup``: SQLite's online backup of ``db`` to ``target``."""
    import sqlite3

    if not db.is_file():
        fail(f"{db}: no such database")
    if target.exists() and target.resolve() == db.resolve():
        fail(f"{target}: the backup must be another file than the database")
    try:
        source = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        copy = sqlite3.connect(str(target))
        with contextlib.closing(source), contextlib.closing(copy):
            source.backup(copy)
    except sqlite3.Error as err:
        fail(f"{target}: the backup failed ({err})")
    typer.echo(f"{terminal(str(target), one_line=True)}: a copy of {terminal(str(db), one_line=True)}")


def verify(
    record: Annotated[Path, typer.Argument(help="A record file downloaded from a `khrap serve` table.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for other programs.")] = False,
) -> None:
    """Check a web table's record: every deal's commitment matches its revealed seed, every deck dealt is the
    one its seed makes, and the record replays to what it says. Exit 1 if anything does not hold."""
    from khrap.fairness import verify_record
    from khrap.session.record import RecordError, load_record

    try:
        data = load_record(record)
    except RecordError as err:
        fail(str(err))
    good, bad = verify_record(data)
    if as_json:
        typer.echo(json.dumps({"ok": not bad, "checked": good, "problems": bad}, ensure_ascii=False, indent=2))
    else:
        for line in good:
            typer.echo(terminal(line))
        for line in bad:
            typer.echo(terminal(f"{record}: {line}"), err=True)
        if not bad:
            typer.echo(f"{terminal(str(record), one_line=True)}: fair: {len(good)} deals checked")
    if bad:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command()(serve)
    app.command()(verify)
