"""The heuristic bot: values its hand, makes the calls worth chips, exchanges weak cards, plays sensibly.

It decides from one seat's observation (or, inside a search, from the same
facts read off a simulated state) and the variant's data: obligations and
stakes (``variant.statuses``), trick shares, penalties and prizes
(``variant.settlement``).  It judges a call by its data (status, requirements,
draws, stakes), never by its id, so house rules get the same care.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final

from khrap import words as w
from khrap.bots.calibration import Constants, constants_for
from khrap.bots.determinize import SeatView
from khrap.bots.estimate import Estimator, Info, card_mask
from khrap.bots.knowledge import deal_facts
from khrap.cards import parse_card, parse_suit
from khrap.engine import Action, GameState, Rules
from khrap.engine.events import Dealt, Event
from khrap.engine.resample import DealFacts, FactsReader, facts_of  # the seat's facts read off its typed events
from khrap.engine.trick import strength  # who beats whom, as the kernel decides it
from khrap.engine.view import SeatView as TypedView  # the engine's typed view (int cards, typed events)
from khrap.variant.derived import opening_pot, stock_after_deal
from khrap.variant.schema import Call

CAP = 3  # ... counted up to this many opening pots (a swollen pot does not justify any risk)
SAMPLES = 100  # random hands dealt to estimate how often a seat joins a declarer
# A decision of a kind the bot has no rule for is weighed on this many sampled deals (each answer played out
# on each: tens of milliseconds), and another answer than the first taken only when its mean gain exceeds
# this many standard errors.
WEIGH_DEALS = 80
WEIGH_ERRORS = 2.0
# ... each sampled deal weighted by what the other seats' calls say of the hands it gives them: a seat in play
# its hand's expected tricks (the bot's own estimate) less its obligation, x, weighs it by e ** (WEIGH_SLOPE * x),
# at most e ** WEIGH_CAP either way.  The seat's view deals them random hands: at the doubling house rule the
# declarer then failed in 77 % of the sampled deals against 39 % in the real ones (seeds 400-499), so a double
# looked good where it was not; weighted, 38-45 %.  (The search bot's ``likelihood``, fitted as a density ratio,
# is much flatter: 74 %.)  Tuned on seeds 400-499 (benchmarks/offer_gains.py; docs/extending.md).
WEIGH_SLOPE = 6.0
WEIGH_CAP = 3.0
_ACTIVE: Final = w.ACTIVE  # (a constant of this module: compiled, not a read of the words module at every play)
_KNOWN = frozenset({w.PLAY, w.DISCARD, w.EXCHANGE, w.TRUMP, w.LOOK})
# The decisions ``decide_in`` keeps: an exchange (its 16 throws scored: about 100,000 instructions compiled, and found
# again in about half of a search's playouts), not a card play (about 40,000, found again in a quarter: its key, some
# 10,000, costs what it saves) nor a call (it draws from the decision's generator: of a call, only its answers' worths
# are kept, ``HeuristicBot.call``'s ``kept``).
KEPT_WORDS = frozenset({w.EXCHANGE})
DECIDED_KEPT = 20_000  # ``decide_in`` keeps at most this many choices (then starts again)
_JOINS: dict[str, dict] = {}  # join chances per variant (its data as JSON), shared by the bots of a table
_SAMPLES: dict[str, dict] = {}  # the random hands those chances are read from, per variant, shared alike
_OF_RULES: dict[int, tuple[Rules, Constants, str]] = {}  # per table's rules (by id, kept alive): ``of_rules``


def of_rules(rules: Rules) -> tuple[Constants, str]:
    """The variant's calibrated constants and its data as JSON (the key of the shared chances), worked out once per
    ``Rules``: a simulation seats new bots at every session, and each worked both out again (about 3 % of an
    analysis with the normal bots)."""
    found = _OF_RULES.get(id(rules))
    if found is None or found[0] is not rules:
        if len(_OF_RULES) > 32:
            _OF_RULES.clear()
        found = _OF_RULES[id(rules)] = (rules, constants_for(rules.variant), rules.variant.model_dump_json())
    return found[1], found[2]


def info_from_observation(obs: dict | TypedView, rules: Rules) -> Info:
    """The facts a seat's observation gives, in card ints: read off the engine's typed view (``SeatView``
    of ``khrap.engine.view``: int cards, typed events) when given one, else parsed from the observation
    dict (CONTRACT.md's card words: a caller's own dict, kept for the ``choose(observation, ...)`` API)."""
    if isinstance(obs, TypedView):
        return info_from_view(obs, rules)
    seat = obs["seat"]
    trump = None if obs["trump"] is None else parse_suit(obs["trump"])
    facts = deal_facts(obs["events"], seat)
    turned = [parse_card(c) for c in obs["turned"]]
    gone = facts.played_cards | facts.own_gone | set(turned) | {parse_card(c) for _, c, _ in obs["trick"]}
    follow = rules.variant.play
    return Info(
        seat=seat, n=len(obs["hand_sizes"]),
        hand=None if obs["hand"] is None else [parse_card(c) for c in obs["hand"]],
        trump=trump, turned=turned[-1] if turned else None,
        statuses=list(obs["statuses"]), calls=list(obs["calls"]), tricks=list(obs["tricks"]),
        trick=[(s, parse_card(c), bool(j)) for s, c, j in obs["trick"]],
        gone=gone, pot=obs["pot"], hand_sizes=list(obs["hand_sizes"]), stock_count=obs["stock_count"],
        voids=facts.voids(trump, follow.follow_suit, follow.trump_if_void),
        public_in_hand={s: set(c) for s, c in facts.public_in_hand.items()},
    )


def info_from_view(view: TypedView, rules: Rules, follow: FollowedDeal | None = None) -> Info:
    """The facts of the engine's typed seat view: its int cards and typed events as they are, nothing parsed
    (the same ``Info`` as ``info_from_observation`` of its observation dict: tests/test_bots_view.py).
    ``follow``: the seat's deal as read so far, so that only the events since are read."""
    seat = view.seat
    assert seat is not None, "a seat's view: a spectator decides nothing"
    trump = view.trump
    facts = facts_of(view.events, seat) if follow is None else follow.facts(view.events, seat)
    turned = view.turned
    gone = facts.played_cards | facts.own_gone | set(turned) | {c for _, c, _ in view.trick}
    play = rules.variant.play
    return Info(
        seat=seat, n=len(view.hand_sizes), hand=view.hand,  # (the view's lists are its own: fresh at each call)
        trump=trump, turned=turned[-1] if turned else None,
        statuses=view.statuses, calls=view.calls, tricks=view.tricks,
        trick=[(s, c, bool(j)) for s, c, j in view.trick],
        gone=gone, pot=view.pot, hand_sizes=view.hand_sizes, stock_count=view.stock_count,
        voids=facts.voids(trump, play.follow_suit, play.trump_if_void),
        public_in_hand={s: set(c) for s, c in facts.public_in_hand.items()},
    )


def info_from_state(state: GameState, seat: int) -> Info:
    """The heuristic's facts for ``seat`` in a simulated deal (cards played and on the table count as gone)."""
    gone = set(state.won)
    gone.update(state.turned)
    gone.update(c for _, c, _ in state.trick)
    turned = state.turned[-1] if state.turned and not state.turned_taken else None
    return Info(
        seat=seat, n=state.n, hand=list(state.hands[seat]), trump=state.trump, turned=turned,
        statuses=state.statuses, calls=state.call_of, tricks=state.tricks, trick=state.trick, gone=gone,
        pot=state.pot, hand_sizes=[len(h) for h in state.hands], stock_count=len(state.stock),
    )


class FollowedDeal:
    """One seat's facts of the deal in progress (``khrap.engine.resample.FactsReader``), grown by the events
    its view holds since the last decision: a view's events are the same objects from one decision to the
    next while the deal goes on (the engine grows them), so a list that still starts with the same event and
    holds the last one read at the same place only grew.  Anything else (a new deal, a redeal, another seat's
    view) is read again from its last dealing, as ``facts_of`` reads it."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.reader: FactsReader | None = None
        self.first: Event | None = None
        self.last: Event | None = None
        self.done = 0

    def facts(self, events: list[Event], seat: int) -> DealFacts:
        done, reader = self.done, self.reader
        if (reader is None or seat != self.seat or not done or len(events) < done or events[0] is not self.first
                or events[done - 1] is not self.last or any(isinstance(e, Dealt) for e in events[done:])):
            start = max((i for i, e in enumerate(events) if isinstance(e, Dealt)), default=0)
            reader, done = FactsReader(seat), start
        for event in events[done:]:
            reader.read(event)
        self.seat, self.reader, self.done = seat, reader, len(events)
        self.first, self.last = (events[0], events[-1]) if events else (None, None)
        return reader.facts


def held(info: Info) -> list[int]:
    """The seat's hand, which every decision but a call made blind has seen (typed for mypyc: the module is
    compiled with the kernel, docs/compiled.md)."""
    assert info.hand is not None, "a decision on the cards needs the hand"
    return info.hand


def throw_score(parts: tuple[list[tuple[float, int]], float, int, int], thrown: tuple[int, ...]) -> tuple[float, int]:
    """How good throwing ``thrown`` at an exchange is: the expected tricks of the hand it leaves (the cards kept and
    those drawn, less the weakest owed), then fewer cards.  ``parts``: ``HeuristicBot._exchange_parts``.  The
    hand's cards come ranked by their chances, so what a throw keeps is in order already and the drawn cards
    (each worth the average) go in where the average falls: the hand left sorted without a sort (an exchange's
    16 throws are scored at every declarer's and helper's exchange of every playout)."""
    ranked, avg, extra, owed = parts
    drawn = len(thrown) + extra
    size = len(ranked) + extra  # the cards of the hand left, of which the weakest ``owed`` are not counted ...
    room = size - owed if owed <= size else max(0, 2 * size - owed)  # (... as the slice ``[:size - owed]`` counts)
    total = 0.0  # (summed as they come, high first: the same additions in the same order as a sum of the list)
    for p, card in ranked:
        if card in thrown:
            continue
        if drawn and p < avg:
            while drawn and room > 0:
                total += avg
                drawn -= 1
                room -= 1
            drawn = 0
        if room <= 0:
            break
        total += p
        room -= 1
    while drawn and room > 0:
        total += avg
        drawn -= 1
        room -= 1
    return total, -len(thrown)


def weakest(winners: Sequence[Action], led: int | None, trump: int | None, joker_last: bool) -> Action:
    """The first of ``winners`` with the lowest strength (``joker_last``: a card played as the joker after every
    plain one): ``min`` by that key, written out (compiled, a key function is called through Python)."""
    choice = winners[0]
    low = (choice.joker if joker_last else False, strength(choice.cards[0], choice.joker, led, trump))
    for a in winners[1:]:
        key = (a.joker if joker_last else False, strength(a.cards[0], a.joker, led, trump))
        if key < low:
            choice, low = a, key
    return choice


def highest(actions: Sequence[Action], by_rank: bool) -> Action:
    """The first of ``actions`` whose card is highest (``by_rank``: its rank, else its number): ``max`` by that key,
    written out."""
    choice = actions[0]
    top = choice.cards[0] % 13 if by_rank else choice.cards[0]
    for a in actions[1:]:
        value = a.cards[0] % 13 if by_rank else a.cards[0]
        if value > top:
            choice, top = a, value
    return choice


def weighted_gain(gains: list[float], weights: list[float]) -> tuple[float, float]:
    """The weighted mean of ``gains`` and its standard error (Kish's effective sample size for the weights);
    (0, inf) with fewer than two."""
    total = sum(weights, 0.0)
    if len(gains) < 2 or total <= 0:
        return 0.0, math.inf
    mean = sum((g * wt for g, wt in zip(gains, weights, strict=True)), 0.0) / total
    effective = total * total / sum((wt * wt for wt in weights), 0.0)
    spread = sum((wt * (g - mean) ** 2 for g, wt in zip(gains, weights, strict=True)), 0.0) / total
    return mean, (spread / max(effective - 1.0, 1.0)) ** 0.5


def seat_of(observation: dict | TypedView) -> int | None:
    """The seat an observation (a dict or the typed view) is of."""
    return observation.seat if isinstance(observation, TypedView) else observation.get("seat")


class HeuristicBot:
    """Hand estimates and rules of play, from the seat's own knowledge and the variant's data."""

    name = "heuristic"
    reads_view = True  # ``choose_for`` hands it the engine's typed seat view, not the observation dict
    takes_lone = True  # a lone legal action is taken as it is (``choose``): ``choose_for`` makes no view for it

    def __init__(self, rules: Rules, constants: Constants | None = None, cautious: bool = False) -> None:
        self.rules = rules
        calibrated, variant_json = of_rules(rules)
        k = constants or calibrated  # the variant's calibrated ones unless given
        # A call is said whenever its expected chips (the calibrated chances) beat passing, as a good
        # player bids: passing is worth what waiting keeps (``_waiting_value``).  ``cautious`` is the older
        # bidding: the tuned margin on declaring (``Constants.caution``), passing worth nothing; it won a
        # few chips against the easy bot but passed most deals (issue 29).  The search bot's playouts and
        # prior keep it, since its measured strength was found with it.
        self.est = Estimator(rules, k if cautious else replace(k, caution=1.0))
        self.cautious = cautious
        if len(_JOINS) > 32:
            _JOINS.clear()
            _SAMPLES.clear()
        # (players, pot in half opening pots): the chance a seat joins a declarer
        key = variant_json + repr(self.est.k)
        self._joins: dict[tuple[int, int], float] = _JOINS.setdefault(key, {})
        # per table size: the hands (fixed seed) and their helper calls' chances, a pure function of the variant
        # and the constants, made once per process, not once per bot (a simulation seats new bots every session)
        self._samples: dict[int, list] = _SAMPLES.setdefault(key, {})
        self._followed: dict[int | None, FollowedDeal] = {}  # per seat: its deal's facts read so far
        self._weigher: Any = None  # the search (an MctsBot) that weighs a decision of a kind it has no rule for
        self._decided: dict[tuple, tuple[Sequence[Action], Action]] = {}  # ``decide_in``'s choices by what they read
        # ``decide_in``'s calls: each answer's worth by what it reads (the listing kept alive with it)
        self._worths: dict[tuple, tuple[Sequence[Action], list[float | None]]] = {}

    def choose(self, observation: dict | TypedView, legal: Sequence[Action], rng: random.Random,
               view: SeatView | None = None) -> Action:
        """The action for the seat of ``observation``: the engine's typed seat view (what ``choose_for``
        gives), or its observation dict.  ``view``: the seat's resampler, for a decision weighed on deals."""
        if not legal:
            raise ValueError(f"seat {seat_of(observation)} has no legal action")
        if len(legal) == 1:
            return legal[0]
        if not self.knows(legal):
            return self.weigh(legal, rng, view)
        if isinstance(observation, TypedView):
            info = info_from_view(observation, self.rules, self._followed.setdefault(observation.seat, FollowedDeal()))
            return self.decide(info, legal, rng, observation.round)
        return self.decide(info_from_observation(observation, self.rules), legal, rng, observation["round"])

    # ------------------------------------------------- any other decision
    def knows(self, legal: Sequence[Action]) -> bool:
        """Whether the bot has rules for this decision: the card actions, and the calls (valued from the
        variant's data).  Any other kind (one a house rule adds to the registry) is weighed by playouts."""
        word = legal[0].word
        return word in _KNOWN or word in self.rules.calls

    def needs_view(self, legal: Sequence[Action]) -> bool:
        """Whether this decision is weighed on sampled deals (``khrap.bots.choose_for`` then gives the seat's
        view, made from what the seat may know)."""
        return len(legal) > 1 and not self.knows(legal)

    def weigh(self, legal: Sequence[Action], rng: random.Random, view: SeatView | None) -> Action:
        """A decision of a kind the bot has no rule for: each answer tried on the same deals sampled from the
        seat's view (WEIGH_DEALS of them), each deal finished by this bot at every seat.  The first answer
        (which, in the registry, changes nothing) is kept unless another gains on average by more than
        WEIGH_ERRORS standard errors of its gain (the best of a few noisy means is biased up: without the
        margin a coin-flip gain would be taken half the time).  No view: the first answer.  Inside those
        playouts (``decide``) such a decision takes the first answer."""
        if view is None:
            return legal[0]
        from khrap.bots.determinize import try_each
        from khrap.bots.mcts import MctsBot  # (it plays out with this bot)
        from khrap.bots.position import seat_worth

        search = self._weigher
        if search is None:
            search = self._weigher = MctsBot(self.rules)
        candidates, seat = list(legal), view.seat
        rows: list[list[float]] = []
        weights: list[float] = []
        for _ in range(4 * WEIGH_DEALS):
            if len(rows) >= WEIGH_DEALS:
                break
            deal = view.sample(rng)
            weight = self.bidding_weight(deal, seat)  # (before the answers are played out on it)
            row = try_each(deal, candidates, rng.getrandbits(32), search._gain(seat, seat_worth(deal, seat), [0]))
            if row is not None:
                rows.append(row)
                weights.append(weight)
        best, best_gain = candidates[0], 0.0
        for i in range(1, len(candidates)):
            mean, error = weighted_gain([row[i] - row[0] for row in rows], weights)
            if mean > best_gain and mean > WEIGH_ERRORS * error:
                best, best_gain = candidates[i], mean
        return best

    def bidding_weight(self, deal: GameState, seat: int) -> float:
        """How well ``deal``'s hands fit the other seats' calls (``WEIGH_SLOPE``): each seat in play that called
        weighs it by its hand's expected tricks less its obligation (``khrap.bots.search.evidence``)."""
        from khrap.bots.search import evidence

        log_weight = 0.0
        for in_play, x in evidence(self.est, deal, seat):
            if in_play:
                log_weight += max(-WEIGH_CAP, min(WEIGH_CAP, WEIGH_SLOPE * x))
        return math.exp(log_weight)

    def decide(self, info: Info, legal: Sequence[Action], rng: random.Random, round_: int = 1) -> Action:
        """The decision for ``info`` (also used by the search bot's playouts)."""
        if len(legal) == 1:
            return legal[0]
        word = legal[0].word
        if word == w.PLAY:
            return self.play(info, legal)
        if word == w.DISCARD:
            hand = held(info)
            thrown, best_value = legal[0], 0.0  # (``max`` by the hand kept's value, written out: see ``weakest``)
            for i, a in enumerate(legal):
                value = self._keep_value(info, [c for c in hand if c != a.cards[0]])
                if i == 0 or value > best_value:
                    thrown, best_value = a, value
            return thrown
        if word == w.EXCHANGE:
            return self.exchange(info, legal)
        if word == w.TRUMP:
            best = self.est.best_suit(held(info), info)
            return next((a for a in legal if a.suit == best), legal[0])
        if not self.knows(legal):
            return legal[0]  # (weighed only at the real decision: ``weigh``)
        return self.call(info, legal, rng, round_)

    def decide_in(self, state: GameState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        """``decide`` for ``seat`` in a simulated deal (the search's playouts), the same choice: an exchange
        (``KEPT_WORDS``) is kept by everything it reads of the deal and found again when a playout meets the same
        facts (the candidates of one sample meet many: the other seats' exchanges are often the same whatever the
        seat's own choice was).  Only a decision that draws nothing from ``rng`` may be kept.  A call draws its
        tie-breaks, so of a call only what each answer is worth is kept (``call``'s ``kept``), by the same facts and
        the bidding round: found again, the draws are made as ever and nothing is valued twice."""
        word = legal[0].word
        kept_call = word not in _KNOWN and word in self.rules.calls and len(legal) > 1
        if word not in KEPT_WORDS and not kept_call:
            return self.decide(info_from_state(state, seat), legal, rng, state.round)
        hands = state.hands
        # Everything ``info_from_state`` gives but the stock's size, which no decision reads (the cards played,
        # turned and on the table make ``gone``); the listed actions by identity: the entry keeps them alive, so
        # an id found is the same action (a listing's actions are the kernel's own shared ones).
        key = (seat, tuple(hands[seat]), state.trump, tuple(state.turned), state.turned_taken, tuple(state.statuses),
               tuple(state.call_of), tuple(state.tricks), tuple(state.trick), tuple(state.won), state.pot,
               tuple([len(h) for h in hands]), tuple([id(a) for a in legal]), state.round if kept_call else 0)
        if kept_call:
            worths = self._worths.get(key)
            if worths is None:
                if len(self._worths) >= DECIDED_KEPT:
                    self._worths.clear()
                worths = self._worths[key] = (legal, [None] * len(legal))
            return self.call(info_from_state(state, seat), legal, rng, state.round, worths[1])
        found = self._decided.get(key)
        if found is not None:
            return found[1]
        choice = self.decide(info_from_state(state, seat), legal, rng, state.round)
        if len(self._decided) >= DECIDED_KEPT:
            self._decided.clear()
        self._decided[key] = (legal, choice)
        return choice

    # ------------------------------------------------------------ calls
    def _trump_for(self, info: Info, declarer: bool) -> int | None:
        if info.trump is None and declarer and info.hand and self.rules.variant.trump.source == "named":
            return self.est.best_suit(info.hand, info)
        return info.trump

    def call(self, info: Info, legal: Sequence[Action], rng: random.Random, round_: int = 1,
             kept: list[float | None] | None = None) -> Action:
        """The call worth most chips (ties broken by the decision's randomness); a blind one only when clearly
        worth it.  Passing is valued last, and only when it could matter: what waiting keeps is never below 0
        (``_waiting_value``; the cautious bidding's pass may be), so a lone pass whose tie-break alone beats
        every other call is taken without working out what waiting keeps: the same choice, for less.
        ``kept``: each answer's worth (without its tie-break) where already worked out for the same facts, by
        its place among the answers, filled in here (``decide_in``)."""
        look = None
        options: list[tuple[Action, Call, float]] = []  # (action, its call, its tie-break), in the listed order
        for action in legal:
            if action.word == w.LOOK:
                look = action
                continue
            call = self.rules.calls.get(action.word)
            if call is not None:
                options.append((action, call, rng.random() * 1e-6))  # (drawn in the listed order, as always)
        passes = [i for i, (_, call, _) in enumerate(options) if call.effects.status == w.OUT]
        values: list[float | None] = [None] * len(options)
        for i, (action, call, noise) in enumerate(options):
            if i not in passes:
                values[i] = self._kept_worth(kept, i, info, legal, action, call, round_) + noise
        others = [v for v in values if v is not None]
        for i in passes:
            action, call, noise = options[i]
            if not self.cautious and look is None and len(passes) == 1 and others and max(others) < noise:
                values[i] = noise  # (at least this: enough to beat every other call)
            else:
                values[i] = self._kept_worth(kept, i, info, legal, action, call, round_) + noise
        best: Action | None = None
        best_value: float | None = None
        for (action, _, _), value in zip(options, values, strict=True):
            assert value is not None  # (every option valued above)
            if best_value is None or value > best_value:
                best, best_value = action, value
        if look is not None and (best_value is None or best_value <= self.rules.variant.base_stake):
            return look  # a blind call only when clearly worth it
        return best or legal[0]

    def _kept_worth(self, kept: list[float | None] | None, i: int, info: Info, legal: Sequence[Action], action: Action,
                    call: Call, round_: int) -> float:
        """The ``i``-th answer's worth: passing's (``_out_worth``) or the call's (``_call_worth``), from ``kept``
        where it is there, and kept there."""
        found = None if kept is None else kept[i]
        if found is None:
            if call.effects.status == w.OUT:
                found = self._out_worth(info, legal)
            else:
                found = self._call_worth(info, legal, action, call, round_)
            if kept is not None:
                kept[i] = found
        return found

    def _call_worth(self, info: Info, legal: Sequence[Action], action: Action, call: Call, round_: int) -> float:
        """What saying ``call`` (a declaring or helper one) is worth in chips."""
        probs, trump = self.call_chances(info, action)
        alone = self._alone(call, info, legal, round_) if call.effects.status == w.DECLARER else 0.0
        value = self.est.call_value(action.word, call, probs, info.hand or [], trump, info, round_, alone)
        if call.effects.status == w.HELPER:
            # a lone declarer takes all: contesting him is worth a share of the pot
            value += self.est.k.contest * min(info.pot, CAP * self._opening(info))
        return value

    def _out_worth(self, info: Info, legal: Sequence[Action]) -> float:
        """What passing is worth: what waiting keeps (the cautious bidding: its own pass value)."""
        if self.cautious:
            return self._pass_value(info)
        return self._waiting_value(info, legal, self._trump_for(info, False))

    def call_chances(self, info: Info, action: Action) -> tuple[list[float], int | None]:
        """The trick chances of the hand the call ``action`` leaves, and the trump they assume."""
        call = self.rules.calls[action.word]
        trump = self._trump_for(info, call.effects.status == w.DECLARER)
        probs = self.est.after_call(call, info.hand, trump, info, action.take_turned)
        if trump is not None and info.trump is None:  # he will name his best suit after buying
            probs = [min(1.0, p ** (1 / self.est.k.exponent(call.effects.status))) for p in probs]
        return probs, trump

    def _alone(self, call, info: Info, legal: Sequence[Action], round_: int = 1) -> float:
        """The chance a declarer making ``call`` now plays alone: every seat that may still join passes."""
        seats = self.est.joiners(call, info, [a.word for a in legal])
        if seats is None:
            return 0.0
        if not seats:
            # Nobody can join: he takes the pot alone.  While an all-pass is free (another round with
            # the same cards and pot, no round ante, this seat speaking last again) that can wait for
            # the last round, and the others get another chance to call.
            rule = self.rules.variant.all_pass
            return 0.0 if round_ < rule.rounds and rule.round_ante == 0 else 1.0
        return min(1.0, self.est.k.alone * (1 - self._join_chance(info)) ** len(seats))

    def _join_chance(self, info: Info) -> float:
        """How often a seat joins a declarer: the share of random hands for which this bot values one
        of the variant's helper calls (without required cards) above passing, at this pot (rounded
        to half an opening pot)."""
        opening = self._opening(info)
        halves, pot = self._rounded_pot(info)
        key = (info.n, halves)
        if key not in self._joins:
            joins = 0
            for hand, trump, seat_info, options in self._join_samples(info.n):
                seat_info.pot = pot
                best = max(self.est.call_value(cid, c, probs, hand, trump, seat_info) for cid, c, probs in options)
                joins += best + self.est.k.contest * min(pot, CAP * opening) > 0
            self._joins[key] = joins / SAMPLES
        return self._joins[key]

    def _join_samples(self, n: int) -> list:
        """Random hands (dealt once per table size, fixed seed) with each helper call's trick chances."""
        if n not in self._samples:
            v = self.rules.variant
            helpers = self._helpers()
            rng = random.Random(0)
            statuses = [w.DECLARER] + [w.UNDECIDED] * (n - 1)
            rows = []
            for _ in range(SAMPLES if helpers else 0):
                cards = rng.sample(self.est.deck, v.hand_size * n + 1)
                hand = cards[: v.hand_size]
                trump = None if v.trump.source == "named" else cards[-1] // 13
                seat_info = Info(1, n, hand, trump, None, statuses, [None] * n, [0] * n, [], set(), 0,
                                 [v.hand_size] * n, stock_after_deal(v, n) or 0)
                options = [(cid, c, self.est.after_call(c, hand, trump, seat_info)) for cid, c in helpers]
                rows.append((hand, trump, seat_info, options))
            self._samples[n] = rows
        return self._samples[n]

    def _waiting_value(self, info: Info, legal: Sequence[Action], trump: int | None) -> float:
        """What passing keeps while nobody has declared: if a seat still to speak declares, this hand may
        join him (the best of the variant's helper calls open to it, as this bot values them).  Weighted
        by the chance one of them declares (``_declare_chance`` per seat).  Passing is then worth that,
        not 0, and a marginal declaration gives way to it."""
        if not any(self.rules.calls[a.word].effects.status == w.DECLARER for a in legal if a.word in self.rules.calls):
            return 0.0
        others = [s for s in range(info.n) if s != info.seat]
        if any(info.statuses[s] in w.ACTIVE for s in others) or info.hand is None:
            return 0.0
        waiting = sum(1 for s in others if info.statuses[s] == w.UNDECIDED)
        if not waiting:
            return 0.0
        best = 0.0
        for cid, call in self._helpers():
            probs = self.est.after_call(call, info.hand, trump, info)
            value = self.est.call_value(cid, call, probs, info.hand, trump, info)
            best = max(best, value + self.est.k.contest * min(info.pot, CAP * self._opening(info)))
        if best <= 0:
            return 0.0
        return best * (1 - (1 - self._declare_chance(info)) ** waiting)

    def _helpers(self) -> list:
        """The helper calls a hand may make without particular cards, once it is seen: how a passer joins a
        declarer (``derived.joins``, the one definition; the samples read them too)."""
        return [(cid, self.rules.calls[cid]) for cid in self.rules.derived.joins]

    def _declare_chance(self, info: Info) -> float:
        """How often a seat declares: the share of random hands (those of ``_join_samples``) for which this
        bot values a declaring call open to any hand above 0, at this pot (rounded to half an opening pot)."""
        halves, pot = self._rounded_pot(info)
        key = (-info.n, halves)  # beside the join chances, apart by sign
        if key not in self._joins:
            declaring = self.rules.derived.declaring  # the calls that may make the first declarer
            calls = [(cid, c) for cid, c in self.rules.calls.items()
                     if cid in declaring and not c.requires.holds and not c.requires.blind and not c.requires.dealer]
            declares = 0
            rows = self._join_samples(info.n)
            for hand, trump, seat_info, _ in rows:
                before = replace(seat_info, statuses=[w.UNDECIDED] * info.n, pot=pot)  # nobody has declared
                declares += any(self.est.call_value(cid, c, self.est.after_call(c, hand, trump, before), hand,
                                                    trump, before) > 0 for cid, c in calls)
            self._joins[key] = declares / max(1, len(rows))
        return self._joins[key]

    def _rounded_pot(self, info: Info) -> tuple[int, int]:
        """The pot rounded to half an opening pot, at least one opening pot, as (halves, chips): what the join
        and declare chances are worked out at, once for each."""
        opening = self._opening(info)
        halves = max(2, round(2 * info.pot / opening))
        return halves, halves * opening // 2

    def _opening(self, info: Info) -> int:
        """The pot a deal opens with (``opening_pot``), as a unit: one base stake a player where nobody antes."""
        v = self.rules.variant
        return max(opening_pot(v, info.n), v.base_stake * info.n)

    def _pass_value(self, info: Info) -> float:
        """The cautious bidding's pass: free until all-pass rounds swell the pot past eight opening pots,
        then a share of it, so somebody plays.  Not the normal bidding's: every trick share and fine
        grows with the pot, so a call that does not pay at one pot does not pay at ten, and that share
        made it declare hands it fails (where the pot carries the fines and swells, a declaration called on
        a predicted chance of 0.4-0.5 was made about half the time, against a break-even near 0.7)."""
        v = self.rules.variant
        opening = max(1, v.ante.amount) * v.base_stake * info.n
        if any(s in w.ACTIVE for s in info.statuses):
            return 0.0
        swell = info.pot / opening - 1
        return -0.05 * info.pot * (swell - 8) if swell > 8 else 0.0

    # ------------------------------------------------------------ exchange
    def _keep_value(self, info: Info, cards: Sequence[int]) -> float:
        trump = self._trump_for(info, info.statuses[info.seat] == w.DECLARER)
        return sum(self.est.chances(cards, trump, info))

    def exchange(self, info: Info, legal: Sequence[Action]) -> Action:
        parts = self._exchange_parts(info)
        best, best_score = legal[0], throw_score(parts, legal[0].cards)
        for action in legal[1:]:  # (``max(legal, key=score)``: the first of the best, without a key called by Python)
            found = throw_score(parts, action.cards)
            if found > best_score:
                best, best_score = action, found
        return best

    def exchange_score(self, info: Info) -> Callable[[Action], tuple[float, int]]:
        """How good each exchange is: expected tricks of the hand it leaves, then fewer cards (``throw_score``)."""
        parts = self._exchange_parts(info)

        def score(action: Action) -> tuple[float, int]:
            return throw_score(parts, action.cards)

        return score

    def _exchange_parts(self, info: Info) -> tuple[list[tuple[float, int]], float, int, int]:
        """What every throw of the seat's exchange is scored from (``throw_score``): the hand's cards with their
        chances, high first; a drawn card's average chance; the extra cards drawn and the cards then owed."""
        trump = self._trump_for(info, info.statuses[info.seat] == w.DECLARER)
        call = self.rules.calls.get(info.calls[info.seat] or "")
        extra = call.exchange.draw_extra if call else 0
        owed = call.exchange.then_discard if call else 0
        hand = held(info)
        avg = self.est.draw_chance(hand, trump, info)
        ranked = sorted(zip(self.est.chances(hand, trump, info), hand, strict=True), reverse=True)
        return ranked, avg, extra, owed

    # ------------------------------------------------------------ play
    def _blocked(self, info: Info) -> int:
        """The cards no other seat may hold as bits: the seat's hand and the cards gone (``_master``'s questions)."""
        return card_mask(held(info)) | card_mask(info.gone)

    def _master(self, info: Info, card: int, trump: int | None, after: Sequence[int], blocked: int = -1) -> bool:
        """No seat still to play can beat ``card``: each either lacks a higher card of its suit (none is
        unseen, or he has shown a void there) or cannot ruff it (no trump unseen, or he has shown a void
        in trumps too).  A trump is master once every seat still to play has shown a void in trumps.
        ``blocked``: ``_blocked(info)`` if the caller has it (one play asks this of several cards)."""
        if blocked < 0:
            blocked = self._blocked(info)
        est = self.est
        suit = card // 13
        if est.joker_unseen(blocked):
            return False
        higher = est.unseen_above(card, blocked)
        trumps_out = trump is not None and suit != trump and est.unseen_in(trump, blocked)
        for seat in after:
            void = info.voids.get(seat, ())
            if suit not in void and higher:
                return False  # he may hold a higher card of the suit
            if suit in void and trumps_out and trump not in void:
                return False  # he may ruff
        return True

    def _trumps_out(self, info: Info, trump: int) -> bool:
        """Some trump is neither in this hand nor gone."""
        return self.est.unseen_in(trump, self._blocked(info))

    def _ruff_threat(self, info: Info, trump: int | None, after: Sequence[int]) -> bool:
        """A seat still to play may hold a trump: a side winner led now may be ruffed."""
        if trump is None or not self._trumps_out(info, trump):
            return False
        return any(trump not in info.voids.get(seat, ()) for seat in after)

    def _after(self, info: Info) -> list[int]:
        """Active seats still to play to the current trick after this seat."""
        played = 0
        for s, _, _ in info.trick:
            played |= 1 << s
        statuses = info.statuses
        return [s for s in range(info.n) if statuses[s] in _ACTIVE and s != info.seat and not played >> s & 1]

    def play(self, info: Info, legal: Sequence[Action]) -> Action:
        trump = info.trump
        hand = held(info)
        after = self._after(info)
        if not info.trick:
            return self._lead(info, legal, after)
        first = info.trick[0]
        led = None if first[2] else first[1] // 13
        best = max(strength(c, j, led, trump) for _, c, j in info.trick)
        winners = [a for a in legal if strength(a.cards[0], a.joker, led, trump) > best]
        if winners:
            blocked = self._blocked(info) if after else -1
            sure = [a for a in winners if a.joker or not after or self._master(info, a.cards[0], trump, after, blocked)]
            if sure:
                return weakest(sure, led, trump, True)
            plain = [a for a in winners if not a.joker]
            if plain:
                return weakest(plain, led, trump, False)
            statuses: dict[Any, Any] = self.rules.variant.statuses  # (keyed by the status words)
            need = statuses[info.statuses[info.seat]].tricks - info.tricks[info.seat]
            if need > 0 and len(hand) <= need:
                return winners[0]
        # the cheapest card (the hand's chances made only here: a follower that can win has chosen already)
        chances = self._card_chances(info, hand)
        # (``min`` by (joker, chance, rank), written out: compiled, a key function is called through Python)
        choice = legal[0]
        low = (choice.joker, chances.get(choice.cards[0], 0.0), choice.cards[0] % 13)
        for a in legal[1:]:
            key = (a.joker, chances.get(a.cards[0], 0.0), a.cards[0] % 13)
            if key < low:
                choice, low = a, key
        return choice

    def _card_chances(self, info: Info, hand: list[int]) -> dict[int, float]:
        """Each card of ``hand``'s trick chance (the hand model's, by card)."""
        found = self.est.chances(hand, info.trump, info)
        return {card: found[i] for i, card in enumerate(hand)}

    def _lead(self, info: Info, legal: Sequence[Action], after: list[int]) -> Action:
        trump = info.trump
        plain = [a for a in legal if not a.joker]
        blocked = self._blocked(info)
        masters = [a for a in plain if self._master(info, a.cards[0], trump, after, blocked)]
        trumps = [a for a in plain if a.cards[0] // 13 == trump]
        master_trumps = [a for a in masters if a.cards[0] // 13 == trump]
        side_masters = [a for a in masters if a.cards[0] // 13 != trump]
        # Draw trumps first: with two trumps or more, or whenever a side winner led now may be ruffed
        # (a seat to play may hold a trump and be void in that suit unseen): the master trump takes
        # its trick anyway and pulls a trump from every seat that holds one.
        if master_trumps and (len(trumps) >= 2 or (side_masters and self._ruff_threat(info, trump, after))):
            return highest(master_trumps, False)
        if side_masters:
            return highest(side_masters, True)
        if master_trumps:
            return master_trumps[0]
        if not plain:
            return legal[0]
        statuses: dict[Any, Any] = self.rules.variant.statuses  # (keyed by the status words)
        status = statuses.get(info.statuses[info.seat])
        need = (status.tricks if status else 0) - info.tricks[info.seat]
        hand = held(info)
        chances = self._card_chances(info, hand)  # (made only here: a master led needs none)
        if need > 0 and len(hand) <= need + 1:
            # every trick left counts (one loser at most may still be afforded later): lead the card
            # most likely to take one, not a sure loser kept for a long game that is not coming
            choice = plain[0]  # (``max`` by (chance, rank), written out: a key function is called through Python)
            top = (chances.get(choice.cards[0], 0.0), choice.cards[0] % 13)
            for a in plain[1:]:
                rival = (chances.get(a.cards[0], 0.0), a.cards[0] % 13)
                if rival > top:
                    choice, top = a, rival
            return choice
        side = [a for a in plain if a.cards[0] // 13 != trump] or plain
        length = [0, 0, 0, 0]  # (cards by suit; read only with a trump among the plain cards)
        for c in hand:
            if c // 13 < 4:
                length[c // 13] += 1
        choice = side[0]  # (``min`` by (suit length, chance, rank), written out)
        low = (length[choice.cards[0] // 13] if trumps else 0, chances.get(choice.cards[0], 0.0), choice.cards[0] % 13)
        for a in side[1:]:
            key = (length[a.cards[0] // 13] if trumps else 0, chances.get(a.cards[0], 0.0), a.cards[0] % 13)
            if key < low:
                choice, low = a, key
        return choice
