"""One integer action space per rules program: int <-> ``Action`` <-> CONTRACT.md words.

Every action the kernel can list for ``Rules`` (a variant at a table size) has the same number in
every deal; ``num_distinct_actions`` numbers in all, in blocks, one per kind of decision of the
registry (``engine.decisions``), laid end to end in the registry's order.  Each kind declares its
block (``engine.blocks``): the built-in ones are

| block | actions |
| --- | --- |
| call | each call form: the call; ``CALL trump`` where taking the turned card is optional; |
|      | ``CALL N`` for each hand position where the call swaps; then ``look`` |
| discard | ``discard CARD`` for each card of the deck (deck order) |
| play | ``play CARD`` for each card of the deck, then ``play JOKER joker`` |
| trump | ``trump S``, ``trump H``, ``trump D``, ``trump C`` |
| exchange | a subset of the hand by position: bit i throws the i-th card of the hand in canonical order |

and a kind a rule adds (an offer answered by words) comes after them, with no edit here.  An exchange
and a swapping call are numbered against the hand (``hand``: the acting seat's cards).  A hand has at
most ``hand_size + 1`` positions.  The words of a number are ``str(space.action(n, hand))``: the one
codec (``actions.format_action``) that the log, the legal words, records and scenarios use.  Made once
per ``Rules`` (``Rules.action_space``); the RL environment (``rl.env``) reads it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import Any

from khrap.engine.actions import Action
from khrap.engine.blocks import Block
from khrap.engine.decisions import DECISIONS, Kind
from khrap.engine.rules import Rules


class ActionSpace:
    """Index <-> ``Action`` for ``rules``; exchanges and swaps are read against the hand."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.positions = rules.hand_size + 1
        self.deck = list(rules.deck)
        self.card_index = {c: i for i, c in enumerate(self.deck)}
        self.memo: dict[str, Any] = {}  # what a block makes once per space
        self.blocks: list[tuple[Kind, Block]] = [(kind, d.block) for kind, d in DECISIONS.items()]
        self.starts: list[int] = []
        start = 0
        for _, block in self.blocks:
            self.starts.append(start)
            start += block.size(self)
        self.size = start
        self._start_of = {id(block): s for (_, block), s in zip(self.blocks, self.starts, strict=True)}
        # The block that owns an action, tested in order: those of one word first, the calls' (which owns
        # every other action) last.
        self._owners = sorted(self.blocks, key=lambda kind_block: kind_block[1].catch_all)

    @property
    def num_distinct_actions(self) -> int:
        """How many numbers the space has (OpenSpiel's ``NumDistinctActions``)."""
        return self.size

    def start(self, block: Block) -> int:
        """The first number of ``block``."""
        return self._start_of[id(block)]

    def block_of(self, kind: Kind) -> tuple[int, int]:
        """(first number, size) of the block of decisions of ``kind``."""
        for (of, block), start in zip(self.blocks, self.starts, strict=True):
            if of == kind:
                return start, block.size(self)
        raise KeyError(kind)

    def index(self, action: Action, hand: Sequence[int]) -> int:
        """The number of ``action`` for a seat holding ``hand``."""
        for _, block in self._owners:
            if block.owns(action):
                return self.start(block) + block.offset(self, action, hand)
        raise ValueError(f"no block numbers {action}")  # (the calls' block owns every action: not reached)

    def _at(self, number: int) -> tuple[Block, int]:
        if not 0 <= number < self.size:
            raise ValueError(f"action number {number} is outside 0..{self.size - 1}")
        i = bisect_right(self.starts, number) - 1
        while self.blocks[i][1].size(self) == 0:  # (an empty block shares its start with the next)
            i += 1
        return self.blocks[i][1], number - self.starts[i]

    def action(self, number: int, hand: Sequence[int] = ()) -> Action:
        """The ``Action`` that ``number`` stands for, for a seat holding ``hand`` (an exchange's cards)."""
        block, offset = self._at(number)
        return block.action(self, offset, hand)

    def words(self, number: int, hand: Sequence[int] = ()) -> str:
        """``number`` in CONTRACT.md's words."""
        return str(self.action(number, hand))

    def mask(self, legal: Iterable[Action], hand: Sequence[int]) -> dict[int, Action]:
        """The legal actions by number."""
        return {self.index(a, hand): a for a in legal}

    def describe(self, number: int) -> str:
        """What action ``number`` stands for, in words, without a hand (an exchange by positions)."""
        block, offset = self._at(number)
        return block.describe(self, offset)

    # The first number of each built-in block, by the names the space always had.
    @property
    def look(self) -> int:
        start, size = self.block_of(Kind.CALL)
        return start + size - 1

    @property
    def discard(self) -> int:
        return self.block_of(Kind.DISCARD)[0]

    @property
    def play(self) -> int:
        return self.block_of(Kind.PLAY)[0]

    @property
    def trump(self) -> int:
        return self.block_of(Kind.TRUMP)[0]

    @property
    def exchange(self) -> int:
        return self.block_of(Kind.EXCHANGE)[0]


__all__ = ["ActionSpace"]
