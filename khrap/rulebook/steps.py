"""The worked example's record: one typed class per thing a sentence of the example words.

:mod:`khrap.rulebook.example` folds the kernel's typed events (``khrap.engine.events``) into these; the
sheet (:mod:`khrap.rulebook.sheet`) and its tests tell them apart by class, never by a word.  A step is
worded by the macro of ``templates/narrative.j2`` its class names (``sentence``).  Cards are strings as
CONTRACT.md writes them (``AS``), suits their letter; seats are ints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from khrap.rulebook import arithmetic


class Play(NamedTuple):
    """One card of a trick: who played it, the card, whether it was played as the joker."""

    seat: int
    card: str
    joker: bool


@dataclass(frozen=True)
class Ante:
    """Everyone put ``each`` chips in; the pot then held ``pot``."""

    sentence: ClassVar[str] = "ev_ante"
    each: int
    pot: int


@dataclass(frozen=True)
class Deal:
    """``dealer`` dealt ``size`` cards each: the hands in the order dealt; the card turned up, if any."""

    sentence: ClassVar[str] = "ev_deal"
    dealer: int
    size: int
    hands: tuple[tuple[int, tuple[str, ...]], ...]
    turned: str | None = None


@dataclass(frozen=True)
class Call:
    """``seat`` made ``call`` and became ``status``: the cards it made him throw (``lost``), take from the
    table (``taken``) or draw (``gained``), the hand position swapped, the chips it locked.  The sheet adds
    ``explain`` (the first time the call is said) and ``strength`` (a pass: the trumps and aces he was dealt)."""

    sentence: ClassVar[str] = "ev_call"
    seat: int
    call: str
    status: str
    lost: tuple[str, ...] = ()
    taken: tuple[str, ...] = ()
    gained: tuple[str, ...] = ()
    position: int | None = None
    locked: int = 0
    explain: bool = True
    strength: int | None = None


@dataclass(frozen=True)
class Statuses:
    """Others' statuses the last action changed: (seat, status, chips locked), clockwise from the actor."""

    sentence: ClassVar[str] = "ev_statuses"
    changed: tuple[tuple[int, str, int], ...]


@dataclass(frozen=True)
class Thrown:
    """These seats threw their hands away."""

    sentence: ClassVar[str] = "ev_thrown"
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Drawn:
    """At his turn ``seat`` threw ``lost`` (maybe none) and drew ``gained``, not by a decision of his own."""

    sentence: ClassVar[str] = "ev_drawn"
    seat: int
    lost: tuple[str, ...]
    gained: tuple[str, ...]


@dataclass(frozen=True)
class Discard:
    """``seat`` discarded ``card``, owed by his call."""

    sentence: ClassVar[str] = "ev_discard"
    seat: int
    card: str


@dataclass(frozen=True)
class Exchange:
    """``seat`` exchanged ``lost`` for ``gained`` (none: kept his cards); the sheet adds ``why``."""

    sentence: ClassVar[str] = "ev_exchange"
    seat: int
    lost: tuple[str, ...]
    gained: tuple[str, ...]
    why: str = ""


@dataclass(frozen=True)
class Trump:
    """``seat`` named ``suit`` trump."""

    sentence: ClassVar[str] = "ev_trump"
    seat: int
    suit: str


@dataclass(frozen=True)
class Trick:
    """Trick ``number``, its cards in the order played, won by ``seat``; the sheet adds ``why``."""

    sentence: ClassVar[str] = "ev_trick"
    seat: int
    number: int
    plays: tuple[Play, ...]
    why: str = ""


@dataclass(frozen=True)
class Alone:
    """The lone declarer ``seat`` was credited all ``tricks``."""

    sentence: ClassVar[str] = "ev_alone"
    seat: int
    tricks: int


@dataclass(frozen=True)
class AllPass:
    """Everybody passed in ``round``."""

    sentence: ClassVar[str] = "ev_all_pass"
    round: int


@dataclass(frozen=True)
class Settle:
    """The kernel's settlement of the deal (``result``) and the table it started from."""

    sentence: ClassVar[str] = "ev_settle"
    declarer: int | None
    table: arithmetic.Table
    result: arithmetic.Settlement


Step = Ante | Deal | Call | Statuses | Thrown | Drawn | Discard | Exchange | Trump | Trick | Alone | AllPass | Settle
"""Any step of the example."""

STEPS: tuple[type, ...] = (Ante, Deal, Call, Statuses, Thrown, Drawn, Discard, Exchange, Trump, Trick, Alone,
                           AllPass, Settle)
"""Every class of step (a test checks each names a macro of the narrative)."""
