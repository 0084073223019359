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

from khrap.bots import DEFAULT, KINDS, STRENGTH_HELP
from khrap.cli_safety import AllowOutsideOpt, allow_outside, check_writable, fail, write_or_fail
from khrap.engine import RulesError
from khrap.kernel_build import kernel_label
from khrap.safe_text import json_text, terminal
from khrap.sim.makeable import SOLVE_DEALS, SOLVE_SECONDS
from khrap.sim.pool import LocalWorkers
from khrap.sim.report_words import tr
from khrap.sim.runner import CHUNK, Progress, SimResult, SimSpec, simulate
from khrap.variant.catalog import load_variant
from khrap.variant.derived import default_players, seat_stack
from khrap.variant.loader import VariantError
from khrap.variant.schema import MAX_DEALS, MAX_NAME_CHARS, MAX_WORKERS

BOT_BUDGET_SECONDS = 600
"""The default bot is the normal one unless its deals would take longer than this; then the random one."""
HEURISTIC_DEALS_PER_SECOND = 300
"""A cautious figure for the heuristic bot's deals per second on one core (measured: about 400)."""


def default_bots(deals: int, workers: int | None, t: Callable[[str], str] = str) -> tuple[str, str]:
    """(bot kind, why) for a run of ``deals`` deals in all on ``workers`` processes when --bots is not given
    (``t``: why, in the report's language)."""
    from khrap.sim.pool import default_workers

    cores = workers or default_workers()
    seconds = deals / (HEURISTIC_DEALS_PER_SECOND * cores)
    if seconds <= BOT_BUDGET_SECONDS:
        return DEFAULT, ""
    return "random", t("random bots: normal ones would need about {minutes:.0f} minutes for {deals} deals (give "
                       "--bots normal to wait for them)").format(minutes=seconds / 60, deals=deals)


VariantArg = Annotated[str, typer.Argument(help="A built-in variant name or a path to a .yaml file.")]
DealsOpt = Annotated[int, typer.Option("--deals", "-d", help=f"Deals to play (1 to {MAX_DEALS}).")]
PlayersOpt = Annotated[int | None, typer.Option(
    "--players", "-n", help="Seats (default 4, within the variant's range).")]
BotsOpt = Annotated[str | None, typer.Option(
    "--bots", help=f"Bots at every seat, or one per seat (easy,normal,normal,normal): {STRENGTH_HELP}. Also "
                   "random, mcts and the old names rule, heuristic, search. Default: normal (random when normal "
                   f"deals would take over {BOT_BUDGET_SECONDS // 60} minutes).")]
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
    "--engine", help="auto: the kernel's bare machine (several times faster: no checks, no events) when "
                     "every bot is random, else the same kernel behind GameState (every action checked, events "
                     "on); reference: always GameState. Both give the same numbers from the same seed.")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help="Run on a Dask cluster: its scheduler address (tcp://host:8786), or `local` "
                        "for a LocalCluster of --workers processes here (needs the `dask` extra).")]


MakeableOpt = Annotated[bool, typer.Option(
    "--makeable", help="Also report how often each contract that reached the card play was makeable with every "
                       f"card open (the exact solver at the first card), on --solve deals (default {SOLVE_DEALS}).")]
SolveOpt = Annotated[int | None, typer.Option(
    "--solve", help="Deals (per variant) whose contracts the solver judges, spread evenly over the run (implies "
                    "--makeable; 0: none).")]
SolveSecondsOpt = Annotated[float, typer.Option(
    "--solve-seconds", help="The solver's time limit per deal; a deal not solved in time is counted apart.")]


def _solving(deals: int, makeable: bool, solve: int | None, seconds: float) -> int:
    """The deals the solver judges (0: none), the options checked."""
    if solve is not None and not 0 <= solve <= MAX_DEALS:
        _fail(f"--solve {solve}: give a number from 0 to {MAX_DEALS}")
    if not 0 < seconds <= 600:
        _fail(f"--solve-seconds {seconds}: give a number of seconds above 0, at most 600")
    return min(deals, (SOLVE_DEALS if solve is None else solve) if makeable or solve is not None else 0)


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
          engine: Engine = Engine.auto, variant=None, solve: int = 0, solve_seconds: float = SOLVE_SECONDS) -> SimSpec:
    if len(bots) > 200:
        _fail(f"--bots: give at most one bot kind per seat ({', '.join(KINDS)})")
    try:
        variant = variant or load_variant(ref)
        if players is None:
            players = default_players(variant)
        kinds = bots.split(",") if "," in bots else bots
        return SimSpec.make(variant, players, kinds, seed, deals, chunk, name=variant.name.get("en", ref),
                            engine=engine.value, solve=solve, solve_seconds=solve_seconds)
    except (VariantError, RulesError, ValueError) as err:
        _fail(f"{ref}: {err}" if str(ref) not in str(err) else str(err))


def _table_size(refs: list[str], players: int | None, lang: str = "en") -> tuple[list, int, str]:
    """The loaded variants, the one player count they are compared at, and a note when it is not 4.

    Variants are compared at the same table size only: ``--players`` when given; else 4 when every variant
    allows it, else the smallest count every variant allows; variants with no count in common are refused."""
    loaded = []
    for ref in refs:
        try:
            loaded.append(load_variant(ref))
        except (VariantError, RulesError, ValueError) as err:
            _fail(str(err))
    loaded = _told_apart(loaded, refs)
    if players is not None:
        return loaded, players, ""
    allowed = [set(range(v.players.min, v.players.max + 1)) for v in loaded]
    common = set.intersection(*allowed)
    if not common:
        each = "; ".join(f"{v.name.get('en', ref)}: {v.players.min}-{v.players.max} players"
                         for v, ref in zip(loaded, refs, strict=True))
        _fail(f"no number of players suits every variant ({each}): variants are compared at the same table "
              f"size only; analyze them one at a time")
    count = 4 if 4 in common else min(common)
    ranges = "; ".join(f"{v.name.get(lang) or v.name.get('en', ref)}: {v.players.min}-{v.players.max}"
                       for v, ref in zip(loaded, refs, strict=True))
    note = "" if count == 4 else tr(lang)("Compared at {count} players, the count every variant allows "
                                          "({ranges}).").format(count=count, ranges=ranges)
    return loaded, count, note


def _told_apart(loaded: list, refs: list[str]) -> list:
    """The variants, each one whose name (in any language) is an earlier one's named after its file as well:
    a house rule without a ``name:`` takes its parent's, and the report said "Khrap vs Khrap", "13 % under
    “Khrap”, 3 % under “Khrap”".  ``Khrap (friday)`` for ``friday.yaml``; the rules are unchanged."""
    out: list = []
    for variant, ref in zip(loaded, refs, strict=True):
        if any(set(variant.name.items()) & set(seen.name.items()) for seen in out):
            stem = Path(ref).stem[:40] if str(ref).endswith((".yaml", ".yml")) else str(ref)[:40]
            variant = variant.model_copy(update={"name": {lang: f"{name[:MAX_NAME_CHARS - 43]} ({stem})"
                                                          for lang, name in variant.name.items()}})
        out.append(variant)
    return out


BAR_REFRESH = 2
"""Times a second the progress bars are drawn again (rich's default is 10): the bars move once a finished task,
and each drawing is CPU of the command's own process while its workers play (about 17 ms a second at 10)."""


@contextlib.contextmanager
def _progress(tasks: list[tuple[str, int]]) -> Iterator[list[Progress | None]]:
    """One progress callback per task, drawn on stderr when it is a terminal; None callbacks otherwise."""
    if not sys.stderr.isatty():
        yield [None] * len(tasks)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True, refresh_per_second=BAR_REFRESH) as bar:
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
    bots: BotsOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    chunk: ChunkOpt = CHUNK,
    scheduler: SchedulerOpt = None,
    engine: EngineOpt = Engine.auto,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
    csv: Annotated[Path | None, typer.Option("--csv", help="Also write one CSV row per deal to FILE.")] = None,
    makeable: MakeableOpt = False,
    solve: SolveOpt = None,
    solve_seconds: SolveSecondsOpt = SOLVE_SECONDS,
    outside: AllowOutsideOpt = False,
    lang: Annotated[str, typer.Option("--lang", help="The language of the printed statistics: en or ru (calls "
                                                     "by their names in it; --json and --csv keep the ids).")] = "en",
) -> None:
    """Play many deals with bots and print the statistics: calls and their success and results,
    chips by seat, pot sizes, all-pass, turn-up and redeal rates, deal length, speed."""
    from khrap.sim.table_words import LANGS

    allow_outside(outside)
    if lang not in LANGS:
        _fail(f"--lang {lang}: give {' or '.join(LANGS)}")
    t = tr(lang)
    _check_counts(deals, workers, chunk, seed)
    check_writable(csv)  # before the deals, not after them
    if bots is None:
        bots, why = default_bots(deals, workers, t)
        if why:
            typer.echo(t("note: {why}").format(why=why), err=True)
    solving = _solving(deals, makeable, solve, solve_seconds)
    loaded = _load(variant)
    spec = _spec(variant, deals, players, bots, seed, chunk, engine, variant=loaded, solve=solving,
                 solve_seconds=solve_seconds)
    try:
        with _backend(workers, scheduler) as run, \
                _progress([(spec.name + (f" (solving {solving} deals)" if solving else ""), deals)]) as (progress,):
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
        _print_account(summary, loaded, lang)


def _load(ref: str):
    """The variant ``ref`` names, or the command's located error (exit 2)."""
    try:
        return load_variant(ref)
    except (VariantError, RulesError, ValueError) as err:
        _fail(str(err))


def _print_account(summary: dict, variant, lang: str) -> None:
    """The statistics as text in ``lang``: calls, contracts, endings and positions by their names in it."""
    from khrap.sim.makeable import makeable_text
    from khrap.sim.report_words import position_label
    from khrap.sim.table_words import contract_name, variant_name, word_name
    from khrap.sim.text import account

    t = tr(lang)
    labels = {c["call"] for c in summary["calls"]} | {c["contract"] for c in summary["contracts"]}
    names = {label: contract_name(variant, label, lang) for label in labels}
    names |= {e: word_name([variant], e, lang) for e in summary["rates"]["endings"]}
    names |= {p["name"]: position_label(p["name"], t) for p in summary["positions"]}

    def name(label: str) -> str:
        found = names.get(label, label)
        return t(found) if found == label else found  # a label with no name of its own: the catalog's word

    shown = variant_name(variant, lang)
    typer.echo(terminal(account({**summary, "variant": shown}, t, name)), nl=False)
    if summary.get("makeable"):
        typer.echo("")
        typer.echo(terminal(makeable_text([{**summary["makeable"], "variant": shown}], t, name)), nl=False)
    typer.echo(t("kernel: {kernel}").format(kernel=t(summary["kernel"])))


def analyze(
    variants: Annotated[list[str], typer.Argument(help="Variants to compare (names or .yaml files), 1 or more; "
                                                       "the first is the one the others are compared with.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML report to write.")],
    deals: DealsOpt = 2000,
    players: PlayersOpt = None,
    bots: BotsOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    chunk: Annotated[int | None, typer.Option(
        "--chunk", help="Deals per chunk; a chunk is one session at one table (default: --evening, so that "
                        "each session is an evening of the evening view).")] = None,
    scheduler: SchedulerOpt = None,
    engine: EngineOpt = Engine.auto,
    stack: Annotated[int | None, typer.Option(
        "--stack", help="Evening view: the chips each player brings (default: the variant's own, as in a "
                        "simulation: 100, or 100 base stakes where stacks decide who is dealt in or what a "
                        "player can pay).")] = None,
    evening: Annotated[int, typer.Option("--evening", help="Evening view: the deals of an evening.")] = 50,
    evenings: Annotated[int | None, typer.Option(
        "--evenings", help="Evening view: evenings per variant (default: --deals / --evening, at least 4; 0: "
                           "no evening view). They are the paired run's sessions when a session is an evening "
                           "(--chunk = --evening, --stack the default, as many as the sessions), else played "
                           "apart.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis (verdict, paired differences, "
                                                         "evenings, hands) as JSON instead of text.")] = False,
    makeable: MakeableOpt = False,
    solve: SolveOpt = None,
    solve_seconds: SolveSecondsOpt = SOLVE_SECONDS,
    outside: AllowOutsideOpt = False,
    lang: Annotated[str, typer.Option("--lang", help="The language of the verdict for the table: "
                                                     "en or ru.")] = "en",
) -> None:
    """Compare variants deal by deal (the same cards and bot dice for each deal number in every variant) and
    write one self-contained HTML report: a verdict first, each change with its 95% interval, an evening at the
    table, which hands are worth a call, then plots and tables (call success, results per call, seat fairness,
    pots, swing, design measures). The verdict and the numbers are also printed (text, or --json)."""
    from khrap.sim.plots import MISSING

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        _fail(MISSING)
    from khrap.sim.analysis import analysis, analysis_text
    from khrap.sim.evening import EveningSpec, run_evenings, summarize_evenings
    from khrap.sim.paired import PairedSpec, PairingError
    from khrap.sim.report import render_report
    from khrap.sim.table_words import LANGS

    allow_outside(outside)
    if lang not in LANGS:
        _fail(f"--lang {lang}: give {' or '.join(LANGS)}")
    for option, value in (("--stack", stack), ("--evening", evening)):
        if value is not None and not 1 <= value <= MAX_DEALS:
            _fail(f"{option} {value}: give a number from 1 to {MAX_DEALS}")
    chunk = evening if chunk is None else chunk
    _check_counts(deals, workers, chunk, seed)
    if evenings is not None and not 0 <= evenings <= MAX_DEALS:
        _fail(f"--evenings {evenings}: give a number from 0 to {MAX_DEALS}")
    solving = _solving(deals, makeable, solve, solve_seconds)
    if solving and engine is Engine.auto:
        engine = Engine.reference  # the solver reads the deal through GameState (the same numbers, seed for seed)
    check_writable(output)  # before the deals, not after them
    loaded, count, note = _table_size(variants, players, lang)
    evenings = max(4, deals // evening) if evenings is None else evenings
    stacks = [seat_stack(v) if stack is None else stack for v in loaded]
    from_sessions = all(sessions_are_evenings(deals, chunk, evening, evenings, s, seat_stack(v))
                        for s, v in zip(stacks, loaded, strict=True))
    apart = 0 if from_sessions else evenings  # evenings played apart from the paired deals
    if bots is None:
        bots, why = default_bots(deals * len(variants) + apart * evening * len(variants), workers, tr(lang))
        note = f"{note} {why[:1].upper() + why[1:]}." if why else note
    specs = [_spec(ref, deals, count, bots, seed, chunk, engine, variant)
             for ref, variant in zip(variants, loaded, strict=True)]
    try:
        pspec = PairedSpec.make(specs, solving, solve_seconds)
    except PairingError as err:
        _fail(str(err))
    try:
        with _paired_backend(workers, scheduler) as (run, mapper), \
                _progress(_bars(loaded, specs, deals, solving, evening, apart, lang)) as bars:
            result = run(pspec, bars[0])
            days = []
            for v, spec in enumerate(specs if evenings else []):
                espec = EveningSpec(spec, stacks[v], evening, evenings)
                played = result.evenings[v] if from_sessions else run_evenings(espec, mapper, progress=bars[1])
                days.append({"variant": spec.name, **summarize_evenings(espec, played)})
            # the report is part of the run: the bar goes on through it (its plots take seconds)
            data = analysis(result, variants, days, note.strip(), lang)
            if bars[-1]:
                bars[-1](1)
            runs = [(shown["name"], r.summary()) for r, shown in zip(result.results, data["variants"], strict=True)]
            page = render_report(runs, data["headline"], variants, data)
            if bars[-1]:
                bars[-1](1)
    except RuntimeError as err:
        _fail(str(err))
    write_or_fail(output, page)
    typer.echo(f"wrote {terminal(str(output), one_line=True)}", err=True)
    if as_json:
        typer.echo(json_text(json.dumps(data, ensure_ascii=False, indent=2)))
    else:
        typer.echo(terminal(analysis_text(data)), nl=False)


def _bars(loaded: list, specs: list[SimSpec], deals: int, solving: int, evening: int, apart: int,
          lang: str) -> list[tuple[str, int]]:
    """The progress bars of an analysis, (caption in ``lang``, total): the paired deals (the variants by their
    names in it), the evenings played apart if any, the report."""
    t = tr(lang)
    names = " + ".join(v.name.get(lang) or s.name for v, s in zip(loaded, specs, strict=True))
    solved = t(" (solving {deals} deals)").format(deals=solving) if solving else ""
    return ([(names + solved, deals)]
            + ([(t("evenings of {deals} deals").format(deals=evening), apart * len(specs))] if apart else [])
            + [(t("the report"), 2)])


def sessions_are_evenings(deals: int, chunk: int, evening: int, evenings: int, stack: int, seated: int) -> bool:
    """Whether the evening view is made from the paired run's sessions, not from evenings played apart: when
    each session is an evening (a fresh table of ``chunk`` = ``evening`` deals with the sessions' own stacks,
    ``seated`` chips a seat: the variant's ``seat_stack``, and an empty pot) and as many evenings are asked as
    there are whole sessions.  Each is then the first session of a chunk, played on the paired deals' cards and
    dice: the same table an evening played apart is, at no cost (before, as many deals again: half an analysis's
    time)."""
    return evenings > 0 and chunk == evening and stack == seated and evenings == deals // chunk


@contextlib.contextmanager
def _paired_backend(workers: int | None, scheduler: str | None) -> Iterator[tuple[Callable, Callable]]:
    """(run a PairedSpec, map a function over task arguments) on local processes or one Dask client."""
    from khrap.sim.paired import simulate_paired, simulate_paired_on_dask

    if scheduler is None:
        with LocalWorkers(workers) as pool:
            yield (lambda pspec, progress: simulate_paired(pspec, progress=progress, pool=pool)), pool.map_tasks
        return
    from khrap.sim.cluster import connect

    try:
        client, cluster = connect(scheduler, workers)
    except (RuntimeError, OSError) as err:
        raise RuntimeError(str(err)) from None

    def mapper(fn: Callable, tasks: list[tuple]) -> Iterator:
        from distributed import as_completed

        for future in as_completed([client.submit(fn, *task, pure=False) for task in tasks]):
            yield future.result()

    try:
        yield (lambda pspec, progress: simulate_paired_on_dask(pspec, client, progress=progress)), mapper
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def register(app: typer.Typer) -> None:
    """Add `simulate` and `analyze` to the `khrap` command."""
    app.command("simulate")(simulate_cmd)
    app.command("analyze")(analyze)


__all__ = ["analyze", "register", "simulate_cmd"]
