"""The `khrap` command: thin wrappers that parse arguments and print.

User mistakes (bad files, illegal actions) print one line on stderr and exit
with code 2; they never show a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
import yaml

from khrap.cli_safety import AllowOutsideOpt, allow_outside, write_or_fail
from khrap.cli_safety import fail as _fail_safely
from khrap.rulebook.cli import LANG_HELP, in_language
from khrap.safe_text import json_text, terminal
from khrap.variant import derived
from khrap.variant.catalog import builtin_names, load_variant
from khrap.variant.loader import VariantError
from khrap.variant.schema import Variant

app = typer.Typer(
    name="khrap",
    help="Play, check and print the rules of Khrap, Frap, Snore and their house rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help, as click writes it: flags show as flags (`--json`), not as `--json <bool>`.
    rich_markup_mode=None,
)

VariantArg = Annotated[
    str, typer.Argument(help="A built-in variant name (see `khrap variants`) or a path to a .yaml file.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for other programs.")]


def _version(value: bool) -> None:
    if value:
        from khrap import __version__

        typer.echo(f"khrap {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")] = False,
) -> None:
    """Play, check and print the rules of Khrap, Frap, Snore and their house rules."""


def fail(message: str, code: int = 2) -> None:
    _fail_safely(message, code)  # one line, escaped: a message may quote a hostile file


def _load(ref: str) -> Variant:
    try:
        return load_variant(ref)
    except VariantError as err:
        fail(str(err))


@app.command()
def variants(as_json: JsonOpt = False) -> None:
    """List the built-in variants."""
    rows = []
    for name in builtin_names():
        v = _load(name)
        sizes = [len(ranks) * 4 for ranks in derived.decks(v)]  # the decks its player counts play with
        rows.append({
            "name": name,
            "title": v.name.get("en", name),
            "players": [v.players.min, v.players.max],
            "hand_size": v.hand_size,
            "deck": sizes,
            "calls": list(derived.enabled(v)),
        })
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    typer.echo(f"{'name':<15}{'title':<18}{'players':<9}{'hand':<6}{'deck':<10}calls")
    for r in rows:
        deck = "/".join(map(str, r["deck"]))
        players = f"{r['players'][0]}-{r['players'][1]}"
        typer.echo(f"{r['name']:<15}{r['title']:<18}{players:<9}{r['hand_size']:<6}{deck:<10}{' '.join(r['calls'])}")


@app.command()
def show(variant: VariantArg, as_json: JsonOpt = False, outside: AllowOutsideOpt = False) -> None:
    """Print a variant as resolved (after `extends`), with every default filled in."""
    allow_outside(outside)
    data = _load(variant).model_dump(mode="json")
    if as_json:
        typer.echo(json_text(json.dumps(data, ensure_ascii=False, indent=2)))
    else:
        typer.echo(terminal(yaml.safe_dump(data, allow_unicode=True, sort_keys=False)), nl=False)


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(help="Variant files (or built-in names) to check.")],
    strict: Annotated[bool, typer.Option(
        "--strict", help="Treat warnings as errors: exit 2 if any file has one.")] = False,
    outside: AllowOutsideOpt = False,
    lang: Annotated[str, typer.Option(
        "--lang", "-l", help=LANG_HELP.replace("of the sheet", "of the messages"))] = "en",
) -> None:
    """Check variant files: every mistake as FILE:LINE:COL: message, then warnings about what is valid but
    probably not meant (FILE:LINE:COL: warning: ...).

    Exit 2 if a file has a mistake (or, with --strict, a warning); warnings alone exit 0.  A note (a value
    equal to the one the file inherits) is printed, never an error: a file may record a table's rules in full.
    """
    from khrap.rulebook.i18n import checker_translations
    from khrap.variant.lint import lint_file, verdict

    say = checker_translations(lang).gettext
    allow_outside(outside)
    broken = 0
    for ref in files:
        shown = terminal(ref, one_line=True)
        try:
            _, found = lint_file(ref)
        except VariantError as err:
            typer.echo(in_language(err, lang), err=True)
            broken += 1
            continue
        for warning in found:  # in the language asked for, located as always
            typer.echo(warning.shown(say), err=True)
        warnings = [w for w in found if w.kind == "warning"]  # notes (an inherited value restated) never fail
        line = verdict(shown, len(warnings), strict).shown(say)
        if warnings and strict:
            typer.echo(line, err=True)
            broken += 1
        else:
            typer.echo(line)
    if broken:
        raise typer.Exit(2)


@app.command()
def new(
    name: Annotated[Path, typer.Argument(help="The file to write, e.g. my-khrap.yaml (.yaml is added if missing).")],
    base: Annotated[str, typer.Option(
        "--from", help="The built-in variant (or file) the house rules start from.")] = "khrap",
    force: Annotated[bool, typer.Option("--force", help="Overwrite the file if it exists.")] = False,
) -> None:
    """Write a commented starting file for house rules: the fields a table most often changes, each with its
    current value and a line saying what it does, ready to edit (`khrap validate` it afterwards)."""
    from khrap.variant.starter import starter_text

    path = name if name.suffix in (".yaml", ".yml") else name.with_name(name.name + ".yaml")
    shown = terminal(str(path), one_line=True)
    if path.exists() and not force:
        fail(f"{shown}: the file exists already; choose another name, or add --force to overwrite it")
    try:
        text = starter_text(base, path)
    except VariantError as err:
        fail(str(err))
    write_or_fail(path, text)  # a regular file only, replaced once complete, no link followed
    typer.echo(f"wrote {shown}: edit it, then check it with `khrap validate {shown}`")


@app.command()
def schema() -> None:
    """Print the JSON Schema of variant files (for editors)."""
    doc = Variant.model_json_schema()
    doc["properties"]["extends"] = {
        "type": "string",
        "description": "A built-in variant name or a path relative to this file; only the fields listed here change.",
    }
    typer.echo(json.dumps(doc, ensure_ascii=False, indent=2))


@app.command()
def run(
    scenario: Annotated[Path, typer.Argument(help="A scenario file (see CONTRACT.md).")],
    as_json: JsonOpt = False,
    outside: AllowOutsideOpt = False,
) -> None:
    """Play a scenario's scripted actions and print where the game stands.

    A scenario may hold `expect:` (report fields, or `error:` text the run must stop with):
    then any difference is printed as FILE:LINE:COL lines and the exit code is 1.
    """
    from khrap.scenario import ScenarioStop, account, check_expect, load_scenario, report
    from khrap.scenario import run as run_scenario

    allow_outside(outside)
    try:
        scn = load_scenario(scenario)
    except VariantError as err:
        fail(str(err))
    try:
        state, error = run_scenario(scn), None
    except ScenarioStop as err:
        state, error = None, str(err)
    problems = check_expect(scn, state, error)
    if error is not None and "error" not in scn.expect:
        fail(error)
    if problems:
        fail("\n".join(problems), code=1)
    if state is None:
        typer.echo(terminal(f"stopped as expected: {error}"))
        return
    if as_json:
        typer.echo(json_text(json.dumps(report(state, scn.variant_name), ensure_ascii=False, indent=2)))
    else:
        typer.echo(terminal(account(state, scn.variant_name)))


from khrap.play.commands import play, replay  # noqa: E402  (the terminal game and records)

app.command()(play)
app.command()(replay)

from khrap.rulebook.cli import register as register_rulebook  # noqa: E402  (rule sheets: rules, diff)

register_rulebook(app)

from khrap.sim.cli import register as register_sim  # noqa: E402  (simulations: simulate, analyze)

register_sim(app)

from khrap.web.cli import register as register_web  # noqa: E402  (the web table: serve, verify)

register_web(app)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
