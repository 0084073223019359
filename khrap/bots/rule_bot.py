"""The rule-of-thumb bot: bids on a rough count of likely tricks, keeps high cards, wins tricks cheaply.

It reads its seat's view (the engine's typed ``SeatView``, or the observation dict), the legal actions
and the variant's (public) rules; nothing else.  Never a blind call: it looks at its cards first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from khrap import words as w
from khrap.bots.determinize import SeatView
from khrap.bots.heuristic import HeuristicBot
from khrap.cards import parse_card, parse_suit
from khrap.engine import Action, Rules
from khrap.engine.rules import pattern_card
from khrap.engine.trick import strength  # who beats whom, as the kernel decides it
from khrap.engine.view import SeatView as TypedView

# Likely tricks per card, by rank 2..A: a trump, and a card of another suit.
TRUMP_VALUE = (0.3, 0.3, 0.3, 0.3, 0.35, 0.35, 0.4, 0.5, 0.6, 0.75, 0.9, 1.0, 1.0)
SIDE_VALUE = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0.05, 0.1, 0.35, 0.75)
UNKNOWN_CARD = 0.25  # a card still to be drawn
DECLARER_MARGIN = 0.25  # a declarer wants a little more than his obligation


class Seen(NamedTuple):
    """What the rule bot reads of its seat's view, in card ints."""

    seat: int
    hand: list[int] | None
    trump: int | None
    turned: list[int]
    trick: list[tuple[int, bool]]  # (card, played as the joker), in order
    statuses: list[str]


def seen(observation: dict | TypedView) -> Seen:
    """The engine's typed view as it is; an observation dict's card words parsed (a caller's own dict)."""
    if isinstance(observation, TypedView):
        assert observation.seat is not None, "a seat's view: a spectator decides nothing"
        return Seen(observation.seat, observation.hand, observation.trump, observation.turned,
                    [(c, bool(j)) for _, c, j in observation.trick], observation.statuses)
    obs = observation
    return Seen(obs["seat"], None if obs["hand"] is None else [parse_card(c) for c in obs["hand"]],
                None if obs["trump"] is None else parse_suit(obs["trump"]), [parse_card(c) for c in obs["turned"]],
                [(parse_card(c), bool(j)) for _, c, j in obs["trick"]], obs["statuses"])


class RuleBot:
    """Rules of thumb, from its own hand and the table only."""

    name = "rule"
    reads_view = True  # ``choose_for`` hands it the engine's typed seat view, not the observation dict

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.joker = rules.joker
        self._weigher: HeuristicBot | None = None  # weighs a decision of a kind it has no rule for

    def needs_view(self, legal: Sequence[Action]) -> bool:
        """Whether this decision is weighed on sampled deals: a kind it has no rule for (see ``HeuristicBot``)."""
        return self._heuristic().needs_view(legal)

    def _heuristic(self) -> HeuristicBot:
        if self._weigher is None:
            self._weigher = HeuristicBot(self.rules)
        return self._weigher

    # ---------------------------------------------------------- valuation
    def value(self, card: int, trump: int | None) -> float:
        if card == self.joker:
            return 1.0
        table = TRUMP_VALUE if trump is not None and card // 13 == trump else SIDE_VALUE
        return table[card % 13]

    def estimate(self, hand: Sequence[int], trump: int | None) -> float:
        return sum(self.value(c, trump) for c in hand)

    def best_suit(self, hand: Sequence[int]) -> int:
        return max(range(4), key=lambda s: sum(1 + (c % 13) / 12 for c in hand if c // 13 == s))

    # ---------------------------------------------------------- choosing
    def choose(self, observation: dict | TypedView, legal: Sequence[Action], rng: random.Random,
               view: SeatView | None = None) -> Action:
        if not legal:
            seat = observation.seat if isinstance(observation, TypedView) else observation.get("seat")
            raise ValueError(f"seat {seat} has no legal action")
        if self.needs_view(legal):  # a kind of decision it has no rule for: each answer played out
            return self._heuristic().weigh(legal, rng, view)
        obs = seen(observation)
        hand, trump = obs.hand, obs.trump
        word = legal[0].word
        if hand is None:
            looks = [a for a in legal if a.word == w.LOOK]
            return looks[0] if looks else legal[0]
        if word == w.PLAY:
            return self._play(obs, legal, trump)
        if word == w.DISCARD:
            return min(legal, key=lambda a: (self.value(a.cards[0], trump), a.cards[0] % 13))
        if word == w.EXCHANGE:
            return self._exchange(obs, legal, hand, trump)
        if word == w.TRUMP:
            best = self.best_suit(hand)
            return next((a for a in legal if a.suit == best), legal[0])
        return self._call(obs, legal, hand, trump, rng)

    def _call(self, obs: Seen, legal: Sequence[Action], hand: list[int], trump: int | None,
              rng: random.Random) -> Action:
        passes, options = [], []
        for action in legal:
            call = self.rules.calls.get(action.word)
            if call is None or call.requires.blind:
                continue
            status = call.effects.status
            if status == w.OUT:
                passes.append(action)
                continue
            need = self.rules.variant.statuses[status].tricks
            declarer = status == w.DECLARER
            margin = self._expected(call, action, hand, trump, declarer, obs) - need
            options.append((declarer, margin, action))
        good = [o for o in options if o[1] >= (DECLARER_MARGIN if o[0] else 0.0)]
        # a call that throws the hand for unseen cards is a gamble: take a marginal one half the time
        good = [o for o in good if not self._gamble(o, rng)]
        if good:
            return max(good, key=lambda o: (o[0], o[1]))[2]
        if passes:
            return passes[0]
        if options:
            return max(options, key=lambda o: o[1])[2]
        return next((a for a in legal if a.word != w.LOOK), legal[0])

    def _gamble(self, option: tuple[bool, float, Action], rng: random.Random) -> bool:
        """True to skip a marginal call that throws the hand (a coin decides)."""
        declarer, margin, action = option
        call = self.rules.calls[action.word]
        return call.effects.discard_hand and margin < 0.5 and rng.random() < 0.5

    def _expected(self, call, action: Action, hand: list[int], trump: int | None, declarer: bool, obs: Seen) -> float:
        """Likely tricks after making ``call`` (its draws counted as average cards)."""
        if trump is None and declarer and self.rules.variant.trump.source == "named":
            trump = self.best_suit(hand)
        effects = call.effects
        if not effects.discard_hand:
            return self.estimate(hand, trump)
        keep = {pattern_card(p, trump) for p in effects.keep}
        kept = [c for c in hand if c in keep]
        if effects.take_turned == "yes" or action.take_turned:
            kept += obs.turned[-1:]
        return self.estimate(kept, trump) + max(0, self.rules.hand_size - len(kept)) * UNKNOWN_CARD

    def _exchange(self, obs: Seen, legal: Sequence[Action], hand: list[int], trump: int | None) -> Action:
        if trump is None and obs.statuses[obs.seat] == w.DECLARER and self.rules.variant.trump.source == "named":
            trump = self.best_suit(hand)

        def score(action: Action) -> tuple[float, int]:
            weak = sum(1 if self.value(c, trump) < 0.3 else -3 for c in action.cards)
            return weak, len(action.cards)

        return max(legal, key=score)

    # ---------------------------------------------------------- playing
    def _play(self, obs: Seen, legal: Sequence[Action], trump: int | None) -> Action:
        trick = obs.trick
        if not trick:
            return self._lead(legal, trump)
        led = None if trick[0][1] else trick[0][0] // 13
        best = max(strength(c, j, led, trump) for c, j in trick)
        winners = [a for a in legal if strength(a.cards[0], a.joker, led, trump) > best]
        if winners:
            return min(winners, key=lambda a: (a.joker, strength(a.cards[0], a.joker, led, trump)))
        return min(legal, key=lambda a: (a.joker, self.value(a.cards[0], trump), a.cards[0] % 13))

    def _lead(self, legal: Sequence[Action], trump: int | None) -> Action:
        plain = [a for a in legal if not a.joker]
        aces = [a for a in plain if a.cards[0] % 13 == 12 and a.cards[0] // 13 != trump]
        if aces:
            return aces[0]
        trumps = sorted((a for a in plain if a.cards[0] // 13 == trump), key=lambda a: a.cards[0])
        if len(trumps) >= 2:
            return trumps[-1]
        pool = plain or list(legal)
        return min(pool, key=lambda a: (self.value(a.cards[0], trump), a.cards[0] % 13))
