"""Typed events: what happens in a game, as data.

The kernel (``compiled.Machine``, while it emits) appends one :class:`Event`
per thing that happens (a kind and its fields) to its ``log``.  Fields every seat sees are in ``fields``; what
only the acting seat ``seat`` sees (the cards he drew, exchanged or
discarded) is in ``secret``; a deal's hands are a secret of no seat (only
the full view of a report or a replay shows them).  Cards and suits are the
kernel's ints; :meth:`Event.data` gives the JSON-ready form (CONTRACT.md
notation) a seat may see.

Nothing here is text: the log's sentences are rendered from events, per
language, by the ``gamelog`` package (``text`` and ``public`` are the English
renderings, kept for the report and the screens).  Emitting an event costs
one small object; its text is made only when somebody reads it.

Each kind of event is a class (``Played``, ``Called``, ... : a class per kind, its fields in its
docstring, ``EVENT_TYPES`` lists them by word); consumers test ``isinstance(event, Played)``, never the
word.  ``kind`` is the word its records and JSON carry (unchanged on disk); ``narrated`` says whether the
game log tells it.  The textless ones (``Threw``, ``Status``, ``Unlocked``: not narrated) go to ``quiet``
(the current deal's), each with ``at``, the length of the log when it happened.  ``seat`` is the seat an
event is about, or None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from khrap.cards import card_str, parse_card, parse_suit, suit_str
from khrap.engine.actions import Action

EVERYTHING = -1
"""Pass as the viewer to see every secret (a report or a replay, not a seat)."""

_SUIT_FIELDS = frozenset({"trump", "suit"})


class LedgerItem(NamedTuple):
    """One step of a settlement, with the numbers behind it.

    ``kind``: ``share`` (tricks × unit), ``prize``, ``penalty``, ``unlock``,
    ``redistribute`` (base × tricks ÷ total), ``rounding`` (what rounding left),
    ``left`` (what stays in the pot), ``house`` (the house's commission: ``total`` % of
    the taxed part ``base`` of the seat's win; paid out of his stack, it leaves the table).
    ``chips`` moved (into the pot for a penalty), ``pot`` is the pot after the step.
    """

    kind: str
    seat: int | None
    chips: int
    pot: int
    tricks: int = 0
    unit: int = 0
    total: int = 0
    base: int = 0  # the pot a redistribution divides; P otherwise
    detail: str = ""  # the prize ("rest", "half"), or how a penalty pays ("stake", "amount")
    pots: int = 0  # a penalty amount: pots × P ...
    bases: int = 0  # ... plus base stakes, in chips
    owed: int = 0  # a penalty: what the rule asks (more than ``chips`` when a table without debts cut it)


def ledger_item(kind: str, seat: int | None, chips: int, pot: int, tricks: int = 0, unit: int = 0, total: int = 0,
                base: int = 0, detail: str = "", pots: int = 0, bases: int = 0, owed: int = 0) -> LedgerItem:
    """``LedgerItem(...)``, made by ``tuple.__new__`` at C speed: a named tuple's own ``__new__`` is an
    interpreted function whose keywords are parsed at each call (about a fourth of the time, where a
    settlement makes six or seven items a deal).  The defaults are the class's (a test holds them so)."""
    return _TUPLE_NEW(LedgerItem, (kind, seat, chips, pot, tricks, unit, total, base, detail, pots, bases, owed))


_TUPLE_NEW: Final = tuple.__new__  # (found once: looked up on ``tuple`` at each call, it cost a third of an item)


class Ledger(NamedTuple):
    """A settlement, itemised: P, the trick unit and its divisor, the failed seats, and each step."""

    pot: int
    unit: int
    divisor: int
    failed: tuple[int, ...]
    items: tuple[LedgerItem, ...]


class Event:
    """One thing that happened: ``kind``, the seat it is about, public ``fields`` and ``secret`` ones."""

    # (Typed attributes, not ``__slots__``: the module is one of the compiled kernel's, docs/compiled.md.)
    kind: str
    seat: int | None
    fields: dict[str, Any]
    secret: dict[str, Any] | None
    narrated: bool  # the game log says it (False: a textless event, kept in ``quiet``)
    _made: dict | None  # texts and data made so far, by (language or "", full view)
    # Its public content as one small tuple, beginning with ``kind``, that determines the class, ``seat`` and
    # ``fields`` (names, order and values): the kernel's sink gives it (``compiled/sink.py``), so that
    # observations find the public sentence and data of a content seen before without hashing the fields
    # (``observation.seen``).  None: not known (an event made elsewhere), the fields are the key.
    content: tuple | None

    def __init__(self, kind: str, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None, narrated: bool = True) -> None:
        self.kind = kind
        self.seat = seat
        self.fields = fields if fields is not None else {}
        self.secret = secret
        self.narrated = narrated
        self._made = None
        self.content = None

    def sees_secret(self, viewer: int | None) -> bool:
        """Whether ``viewer`` (a seat, None for the table, EVERYTHING) sees this event's secret fields."""
        return self.secret is not None and (viewer == EVERYTHING or (viewer is not None and viewer == self.seat))

    def visible(self, viewer: int | None) -> dict[str, Any]:
        """The fields ``viewer`` sees, as the kernel keeps them (cards as ints)."""
        secret = self.secret
        if secret is not None and self.sees_secret(viewer):
            return {**self.fields, **secret}
        return self.fields

    def data(self, viewer: int | None = None) -> dict[str, Any]:
        """The event as ``viewer`` sees it, JSON-ready: ``kind``, ``seat`` and fields (cards as ``AS``)."""
        return dict(self.shared_data(viewer))

    def shared_data(self, viewer: int | None = None) -> dict[str, Any]:
        """``data(viewer)``, made once per view and shared by every caller: read it, do not change it."""
        key = ("", self.sees_secret(viewer))
        made = self._made
        if made is None:
            made = self._made = {}
        found = made.get(key)
        if found is None:
            found = made[key] = {"kind": self.kind, "seat": self.seat}
            for name, value in self.visible(viewer).items():
                found[name] = plain(name, value)
        return found

    def seen_by(self, seat: int) -> tuple[str, dict[str, Any]]:
        """(English sentence, shared JSON-ready data) as ``seat`` sees the event, made once per view:
        what an observation holds for each event of the deal."""
        sees = self.secret is not None and seat == self.seat
        made = self._made
        if made is None:
            made = self._made = {}
        found = made.get(sees)  # a bool key: the (language, view) keys of ``render`` are tuples
        if found is None:
            viewer = seat if sees else None
            found = made[sees] = (self.render("en", viewer), self.shared_data(viewer))
        return found

    def public_copy(self) -> Event:
        """The event without its secret fields (of its own class)."""
        return make_event(self.kind, self.seat, self.fields)

    def render(self, lang: str = "en", viewer: int | None = EVERYTHING) -> str:
        """The event's sentence in ``lang`` as ``viewer`` sees it."""
        key = (lang, self.sees_secret(viewer))
        made = self._made
        if made is None:
            made = self._made = {}
        found = made.get(key)
        if found is None:
            found = made[key] = _renderer()(self, lang, key[1])
        return found

    @property
    def text(self) -> str:
        """The English sentence with every secret shown (the report's log)."""
        return self.render("en", EVERYTHING)

    @property
    def public(self) -> str:
        """The English sentence as the other seats see it."""
        return self.render("en", None)

    def __repr__(self) -> str:
        secret = f", secret={self.secret!r}" if self.secret is not None else ""
        return f"Event({self.kind!r}, {self.seat!r}, {self.fields!r}{secret})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind, self.seat, self.fields, self.secret) == (other.kind, other.seat, other.fields,
                                                                    other.secret)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Callable[..., Event], tuple[Any, ...]]:
        """Pickled as its values, made again by its class (``make_event``); compiled, the default state would
        carry ``__hash__``, which cannot be set.  The texts made so far are not carried: made again when asked."""
        return remade_event, (self.kind, self.seat, self.fields, self.secret, self.narrated, self.content)

    def __copy__(self) -> Event:
        return self  # an event never changes once emitted: copies of a state share it

    def __deepcopy__(self, memo: dict) -> Event:
        return self


class Anted(Event):
    """Every player put base stakes in the pot: reason (``ante``, ``round``: an all-pass, ``last``), round,
    chips, pot."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("anted", seat, fields, secret)


class Dealt(Event):
    """The cards were dealt: dealer, size; secret of no seat: hands."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("dealt", seat, fields, secret)


class Turned(Event):
    """A stock card was turned up: card, trump."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("turned", seat, fields, secret)


class Redealt(Event):
    """An all-pass redeal: ``seat`` is the new dealer."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("redealt", seat, fields, secret)


class AllPassed(Event):
    """Every player passed: round."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("all_passed", seat, fields, secret)


class SessionOver(Event):
    """Nobody can cover a declaring call: the session ends."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("session_over", seat, fields, secret)


class Looked(Event):
    """``seat`` looked at his cards (a blind call was open to him)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("looked", seat, fields, secret)


class Called(Event):
    """``seat`` made a call: call (its id), action (its words, the codec's), and what the call carries, typed
    (``call_event``: the codec's ``Action`` beyond its word, which every consumer reads instead of the words): source
    (where its draws come from: ``top``, ``bottom`` or a position counted from 1 at the top), position (the hand
    position a swapping call names, or None), take_turned (whether it takes the turned card), cards (the cards it
    names)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("called", seat, fields, secret)


def call_event(seat: int, cid: str, action: Action, said: str) -> Called:
    """The ``Called`` event of ``seat``'s call ``cid`` made as ``action`` (``said``: its words, ``str(action)``):
    its fields made from its ``Action`` by ``acted``, as an answer's are."""
    return Called(seat, acted({"call": cid, "action": said}, action))


def acted(fields: dict[str, Any], action: Action) -> dict[str, Any]:
    """``fields`` with what ``action`` carries beyond its word, typed: source, position, take_turned, cards.  The one
    place an event's action fields are made from the codec's ``Action`` (a call's, an answer's), which every reader
    reads instead of its words."""
    fields["source"] = action.source
    fields["position"] = action.position
    fields["take_turned"] = action.take_turned
    fields["cards"] = action.cards
    return fields


class Decided(Event):
    """``seat`` answered a decision a rule offers (a kind of the registry, not a call): decision (the kind's
    word), action (its words), answer (the answer's word, the one a registry entry names) and what it carries, typed
    (``decided_event``, as a call's: source, position, take_turned, cards)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("decided", seat, fields, secret)


def decided_event(seat: int, decision: str, action: Action, said: str) -> Decided:
    """The ``Decided`` event of ``seat``'s answer ``action`` to a decision of the kind ``decision`` (its word;
    ``said``: the answer's words, ``str(action)``): its fields made from the ``Action`` by ``acted``."""
    return Decided(seat, acted({"decision": decision, "action": said, "answer": action.word}, action))


class Overridden(Event):
    """``seat``'s declaring call was overridden: status (what he becomes)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("overridden", seat, fields, secret)


class Forced(Event):
    """``seat`` was forced in as a helper by another's call."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("forced", seat, fields, secret)


class Shown(Event):
    """``seat`` kept cards face up: cards."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("shown", seat, fields, secret)


class Swapped(Event):
    """``seat`` swapped a hand position for the turned card: position, card."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("swapped", seat, fields, secret)


class TookTurned(Event):
    """``seat`` took the turned card: card."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("took_turned", seat, fields, secret)


class Drew(Event):
    """``seat`` drew from the stock: count, source; secret: cards."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("drew", seat, fields, secret)


class NamedTrump(Event):
    """The declarer named trump: suit."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("named_trump", seat, fields, secret)


class Exchanged(Event):
    """``seat`` threw cards to draw as many: count; secret: cards."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("exchanged", seat, fields, secret)


class Discarded(Event):
    """``seat`` discarded a card he owed; secret: card."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("discarded", seat, fields, secret)


class Credited(Event):
    """The lone declarer was credited every trick: tricks."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("credited", seat, fields, secret)


class Played(Event):
    """``seat`` played a card: card, joker (played as the joker)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("played", seat, fields, secret)


class TookTrick(Event):
    """``seat`` took the trick: count (his tricks so far)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("took_trick", seat, fields, secret)


class Settling(Event):
    """The settlement begins: pot, tricks ((seat, tricks), ...)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("settling", seat, fields, secret)


class PaidOut(Event):
    """``seat`` was paid from the pot: chips, pot, reason and its numbers (``settlement``)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("paid_out", seat, fields, secret)


class PaidIn(Event):
    """``seat`` paid into the pot: chips, pot, reason and its numbers (``settlement``)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("paid_in", seat, fields, secret)


class InstantWin(Event):
    """``seat`` holds an instant win: win (its id)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("instant_win", seat, fields, secret)


class TookPot(Event):
    """``seat`` took the pot by an instant win: chips."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("took_pot", seat, fields, secret)


class HouseShare(Event):
    """``seat`` paid the house its commission on his win: chips, win, taxed, percent (it leaves the table)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("house_share", seat, fields, secret)


class Settled(Event):
    """The deal is settled: stacks, pot, ledger (the itemised settlement, or None)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("settled", seat, fields, secret)


class Threw(Event):
    """``seat`` threw cards face down: count, left (cards still in hand); secret: cards."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("threw", seat, fields, secret, narrated=False)


class Status(Event):
    """``seat`` was given a status: status, stake, locked (the chips it locked; negative: freed)."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("status", seat, fields, secret, narrated=False)


class Unlocked(Event):
    """A locked stake went back to ``seat``: chips."""

    def __init__(self, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        super().__init__("unlocked", seat, fields, secret, narrated=False)


EVENT_TYPES: Final[dict[str, Callable[[int | None, dict[str, Any] | None, dict[str, Any] | None], Event]]] = {
    "anted": Anted,
    "dealt": Dealt,
    "turned": Turned,
    "redealt": Redealt,
    "all_passed": AllPassed,
    "session_over": SessionOver,
    "looked": Looked,
    "called": Called,
    "decided": Decided,
    "overridden": Overridden,
    "forced": Forced,
    "shown": Shown,
    "swapped": Swapped,
    "took_turned": TookTurned,
    "drew": Drew,
    "named_trump": NamedTrump,
    "exchanged": Exchanged,
    "discarded": Discarded,
    "credited": Credited,
    "played": Played,
    "took_trick": TookTrick,
    "settling": Settling,
    "paid_out": PaidOut,
    "paid_in": PaidIn,
    "instant_win": InstantWin,
    "took_pot": TookPot,
    "house_share": HouseShare,
    "settled": Settled,
    "threw": Threw,
    "status": Status,
    "unlocked": Unlocked,
}
"""Each kind of event by its word (the ``kind`` of its records and JSON): the one list of the kinds."""


def make_event(kind: str, seat: int | None = None, fields: dict[str, Any] | None = None,
               secret: dict[str, Any] | None = None) -> Event:
    """An event of ``kind`` as its class (a kind no class declares: a plain ``Event``)."""
    made = EVENT_TYPES.get(kind)
    if made is None:
        return Event(kind, seat, fields, secret)
    return made(seat, fields, secret)


def remade_event(kind: str, seat: int | None, fields: dict[str, Any], secret: dict[str, Any] | None,
                 narrated: bool, content: tuple | None = None) -> Event:
    """An event made again from its values (how a pickled one is unpickled)."""
    event = make_event(kind, seat, fields, secret)
    event.narrated = narrated
    event.content = content
    return event


_RENDER: list = []


def _renderer():
    """The game log's renderer (``gamelog``), imported when a sentence is first asked for."""
    if not _RENDER:
        from khrap.gamelog import render

        _RENDER.append(render)
    return _RENDER[0]


_CARD_STR: Final[tuple[str, ...]] = tuple(card_str(c) for c in range(52))  # a card's notation, by its int


def _card(card: int) -> str:
    return _CARD_STR[card] if 0 <= card < 52 else card_str(card)


def plain(key: str, value: Any) -> Any:
    """A field in JSON-ready form: cards and suits in CONTRACT.md notation, tuples as lists."""
    if value is None:
        return None
    if key == "card":
        return _card(value)
    if key == "cards":
        return [_card(c) for c in value]
    if key in _SUIT_FIELDS:
        return suit_str(value)
    if key == "hands":
        return [[card_str(c) for c in hand] for hand in value]
    if key == "ledger":
        return {"pot": value.pot, "unit": value.unit, "divisor": value.divisor, "failed": list(value.failed),
                "items": [item._asdict() for item in value.items]}
    if isinstance(value, tuple):
        return [list(v) if isinstance(v, tuple) else v for v in value]
    return value


def kernel_value(key: str, value: Any) -> Any:
    """A JSON-ready field back in the kernel's form (``plain``'s inverse for cards and suits: ints, a card list a
    tuple); the other fields as JSON has them (a tuple of pairs as lists, the ledger a dict)."""
    if value is None:
        return None
    if key == "card":
        return parse_card(value)
    if key == "cards":
        return tuple([parse_card(c) for c in value])
    if key in _SUIT_FIELDS:
        return parse_suit(value)
    if key == "hands":
        return tuple([tuple([parse_card(c) for c in hand]) for hand in value])
    return value


def from_data(data: dict[str, Any]) -> Event:
    """The typed event (of its kind's class) that a JSON-ready event (``Event.data(viewer)``, an observation's
    ``events``) stands for, as its viewer saw it: every field it carries is in ``fields`` (what it saw of the
    secret, too: ``visible(viewer)`` gives them all), cards and suits as ints.  A reader given only JSON events
    reads them through this, by class, as it reads the engine's own."""
    fields = {key: kernel_value(key, value) for key, value in data.items() if key != "kind" and key != "seat"}
    return make_event(data["kind"], data["seat"], fields)


def seen_by(log: list[Event], seat: int | None, start: int = 0) -> list[dict[str, Any]]:
    """The JSON-ready events of ``log[start:]`` as ``seat`` saw them."""
    return [event.data(seat) for event in log[start:]]


__all__ = ["EVENT_TYPES", "EVERYTHING", "Event", "Ledger", "LedgerItem", "acted", "call_event", "decided_event",
           "from_data", "make_event", "seen_by", "AllPassed", "Anted", "Called", "Credited", "Decided", "Dealt",
           "Discarded", "Drew", "Exchanged", "Forced", "HouseShare", "InstantWin", "Looked", "NamedTrump",
           "Overridden", "PaidIn", "PaidOut", "Played", "Redealt", "SessionOver", "Settled", "Settling", "Shown",
           "Status", "Swapped", "Threw", "TookPot", "TookTrick", "TookTurned", "Turned", "Unlocked"]
