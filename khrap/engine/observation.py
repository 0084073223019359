"""What one seat may see, as one typed view made here: ``SeatView`` (int cards, the public table, the
seat's secrets, the events it may see, its legal actions), and its JSON rendering, the observation.

Nothing of other hands, the stock's order or the discards' faces is included;
bots and players decide from this alone.  A spectator's view is made the same way for no seat
(``seat_view(state, None)``): the public table and the public events, nobody's secret.

An observation is asked for at every decision, so it is made cheaply: the typed events, history and
event lists grow by the events since the seat's last observation (``SeatViews``), an event's sentence
and data are made once for each content seen before (``seen``), a seat's own draws, exchanges and
discards are worded from the game log's template of their content (``_own``), cards are written from a
table, and only the values of the dict that changed since the seat's last observation are set (``Scalars``).
Every observation is a fresh dict of fresh lists (callers may keep and change it); only the event
dicts inside ``events`` are shared: read them, do not change them.

The module is one of the compiled kernel's (``KERNEL_MODULES``, docs/compiled.md): typed for mypyc,
it reads the machine's attributes natively when compiled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from khrap import words as w
from khrap.cards import card_str, suit_str
from khrap.engine.actions import Action
from khrap.engine.compiled.machine import Machine
from khrap.engine.events import Drew, Event, Exchanged, Settled, Settling, Threw, make_event
from khrap.engine.kinds import Kind

if TYPE_CHECKING:  # (``face`` imports this module: the compiled kernel reads the type natively all the same)
    from khrap.engine.compiled.face import Face

_CARD: Final[tuple[str, ...]] = tuple(card_str(c) for c in range(52))  # a card's CONTRACT.md notation, by its int
_SUIT: Final[tuple[str, ...]] = tuple(suit_str(s) for s in range(4))
SETTLED: Final = w.SETTLED
DECLARER: Final = w.DECLARER

# (English sentence, JSON-ready data) of events by their content.  The renderer is a pure function of the
# content, so an event whose content was seen before (a card played, a call said, a trick taken...) is neither
# rendered nor converted again.  Two memos: ``_SAID`` by the public content the kernel's sink gave the event
# (``Event.content``: a small tuple, cheap to hash), for the public view of the kernel's frequent events;
# ``_MEMO`` by (kind, seat, whether the viewer sees the secret fields, the fields, the secret fields he sees)
# for the rest.  Kinds whose content seldom repeats (a settlement's tricks and stacks: ``Settling``,
# ``Settled``) are not kept (a deal's hands are a secret of no seat: their public view repeats); a memo is
# emptied when it grows past _MEMO_LIMIT.
_SAID: Final[dict[tuple, tuple[str, dict]]] = {}
_MEMO: Final[dict[tuple, tuple[str, dict]]] = {}
_MEMO_LIMIT: Final = 50_000


_PUBLIC: Final = -2  # a viewer that is no seat: ``seen_by`` gives the view of the table


def seen(event: Event, sees: bool) -> tuple[str, dict]:
    """``event.seen_by`` of a seat that sees its secret fields (``sees``) or of one that does not: (English
    sentence, shared JSON-ready data), through the content memos."""
    made = event._made
    if made is not None:
        found = made.get(sees)
        if found is not None:
            return found
    secret = event.secret
    content = event.content
    if secret is None or not sees:
        if content is not None:  # the public view, by the content the sink gave
            found = _SAID.get(content)
            if found is None:
                found = event.seen_by(_PUBLIC)
                if len(_SAID) >= _MEMO_LIMIT:
                    _SAID.clear()
                _SAID[content] = found
            return found
    elif content is not None and len(secret) == 1:  # a seat's own draw, exchange or discard
        return _own(event, content, secret)
    seat = event.seat
    viewer = (_PUBLIC if seat is None else seat) if sees else _PUBLIC
    kind = type(event)
    if kind is Settled or kind is Settling:  # (classes compared: cheaper than isinstance, and none is subclassed)
        return event.seen_by(viewer)
    try:
        key = (event.kind, seat, sees, tuple(event.fields.items()),
               tuple(secret.items()) if sees and secret else None)
        found = _MEMO.get(key)
    except TypeError:  # a field that is not hashable: made the general way
        return event.seen_by(viewer)
    if found is None:
        found = event.seen_by(viewer)  # (kept in the event too)
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = found
    return found


# A seat's own card events (one secret field of cards) by their public content: (the sentence's parts around
# the cards, the voice's names of the cards, the public data), made once from the game log's ``template``; no
# parts: that content is rendered the general way.  The cards of a seat's own draw, exchange or discard seldom
# repeat, so no memo of whole sentences finds them; a sentence made from its parts costs a tenth of one rendered.
_Entry = tuple[tuple[str, ...], tuple[str, ...], dict]
_OWN: Final[dict[tuple, _Entry]] = {}
_GENERAL: Final[_Entry] = ((), (), {})  # (a tuple type: mypyc unboxes it, so tested by its parts, never ``is``)
_CARDS: Final = "cards"
_ONE_CARD: Final = "card"


def _own(event: Event, content: tuple, secret: dict[str, Any]) -> tuple[str, dict]:
    """``seen(event, True)`` of an event with public ``content`` and one ``secret`` field: its sentence made from
    the content's parts and the cards' names, its data from the public data and the secret field."""
    name = _CARDS if _CARDS in secret else _ONE_CARD if _ONE_CARD in secret else ""
    entry = _OWN.get(content)
    if entry is None:
        entry = _template(event, content, name)
    if name:
        found = _filled(entry, name, secret[name])
        if found is not None:
            return found
    return event.seen_by(_PUBLIC if event.seat is None else event.seat)


def _template(event: Event, content: tuple, name: str) -> _Entry:
    """The entry of ``_OWN`` for ``content``, made from ``event`` (whose one secret field is ``name``, or ""
    when it is not one of cards) and kept: the game log's parts and names, if the sentence and data they make
    of this event are the general ones (``Event.seen_by``), else ``_GENERAL``."""
    from khrap.gamelog import template  # (the game log imports the engine: imported when first needed)

    entry = _GENERAL
    secret = event.secret
    if name and secret is not None:
        parts, names = template(event)
        entry = (parts, names, seen(event, False)[1])
        if _filled(entry, name, secret[name]) != event.seen_by(_PUBLIC if event.seat is None else event.seat):
            entry = _GENERAL
    if len(_OWN) >= _MEMO_LIMIT:
        _OWN.clear()
    _OWN[content] = entry
    return entry


def _filled(entry: _Entry, name: str, value: Any) -> tuple[str, dict] | None:
    """The sentence and data of an own card event from its content's ``entry`` and its secret field (``name``:
    ``value``, a tuple of cards or one card), or None if they do not fit (other values, a number of cards other
    than the parts' allow, a card not in the table)."""
    parts, names, public = entry
    cards: tuple[int, ...]
    if name == _CARDS and isinstance(value, tuple):
        cards = value
    elif name == _ONE_CARD and isinstance(value, int):
        cards = (value,)
    else:
        return None
    if len(cards) + 1 != len(parts):
        return None
    pieces = [parts[0]]  # (joined once: a concatenation a piece made a string of each prefix)
    written: list[str] = []  # the cards in CONTRACT.md notation (``plain``'s, from the table)
    notation = _CARD
    for i in range(len(cards)):
        card = cards[i]
        if not 0 <= card < 52:
            return None
        pieces.append(names[card])
        pieces.append(parts[i + 1])
        written.append(notation[card])
    text = "".join(pieces)
    data = public.copy()  # the public fields' data, then the secret field's (``Event.visible``'s order)
    data[name] = written if name == _CARDS else written[0]
    return text, data


def as_seen(event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` (a seat, or None: nobody's) may hold it: itself when it has no secret or
    the secret is the viewer's, else a copy of its class without the secret fields."""
    if event.secret is None or (viewer is not None and viewer == event.seat):
        return event
    return make_event(event.kind, event.seat, event.fields)


class SeatView:
    """Everything one seat may know now (``seat`` None: a spectator, who knows only what is public).

    Cards and suits are the kernel's ints; the table is public (every seat's view has the same);
    ``hand`` (sorted, None until the seat has looked), ``drawn`` and ``thrown`` (the cards it drew, and
    threw, exchanged or discarded, this deal) are the seat's secrets; ``events`` the current deal's
    events as the seat may hold them (others' secrets left out, its own kept); ``legal`` the actions
    it may take now (empty unless it is to act), ``numbers()`` them by the rules' action space.
    A fresh object of fresh lists at each call: the events inside are shared, never changed."""

    seat: int | None
    phase: str
    kind: Kind | None  # the pending decision's kind (None: none is pending)
    to_act: int | None
    dealer: int
    round: int
    trump: int | None
    turned: list[int]
    shown: list[int]
    hand: list[int] | None
    hand_sizes: list[int]
    stock_count: int
    discard_count: int
    stacks: list[int]
    pot: int
    locked: list[int]
    statuses: list[str]
    calls: list[str | None]
    trick: list[tuple[int, int, bool]]
    tricks: list[int]
    events: list[Event]
    drawn: list[int]
    thrown: list[int]
    legal: list[Action]
    program: Any  # the rules' compiled program (``numbers`` reads its rules' action space)

    def __init__(self, seat: int | None, phase: str, kind: Kind | None, to_act: int | None, dealer: int, round: int,
                 trump: int | None, turned: list[int], shown: list[int], hand: list[int] | None,
                 hand_sizes: list[int], stock_count: int, discard_count: int, stacks: list[int], pot: int,
                 locked: list[int], statuses: list[str], calls: list[str | None], trick: list[tuple[int, int, bool]],
                 tricks: list[int], events: list[Event], drawn: list[int], thrown: list[int], legal: list[Action],
                 program: Any) -> None:
        # (positional, a native method when compiled: a dataclass's generated __init__ is interpreted)
        self.seat = seat
        self.phase = phase
        self.kind = kind
        self.to_act = to_act
        self.dealer = dealer
        self.round = round
        self.trump = trump
        self.turned = turned
        self.shown = shown
        self.hand = hand
        self.hand_sizes = hand_sizes
        self.stock_count = stock_count
        self.discard_count = discard_count
        self.stacks = stacks
        self.pot = pot
        self.locked = locked
        self.statuses = statuses
        self.calls = calls
        self.trick = trick
        self.tricks = tricks
        self.events = events
        self.drawn = drawn
        self.thrown = thrown
        self.legal = legal
        self.program = program

    def key(self) -> tuple:
        """Every field, in order (what ``==`` compares)."""
        return (self.seat, self.phase, self.kind, self.to_act, self.dealer, self.round, self.trump, self.turned,
                self.shown, self.hand, self.hand_sizes, self.stock_count, self.discard_count, self.stacks, self.pot,
                self.locked, self.statuses, self.calls, self.trick, self.tricks, self.events, self.drawn,
                self.thrown, self.legal, self.program)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SeatView(seat={self.seat!r}, phase={self.phase!r}, hand={self.hand!r}, to_act={self.to_act!r})"

    def declarers(self) -> list[int]:
        """The seats whose status is declarer."""
        return [s for s, status in enumerate(self.statuses) if status == DECLARER]

    def numbers(self) -> dict[int, Action]:
        """The legal actions by their numbers in the rules' action space (``ActionSpace``)."""
        if not self.legal:
            return {}
        space = self.program.rules.action_space
        return space.mask(self.legal, self.hand if self.hand is not None else [])


class SeatViews:
    """The current deal's typed events, history lines and event data made so far: the table's view of
    every event, and for each seat the events whose secret fields it sees (its own draws, exchanges,
    discards).

    An observation is asked for at every decision and holds the whole deal's events: the lists grow
    by the events since the last observation instead of being made again, and a seat's are the
    table's with its own secret events put in.  A copy of a state starts with none (``clone`` and
    search copies), and the lists are checked against the log (its first and last events seen)
    before they are grown, so a cleared or replaced log, or a copy that went another way, makes
    them again.

    Each list is grown only when it is read: the typed events (the table's copies of secret events
    made) only for a typed view (``seat_view``: the bots'), the history lines and event data only
    for an observation dict (``lists``)."""

    first: Event | None
    last: Event | None
    seen_to: int
    start: int  # where the deal's events begin in the log (``typed[i]`` is ``log[start + i]`` as seen)
    typed: list[Event]
    lines: list[str]
    events: list[dict]
    own: dict[int, list[tuple[int, Event]]]  # seat: (place in the deal, its secret event)
    own_made: dict[int, list[tuple[str, dict]]]  # seat: the text and data of its secret events rendered so far
    scalars: dict[int, Scalars]  # seat: the values of its last observation that are not lists (``render``)

    def __init__(self) -> None:
        self.scalars = {}  # (kept from deal to deal: a seat's last values, whatever the deal)
        self._reset()

    def _reset(self) -> None:
        self.first = self.last = None
        self.seen_to = 0
        self.start = 0
        self.typed = []
        self.lines = []
        self.events = []
        self.own = {}
        self.own_made = {}

    def __copy__(self) -> SeatViews:
        return SeatViews()

    def __deepcopy__(self, memo: dict) -> SeatViews:
        return SeatViews()

    def _grow(self, state: Machine) -> None:
        """Take in the log's events since the last call (all of the deal's again if the log changed): each
        seat's own secret events noted; the lists are grown by their readers."""
        log, start = state.log, state.deal_log_start
        end = len(log)
        seen_to = self.seen_to
        if not (start < end and seen_to <= end and log[start] is self.first and log[seen_to - 1] is self.last):
            self._reset()
            seen_to = self.start = start
            if start < end:
                self.first = log[start]
        if seen_to < end:
            own = self.own
            for at in range(seen_to, end):
                event = log[at]
                if event.secret is not None:
                    owner = event.seat
                    if owner is not None:
                        mine = own.get(owner)
                        if mine is None:
                            mine = own[owner] = []
                        mine.append((at - start, event))
            self.seen_to = end
            self.last = log[end - 1]

    def _typed(self, state: Machine) -> list[Event]:
        """The table's typed events, grown by those taken in since (``_grow`` just called)."""
        log, start, typed = state.log, self.start, self.typed
        for at in range(start + len(typed), self.seen_to):
            typed.append(as_seen(log[at], None))
        return typed

    def _render(self, state: Machine) -> None:
        """The history lines and event data, as the table sees them, of the events taken in since the last
        rendering; ``_grow`` just called, so the log holds them."""
        log, lines, events = state.log, self.lines, self.events
        for at in range(self.start + len(lines), self.seen_to):
            text, data = seen(log[at], False)
            lines.append(text)
            events.append(data)

    def _own_made(self, seat: int, mine: list[tuple[int, Event]]) -> list[tuple[str, dict]]:
        """The text and data of ``seat``'s own secret events ``mine`` as it sees them, rendered once each."""
        made = self.own_made.get(seat)
        if made is None:
            made = self.own_made[seat] = []
        for i in range(len(made), len(mine)):
            made.append(seen(mine[i][1], True))
        return made

    def scalars_of(self, seat: int) -> Scalars:
        """``seat``'s ``Scalars`` (made at its first observation)."""
        found = self.scalars.get(seat)
        if found is None:
            found = self.scalars[seat] = Scalars()
        return found

    def mine(self, seat: int | None) -> list[tuple[int, Event]] | None:
        """``seat``'s own secret events of the deal (grown by ``lists`` and ``typed_list``), None if it has none."""
        return self.own.get(seat) if seat is not None else None

    def typed_list(self, state: Machine, seat: int | None) -> list[Event]:
        """A new list of the deal's typed events as ``seat`` (None: a spectator) holds them (nothing rendered)."""
        self._grow(state)
        typed = self._typed(state)[:]
        mine = self.own.get(seat) if seat is not None else None
        if mine is not None:
            for at, event in mine:
                typed[at] = event
        return typed

    def lists(self, state: Machine, seat: int | None) -> tuple[list[str], list[dict]]:
        """New lists of the deal's history lines and event data as ``seat`` (None: a spectator) sees them."""
        self._grow(state)
        self._render(state)
        lines, events = self.lines[:], self.events[:]
        if seat is None:
            return lines, events
        mine = self.own.get(seat)
        if mine is not None:
            made = self._own_made(seat, mine)
            for k in range(len(mine)):
                at = mine[k][0]
                text, data = made[k]
                lines[at] = text
                events[at] = data
        return lines, events


def _secrets(own: list[tuple[int, Event]] | None) -> tuple[list[int], list[int]]:
    """The cards a seat drew, and threw (exchanged, discarded), in its own secret events ``own``."""
    drawn: list[int] = []
    thrown: list[int] = []
    if own is None:
        return drawn, thrown
    for _, event in own:
        secret = event.secret
        if secret is None:
            continue
        if isinstance(event, Drew):
            drawn += secret.get("cards", ())
        elif isinstance(event, (Exchanged, Threw)):
            thrown += secret.get("cards", ())
        elif "card" in secret:  # a discard
            thrown.append(secret["card"])
    return drawn, thrown


def _views(state: Face) -> SeatViews:
    views = state.seat_views
    if views is None:
        views = state.seat_views = SeatViews()
    return views


def _make(state: Face, seat: int | None, typed: list[Event], own: list[tuple[int, Event]] | None) -> SeatView:
    """The view of ``seat`` (None: a spectator) from the state and the deal's events as it holds them
    (``typed``; ``own``: its own secret events), every list its own."""
    kind = state.kind
    to_act = None if kind is None else state.seat
    mine = seat is not None and to_act == seat and state.phase != SETTLED
    legal = state.legal_actions() if mine else []
    drawn, thrown = _secrets(own)
    return SeatView(
        seat, state.phase, kind, to_act, state.dealer, state.round, state.trump, state.turned.copy(),
        state.shown.copy(), seat_hand(state, seat),
        [len(h) for h in state.hands], len(state.stock), len(state.discards), state.stacks.copy(), state.pot,
        state.locked.copy(), state.statuses.copy(), state.call_of.copy(), state.trick.copy(), state.tricks.copy(),
        typed, drawn, thrown, legal, state.program)


def seat_view(state: Face, seat: int | None) -> SeatView:
    """What ``seat`` may know now (``seat`` None: what a spectator may, nobody's secret), as one typed
    view: the one place a seat's or a spectator's knowledge is made."""
    views = _views(state)
    return _make(state, seat, views.typed_list(state, seat), views.mine(seat))


def seat_hand(state: Face, seat: int | None) -> list[int] | None:
    """``seat_view(state, seat).hand`` alone: the seat's hand sorted, None until it has looked at it (and for a
    spectator)."""
    return sorted(state.hands[seat]) if seat is not None and state.looked[seat] else None


def _written(cards: list[int]) -> list[str]:
    """``cards`` in CONTRACT.md notation, in their order (a new list)."""
    card = _CARD
    return [card[c] for c in cards]


def events_since(state: Face, seat: int | None, start: int) -> list[Event]:
    """``seat_view(state, seat).events[start:]`` made from those events alone: the deal's events from its
    ``start``-th on as ``seat`` (None: a spectator) may hold them.  A reader that keeps the earlier ones (a
    page's log, updated at every change) asks for the new ones only, not for a view of the whole deal."""
    views = _views(state)
    views._grow(state)
    start = max(0, start)
    new = views._typed(state)[start:]
    mine = views.mine(seat)
    if mine is not None:
        k = len(mine) - 1
        while k >= 0 and mine[k][0] >= start:  # (its own secret events, in the order of the deal: the last ones)
            at, event = mine[k]
            new[at - start] = event
            k -= 1
    return new


def own_since(state: Face, seat: int | None, start: int) -> bool:
    """Whether ``seat`` holds any of the deal's events from its ``start``-th on otherwise than a spectator (its own
    secret events, whole): where it does not, ``events_since(state, seat, start)`` is the spectator's, the very
    objects, and a reader that keeps the table's events has the seat's without asking for them."""
    views = _views(state)
    views._grow(state)
    mine = views.mine(seat)
    return mine is not None and bool(mine) and mine[-1][0] >= max(0, start)


def spectator_observation(state: Face) -> dict:
    """``render(seat_view(state, None), [], [], [])`` read from the state at once (no view made, no event
    copied): a spectator's observation, nobody's secret, with no history or events (a reader that keeps the
    deal's events itself, as a page's log does, asks for the table alone); fresh at each call."""
    to_act = None if state.kind is None else state.seat
    return _observed(Scalars(), None, state.phase, to_act, state.dealer, state.round, state.trump, state.turned,
                     state.shown, None, [len(h) for h in state.hands], len(state.stock), len(state.discards),
                     state.stacks.copy(), state.pot, state.locked.copy(), state.statuses.copy(),
                     state.call_of.copy(), state.trick, state.tricks.copy(), [], [], [])


# An observation's keys, in CONTRACT.md's order: each observation is a copy of this dict with its values set
# (copying a dict of these keys and setting each is cheaper than building one of 22 keys afresh).
_KEYS: Final[dict[str, Any]] = dict.fromkeys((
    "seat", "phase", "to_act", "dealer", "round", "trump", "turned", "shown", "hand", "hand_sizes", "stock_count",
    "discard_count", "stacks", "pot", "locked", "statuses", "calls", "trick", "tricks", "history", "events", "legal"))


class Scalars:
    """The values of an observation that are not lists (seat, phase, to act, dealer, round, trump, stock and
    discard counts, pot) as a seat's last observation had them, and a dict of the observation's keys holding
    them (never given out): ``render`` copies it and sets the lists, and sets again only the values that
    changed (most stay from one decision to the next; setting a key costs about as much as comparing nine
    values natively).  A new one sets them all: the general way."""

    made: dict[str, Any]
    known: bool  # (False: nothing set yet)
    seat: int | None
    phase: str
    to_act: int | None
    dealer: int
    round: int
    trump: int | None
    stock_count: int
    discard_count: int
    pot: int
    # The seat's hand at its last observation, as bits (``1 << card``; -1: none) and written in order (never given
    # out: ``hand`` gives a copy).  At play a seat has one card fewer at each of its observations: the card is
    # taken out of the written list, not the hand sorted and written again.
    hand_bits: int
    hand_written: list[str]

    def __init__(self) -> None:
        self.made = _KEYS.copy()
        self.known = False
        self.seat = self.to_act = self.trump = None
        self.phase = ""
        self.dealer = self.round = self.stock_count = self.discard_count = self.pot = 0
        self.hand_bits = -1
        self.hand_written = []

    def hand(self, cards: list[int]) -> list[str]:
        """A new list of ``cards`` (a hand) sorted and written (``seat_hand``'s, in CONTRACT.md notation)."""
        bits = 0
        for card in cards:
            bits |= 1 << card
        known = self.hand_bits
        if bits != known:
            gone = known ^ bits
            if known >= 0 and bits & gone == 0 and gone & (gone - 1) == 0:  # one card fewer: taken out
                self.hand_written.remove(_CARD[gone.bit_length() - 1])
            else:
                self.hand_written = _written(sorted(cards))
            self.hand_bits = bits
        return self.hand_written.copy()

    def copy(self, seat: int | None, phase: str, to_act: int | None, dealer: int, round: int, trump: int | None,
             stock_count: int, discard_count: int, pot: int) -> dict[str, Any]:
        """A new dict of the observation's keys, these values set but for the lists (None)."""
        made, known = self.made, self.known
        if not known or seat != self.seat:
            made["seat"] = self.seat = seat
        if not known or phase != self.phase:
            made["phase"] = self.phase = phase
        if not known or to_act != self.to_act:
            made["to_act"] = self.to_act = to_act
        if not known or dealer != self.dealer:
            made["dealer"] = self.dealer = dealer
        if not known or round != self.round:
            made["round"] = self.round = round
        if not known or trump != self.trump:
            self.trump = trump
            made["trump"] = None if trump is None else _SUIT[trump]
        if not known or stock_count != self.stock_count:
            made["stock_count"] = self.stock_count = stock_count
        if not known or discard_count != self.discard_count:
            made["discard_count"] = self.discard_count = discard_count
        if not known or pot != self.pot:
            made["pot"] = self.pot = pot
        self.known = True
        return made.copy()


def render(view: SeatView, lines: list[str], events: list[dict], legal: list[str],
           scalars: Scalars | None = None) -> dict:
    """The observation dict of ``view`` (CONTRACT.md's shape), given its events' history lines, their
    data and its legal words (made once per event and listing by the caller); ``scalars``: the seat's last
    values (``Scalars``; none: all set)."""
    hand = view.hand
    return _observed(Scalars() if scalars is None else scalars, view.seat, view.phase, view.to_act, view.dealer,
                     view.round, view.trump, view.turned, view.shown, None if hand is None else _written(hand),
                     view.hand_sizes, view.stock_count,
                     view.discard_count, view.stacks, view.pot, view.locked, view.statuses, view.calls, view.trick,
                     view.tricks, lines, events, legal)


def _observed(scalars: Scalars, seat: int | None, phase: str, to_act: int | None, dealer: int, round: int,
              trump: int | None, turned: list[int], shown: list[int], hand: list[str] | None, hand_sizes: list[int],
              stock_count: int, discard_count: int, stacks: list[int], pot: int, locked: list[int],
              statuses: list[str], calls: list[str | None], trick: list[tuple[int, int, bool]], tricks: list[int],
              lines: list[str], events: list[dict], legal: list[str]) -> dict:
    """The observation dict (CONTRACT.md's shape) of these values, a view's fields (``render``) or the state's
    read at once (``observation``, which makes no ``SeatView``): the one place the dict is made.  The lists
    of ints and strings (the hand written, hand sizes, stacks, ..., history, events, legal) are put in as they
    are given."""
    card = _CARD  # (list comprehensions over the table: cheaper than ``map`` for these short lists)
    made = scalars.copy(seat, phase, to_act, dealer, round, trump, stock_count, discard_count, pot)
    made["turned"] = [card[c] for c in turned] if turned else []
    made["shown"] = [card[c] for c in shown] if shown else []
    made["hand"] = hand
    made["hand_sizes"] = hand_sizes
    made["stacks"] = stacks
    made["locked"] = locked
    made["statuses"] = statuses
    made["calls"] = calls
    made["trick"] = [[s, card[c], j] for s, c, j in trick] if trick else []
    made["tricks"] = tricks
    # The current deal only: earlier deals are settled and would make every observation grow.
    made["history"] = lines
    # The same events as data: what bots and programs read (the history is for people).  The dicts are
    # shared by every observation: read them, do not change them.
    made["events"] = events
    made["legal"] = legal
    return made


def to_json(view: SeatView) -> dict:
    """The observation dict of any view (a spectator's too), its history and event data rendered from
    its typed events (the same as ``observation`` gives for a seat)."""
    lines: list[str] = []
    events: list[dict] = []
    for event in view.events:
        text, data = seen(event, event.secret is not None)
        lines.append(text)
        events.append(data)
    return render(view, lines, events, _legal_words(view))


def _legal_words(view: SeatView) -> list[str]:
    """The view's legal actions as CONTRACT.md lists them (``Face.legal_words``)."""
    kind = view.kind
    if not view.legal or kind is None:
        return []
    from khrap.engine.compiled.face import DECISIONS  # (the face imports this module)

    return DECISIONS[kind].words(view.legal)


def observation(state: Face, seat: int, legal: list[str] | None = None) -> dict:
    """A plain dict (JSON-ready) of everything ``seat`` may know now, fresh at each call: what ``render``
    makes of its ``SeatView``, read from the state at once (no view made: the dict shows none of the typed
    events, the cards drawn and thrown or the legal actions; ``tests/test_view.py`` holds the two equal).
    ``state``: a ``GameState``; ``legal``: the seat's legal words when it is to act, if the caller has them
    (``Face`` gives them: a direct call saves the method calls through Python that ``state.legal_words()``
    is when ``state`` is a ``GameState``)."""
    views = _views(state)
    lines, events = views.lists(state, seat)
    to_act = None if state.kind is None else state.seat
    phase = state.phase
    words = (state.legal_words() if legal is None else legal) if to_act == seat and phase != SETTLED else []
    scalars = views.scalars_of(seat)
    return _observed(scalars, seat, phase, to_act, state.dealer, state.round, state.trump,
                     state.turned, state.shown, scalars.hand(state.hands[seat]) if state.looked[seat] else None,
                     [len(h) for h in state.hands],
                     len(state.stock), len(state.discards), state.stacks.copy(), state.pot, state.locked.copy(),
                     state.statuses.copy(), state.call_of.copy(), state.trick, state.tricks.copy(), lines, events,
                     words)
