"""Reading one YAML file with limits and positions: plain data, and where each value was written.

The YAML is composed with PyYAML's pure-Python ``SafeLoader`` (the C loader
composes in C, so our limit hooks would not run) and turned into plain data by
our own walk, so that we can record positions, refuse duplicate keys, and count
alias expansions: PyYAML shares aliased nodes, so a "billion laughs" file is
cheap to compose and only explodes when expanded, which is where we count.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from typing import Any

import yaml

from khrap.safe_io import InputRefused, read_limited
from khrap.safe_text import bidi_control_at, excerpt, surrogate_at
from khrap.variant.errors import Loc, Pos, VariantError, said_kind
from khrap.variant.said import Said


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
            raise VariantError(Said("too many YAML nodes (more than %(n)s)", n=LIMITS.nodes), self._path,
                              *_pos(event.start_mark))
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


def _too_deep() -> Said:
    return Said("nesting too deep (more than %(n)s levels)", n=LIMITS.depth)


_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("null", "bool", "int", "float", "str")}
_MERGE_TAG = _TAG + "merge"


def _short_tag(tag: str) -> str:
    return "!!" + tag.removeprefix(_TAG) if tag.startswith(_TAG) else tag


class _Builder:
    """Turns composed nodes into plain data, recording marks and enforcing expansion limits."""

    def __init__(self, loader: _Loader, path: str, text: str) -> None:
        self.loader = loader
        self.path = path
        self.text = text
        self.marks = Marks()
        self.aliases = 0
        self.nodes = 0
        self.active: list[int] = []  # ids of collections being built: an alias back into one is a cycle

    def error(self, message: str | Said, node: yaml.Node) -> VariantError:
        return VariantError(message, self.path, *_pos(node.start_mark))

    def deref(self, node: yaml.Node) -> yaml.Node:
        while isinstance(node, _AliasNode):
            self.aliases += 1
            if self.aliases > LIMITS.aliases:
                raise self.error(Said("too many alias expansions (more than %(n)s)", n=LIMITS.aliases), node)
            if id(node.value) in self.active:
                raise self.error(Said("recursive alias: an anchor may not contain an alias to itself"), node)
            node = node.value
        return node

    def build(self, node: yaml.Node, loc: Loc, depth: int, key: Pos | None = None) -> Any:
        self.marks.add(loc, _pos(node.start_mark), key)
        node = self.deref(node)
        self.nodes += 1
        if self.nodes > LIMITS.nodes:
            raise self.error(Said("too many YAML nodes after alias expansion (more than %(n)s)", n=LIMITS.nodes), node)
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
        return self.error(Said("unsupported YAML tag '%(tag)s'", tag=_short_tag(node.tag)), node)

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag == _TAG + "timestamp":
            return node.value  # keep dates as text: plain data only
        if node.tag not in _SCALAR_TAGS:
            raise self.bad_tag(node)
        construct = yaml.constructor.SafeConstructor.yaml_constructors[node.tag]
        if surrogate_at(node.value) is not None:  # only an escape ("\ud800") can write one
            raise self.error(Said("not valid Unicode text: a lone surrogate (\\ud800 to \\udfff) in a string"), node)
        if bidi_control_at(node.value) is not None:
            raise self.bidi_control(node)
        try:
            return construct(self.loader, node)
        except (ValueError, KeyError, yaml.YAMLError):  # e.g. "!!int abc", or an integer of 5,000 digits
            raise self.error(Said("invalid value %(value)s for tag '%(tag)s'", value=excerpt(node.value),
                                      tag=_short_tag(node.tag)), node) from None

    def bidi_control(self, node: yaml.ScalarNode) -> VariantError:
        """A name or text holding a bidi override, embedding or isolate: refused here, once for every page and
        screen that would show it (an unclosed one reverses the text beside it too).  Located at the character
        itself where the file writes it as it is, at its value where an escape (``"\\u202e"``) writes it."""
        char = node.value[bidi_control_at(node.value) or 0]
        code = f"U+{ord(char):04X} ({unicodedata.name(char)})"
        message = Said("a bidirectional control character %(char)s in a name or text: it would reorder the "
                       "text around it wherever it is shown; remove it", char=code)
        written = self.text[node.start_mark.index : node.end_mark.index]
        at = bidi_control_at(written)
        if at is None:
            return self.error(message, node)
        index = node.start_mark.index + at
        line_start = self.text.rfind("\n", 0, index) + 1
        return VariantError(message, self.path, self.text.count("\n", 0, index) + 1, index - line_start + 1)

    def mapping(self, node: yaml.MappingNode, loc: Loc, depth: int) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        first_line: dict[Any, int] = {}
        for key_node, value_node, merged in self.pairs(node):
            key = self.key(key_node)
            if key in result:
                if merged:  # explicit keys and earlier merges win over later merges
                    continue
                raise self.error(Said("duplicate key %(key)s (first at line %(line)s)", key=repr(key),
                                      line=first_line[key]), key_node)
            first_line[key] = key_node.start_mark.line + 1
            result[key] = self.build(value_node, loc + (key,), depth, key=_pos(key_node.start_mark))
        return result

    def key(self, node: yaml.Node) -> Any:
        target = self.deref(node)
        if not isinstance(target, yaml.ScalarNode):
            raise self.error(Said("a mapping key must be a plain value, not a list or mapping"), node)
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
            raise self.error(Said("a '<<' merge key needs a mapping or a list of mappings"), node)
        return sources


def _read_text(path: str | os.PathLike[str]) -> str:
    try:
        raw = read_limited(path, LIMITS.file_bytes)  # regular files only; never more than we would accept
    except InputRefused as err:
        raise VariantError(_refused(str(err)), path) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line_start = raw.rfind(b"\n", 0, err.start) + 1
        col = len(raw[line_start : err.start].decode("utf-8", "replace")) + 1
        raise VariantError(Said("not UTF-8 text"), path, raw.count(b"\n", 0, err.start) + 1, col) from None


def read_text(path: str | os.PathLike[str]) -> str:
    """A file's text: a regular file within the size limit, UTF-8; a located VariantError otherwise."""
    return _read_text(path)


def _too_large() -> Said:
    # worded as khrap.safe_io words a file over the limit (tests/test_checker_catalogs checks they agree)
    limit = LIMITS.file_bytes
    if limit % (1024 * 1024) == 0:
        return Said("file is too large (the limit is %(n)s MiB)", n=limit // (1024 * 1024))
    if limit % 1024 == 0:
        return Said("file is too large (the limit is %(n)s KiB)", n=limit // 1024)
    return Said("file is too large (the limit is %(n)s bytes)", n=limit)


# khrap.safe_io's reasons for not reading a file (plain English: it is a leaf module, below the catalogs), as
# messages a player reads in his language; a reason with the system's own words in it stays as it is.
_REFUSALS = {said.text: said for said in (
    Said("no such file"), Said("is a directory, not a file"), Said("is not a regular file"),
    Said("not a valid path (it holds a NUL character)"))}


def _refused(reason: str) -> Said | str:
    return _too_large() if reason.startswith("file is too large") else _REFUSALS.get(reason, reason)


# PyYAML's reason for a character its reader refuses, in the reader's language (others stay as PyYAML words them).
_READER_REASONS = {"special characters are not allowed": Said("special characters are not allowed")}


def _syntax_error(err: yaml.YAMLError, path: str, text: str) -> VariantError:
    if isinstance(err, yaml.reader.ReaderError):
        # Reader errors carry a character offset, not a mark.
        line = text.count("\n", 0, err.position) + 1
        col = err.position - (text.rfind("\n", 0, err.position) + 1) + 1
        return VariantError(Said("invalid character #x%(code)s (%(reason)s)", code=format(err.character, "04x"),
                                 reason=_READER_REASONS.get(err.reason, err.reason)), path, line, col)
    if isinstance(err, yaml.MarkedYAMLError):
        from khrap.variant.yamlhints import explain  # PyYAML's words turned into a player's

        message, where = explain(err, text)
        return VariantError(Said("invalid YAML: %(message)s", message=message), path, *(where or (None, None)))
    return VariantError(Said("invalid YAML: the file could not be read as YAML"), path)


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
        raise VariantError(Said("file is empty"), name)
    data, marks = _parse(text, name)
    if not isinstance(data, dict):
        raise VariantError(Said("the top level must be a mapping of keys to values, got %(got)s", got=said_kind(data)),
                           name, *_root(marks))
    return data, marks


def _root(marks: Marks) -> Pos | tuple[None, None]:
    return marks.locate(()) or (None, None)


def _parse(text: str, name: str) -> tuple[Any, Marks]:
    loader: _Loader | None = None
    try:
        loader = _Loader(text, name)  # the reader checks characters already here
        root = loader.get_single_node()
        if root is None or (isinstance(root, yaml.ScalarNode) and root.value == "" and not root.style):
            raise VariantError(Said("file is empty"), name)  # only comments, or an empty document
        builder = _Builder(loader, name, text)
        return builder.build(root, (), 0), builder.marks
    except yaml.YAMLError as err:
        raise _syntax_error(err, name, text) from None
    finally:
        if loader is not None:
            loader.dispose()
