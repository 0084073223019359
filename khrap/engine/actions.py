"""Actions: what a seat does, parsed from and printed to the CONTRACT.md words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from khrap import words as w
from khrap.cards import CARD_WORDS, CardError, card_str, parse_card, parse_suit, suit_str


class ActionError(ValueError):
    """An action that does not parse."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why (``reason``: the kernel's typed
    ``engine.refusal.Refusal`` when it gave one, which a table says in its own language)."""

    @property
    def reason(self) -> str:
        """The reason as raised: a ``Refusal`` (a ``str`` with its code and values) or a plain sentence."""
        first = self.args[0] if self.args else ""
        return first if isinstance(first, str) else str(self)


@dataclass(frozen=True)  # (no slots: the class holds each default, see ``machine.exchange_action``)
class Action:
    """One action.  ``word`` is a kernel word or a call id.

    - ``cards``: cards named (exchange, discard, play);
    - ``position``: the hand position a swapping call names (``CALL 2``);
    - ``take_turned``: a call's optional taking of the turned card (``CALL trump``);
    - ``suit``: the suit named by ``trump S``;
    - ``joker``: the joker card played as the joker;
    - ``source``: where draws come from: ``top``, ``bottom`` or a 1-based position.
    """

    word: str
    cards: tuple[int, ...] = ()
    position: int | None = None
    take_turned: bool = False
    suit: int | None = None
    joker: bool = False
    source: str | int = w.TOP

    def __str__(self) -> str:
        return format_action(self)


def call_forms(cid: str, take_turned: str, size: int) -> tuple[Action, ...]:
    """Each way of writing call ``cid`` that differs in what it does, for a hand of ``size`` cards:
    a hand position for a swapping call, with or without the turned card for an optional take."""
    if take_turned == "swap":
        return tuple(Action(cid, position=i) for i in range(1, size + 1))
    if take_turned == "optional":
        return (Action(cid), Action(cid, take_turned=True))
    return (Action(cid),)


def _source_words(source: str | int) -> list[str]:
    return [] if source == w.TOP else [w.FROM, str(source)]


def format_action(action: Action, cards: Sequence[str] | None = None) -> str:
    """``action`` in CONTRACT.md's words: the codec's one writer (``str(action)``, the log, legal words, records,
    scenarios, the web's buttons).  ``cards``: the words of ``action.cards`` where the caller has them already (the
    web table indexes ``CARD_WORDS`` natively, compiled).

    An action that names only cards (no suit, joker, taken trump, position, or source but the top: an exchange's
    subset, a discard, a play) is the word then its cards, written here at once: an open exchange offers a dozen
    new subsets at each decision, and the general branch (``_general_words``) cost some 6,000 instructions each
    (docs/serve.md, thirteenth pass).  tests/test_action_words.py holds the two branches equal over every action
    the built-ins list."""
    if action.suit is None and not action.joker and not action.take_turned and action.position is None \
            and action.source == w.TOP:
        named = [CARD_WORDS[c] for c in action.cards] if cards is None else cards
        return " ".join([action.word, *named]) if named else action.word
    return _general_words(action)


def _general_words(action: Action) -> str:
    """Every field of ``action`` in CONTRACT.md's order (``format_action``'s general branch)."""
    parts = [action.word]
    if action.word == w.TRUMP and action.suit is not None:
        parts.append(suit_str(action.suit))
    parts += [card_str(c) for c in action.cards]
    if action.joker:
        parts.append(w.JOKER)
    if action.take_turned:
        parts.append(w.TRUMP)
    if action.position is not None:
        parts.append(str(action.position))
    parts += _source_words(action.source)
    return " ".join(parts)


def _parse_source(tokens: list[str]) -> tuple[list[str], str | int]:
    """Split a trailing ``from top|bottom|N`` off the tokens."""
    lowered = [t.lower() for t in tokens]
    if w.FROM not in lowered:
        return tokens, w.TOP
    i = lowered.index(w.FROM)
    rest = lowered[i + 1 :]
    if len(rest) != 1:
        raise ActionError("write 'from top', 'from bottom' or 'from N'")
    where = rest[0]
    if where in (w.TOP, w.BOTTOM):
        return tokens[:i], where
    if where.isdigit() and int(where) >= 1:
        return tokens[:i], int(where)
    raise ActionError(f"'from {rest[0]}': write 'from top', 'from bottom' or 'from N' (N counted from 1 at the top)")


def parse_action(text: str) -> Action:
    """Parse one action as written after the seat number in a scenario."""
    tokens = text.split()
    if not tokens:
        raise ActionError("empty action")
    word = tokens[0].lower()
    tokens, source = _parse_source(tokens[1:])
    try:
        if word == w.TRUMP:
            if len(tokens) != 1:
                raise ActionError("write 'trump SUIT', e.g. 'trump S'")
            return Action(word, suit=parse_suit(tokens[0]))
        if word == w.PLAY:
            return _parse_play(tokens)
        if word in (w.EXCHANGE, w.DISCARD):
            return Action(word, cards=tuple(parse_card(t) for t in tokens), source=source)
        if word == w.LOOK:
            if tokens:
                raise ActionError("'look' takes no arguments")
            return Action(word)
    except CardError as err:
        raise ActionError(str(err)) from None
    return _parse_call(word, tokens, source)


def _parse_play(tokens: list[str]) -> Action:
    joker = bool(tokens) and tokens[-1].lower() == w.JOKER
    if joker:
        tokens = tokens[:-1]
    if len(tokens) != 1:
        raise ActionError("write 'play CARD' or 'play CARD joker'")
    return Action(w.PLAY, cards=(parse_card(tokens[0]),), joker=joker)


def _parse_call(word: str, tokens: list[str], source: str | int) -> Action:
    take_turned = False
    position = None
    for token in tokens:
        if token.lower() == w.TRUMP and not take_turned:
            take_turned = True
        elif token.isdigit() and position is None:
            position = int(token)
        else:
            raise ActionError(f"'{word}' does not take '{token}'")
    return Action(word, position=position, take_turned=take_turned, source=source)
