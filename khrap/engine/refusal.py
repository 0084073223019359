"""Typed refusals: why the kernel refuses an action, as a code and its values, with one English sentence each.

A ``Refusal`` is the reason a refusal table (``legal``, ``preconditions``, an offer of the registry, the
face's checks) gives: its ``code`` (one per sentence) and ``fields``, the values as the kernel has them
(a seat, a suit as 0-3, cards as ints, a call's id).  It is also a ``str``: the English sentence made from
``ENGLISH[code]`` here, the one place the kernel's wording lives (CONTRACT.md's refusal messages; the ``run``
command and the session API print it as it is).  A table in another language says the code's own message
from the game-log catalogs (``play.refusals``), never by reading the English back.

Fields are named by what they hold, and each name is written in English one way (``_ENGLISH_FIELD``): a
``suit`` as S H D C, ``cards`` and ``card`` as codes (``AS``), ``calls`` as ids joined by "or", ``per`` (a
pot bound per player: its base stakes and players) as the bound's words; any other as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from khrap.cards import SUITS, card_str, cards_str

ENGLISH: dict[str, str] = {
    # a decision of another kind, the face's checks
    "must_word": "seat {seat} must {word} now",
    "settled": "no action is pending: the deal is settled",
    "not_turn": "not seat {seat}'s turn; seat {to_act} is to act",
    # plays
    "play_one": "play one card",
    "not_held": "seat {seat} does not hold {cards}",
    "not_joker": "{card} is not the joker",
    "lead_trump": "seat {seat} must lead a trump ({suit}) to the first trick",
    "lead_suit": "seat {seat} must lead a card of {suit} to the first trick",
    "follow_beat": "seat {seat} must follow suit ({suit}) and beat the best card if possible",
    "follow": "seat {seat} must follow suit ({suit})",
    "trump_over": "seat {seat} must play a trump ({suit}) and overtrump if possible",
    "trump": "seat {seat} must play a trump ({suit})",
    "may_not_play": "seat {seat} may not play that card now",
    # exchanges, discards, naming trump
    "named_twice": "a card is named twice",
    "exchange_exactly": "seat {seat} must exchange exactly {n} cards",
    "exchange_between": "seat {seat} may exchange {n} to {m} cards now",
    "top_only": "draws come from the top of the stock in this variant",
    "draw_position": "cannot draw {n} cards from position {position}; the stock holds {m}",
    "discard_one": "discard one card",
    "name_suit": "name a suit: trump S, H, D or C",
    # calls: how one is written
    "look_closed": "look is legal only while a blind call is open to you",
    "must_call": "{word} is not allowed now; seat {seat} must make a call",
    "switched_off": "{call} is switched off in this variant",
    "unknown_call": "unknown call '{call}'",
    "wrong_stage": "{call} cannot be said in this stage ({stage})",
    "position_range": "{call} names a hand position 1..{n} (e.g. '{call} 1')",
    "no_position": "{call} takes no hand position",
    "no_take": "{call} cannot take the turned card",
    "no_from": "{call} draws nothing now, so it takes no 'from'",
    # calls: their preconditions (``preconditions.table``)
    "dealer_only": "{call} is for the dealer only (seat {seat})",
    "needs_declarer": "{call} needs a {calls} to have been called",
    "declarer_exists": "{call} is allowed only while nobody is declarer; seat {seat} is declarer",
    "no_override": "{call} cannot take over from seat {seat}, the declarer",
    "needs_trump_card": "{call} needs the trump {rank} ({card}) in hand",
    "needs_trump_rank": "{call} needs the trump {rank} in hand",
    "needs_card": "{call} needs {card} in hand",
    "min_trumps": "{call} needs at least {n} trumps in hand",
    "max_trumps": "{call} allows at most {n} trumps in hand",
    "turned_rank": "{call} needs the turned trump card to be of rank {rank}",
    "pot_cap": "{call} may not be called while the pot exceeds {n}{per}; the pot holds {m}",
    "needs_turned": "{call} needs the current turned trump card on the table",
    "stock_short": "{call} needs {n} cards from the stock; cards left to draw: {m}",
    "short_self": "{call} may cost {n} chips and seat {seat} has {m}",
    "short_other": "{call} may cost seat {seat} ({role}) {n} chips and he has {m}",
    "blind_only": "{call} must be called blind, before looking at the cards",
}
"""Each code's English sentence.  A kind of decision offered in a stage of its own adds its own (``offer_<kind>``,
by ``register``), with ``{seat}`` and ``{answers}``."""


def _per(value: tuple[int, int] | None) -> str:
    return f" ({value[0]} base stakes × {value[1]} players)" if value else ""


_ENGLISH_FIELD: dict[str, Callable[[Any], str]] = {
    "suit": lambda suit: SUITS[suit],
    "cards": lambda cards: " ".join(cards_str(list(cards))),
    "card": card_str,
    "calls": lambda calls: " or ".join(calls) or "a declaring call",
    "answers": lambda answers: " or ".join(answers),
    "per": _per,
}


class Refusal(str):
    """Why an action is refused: ``code`` (a key of ``ENGLISH``) and ``fields``; the string is the English."""

    code: str
    fields: dict[str, Any]

    def __new__(cls, code: str, **fields: Any) -> Refusal:
        values = {name: _ENGLISH_FIELD.get(name, str)(value) for name, value in fields.items()}
        made = super().__new__(cls, ENGLISH[code].format(**values))
        made.code = code
        made.fields = fields
        return made

    def __reduce__(self) -> tuple[Callable[..., Refusal], tuple[str, dict[str, Any]]]:
        return _rebuilt, (self.code, self.fields)


def _rebuilt(code: str, fields: dict[str, Any]) -> Refusal:
    return Refusal(code, **fields)


def register(code: str, english: str) -> None:
    """Add a code and its English sentence (a kind of decision of the registry: its offer's refusal)."""
    known = ENGLISH.get(code)
    if known is not None and known != english:
        raise ValueError(f"refusal {code!r} is already {known!r}")
    ENGLISH[code] = english


__all__ = ["ENGLISH", "Refusal", "register"]
