"""Determinization: what one seat knows of a deal, and random deals of the rest consistent with it.

``seat_view(state, seat)`` is the one place a search bot touches the real
``GameState``.  It copies only what that seat may know: the public table
(statuses, calls, stakes, turned and shown cards, tricks, the stage reached),
the seat's own hand once looked, the events as that seat saw them (their secrets dropped), and the
facts it read there (cards played, voids shown, cards shown or taken from the
table, its own discards).  Every other card goes into one pool in canonical
order, with only the number of cards each place holds: so two states that
differ only in cards hidden from the seat give the same view.

``SeatView.sample(rng)`` deals the pool at random into the other hands, the
stock and the discard pile, respecting the voids a player showed and the
cards known to be in his hand, and returns a playable ``GameState``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence

from khrap import words as w
from khrap.bots.knowledge import DealFacts, deal_facts, deal_start
from khrap.engine import Action, GameState, IllegalAction
from khrap.engine.derived import hand_dealt
from khrap.engine.rules import pattern_card


def try_each(deal: GameState, candidates: Sequence[Action], seed: int,
             finish: Callable[[GameState, random.Random], float]) -> list[float] | None:
    """Each candidate applied to its own copy of ``deal``, every copy drawing from the same seed, then
    ``finish(copy, rng)``: the candidates compared on the same cards and the same luck (the search
    bots' one step).  None when a candidate is illegal on this deal: a seat that has not looked is
    dealt a random hand, which may not allow an action the real one does (a call that needs a card),
    and such a deal is not used."""
    row = []
    for action in candidates:
        sim = fast_clone(deal)
        sim.rng = random.Random(seed)
        try:
            sim.apply(action)
        except IllegalAction:
            return None
        row.append(finish(sim, random.Random(seed)))
    return row


def fast_clone(state: GameState) -> GameState:
    """A copy of ``state`` deep enough for play: lists, lists of lists, sets and dicts copied; rules shared."""
    try:
        fields = state.__getstate__()  # the kernel's attributes too, when it is compiled (docs/compiled.md)
    except TypeError:
        return copy.deepcopy(state)
    new = type(state).__new__(type(state))
    for key, value in fields.items():
        if isinstance(value, list):
            value = [x[:] if isinstance(x, list) else x for x in value]
        elif isinstance(value, (set, dict)):
            value = value.copy()
        elif hasattr(value, "__copy__"):  # e.g. the observations' per-seat lists: a copy starts its own
            value = copy.copy(value)
        object.__setattr__(new, key, value)
    return new


def _own_gone(state: GameState, seat: int, facts: DealFacts, on_table: set[int]) -> set[int]:
    """Cards the seat held or saw in its hand this deal that have left it face down."""
    seen = set(facts.own_seen) | facts.own_gone
    call = state.rules.calls.get(state.call_of[seat] or "")
    blind_throw = call is not None and call.requires.blind and (
        call.effects.discard_hand or call.effects.take_turned == "swap")
    if state.looked[seat] and not blind_throw and state.decks_dealt:
        deck, size = state.decks_dealt[-1], state.rules.hand_size
        seen |= set(hand_dealt(deck, state.dealer, state.n, size, seat))
    return seen - set(state.hands[seat]) - on_table


class SeatView:
    """One seat's knowledge of the deal in progress (build it with ``seat_view``)."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.seat = seat
        log = state.log[deal_start([e.kind for e in state.log]):]
        facts = deal_facts([e.data(seat) for e in log], seat)
        self.looked = state.looked[seat]
        on_table = set(state.won) | set(state.turned) | {c for _, c, _ in state.trick}
        own = set(state.hands[seat]) if self.looked else set()
        gone = _own_gone(state, seat, facts, on_table) if self.looked else set()
        known: dict[int, list[int]] = {}
        for other in range(state.n):
            if other == seat:
                continue
            cards = set(facts.public_in_hand.get(other, ())) | self._held_by_call(state, other)
            cards -= on_table | own | gone
            known[other] = sorted(cards)[: len(state.hands[other])]
        placed = set().union(*known.values()) if known else set()
        gone |= {c for s in known for c in facts.public_in_hand.get(s, ())} - placed - on_table - own
        self.known = known
        self.known_gone = sorted(gone)
        self.pool = [c for c in state.rules.deck if c not in on_table | own | placed | gone]
        trump = state.trump
        follow = state.rules.variant.play
        self.voids = facts.voids(trump, follow.follow_suit, follow.trump_if_void)
        self.played = {s: [c for p, c, _ in facts.played if p == s] for s in range(state.n)}
        self.sizes = {s: len(state.hands[s]) - len(known.get(s, ())) for s in range(state.n) if s != seat}
        if not self.looked:
            self.sizes[seat] = len(state.hands[seat])
        self.stock_count = len(state.stock)
        self.discard_count = max(0, len(state.discards) - len(self.known_gone))
        self.base = fast_clone(state)
        base = self.base
        base.log = [e.public_copy() for e in log]
        base.decks_dealt, base.scripted_decks, base.rng = [], [], random.Random(0)
        if hasattr(base, "last_legal"):
            base.last_legal = (None, [])
        for s in range(state.n):
            if s != seat or not self.looked:
                base.hands[s] = []
        base.stock, base.discards = [], []

    @staticmethod
    def _held_by_call(state: GameState, other: int) -> set[int]:
        """Cards a call's requirement proves the caller holds (kept unless played)."""
        call = state.rules.calls.get(state.call_of[other] or "")
        if call is None or call.effects.discard_hand and not call.effects.keep:
            return set()
        cards = {pattern_card(p, state.trump) for p in call.requires.holds}
        return {c for c in cards if c is not None}

    def sample(self, rng: random.Random) -> GameState:
        """A full deal consistent with the seat's knowledge, the hidden cards dealt at random."""
        pool = list(self.pool)
        rng.shuffle(pool)
        state = fast_clone(self.base)
        state.rng = random.Random(rng.getrandbits(32))
        order = sorted(self.sizes, key=lambda s: -len(self.voids.get(s, ())))
        for s in order:
            need = self.sizes[s]
            void = self.voids.get(s, set()) if s != self.seat else set()
            fits = [c for c in pool if c // 13 not in void][:need]
            if len(fits) < need:  # the facts were approximate: fill from anything
                fits += [c for c in pool if c not in fits][: need - len(fits)]
            taken = set(fits)
            pool = [c for c in pool if c not in taken]
            state.hands[s] = list(self.known.get(s, ())) + fits
        state.stock = pool[: self.stock_count]
        state.discards = self.known_gone + pool[self.stock_count:]
        if state.phase == w.PLAY_PHASE:
            for s in range(state.n):
                if s != self.seat or not self.looked:
                    state.held_at_play[s] = state.hands[s] + self.played.get(s, [])
        return state


def seat_view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` knows of ``state``'s deal: the only way a search bot reads the real state."""
    return SeatView(state, seat)


def determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    """One random deal consistent with what ``seat`` knows of ``state``."""
    return seat_view(state, seat).sample(rng)
