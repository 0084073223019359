"""Where the kernel's steps send what happens: a sink with one method per kind of event.

Every step of the machine is written once and tells its sink what happened, with the values as it
has them (ints, the hand itself): ``Sink`` (a playout's, the default of a bare machine) does nothing
with them, ``Recorder`` (``emitting`` on: ``GameState``) makes each its typed ``Event`` (``events.py``)
and appends it to the machine's ``log`` (or, for the textless ones, to ``quiet``, with ``at``).  The
fields of an event are made only in the recorder, so a playout pays a native call that returns at
once, never a dict or a tuple.  A settlement's itemised ``Ledger`` is made the same way: the items go
to the machine's ``items`` only while recording.

Both sinks hold no state (the machine passes itself), so one of each serves every machine, and a
copied machine keeps its sink.  Compiled with the kernel (``KERNEL_MODULES``; docs/compiled.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from khrap.engine.actions import Action
from khrap.engine.events import (
    Anted,
    Dealt,
    Discarded,
    Drew,
    Event,
    Exchanged,
    Ledger,
    PaidIn,
    PaidOut,
    Played,
    Settled,
    Settling,
    Status,
    Threw,
    TookTrick,
    Turned,
    call_event,
    decided_event,
    ledger_item,
    make_event,
)
from khrap.engine.kinds import Kind

if TYPE_CHECKING:
    from khrap.engine.compiled.table import Table

# Call forms' words by the form (kept with it, so that its id is never another's): each form is made once
# with the program and shared, so its words are made once too, for its events and the face's legal words.
# Emptied when it grows past _SAID_LIMIT.
_SAID: Final[dict[int, tuple[Action, str]]] = {}
_SAID_LIMIT: Final = 100_000


def said_as(action: Action) -> str:
    """``str(action)``, made once for each ``Action`` object (they are immutable) kept in ``_SAID``."""
    known = _SAID
    entry = known.get(id(action))
    if entry is None or entry[0] is not action:
        if len(known) > _SAID_LIMIT:
            known.clear()
        entry = known[id(action)] = (action, str(action))
    return entry[1]


class Sink:
    """The null sink: the machine's events go nowhere (playouts, simulations).  ``Recorder`` keeps them.

    Each method is one kind of event (its word in ``events.EVENT_TYPES``), given the machine ``m`` and
    the values the step has; a method whose name ends in ``_item`` is a line of a settlement's ledger."""

    records: bool  # whether events are kept (``Machine.emitting``)

    def __init__(self) -> None:
        self.records = False

    def __copy__(self) -> Sink:  # stateless: a copied machine shares it
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Sink:
        return self

    def __reduce__(self) -> tuple[Callable[[bool], Sink], tuple[bool]]:  # unpickled: the shared one again
        return shared_sink, (self.records,)

    # ----------------------------------------------------------- the deal
    def new_deal(self, m: Table) -> None:
        pass

    def anted(self, m: Table, reason: str, chips: int) -> None:
        pass

    def session_over(self, m: Table, seat: int | None, reason: str, chips: int) -> None:
        pass

    def dealt(self, m: Table, size: int) -> None:
        pass

    def turned(self, m: Table, card: int) -> None:
        pass

    def unlocked(self, m: Table, seat: int, chips: int) -> None:
        pass

    def all_passed(self, m: Table) -> None:
        pass

    def redealt(self, m: Table) -> None:
        pass

    # ---------------------------------------------------------- decisions
    def looked(self, m: Table, seat: int) -> None:
        pass

    def called(self, m: Table, seat: int, cid: str, action: Action) -> None:
        pass

    def decided(self, m: Table, seat: int, kind: Kind, action: Action) -> None:
        pass

    def status(self, m: Table, seat: int, locked: int) -> None:
        pass

    def overridden(self, m: Table, seat: int, status: str) -> None:
        pass

    def forced(self, m: Table, seat: int) -> None:
        pass

    def named_trump(self, m: Table, seat: int, suit: int) -> None:
        pass

    # -------------------------------------------------------------- cards
    def threw(self, m: Table, seat: int, cards: Sequence[int], left: int) -> None:
        pass

    def shown(self, m: Table, seat: int, cards: Sequence[int]) -> None:
        pass

    def swapped(self, m: Table, seat: int, position: int, card: int) -> None:
        pass

    def took_turned(self, m: Table, seat: int, card: int) -> None:
        pass

    def drew(self, m: Table, seat: int, source: str | int, cards: Sequence[int]) -> None:
        pass

    def exchanged(self, m: Table, seat: int, cards: Sequence[int]) -> None:
        pass

    def discarded(self, m: Table, seat: int, card: int) -> None:
        pass

    # -------------------------------------------------------------- play
    def credited(self, m: Table, seat: int, tricks: int) -> None:
        pass

    def played(self, m: Table, seat: int, card: int, joker: bool) -> None:
        pass

    def took_trick(self, m: Table, seat: int) -> None:
        pass

    # ----------------------------------------------------------- payments
    def instant_win(self, m: Table, seat: int, wid: str) -> None:
        pass

    def took_pot(self, m: Table, seat: int, chips: int) -> None:
        pass

    def paid_out(self, m: Table, seat: int, chips: int, reason: str, why: dict[str, Any]) -> None:
        pass

    def paid_in(self, m: Table, seat: int, chips: int, reason: str, why: dict[str, Any]) -> None:
        pass

    def house_share(self, m: Table, seat: int, chips: int, win: int, taxed: int, percent: int) -> None:
        pass

    def settling(self, m: Table, seats: list[int]) -> None:
        pass

    def share_item(self, m: Table, seat: int, chips: int, tricks: int, unit: int, base: int) -> None:
        pass

    def prize_item(self, m: Table, seat: int, chips: int, base: int, prize: str) -> None:
        pass

    def penalty_item(self, m: Table, seat: int, paid: int, tricks: int, base: int, detail: str, pots: int,
                     bases: int, owed: int) -> None:
        pass

    def unlock_items(self, m: Table, seats: list[int]) -> None:
        pass

    def redistribute_item(self, m: Table, seat: int, chips: int, tricks: int, total: int, base: int) -> None:
        pass

    def rounding_item(self, m: Table, seat: int, chips: int) -> None:
        pass

    def house_item(self, m: Table, seat: int, chips: int, percent: int, taxed: int) -> None:
        pass

    def ledger(self, m: Table, pot: int, unit: int, divisor: int, failed: list[int]) -> Ledger | None:
        """The settlement's ledger, its items closed by what is left in the pot (None: nothing recorded)."""
        return None

    def settled(self, m: Table, ledger: Ledger | None) -> None:
        pass


class Recorder(Sink):
    """The recording sink: each event made as its typed ``Event`` into the machine's ``log`` (``quiet``
    for the textless ones), fields in the order CONTRACT.md's records have them."""

    def __init__(self) -> None:
        self.records = True

    def _log(self, m: Table, kind: str, seat: int | None, fields: dict[str, Any],
             secret: dict[str, Any] | None = None) -> None:
        """Append an event to the log: ``fields`` every seat sees, ``secret`` only ``seat``.  (A dict, not
        keywords: a compiled call with keywords goes through Python's calling convention.)"""
        m.log.append(make_event(kind, seat, fields, secret))

    def _told(self, m: Table, event: Event, content: tuple) -> None:
        """Append ``event`` (made by its class: a native call when compiled) to the log with its public
        ``content``: the kind's word, the seat and the public fields' values, in the fields' order (the
        method that makes an event names its fields, so these values say them all: ``Event.content``)."""
        event.content = content
        m.log.append(event)

    def _quiet(self, m: Table, kind: str, seat: int | None, fields: dict[str, Any],
               secret: dict[str, Any] | None = None) -> None:
        """Append a textless event to ``quiet``, placed after the log's last event (``at``)."""
        fields["at"] = len(m.log)
        m.quiet.append(make_event(kind, seat, fields, secret))

    def _quiet_told(self, m: Table, event: Event) -> None:
        """``_quiet`` of an event made by its class (a native call when compiled, where ``make_event`` finds the
        class by its word and calls it through Python), its fields ending with ``at``: the frequent textless ones."""
        m.quiet.append(event)

    def new_deal(self, m: Table) -> None:
        m.deal_log_start = len(m.log)
        m.quiet = []

    def anted(self, m: Table, reason: str, chips: int) -> None:
        rnd, pot = m.round, m.pot
        self._told(m, Anted(None, {"reason": reason, "round": rnd, "chips": chips, "pot": pot}),
                   ("anted", reason, rnd, chips, pot))

    def session_over(self, m: Table, seat: int | None, reason: str, chips: int) -> None:
        self._log(m, "session_over", seat, {"reason": reason, "chips": chips})

    def dealt(self, m: Table, size: int) -> None:
        dealer = m.dealer
        self._told(m, Dealt(None, {"dealer": dealer, "size": size}, {"hands": tuple(tuple(h) for h in m.hands)}),
                   ("dealt", dealer, size))

    def turned(self, m: Table, card: int) -> None:
        trump = m.trump
        self._told(m, Turned(None, {"card": card, "trump": trump}), ("turned", card, trump))

    def unlocked(self, m: Table, seat: int, chips: int) -> None:
        self._quiet(m, "unlocked", seat, {"chips": chips})

    def all_passed(self, m: Table) -> None:
        self._log(m, "all_passed", None, {"round": m.round})

    def redealt(self, m: Table) -> None:
        self._log(m, "redealt", m.dealer, {})

    def looked(self, m: Table, seat: int) -> None:
        self._log(m, "looked", seat, {})

    def called(self, m: Table, seat: int, cid: str, action: Action) -> None:
        said = said_as(action)  # (its words determine its fields: the content key)
        self._told(m, call_event(seat, cid, action, said), ("called", seat, cid, said))

    def decided(self, m: Table, seat: int, kind: Kind, action: Action) -> None:
        said = said_as(action)
        self._told(m, decided_event(seat, kind.value, action, said), ("decided", seat, kind.value, said))

    def status(self, m: Table, seat: int, locked: int) -> None:
        self._quiet_told(m, Status(seat, {"status": m.statuses[seat], "stake": m.stake_of[seat], "locked": locked,
                                          "at": len(m.log)}))

    def overridden(self, m: Table, seat: int, status: str) -> None:
        self._log(m, "overridden", seat, {"status": status})

    def forced(self, m: Table, seat: int) -> None:
        self._log(m, "forced", seat, {})

    def named_trump(self, m: Table, seat: int, suit: int) -> None:
        self._log(m, "named_trump", seat, {"suit": suit})

    def threw(self, m: Table, seat: int, cards: Sequence[int], left: int) -> None:
        self._quiet_told(m, Threw(seat, {"count": len(cards), "left": left, "at": len(m.log)}, {"cards": tuple(cards)}))

    def shown(self, m: Table, seat: int, cards: Sequence[int]) -> None:
        self._log(m, "shown", seat, {"cards": tuple(cards)})

    def swapped(self, m: Table, seat: int, position: int, card: int) -> None:
        self._log(m, "swapped", seat, {"position": position, "card": card})

    def took_turned(self, m: Table, seat: int, card: int) -> None:
        self._log(m, "took_turned", seat, {"card": card})

    def drew(self, m: Table, seat: int, source: str | int, cards: Sequence[int]) -> None:
        count = len(cards)
        self._told(m, Drew(seat, {"count": count, "source": source}, {"cards": tuple(cards)}),
                   ("drew", seat, count, source))

    def exchanged(self, m: Table, seat: int, cards: Sequence[int]) -> None:
        count = len(cards)
        self._told(m, Exchanged(seat, {"count": count}, {"cards": tuple(cards)}), ("exchanged", seat, count))

    def discarded(self, m: Table, seat: int, card: int) -> None:
        self._told(m, Discarded(seat, {}, {"card": card}), ("discarded", seat))

    def credited(self, m: Table, seat: int, tricks: int) -> None:
        self._log(m, "credited", seat, {"tricks": tricks})

    def played(self, m: Table, seat: int, card: int, joker: bool) -> None:
        self._told(m, Played(seat, {"card": card, "joker": joker}), ("played", seat, card, joker))

    def took_trick(self, m: Table, seat: int) -> None:
        count = m.tricks[seat]
        self._told(m, TookTrick(seat, {"count": count}), ("took_trick", seat, count))

    def instant_win(self, m: Table, seat: int, wid: str) -> None:
        self._log(m, "instant_win", seat, {"win": wid})

    def took_pot(self, m: Table, seat: int, chips: int) -> None:
        self._log(m, "took_pot", seat, {"chips": chips})

    def paid_out(self, m: Table, seat: int, chips: int, reason: str, why: dict[str, Any]) -> None:
        m.log.append(PaidOut(seat, {"chips": chips, "pot": m.pot, "reason": reason, **why}))  # (by its class)

    def paid_in(self, m: Table, seat: int, chips: int, reason: str, why: dict[str, Any]) -> None:
        m.log.append(PaidIn(seat, {"chips": chips, "pot": m.pot, "reason": reason, **why}))

    def house_share(self, m: Table, seat: int, chips: int, win: int, taxed: int, percent: int) -> None:
        self._log(m, "house_share", seat, {"chips": chips, "win": win, "taxed": taxed, "percent": percent})

    def settling(self, m: Table, seats: list[int]) -> None:
        m.items = []
        tricks = m.tricks
        m.log.append(Settling(None, {"pot": m.pot, "tricks": tuple((s, tricks[s]) for s in seats)}))

    def share_item(self, m: Table, seat: int, chips: int, tricks: int, unit: int, base: int) -> None:
        m.items.append(ledger_item("share", seat, chips, m.pot, tricks=tricks, unit=unit, base=base))

    def prize_item(self, m: Table, seat: int, chips: int, base: int, prize: str) -> None:
        m.items.append(ledger_item("prize", seat, chips, m.pot, base=base, detail=prize))

    def penalty_item(self, m: Table, seat: int, paid: int, tricks: int, base: int, detail: str, pots: int,
                     bases: int, owed: int) -> None:
        m.items.append(ledger_item("penalty", seat, paid, m.pot, tricks=tricks, base=base, detail=detail, pots=pots,
                                  bases=bases, owed=owed))

    def unlock_items(self, m: Table, seats: list[int]) -> None:
        locked = m.locked
        for seat in seats:
            if locked[seat]:
                m.items.append(ledger_item("unlock", seat, locked[seat], m.pot))

    def redistribute_item(self, m: Table, seat: int, chips: int, tricks: int, total: int, base: int) -> None:
        m.items.append(ledger_item("redistribute", seat, chips, m.pot, tricks=tricks, total=total, base=base))

    def rounding_item(self, m: Table, seat: int, chips: int) -> None:
        m.items.append(ledger_item("rounding", seat, chips, m.pot))

    def house_item(self, m: Table, seat: int, chips: int, percent: int, taxed: int) -> None:
        m.items.append(ledger_item("house", seat, chips, m.pot, total=percent, base=taxed))

    def ledger(self, m: Table, pot: int, unit: int, divisor: int, failed: list[int]) -> Ledger | None:
        items = m.items
        m.items = []
        items.append(ledger_item("left", None, m.pot, m.pot))
        return Ledger(pot, unit, divisor, tuple(failed), tuple(items))

    def settled(self, m: Table, ledger: Ledger | None) -> None:
        m.log.append(Settled(None, {"stacks": tuple(m.stacks), "pot": m.pot, "ledger": ledger}))


NULL_SINK: Final = Sink()
RECORDER: Final = Recorder()


def shared_sink(records: bool) -> Sink:
    """The sink every machine shares: the recorder (``records``) or the null sink."""
    return RECORDER if records else NULL_SINK
