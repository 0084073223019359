"""Which files a file may name (``extends:``, a scenario's or record's ``variant:``), and finding them.

A path is resolved and held to a :class:`Trust` before anything of it is opened.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from khrap.safe_text import excerpt
from khrap.variant.errors import VariantError, meant
from khrap.variant.said import Said


@dataclass(frozen=True)
class Trust:
    """Which files a variant, scenario or record may name (by ``extends:``, ``variant:``).

    A file the user names on the command line is always read.  A file named *by a
    file* is a built-in name, or (with ``paths``) a path inside the naming file's
    folder or below it; ``outside`` (the command line's ``--allow-outside``) also
    allows any other path.  ``UPLOAD`` (no paths at all) is what a server uses for
    a house-rule file sent by a stranger: it may extend only a built-in.
    """

    paths: bool = True
    outside: bool = False


LOCAL = Trust()
UPLOAD = Trust(paths=False)
ANYWHERE = Trust(outside=True)
TRUST = LOCAL  # the default, read at call time; the command line's --allow-outside swaps it (see trusting)


class trusting:  # noqa: N801  (used as a context manager, like contextlib's)
    """``with trusting(ANYWHERE): ...`` swaps the default :class:`Trust` for the block."""

    def __init__(self, trust: Trust) -> None:
        self.trust = trust
        self.saved = TRUST

    def __enter__(self) -> Trust:
        global TRUST
        self.saved, TRUST = TRUST, self.trust
        return self.trust

    def __exit__(self, *exc: object) -> None:
        global TRUST
        TRUST = self.saved


def _looks_like_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or os.sep in ref


def _builtin_names(catalog_dir: Path) -> list[str]:
    return sorted(p.stem for p in catalog_dir.glob("*.yaml"))


def _by_display_name(name: str, catalog_dir: Path) -> Said | str:
    """``"; did you mean 'khrap' (Храп)?"`` when ``name`` is a built-in's display name in some language (a Russian
    table writes ``extends: храп``), else ``""``.  Read on this mistake only."""
    import yaml

    wanted = name.strip().casefold()
    for path in sorted(catalog_dir.glob("*.yaml")):
        titles = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("name")
        for title in titles.values() if isinstance(titles, dict) else ():
            if isinstance(title, str) and title.casefold() == wanted:
                word = f"'{path.stem}' ({title})"
                return Said("; did you mean %(word)s?", word=word)
    return ""


def _unknown_builtin(name: str, catalog_dir: Path) -> Said:
    """The message for a name no built-in has, with the nearest one (or all of them), to put in a language."""
    names = _builtin_names(catalog_dir)
    hint = _by_display_name(name, catalog_dir) or meant(name, names) or \
        (Said("; built-in variants are: %(names)s", names=", ".join(names)) if names else "")
    quoted = f"'{name}'"
    return Said("unknown built-in variant %(name)s", name=quoted) + hint


def _resolve_ref(ref: str | os.PathLike[str], catalog_dir: Path) -> Path:
    """The file for a command-line reference: a path, or a built-in variant name."""
    if isinstance(ref, os.PathLike) or _looks_like_path(ref):
        return Path(ref)  # a missing file is reported by read_yaml
    path = catalog_dir / f"{ref}.yaml"
    if not path.is_file():
        raise VariantError(_unknown_builtin(ref, catalog_dir))
    return path


def _inside(target: Path, folder: Path) -> bool:
    """Whether ``target`` (symlinks resolved) is ``folder`` or below it."""
    real, base = os.path.realpath(target), os.path.realpath(folder)
    return os.path.commonpath([real, base]) == base


def _named_file(value: str, folder: Path, catalog_dir: Path, trust: Trust) -> Path:
    """The file a file names (``extends:``, a scenario's or record's ``variant:``), within ``trust``.

    Raises an unlocated VariantError (the caller knows where the name was written); a
    refused path is never opened, so nothing of it can be shown.
    """
    if not _looks_like_path(value):
        target = catalog_dir / f"{value}.yaml"
        if not target.is_file():
            raise VariantError(_unknown_builtin(value, catalog_dir))
        return target
    shown = excerpt(value, 80)
    if not trust.paths:
        raise VariantError(Said("%(file)s: a file sent here may name only a built-in variant (%(names)s)",
                                file=shown, names=", ".join(_builtin_names(catalog_dir))))
    if "\0" in value:
        raise VariantError(Said("%(file)s: not a valid path (it holds a NUL character)", file=shown))
    target = folder / value
    if not trust.outside and not _inside(target, folder) and not _inside(target, catalog_dir):
        raise VariantError(Said("%(file)s is outside the folder of the file that names it; a file may name only "
                                "files in its own folder or below (run the command with --allow-outside to allow it)",
                                file=shown))
    try:
        found = target.is_file()
    except OSError:
        found = False
    if not found:
        raise VariantError(Said("no such file %(file)s (looked for %(path)s)", file=shown, path=str(target)))
    return target
