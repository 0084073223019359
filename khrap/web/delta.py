"""Updates that carry what changed: the patch that turns a seat's last view into its new one.

A seat's connection gets its full view once (on hello, on a language change, when it asks), then at each
change only a patch against the view it was sent last: the view's parts are mostly the same from one action
to the next (the table, the seats, the calls' names), and its log and events only grow.  A patch is made
once per seat and language (every connection of that seat gets the same text) from the parts of two views
that ``Table.parts`` made for that seat, so it holds nothing the seat's own view does not.

A patch of a dict is a dict of up to four parts, each present only if not empty:

- ``"s"``: keys set to a new value (whatever it was);
- ``"p"``: keys whose value is a dict, with that dict's own patch;
- ``"a"``: keys whose value is a list that grew: the items appended;
- ``"x"``: keys removed.

:func:`apply` (and the page's ``patch`` in ``static/table.js``) makes the new view from the old one and the
patch; ``apply(old, diff(old, new)) == new`` for any two JSON-ready dicts (tests/web/test_delta.py) whose
places keep their type (a view's flag is a bool in every view: inside a list, Python finds ``True == 1``).

A broadcast does not compare two whole views: a seat's view is kept as the :class:`Parts` it is made of (what
every viewer in its language holds alike, :class:`Common`: the table's part, the observation but its seat and
hand, the table's log and events as lists that only grow and how much of them the view holds, the rest; what
the viewer holds alone, :class:`OwnParts`; the server's extras), and :func:`patch` makes the patch from the
parts that are not the same objects as in the view sent last, the common parts' once for every viewer
(``Parts.whole`` is the view: ``apply(old.whole(), patch(old, new)) == new.whole()``, tests/web/test_delta.py;
the table's parts are never changed once made).
"""

from __future__ import annotations

from typing import Any

_MISSING = object()


def diff(old: dict, new: dict, memo: dict | None = None) -> dict:
    """The patch that turns ``old`` into ``new`` (both JSON-ready dicts; neither is changed).

    ``memo``: the patches of pairs of parts already compared, by the parts' identities: views of one change
    share parts (the table, the chips moved), and a broadcast patches each shared pair once.  The caller keeps
    every part it compared alive while it keeps ``memo`` (an identity is reused only after its object is gone)."""
    put: dict[str, Any] = {}
    sub: dict[str, dict] = {}
    grown: dict[str, list] = {}
    missing = 0  # keys of ``new`` that ``old`` has not (counted where rare, not each key found: the hot loop)
    for key, value in new.items():
        before = old.get(key, _MISSING)  # (not a bound ``get``: compiled, that is a Python call each key)
        if before is value:  # (most values: the parts views share are the same objects)
            continue
        if before is _MISSING:
            missing += 1
        else:
            kind = type(value)
            if kind is type(before):  # (the type too: True == 1 in Python, not on the page)
                if before == value:
                    continue
                if kind is dict:
                    if memo is None:
                        sub[key] = diff(before, value)
                        continue
                    pair = (id(before), id(value))
                    part = memo.get(pair)
                    if part is None:
                        part = memo[pair] = diff(before, value, memo)
                    sub[key] = part
                    continue
                if kind is list and 0 < len(before) <= len(value) and value[:len(before)] == before:
                    grown[key] = value[len(before):]
                    continue
        put[key] = value
    made: dict[str, Any] = {}
    if put:
        made["s"] = put
    if sub:
        made["p"] = sub
    if grown:
        made["a"] = grown
    if len(new) - missing < len(old):  # (some key of ``old`` is not in ``new``)
        made["x"] = [key for key in old if key not in new]
    return made


def apply(old: dict, patch: dict) -> dict:
    """The view ``patch`` makes of ``old``: a new dict (``old`` and its parts are not changed)."""
    new = {**old, **patch.get("s", {})}
    for key, part in patch.get("p", {}).items():
        new[key] = apply(old[key], part)
    for key, items in patch.get("a", {}).items():
        new[key] = old[key] + items
    for key in patch.get("x", ()):
        del new[key]
    return new


_NO_PARTS: dict = {}
_LISTS = ("log", "events")


class Common:
    """The parts of a view that every viewer in a language holds alike at a change: the table's part, the
    observation but its seat and hand (``observed``), the table's log and events (lists that only grow: a new
    deal's are new lists) and how much of them it shows, and the other keys (``rest``: the chips moved, the
    last tricks, the fair-deal data...).  Made once a change and language; nothing in it is changed once made."""

    __slots__ = ("events", "evented", "log", "logged", "observed", "rest", "table")

    def __init__(self, table: dict, observed: dict, log: list, events: list, rest: dict) -> None:
        self.table, self.observed, self.rest = table, observed, rest
        self.log, self.logged, self.events, self.evented = log, len(log), events, len(events)


class OwnParts:
    """A viewer's own parts of its view (``me`` None: a spectator's): its hand, settlement, legal actions, and
    its log and events: None while they are the table's (``Common``'s), else its own lists (once the seat holds an
    event otherwise), of which a view shows as many items as the table's (a seat holds every event of the deal, as
    the table holds it or as its own).  The same object from one change to the next while none of them changed
    but by the table's new items (``Table.parts``): a patch then adds nothing of the viewer's, and the viewers
    alike share its text (``Host.broadcast``)."""

    __slots__ = ("events", "hand", "legal", "log", "me", "settled")

    def __init__(self, me: int | None, hand: list | None, log: list | None, events: list | None,
                 settled: dict | None, legal: list) -> None:
        self.me, self.hand, self.settled, self.legal, self.log, self.events = me, hand, settled, legal, log, events


class Parts:
    """A view as the parts it is made of: ``common`` (every viewer's in its language), ``own`` (the viewer's,
    made once a change of the session), ``extras`` (the server's keys: the clock, the host's links...) and its
    number ``n`` (None: not numbered).  Nothing in them is changed once made."""

    __slots__ = ("common", "extras", "n", "own")

    def __init__(self, common: Common, own: OwnParts, extras: dict = _NO_PARTS, n: int | None = None) -> None:
        self.common, self.own, self.extras, self.n = common, own, extras, n

    def whole(self) -> dict:
        """The view these parts make (a new dict; its lists of the log and events are copies)."""
        common, own = self.common, self.own
        log: list = common.log if own.log is None else own.log  # (the table's log, or the viewer's own)
        events: list = common.events if own.events is None else own.events
        view = {"type": "state", "table": common.table, "me": own.me,
                "obs": {"seat": own.me, **common.observed, "hand": own.hand},
                "log": log[:common.logged], "events": events[:common.evented], "settled": own.settled,
                **common.rest, "legal": own.legal, **self.extras}
        if self.n is not None:
            view["n"] = self.n
        return view


def _once(old: dict, new: dict, memo: dict) -> dict:
    """``diff(old, new)`` made once for the pair while ``memo`` is kept (the parts views share)."""
    pair = (id(old), id(new))
    found = memo.get(pair)
    if found is None:
        found = memo[pair] = diff(old, new, memo)
    return found


def _grown(put: dict, grown: dict, key: str, old: list, held: int, new: list, holds: int) -> None:
    """The patch of a view's list that holds ``new[:holds]`` where it held ``old[:held]``: the items appended if
    the list (or another that begins with the same items: a seat's log that became its own) grew, else the list."""
    if old is new or (held <= holds and new[:held] == old[:held]):  # (compared in C)
        if holds > held:
            grown[key] = new[held:holds]
        elif holds < held:
            put[key] = new[:holds]
    elif held or holds:
        put[key] = new[:holds]


def _common(old: Common, new: Common, memo: dict) -> dict:
    """The patch of the common parts of two views (the table's log and events as the table's lists show them),
    made once for every viewer that held ``old`` (``memo``)."""
    pair = (id(old), id(new))
    found = memo.get(pair)
    if found is not None:
        return found
    put: dict[str, Any] = {}
    sub: dict[str, dict] = {}
    grown: dict[str, list] = {}
    gone: list[str] = []
    if old.table is not new.table:
        part = _once(old.table, new.table, memo)
        if part:
            sub["table"] = part
    if old.observed is not new.observed:
        part = _once(old.observed, new.observed, memo)
        if part:
            sub["obs"] = part
    _grown(put, grown, "log", old.log, old.logged, new.log, new.logged)
    _grown(put, grown, "events", old.events, old.evented, new.events, new.evented)
    if old.rest is not new.rest and old.rest != new.rest:  # (compared in C first: mostly equal)
        _merge(diff(old.rest, new.rest, memo), put, sub, grown, gone)
    found = memo[pair] = {"s": put, "p": sub, "a": grown, "x": gone}
    return found


def patch(old: Parts, new: Parts, memo: dict) -> dict:
    """``diff(old.whole(), new.whole())`` in effect, made from the parts that are not the same objects: the patch
    of the common parts once for every viewer (``memo``), then what the viewer holds alone (its hand, its legal
    actions, its own log where it holds one, the server's extras).  ``memo``: as ``diff``'s, kept with the
    parts while it is used."""
    was, now, before, after = old.own, new.own, old.common, new.common
    made = _common(before, after, memo) if before is not after else _EMPTY
    put = {**made["s"]}  # (the common patch's dicts are every viewer's: copied where this one adds to them)
    sub, grown, gone = made["p"], made["a"], made["x"]
    if was is not now and (was.log is not None or now.log is not None):  # (its own log, or it had one: its
        grown = {key: items for key, items in grown.items() if key not in _LISTS}  # items, not the table's; the
        for key in _LISTS:  # same parts: its lists grew by the table's new items, as the common patch says)
            put.pop(key, None)
        _grown(put, grown, "log", before.log if was.log is None else was.log, before.logged,
               after.log if now.log is None else now.log, after.logged)
        _grown(put, grown, "events", before.events if was.events is None else was.events, before.evented,
               after.events if now.events is None else now.events, after.evented)
    if was is not now:
        hand = now.hand
        if was.me != now.me or (was.hand is not hand and (type(was.hand) is not type(hand) or was.hand != hand)):
            obs = sub.get("obs", _NO_PARTS)
            sub = {**sub, "obs": {**obs, "s": {**obs.get("s", _NO_PARTS), "seat": now.me, "hand": hand}}}
            if was.me != now.me:
                put["me"] = now.me
        settled = now.settled
        if was.settled is not settled and (type(was.settled) is not type(settled) or was.settled != settled):
            put["settled"] = settled
        legal = now.legal
        if was.legal is not legal and (type(was.legal) is not type(legal) or was.legal != legal):
            put["legal"] = legal
    if old.extras is not new.extras and old.extras != new.extras:  # (compared in C first: mostly equal)
        extra = diff(old.extras, new.extras, memo)
        put.update(extra.get("s", _NO_PARTS))
        if "p" in extra:
            sub = {**sub, **extra["p"]}
        if "a" in extra:
            grown = {**grown, **extra["a"]}
        if "x" in extra:
            gone = [*gone, *extra["x"]]
    if old.n != new.n:
        put["n"] = new.n
    patched: dict[str, Any] = {}
    if put:
        patched["s"] = put
    if sub:
        patched["p"] = sub
    if grown:
        patched["a"] = grown
    if gone:
        patched["x"] = gone
    return patched


_EMPTY: dict[str, Any] = {"s": _NO_PARTS, "p": _NO_PARTS, "a": _NO_PARTS, "x": ()}


def _merge(part: dict, put: dict, sub: dict, grown: dict, gone: list) -> None:
    """Add a patch of some of a view's keys to the patch being made of the others."""
    if "s" in part:
        put.update(part["s"])
    if "p" in part:
        sub.update(part["p"])
    if "a" in part:
        grown.update(part["a"])
    if "x" in part:
        gone += part["x"]


__all__ = ["Common", "OwnParts", "Parts", "apply", "diff", "patch"]
