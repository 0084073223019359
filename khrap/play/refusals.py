"""The kernel's refusals in the player's language.

The kernel refuses an action with a typed ``Refusal`` (``engine.refusal``): a code and its values, whose
string is the English sentence (CONTRACT.md: ``khrap run`` prints it as it is).  At the table it is said
in the player's language from its code: ``MESSAGES`` gives each code's game-log message, and its values
are said by the table's ``Voice`` (the call's name, 10♥, ♠), never read back from the English.  A reason
that is not a ``Refusal`` (an action that does not parse: ``ActionError``'s words) is matched against the
few ``PATTERNS`` of those sentences; one nothing knows is said as the generic "not allowed now", never in
English.  ``tests/test_refusal_codes.py``: every code has its message, and every catalog says it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from khrap.cards import parse_rank
from khrap.engine.refusal import Refusal
from khrap.gamelog import _
from khrap.gamelog.voice import Voice

MESSAGES: dict[str, str] = {
    "must_word": _("seat {seat} must {word} now"),
    "settled": _("no action is pending: the deal is settled"),
    "not_turn": _("not seat {seat}'s turn; seat {to_act} is to act"),
    "play_one": _("play one card"),
    "not_held": _("seat {seat} does not hold {cards}"),
    "not_joker": _("{card} is not the joker"),
    "lead_trump": _("seat {seat} must lead a trump ({suit}) to the first trick"),
    "lead_suit": _("seat {seat} must lead a card of {suit} to the first trick"),
    "follow_beat": _("seat {seat} must follow suit ({suit}) and beat the best card if possible"),
    "follow": _("seat {seat} must follow suit ({suit})"),
    "trump_over": _("seat {seat} must play a trump ({suit}) and overtrump if possible"),
    "trump": _("seat {seat} must play a trump ({suit})"),
    "may_not_play": _("seat {seat} may not play that card now"),
    "named_twice": _("a card is named twice"),
    "exchange_exactly": _("seat {seat} must exchange exactly {n} cards"),
    "exchange_between": _("seat {seat} may exchange {n} to {m} cards now"),
    "top_only": _("draws come from the top of the stock in this variant"),
    "draw_position": _("cannot draw {n} cards from position {position}; the stock holds {m}"),
    "discard_one": _("discard one card"),
    "name_suit": _("name a suit"),
    "look_closed": _("you may look only while a blind call is open to you"),
    "must_call": _("seat {seat} must make a call now"),
    "switched_off": _("{call} is not played in this game"),
    "unknown_call": _("{call} is not a call of this game"),
    "wrong_stage": _("{call} cannot be said now"),
    "position_range": _("{call} names a hand position from 1 to {n}"),
    "no_position": _("{call} takes no hand position"),
    "no_take": _("{call} cannot take the turned card"),
    "no_from": _("{call} draws nothing now, so it takes no 'from'"),
    "dealer_only": _("{call} is for the dealer only (seat {seat})"),
    "needs_declarer": _("{call} needs {calls} to have been called"),
    "declarer_exists": _("{call} is allowed only while nobody is declarer; seat {seat} is declarer"),
    "no_override": _("{call} cannot take over from seat {seat}, the declarer"),
    "needs_trump_card": _("{call} needs the trump {rank} ({card}) in hand"),
    "needs_trump_rank": _("{call} needs the trump {rank} in hand"),
    "needs_card": _("{call} needs {card} in hand"),
    "min_trumps": _("{call} needs at least {n} trumps in hand"),
    "max_trumps": _("{call} allows at most {n} trumps in hand"),
    "turned_rank": _("{call} needs the turned trump card to be of rank {rank}"),
    "pot_cap": _("{call} may not be called while the pot exceeds {n}; the pot holds {m}"),
    "needs_turned": _("{call} needs the turned trump card on the table"),
    "stock_short": _("{call} needs {n} cards from the stock; cards left to draw: {m}"),
    "short_self": _("{call} may cost {n} chips and seat {seat} has {m}"),
    "short_other": _("{call} may cost seat {seat} ({role}) {n} chips and he has {m}"),
    "blind_only": _("{call} must be called blind, before looking at the cards"),
}
"""Each refusal code's game-log message (``engine.refusal.ENGLISH`` has its English sentence)."""

OFFERED = "offer_"
"""The code prefix of a refusal by a kind of decision a rule offers (the registry's ``offer``: ``offer_<kind>``)."""

OFFER_MESSAGE = _("seat {seat} must answer now: {answers}")
"""What the table says of any offer's refusal, named by its answers in the player's language: a kind a rule adds
is said in every language with no line here (docs/extending.md); a kind may still give its own in ``MESSAGES``."""


def _either(voice: Voice, names: list[str]) -> str:
    """"A, B or C" in ``voice``'s language."""
    if len(names) < 2:
        return names[0] if names else ""
    return voice.t(_("{first} or {second}"), first=", ".join(names[:-1]), second=names[-1])


def _answers(voice: Voice, words: Any) -> str:
    from khrap.engine.decisions import display_name

    return _either(voice, [display_name(word, voice.lang) or word for word in words])


# How each field of a refusal is said (any other: as it is).
_VOICED: dict[str, Callable[[Voice, Any], Any]] = {
    "suit": lambda v, suit: v.suit(suit),
    "cards": lambda v, cards: v.cards(cards),
    "card": lambda v, card: v.card(card),
    "call": lambda v, cid: v.call(cid),
    "word": lambda v, word: v.kernel_word(word),
    "calls": lambda v, calls: _either(v, [v.call(c) for c in calls]) or v.call(""),
    "rank": lambda v, rank: v.ranks[parse_rank(rank)],
    "role": lambda v, role: _status(v, role),
    "answers": _answers,
}


def _message(code: str) -> str | None:
    """The game-log message of a refusal ``code``: its own, else an offer's; None for a code nothing says."""
    return MESSAGES.get(code) or (OFFER_MESSAGE if code.startswith(OFFERED) else None)


def _said(voice: Voice, refusal: Refusal, message: str) -> str:
    values = {name: _VOICED.get(name, lambda v, x: x)(voice, value) for name, value in refusal.fields.items()}
    return voice.t(message, **values)


# Sentences that are not a kernel's ``Refusal`` (an action that does not parse): English pattern -> message.
PATTERNS: tuple[tuple[str, str], ...] = (
    ("'{call}' does not take '{token}'", _("{call} does not take '{token}'")),
    ("write numbers with the digits 0 to 9", _("write numbers with the digits 0 to 9")),
)

_FIELD = re.compile(r"\\\{(\w+)\\\}")
_GROUPS = {"call": r"[\w-]+", "token": r"[^']+"}


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile("^" + _FIELD.sub(lambda m: f"(?P<{m.group(1)}>{_GROUPS[m.group(1)]})", re.escape(pattern)) + "$")


_COMPILED = [(_compile(english), message) for english, message in PATTERNS]


_SAY: dict[str, Callable[[Voice, str], str]] = {"call": lambda v, s: v.call(s)}


def _status(voice: Voice, word: str) -> str:
    from khrap.gamelog import word as status_word

    return status_word(voice.lang, word, voice.variant)


def say(voice: Voice, reason: str) -> str:
    """The kernel's refusal ``reason`` in ``voice``'s language (English: as the kernel said it)."""
    if voice.lang == "en" or voice.codes:
        return str(reason)
    message = _message(reason.code) if isinstance(reason, Refusal) else None
    if message is not None:
        return _said(voice, reason, message)
    for pattern, message in _COMPILED:
        found = pattern.match(reason)
        if found is not None:
            values = {k: _SAY.get(k, lambda v, s: s)(voice, s) for k, s in found.groupdict().items()}
            return voice.t(message, **values)
    return voice.t(_("this is not allowed now"))


def known(reason: str) -> bool:
    """Whether the table can say ``reason`` (its code's message, or a pattern): the test over every built-in's
    refusals."""
    if isinstance(reason, Refusal):
        return _message(reason.code) is not None
    return any(pattern.match(reason) for pattern, _message in _COMPILED)
