"""Hand estimates for the heuristic bot: trick chances per card, trick counts, a call's worth in chips.

Everything comes from what the seat may know (``Info``) and the variant's data:
the deck, the statuses' obligations and stakes, the settlement's trick share,
penalties and declarer's prize.  No variant or call is ever named.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import reduce
from math import comb
from operator import or_
from typing import Final

from khrap import words as w
from khrap.bots.calibration import Constants, constants_for
from khrap.engine import Rules
from khrap.engine.rules import pattern_card
from khrap.variant.derived import draws_now, exchange_limit, joinable, keeps_out_hands, opening_pot, penalty_matches
from khrap.variant.schema import Amount, Call, CallsStage

# (``Final``: compiled, each is a C constant, not a read of the module's dictionary at every card)
RUFF_RISK: Final = 0.15  # chance a side winner is trumped, per extra card held in its suit (plus a base)
NOT_TOP: Final = 0.7  # a card below an unseen higher one needs the right moment
UNKNOWN_TRUMP: Final = 0.5  # side winners when the trump suit is not known yet (the declarer will name his best)
_UNDECIDED: Final = w.UNDECIDED  # (the statuses as this module's constants: read at every seat of every estimate)
_OUT: Final = w.OUT
_BIT: Final = 1  # (``card_mask``'s plain branch: its ``__lshift__`` is card c's bit)
TRUMP_LENGTH: Final = 0.15  # a low trump's extra chance per other trump held (it ruffs once the suit runs out)
# The fitted constants (how much a chance is sharpened, how much a seat that may still play counts,
# a helper's contest bonus) come per variant from calibration.yaml (``khrap.bots.calibration``).


def order_statistics(values: Sequence[float], count: int) -> list[float]:
    """The expected largest, second largest... of ``count`` values drawn without replacement from
    ``values`` (sorted high first): the j-th largest is value i when i is drawn with exactly j - 1 of the
    i - 1 higher ones, C(i-1, j-1) C(N-i, count-j) / C(N, count).  They add up to ``count`` x the mean."""
    size = len(values)
    total = comb(size, count)
    table = _COMBS.get((size, count))
    if table is None:  # the binomial factors of each term, per (size, count): worked out once
        if len(_COMBS) > 10_000:
            _COMBS.clear()
        table = _COMBS[size, count] = [[(comb(i, j), comb(size - i - 1, count - j - 1)) for i in range(size)]
                                       for j in range(count)]
    # (each term multiplied in the same order as ever, v x C(i, j) x C(N-i-1, count-j-1): the same floats)
    return [sum(v * a * b for v, (a, b) in zip(values, row, strict=True)) / total for row in table]


# Whether this module runs as plain Python (not compiled by mypyc): ``bits`` and ``card_mask`` then take the C-level
# ``int.bit_count`` and ``reduce`` over the cards, compiled their native loops (the same ints:
# tests/test_bots_estimate_parts.py)
INTERPRETED: Final = __file__.endswith(".py")


def bits(mask: int) -> int:
    """How many bits ``mask`` (>= 0) has set: a native loop once compiled (``int.bit_count`` is a call through Python
    there), one turn a bit, for the few cards of a suit; plain, ``int.bit_count`` (the loop was 6 % of an analysis)."""
    if INTERPRETED:
        return int.bit_count(mask)
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


def with_average(probs: list[float], kept: int, avg: float, drawn: int) -> list[float]:
    """``sorted(probs[:kept] + [avg] * drawn, reverse=True)`` for ``probs`` sorted high first, without a sort: the
    average goes in before the first kept chance below it (equal numbers are the same number, so the same list)."""
    out: list[float] = []
    i = 0
    while i < kept and probs[i] >= avg:
        out.append(probs[i])
        i += 1
    for _ in range(drawn):
        out.append(avg)
    while i < kept:
        out.append(probs[i])
        i += 1
    return out


def unpacked(packed: int) -> list[int]:
    """The four suits' counts ``Estimator._suit_counts`` packed, as a list."""
    return [packed & 255, packed >> 8 & 255, packed >> 16 & 255, packed >> 24 & 255]


def card_mask(cards: Iterable[int]) -> int:
    """The cards as bits (card c is bit c)."""
    if INTERPRETED:
        return reduce(or_, map(_BIT.__lshift__, cards), 0)
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


_COMBS: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}  # (size, count): ``order_statistics``' factors
_SHARED: dict[tuple, tuple[dict, dict]] = {}  # (deck, joker, constants): the drawn cards' averages (``Estimator``)


@dataclass(init=False)
class Info:
    """What the seat knows at a decision, in card ints (from an observation or a simulated state)."""

    seat: int
    n: int
    hand: list[int] | None
    trump: int | None
    turned: int | None
    statuses: list[str]
    calls: list[str | None]
    tricks: list[int]
    trick: list[tuple[int, int, bool]]
    gone: set[int]  # cards known not to be in another hand or the stock: played, own discards, turned
    pot: int
    hand_sizes: list[int]
    stock_count: int
    voids: dict[int, set[int]] = field(default_factory=dict)
    public_in_hand: dict[int, set[int]] = field(default_factory=dict)

    def __init__(self, seat: int, n: int, hand: list[int] | None, trump: int | None, turned: int | None,
                 statuses: list[str], calls: list[str | None], tricks: list[int], trick: list[tuple[int, int, bool]],
                 gone: set[int], pot: int, hand_sizes: list[int], stock_count: int,
                 voids: dict[int, set[int]] | None = None, public_in_hand: dict[int, set[int]] | None = None) -> None:
        # Written out (``init=False``): compiled, the dataclass's generated ``__init__`` is interpreted Python, and
        # every playout step makes an Info (``info_from_state``).  The same fields, the same defaults.
        self.seat = seat
        self.n = n
        self.hand = hand
        self.trump = trump
        self.turned = turned
        self.statuses = statuses
        self.calls = calls
        self.tricks = tricks
        self.trick = trick
        self.gone = gone
        self.pot = pot
        self.hand_sizes = hand_sizes
        self.stock_count = stock_count
        self.voids = {} if voids is None else voids
        self.public_in_hand = {} if public_in_hand is None else public_in_hand


class Estimator:
    """Trick chances and call values for one table's rules."""

    def __init__(self, rules: Rules, constants: Constants | None = None) -> None:
        self.rules = rules
        self.variant = rules.variant
        self.k = constants or constants_for(rules.variant)
        # out players who may still come back in a later stage (take five, whist, cut...): their
        # cards play against us as long as they hold them and the play has not begun
        self.comeback = rules.derived.comeback
        self.deck = list(rules.deck)
        self.joker = rules.joker
        self.by_suit = {s: sorted(c for c in self.deck if c // 13 == s) for s in range(4)}
        # The averages of drawn cards by their counts (``draw_chance``, ``_pool_average``, ``draw_spread``): a pure
        # function of the deck, the joker and the constants, so shared by every estimator of the same ones in
        # this process (a simulation seats new bots every session; each used to fill its own again).
        if len(_SHARED) > 32:
            _SHARED.clear()
        self._draw, self._pools = _SHARED.setdefault((tuple(self.deck), self.joker, repr(self.k)), ({}, {}))
        self._limits: dict[int, tuple[Call, int | None]] = {}  # by id(call): (call, ``_exchange_limit``)
        # ``penalty``'s answers by (status, call, tricks, pot), where no penalty reads the cards held
        self._held_read = any(pen.held for pen in self.variant.settlement.penalties)
        self._penalties: dict[tuple[str, str | None, int, int], int] = {}
        self._joiners: dict[tuple, tuple[Call, list[int] | None]] = {}  # ``joiners``' answers by what they read
        # the deck's cards as bits (``_unseen_count``), -1 where a card is in it twice (then its list is counted)
        self._deck_mask = card_mask(self.deck) if len(set(self.deck)) == len(self.deck) else -1
        # The joker as an int (-1: none), compared natively where ``joker`` (``int | None``) is a boxed comparison;
        # and per card, the deck's cards of its suit above it as bits: ``chances`` counts the unseen ones above a
        # card with one mask (a deck with a card twice counts its lists, ``_above`` empty).
        self._joker = -1 if self.joker is None else self.joker
        top = max(self.deck, default=-1)
        self._above = [card_mask(c for c in self.deck if c // 13 == card // 13 and c > card) for card in range(top + 1)]
        self._suits = [card_mask(self.by_suit[s]) for s in range(4)]  # each suit's cards as bits
        # ... the joker left out, as ``_suit_counts`` counts a pool's suits (``_pool_of``)
        self._plain_suits = [m & ~(1 << self._joker) if self._joker >= 0 else m for m in self._suits]

    # ------------------------------------------------------------ cards
    def unseen(self, info: Info, hand: Iterable[int]) -> list[int]:
        blocked = card_mask(hand) | card_mask(info.gone)  # (bits, not sets: compiled, no card is boxed)
        return [c for c in self.deck if not blocked >> c & 1]

    def unseen_above(self, card: int, blocked: int) -> bool:
        """Some card of ``card``'s suit above it is unseen: not in ``blocked`` (the hand and the cards gone)."""
        return self._above[card] & ~blocked != 0

    def unseen_in(self, suit: int, blocked: int) -> bool:
        """Some card of ``suit`` is unseen: not in ``blocked``."""
        return self._suits[suit] & ~blocked != 0

    def joker_unseen(self, blocked: int) -> bool:
        """The deck has a joker and it is unseen: not in ``blocked``."""
        return self._joker >= 0 and not blocked >> self._joker & 1

    def pool(self, info: Info, hand: Iterable[int]) -> tuple[int, int, bool]:
        """The cards ``unseen`` lists, counted (``_pool_of``): all that a drawn card's chances read of them."""
        return self._pool_of(card_mask(hand) | card_mask(info.gone))

    def _pool_of(self, blocked: int) -> tuple[int, int, bool]:
        """The cards not in ``blocked`` (the hand and the cards gone), counted: how many, each suit's count packed
        and whether the joker is among them (``_suit_counts``), read off bits (a deck with a card twice: its list
        counted): the draws' chances read these, never the cards (``unseen`` listed and counted twice was a
        tenth of the normal bot's estimates)."""
        deck = self._deck_mask
        if deck < 0:
            cards = [c for c in self.deck if not blocked >> c & 1]
            packed, joker = self._suit_counts(cards)
            return len(cards), packed, joker
        free = deck & ~blocked
        suits = self._plain_suits
        packed = (int.bit_count(free & suits[0]) | int.bit_count(free & suits[1]) << 8
                  | int.bit_count(free & suits[2]) << 16 | int.bit_count(free & suits[3]) << 24)
        return int.bit_count(free), packed, self._joker >= 0 and free >> self._joker & 1 == 1

    def _unseen_count(self, blocked: int) -> int:
        """How many cards ``unseen`` lists, given the mask of the hand and the cards gone."""
        if self._deck_mask < 0:  # (a deck with a card twice: count its list)
            return sum(1 for c in self.deck if not blocked >> c & 1)
        return int.bit_count(self._deck_mask & ~blocked)

    def opponents_share(self, info: Info, unseen: int) -> float:
        """The chance that a given unseen card sits in a hand that plays against us."""
        held = 0.0
        before_play = self.comeback and not info.trick and not any(info.tricks)
        me, sizes, undecided = info.seat, info.hand_sizes, self.k.undecided  # (read once, not once a seat)
        for seat, status in enumerate(info.statuses):
            if seat == me:
                continue
            if status == _UNDECIDED or (status == _OUT and before_play):
                held += sizes[seat] * undecided
            elif status != _OUT:
                held += sizes[seat]
        return min(0.95, held / max(1, unseen))

    def chance(self, card: int, hand: Sequence[int], trump: int | None, info: Info, q: float) -> float:
        """The chance ``card`` takes a trick from ``hand``."""
        if card == self.joker:
            return 1.0
        suit, mine = card // 13, set(hand)
        higher = sum(1 for c in self.by_suit[suit] if c > card and c not in mine and c not in info.gone)
        p = math.pow(1 - q, float(higher)) * (1.0 if higher == 0 else NOT_TOP)  # (``**``'s number: see ``chances``)
        if trump is None:
            return p * UNKNOWN_TRUMP
        if suit == trump:
            trumps = sum(1 for c in hand if c // 13 == trump)
            return min(1.0, p + (1 - p) * TRUMP_LENGTH * (trumps - 1))
        length = sum(1 for c in hand if c // 13 == suit)
        return p * max(0.0, 1 - RUFF_RISK * length - 0.1)

    def sharpen(self, p: float, exponent: float | None = None) -> float:
        """The calibrated chance: ``p ** sharpen`` (a certain winner stays certain, a long shot shrinks most)."""
        # (``math.pow``: compiled, a native call on two doubles; ``**`` is always mypyc's generic power of boxed
        # numbers.  For a finite positive base both are the C library's ``pow``: the same number)
        return math.pow(p, exponent or self.k.sharpen) if 0.0 < p < 1.0 else p

    def chances(self, hand: Sequence[int], trump: int | None, info: Info,
                exponent: float | None = None) -> list[float]:
        """Each card's calibrated chance, ``sharpen(chance(card, hand, ...))`` for every card of ``hand``, with
        what ``chance`` counts per card (the hand as a set, the unseen cards above it, its suit's length)
        counted once per hand: the same arithmetic, so the very same numbers."""
        blocked = card_mask(hand) | card_mask(info.gone)
        return self._chances(hand, trump, exponent, blocked, self.opponents_share(info, self._unseen_count(blocked)))

    def _chances(self, hand: Sequence[int], trump: int | None, exponent: float | None, blocked: int,
                 q: float) -> list[float]:
        """``chances`` given the mask of the hand and the cards gone, and the opponents' share of a card (``q``)."""
        joker = self._joker
        lengths = 0  # (the hand's suits' lengths, 8 bits a suit: native ints compiled)
        for c in hand:
            lengths += 1 << (8 * (c // 13))
        above, listed, miss = self._above, self._deck_mask < 0, 1 - q
        sharp = exponent or self.k.sharpen  # (``sharpen`` written out: its power, read once a hand, not a call a card)
        out = []
        for card in hand:
            if card == joker:
                out.append(1.0)  # (``sharpen(1.0)``: a certain winner stays certain)
                continue
            suit = card // 13
            if not listed:  # (the unseen cards of its suit above it, as bits)
                higher = bits(above[card] & ~blocked)
            else:
                higher = 0
                for c in self.by_suit[suit]:
                    if c > card and not blocked >> c & 1:
                        higher += 1
            # (a float power: Python takes a float ** int's int as a float, so ``math.pow`` of it is the same number)
            p = math.pow(miss, float(higher)) * (1.0 if higher == 0 else NOT_TOP)
            if trump is None:
                p = p * UNKNOWN_TRUMP
            elif suit == trump:
                p = min(1.0, p + (1 - p) * TRUMP_LENGTH * ((lengths >> 8 * trump & 255) - 1))
            else:
                p = p * max(0.0, 1 - RUFF_RISK * (lengths >> 8 * suit & 255) - 0.1)
            out.append(math.pow(p, sharp) if 0.0 < p < 1.0 else p)
        return out

    def draw_chance(self, hand: Sequence[int], trump: int | None, info: Info,
                    exponent: float | None = None, pool: tuple[int, int, bool] | None = None,
                    share: float = -1.0) -> float:
        """The average trick chance of a card drawn blind: over the cards it may be (those unseen), each
        judged by what is unseen above it; no better than the tricks per player still in the deal.
        ``pool``: ``pool(info, hand)`` and ``share``: ``opponents_share`` of its size, if the caller has them."""
        if pool is None:
            pool = self.pool(info, hand)
        if not pool[0]:
            return 0.0
        q = self.opponents_share(info, pool[0]) if share < 0 else share
        if trump is None:
            q = round(q, 2)
            key = (trump, q, exponent)
            if key not in self._draw:  # trump still to come: a fresh deck's average (cached)
                blank = Info(info.seat, info.n, [], trump, None, info.statuses, info.calls, info.tricks, [], set(),
                             info.pot, info.hand_sizes, info.stock_count)
                self._draw[key] = sum(self.sharpen(self.chance(c, [c], trump, blank, q), exponent)
                                      for c in self.deck) / len(self.deck)
            avg = self._draw[key]
        else:
            avg = self._pool_average(pool, hand, trump, q, exponent)
        playing = sum(1 for st in info.statuses if st != w.OUT)
        return min(avg, 1 / max(2, playing))  # the tricks are shared among those who play

    def _pool_average(self, pool: tuple[int, int, bool], hand: Sequence[int], trump: int, q: float,
                      exponent: float | None) -> float:
        """The mean of ``chance(c, hand + [c])`` over the unseen cards ``c``, suit by suit: a card's
        chance depends only on how many unseen cards of its suit lie above it and on the suit's length
        in the hand with it (the same arithmetic as ``chance``, without a pass over the deck per card).
        Cached on those counts: the search bot's playouts ask it for the same counts again and again."""
        size, counts, joker = pool
        lengths, _ = self._suit_counts(hand)
        key = (counts, lengths, joker, size, trump, q, exponent)
        cached = self._pools.get(key)
        if cached is None:
            if len(self._pools) > 100_000:
                self._pools.clear()
            cached = self._pools[key] = self._pool_sum(unpacked(counts), unpacked(lengths), joker, trump, q,
                                                       exponent) / size
        return cached

    def _suit_counts(self, cards: Sequence[int]) -> tuple[int, bool]:
        """How many of ``cards`` (the joker left out) each suit holds, packed 8 bits a suit (``unpacked``), and
        whether the joker is among them: the keys of the pool's caches, counted with native ints once compiled."""
        joker = self._joker
        packed, found = 0, False
        for c in cards:
            if c == joker:
                found = True
            else:
                packed += 1 << (8 * (c // 13))
        return packed, found

    def draw_spread(self, hand: Sequence[int], trump: int | None, info: Info, exponent: float | None,
                    count: int, avg: float, pool: tuple[int, int, bool] | None = None,
                    share: float = -1.0) -> list[float]:
        """The chances of ``count`` cards drawn blind, best first: the expected best, second best... of
        ``count`` cards dealt from the unseen ones (their mean is ``avg``'s).  Drawing k cards and keeping
        the best k - 1 is worth more than k - 1 average cards; ``[avg] * count`` would miss it.  With the
        trump still to come, the average for each."""
        if count <= 0:
            return []
        if pool is None:
            pool = self.pool(info, hand)
        size, counts, joker = pool
        if trump is None or count == 1 or size < count:
            return [avg] * count
        lengths, _ = self._suit_counts(hand)
        q = self.opponents_share(info, size) if share < 0 else share
        key = ("spread", counts, lengths, joker, trump, q, exponent, count)
        spread = self._pools.get(key)
        if spread is None:
            if len(self._pools) > 100_000:
                self._pools.clear()
            values = sorted(self._pool_values(unpacked(counts), unpacked(lengths), joker, trump, q, exponent),
                            reverse=True)
            spread = self._pools[key] = order_statistics(values, count)
        mean = sum(spread) / count
        scale = avg / mean if mean > avg > 0 else 1.0  # the same cap on the tricks shared as ``draw_chance``'s
        return [p * scale for p in spread]

    def _pool_values(self, counts: list[int], lengths: list[int], joker: bool, trump: int, q: float,
                     exponent: float | None) -> list[float]:
        """Each unseen card's trick chance as ``_pool_sum`` adds them up."""
        values = []
        miss, sharp = 1 - q, exponent or self.k.sharpen  # (``sharpen`` written out, as in ``_chances``)
        for suit in range(4):
            length = lengths[suit] + 1
            side = max(0.0, 1 - RUFF_RISK * length - 0.1)  # (the suit's factor, the same number for each card)
            for higher in range(counts[suit]):
                p = math.pow(miss, float(higher)) * (1.0 if higher == 0 else NOT_TOP)  # (see ``chances``)
                if suit == trump:
                    p = min(1.0, p + (1 - p) * TRUMP_LENGTH * (length - 1))
                else:
                    p *= side
                values.append(math.pow(p, sharp) if 0.0 < p < 1.0 else p)
        if joker:
            values.append(1.0)
        return values

    def _pool_sum(self, counts: list[int], lengths: list[int], joker: bool, trump: int, q: float,
                  exponent: float | None) -> float:
        total = 0.0
        miss, sharp = 1 - q, exponent or self.k.sharpen  # (``sharpen`` written out, as in ``_chances``)
        for suit in range(4):
            unseen = counts[suit]
            if not unseen:
                continue
            length = lengths[suit] + 1
            side = max(0.0, 1 - RUFF_RISK * length - 0.1)  # (the suit's factor, the same number for each card)
            for higher in range(unseen):
                p = math.pow(miss, float(higher)) * (1.0 if higher == 0 else NOT_TOP)  # (see ``chances``)
                if suit == trump:
                    p = min(1.0, p + (1 - p) * TRUMP_LENGTH * (length - 1))
                else:
                    p *= side
                total += math.pow(p, sharp) if 0.0 < p < 1.0 else p
        if joker:
            total += 1.0
        return total

    def best_suit(self, hand: Sequence[int], info: Info) -> int:
        return max(range(4), key=lambda s: (sum(self.chances(hand, s, info)), sum(1 for c in hand if c // 13 == s)))

    # ------------------------------------------------------------ counts
    def distribution(self, probs: Sequence[float]) -> list[float]:
        """P(exactly k tricks) for independent chances, capped at the hand size."""
        dist = [1.0]
        for p in probs:
            p = min(0.97, max(0.0, p))
            # k tricks after this card: k - 1 before and it wins, or k before and it loses (the two products added in
            # either order and to no 0.0 first: the same floats as adding each into a list of zeros)
            r = 1 - p
            nxt = [dist[0] * r]
            for k in range(1, len(dist)):
                nxt.append(dist[k - 1] * p + dist[k] * r)
            nxt.append(dist[-1] * p)
            dist = nxt
        size = self.variant.hand_size
        if len(dist) > size + 1:
            dist = dist[:size] + [sum(dist[size:])]
        return dist

    def after_call(self, call: Call, hand: Sequence[int] | None, trump: int | None, info: Info,
                   take_turned: bool = False) -> list[float]:
        """Trick chances of the hand a call leaves (draws as average cards, owed discards dropped)."""
        eff = call.effects
        size = self.variant.hand_size
        if hand is None:
            kept: list[int] = []
            unknown = 0 if eff.discard_hand else size
            if eff.take_turned == "swap":
                unknown = size - 1
        elif eff.discard_hand:
            keep = {pattern_card(p, trump) for p in eff.keep}
            kept, unknown = [c for c in hand if c in keep], 0
            thrown = {c for c in hand if c not in keep}
            if thrown:  # the hand it throws is out of play: in nobody's hand, never drawn (it knows them)
                info = replace(info, gone=info.gone | thrown)
        else:
            kept, unknown = list(hand), 0
        if (eff.take_turned in ("yes", "swap") or take_turned) and info.turned is not None:
            kept.append(info.turned)
        draws = draws_now(call, take_turned)
        exponent = self.k.exponent(eff.status)
        blocked = card_mask(kept) | card_mask(info.gone)
        pool = self._pool_of(blocked)  # (counted once for the three, and the opponents' share worked out once)
        share = self.opponents_share(info, pool[0])
        probs = self._chances(kept, trump, exponent, blocked, share)
        count = unknown + max(0, draws)
        limit = self._exchange_limit(call)
        exchanges = hand is not None and limit is not None
        if count > 0 or exchanges:  # (a drawn card's average is read only by the draws and the exchange)
            avg = self.draw_chance(kept, trump, info, exponent, pool, share)
            probs += self.draw_spread(kept, trump, info, exponent, count, avg, pool, share)
        probs.sort(reverse=True)
        if exchanges and limit is not None:
            probs = self._exchanged(probs, avg, call.exchange, limit)
        return probs[:size]  # the owed discards drop the weakest

    def _exchange_limit(self, call: Call) -> int | None:
        """The most cards ``call``'s caller may throw at his exchange turn, None where he has none (the
        definition: ``derived.exchange_limit``); worked out once per call."""
        found = self._limits.get(id(call))
        if found is None or found[0] is not call:
            found = self._limits[id(call)] = (call, exchange_limit(self.variant, call))
        return found[1]

    @staticmethod
    def _exchanged(probs: list[float], avg: float, rule, limit: int) -> list[float]:
        """The best the exchange turn makes of these chances (sorted high first): throw the weakest k
        cards, k within the call's bounds (``limit``: at most, his call's own or the stage's; a call may force
        some: ``min_discard``), draw k plus ``draw_extra`` average cards, then drop ``then_discard`` weakest."""
        most = min(limit, len(probs))
        extra, owed = rule.draw_extra, rule.then_discard  # (read once: a pydantic model's fields)
        best: list[float] | None = None
        best_total = 0.0
        for k in range(min(rule.min_discard, most), most + 1):
            after = with_average(probs, len(probs) - k, avg, k + extra)
            after = after[: len(after) - owed] if owed else after
            total: float = sum(after)  # (typed: compiled, mypyc compares two bare sums of floats as ints)
            if best is None or total > best_total:
                best, best_total = after, total
        return best if best is not None else probs

    # ------------------------------------------------------------ chips
    def amount(self, amount: Amount, pot: int) -> int:
        return amount.base * self.variant.base_stake + amount.pots * pot

    def penalty(self, status: str, call_id: str | None, tricks: int, hand: Sequence[int], trump: int | None,
                pot: int) -> int:
        """What a failed ``status`` with ``tricks`` pays (the first matching penalty).  Where no penalty reads the
        cards held, the hand and the trump change nothing: kept by the rest (a call's value asks it for every
        trick count short of the obligation, at every call of every playout)."""
        if self._held_read:
            return self._penalty(status, call_id, tricks, hand, trump, pot)
        key = (status, call_id, tricks, pot)
        found = self._penalties.get(key)
        if found is None:
            if len(self._penalties) > 10_000:
                self._penalties.clear()
            found = self._penalties[key] = self._penalty(status, call_id, tricks, hand, trump, pot)
        return found

    def _penalty(self, status: str, call_id: str | None, tricks: int, hand: Sequence[int], trump: int | None,
                 pot: int) -> int:
        for pen in self.variant.settlement.penalties:
            if not penalty_matches(pen, status, call_id):
                continue
            if pen.tricks is not None and pen.tricks != tricks:
                continue
            if any(pattern_card(p, trump) not in hand for p in pen.held):
                continue
            if pen.pay == "stake":
                return self.amount(self.variant.statuses[status].stake, pot)  # type: ignore[index]
            return self.amount(pen.pay, pot)
        return 0

    def call_value(self, call_id: str, call: Call, probs: Sequence[float], hand: Sequence[int],
                   trump: int | None, info: Info, round_: int = 1, alone: float = 0.0) -> float:
        """Expected chips of making ``call`` with these trick chances (passing is worth 0).

        ``alone``: the chance nobody joins a declarer (see ``joiners``); where a lone
        declarer is credited every trick, that share of the value is the whole hand's.
        """
        status = call.effects.status
        if status == w.OUT:
            return 0.0
        rule = self.variant.statuses[status]
        settle = self.variant.settlement
        pot = max(info.pot, opening_pot(self.variant, info.n))
        unit = pot // (settle.trick_share.divisor or self.variant.hand_size)
        paid = status in settle.trick_share.statuses
        prizes = settle.declarer_prize
        kind = prizes[min(round_, len(prizes)) - 1] if status == w.DECLARER and prizes else "none"
        forced = self.forced_fines(call, info, pot)
        value = 0.0
        for k, p in enumerate(self.distribution(probs)):
            made = k >= rule.tricks
            if paid and (made or not settle.trick_share.fulfilled_only):
                value += p * k * unit
            if not made:  # the kernel fines only a player short of his obligation
                value -= p * self.penalty(status, call_id, k, hand, trump, pot)
            elif forced is not None:
                value += p * forced(k)
            elif kind != "none":  # the rest: what the others' tricks leave, at most
                value += p * (pot // 2 if kind == "half" else pot - unit * (self.variant.hand_size - k))
        if status == w.DECLARER and self.variant.play.lone_declarer_takes_all:
            # nobody may join him: then every trick is his (and the prize)
            size = self.variant.hand_size
            alone_value = size * unit if paid else 0
            alone_value += {"none": 0, "half": pot // 2}.get(kind, pot - 0)
            value = (1 - alone) * value + alone * alone_value
        return value

    def forced_fines(self, call: Call, info: Info, pot: int) -> Callable[[int], float] | None:
        """What a caller who makes his obligation with k tricks gets of the fines of the players ``call``
        forces in (``forces_others``), where the fines are shared out at once among those who did not fail
        (``pot_after: redistribute``); None where it gets nothing.  Forced in, they must play the hands
        they hold: however they play, the tricks the caller leaves cannot meet all their obligations, so
        at least ``others - (size - k) // need`` of them fail, each fined a forced helper's penalty.  The
        caller's share of each fine is his tricks over those of all who did not fail, at least k / size.
        Only that floor is counted: more of them fail, but how many more is their cards' business."""
        v = self.variant
        rule = v.statuses.get(w.HELPER)
        if not call.effects.forces_others or v.settlement.pot_after != "redistribute" or rule is None:
            return None
        others = sum(1 for s in range(info.n) if s != info.seat and info.hand_sizes[s])
        size, need = v.hand_size, max(1, rule.tricks)
        fine = self.penalty(w.HELPER, None, 0, [], None, pot)

        def share(k: int) -> float:
            return max(0, others - (size - k) // need) * fine * k / size
        return share

    def joiners(self, call: Call, info: Info, legal_words: Iterable[str]) -> list[int] | None:
        """The seats that may still join if this seat makes the declaring ``call`` now (None: not alone).

        Read off the variant's stages by the stage model (``variant/derived.py``): the rest of the current
        calls stage (unless the call ends it), then every later calls stage that lists a helper call while
        a declarer exists (``joinable``), by who speaks there (``speakers``) and who still holds cards then
        (``keeps_out_hands``: the players who pass keep theirs until it asks).  Kept by all it reads: the call,
        the seat, the statuses, which seats hold cards and the words listed (every declaring call of every
        playout asks it).
        """
        words = tuple(legal_words)
        held = 0
        for s, size in enumerate(info.hand_sizes):
            if size:
                held |= 1 << s
        key = (id(call), info.seat, info.n, tuple(info.statuses), held, words)
        found = self._joiners.get(key)
        if found is None or found[0] is not call:
            if len(self._joiners) > 10_000:
                self._joiners.clear()
            found = self._joiners[key] = (call, self._joiners_of(call, info, words))
        return None if found[1] is None else list(found[1])

    def _joiners_of(self, call: Call, info: Info, legal_words: Iterable[str]) -> list[int] | None:
        eff = call.effects
        others = [s for s in range(info.n) if s != info.seat]
        if eff.forces_others or any(info.statuses[s] in w.ACTIVE for s in others):
            return None
        v = self.variant
        stages = v.stages
        words = {c for c in legal_words if c in v.calls}
        here = next((i for i, st in enumerate(stages) if isinstance(st, CallsStage) and words <= set(st.calls)), None)
        if here is None:
            return None
        undecided = {s for s in others if info.statuses[s] == w.UNDECIDED}
        out = {s for s in others if info.statuses[s] == w.OUT and info.hand_sizes[s]}
        # Those the call leaves unasked here keep their cards; the others pass here (or passed) and keep them
        # only while no stage from here on throws the out players' hands.
        asked_here = set() if eff.ends_stage else undecided
        join: set[int] = set()
        if asked_here and joinable(v, stages[here]):  # type: ignore[arg-type]  # (``here`` is a CallsStage)
            join |= undecided
        for i in range(here + 1, len(stages)):
            st = stages[i]
            if not isinstance(st, CallsStage) or st.id in eff.skip_stages or not joinable(v, st):
                continue
            if st.speakers == "out":
                join |= set(others)
            else:
                join |= undecided - asked_here
                if keeps_out_hands(v, here, i):
                    join |= undecided | out
        return sorted(join)
