"""Updates that carry what changed: the patch that turns a seat's last view into its new one.

A seat's connection gets its full view once (on hello, on a language change, when it asks), then at each
change only a patch against the view it was sent last: the view's parts are mostly the same from one action
to the next (the table, the seats, the calls' names), and its log and events only grow.  A patch is made
once per seat and language (every connection of that seat gets the same text) from two views that
``Table.view`` made for that seat, so it holds nothing the seat's own view does not.

A patch of a dict is a dict of up to four parts, each present only if not empty:

- ``"s"``: keys set to a new value (whatever it was);
- ``"p"``: keys whose value is a dict, with that dict's own patch;
- ``"a"``: keys whose value is a list that grew: the items appended;
- ``"x"``: keys removed.

:func:`apply` (and the page's ``patch`` in ``static/table.js``) makes the new view from the old one and the
patch; ``apply(old, diff(old, new)) == new`` for any two JSON-ready dicts (tests/web/test_delta.py) whose
places keep their type (a view's flag is a bool in every view: inside a list, Python finds ``True == 1``).
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
    get = old.get
    for key, value in new.items():
        before = get(key, _MISSING)
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
                    patch = memo.get(pair)
                    if patch is None:
                        patch = memo[pair] = diff(before, value, memo)
                    sub[key] = patch
                    continue
                if kind is list and 0 < len(before) <= len(value) and value[:len(before)] == before:
                    grown[key] = value[len(before):]
                    continue
        put[key] = value
    patch: dict[str, Any] = {}
    if put:
        patch["s"] = put
    if sub:
        patch["p"] = sub
    if grown:
        patch["a"] = grown
    if len(new) - missing < len(old):  # (some key of ``old`` is not in ``new``)
        patch["x"] = [key for key in old if key not in new]
    return patch


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


__all__ = ["apply", "diff"]
