"""One integer action space per rules program: int <-> ``Action`` <-> CONTRACT.md words.

Every action the kernel can list for ``Rules`` (a variant at a table size) has the same number in
every deal; ``num_distinct_actions`` numbers in all, in blocks:

| block | actions |
| --- | --- |
| calls | each call form: the call; ``CALL trump`` where taking the turned card is optional; |
|       | ``CALL N`` for each hand position where the call swaps |
| look | ``look`` |
| discard | ``discard CARD`` for each card of the deck (deck order) |
| play | ``play CARD`` for each card of the deck, then ``play JOKER joker`` |
| trump | ``trump S``, ``trump H``, ``trump D``, ``trump C`` |
| exchange | a subset of the hand by position: bit i throws the i-th card of the hand in canonical order |

An exchange and a swapping call are numbered against the hand (``hand``: the acting seat's cards);
draws are from the top of the stock, as the kernel lists them (a typed ``from`` is not numbered).  A
hand has at most ``hand_size + 1`` positions.  The words of a number are ``str(space.action(n, hand))``:
the one codec (``actions.format_action``) that the log, the legal words, records and scenarios use.
Made once per ``Rules`` (``Rules.action_space``); the RL environment (``rl.env``) reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from khrap import words as w
from khrap.engine.actions import Action, call_forms
from khrap.engine.rules import Rules


class ActionSpace:
    """Index <-> ``Action`` for ``rules``; exchanges and swaps are read against the hand."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.positions = rules.hand_size + 1
        self.calls: list[Action] = []
        for cid, call in rules.calls.items():
            self.calls += call_forms(cid, call.effects.take_turned, self.positions)
        self.call_index = {a: i for i, a in enumerate(self.calls)}
        self.deck = list(rules.deck)
        self.card_index = {c: i for i, c in enumerate(self.deck)}
        self.look = len(self.calls)
        self.discard = self.look + 1
        self.play = self.discard + len(self.deck)
        self.play_joker = self.play + len(self.deck)
        self.trump = self.play_joker + (1 if rules.joker is not None else 0)
        self.exchange = self.trump + 4
        self.size = self.exchange + 2**self.positions

    @property
    def num_distinct_actions(self) -> int:
        """How many numbers the space has (OpenSpiel's ``NumDistinctActions``)."""
        return self.size

    def index(self, action: Action, hand: Sequence[int]) -> int:
        """The number of ``action`` for a seat holding ``hand``."""
        word = action.word
        if word == w.LOOK:
            return self.look
        if word == w.DISCARD:
            return self.discard + self.card_index[action.cards[0]]
        if word == w.PLAY:
            return self.play_joker if action.joker else self.play + self.card_index[action.cards[0]]
        if word == w.TRUMP:
            assert action.suit is not None
            return self.trump + action.suit
        if word == w.EXCHANGE:
            order = sorted(hand)
            return self.exchange + sum(1 << order.index(c) for c in action.cards)
        return self.call_index[Action(word, position=action.position, take_turned=action.take_turned)]

    def action(self, number: int, hand: Sequence[int] = ()) -> Action:
        """The ``Action`` that ``number`` stands for, for a seat holding ``hand`` (an exchange's cards)."""
        if not 0 <= number < self.size:
            raise ValueError(f"action number {number} is outside 0..{self.size - 1}")
        if number < self.look:
            return self.calls[number]
        if number == self.look:
            return Action(w.LOOK)
        if number < self.play:
            return Action(w.DISCARD, cards=(self.deck[number - self.discard],))
        if number < self.play_joker:
            return Action(w.PLAY, cards=(self.deck[number - self.play],))
        if number < self.trump:
            assert self.rules.joker is not None
            return Action(w.PLAY, cards=(self.rules.joker,), joker=True)
        if number < self.exchange:
            return Action(w.TRUMP, suit=number - self.trump)
        bits, order = number - self.exchange, sorted(hand)
        if bits >> len(order):
            raise ValueError(f"action number {number} throws a card beyond the hand's {len(order)}")
        return Action(w.EXCHANGE, cards=tuple(c for i, c in enumerate(order) if bits >> i & 1))

    def words(self, number: int, hand: Sequence[int] = ()) -> str:
        """``number`` in CONTRACT.md's words."""
        return str(self.action(number, hand))

    def mask(self, legal: Iterable[Action], hand: Sequence[int]) -> dict[int, Action]:
        """The legal actions by number."""
        return {self.index(a, hand): a for a in legal}

    def describe(self, number: int) -> str:
        """What action ``number`` stands for, in words, without a hand (an exchange by positions)."""
        if number < self.exchange:
            return self.words(number)
        bits = number - self.exchange
        return "exchange positions " + " ".join(str(i + 1) for i in range(self.positions) if bits >> i & 1)


__all__ = ["ActionSpace"]
