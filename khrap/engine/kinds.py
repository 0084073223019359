"""The kinds of decision the kernel waits for, as one enum (``Pending.kind``, ``Machine.kind``).

A ``StrEnum``: each member equals its word (``Kind.CALL == "call"``), so that a pending decision
prints, hashes and serialises as it always has; code compares it with the members, never with the
words.  What each kind lists, applies, refuses and shows is its entry in the registry
(``engine.decisions``).  Not a compiled module: the compiled kernel reads the members as
constants of this module (``CALL`` ... ``TRUMP``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Kind(StrEnum):
    """A kind of decision: a call (``look`` included), an exchange, a discard, a play, naming trump, and
    the kinds a rule offers in a stage of its own (doubling)."""

    CALL = "call"
    EXCHANGE = "exchange"
    DISCARD = "discard"
    PLAY = "play"
    TRUMP = "trump"
    DOUBLE = "double"  # a rule's offer before play (``Variant.double``): double the stakes, or not

    def __repr__(self) -> str:
        return repr(self.value)  # as the word it equals (``Pending(kind='call', seat=1)``)


CALL: Final = Kind.CALL
EXCHANGE: Final = Kind.EXCHANGE
DISCARD: Final = Kind.DISCARD
PLAY: Final = Kind.PLAY
TRUMP: Final = Kind.TRUMP
DOUBLE: Final = Kind.DOUBLE

__all__ = ["CALL", "DISCARD", "DOUBLE", "EXCHANGE", "PLAY", "TRUMP", "Kind"]
