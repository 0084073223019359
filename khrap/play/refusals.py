"""The kernel's refusal sentences in the player's language.

The kernel refuses an action with one English sentence from its precondition tables (CONTRACT.md: the
reason in the rule's own terms; ``khrap run`` prints it as it is).  At the table that sentence is said
again in the player's language: each sentence the kernel can give is one pattern here, its English
(``{seat}``, ``{call}``, ``{suit}``, ``{cards}``, ``{n}`` ... standing for what varies) and the same
sentence as a game-log message, its values said by the table's ``Voice`` (the call's name, 10♥, ♠).  A
sentence no pattern knows (a rule added later) is said as the generic "not allowed now" with the legal
choices, never in English; the English table shows the kernel's own sentence.

This reads the kernel's English, which a typed refusal (a kind and its fields, as events are) would make
unnecessary: until the precondition tables give one, the test ``tests/test_play_language.py`` walks the
refusals of every built-in and fails on a sentence no pattern matches.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from khrap.cards import parse_card
from khrap.gamelog import _
from khrap.gamelog.voice import Voice

# English pattern (as the kernel writes it) -> the message said at the table.
PATTERNS: tuple[tuple[str, str], ...] = (
    ("seat {seat} must follow suit ({suit}) and beat the best card if possible",
     _("seat {seat} must follow suit ({suit}) and beat the best card if possible")),
    ("seat {seat} must follow suit ({suit})", _("seat {seat} must follow suit ({suit})")),
    ("seat {seat} must play a trump ({suit}) and overtrump if possible",
     _("seat {seat} must play a trump ({suit}) and overtrump if possible")),
    ("seat {seat} must play a trump ({suit})", _("seat {seat} must play a trump ({suit})")),
    ("seat {seat} must lead a trump ({suit}) to the first trick",
     _("seat {seat} must lead a trump ({suit}) to the first trick")),
    ("seat {seat} must lead a card of {suit} to the first trick",
     _("seat {seat} must lead a card of {suit} to the first trick")),
    ("seat {seat} may not play that card now", _("seat {seat} may not play that card now")),
    ("seat {seat} does not hold {cards}", _("seat {seat} does not hold {cards}")),
    ("seat {seat} must exchange exactly {n} cards", _("seat {seat} must exchange exactly {n} cards")),
    ("seat {seat} may exchange {n} to {m} cards now", _("seat {seat} may exchange {n} to {m} cards now")),
    ("a card is named twice", _("a card is named twice")),
    ("play one card", _("play one card")),
    ("discard one card", _("discard one card")),
    ("name a suit: trump S, H, D or C", _("name a suit")),
    ("{word} is not allowed now; seat {seat} must make a call", _("seat {seat} must make a call now")),
    ("seat {seat} must {word} now", _("seat {seat} must {word} now")),
    ("{call} cannot be said in this stage ({stage})", _("{call} cannot be said now")),
    ("{call} is switched off in this variant", _("{call} is not played in this game")),
    ("unknown call '{call}'", _("{call} is not a call of this game")),
    ("{call} is allowed only while nobody is declarer; seat {seat} is declarer",
     _("{call} is allowed only while nobody is declarer; seat {seat} is declarer")),
    ("{call} cannot take over from seat {seat}, the declarer",
     _("{call} cannot take over from seat {seat}, the declarer")),
    ("{call} is for the dealer only (seat {seat})", _("{call} is for the dealer only (seat {seat})")),
    ("{call} must be called blind, before looking at the cards",
     _("{call} must be called blind, before looking at the cards")),
    ("{call} needs at least {n} trumps in hand", _("{call} needs at least {n} trumps in hand")),
    ("{call} allows at most {n} trumps in hand", _("{call} allows at most {n} trumps in hand")),
    ("{call} needs {calls} to have been called", _("{call} needs {calls} to have been called")),
    ("{call} needs the trump {rank} ({card}) in hand", _("{call} needs the trump {rank} ({card}) in hand")),
    ("{call} needs the trump {rank} in hand", _("{call} needs the trump {rank} in hand")),
    ("{call} needs {card} in hand", _("{call} needs {card} in hand")),
    ("{call} needs the turned trump card to be of rank {rank}",
     _("{call} needs the turned trump card to be of rank {rank}")),
    ("{call} needs the current turned trump card on the table", _("{call} needs the turned trump card on the table")),
    ("{call} needs {n} cards from the stock; cards left to draw: {m}",
     _("{call} needs {n} cards from the stock; cards left to draw: {m}")),
    ("{call} may cost {n} chips and seat {seat} has {m}", _("{call} may cost {n} chips and seat {seat} has {m}")),
    ("{call} may cost seat {seat} ({role}) {n} chips and he has {m}",
     _("{call} may cost seat {seat} ({role}) {n} chips and he has {m}")),
    ("{call} may not be called while the pot exceeds {n}{per}; the pot holds {m}",
     _("{call} may not be called while the pot exceeds {n}; the pot holds {m}")),
    ("cannot draw {n} cards from position {seat}; the stock holds {m}",
     _("cannot draw {n} cards from position {seat}; the stock holds {m}")),
    ("{call} takes no hand position", _("{call} takes no hand position")),
    ("{call} names a hand position 1..{n} (e.g. '{example}')", _("{call} names a hand position from 1 to {n}")),
    ("{call} cannot take the turned card", _("{call} cannot take the turned card")),
    ("look is legal only while a blind call is open to you", _("you may look only while a blind call is open to you")),
    ("'{call}' does not take '{token}'", _("{call} does not take '{token}'")),
    ("write numbers with the digits 0 to 9", _("write numbers with the digits 0 to 9")),
)

_FIELD = re.compile(r"\\\{(\w+)\\\}")
_GROUPS = {"seat": r"\d+", "n": r"\d+", "m": r"\d+", "suit": "[SHDC]",
           "cards": r"[0-9TJQKA][SHDC](?: [0-9TJQKA][SHDC])*",
           "call": r"[\w-]+", "word": r"[\w-]+", "stage": r"[^)]+", "example": r"[^']+", "calls": r".+?",
           "rank": "[0-9TJQKA]", "card": "[0-9TJQKA][SHDC]", "role": r"\w+", "per": r"(?: \([^)]*\))?",
           "token": r"[^']+"}


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile("^" + _FIELD.sub(lambda m: f"(?P<{m.group(1)}>{_GROUPS[m.group(1)]})", re.escape(pattern)) + "$")


_COMPILED = [(_compile(english), message) for english, message in PATTERNS]


def _calls_named(voice: Voice, text: str) -> str:
    """"a khrap or frap" (the kernel's list of declaring calls) as the calls' names."""
    ids = [part for part in re.split(r"\s+or\s+|^an?\s+", text) if part]
    return voice.t(_("{first} or {second}"), first=", ".join(voice.call(c) for c in ids[:-1]),
                   second=voice.call(ids[-1])) if len(ids) > 1 else voice.call(ids[0]) if ids else text


_SAY: dict[str, Callable[[Voice, str], str]] = {
    "suit": lambda v, s: v.suit("SHDC".index(s)),
    "cards": lambda v, s: v.cards(parse_card(c) for c in s.split()),
    "call": lambda v, s: v.call(s),
    "word": lambda v, s: v.kernel_word(s),
    "calls": _calls_named,
    "rank": lambda v, s: v.ranks["23456789TJQKA".index(s)],
    "card": lambda v, s: v.card(parse_card(s)),
    "role": lambda v, s: _status(v, s),
}


def _status(voice: Voice, word: str) -> str:
    from khrap.gamelog import word as status_word

    return status_word(voice.lang, word, voice.variant)


def say(voice: Voice, reason: str) -> str:
    """The kernel's refusal ``reason`` in ``voice``'s language (English: as the kernel said it)."""
    if voice.lang == "en" or voice.codes:
        return reason
    for pattern, message in _COMPILED:
        found = pattern.match(reason)
        if found is not None:
            values = {k: _SAY.get(k, lambda v, s: s)(voice, s) for k, s in found.groupdict().items()}
            return voice.t(message, **values)
    return voice.t(_("this is not allowed now"))


def known(reason: str) -> bool:
    """Whether a pattern says ``reason`` (for the test over every built-in's refusals)."""
    return any(pattern.match(reason) for pattern, _message in _COMPILED)
