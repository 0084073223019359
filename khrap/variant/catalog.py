"""Built-in variants and loading any variant by name or path, fully checked."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from khrap.variant import derived
from khrap.variant.checks import Fields, semantic_issues
from khrap.variant.errors import meant
from khrap.variant.expect import flow
from khrap.variant.loader import (
    Loc,
    Origins,
    VariantError,
    VariantErrors,
    _show,
    dotted,
    errors_of,
    load_data,
    locate_error,
    validate,
    value_at,
)
from khrap.variant.said import Said
from khrap.variant.schema import Variant

# A new call or instant win that lacks what a new one needs: a misspelt id, in the player's words.
_NEW = {"call": (Said("'%(parent)s' has no call %(key)s"),
                 Said(" (to add a new call, give it `name` and `effects`)")),
        "instant win": (Said("'%(parent)s' has no instant win %(key)s"),
                        Said(" (to add a new instant win, give it `name` and `rank` and `count`)"))}

_PACKAGE = Path(__file__).resolve().parent.parent


def variants_dir() -> Path:
    """Where the built-in variant files are: inside an installed wheel, or in the source tree."""
    for candidate in (_PACKAGE / "_variants", _PACKAGE.parent / "variants"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the built-in variants directory is missing from this installation")


def builtin_names() -> list[str]:
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


@dataclass
class Loaded:
    """A variant with where each of its values was written, and the data it was made from."""

    variant: Variant
    data: dict[Any, Any]
    origins: Origins

    def parent(self) -> Variant | None:
        """The variant the loaded file extends (fully loaded), or None."""
        return _parent(self.origins)


def load_variant(ref: str | Path, **options: Any) -> Variant:
    """A variant by built-in name or by path, after extends and every check; VariantError otherwise.

    Every mistake of the file is found at once: the error is a :class:`VariantErrors` whose text has
    one located line per mistake, in file order.  ``options`` go to :func:`khrap.variant.loader.load_data`
    (``trust``, ``text``, ``named_in``): an upload is ``load_variant("upload.yaml", text=TEXT, trust=UPLOAD)``,
    which may extend only built-ins.
    """
    return load_checked(ref, **options).variant


def load_checked(ref: str | Path, **options: Any) -> Loaded:
    """Like :func:`load_variant`, keeping the data and the origins (for the linter)."""
    data, origins = load_data(ref, variants_dir(), **options)
    try:
        found, quiet = _new_ids(data, origins)
        try:
            variant = validate(Variant, data, origins, found, quiet)
        except VariantErrors as err:  # the ids are checked on the data too, so they come with the rest
            raise VariantErrors([*err.errors, *_unknown_refs(data, origins)], origins.user_file) from None
        issues = semantic_issues(variant)
        if issues:
            errors = [_issue(data, origins, variant, loc, message) for loc, message in issues]
            raise VariantErrors(errors, origins.user_file)
    except VariantError as err:
        raise _from_child(err, ref) from None
    return Loaded(variant, data, origins)


def _new_ids(data: dict[Any, Any], origins: Origins) -> tuple[list[VariantError], list[Loc]]:
    """Calls and instant wins a house rule names that the variant it extends does not have.

    ``calls: {sadd: {enabled: false}}`` is a misspelt ``sad``, not a new call: a new entry that lacks
    what a new one needs is reported as an unknown id with "did you mean", and the fields it lacks are
    not reported again.  A complete new entry is a new call (the linter warns if nothing offers it).
    """
    found: list[VariantError] = []
    quiet: list[Loc] = []
    if len(origins.sources) < 2:
        return found, quiet
    parent = Path(origins.sources[-2][0]).stem
    for section, (no_such, to_add), needs in (
            ("calls", _NEW["call"], ("name", "effects")),
            ("instant_wins", _NEW["instant win"], ("name", "rank", "count"))):
        entries = data.get(section)
        if not isinstance(entries, dict):
            continue
        known = [str(k) for k in entries if origins.inherited((section, k))]
        for key, value in entries.items():
            lacking = [n for n in needs if not (isinstance(value, dict) and n in value)]
            if origins.inherited((section, key)) or not lacking:
                continue
            unknown = Said(no_such.text, parent=parent, key=_show(key))
            message = section + ": " + unknown + meant(str(key), known) + to_add
            found.append(locate_error(origins, (section, key), message, key=True))
            quiet.append((section, key))
    return found, quiet


def _unknown_refs(data: Any, origins: Origins) -> list[VariantError]:
    """Call and stage ids used but not defined, read from the data itself: when the file has mistakes of
    type the checks of the whole variant cannot run, and these are reported with them all the same."""
    if not isinstance(data, dict) or not isinstance(data.get("calls"), dict):
        return []  # no calls to check against (a mistake reported already)
    calls = data["calls"]
    stages: list[Any] = data["stages"] if isinstance(data.get("stages"), list) else []
    stage_ids: list[str] = [s["id"] for s in stages if isinstance(s, dict) and isinstance(s.get("id"), str)]
    uses: list[tuple[Loc, Any]] = []
    for i, stage in enumerate(stages):
        if isinstance(stage, dict) and stage.get("kind") == "calls":
            uses += _items(stage.get("calls"), ("stages", i, "calls"))
    first = data.get("play", {}).get("first_lead") if isinstance(data.get("play"), dict) else None
    uses += _items(first.get("calls") if isinstance(first, dict) else None, ("play", "first_lead", "calls"))
    settle = data.get("settlement")
    pens = settle.get("penalties") if isinstance(settle, dict) else None
    for i, pen in enumerate(pens if isinstance(pens, list) else ()):
        uses += _items(pen.get("calls") if isinstance(pen, dict) else None, ("settlement", "penalties", i, "calls"))
    out = [locate_error(origins, loc, Said("unknown call %(call)s", call=_show(cid)) + meant(cid, calls))
           for loc, cid in uses if isinstance(cid, str) and cid not in calls]
    if not stage_ids:
        return out
    for cid, call in calls.items():
        effects = call.get("effects") if isinstance(call, dict) else None
        skips = effects.get("skip_stages") if isinstance(effects, dict) else None
        for loc, sid in _items(skips, ("calls", cid, "effects", "skip_stages")):
            if isinstance(sid, str) and sid not in stage_ids:
                fix = meant(sid, stage_ids) or Said(
                    ": add the stage to `stages`, or take '%(stage)s' out of the call's `skip_stages`", stage=sid)
                out.append(_issue(data, origins, None, Fields(loc, ("stages",)),
                                  Said("call '%(call)s' skips stage '%(stage)s' (`skip_stages`), but no stage has "
                                       "that id", call=cid, stage=sid) + fix))
    return out


def _items(values: Any, loc: Loc) -> list[tuple[Loc, Any]]:
    return [(loc + (j,), v) for j, v in enumerate(values)] if isinstance(values, list) else []


def _issue(data: dict[Any, Any], origins: Origins, variant: Variant | None, loc: Any,
           message: str | Said) -> VariantError:
    """A semantic issue located where the user wrote it, naming the inherited values it clashes with."""
    english = str(message)
    parent = _parent(origins) if "stage '" in english else None
    steps = _steps(english, variant, parent, origins)
    if steps:
        message = _StagesNamed(message, steps)
    if not isinstance(loc, Fields):
        return locate_error(origins, loc, message)
    chosen = origins.latest(loc)
    mine = origins.owner(chosen)
    others = [other for other in dict.fromkeys(loc) if other != chosen and origins.owner(other) < mine
              and value_at(data, other) is not None]
    if others and mine == len(origins.sources) - 1:
        notes = []
        for other in others[:2]:
            path, line, col = origins.locate(other)
            where = f"{path}:{line}:{col}" if line is not None else path
            shown = flow(value_at(data, other))
            what = f"{dotted(other)}: {shown}" if len(shown) <= 60 else dotted(other)  # a long list: where it is
            notes.append(Said("`%(what)s` at %(where)s", what=what, where=where))
        listed: Said = notes[0]
        for note in notes[1:]:
            listed = listed + "; " + note
        message = message + Said(" (inherited: %(notes)s)", notes=listed)
    return locate_error(origins, chosen, message)


# The step titles of the rule sheet (the sheets' catalogs word them alike), and the word a message names a stage
# with, before its quoted id: in each language the stage's id follows that word (or a form of it: шага, шаге).
_TITLES = {"bidding": Said("Bidding"), "offers": Said("Offers"), "exchange": Said("Exchange"),
           "name_trump": Said("Trump"), "instant_wins": Said("Instant wins"), "play": Said("Play")}
_STAGE_WORD = Said("stage")


def stage_title_said(stage: Any) -> Said:
    """What the rule sheet calls a stage: its step title, put in the reader's language when shown."""
    if stage.kind == "calls":
        return _TITLES["bidding" if stage.phase == "bidding" else "offers"]
    return _TITLES.get(stage.kind, _TITLES["play"])


def stage_title(stage: Any) -> str:
    """What the rule sheet calls a stage (its step title, in English)."""
    return str(stage_title_said(stage))


def _steps(english: str, variant: Variant | None, parent: Variant | None, origins: Origins) -> dict[str, Said]:
    """For each stage the message names (``stage 'fives'``), what follows its first mention: `` (“Offers”, step
    2)``, the title and step the rule sheet prints; a stage only the parent has is named from the parent's sheet."""
    steps: dict[str, Said] = {}
    for sid in dict.fromkeys(re.findall(r"stage '([^']+)'", english)):
        for source in (variant, parent):
            ids = [s.id for s in source.stages] if source is not None else []
            if source is not None and sid in ids:
                title, n = stage_title_said(source.stages[ids.index(sid)]), ids.index(sid) + 1
                steps[sid] = Said(" (“%(title)s”, step %(n)s)", title=title, n=n) if source is variant else \
                    Said(" (“%(title)s”, step %(n)s of '%(parent)s')", title=title, n=n, parent=_parent_name(origins))
                break
    return steps


class _StagesNamed(Said):
    """A message whose stages are named by their step at their first mention, in the reader's language:
    ``stage 'fives' (“Offers”, step 2)``; «шага 'fives' («Предложения», шаг 2)»."""

    __slots__ = ("inner", "steps")

    def __init__(self, inner: Said | str, steps: dict[str, Said]) -> None:
        super().__init__("")
        self.inner, self.steps = inner, steps

    def shown(self, translate: Any = str) -> str:
        text = self.inner.shown(translate) if isinstance(self.inner, Said) else self.inner
        named: set[str] = set()

        def name(match: re.Match[str]) -> str:
            sid = match[1]
            if sid in named or sid not in self.steps:
                return match[0]
            named.add(sid)
            return match[0] + self.steps[sid].shown(translate)

        word = re.escape(translate(_STAGE_WORD.text))
        return re.sub(rf"\b{word}\w* '([^']+)'", name, text)

    def __repr__(self) -> str:
        return f"_StagesNamed({self.inner!r}, {self.steps!r})"


def _parent_name(origins: Origins) -> str:
    return Path(origins.sources[-2][0]).stem if len(origins.sources) > 1 else ""


def _parent(origins: Origins) -> Variant | None:
    if len(origins.sources) < 2:
        return None
    try:
        return load_variant(Path(origins.sources[-2][0]))
    except VariantError:
        return None


def _from_child(err: VariantError, ref: str | Path) -> VariantError:
    """A mistake found in an inherited value also names the file that was being loaded."""
    errors = [_inherited(e, ref) for e in errors_of(err)]
    if isinstance(err, VariantErrors):
        return VariantErrors(errors, None if not Path(ref).suffix else str(ref))
    return errors[0]


def _inherited(err: VariantError, ref: str | Path) -> VariantError:
    try:
        other = err.path is not None and Path(err.path).resolve() != Path(ref).resolve() and Path(ref).suffix
    except (OSError, ValueError):  # a path that cannot be resolved (a NUL, a loop of links) is not a parent
        other = False
    if other:
        return VariantError((err.said or err.message) + Said(" (inherited by %(file)s)", file=str(ref)), err.path,
                            err.line, err.col)
    return err


def offered_calls(variant: Variant) -> set[str]:
    """The calls some calls stage offers: switched-off calls are not (``derived.offered``, the one definition)."""
    return derived.offered(variant)


@lru_cache(maxsize=32)
def builtin(name: str) -> Variant:
    """A built-in variant, cached (variants are not changed by the kernel)."""
    return load_variant(name)


__all__ = ["Loaded", "VariantError", "builtin", "builtin_names", "load_checked", "load_variant", "stage_title",
           "variants_dir"]
