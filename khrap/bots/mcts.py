"""The search bot: determinized Monte Carlo search over the seat's information set.

At each decision with a choice, it deals the cards hidden from its seat at
random many times, consistently with what the seat has seen
(``khrap.bots.determinize``), plays every candidate action in each of those
deals and finishes the deal with heuristic play at every seat; it takes the
action with the best average result in chips.  Every candidate is tried on
the same deals (common random numbers), so the comparison is between actions,
not between lucky and unlucky deals.

A budget bounds the work: at most ``iterations`` playouts (default 400) and
at most ``steps`` simulated actions (default 3000, a bidding decision counting 4, which keeps a decision
under about 200 ms on the reference machine: a playout through all-pass
rounds costs many more steps than one through the last tricks), at least
MIN_SAMPLES deals; optionally ``ms`` of wall time as well.  Without ``ms``
the choice is a function of the seed alone, whatever the machine's speed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from khrap import words as w
from khrap.bots.determinize import SeatView, try_each
from khrap.bots.heuristic import HeuristicBot, info_from_state  # (the facts of a simulated deal)
from khrap.bots.position import seat_worth
from khrap.engine import Action, GameState, Rules
from khrap.engine.kinds import CALL

ITERATIONS = 400
STEPS = 3000
MAX_CANDIDATES = 8
MIN_SAMPLES = 6


class MctsBot:
    """Determinized search with heuristic playouts; needs its seat's view (``khrap.bots.choose_for``)."""

    name = "mcts"
    searches = True

    def __init__(self, rules: Rules, iterations: int = ITERATIONS, steps: int = STEPS, ms: float | None = None) -> None:
        self.rules = rules
        self.iterations = iterations
        self.steps = steps
        self.ms = ms
        self.heuristic = HeuristicBot(rules, cautious=True)

    def choose(self, observation: dict, legal: Sequence[Action], rng: random.Random,
               view: SeatView | None = None) -> Action:
        if not legal:
            raise ValueError(f"seat {observation.get('seat')} has no legal action")
        if len(legal) == 1 or view is None:
            return self.heuristic.choose(observation, legal, rng)
        default = self.heuristic.choose(observation, legal, random.Random(rng.random()))
        candidates = self._candidates(observation, legal, default)
        if len(candidates) == 1:
            return candidates[0]
        return self.search(view, candidates, default, rng)

    def _candidates(self, observation: dict, legal: Sequence[Action], default: Action) -> list[Action]:
        """At most MAX_CANDIDATES actions, the heuristic's choice first (exchanges ranked by the heuristic)."""
        rest = [a for a in legal if a != default]
        if len(rest) >= MAX_CANDIDATES and rest[0].word == w.EXCHANGE:
            from khrap.bots.heuristic import info_from_observation

            info = info_from_observation(observation, self.rules)
            score = self.heuristic.exchange_score(info)
            rest.sort(key=score, reverse=True)
        return [default, *rest[: MAX_CANDIDATES - 1]]

    def search(self, view: SeatView, candidates: list[Action], default: Action, rng: random.Random) -> Action:
        seat = view.seat
        totals = [0.0] * len(candidates)
        samples = 0
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        per_sample = len(candidates)
        budget = max(self.iterations, MIN_SAMPLES * per_sample)
        steps = tries = 0
        while samples * per_sample < budget and tries < 4 * budget:
            if samples >= MIN_SAMPLES and (steps >= self.steps or (
                    deadline is not None and time.perf_counter() > deadline)):
                break
            tries += per_sample
            deal = view.sample(rng)
            played = [0]  # the playouts' actions, counted even on a deal that is not used
            results = try_each(deal, candidates, rng.getrandbits(32), self._gain(seat, seat_worth(deal, seat), played))
            steps += played[0]
            if results is not None:
                totals = [t + r for t, r in zip(totals, results, strict=True)]
                samples += 1
        if samples == 0:
            return default
        best = max(range(len(candidates)), key=lambda i: (totals[i], candidates[i] == default))
        return candidates[best]

    def _gain(self, seat: int, before: float, played: list[int]):
        """A candidate's gain for ``seat``: the deal finished by the heuristic, its actions added to ``played``."""
        def finish(sim: GameState, luck: random.Random) -> float:
            played[0] += self.playout(sim, luck)
            return seat_worth(sim, seat) - before
        return finish

    def playout(self, state: GameState, rng: random.Random) -> int:
        """Finish the deal with the heuristic at every seat; the number of actions it took."""
        count = 1
        while state.pending is not None:
            count += 1
            legal = state.legal_actions()
            seat = state.to_act
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            if legal[0].word == w.LOOK or any(a.word == w.LOOK for a in legal):
                state.apply(next(a for a in legal if a.word == w.LOOK))
                continue
            if state.pending.kind is CALL:
                count += 3  # a bidding decision weighs its calls: it costs about four plain steps
            state.apply(self.heuristic.decide(info_from_state(state, seat), legal, rng, state.round))
        return count
