"""Read variant files safely, follow ``extends`` chains, and locate every error.

Every user mistake becomes one :class:`VariantError` that points at FILE:LINE:COL,
including mistakes in a value inherited from a parent file.  The work is split by job;
this module is their one front door (what callers import):

- ``errors``: the error classes and the words every message shares (a value shown as
  written, a location, a suggestion);
- ``reading``: one YAML file read with limits (:data:`LIMITS`) into plain data and positions;
- ``trust``: which files a file may name (:data:`TRUST`, :func:`trusting`) and finding them;
- ``extends``: following ``extends`` chains and merging them, with the file of each value;
- ``wording``: validation against the schema, each pydantic error located and in a player's words.

``LIMITS`` and ``TRUST`` are read at call time by the module that uses them; written on this
module (the command line's ``--allow-outside``, a test's smaller limits), they are set there.
"""

from __future__ import annotations

import sys
import types

from khrap.variant import reading, trust
from khrap.variant.errors import (
    MAX_ERRORS,
    Loc,
    Pos,
    VariantError,
    VariantErrors,
    _kind,
    _show,
    did_you_mean,
    dotted,
    errors_of,
    value_at,
)
from khrap.variant.extends import Origins, load_data
from khrap.variant.reading import Limits, Marks, read_text, read_yaml
from khrap.variant.trust import ANYWHERE, LOCAL, UPLOAD, Trust, trusting
from khrap.variant.wording import M, locate_error, validate

__all__ = [
    "ANYWHERE",
    "LIMITS",  # noqa: F822 - a property of _Front, kept in the reading module
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
# Also importable from here, as before the split: the location types, the shared wording helpers.
_ALSO = (Loc, Pos, M, MAX_ERRORS, _kind, _show, dotted, value_at)


def _setting(home: types.ModuleType, name: str) -> property:
    """``name`` read from and written to the module ``home`` that uses it (a data descriptor, so that a
    test's monkeypatch restores it there too)."""
    return property(lambda _: getattr(home, name), lambda _, value: setattr(home, name, value))


class _Front(types.ModuleType):
    """This module, with its settings kept in the modules that read them."""

    LIMITS = _setting(reading, "LIMITS")
    TRUST = _setting(trust, "TRUST")


sys.modules[__name__].__class__ = _Front
