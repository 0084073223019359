"""A fixed, numbered action space for one variant at one table size.

Every action the kernel can list gets the same index in every deal:

| block | actions |
| --- | --- |
| calls | each call form: the call; ``CALL trump`` where taking the turned card is optional; |
|       | ``CALL N`` for each hand position where the call swaps |
| look | ``look`` |
| discard | ``discard CARD`` for each card of the deck (deck order) |
| play | ``play CARD`` for each card of the deck, then ``play JOKER joker`` |
| trump | ``trump S``, ``trump H``, ``trump D``, ``trump C`` |
| exchange | a subset of the hand by position: bit i discards the i-th card of the hand in canonical order |

Draws come from the top of the stock (the kernel lists exchanges so); a hand
has at most ``hand_size + 1`` positions for exchanges and swaps.
"""

from __future__ import annotations

from collections.abc import Sequence

from khrap import words as w
from khrap.engine import Action, Rules


class ActionSpace:
    """Index <-> ``Action`` for ``rules``; exchanges and swaps are read against the hand."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.positions = rules.hand_size + 1
        self.calls: list[Action] = []
        for cid, call in rules.calls.items():
            mode = call.effects.take_turned
            if mode == "swap":
                self.calls += [Action(cid, position=i) for i in range(1, self.positions + 1)]
            elif mode == "optional":
                self.calls += [Action(cid), Action(cid, take_turned=True)]
            else:
                self.calls.append(Action(cid))
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
            return self.trump + action.suit
        if word == w.EXCHANGE:
            order = sorted(hand)
            return self.exchange + sum(1 << order.index(c) for c in action.cards)
        return self.call_index[Action(word, position=action.position, take_turned=action.take_turned)]

    def mask(self, legal: Sequence[Action], hand: Sequence[int]) -> dict[int, Action]:
        """The legal actions by number."""
        return {self.index(a, hand): a for a in legal}

    def describe(self, number: int) -> str:
        """What action ``number`` stands for, in words."""
        if number < self.look:
            return str(self.calls[number])
        if number == self.look:
            return w.LOOK
        if number < self.play:
            return f"discard #{number - self.discard} of the deck"
        if number < self.play_joker:
            return f"play #{number - self.play} of the deck"
        if number < self.trump:
            return "play the joker as the joker"
        if number < self.exchange:
            return f"trump {'SHDC'[number - self.trump]}"
        bits = number - self.exchange
        return "exchange positions " + " ".join(str(i + 1) for i in range(self.positions) if bits >> i & 1)
