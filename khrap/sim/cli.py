"""The `khrap simulate` and `khrap analyze` commands (registered on the main app by khrap/cli.py)."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from khrap.cli_safety import AllowOutsideOpt, allow_outside, check_writable, fail, write_or_fail
from khrap.engine import RulesError
from khrap.kernel_build import kernel_label
from khrap.safe_text import json_text, terminal
from khrap.sim.pool import LocalWorkers
from khrap.sim.runner import CHUNK, Progress, SimResult, SimSpec, simulate
from khrap.variant.catalog import load_variant
from khrap.variant.loader import VariantError
from khrap.variant.schema import MAX_DEALS, MAX_WORKERS

VariantArg = Annotated[str, typer.Argument(help="A built-in variant name or a path to a .yaml file.")]
DealsOpt = Annotated[int, typer.Option("--deals", "-d", help=f"Deals to play (1 to {MAX_DEALS}).")]
PlayersOpt = Annotated[int | None, typer.Option(
    "--players", "-n", help="Seats (default 4, within the variant's range).")]
BotsOpt = Annotated[str, typer.Option(
    "--bots", help="Bot kind at every seat, or one per seat: rule,random,random,random.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Fixes every shuffle and bot choice, whatever the workers.")]
WorkersOpt = Annotated[int | None, typer.Option("--workers", "-w",
                                                help=f"Worker processes, 1 to {MAX_WORKERS} (default: every core).")]
ChunkOpt = Annotated[int, typer.Option("--chunk",
                                       help="Deals per chunk; a chunk is one session at one table.")]


class Engine(StrEnum):
    """Which engine plays the deals (``SimSpec.engine``)."""

    auto = "auto"
    reference = "reference"


EngineOpt = Annotated[Engine, typer.Option(
    "--engine", help="auto: the compiled machine (several times faster) when every bot is random, else the "
                     "reference kernel; reference: always the reference kernel. Both give the same numbers "
                     "from the same seed.")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help="Run on a Dask cluster: its scheduler address (tcp://host:8786), or `local` "
                        "for a LocalCluster of --workers processes here (needs the `dask` extra).")]


def _fail(message: str) -> None:
    fail(message)


def _check_counts(deals: int, workers: int | None, chunk: int, seed: int = 0) -> None:
    """The command's limits (khrap/variant/schema.py), each refused in one line."""
    if not 0 <= seed < 2**64:
        _fail("--seed: give a whole number from 0 to 2^64 - 1")
    for option, value, high in (("--deals", deals, MAX_DEALS), ("--workers", workers, MAX_WORKERS),
                                ("--chunk", chunk, MAX_DEALS)):
        if value is not None and not 1 <= value <= high:
            _fail(f"{option} {value if abs(value) < 10**12 else 'of ' + str(len(str(abs(value)))) + ' digits'}: "
                  f"give a number from 1 to {high}")


def _spec(ref: str, deals: int, players: int | None, bots: str, seed: int, chunk: int,
          engine: Engine = Engine.auto) -> SimSpec:
    if len(bots) > 200:
        _fail("--bots: give at most one bot kind per seat (random, rule, heuristic or mcts)")
    try:
        variant = load_variant(ref)
        if players is None:
            players = min(max(4, variant.players.min), variant.players.max)
        kinds = bots.split(",") if "," in bots else bots
        return SimSpec.make(variant, players, kinds, seed, deals, chunk, name=variant.name.get("en", ref),
                            engine=engine.value)
    except (VariantError, RulesError, ValueError) as err:
        _fail(str(err))


@contextlib.contextmanager
def _progress(tasks: list[tuple[str, int]]) -> Iterator[list[Progress | None]]:
    """One progress callback per task, drawn on stderr when it is a terminal; None callbacks otherwise."""
    if not sys.stderr.isatty():
        yield [None] * len(tasks)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        ids = [bar.add_task(name, total=total) for name, total in tasks]
        yield [lambda k, i=i: bar.advance(i, k) for i in ids]


Runner = Callable[[SimSpec, bool, Progress | None], SimResult]


@contextlib.contextmanager
def _backend(workers: int | None, scheduler: str | None) -> Iterator[Runner]:
    """A runner for several specs: one pool of local processes, or one Dask client, kept for all of them."""
    if scheduler is None:
        with LocalWorkers(workers) as pool:
            yield lambda spec, keep, progress: simulate(spec, keep_records=keep, progress=progress, pool=pool)
        return
    from khrap.sim.cluster import connect, simulate_on_dask

    try:
        client, cluster = connect(scheduler, workers)
    except (RuntimeError, OSError) as err:  # reported by the command's `except RuntimeError`
        raise RuntimeError(str(err)) from None
    try:
        yield lambda spec, keep, progress: simulate_on_dask(spec, client, keep_records=keep, progress=progress)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def simulate_cmd(
    variant: VariantArg,
    deals: DealsOpt = 1000,
    players: PlayersOpt = None,
    bots: BotsOpt = "random",
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    chunk: ChunkOpt = CHUNK,
    scheduler: SchedulerOpt = None,
    engine: EngineOpt = Engine.auto,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
    csv: Annotated[Path | None, typer.Option("--csv", help="Also write one CSV row per deal to FILE.")] = None,
    outside: AllowOutsideOpt = False,
) -> None:
    """Play many deals with bots and print the statistics: calls and their success and results,
    chips by seat, pot sizes, all-pass, turn-up and redeal rates, deal length, speed."""
    allow_outside(outside)
    _check_counts(deals, workers, chunk, seed)
    check_writable(csv)  # before the deals, not after them
    spec = _spec(variant, deals, players, bots, seed, chunk, engine)
    try:
        with _backend(workers, scheduler) as run, _progress([(spec.name, deals)]) as (progress,):
            result = run(spec, csv is not None, progress)
    except RuntimeError as err:
        _fail(str(err))
    summary = result.summary()
    summary["kernel"] = kernel_label()  # which kernel played the deals: plain Python or compiled (docs/compiled.md)
    if csv is not None:
        import io

        from khrap.sim.text import write_csv

        rows = io.StringIO(newline="")
        write_csv(result.records, spec.chunk, rows)
        write_or_fail(csv, terminal(rows.getvalue()))
        typer.echo(f"wrote {terminal(str(csv), one_line=True)}", err=True)
    if as_json:
        typer.echo(json_text(json.dumps(summary, ensure_ascii=False, indent=2)))
    else:
        from khrap.sim.text import account

        typer.echo(terminal(account(summary)), nl=False)
        typer.echo(f"kernel: {summary['kernel']}")


def analyze(
    variants: Annotated[list[str], typer.Argument(help="Variants to compare (names or .yaml files), 1 or more.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML report to write.")],
    deals: DealsOpt = 2000,
    players: PlayersOpt = None,
    bots: BotsOpt = "random",
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    chunk: ChunkOpt = CHUNK,
    scheduler: SchedulerOpt = None,
    engine: EngineOpt = Engine.auto,
    outside: AllowOutsideOpt = False,
) -> None:
    """Simulate each variant and write one self-contained HTML report comparing them side by side
    (plots and tables: call success, results per call, seat fairness, pots, swing, design measures)."""
    from khrap.sim.plots import MISSING

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        _fail(MISSING)
    from khrap.sim.report import render_report

    allow_outside(outside)
    _check_counts(deals, workers, chunk, seed)
    check_writable(output)  # before the deals, not after them
    specs = [_spec(ref, deals, players, bots, seed, chunk, engine) for ref in variants]
    runs = []
    try:
        with _backend(workers, scheduler) as run, _progress([(s.name, deals) for s in specs]) as callbacks:
            for spec, progress in zip(specs, callbacks, strict=True):
                runs.append((spec.name, run(spec, False, progress).summary()))
    except RuntimeError as err:
        _fail(str(err))
    first = runs[0][1]
    bots_text = ",".join(first["bots"]) if len(set(first["bots"])) > 1 else first["bots"][0]
    setup = (f"{deals} deals per variant, {first['players']} players, {bots_text} bots, seed {seed}, "
             f"sessions of {chunk} deals (100 chips a seat), {first['workers']} worker(s).")
    write_or_fail(output, render_report(runs, setup, variants))
    typer.echo(f"wrote {terminal(str(output), one_line=True)}", err=True)


def register(app: typer.Typer) -> None:
    """Add `simulate` and `analyze` to the `khrap` command."""
    app.command("simulate")(simulate_cmd)
    app.command("analyze")(analyze)


__all__ = ["analyze", "register", "simulate_cmd"]
