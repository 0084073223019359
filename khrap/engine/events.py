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

Kinds and their fields (``seat`` is the seat the event is about, or None):

- ``anted`` (reason ``ante``/``round``/``last``, round, chips, pot)
- ``dealt`` (dealer, size; secret: hands)
- ``turned`` (card, trump), ``redealt`` (seat = the new dealer)
- ``all_passed`` (round), ``session_over``
- ``looked``, ``called`` (call, action), ``overridden`` (status), ``forced``
- ``shown`` (cards), ``swapped`` (position, card), ``took_turned`` (card)
- ``drew`` (count, source; secret: cards), ``named_trump`` (suit)
- ``exchanged`` (count; secret: cards), ``discarded`` (secret: card)
- ``credited`` (the lone declarer credited every trick; tricks)
- ``played`` (card, joker), ``took_trick`` (count)
- ``settling`` (pot, tricks: ((seat, tricks), ...))
- ``paid_out`` / ``paid_in`` (chips, pot, reason and its numbers: see ``settlement``)
- ``instant_win`` (win), ``took_pot`` (chips)
- ``house_share`` (chips, win, taxed, percent: the house's commission on the seat's win; it leaves the table)
- ``settled`` (stacks, pot, ledger: the itemised settlement, or None)

Textless events, which the log does not narrate, go to ``quiet`` (the current deal's), each
with ``at``, the length of the log when it happened:

- ``threw`` (count, left: the cards still in hand; secret: cards), ``status`` (status, stake, locked: the
  chips it locked, negative when it freed some), ``unlocked`` (chips: a locked stake returned)
"""

from __future__ import annotations

from typing import Any, NamedTuple

from khrap.cards import card_str, suit_str

EVERYTHING = -1
"""Pass as the viewer to see every secret (a report or a replay, not a seat)."""

_CARD_FIELDS = frozenset({"card"})
_CARDS_FIELDS = frozenset({"cards"})
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
    _made: dict | None  # texts and data made so far, by (language or "", full view)

    def __init__(self, kind: str, seat: int | None = None, fields: dict[str, Any] | None = None,
                 secret: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.seat = seat
        self.fields = fields if fields is not None else {}
        self.secret = secret
        self._made = None

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
                found[name] = _plain(name, value)
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
        """The event without its secret fields."""
        return Event(self.kind, self.seat, self.fields)

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

    def __copy__(self) -> Event:
        return self  # an event never changes once emitted: copies of a state share it

    def __deepcopy__(self, memo: dict) -> Event:
        return self


_RENDER: list = []


def _renderer():
    """The game log's renderer (``gamelog``), imported when a sentence is first asked for."""
    if not _RENDER:
        from khrap.gamelog import render

        _RENDER.append(render)
    return _RENDER[0]


def _plain(key: str, value: Any) -> Any:
    """A field in JSON-ready form: cards and suits in CONTRACT.md notation, tuples as lists."""
    if value is None:
        return None
    if key in _CARD_FIELDS:
        return card_str(value)
    if key in _CARDS_FIELDS:
        return [card_str(c) for c in value]
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


def seen_by(log: list[Event], seat: int | None, start: int = 0) -> list[dict[str, Any]]:
    """The JSON-ready events of ``log[start:]`` as ``seat`` saw them."""
    return [event.data(seat) for event in log[start:]]


__all__ = ["EVERYTHING", "Event", "Ledger", "LedgerItem", "seen_by"]
