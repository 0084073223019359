"""A deal's copy for play (``copy_state``): what every search bot's sample, candidate and settlement starts from.

Its own module so that it is compiled with the kernel (``BOT_MODULES`` of the package's ``kernel_build``,
docs/compiled.md): the copy walks some seventy fields of the state, and in the strong bot's deals it is a
quarter of the time when interpreted (docs/solver.md, "Speed").  The engine's ``resample`` gives it out.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from khrap.engine.state import GameState

_SHARED: Final = frozenset({int, float, bool, str, tuple, frozenset, type(None)})  # immutable, without __copy__
_COPIERS: Final[dict[type, Any]] = {}  # any other type of field: its class's ``__copy__``, or None (kept as it is)


def copy_state(state: Any) -> Any:
    """A copy of ``state`` (a ``GameState``) deep enough for play: lists, lists of lists, sets and dicts copied;
    rules shared.  A ``GameState`` itself is copied by its own ``play_copy`` (each field written out: a native
    read and write each when compiled), any other class by the general walk (``general_copy``)."""
    if type(state) is GameState:
        return state.play_copy()
    return general_copy(state)


def general_copy(state: Any) -> Any:
    """``copy_state`` by a walk of the fields ``__getstate__`` gives, each copied by its type (the reference for
    ``GameState.play_copy``, and the copy of any other class)."""
    try:
        got = state.__getstate__()  # the kernel's attributes too, when it is compiled (docs/compiled.md)
    except TypeError:
        return copy.deepcopy(state)
    plain = isinstance(got, tuple)
    # plain Python: (the instance dict, the slots: ``Table.__slots__``); a dict of our own either way, whose
    # values are replaced in place
    fields: dict[str, Any] = {**(got[0] or {}), **(got[1] or {})} if plain else dict(got)
    for key, value in fields.items():
        if type(value) in _SHARED:  # most fields: a number, a word, None (the checks below would keep them too)
            continue
        if isinstance(value, list):
            fields[key] = [x[:] if isinstance(x, list) else x for x in value]
        elif isinstance(value, (set, dict)):
            fields[key] = value.copy()
        else:  # e.g. the observations' per-seat lists: a copy starts its own (``copy.copy``: the class's ``__copy__``)
            cls = type(value)
            if cls in _COPIERS:
                copier = _COPIERS[cls]
            else:
                copier = _COPIERS[cls] = getattr(cls, "__copy__", None)
            if copier is not None:
                fields[key] = copier(value)
    kind: Any = type(state)
    new = kind.__new__(kind)
    setstate = None if plain else getattr(new, "__setstate__", None)
    if setstate is not None:
        setstate(fields)  # compiled: mypyc's own setter of every native attribute, one call (not one a field)
    else:
        for key, value in fields.items():
            object.__setattr__(new, key, value)
    return new


def deal_hidden(pool: list[int], order: list[int], sizes: dict[int, int], voids: dict[int, set[int]], seat: int,
                known: dict[int, list[int]], hands: list[list[int]]) -> list[int]:
    """The resampler's deal of a shuffled ``pool`` (``Resampler.sample``): each seat of ``order`` in turn is given
    the cards known to be in its hand and the first ``sizes[seat]`` cards of the pool of a suit it has not shown
    void in (``voids``; ``seat``, the viewer, has none), then any cards if too few fit; the cards left over.
    Here, compiled with the copy, for its loops over the pool (interpreted, most of a sample's time)."""
    for s in order:
        need = sizes[s]
        void = 0  # the suits ``s`` showed it lacks, as bits
        if s != seat:
            for suit in voids.get(s, ()):
                void |= 1 << suit
        fits: list[int] = []
        for c in pool:
            if len(fits) == need:
                break
            if not void >> (c // 13) & 1:
                fits.append(c)
        if len(fits) < need:  # the facts were approximate: fill from anything
            for c in pool:
                if len(fits) == need:
                    break
                if c not in fits:
                    fits.append(c)
        taken = set(fits)
        pool = [c for c in pool if c not in taken]
        hands[s] = list(known.get(s, ())) + fits
    return pool
