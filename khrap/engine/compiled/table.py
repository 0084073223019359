"""The compiled machine's state, declared once with its types for every part of ``Machine`` that reads it.

``Machine`` is one class written in three files, one phase each: ``Tricks`` (tricks.py) and
``Payouts`` (payouts.py) read and change the deal state that ``Machine`` (machine.py) sets up.
They form one line of classes, ``Table`` -> ``Tricks`` -> ``Payouts`` -> ``Machine``, not a class
mixing two parents in, so that mypyc can compile them as native classes (it compiles single
inheritance only): see docs/compiled.md.  The same files run as plain Python where nothing is compiled.

Compiled code trusts the types mypy infers, narrowing included: after ``self.kind = None`` a read
of ``self.kind`` in the same function is taken to be None even when a method called in between set
it, and a compiled read then fails (``TypeError: None object expected; got str``).  Such a test is
written on something else (``owed_discards``), or left to the method called.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from khrap.engine.compiled.sink import NULL_SINK, RECORDER, Sink
from khrap.engine.events import Event, LedgerItem
from khrap.engine.kinds import Kind

if TYPE_CHECKING:
    from khrap.engine.compiled.program import Program

try:  # mypyc reads the decorator when it compiles; plain Python needs no mypy_extensions
    from mypy_extensions import mypyc_attr
except ImportError:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls

# ``choose(options)``: the option a bot picks from a list ``Machine.legal`` would give.
Choose = Callable[[Any], Any]


# Every class of the line (``GameState`` included) says this to mypyc, for copies and pickles: mypyc's
# ``__getstate__``/``__setstate__`` carry the native attributes (``__mypyc_attrs__``), and ``type(state).__new__``
# makes a blank object without running ``__init__`` (``serializable=True`` alone would do that too, but with
# mypyc 2.4 its ``__init__`` would then never run when Python makes one).  No Python class derives from the line.
@mypyc_attr(allow_interpreted_subclasses=True)
class Table:
    """The attributes of a ``Machine`` and the steps that all its parts take."""

    # Class attributes a subclass may set (``GameState``): ClassVar, or compiled code keeps one per instance.
    keep_held: ClassVar[bool] = False  # keep every hand at play (``held_at_play``) even when no penalty reads it
    record_decks: ClassVar[bool] = False  # keep every deck dealt (``decks_dealt``)
    program: Program
    n: int
    rng: random.Random
    stacks: list[int]
    total_chips: int  # what the players brought (``Machine.chips_in_play``)
    pot: int
    locked: list[int]
    house: int  # chips the house has taken (its commission): they left the table
    dealer: int
    next_dealer: int | None
    started: bool
    skip_next_ante: bool
    session_over: bool
    scripted_decks: list[list[int]]  # decks given, dealt before any random one
    decks_dealt: list[list[int]]  # (``record_decks``)
    sink: Sink  # where the steps say what happens (``sink.py``): nowhere, or the events of ``log`` and ``quiet``
    log: list[Event]
    quiet: list[Event]  # (textless events: see Machine.__init__)
    deal_log_start: int  # where the current deal's events begin in the log
    items: list[LedgerItem]  # the ledger of the settlement under way (only while recording)
    phase: str
    deals_completed: int
    kind: Kind | None
    seat: int
    may_look: bool
    settled: bool
    # the deal
    round: int
    hands: list[list[int]]
    looked: list[bool]
    stock: list[int]
    turned: list[int]
    turned_taken: bool
    discards: list[int]
    won: list[int]
    trump: int | None
    statuses: list[str]
    call_of: list[str | None]
    stake_of: list[int]
    declarer: int | None
    declarer_round: int
    stage_index: int
    stage_started: bool
    queue: list[int]
    skipped: set[str]
    owed_discards: list[int]
    owed_draws: int
    deferred: set[int]
    shown: list[int]  # cards a call kept face up
    trick: list[tuple[int, int, bool]]
    tricks: list[int]
    best: tuple[int, int]
    best_seat: int
    leader: int | None
    in_play: list[int]
    held_at_play: Sequence[Sequence[int]]  # the hands at play, kept when a penalty reads them
    # the facts a deal record needs
    said: list[tuple[int, str]]
    all_passes: int
    turn_ups: int
    redeals: int
    trick_winners: list[int]
    ending: str
    pot_settle: int | None

    # Every attribute above as a slot, so that plain CPython keeps no instance dict: with seventy-odd
    # attributes in a dict, ``self._x(...)`` probed it before finding the method, and attribute reads went
    # by a hashed hint; with slots both specialise (LOAD_METHOD_NO_DICT, LOAD_ATTR_SLOT).  mypyc ignores
    # ``__slots__`` (a native class has no dict).  Each class of the line below says ``__slots__ = ()``;
    # ``tests/test_kernel_slots.py`` checks this tuple against the annotations.
    __slots__ = (
        "program", "n", "rng", "stacks", "total_chips", "pot", "locked", "house", "dealer", "next_dealer",
        "started", "skip_next_ante", "session_over", "scripted_decks", "decks_dealt", "sink", "log", "quiet",
        "deal_log_start", "items", "phase", "deals_completed", "kind", "seat", "may_look", "settled", "round",
        "hands", "looked", "stock", "turned", "turned_taken", "discards", "won", "trump", "statuses", "call_of",
        "stake_of", "declarer", "declarer_round", "stage_index", "stage_started", "queue", "skipped",
        "owed_discards", "owed_draws", "deferred", "shown", "trick", "tricks", "best", "best_seat", "leader",
        "in_play", "held_at_play", "said", "all_passes", "turn_ups", "redeals", "trick_winners", "ending",
        "pot_settle",
    )

    # The two steps every part of the machine takes (here, so that no part calls a step of a class below it).
    def _next_stage(self) -> None:
        self.stage_index += 1
        self.stage_started = False
        self.queue = []

    def _return_locks(self) -> None:
        """Every locked stake back to its owner (an all-pass round, a redeal, settlement, an instant win)."""
        stacks, locked, sink = self.stacks, self.locked, self.sink
        for seat in range(self.n):
            if locked[seat]:
                sink.unlocked(self, seat, locked[seat])
            stacks[seat] += locked[seat]
            locked[seat] = 0

    @property
    def emitting(self) -> bool:
        """Whether the machine keeps its events (``log``, ``quiet``): its sink records them."""
        return self.sink.records

    @emitting.setter
    def emitting(self, on: bool) -> None:
        self.sink = RECORDER if on else NULL_SINK
