"""What one seat may see: its own hand once looked, the table, and public history.

Nothing of other hands, the stock's order or the discards' faces is included;
bots and players decide from this alone.

An observation is asked for at every decision, so it is made cheaply: the history and event lists
grow by the events since the seat's last observation (``SeatViews``), an event's sentence and data
are made once for each content seen before (``seen``), and cards are written from a table.  Every
observation is a fresh dict of fresh lists (callers may keep and change it); only the event dicts
inside ``events`` are shared: read them, do not change them.

The module is one of the compiled kernel's (``KERNEL_MODULES``, docs/compiled.md): typed for mypyc,
it reads the machine's attributes natively when compiled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from khrap import words as w
from khrap.cards import card_str, suit_str
from khrap.engine.compiled.machine import Machine
from khrap.engine.events import Event

if TYPE_CHECKING:  # (``face`` imports this module: the compiled kernel reads the type natively all the same)
    from khrap.engine.compiled.face import Face

_CARD: Final[tuple[str, ...]] = tuple(card_str(c) for c in range(52))  # a card's CONTRACT.md notation, by its int
_SUIT: Final[tuple[str, ...]] = tuple(suit_str(s) for s in range(4))
SETTLED: Final = w.SETTLED

# (English sentence, JSON-ready data) of events by their content: (kind, seat, whether the viewer sees the
# secret fields, the fields, the secret fields he sees).  The renderer is a pure function of these, so an
# event whose content was seen before (a card played, a call said, a trick taken...) is neither rendered
# nor converted again.  Kinds whose content seldom repeats (a deal's hands, a settlement's tricks and stacks) are not
# kept; the memo is emptied when it grows past _MEMO_LIMIT.
_MEMO: Final[dict[tuple, tuple[str, dict]]] = {}
_MEMO_LIMIT: Final = 50_000
_UNIQUE: Final = frozenset({"settled", "settling"})  # (a deal's hands: a secret of no seat, its public view repeats)


_PUBLIC: Final = -2  # a viewer that is no seat: ``seen_by`` gives the view of the table


def seen(event: Event, sees: bool) -> tuple[str, dict]:
    """``event.seen_by`` of a seat that sees its secret fields (``sees``) or of one that does not: (English
    sentence, shared JSON-ready data), through the content memo."""
    made = event._made
    if made is not None:
        found = made.get(sees)
        if found is not None:
            return found
    kind = event.kind
    seat = event.seat
    viewer = (_PUBLIC if seat is None else seat) if sees else _PUBLIC
    if kind in _UNIQUE:
        return event.seen_by(viewer)
    secret = event.secret
    try:
        key = (kind, seat, sees, tuple(event.fields.items()), tuple(secret.items()) if sees and secret else None)
        found = _MEMO.get(key)
    except TypeError:  # a field that is not hashable: made the general way
        return event.seen_by(viewer)
    if found is None:
        found = event.seen_by(viewer)  # (kept in the event too)
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = found
    return found


class SeatViews:
    """The current deal's history lines and event data made so far: the table's view of every event,
    and for each seat the events whose secret fields it sees (its own draws, exchanges, discards).

    An observation is asked for at every decision and holds the whole deal's events: the lists grow
    by the events since the last observation instead of being made again, and a seat's are the
    table's with its own secret events put in.  A copy of a state starts with none (``clone`` and
    search copies), and the lists are checked against the log (its first and last events seen)
    before they are grown, so a cleared or replaced log, or a copy that went another way, makes
    them again."""

    first: Event | None
    last: Event | None
    seen_to: int
    lines: list[str]
    events: list[dict]
    own: dict[int, list[tuple[int, str, dict]]]  # seat: (place in the deal, text, data)

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.first = self.last = None
        self.seen_to = 0
        self.lines = []
        self.events = []
        self.own = {}

    def __copy__(self) -> SeatViews:
        return SeatViews()

    def __deepcopy__(self, memo: dict) -> SeatViews:
        return SeatViews()

    def lists(self, state: Machine, seat: int) -> tuple[list[str], list[dict]]:
        """New lists of the deal's history lines and event data as ``seat`` sees them."""
        log, start = state.log, state.deal_log_start
        end = len(log)
        seen_to = self.seen_to
        if not (start < end and seen_to <= end and log[start] is self.first and log[seen_to - 1] is self.last):
            self._reset()
            seen_to = start
            if start < end:
                self.first = log[start]
        if seen_to < end:
            lines, events, own = self.lines, self.events, self.own
            for event in log[seen_to:]:
                text, data = seen(event, False)
                owner = event.seat
                if event.secret is not None and owner is not None:
                    secret_text, secret_data = seen(event, True)
                    mine = own.get(owner)
                    if mine is None:
                        mine = own[owner] = []
                    mine.append((len(lines), secret_text, secret_data))
                lines.append(text)
                events.append(data)
            self.seen_to = end
            self.last = log[end - 1]
        lines, events = self.lines[:], self.events[:]
        mine = self.own.get(seat)
        if mine is not None:
            for at, text, data in mine:
                lines[at] = text
                events[at] = data
        return lines, events


def observation(state: Face, seat: int, legal: list[str] | None = None) -> dict:
    """A plain dict (JSON-ready) of everything ``seat`` may know now, fresh at each call (``state``: a
    ``GameState``; ``legal``: the seat's legal words when it is to act, if the caller has them: ``Face``
    gives them, a direct call saving the method call through Python that ``state.legal_words()`` is
    when ``state`` is a ``GameState``)."""
    views = state.seat_views
    if views is None:
        views = state.seat_views = SeatViews()
    lines, events = views.lists(state, seat)
    card = _CARD  # (list comprehensions over the table: cheaper than ``map`` for these short lists)
    trump = state.trump
    kind = state.kind
    to_act = None if kind is None else state.seat
    turned, shown, trick = state.turned, state.shown, state.trick
    return {
        "seat": seat,
        "phase": state.phase,
        "to_act": to_act,
        "dealer": state.dealer,
        "round": state.round,
        "trump": None if trump is None else _SUIT[trump],
        "turned": [card[c] for c in turned] if turned else [],
        "shown": [card[c] for c in shown] if shown else [],
        "hand": [card[c] for c in sorted(state.hands[seat])] if state.looked[seat] else None,
        "hand_sizes": [len(h) for h in state.hands],
        "stock_count": len(state.stock),
        "discard_count": len(state.discards),
        "stacks": state.stacks.copy(),
        "pot": state.pot,
        "locked": state.locked.copy(),
        "statuses": state.statuses.copy(),
        "calls": state.call_of.copy(),
        "trick": [[s, card[c], j] for s, c, j in trick] if trick else [],
        "tricks": state.tricks.copy(),
        # The current deal only: earlier deals are settled and would make every observation grow.
        "history": lines,
        # The same events as data: what bots and programs read (the history is for people).  The dicts
        # are shared by every observation: read them, do not change them.
        "events": events,
        "legal": ((state.legal_words() if legal is None else legal) if to_act == seat and state.phase != SETTLED
                  else []),
    }
