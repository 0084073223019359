"""A variant compiled for play: the schema's fields turned into quick look-ups."""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from khrap.cards import SUITS, build_deck, card_str, parse_card, parse_rank
from khrap.engine.derived import Derived
from khrap.variant.derived import clockwise_from, deck_for, enabled
from khrap.variant.schema import (
    Call,
    CardPattern,
    Variant,
)


class RulesError(ValueError):
    """The variant cannot be played as asked (e.g. with that many players)."""


def deck_ranks(variant: Variant, players: int) -> list[int]:
    """The ranks of the deck used by this many players (which: ``deck_for``, the one definition)."""
    ranks = deck_for(variant, players)
    if ranks is None:
        raise RulesError(f"no deck is given for {players} players")
    if not ranks:
        raise RulesError("the deck lists no ranks")
    return [parse_rank(r) for r in ranks]


def pattern_card(pattern: CardPattern, trump: int | None) -> int | None:
    """The card a pattern names, or None when it names trump and there is none yet."""
    rank = parse_rank(pattern.rank)
    if pattern.suit == "trump":
        return None if trump is None else trump * 13 + rank
    return SUITS.index(pattern.suit) * 13 + rank


def compile_pattern(pattern: CardPattern) -> tuple[int, int | None]:
    """(rank, suit) of a card pattern; suit None stands for the trump suit."""
    suit = None if pattern.suit == "trump" else SUITS.index(pattern.suit)
    return parse_rank(pattern.rank), suit


@dataclass
class Rules:
    """The variant at a fixed number of players, ready for the kernel."""

    variant: Variant
    players: int
    deck: list[int] = field(init=False)
    calls: dict[str, Call] = field(init=False)
    joker: int | None = field(init=False)
    derived: Derived = field(init=False)

    def __post_init__(self) -> None:
        v = self.variant
        if not v.players.min <= self.players <= v.players.max:
            raise RulesError(f"this variant is for {v.players.min} to {v.players.max} players, not {self.players}")
        self.deck = build_deck(deck_ranks(v, self.players))
        self.calls = enabled(v)  # the calls switched on, in the variant's order
        self.joker = parse_card(v.joker.card) if v.joker else None
        self.derived = Derived(v)  # every derived fact of the variant, computed once
        # Every seat clockwise from each seat (``clockwise_from``, the arithmetic of ``deal_order`` too).
        self.orders = [clockwise_from(start, self.players) for start in range(self.players)]
        self.preconditions: dict[tuple[str, bool], tuple] = {}  # each call's table, compiled when first used
        self._program = None  # the compiled Program, made when first asked for (``program``)
        self._action_space = None  # the numbered actions, made when first asked for (``action_space``)

    def __reduce__(self) -> tuple[type[Rules], tuple[Variant, int]]:
        """Rules pickle as the variant and the player count they are made from (pickling a ``GameState`` for
        another process: Dask, multiprocessing); the compiled program and the tables are made again there."""
        return Rules, (self.variant, self.players)

    def __copy__(self) -> Rules:
        new = Rules.__new__(Rules)
        new.__dict__.update(self.__dict__)
        return new

    def __deepcopy__(self, memo: dict) -> Rules:
        """Copied field by field, as before ``__reduce__`` (a copied session's rules keep the program, which
        never changes: ``Program.__deepcopy__``), not made again from the variant."""
        new = Rules.__new__(Rules)
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new

    @property
    def program(self):
        """The rules compiled for the kernel (``compiled.Program``), made once per ``Rules``."""
        found = self._program
        if found is None:
            from khrap.engine.compiled.program import Program  # the program module imports this one

            found = self._program = Program(self)
        return found

    @property
    def action_space(self):
        """The one integer action space of these rules (``engine.action_space.ActionSpace``), made once."""
        found = self._action_space
        if found is None:
            from khrap.engine.action_space import ActionSpace  # the action space module imports this one

            found = self._action_space = ActionSpace(self)
        return found

    def complete_deck(self, listed: list[int]) -> list[int]:
        """A shuffle given by its top cards: the listed cards, then the rest in canonical order."""
        seen: set[int] = set()
        for card in listed:
            if card in seen:
                raise RulesError(f"{card_str(card)} is listed twice")
            if card not in self.deck:
                raise RulesError(f"{card_str(card)} is not in the deck of this variant for {self.players} players")
            seen.add(card)
        return list(listed) + [c for c in self.deck if c not in seen]

    @property
    def hand_size(self) -> int:
        return self.variant.hand_size

    @property
    def stages(self) -> list:
        return self.variant.stages


SHARED_LIMIT = 256
"""Rules kept by ``shared_rules``: the (rules content, players) pairs last asked for (a server's tables play a few
rule sets at a few table sizes; a house rule's tables share theirs while it is among the newest)."""

_SHARED: OrderedDict[tuple[str, int], Rules] = OrderedDict()
_SHARED_LOCK = threading.Lock()  # (the web server makes tables in threads)


def content_key(variant: Variant) -> str:
    """SHA-256 of the variant's canonical JSON: equal for variants of equal fields, whatever object holds them."""
    text = json.dumps(variant.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def shared_rules(variant: Variant, players: int) -> Rules:
    """One ``Rules`` (and its compiled program) for every table of the same rules content and player count.

    Safe to share because a ``Rules`` never changes once made: what it fills in later (``program``,
    ``action_space``, the preconditions' tables, the program's and listers' memos) is a function of the rules
    alone, never of a game (``tests/test_shared_rules.py``).  A variant must not be changed once made (nothing
    in the project does: ``session.record`` shares validated variants the same way).  The newest ``SHARED_LIMIT``
    pairs are kept.  RulesError as ``Rules`` gives it."""
    key = (content_key(variant), players)
    with _SHARED_LOCK:
        found = _SHARED.get(key)
        if found is not None:
            _SHARED.move_to_end(key)
            return found
    made = Rules(variant, players)  # (made outside the lock: two threads may both make it; one is kept)
    made.program  # noqa: B018  (made before it is shared: no two programs for one Rules made in two threads)
    with _SHARED_LOCK:
        found = _SHARED.setdefault(key, made)
        _SHARED.move_to_end(key)
        while len(_SHARED) > SHARED_LIMIT:
            _SHARED.popitem(last=False)
    return found
