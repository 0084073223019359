"""Read variant files safely, follow ``extends`` chains, and locate every error.

Every user mistake becomes one :class:`VariantError` that points at FILE:LINE:COL,
including mistakes in a value inherited from a parent file.

The YAML is composed with PyYAML's pure-Python ``SafeLoader`` (the C loader
composes in C, so our limit hooks would not run) and turned into plain data by
our own walk, so that we can record positions, refuse duplicate keys, and count
alias expansions: PyYAML shares aliased nodes, so a "billion laughs" file is
cheap to compose and only explodes when expanded, which is where we count.
"""

from __future__ import annotations

import difflib
import os
import re
import types
from collections.abc import Iterable, Mapping, MutableMapping, MutableSequence, Sequence
from dataclasses import dataclass
from itertools import takewhile
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError

from khrap.safe_io import InputRefused, read_limited
from khrap.safe_text import excerpt, surrogate_at, terminal

__all__ = [
    "ANYWHERE",
    "LIMITS",
    "LOCAL",
    "UPLOAD",
    "Limits",
    "Trust",
    "Marks",
    "Origins",
    "VariantError",
    "VariantErrors",
    "did_you_mean",
    "errors_of",
    "load_data",
    "locate_error",
    "read_text",
    "read_yaml",
    "trusting",
    "validate",
]

Loc = tuple[Any, ...]
Pos = tuple[int, int]
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Limits:
    """Hard limits on untrusted input; each one is refused with a located error."""

    file_bytes: int = 256 * 1024
    chain_bytes: int = 384 * 1024  # all the files of one extends chain together
    depth: int = 64
    aliases: int = 100
    nodes: int = 50_000
    chain: int = 16


# Read at call time (not bound as defaults) so tests and callers may swap it.
LIMITS = Limits()


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


class VariantError(Exception):
    """A user mistake in a variant (or scenario) file, with its location."""

    def __init__(
        self, message: str, path: str | os.PathLike[str] | None = None, line: int | None = None, col: int | None = None
    ) -> None:
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.col = col
        super().__init__(str(self))

    def __str__(self) -> str:
        # Escaped here, once: a path or a quoted value may hold terminal escapes or bidi overrides.
        message = terminal(self.message)
        if self.path is None:
            return message
        path = terminal(self.path, one_line=True)
        if self.line is None:
            return f"{path}: {message}"
        if self.col is None:
            return f"{path}:{self.line}: {message}"
        return f"{path}:{self.line}:{self.col}: {message}"


MAX_ERRORS = 20
"""Mistakes printed for one file at most; the rest are counted."""


class VariantErrors(VariantError):
    """Every mistake found in one file, in file order; it reads (and locates) as the first one."""

    def __init__(self, errors: Sequence[VariantError], user_file: str | None = None) -> None:
        home = None if user_file is None else str(user_file)
        unique = list({str(e): e for e in errors}.values())
        self.errors = sorted(unique, key=lambda e: (e.path != home, e.path or "", e.line or 0, e.col or 0))
        first = self.errors[0]
        super().__init__(first.message, first.path, first.line, first.col)

    def __str__(self) -> str:
        errors = getattr(self, "errors", [])
        lines = [VariantError.__str__(e) for e in errors[:MAX_ERRORS]]
        if len(errors) > MAX_ERRORS:
            lines.append(f"... and {len(errors) - MAX_ERRORS} more mistakes (fix these first)")
        return "\n".join(lines) if lines else VariantError.__str__(self)


def errors_of(err: VariantError) -> list[VariantError]:
    """The single mistakes in ``err`` (itself when it holds one)."""
    return list(err.errors) if isinstance(err, VariantErrors) else [err]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``"; did you mean 'x'?"`` for the closest choice, or ``""``."""
    names = [c for c in choices if isinstance(c, str)]
    match = difflib.get_close_matches(str(word), names, n=1, cutoff=0.6)
    return f"; did you mean '{match[0]}'?" if match else ""


# --------------------------------------------------------------------------- marks


class Marks:
    """1-based (line, col) positions of values and keys, by location path."""

    def __init__(self) -> None:
        self._values: dict[Loc, Pos] = {}
        self._keys: dict[Loc, Pos] = {}

    def add(self, loc: Loc, value: Pos, key: Pos | None = None) -> None:
        self._values[loc] = value
        if key is not None:
            self._keys[loc] = key

    def locate(self, loc: Loc) -> Pos | None:
        """Position of the value at ``loc``, else of its closest recorded ancestor."""
        loc = tuple(loc)
        for end in range(len(loc), -1, -1):
            pos = self._values.get(loc[:end])
            if pos is not None:
                return pos
        return None

    def key(self, loc: Loc) -> Pos | None:
        """Position of the mapping key that names ``loc`` (None for list items and the root)."""
        return self._keys.get(tuple(loc))

    def locations(self) -> list[Loc]:
        """Every location the file gives a value at, in file order."""
        return sorted(self._values, key=lambda loc: self._values[loc])

    def written(self, loc: Loc) -> bool:
        """Whether the file gives a value at exactly ``loc``."""
        return tuple(loc) in self._values


def _pos(mark: yaml.Mark) -> Pos:
    return mark.line + 1, mark.column + 1


# --------------------------------------------------------------------------- reading


class _AliasNode(yaml.Node):
    """Stands where ``*name`` was written, so expansions can be counted and located."""

    id = "alias"

    def __init__(self, target: yaml.Node, start_mark: yaml.Mark, end_mark: yaml.Mark) -> None:
        super().__init__(target.tag, target, start_mark, end_mark)


class _Loader(yaml.SafeLoader):
    """SafeLoader whose composer enforces depth and node limits and keeps aliases visible."""

    def __init__(self, stream: str, path: str) -> None:
        super().__init__(stream)
        self._path = path
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        event = self.peek_event()
        self._nodes += 1
        if self._nodes > LIMITS.nodes:
            raise VariantError(f"too many YAML nodes (more than {LIMITS.nodes})", self._path, *_pos(event.start_mark))
        if isinstance(event, yaml.AliasEvent):
            self.get_event()
            if event.anchor not in self.anchors:
                raise yaml.composer.ComposerError(
                    None, None, f"found undefined alias {event.anchor!r}", event.start_mark
                )
            return _AliasNode(self.anchors[event.anchor], event.start_mark, event.end_mark)
        nested = isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent))
        self._depth += nested
        try:
            if self._depth > LIMITS.depth:  # checked here: the composer recurses per level
                raise VariantError(_too_deep(), self._path, *_pos(event.start_mark))
            return super().compose_node(parent, index)
        finally:
            self._depth -= nested


def _too_deep() -> str:
    return f"nesting too deep (more than {LIMITS.depth} levels)"


_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("null", "bool", "int", "float", "str")}
_MERGE_TAG = _TAG + "merge"


def _short_tag(tag: str) -> str:
    return "!!" + tag.removeprefix(_TAG) if tag.startswith(_TAG) else tag


class _Builder:
    """Turns composed nodes into plain data, recording marks and enforcing expansion limits."""

    def __init__(self, loader: _Loader, path: str) -> None:
        self.loader = loader
        self.path = path
        self.marks = Marks()
        self.aliases = 0
        self.nodes = 0
        self.active: list[int] = []  # ids of collections being built: an alias back into one is a cycle

    def error(self, message: str, node: yaml.Node) -> VariantError:
        return VariantError(message, self.path, *_pos(node.start_mark))

    def deref(self, node: yaml.Node) -> yaml.Node:
        while isinstance(node, _AliasNode):
            self.aliases += 1
            if self.aliases > LIMITS.aliases:
                raise self.error(f"too many alias expansions (more than {LIMITS.aliases})", node)
            if id(node.value) in self.active:
                raise self.error("recursive alias: an anchor may not contain an alias to itself", node)
            node = node.value
        return node

    def build(self, node: yaml.Node, loc: Loc, depth: int, key: Pos | None = None) -> Any:
        self.marks.add(loc, _pos(node.start_mark), key)
        node = self.deref(node)
        self.nodes += 1
        if self.nodes > LIMITS.nodes:
            raise self.error(f"too many YAML nodes after alias expansion (more than {LIMITS.nodes})", node)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if depth >= LIMITS.depth:  # aliases can nest deeper than the text does
            raise self.error(_too_deep(), node)
        self.active.append(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                self.check_tag(node, _TAG + "seq")
                return [self.build(item, loc + (i,), depth + 1) for i, item in enumerate(node.value)]
            self.check_tag(node, _TAG + "map")
            return self.mapping(node, loc, depth + 1)
        finally:
            self.active.pop()

    def check_tag(self, node: yaml.Node, tag: str) -> None:
        if node.tag != tag:
            raise self.bad_tag(node)

    def bad_tag(self, node: yaml.Node) -> VariantError:
        return self.error(f"unsupported YAML tag '{_short_tag(node.tag)}'", node)

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag == _TAG + "timestamp":
            return node.value  # keep dates as text: plain data only
        if node.tag not in _SCALAR_TAGS:
            raise self.bad_tag(node)
        construct = yaml.constructor.SafeConstructor.yaml_constructors[node.tag]
        if surrogate_at(node.value) is not None:  # only an escape ("\ud800") can write one
            raise self.error("not valid Unicode text: a lone surrogate (\\ud800 to \\udfff) in a string", node)
        try:
            return construct(self.loader, node)
        except (ValueError, KeyError, yaml.YAMLError):  # e.g. "!!int abc", or an integer of 5,000 digits
            raise self.error(f"invalid value {excerpt(node.value)} for tag '{_short_tag(node.tag)}'", node) from None

    def mapping(self, node: yaml.MappingNode, loc: Loc, depth: int) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        first_line: dict[Any, int] = {}
        for key_node, value_node, merged in self.pairs(node):
            key = self.key(key_node)
            if key in result:
                if merged:  # explicit keys and earlier merges win over later merges
                    continue
                raise self.error(f"duplicate key {key!r} (first at line {first_line[key]})", key_node)
            first_line[key] = key_node.start_mark.line + 1
            result[key] = self.build(value_node, loc + (key,), depth, key=_pos(key_node.start_mark))
        return result

    def key(self, node: yaml.Node) -> Any:
        target = self.deref(node)
        if not isinstance(target, yaml.ScalarNode):
            raise self.error("a mapping key must be a plain value, not a list or mapping", node)
        return self.scalar(target)

    def pairs(self, node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node, bool]]:
        """Key/value nodes with YAML ``<<`` merge keys flattened: explicit pairs first."""
        explicit: list[tuple[yaml.Node, yaml.Node, bool]] = []
        merged: list[tuple[yaml.Node, yaml.Node, bool]] = []
        for key_node, value_node in node.value:
            if isinstance(key_node, _AliasNode) or key_node.tag != _MERGE_TAG:
                explicit.append((key_node, value_node, False))
                continue
            for source in self.merge_sources(value_node):
                self.active.append(id(source))
                try:
                    merged.extend((k, v, True) for k, v, _ in self.pairs(source))
                finally:
                    self.active.pop()
        return explicit + merged

    def merge_sources(self, node: yaml.Node) -> list[yaml.MappingNode]:
        target = self.deref(node)
        items = target.value if isinstance(target, yaml.SequenceNode) else [node]
        sources = [self.deref(item) for item in items]
        if not all(isinstance(s, yaml.MappingNode) for s in sources):
            raise self.error("a '<<' merge key needs a mapping or a list of mappings", node)
        return sources


def _read_text(path: str | os.PathLike[str]) -> str:
    try:
        raw = read_limited(path, LIMITS.file_bytes)  # regular files only; never more than we would accept
    except InputRefused as err:
        raise VariantError(str(err), path) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line_start = raw.rfind(b"\n", 0, err.start) + 1
        col = len(raw[line_start : err.start].decode("utf-8", "replace")) + 1
        raise VariantError("not UTF-8 text", path, raw.count(b"\n", 0, err.start) + 1, col) from None


def read_text(path: str | os.PathLike[str]) -> str:
    """A file's text: a regular file within the size limit, UTF-8; a located VariantError otherwise."""
    return _read_text(path)


def _too_large() -> str:
    limit = LIMITS.file_bytes
    size = f"{limit // (1024 * 1024)} MiB" if limit % (1024 * 1024) == 0 else f"{limit} bytes"
    return f"file is too large (the limit is {size})"


def _syntax_error(err: yaml.YAMLError, path: str, text: str) -> VariantError:
    if isinstance(err, yaml.reader.ReaderError):
        # Reader errors carry a character offset, not a mark.
        line = text.count("\n", 0, err.position) + 1
        col = err.position - (text.rfind("\n", 0, err.position) + 1) + 1
        return VariantError(f"invalid character #x{err.character:04x} ({err.reason})", path, line, col)
    if isinstance(err, yaml.MarkedYAMLError):
        from khrap.variant.yamlhints import explain  # PyYAML's words turned into a player's

        message, where = explain(err, text)
        return VariantError(f"invalid YAML: {message}", path, *(where or (None, None)))
    return VariantError("invalid YAML: the file could not be read as YAML", path)


def read_yaml(path: str | os.PathLike[str], text: str | None = None) -> tuple[Any, Marks]:
    """Safely parse one YAML file (or ``text``, reported as ``path``) into plain data and marks.

    The top level must be a mapping.  All limits in :data:`LIMITS` apply.
    """
    name = str(path)
    if text is None:
        text = _read_text(path)
    elif len(text) > LIMITS.file_bytes or len(text.encode("utf-8", "replace")) > LIMITS.file_bytes:
        raise VariantError(_too_large(), name)
    if not text.strip():
        raise VariantError("file is empty", name)
    data, marks = _parse(text, name)
    if not isinstance(data, dict):
        raise VariantError(f"the top level must be a mapping of keys to values, got {_kind(data)}", name, *_root(marks))
    return data, marks


def _root(marks: Marks) -> Pos | tuple[None, None]:
    return marks.locate(()) or (None, None)


def _parse(text: str, name: str) -> tuple[Any, Marks]:
    loader: _Loader | None = None
    try:
        loader = _Loader(text, name)  # the reader checks characters already here
        root = loader.get_single_node()
        if root is None or (isinstance(root, yaml.ScalarNode) and root.value == "" and not root.style):
            raise VariantError("file is empty", name)  # only comments, or an empty document
        builder = _Builder(loader, name)
        return builder.build(root, (), 0), builder.marks
    except yaml.YAMLError as err:
        raise _syntax_error(err, name, text) from None
    finally:
        if loader is not None:
            loader.dispose()


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return _show(value)


def _show(value: Any) -> str:
    """A value as the user wrote it, short enough for one line."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return excerpt(value)  # short, one line, escaped: every message quotes user text through here
    if isinstance(value, (dict, list)):
        return _kind(value)
    if isinstance(value, int) and abs(value) >= 10**15:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    return terminal(text if len(text) <= 40 else text[:37] + "...", one_line=True)


# --------------------------------------------------------------------------- extends


class Origins:
    """Which file (and its marks) each location of merged data came from.

    ``owners`` maps a location to the index of the file that supplied it; a location
    not listed belongs to the owner of its longest listed prefix.
    """

    def __init__(self, sources: list[tuple[str, Marks]], owners: dict[Loc, int] | None = None) -> None:
        self.sources = sources
        self.owners: dict[Loc, int] = owners if owners is not None else {(): len(sources) - 1}
        self.extra_top_keys: tuple[str, ...] = ()  # offered as suggestions for unknown top-level keys
        self.since: dict[Loc, int] = {}  # the first file of the chain that has a key (see load_data)

    @classmethod
    def for_file(cls, path: str | os.PathLike[str], marks: Marks) -> Origins:
        """Origins of data read from one file with :func:`read_yaml` (no ``extends``)."""
        return cls([(str(path), marks)])

    def owner(self, loc: Loc) -> int:
        """Index in ``sources`` of the file that supplied ``loc``."""
        loc = tuple(loc)
        for end in range(len(loc), -1, -1):
            owner = self.owners.get(loc[:end])
            if owner is not None:
                return owner
        return len(self.sources) - 1

    def source(self, loc: Loc) -> tuple[str, Marks]:
        return self.sources[self.owner(loc)]

    def latest(self, locs: Iterable[Loc]) -> Loc:
        """Of several locations, the one written by the latest file of the chain (the loaded file before
        its parents), preferring a value written at exactly that place; the first one on a tie.

        For a problem made by two fields together, this points at the one a house rule changed.
        """

        def rank(loc: Loc) -> tuple[int, bool]:
            owner = self.owner(loc)
            return owner, self.sources[owner][1].written(loc)

        return max((tuple(loc) for loc in locs), key=rank)

    def inherited(self, loc: Loc) -> bool:
        """Whether ``loc`` already exists in a file the loaded file extends."""
        return self.since.get(tuple(loc), len(self.sources) - 1) < len(self.sources) - 1

    @property
    def user_file(self) -> str:
        """The file being loaded (the last of the chain)."""
        return self.sources[-1][0]

    def locate(self, loc: Loc, key: bool = False) -> tuple[str, int | None, int | None]:
        """(path, line, col) for ``loc``; with ``key``, the key's position when there is one."""
        path, marks = self.source(loc)
        pos = (marks.key(loc) if key else None) or marks.locate(loc)
        return (path, *pos) if pos else (path, None, None)


def _looks_like_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or os.sep in ref


def _builtin_names(catalog_dir: Path) -> list[str]:
    return sorted(p.stem for p in catalog_dir.glob("*.yaml"))


def _unknown_builtin(name: str, catalog_dir: Path) -> str:
    names = _builtin_names(catalog_dir)
    hint = did_you_mean(name, names) or (f"; built-in variants are: {', '.join(names)}" if names else "")
    return f"unknown built-in variant '{name}'{hint}"


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
        raise VariantError(f"{shown}: a file sent here may name only a built-in variant "
                           f"({', '.join(_builtin_names(catalog_dir))})")
    if "\0" in value:
        raise VariantError(f"{shown}: not a valid path (it holds a NUL character)")
    target = folder / value
    if not trust.outside and not _inside(target, folder) and not _inside(target, catalog_dir):
        raise VariantError(f"{shown} is outside the folder of the file that names it; a file may name only "
                           "files in its own folder or below (run the command with --allow-outside to allow it)")
    try:
        found = target.is_file()
    except OSError:
        found = False
    if not found:
        raise VariantError(f"no such file {shown} (looked for {target})")
    return target


def _extends_target(value: Any, child: Path, marks: Marks, catalog_dir: Path, trust: Trust | None = None) -> Path:
    where = (str(child), *(marks.locate(("extends",)) or (None, None)))
    if not isinstance(value, str) or not value.strip():
        raise VariantError(f"extends must be a built-in variant name or a file path, got {_show(value)}", *where)
    try:
        return _named_file(value, child.parent, catalog_dir, TRUST if trust is None else trust)
    except VariantError as err:
        message = err.message if err.message.startswith("unknown built-in") else f"extends: {err.message}"
        raise VariantError(message, *where) from None


def _read_chain(path: Path, catalog_dir: Path, trust: Trust | None = None,
                text: str | None = None) -> list[tuple[Path, dict[Any, Any], Marks]]:
    """The file and its ancestors, child first; ``extends`` keys are removed."""
    chain: list[tuple[Path, dict[Any, Any], Marks]] = []
    real: list[str] = []
    total = 0
    while True:
        if text is None:
            text = _read_text(path)
        total += len(text)
        if total > LIMITS.chain_bytes:
            raise VariantError(f"the extends chain is too large (its files hold more than "
                               f"{LIMITS.chain_bytes // 1024} KiB together)", str(chain[0][0]) if chain else path)
        data, marks = read_yaml(path, text)
        text = None
        chain.append((path, data, marks))
        real.append(os.path.realpath(path))
        if "extends" not in data:
            return chain
        parent = _extends_target(data.pop("extends"), path, marks, catalog_dir, trust)
        where = (str(path), *(marks.locate(("extends",)) or (None, None)))
        parent_real = os.path.realpath(parent)
        if parent_real in real:
            names = [p.name for p, _, _ in chain[real.index(parent_real) :]] + [parent.name]
            raise VariantError(f"extends cycle: {' -> '.join(names)}", *where)
        if len(chain) >= LIMITS.chain:
            raise VariantError(f"extends chain too long (more than {LIMITS.chain} files)", *where)
        path = parent


def _merge(contribs: list[tuple[int, Any]], loc: Loc, owners: dict[Loc, int], since: dict[Loc, int]) -> Any:
    """Merge one location's values, child first: mappings merge key by key, anything else replaces.

    Records in ``owners`` which file supplied each key, so errors can point into it, and in ``since``
    the first file of the chain that has the key (a key new in the house rule may be a misspelling).
    """
    dicts = list(takewhile(lambda c: isinstance(c[1], dict), contribs))
    if not dicts:
        return contribs[0][1]  # the child's non-mapping value replaces whatever the parents had
    keys = dict.fromkeys(k for _, d in reversed(dicts) for k in d)  # parent order, then new keys
    merged: dict[Any, Any] = {}
    for key in keys:
        sub = [(i, d[key]) for i, d in dicts if key in d]
        owners[loc + (key,)] = sub[0][0]
        since[loc + (key,)] = sub[-1][0]
        merged[key] = _merge(sub, loc + (key,), owners, since)
    return merged


def load_data(
    ref: str | os.PathLike[str],
    catalog_dir: str | os.PathLike[str],
    *,
    trust: Trust | None = None,
    text: str | None = None,
    named_in: str | os.PathLike[str] | None = None,
) -> tuple[dict[Any, Any], Origins]:
    """Read a variant file (a path or a built-in name), follow ``extends``, and deep-merge.

    Parents come first; the child's mapping keys override recursively, and any
    non-mapping value (lists included) replaces the parent's value wholesale.

    ``trust`` (default :data:`TRUST`) says which files a file may name; ``text`` is
    the file's content when it did not come from a file (an upload: ``ref`` is then
    only its display name; with ``trust=UPLOAD`` it may extend only built-ins);
    ``named_in`` is the folder of the file that named ``ref`` (a scenario or a
    record), so ``ref`` itself is held to ``trust``.
    """
    catalog = Path(catalog_dir)
    trust = TRUST if trust is None else trust
    if text is not None:
        start = Path(ref)
    elif named_in is not None and not isinstance(ref, os.PathLike):
        start = _named_file(str(ref), Path(named_in), catalog, trust)
    else:
        start = _resolve_ref(ref, catalog)
    chain = _read_chain(start, catalog, trust, text)
    chain.reverse()  # parent first, so file indexes grow toward the child
    owners: dict[Loc, int] = {(): len(chain) - 1}
    contribs = [(i, data) for i, (_, data, _) in reversed(list(enumerate(chain)))]
    since: dict[Loc, int] = {}
    merged = _merge(contribs, (), owners, since)
    origins = Origins([(str(path), marks) for path, _, marks in chain], owners)
    origins.since = since
    origins.extra_top_keys = ("extends",)
    return merged, origins


# --------------------------------------------------------------------------- validation


def locate_error(origins: Origins, loc: Loc, message: str, key: bool = False) -> VariantError:
    """A :class:`VariantError` pointing at ``loc`` (at its key with ``key=True``)."""
    return VariantError(message, *origins.locate(loc, key))


def validate(
    model_cls: type[M], data: dict[Any, Any], origins: Origins,
    found: Sequence[VariantError] = (), quiet: Iterable[Loc] = (),
) -> M:
    """Validate merged data; every mistake (with ``found``, those the caller found first) is raised at
    once as :class:`VariantErrors`, each located and in a player's words.

    Pydantic errors at or under a location in ``quiet`` are left out: the caller reported them better.
    """
    errors = list(found)
    try:
        model = model_cls.model_validate(data)
    except ValidationError as exc:
        errors += _from_pydantic(model_cls, data, origins, exc.errors(), tuple(tuple(q) for q in quiet))
        model = None
    if errors or model is None:
        raise VariantErrors(errors or [VariantError("the file is not valid", origins.user_file)], origins.user_file)
    return model


# --- mapping a pydantic loc onto the data and the model's annotations
#
# Pydantic's loc mixes real keys/indexes with labels it adds inside unions: the
# member tried ("Amount", "literal['stake']", "function-after[...]") or the
# discriminator tag ("calls").  A tag can equal a real key, so we walk the
# annotations to know where a label is due, and fall back to "is it in the data?".

_MAPPINGS = (dict, Mapping, MutableMapping)
_SEQUENCES = (list, set, frozenset, Sequence, MutableSequence)


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _members(tp: Any) -> list[Any]:
    return [a for a in get_args(tp) if a is not type(None)] if get_origin(tp) in (Union, types.UnionType) else []


def _strip(tp: Any) -> Any:
    """Drop Annotated and Optional wrappers (pydantic adds no loc label for those)."""
    while True:
        if get_origin(tp) is Annotated:
            tp = get_args(tp)[0]
        elif len(members := _members(tp)) == 1:
            tp = members[0]
        else:
            return tp


def _has(cur: Any, comp: Any) -> bool:
    if isinstance(cur, dict):
        return comp in cur
    return isinstance(cur, list) and type(comp) is int and 0 <= comp < len(cur)


def _literals(model: type[BaseModel]) -> dict[str, tuple[Any, ...]]:
    """Literal-typed fields by key (name and alias): the usual discriminators."""
    out: dict[str, tuple[Any, ...]] = {}
    for name, field in model.model_fields.items():
        ann = _strip(field.annotation)
        if get_origin(ann) is Literal:
            for key in {name, field.alias} - {None}:
                out[str(key)] = get_args(ann)
    return out


def _member_for_tag(members: list[Any], tag: Any) -> Any:
    named = [m for m in members if getattr(_strip(m), "__name__", None) == tag]
    tagged = [m for m in members if _is_model(_strip(m)) and any(tag in v for v in _literals(_strip(m)).values())]
    found = named or tagged
    return _strip(found[0]) if len(found) == 1 else None


def _member_for_data(members: list[Any], value: Any) -> Any:
    """The one union member whose shape (and Literal fields) fit ``value``, else None."""
    fits = [_strip(m) for m in members if _fits(_strip(m), value)]
    return fits[0] if len(fits) == 1 else None


def _fits(tp: Any, value: Any) -> bool:
    if members := _members(tp):
        return any(_fits(_strip(m), value) for m in members)
    origin = get_origin(tp) or tp
    if isinstance(value, dict):
        if _is_model(tp):
            lits = _literals(tp)
            return all(value[k] in allowed for k, allowed in lits.items() if k in value)
        return origin in _MAPPINGS
    if isinstance(value, list):
        return origin in _SEQUENCES or origin is tuple
    return False


def _child_type(tp: Any, comp: Any) -> Any:
    if _is_model(tp):
        for name, field in tp.model_fields.items():
            if comp in (name, field.alias, field.validation_alias):
                return field.annotation
        return None
    origin, args = get_origin(tp), get_args(tp)
    if origin in _MAPPINGS:
        return args[1] if len(args) == 2 else None
    if origin in _SEQUENCES:
        return args[0] if args else None
    if origin is tuple and args:
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
        return args[comp] if type(comp) is int and comp < len(args) else None
    return None


def _walk(model_cls: type[BaseModel], data: Any, raw: Loc) -> tuple[Loc, Any, Any]:
    """The real data path of a pydantic loc, the type holding its last real step, and the type there.

    A type is None where we could not tell (they are only used for wording and suggestions).
    """
    tp: Any = model_cls
    cur = data
    path: list[Any] = []
    holder: Any = model_cls
    for comp in raw:
        tp = _strip(tp) if tp is not None else None
        if members := _members(tp):
            pick = _member_for_tag(members, comp)
            if pick is not None or not _has(cur, comp):  # a label pydantic added
                tp = pick if pick is not None else _member_for_data(members, cur)
                continue
            tp = _member_for_data(members, cur)
        if not _has(cur, comp):
            continue  # a missing key, or a label we could not place
        holder = tp
        tp = _child_type(tp, comp) if tp is not None else None
        path.append(comp)
        cur = cur[comp]
    return tuple(path), holder, (_strip(tp) if tp is not None else None)


def _field_keys(model: type[BaseModel]) -> list[str]:
    keys: list[str] = []
    for name, field in model.model_fields.items():
        keys += [k for k in (name, field.alias, field.validation_alias) if isinstance(k, str) and k not in keys]
    return keys


# --- turning one pydantic error into one line


def dotted(loc: Loc) -> str:
    """A location as a house rule would write it: ``calls.sad.effects.skip_stages[0]``."""
    out = ""
    for comp in loc:
        out += f"[{comp}]" if type(comp) is int else (f".{comp}" if out else str(comp))
    return out


def value_at(data: Any, loc: Loc, missing: Any = None) -> Any:
    """The value at ``loc`` in plain YAML data, or ``missing`` where the path does not exist."""
    for comp in loc:
        if isinstance(data, dict):
            inside = comp in data
        else:
            inside = isinstance(data, list) and isinstance(comp, int) and 0 <= comp < len(data)
        if not inside:
            return missing
        data = data[comp]
    return data


def _prefixed(loc: Loc, message: str) -> str:
    message = " ".join(message.split())  # one line, whatever a validator wrote
    return f"{dotted(loc)}: {message}" if loc else message


_TYPE_KINDS = frozenset({
    "model_type", "model_attributes_type", "dict_type", "list_type", "tuple_type", "set_type", "int_type",
    "int_parsing", "int_from_float", "float_type", "float_parsing", "bool_type", "bool_parsing", "string_type",
    "literal_error", "union_tag_invalid", "union_tag_not_found", "none_required", "is_instance_of",
})
_RANGES = {"greater_than_equal": ("ge", "at least"), "greater_than": ("gt", "more than"),
           "less_than_equal": ("le", "at most"), "less_than": ("lt", "less than")}


@dataclass
class _Found:
    """One pydantic error placed on the data: its real location and the types around it."""

    err: Mapping[str, Any]
    raw: Loc
    loc: Loc
    holder: Any
    tp: Any

    @property
    def kind(self) -> str:
        return str(self.err["type"])

    @property
    def key_error(self) -> bool:
        return self.kind == "extra_forbidden" or self.raw[-1:] == ("[key]",)


def _from_pydantic(model_cls: type[BaseModel], data: Any, origins: Origins, errs: Sequence[Mapping[str, Any]],
                   quiet: tuple[Loc, ...] = ()) -> list[VariantError]:
    """Each pydantic error as one located line, less those another error explains."""
    found = [_Found(e, tuple(e["loc"]), *_walk(model_cls, data, tuple(e["loc"]))) for e in errs]
    found = [f for f in found if not any(f.loc[: len(q)] == q for q in quiet)]
    unknown = [f for f in found if f.key_error]
    meant = {(f.loc[:-1], _suggestion(f)) for f in unknown if f.kind == "extra_forbidden"}
    kept: list[_Found] = []
    for f in found:
        if any(u is not f and f.loc[: len(u.loc)] == u.loc for u in unknown):
            continue  # inside a key that is itself unknown
        if f.kind == "missing" and (f.loc, str(f.raw[-1])) in meant:
            continue  # the misspelt key next to it is the mistake
        if f.kind in _TYPE_KINDS and not f.key_error and any(
            len(g.loc) > len(f.loc) and g.loc[: len(f.loc)] == f.loc for g in found
        ):
            continue  # another member of a union fits the shape: its errors inside say more
        kept.append(f)
    # the members of a union each say the value does not fit them: one line for the value, with a suggestion
    # when a member has one (the literal)
    by_loc: dict[Loc, _Found] = {}
    for f in kept:
        if f.kind in _TYPE_KINDS and not f.key_error:
            seen = by_loc.get(f.loc)
            if seen is None or (f.kind == "literal_error" and seen.kind != "literal_error"):
                by_loc[f.loc] = f
    kept = [f for f in kept if f.kind not in _TYPE_KINDS or f.key_error or by_loc.get(f.loc) is f]
    return [_one(model_cls, data, origins, f) for f in kept]


def _suggestion(f: _Found) -> str:
    allowed = _field_keys(f.holder) if _is_model(f.holder) else []
    match = re.findall(r"'([^']*)'", did_you_mean(str(f.raw[-1]), allowed))
    return match[0] if match else ""


def _one(model_cls: type[BaseModel], data: Any, origins: Origins, f: _Found) -> VariantError:
    loc, raw, kind = f.loc, f.raw, f.kind
    if kind == "extra_forbidden" and raw:
        return _unknown_key(origins, loc, f.holder, raw[-1])
    if kind == "missing" and raw:
        return _missing(origins, loc, f.tp, raw[-1])
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return _bad_tag(origins, data, loc, f.err, f.tp)
    if f.raw[-1:] == ("[key]",):
        return _bad_dict_key(origins, loc, f.err)
    return locate_error(origins, loc, _prefixed(loc, _human(f, data)))


# A text in these lists is an id of something defined elsewhere in the file: (what it is, where they are).
_ID_LISTS = {"calls": ("a call id", "calls"), "skip_stages": ("a stage id", "stages")}


def _id_phrase(data: Any, loc: Loc) -> str | None:
    """"a call id, e.g. `khrap`" for an item of a list of call ids (and so on), else None."""
    named = next((c for c in reversed(loc) if isinstance(c, str)), None)
    if named not in _ID_LISTS or not loc or not isinstance(loc[-1], int):
        return None
    what, where = _ID_LISTS[named]
    pool = data.get(where) if isinstance(data, dict) else None
    ids = list(pool) if isinstance(pool, dict) else [s.get("id") for s in pool or () if isinstance(s, dict)]
    first = next((i for i in ids if isinstance(i, str)), None)
    return f"{what}, e.g. `{first}`" if first else what


def _field_info(model: Any, key: Any) -> Any:
    if not _is_model(model):
        return None
    for name, field in model.model_fields.items():
        if key in (name, field.alias):
            return field
    return None


def _missing(origins: Origins, loc: Loc, holder: Any, key: Any) -> VariantError:
    from khrap.variant.expect import example

    holder = _strip(holder) if holder is not None else None
    field = _field_info(holder, key)
    sample = example(field.annotation, field, holder, key) if field is not None else "..."
    message = f"`{key}` is missing: add it, e.g. `{key}: {sample}`"
    return locate_error(origins, loc, _prefixed(loc, message))


def _unknown_key(origins: Origins, loc: Loc, holder: Any, name: Any) -> VariantError:
    parent = loc[:-1] if loc and loc[-1] == name else loc
    allowed = _field_keys(holder) if _is_model(holder) else []
    if not parent:
        allowed += origins.extra_top_keys
    hint = did_you_mean(str(name), allowed)
    if not hint and allowed:
        hint = f" (the keys here are: {', '.join(allowed)})"
    message = f"unknown key {_show(name)}" + hint
    return locate_error(origins, parent + (name,), _prefixed(parent, message), key=True)


def _bad_dict_key(origins: Origins, loc: Loc, err: Mapping[str, Any]) -> VariantError:
    """A key of a mapping whose keys are fixed words (``statuses: {declarer: ..., helper: ...}``)."""
    words = re.findall(r"'([^']*)'", str((err.get("ctx") or {}).get("expected", "")))
    name = loc[-1] if loc else err.get("input")
    parent = loc[:-1] if loc and loc[-1] == name else loc
    hint = did_you_mean(str(name), words) or (f" (use {' or '.join(words)})" if words else "")
    return locate_error(origins, parent + (name,), _prefixed(parent, f"unknown key {_show(name)}" + hint), key=True)


def _bad_tag(origins: Origins, data: Any, loc: Loc, err: Mapping[str, Any], tp: Any = None) -> VariantError:
    """A discriminated union whose tag key is absent or has an unknown value."""
    ctx = err.get("ctx") or {}
    key = str(ctx.get("discriminator", "")).strip("'")
    target: Any = data
    for comp in loc:
        target = target[comp]
    expected = re.findall(r"'([^']*)'", str(ctx.get("expected_tags", "")))
    if not expected:  # pydantic names the tags only when one is written
        for member in _members(tp) if tp is not None else []:
            member = _strip(member)
            expected += [str(t) for t in (_literals(member).get(key, ()) if _is_model(member) else ())]
    if not (isinstance(target, dict) and key in target):
        if not isinstance(target, dict):
            return locate_error(origins, loc, _prefixed(loc, f"must be a mapping, got {_kind(target)}"))
        message = f"`{key}` is missing: add it, e.g. `{key}: {expected[0] if expected else '...'}`"
        if expected:
            from khrap.variant.expect import choices

            message += f" (one of {choices(expected)})"
        return locate_error(origins, loc, _prefixed(loc, message))
    tag = target[key]
    from khrap.variant.expect import choices

    message = f"must be one of {choices(expected)}; got {_show(tag)}" + did_you_mean(str(tag), expected)
    return locate_error(origins, loc + (key,), _prefixed(loc + (key,), message))


_CLEAN_PREFIXES = ("Value error, ", "Assertion failed, ")


def _human(f: _Found, data: Any = None) -> str:
    """What is wrong with the value at ``f.loc``, in a player's words; never pydantic's sentence."""
    from khrap.variant.expect import example, expected

    err, kind = f.err, f.kind
    value = err.get("input")
    ctx = err.get("ctx") or {}
    if kind in ("value_error", "assertion_error"):
        msg = str(err["msg"])
        for prefix in _CLEAN_PREFIXES:
            msg = msg.removeprefix(prefix)
        return msg
    if kind in _RANGES:
        name, words = _RANGES[kind]
        return f"must be {words} {ctx.get(name)}, got {_show(value)}"
    if kind in ("string_too_long", "string_too_short"):
        size = ctx.get("max_length" if kind == "string_too_long" else "min_length")
        words = "at most" if kind == "string_too_long" else "at least"
        return f"is too {'long' if kind == 'string_too_long' else 'short'}: {words} {size} characters"
    if kind in ("too_short", "too_long"):
        size = ctx.get("min_length" if kind == "too_short" else "max_length")
        more = "at least" if kind == "too_short" else "at most"
        return f"needs {more} {size} entr{'y' if size == 1 else 'ies'}, got {ctx.get('actual_length', '?')}"
    key = f.loc[-1] if f.loc else None
    holder = f.holder if _is_model(f.holder) and f.loc else None
    field = _field_info(holder, key)
    tp = field.annotation if field is not None else f.tp
    if tp is None:
        return f"is not a valid value here, got {_show(value)}"
    what = expected(tp, field, holder, key)
    ident = _id_phrase(data, f.loc) if what == "a text" else None
    if ident is not None:
        return f"must be {ident}; got {_show(value)}"
    if what.startswith(("one of ", "`")):  # the choices are the example
        msg = f"must be {what}; got {_show(value)}"
    else:
        sample = example(tp, field, holder, key, written=value)
        shown = f"`{key}: {sample}`" if isinstance(key, str) else f"`{sample}`"
        msg = f"must be {what}, e.g. {shown}; got {_show(value)}"
    if kind == "literal_error" and isinstance(value, str):
        msg += did_you_mean(value, re.findall(r"'([^']*)'", str(ctx.get("expected", ""))))
    return msg + _comma_hint(data, f.loc, value)


def _comma_hint(data: Any, loc: Loc, value: Any) -> str:
    """A key with no value in `{...}` is most likely the tail of a text after a comma (`{en: Khrap with
    friends, at home}` reads `at home` as a key): say to quote the whole text."""
    if value is not None or not loc or not isinstance(loc[-1], str) or " " not in loc[-1].strip():
        return ""
    tail = _safe_tail(loc[-1])
    return (f" (a comma inside `{{...}}` ends a text, so '{tail}' was read as a key: if it belongs to the "
            f"text before it, put that whole text in quotes, e.g. `\"..., {tail}\"`)")


def _safe_tail(text: str, limit: int = 30) -> str:
    shown = "".join(c if c.isprintable() else "?" for c in text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."
