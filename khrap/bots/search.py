"""The search bot: sampled deals weighted by the bidding, each solved exactly for the card play.

At a decision with a choice it deals the cards hidden from its seat many
times, consistently with what the seat has seen (``khrap.bots.determinize``:
cards played, voids shown, cards shown or taken, its own exchanges), and
weights each deal by how likely the other seats' calls were with the hands it
gives them, relative to hands dealt at random (``likelihood``: the bots' hand
model and a density ratio fitted per variant).  On each deal:

* in the card play, the exact solver (``khrap.bots.solver``) gives the value in
  chips of every legal card with all hands open;
* before it (calls, exchanges, discards, naming trump), each candidate is
  applied, the heuristic plays on to the card play, and the solver finishes the
  deal exactly from the last ``SOLVE_CARDS`` cards in the hands (heuristic play
  before them, and to the end when the seat is not in play).

Every candidate is tried on the same deals.  The heuristic's choice stands
unless another candidate beats it *significantly* on the samples: its weighted
mean gain over the heuristic's choice exceeds ``critical`` standard errors (the
best of several noisy means is biased up, so the bar rises with the number of
candidates and as the samples shrink), on at least the variant's ``min_effective`` samples.

Search is spent only where it can change the choice: not on a forced card nor on cards equivalent from
the seat's view (``distinct_cards``); not on a decision whose samples cannot reach ``min_effective``; and
the sampling stops once the choice is made (``_race``): every rival of the prior's choice dropped because
it cannot clear the bar on the samples its work allows.

The normal stop is a budget of work (``CALL_WORK`` before the card play,
``PLAY_WORK`` in it, in solver nodes), so a decision does the same work, and
makes the same choice, at any machine load.  Everything a decision repeats is
charged by what it costs in solver nodes: each sampled deal and the weighing of
each seat's calls on it, each candidate's copy of the deal, each playout step
(a heuristic decision more with more options), each settlement the solver
asks for; so a decision's time is about its budget whatever its shape.
Time is a hard limit only: a decision ends by ``ms`` milliseconds (default
``WALL_MS``) whatever the work done, checked inside the solver and inside every
playout, not only between samples; an unfinished sample is dropped.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from khrap import words as w
from khrap.bots.determinize import SeatView, try_each
from khrap.bots.estimate import Estimator
from khrap.bots.heuristic import HeuristicBot, info_from_observation, info_from_state
from khrap.bots.mcts import MctsBot
from khrap.bots.position import Kernel, in_card_play, position_of, seat_worth
from khrap.bots.solver import Solver, SolverTimeout, chips_of
from khrap.engine import Action, GameState, Rules

CALL_WORK = 17_000  # the work of a decision before the card play, in solver nodes (docs/solver.md, "Budget") ...
PLAY_WORK = 20_000  # ... and of one in the card play: the normal stop, the same whatever the machine's load
# What else a decision does, charged in solver nodes (about 6 us each) by what it costs (docs/solver.md):
SAMPLE_WORK = 10  # a deal dealt from the seat's view ...
WEIGH_WORK = 3  # ... and each other seat's calls weighed on it (``likelihood``)
TRY_WORK = 8  # a candidate tried on a deal: the deal copied, the candidate applied
SETTLE_WORK = 8  # a settlement the solver asks the kernel for (a copy of the deal settled)
APPLY_WORK = 2  # a playout step without a choice (one legal action, a look)
STEP_WORK = 6  # a heuristic card play in a playout ...
CALL_STEP_WORK = 12  # ... any other heuristic decision in a playout (calls, exchanges, discards) ...
OPTION_WORK = 3  # ... and this much more for each of its legal actions, up to OPTIONS_CHARGED
OPTIONS_CHARGED = 8
WALL_MS = 400.0  # the hard limit of any decision on the wall clock, whatever the work done (never above 1 s)
CALL_SAMPLES = 400  # at most this many deals for a decision before the card play ...
PLAY_SAMPLES = 60  # ... and in the card play
SOLVE_CARDS = 8  # before the card play, the solver finishes a deal from this many cards left (the heuristic
# plays the tricks before: a full solve costs more samples than its exactness is worth there)
RACE_FROM = 6  # from this many samples on (the variant's ``race_from`` if set), a rival of the prior's choice that
# cannot win is dropped (``_race``) ...
DROP_ERRORS = 1.0  # ... cannot: its mean gain over the prior's choice plus this many standard errors is below the bar
# it would have to clear at the decision's end (``critical`` times its standard error then, projected from the
# samples the work left allows at the pace so far, counted without weights, so the bar is if anything low).  A
# rival whose gain is real but too small to be shown on the samples left could not be chosen anyway.  A decision
# whose every rival is dropped stops; one whose rival clears the variant's ``exchange_stop`` or ``call_stop`` times its
# bar stops too (``_won``: set high for calls, whose rare big loss 15 samples often miss: "Why at least 15").
PACE_FROM = 3  # a decision whose work left cannot reach ``min_effective`` samples (counted) at the pace of its
# samples so far stops after this many (the variant's ``pace_from`` if set): nothing could override the prior's
# choice (a first-trick card decision in khrap solves 16 cards per candidate per sample, and its budget holds 5-45
# samples).
SHARE_SETTLEMENTS = True  # the samples of a card-play decision share their settlements (``_solve``)
ALPHA = 0.05  # the chance of overriding the heuristic when no candidate is better, all candidates together
EVIDENCE_CAP = 3.0  # one seat's calls move a deal's weight by at most e ** 3 either way (the model is only a model)


def critical(alternatives: int, df: float) -> float:
    """The one-sided critical value for the best of ``alternatives`` gains, each a mean with ``df`` degrees
    of freedom: Student's t at level ALPHA / alternatives (Bonferroni; Cornish-Fisher expansion of t)."""
    z = NormalDist().inv_cdf(1 - ALPHA / max(1, alternatives))
    df = max(1.0, df)
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def step_work(legal: Sequence[Action]) -> int:
    """The charge of one heuristic decision in a playout among ``legal`` (with its step): a card play costs
    about STEP_WORK nodes; a call, an exchange or a discard weighs its options with the hand model, so it
    costs more, and more with more options (measured: docs/solver.md, "Budget")."""
    if legal[0].word == w.PLAY:
        return STEP_WORK
    return CALL_STEP_WORK + OPTION_WORK * min(len(legal), OPTIONS_CHARGED)


def sample_work(deal: GameState, seat: int) -> int:
    """The charge of dealing one sample and weighing the other seats' calls on it (``likelihood``)."""
    return SAMPLE_WORK + WEIGH_WORK * sum(1 for s in range(deal.n) if s != seat and deal.call_of[s] is not None)


def distinct_cards(view: SeatView, legal: Sequence[Action], default: Action) -> list[Action]:
    """The legal cards less those equivalent to one kept: two cards of one suit in the seat's hand with no card
    between them that another hand may hold (any card the seat has not seen played, discarded or in its own
    hand) or that lies on the open trick are the same play in every deal the view can sample: the solver's
    own rule (``Solver._distinct``), read from what the seat knows.  So their values are equal on every sample
    and only one is searched (the prior's ``default`` for its class).  A card played as the joker, or the
    joker itself, is its own class; where a penalty reads the cards held at the end, every card is."""
    base = view.base
    if base.program.penalties_read_held:
        return list(legal)
    live = 0
    for card in view.pool:
        live |= 1 << card
    for cards in view.known.values():
        for card in cards:
            live |= 1 << card
    for _, card, _ in base.trick:
        live |= 1 << card
    joker = base.rules.joker
    ranked = sorted((a.cards[0], i) for i, a in enumerate(legal) if not a.joker and a.cards[0] != joker)
    group: dict[int, int] = {}  # index in legal -> index of its class's first card
    for (low, i), (high, j) in zip(ranked, ranked[1:], strict=False):
        if low // 13 == high // 13 and not live & ((1 << high) - (1 << (low + 1))):
            group[j] = group.get(i, i)
    keep: dict[int, int] = {}  # class -> the index kept
    d = legal.index(default)
    keep[group.get(d, d)] = d
    for i in range(len(legal)):
        keep.setdefault(group.get(i, i), i)
    chosen = set(keep.values())
    return [a for i, a in enumerate(legal) if i in chosen]


class OutOfTime(Exception):
    """The decision's hard time limit passed."""


class SearchBot:
    """Bidding-weighted determinized search, the card play solved exactly; needs its seat's view."""

    name = "search"
    searches = True

    def __init__(self, rules: Rules, ms: float | None = None, samples: int | None = None,
                 timed: bool = True, work: int | None = None, cautious: bool = False, gated: bool = True) -> None:
        """``work``: the work of every decision in solver nodes (default CALL_WORK / PLAY_WORK), its normal
        stop; ``ms``: the hard limit of every decision on the wall clock (default WALL_MS); ``samples``: at
        most this many deals per decision (default CALL_SAMPLES / PLAY_SAMPLES); ``timed=False`` (tests):
        no clock, the choice a function of the seed alone; ``cautious``: the prior and the playouts bid as the
        older cautious heuristic (before issue 29), for comparison."""
        self.rules = rules
        self.ms = ms
        self.samples = samples
        self.timed = timed
        self.work = work
        self.gated = gated  # a call the prior finds far ahead (the variant's ``call_gate``) is not searched
        self.margins = False  # the prior's margin worked out (into ``last``) at every decision, gated or not
        # The prior and every seat of the playouts bid as the normal bot: a call whenever it beats what
        # passing keeps (issue 29).  The samples then value a pass by what the others really do after it.
        self.heuristic = HeuristicBot(rules, cautious=cautious)
        self.est = Estimator(rules)
        self._flat = MctsBot(rules)  # for its candidate ranking
        self._left = 0.0  # the work left to the decision under way
        self._alive: list[bool] = []  # which candidates of the decision under way are still tried
        self._settled: dict = {}  # the settlements of the card-play decision under way, shared by its samples
        # ... and of any leaf of the decision under way, by what the kernel's settlement reads (``Kernel.settles_as``)
        self._alike: dict = {}
        self._legal: dict = {}  # per trump, the solvers' legal plays of the decision under way (``Solver``)
        self._seen: list[tuple[float, float]] | None = None  # the race's gains on the samples so far (``_drop``)
        self._early: dict = {}  # with ``margins``: the best rival's gain and the work when the race starts
        self._stop = 0.0  # the decision under way stops once a rival clears this many times its bar (0: never)
        self._race_from = self._pace_from = 0  # the samples the race starts at, the pace is judged from: ``_starts``
        self._starts()
        self.trace: list | None = None  # (benchmarks) if a list: each sample of the decision under way appended to it
        self.last: dict = {}  # what the last decision found (samples, means), for tests and benchmarks

    # ---------------------------------------------------------------- the decision
    def choose(self, observation: Any, legal: Sequence[Action], rng: random.Random,
               view: SeatView | None = None) -> Action:
        start = time.perf_counter()
        self.last = {}  # a decision it does not search must not show the one before's (overrides counted from it)
        if not legal:
            raise ValueError(f"seat {observation.get('seat')} has no legal action")
        if len(legal) == 1 or view is None:
            return self.heuristic.choose(observation, legal, rng)
        default = self.heuristic.choose(observation, legal, random.Random(rng.random()))
        playing = legal[0].word == w.PLAY
        ms = self.ms if self.ms is not None else WALL_MS
        deadline = start + ms / 1000 if self.timed else None
        cap = self.samples or (PLAY_SAMPLES if playing else CALL_SAMPLES)
        self._left = float(self.work if self.work is not None else (PLAY_WORK if playing else CALL_WORK))
        if playing and self.gated and 0 < self.hand_gate(w.PLAY) < view.held:
            self.last = {"margin": None, "gated": True}
            return default  # an early trick: as below, before the seat's view is read (``SeatView`` is made then)
        candidates = distinct_cards(view, legal, default) if playing else \
            self._flat._candidates(observation, legal, default)
        if len(candidates) == 1 or cap < self.est.k.min_effective:
            return default  # one play, or too few samples allowed to override it: nothing to search
        gate = self.est.k.call_gate if self.gated and legal[0].word != w.EXCHANGE else 0.0
        margin = self.prior_margin(observation, legal, default, candidates) if not playing and (
            gate > 0 or self.margins) else None
        if margin is not None and 0 < gate < margin:
            self.last = {"margin": margin, "gated": True}
            return default  # the prior's call is far ahead by its own values: the search would not override it
        if self.gated and 0 < self.hand_gate(legal[0].word) < view.held:
            self.last = {"margin": None, "gated": True}
            return default  # an early trick, a discard: the search seldom overrides them for its time there
        budget = self._left
        self._settled, self._legal, self._early, self._alike = {}, {}, {}, {}
        self._stop = self.stop_factor(legal[0].word) if self.gated else 0.0
        self._starts()
        rows, weights = self._sample(view, candidates, rng, deadline, cap, playing, candidates.index(default))
        self.last = {"samples": len(rows), "ms": (time.perf_counter() - start) * 1000, "work": budget - self._left,
                     "clear": sum(self._alive) == 1, "margin": margin, "prior": candidates.index(default),
                     **self._early}
        choice = self._pick(candidates, default, rows, weights, self._alive)
        self.last["overrode"] = choice != default  # (benchmarks/strong_speed.py --by-kind counts them)
        return choice

    def _starts(self) -> None:
        """The race's start and the pace's for the variant: its ``race_from`` and ``pace_from``, else the module's
        RACE_FROM and PACE_FROM (read at every decision: a test may change them)."""
        k = self.est.k
        self._race_from, self._pace_from = int(k.race_from) or RACE_FROM, int(k.pace_from) or PACE_FROM

    def stop_factor(self, word: str) -> float:
        """The variant's early stop for a decision of this ``word`` (``_won``): ``exchange_stop`` for an exchange,
        ``call_stop`` for any other decision before the card play, none (0) in the card play."""
        k = self.est.k
        return 0.0 if word == w.PLAY else k.exchange_stop if word == w.EXCHANGE else k.call_stop

    def hand_gate(self, word: str) -> float:
        """The variant's gate on the seat's hand for a decision of this ``word``: a card (``play_gate``) or a
        discard (``discard_gate``) with more cards in hand than it is not searched; 0 (and any other decision):
        no gate."""
        k = self.est.k
        return k.play_gate if word == w.PLAY else k.discard_gate if word == w.DISCARD else 0.0

    def prior_margin(self, observation: Any, legal: Sequence[Action], default: Action,
                     candidates: Sequence[Action]) -> float | None:
        """How far ahead of its best rival the prior's own values put its choice ``default``: for a call, its
        value in chips less the best other call's (a pass valued as what waiting keeps); for an exchange, the
        expected tricks of the hand it leaves less the best other exchange's.  None where the prior has no such
        value (the card play, a discard, naming trump, a blind call beside a look, a registry decision).
        ``observation``: the seat's observation dict or the engine's typed view (typed ``Any``: compiled, a
        ``dict`` annotation refuses the view)."""
        word = legal[0].word
        rivals = [a for a in candidates if a != default]
        if not rivals or word in (w.PLAY, w.DISCARD, w.TRUMP, w.LOOK) or any(a.word == w.LOOK for a in legal):
            return None
        bot = self.heuristic
        info = info_from_observation(observation, self.rules)
        if word == w.EXCHANGE:
            score = bot.exchange_score(info)
            return score(default)[0] - max(score(a)[0] for a in rivals)
        calls = self.rules.calls
        if any(a.word not in calls for a in candidates) or info.hand is None:
            return None
        round_ = observation.round if hasattr(observation, "round") else observation["round"]

        def value(action: Action) -> float:
            call = calls[action.word]
            if call.effects.status == w.OUT:
                return bot._out_worth(info, legal)
            return bot._call_worth(info, legal, action, call, round_)

        return value(default) - max(value(a) for a in rivals)

    def _sample(self, view: SeatView, candidates: list[Action], rng: random.Random, deadline: float | None,
                cap: int, playing: bool, d: int = 0) -> tuple[list[list[float]], list[float]]:
        """Each candidate's value on up to ``cap`` sampled deals, and each deal's weight.  A rival of the prior's
        choice (index ``d``) found clearly no better (``_drop``) is no longer tried: its later values are the
        choice's own, and it cannot be chosen (``self._alive``)."""
        rows: list[list[float]] = []
        weights: list[float] = []
        alive = [True] * len(candidates)
        self._alive = alive
        paces: list[float] = []  # the work each sample took
        tries = 0
        while len(rows) < cap and tries < 4 * cap and self._left > 0:
            tries += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
            left = self._left
            deal = view.sample(rng)
            # The search reads the sample's state, never its events: it records none (the kernel's null sink,
            # as in its own playouts) and starts with no history, so that no candidate's copy copies it.
            deal.emitting, deal.log, deal.quiet = False, [], []
            weight = self.likelihood(deal, view.seat)
            self._left -= sample_work(deal, view.seat)
            live = [c for c, a in zip(candidates, alive, strict=True) if a]
            try:
                row = self._card_values(deal, view.seat, live, deadline) if playing else \
                    self._call_values(deal, view.seat, live, rng, deadline)
            except (OutOfTime, SolverTimeout):
                break  # out of work or of time: the unfinished sample is dropped
            if row is None:
                continue
            values = iter(row)
            full = [next(values) if a else 0.0 for a in alive]
            rows.append([v if alive[i] else full[d] for i, v in enumerate(full)])
            weights.append(weight)
            paces.append(left - self._left)
            if self.margins and len(rows) == self._race_from:  # (benchmarks: what the first samples said, their work)
                gains = [g for i, (g, _) in enumerate(self._gains(rows, weights, d)) if i != d and alive[i]]
                self._early = {"early_gain": max(gains, default=0.0), "early_work": sum(paces, 0.0)}
            go = self._race(rows, weights, d, self._samples_left(paces, cap - len(rows)))
            if self.trace is not None:  # (benchmarks/strong_speed.py --samples: stop rules replayed on the samples)
                self.trace.append((rows[-1], weight, list(alive), self._left))
            if not go:
                break  # the choice is made: the prior's (every rival dropped, or none can be shown) or a rival's
            if self._stop > 0 and len(rows) >= self._race_from and self._won(rows, weights, d, self._stop, self._seen):
                self._early["won"] = len(rows)
                break  # a rival is chosen already, clearly (``stop_factor``): more samples would seldom undo it
        return rows, weights

    def _samples_left(self, paces: list[float], room: int) -> float:
        """How many more samples the work left allows, at the pace of the last few (rivals dropped make
        samples cheaper), at most ``room``."""
        recent = paces[-3:]
        pace = sum(recent, 0.0) / len(recent)
        return min(float(room), max(0.0, self._left) / pace) if pace > 0 else float(room)

    def _race(self, rows: list[list[float]], weights: list[float], d: int, more: float) -> bool:
        """Whether sampling should go on, with ``more`` samples left to the decision: not when no rival of
        candidate ``d`` can be chosen on the samples it will have (fewer than ``min_effective``, counted
        without their weights: a bound), nor when every rival is dropped (``_drop``)."""
        n = len(rows)
        # (the gains ``_drop`` works out on these rows, for ``_won``; reset here, not in ``_sample``, which reads it:
        # compiled, mypyc would take the attribute there for None, as mypy narrows it, and refuse the list)
        self._seen = None
        if n >= self._pace_from and n + more < self.est.k.min_effective:
            self._alive[:] = [i == d for i in range(len(self._alive))]
            return False  # too few samples to override, however clear: the prior's choice stands
        return n < self._race_from or self._drop(rows, weights, d, n + more)

    @staticmethod
    def _gains(rows: list[list[float]], weights: list[float], d: int,
               alive: list[bool] | None = None) -> list[tuple[float, float]]:
        """Each candidate's weighted mean gain over candidate ``d`` and its standard error (Kish's effective
        sample size for the weights); with ``alive``, only for the live rivals of ``d`` (the others (0, 0)).

        Loops over the samples, not generators (compiled, a native float sum: the race asks this at every
        sample, for every rival, over every sample so far); the same additions in the same order as
        ``sum(..., 0.0)``, so the same floats."""
        total = squares = 0.0
        for wt in weights:
            total += wt
            squares += wt * wt
        effective = total * total / squares
        spread = max(1.0, effective - 1)
        n = len(rows)
        out: list[tuple[float, float]] = []
        for i in range(len(rows[0])):
            if alive is not None and (i == d or not alive[i]):
                out.append((0.0, 0.0))
                continue
            mean = 0.0
            for j in range(n):
                row = rows[j]
                x: float = row[i] - row[d]
                mean += x * weights[j]
            mean /= total
            var = 0.0
            for j in range(n):
                row = rows[j]
                x = row[i] - row[d]
                var += weights[j] * (x - mean) ** 2
            out.append((mean, math.sqrt(var / total / spread)))
        return out

    def _won(self, rows: list[list[float]], weights: list[float], d: int, factor: float,
             gains: list[tuple[float, float]] | None = None) -> bool:
        """Whether a live rival of candidate ``d`` clears ``factor`` times the bar ``_pick`` sets (its weighted mean
        gain above ``critical`` standard errors, on at least ``min_effective`` effective samples): ``_pick`` would
        choose a rival on these samples already.  ``gains``: ``_gains`` of these rows if worked out already (the
        race's, ``_drop``: the same floats), every live rival's at least."""
        total = sum(weights, 0.0)
        effective = total * total / sum((x * x for x in weights), 0.0)
        if effective < self.est.k.min_effective:
            return False
        bar = factor * critical(len(rows[0]) - 1, effective - 1)
        return any(i != d and alive and mean > bar * error + 1e-9
                   for i, ((mean, error), alive) in enumerate(zip(
                       self._gains(rows, weights, d, self._alive) if gains is None else gains, self._alive,
                       strict=True)))

    def _drop(self, rows: list[list[float]], weights: list[float], d: int, at_end: float | None = None) -> bool:
        """Drop every live rival of candidate ``d`` that cannot win: its weighted mean gain plus DROP_ERRORS
        standard errors is at most the bar at the end (``critical`` for the decision's rivals on ``at_end``
        samples, times the standard error projected there; 0 without ``at_end``); whether any is left alive.
        The gains worked out are kept (``self._seen``) for ``_won`` on the same samples."""
        alive = self._alive
        if at_end is not None:
            end = max(at_end, len(rows))  # the samples at the end (their effective number is not known yet)
            bar = critical(len(alive) - 1, end - 1) * math.sqrt(len(rows) / end)
        else:
            bar = 0.0
        self._seen = gains = self._gains(rows, weights, d, alive)
        for i, (mean, error) in enumerate(gains):
            if i != d and alive[i] and mean + DROP_ERRORS * error <= bar * error + 1e-9:
                alive[i] = False
        return any(a for i, a in enumerate(alive) if i != d)

    def _pick(self, candidates: list[Action], default: Action, rows: list[list[float]],
              weights: list[float], alive: list[bool] | None = None) -> Action:
        """The candidate with the best weighted mean, if it beats the heuristic's choice significantly.

        Significantly: its weighted mean gain over the heuristic's choice exceeds ``critical`` standard
        errors, the critical value of the best of all the other candidates (each tried on the same few
        samples, the best of several noisy means is biased up: the threshold grows with their number and
        as the samples shrink); and never on fewer than the variant's ``min_effective`` effective samples
        (calibration; default 15: docs/solver.md, "why 15")."""
        if len(rows) < 2:
            return default
        d = candidates.index(default)
        total = sum(weights, 0.0)  # (a float start: compiled, mypyc took a bare sum for an int)
        effective = total * total / sum((x * x for x in weights), 0.0)  # Kish's effective sample size
        threshold = critical(len(candidates) - 1, effective - 1)
        least = self.est.k.min_effective
        alive = alive or [True] * len(candidates)
        best, best_gain = default, 0.0
        means = []
        for i, candidate in enumerate(candidates):
            diffs = [row[i] - row[d] for row in rows]
            mean = sum((x * wt for x, wt in zip(diffs, weights, strict=True)), 0.0) / total
            var = sum((wt * (x - mean) ** 2 for x, wt in zip(diffs, weights, strict=True)), 0.0) / total
            error = math.sqrt(var / max(1.0, effective - 1))
            means.append(mean)
            if i != d and alive[i] and effective >= least and mean > best_gain and mean > threshold * error + 1e-9:
                best, best_gain = candidate, mean
        self.last.update(means=means, effective=effective, threshold=threshold)
        return best

    # ---------------------------------------------------------------- one deal
    def _solve(self, state: GameState, seat: int, deadline: float | None, root: bool,
               only: set | None = None) -> Any:
        """The exact value (or each legal card's, ``root``: those in ``only`` if given) for ``seat``; its nodes
        charged to the work left."""
        position = position_of(state)
        # The samples of a card-play decision differ only in cards hidden from the seat, so they settle alike
        # unless a penalty reads the cards held: one settlement per trick count serves them all.  Each sample
        # is still charged for every settlement it needs (the same work, the same choice, less time).  So are the
        # playouts' leaves, whose deals settle alike when what the settlement reads is the same (``_alike``).
        shared = self._settled if root and SHARE_SETTLEMENTS and not state.program.penalties_read_held else None
        kernel = Kernel(position, shared=shared, alike=self._alike)
        legal = self._legal.setdefault(position.trump, {})
        solver = Solver(position, seat, chips_of(kernel, seat), kernel=kernel, deadline=deadline, legal=legal,
                        max_nodes=max(0, int(self._left)))
        try:
            return solver.play_values(only) if root else solver.value()
        finally:
            self._left -= solver.nodes + SETTLE_WORK * kernel.settled

    def _card_values(self, deal: GameState, seat: int, candidates: list[Action],
                     deadline: float | None) -> list[float] | None:
        """Each candidate card's exact value in chips on this deal with every hand open."""
        values = self._solve(deal, seat, deadline, root=True, only={(a.cards[0], a.joker) for a in candidates})
        try:
            return [values[(a.cards[0], a.joker)] for a in candidates]
        except KeyError:
            return None

    def _call_values(self, deal: GameState, seat: int, candidates: list[Action], rng: random.Random,
                     deadline: float | None) -> list[float] | None:
        """Each candidate's gain in chips on this deal: heuristic play up to the card play, then solved."""
        before = seat_worth(deal, seat)
        return try_each(deal, candidates, rng.getrandbits(32),
                        lambda sim, luck: self.finish(sim, seat, luck, deadline) - before, spend=True)

    def finish(self, state: GameState, seat: int, rng: random.Random, deadline: float | None) -> float:
        """Play the deal on (heuristic at every seat) and solve its card play; ``seat``'s worth at the end.

        Called on the copy ``try_each`` made and applied a candidate to: that is charged here too."""
        self._left -= TRY_WORK
        while state.pending is not None:
            if deadline is not None and time.perf_counter() > deadline:
                raise OutOfTime
            # (loops, not ``sum(map(...))`` nor ``next(generator)``: compiled, each made an object at every step)
            if in_card_play(state) and seat in state.in_play:
                held = 0
                for hand in state.hands:
                    held += len(hand)
                if held <= SOLVE_CARDS:
                    return seat_worth(state, seat) + self._solve(state, seat, deadline, root=False)
            legal = state.legal_actions()
            look: Action | None = legal[0] if len(legal) == 1 else None
            if look is None:
                for a in legal:
                    if a.word == w.LOOK:
                        look = a
                        break
            if look is not None:
                self._left -= APPLY_WORK
                state.apply(look)
                continue
            self._left -= step_work(legal)
            if self._left <= 0:
                raise OutOfTime
            actor = state.to_act
            assert actor is not None  # (a decision is pending)
            state.apply(self.heuristic.decide_in(state, actor, legal, rng))
        return seat_worth(state, seat)

    # ---------------------------------------------------------------- the bidding as evidence
    def likelihood(self, deal: GameState, seat: int) -> float:
        """How likely the other seats' calls so far are with the hands ``deal`` gives them, relative to a deal
        dealt at random: the importance weight of a sampled deal.

        Each other seat that called gives ``x`` (``evidence``), and its factor is ``exp(slope * (x + margin))``,
        capped at EVIDENCE_CAP either way.  ``slope`` and ``margin`` are the variant's calibration
        (``called_*`` for a seat in play, ``passed_*`` for one out): fitted from self-play as the log ratio of
        the real hands of such seats to the hands a seat's view samples for them (benchmarks/calibrate.py
        --bidding-only), so that the weighted samples stand for the hands the calls come from."""
        k = self.est.k
        log_weight = 0.0
        for called, x in evidence(self.est, deal, seat):
            slope, margin = (k.called_slope, k.called_margin) if called else (k.passed_slope, k.passed_margin)
            log_weight += max(-EVIDENCE_CAP, min(EVIDENCE_CAP, slope * (x + margin)))
        return math.exp(log_weight)


def evidence(est: Estimator, deal: GameState, seat: int) -> list[tuple[bool, float]]:
    """What the other seats' calls say of their hands in ``deal``: for each seat that called, whether it is in
    play, and ``x``: its hand's expected tricks (``Estimator.chances``) less the obligation it took on, or, for a
    seat that passed, less the least obligation it could have taken."""
    statuses: dict[Any, Any] = deal.rules.variant.statuses  # (keyed by the status words)
    least = min((s.tricks for name, s in statuses.items() if name in w.ACTIVE and s.tricks > 0), default=1)
    found = []
    for other in range(deal.n):
        if other == seat or deal.call_of[other] is None:
            continue
        status = deal.statuses[other]
        if status not in w.ACTIVE and status != w.OUT:
            continue
        hand = list(deal.held_at_play[other]) if in_card_play(deal) else list(deal.hands[other])
        if not hand:
            continue
        info = info_from_state(deal, other)
        info.hand = hand
        need = statuses[status].tricks if status in w.ACTIVE else least
        found.append((status in w.ACTIVE, sum(est.chances(hand, deal.trump, info), 0.0) - need))
    return found
