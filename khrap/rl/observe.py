"""A seat's observation (``Session.observation``) as a fixed-length vector of numbers.

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
        out = np.zeros(self.size, dtype=np.float32)
        seat, n, d = obs["seat"], self.n, len(self.deck)
        parse = lambda cards: [parse_card(c) for c in cards]  # noqa: E731
        at = self._cards(out, 0, parse(obs["hand"] or []))
        at = self._cards(out, at, parse(obs["turned"]))
        at = self._cards(out, at, parse(obs["shown"]))
        at = self._cards(out, at, deal_facts(obs["events"], seat).played_cards)
        trick = obs["trick"]
        for place in range(n):
            if place < len(trick):
                out[at + self.card_index[parse_card(trick[place][1])]] = 1.0
            at += d
        trump = obs["trump"]
        out[at + (4 if trump is None else parse_suit(trump))] = 1.0
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
