"""A seat's view (the engine's ``SeatView``, or its observation dict) as a fixed-length vector of numbers.

Seats are counted from the observing seat (0 = itself, 1 = its left, ...).
Blocks, in order: own hand, turned cards, shown cards, cards played earlier
in the deal, the current trick (one block per place in the trick), the trump
suit, the phase, per seat (status, last call, tricks, hand size, stack, locked,
dealer, to act), then pot, stock and discard counts and the bidding round.
Chips are divided by the opening pot (every player's ante), counts by the
deck's size.
"""

from __future__ import annotations

import numpy as np

from khrap import words as w
from khrap.bots.knowledge import deal_facts
from khrap.cards import parse_card, parse_suit
from khrap.engine import Rules
from khrap.engine.resample import facts_of
from khrap.engine.view import SeatView

PHASES = (w.BIDDING, w.OFFERS, w.EXCHANGE_PHASE, w.TRUMP_PHASE, w.PLAY_PHASE, w.SETTLED)
STATUSES = (w.UNDECIDED, w.DECLARER, w.HELPER, w.OUT)


class Encoder:
    """Observation dicts of ``rules``' table as float32 vectors of ``size``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.n = rules.players
        self.deck = list(rules.deck)
        self.card_index = {c: i for i, c in enumerate(self.deck)}
        self.call_ids = list(rules.calls)
        v = rules.variant
        self.scale = max(1, v.ante.amount) * v.base_stake * self.n
        d = len(self.deck)
        self.per_seat = len(STATUSES) + len(self.call_ids) + 1 + 6
        self.size = d * (4 + self.n) + 5 + len(PHASES) + self.n * self.per_seat + 4

    def _cards(self, out: np.ndarray, at: int, cards) -> int:
        for c in cards:
            out[at + self.card_index[c]] = 1.0
        return at + len(self.deck)

    def encode(self, obs: dict) -> np.ndarray:
        """The vector of an observation dict (cards in CONTRACT.md notation, read back to ints)."""
        parse = lambda cards: [parse_card(c) for c in cards]  # noqa: E731
        trump = obs["trump"]
        return self._vector(
            obs, parse(obs["hand"] or []), parse(obs["turned"]), parse(obs["shown"]),
            deal_facts(obs["events"], obs["seat"]).played_cards, [parse_card(t[1]) for t in obs["trick"]],
            None if trump is None else parse_suit(trump))

    def encode_view(self, view: SeatView) -> np.ndarray:
        """The vector of the engine's typed seat view (``engine.view``): its int cards and typed events,
        nothing parsed; the same vector as ``encode`` of its observation."""
        assert view.seat is not None, "a seat's view: the vector counts seats from the observing seat"
        table = {"seat": view.seat, "phase": view.phase, "statuses": view.statuses, "calls": view.calls,
                 "tricks": view.tricks, "hand_sizes": view.hand_sizes, "stacks": view.stacks,
                 "locked": view.locked, "dealer": view.dealer, "to_act": view.to_act, "pot": view.pot,
                 "stock_count": view.stock_count, "discard_count": view.discard_count, "round": view.round}
        return self._vector(table, view.hand or [], view.turned, view.shown,
                            facts_of(view.events, view.seat).played_cards, [c for _, c, _ in view.trick],
                            view.trump)

    def _vector(self, obs: dict, hand, turned, shown, played, trick: list[int], trump: int | None) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        seat, n, d = obs["seat"], self.n, len(self.deck)
        at = self._cards(out, 0, hand)
        at = self._cards(out, at, turned)
        at = self._cards(out, at, shown)
        at = self._cards(out, at, played)
        for place in range(n):
            if place < len(trick):
                out[at + self.card_index[trick[place]]] = 1.0
            at += d
        out[at + (4 if trump is None else trump)] = 1.0
        at += 5
        out[at + PHASES.index(obs["phase"])] = 1.0
        at += len(PHASES)
        for rel in range(n):
            s = (seat + rel) % n
            out[at + STATUSES.index(obs["statuses"][s])] = 1.0
            call = obs["calls"][s]
            if call in self.call_ids:
                out[at + len(STATUSES) + self.call_ids.index(call)] = 1.0
            base = at + len(STATUSES) + len(self.call_ids)
            out[base] = obs["tricks"][s] / self.rules.hand_size
            out[base + 1] = obs["hand_sizes"][s] / self.rules.hand_size
            out[base + 2] = obs["stacks"][s] / self.scale / 10
            out[base + 3] = obs["locked"][s] / self.scale
            out[base + 4] = float(obs["dealer"] == s)
            out[base + 5] = float(obs["to_act"] == s)
            at += self.per_seat
        out[at] = obs["pot"] / self.scale
        out[at + 1] = obs["stock_count"] / d
        out[at + 2] = obs["discard_count"] / d
        out[at + 3] = obs["round"] / max(1, self.rules.variant.all_pass.rounds)
        return out
