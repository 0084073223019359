"""The decision the kernel waits for (``GameState.pending``)."""

from __future__ import annotations

from dataclasses import dataclass

from khrap.engine.kinds import Kind


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the kernel waits for: its kind and the seat to make it."""

    kind: Kind  # equal to its word ("call", "play", ...): see ``kinds``
    seat: int
