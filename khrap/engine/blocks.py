"""Codec blocks: each kind of decision's part of the one integer action space (``action_space``).

A decision of the registry (``compiled/face.py``: ``Decision.block``) declares its block: how many
numbers it needs for a rules program, and how an ``Action`` of its kind reads as a number inside the
block and back.  ``ActionSpace`` lays the registry's blocks end to end, in the registry's order, so a
new kind of decision gets its numbers with no edit there.

An exchange and a swapping call are numbered against the hand (the acting seat's cards): draws are
from the top of the stock, as the kernel lists them (a typed ``from`` is not numbered).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

from khrap import words as w
from khrap.engine.actions import Action, call_forms

if TYPE_CHECKING:
    from khrap.engine.action_space import ActionSpace


class Block(ABC):
    """A decision kind's numbers: ``size`` of them; ``owns`` an action; its offset; the action of an offset."""

    word: str | None = None  # the word every action of the block begins with (None: see ``owns``)
    catch_all = False  # it owns every action no other block owns (tested last)

    @abstractmethod
    def size(self, space: ActionSpace) -> int:
        """(each kind's block says)"""

    def owns(self, action: Action) -> bool:
        return action.word == self.word

    @abstractmethod
    def offset(self, space: ActionSpace, action: Action, hand: Sequence[int]) -> int:
        """(each kind's block says)"""

    @abstractmethod
    def action(self, space: ActionSpace, offset: int, hand: Sequence[int]) -> Action:
        """(each kind's block says)"""

    def describe(self, space: ActionSpace, offset: int) -> str:
        """The action of ``offset`` in words, without a hand."""
        return str(self.action(space, offset, ()))


class CallsBlock(Block):
    """Each call form (the call; ``CALL trump`` where the turned card is optional; ``CALL N`` for each hand
    position where the call swaps), then ``look``.  It owns every action no other block owns."""

    catch_all = True

    def forms(self, space: ActionSpace) -> list[Action]:
        """The call forms of ``space``'s rules, made once per space (kept in its ``memo``)."""
        found = space.memo.get("call forms")
        if found is None:
            found = []
            for cid, call in space.rules.calls.items():
                found += call_forms(cid, call.effects.take_turned, space.positions)
            space.memo["call forms"] = found
            space.memo["call index"] = {a: i for i, a in enumerate(found)}
        return found

    def size(self, space: ActionSpace) -> int:
        return len(self.forms(space)) + 1

    def owns(self, action: Action) -> bool:
        return True

    def offset(self, space: ActionSpace, action: Action, hand: Sequence[int]) -> int:
        forms = self.forms(space)
        if action.word == w.LOOK:
            return len(forms)
        return space.memo["call index"][Action(action.word, position=action.position,
                                                    take_turned=action.take_turned)]

    def action(self, space: ActionSpace, offset: int, hand: Sequence[int]) -> Action:
        forms = self.forms(space)
        return forms[offset] if offset < len(forms) else Action(w.LOOK)


class CardBlock(Block):
    """``WORD CARD`` for each card of the deck, in deck order; with ``joker``, then ``WORD JOKER joker``."""

    def __init__(self, word: str, joker: bool = False) -> None:
        self.word = word
        self.joker = joker

    def size(self, space: ActionSpace) -> int:
        return len(space.deck) + (1 if self.joker and space.rules.joker is not None else 0)

    def offset(self, space: ActionSpace, action: Action, hand: Sequence[int]) -> int:
        return len(space.deck) if action.joker else space.card_index[action.cards[0]]

    def action(self, space: ActionSpace, offset: int, hand: Sequence[int]) -> Action:
        if offset < len(space.deck):
            return Action(self.word, cards=(space.deck[offset],))
        assert space.rules.joker is not None
        return Action(self.word, cards=(space.rules.joker,), joker=True)


class SuitBlock(Block):
    """``WORD S``, ``WORD H``, ``WORD D``, ``WORD C``."""

    def __init__(self, word: str) -> None:
        self.word = word

    def size(self, space: ActionSpace) -> int:
        return 4

    def offset(self, space: ActionSpace, action: Action, hand: Sequence[int]) -> int:
        assert action.suit is not None
        return action.suit

    def action(self, space: ActionSpace, offset: int, hand: Sequence[int]) -> Action:
        return Action(self.word, suit=offset)


class SubsetBlock(Block):
    """A subset of the hand by position: bit i throws the i-th card of the hand in canonical order (a hand
    has at most ``hand_size + 1`` positions)."""

    def __init__(self, word: str) -> None:
        self.word = word

    def size(self, space: ActionSpace) -> int:
        return 2**space.positions

    def offset(self, space: ActionSpace, action: Action, hand: Sequence[int]) -> int:
        order = sorted(hand)
        return sum(1 << order.index(c) for c in action.cards)

    def action(self, space: ActionSpace, offset: int, hand: Sequence[int]) -> Action:
        order = sorted(hand)
        if offset >> len(order):
            raise ValueError(f"action number {space.start(self) + offset} throws a card beyond the hand's "
                             f"{len(order)}")
        return Action(self.word, cards=tuple(c for i, c in enumerate(order) if offset >> i & 1))

    def describe(self, space: ActionSpace, offset: int) -> str:
        return f"{self.word} positions " + " ".join(str(i + 1) for i in range(space.positions) if offset >> i & 1)


class WordsBlock(Block):
    """A decision a rule offers (``Derived.offers``), answered by one of a fixed list of words, in order: numbered
    only for rules that offer it (else the block is empty, and the space as it is without the rule)."""

    def __init__(self, words: Sequence[str], kind: str) -> None:
        self.words = tuple(words)
        self.kind = kind

    def size(self, space: ActionSpace) -> int:
        offered = any(offer.decision == self.kind for offer in space.rules.derived.offers)
        return len(self.words) if offered else 0

    def owns(self, action: Action) -> bool:
        return action.word in self.words and not action.cards

    def offset(self, space: ActionSpace, action: Action, hand: Sequence[int]) -> int:
        return self.words.index(action.word)

    def action(self, space: ActionSpace, offset: int, hand: Sequence[int]) -> Action:
        return Action(self.words[offset])


__all__ = ["Block", "CallsBlock", "CardBlock", "SubsetBlock", "SuitBlock", "WordsBlock"]
