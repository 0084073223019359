"""Following ``extends`` chains and merging them, remembering which file wrote each value (``Origins``),
so that a mistake in an inherited value points into the file that wrote it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from itertools import takewhile
from pathlib import Path
from typing import Any

from khrap.variant import reading
from khrap.variant import trust as trusted
from khrap.variant.errors import Loc, VariantError, _show
from khrap.variant.reading import Marks, _read_text, read_yaml
from khrap.variant.said import Said
from khrap.variant.trust import Trust, _named_file, _resolve_ref

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


def _extends_target(value: Any, child: Path, marks: Marks, catalog_dir: Path, trust: Trust | None = None) -> Path:
    where = (str(child), *(marks.locate(("extends",)) or (None, None)))
    if not isinstance(value, str) or not value.strip():
        raise VariantError(Said("extends must be a built-in variant name or a file path, got %(value)s",
                                value=_show(value)), *where)
    try:
        return _named_file(value, child.parent, catalog_dir, trusted.TRUST if trust is None else trust)
    except VariantError as err:
        said = err.said or err.message  # (its words to translate, where it has them)
        raise VariantError(said if err.message.startswith("unknown built-in") else "extends: " + said, *where) \
            from None


def _read_chain(path: Path, catalog_dir: Path, trust: Trust | None = None,
                text: str | None = None) -> list[tuple[Path, dict[Any, Any], Marks]]:
    """The file and its ancestors, child first; ``extends`` keys are removed."""
    limits = reading.LIMITS  # read at call time: tests and callers may swap it
    chain: list[tuple[Path, dict[Any, Any], Marks]] = []
    real: list[str] = []
    total = 0
    while True:
        if text is None:
            text = _read_text(path)
        total += len(text)
        if total > limits.chain_bytes:
            raise VariantError(Said("the extends chain is too large (its files hold more than %(n)s KiB together)",
                                    n=limits.chain_bytes // 1024), str(chain[0][0]) if chain else path)
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
            raise VariantError(Said("extends cycle: %(files)s", files=" -> ".join(names)), *where)
        if len(chain) >= limits.chain:
            raise VariantError(Said("extends chain too long (more than %(n)s files)", n=limits.chain), *where)
        path = parent


WHOLE: frozenset[Loc] = frozenset({("name",)})
"""Mappings a file gives whole, never merged with its parent's: a house rule's name is its own in every
language it gives, and ``localized``'s English elsewhere; merged, a Lithuanian table of "Friday khrap" read
the built-in's "Knarkimas" in the page's head and over the sheet that said it plays differently from it."""


def _merge(contribs: list[tuple[int, Any]], loc: Loc, owners: dict[Loc, int], since: dict[Loc, int]) -> Any:
    """Merge one location's values, child first: mappings merge key by key, anything else replaces.

    Records in ``owners`` which file supplied each key, so errors can point into it, and in ``since``
    the first file of the chain that has the key (a key new in the house rule may be a misspelling).
    """
    dicts = list(takewhile(lambda c: isinstance(c[1], dict), contribs))
    if not dicts or loc in WHOLE:
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

    ``trust`` (default: the trust module's ``TRUST``) says which files a file may name; ``text`` is
    the file's content when it did not come from a file (an upload: ``ref`` is then
    only its display name; with ``trust=UPLOAD`` it may extend only built-ins);
    ``named_in`` is the folder of the file that named ``ref`` (a scenario or a
    record), so ``ref`` itself is held to ``trust``.
    """
    catalog = Path(catalog_dir)
    trust = trusted.TRUST if trust is None else trust
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
