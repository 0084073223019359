"""The decision the kernel waits for (``GameState.pending``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the kernel waits for: its kind and the seat to make it."""

    kind: str  # "call", "discard", "exchange", "trump", "play"
    seat: int
