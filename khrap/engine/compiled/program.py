"""A variant compiled for play: every field the kernel reads, turned into plain values and functions.

The ``Program`` is the rules object the kernel (``machine.py``) steps over: made once per
variant and player count (``Rules.program``).  Each call becomes a ``CompiledCall``: its fields copied into
slots.  Stages become ``CompiledStage`` records with their enabled calls and
exchange groups resolved, and the preconditions of a calls stage's calls
held by one lister (``listers.py``) with only the tests the calls have.  Nothing here knows a variant or a call
by name: every value comes from the variant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from khrap import words as w
from khrap.cards import RANKS, SUITS
from khrap.engine.actions import call_forms
from khrap.engine.compiled.listers import Entry, Lister
from khrap.engine.kinds import Kind
from khrap.engine.preconditions import conditions
from khrap.engine.rules import Rules, compile_pattern
from khrap.variant import derived as facts
from khrap.variant.schema import Amount, Call, Stage

# Stage kinds as small ints, tested on every step of the machine.
CALLS: Final = 0
EXCHANGE: Final = 1
NAME_TRUMP: Final = 2
INSTANT_WINS: Final = 3
PLAY: Final = 4
OFFER: Final = 5  # a decision of a registry kind, offered in a stage the rules add (``Derived.offers``)
KIND = {"calls": CALLS, "exchange": EXCHANGE, "name_trump": NAME_TRUMP, "instant_wins": INSTANT_WINS, "play": PLAY}


@dataclass(slots=True)
class CompiledCall:
    """One enabled call: its fields as plain values (its preconditions are tested by the stage's listers)."""

    cid: str
    status: str
    override: bool
    blind: bool
    forces_others: bool
    ends_stage: bool
    skip_stages: tuple[str, ...]
    when_now: bool
    keep: tuple[tuple[int, int | None], ...]
    discard_hand: bool
    take_turned: str
    draw: int
    then_discard: int
    takes_part: bool  # (its exchange's limits: the exchange stages' ``limits``)
    deferred_part: int  # cards reserved for the exchange turn (min_discard + draw_extra when it must exchange)
    declarer: str  # requires.declarer: any, exists, absent
    moves_cards: bool = False  # throws, takes, draws or owes discards when made (else only the status changes)
    has_effects: bool = False  # does more than set its status (``Machine._effects``)
    status_value: StatusValue | None = None  # what its status is worth (None: nothing)


@dataclass(slots=True)
class CompiledStage:
    id: str
    kind: int
    speakers: str = "all"
    phase: str = w.BIDDING  # the phase a calls stage shows while it runs
    from_declarer: bool = False
    # The calls that can be open while there is no declarer [0] and while there is one [1].
    open_calls: tuple[tuple[CompiledCall, ...], tuple[CompiledCall, ...]] = ((), ())
    blind_calls: tuple[tuple[CompiledCall, ...], tuple[CompiledCall, ...]] = ((), ())  # the blind ones among them
    out_hands: str = "keep"
    # An exchange stage's order by the declarer's call ("" for none made): each group as the (status, call made)
    # pairs it gives a turn (``derived.exchange_turns``).
    turns: dict[str, tuple[frozenset[tuple[str, str | None]], ...]] = field(default_factory=dict)
    # An exchange stage's turn by the call made ("" for none): (least thrown, most thrown before the hand's
    # size and the stock's limit, None: no such limit (``derived.discard_cap``), extra draws, cards the stock
    # keeps for the turn (``derived.reserved_for_exchange``), discards owed after): made once, read every turn.
    limits: dict[str, tuple[int, int | None, int, int, int]] = field(default_factory=dict)
    # The same as listers (``listers.py``): ``listers[d].open(machine, seat)`` lists the open calls.
    listers: tuple[Lister, Lister] | None = None
    blind_listers: tuple[Lister | None, Lister | None] | None = None
    # An offer stage: the kind of decision it asks (a ``Kind`` of the registry), and the statuses of the seats
    # asked (clockwise from the declarer's left).
    decision: Any = None
    asked: frozenset[str] = frozenset()


@dataclass(slots=True)
class StatusValue:
    tricks: int
    base: int  # chips: base stakes × base_stake
    pots: int
    locked: bool


def chips(amount: Amount, base_stake: int) -> tuple[int, int]:
    """(chips, multiples of the pot) of an amount."""
    return amount.base * base_stake, amount.pots


def _as_slice(positions: list[int]) -> slice:
    """The slice of a deck that picks ``positions`` (evenly spaced, as a seat's hand is dealt), in their order."""
    step = positions[1] - positions[0] if len(positions) > 1 else 1
    if step <= 0 or list(range(positions[0], positions[-1] + 1, step)) != positions:
        raise ValueError(f"dealt positions {positions} are not evenly spaced")
    return slice(positions[0], positions[-1] + 1, step)


class Program:
    """``rules`` (a variant at a table size) compiled into what ``Machine`` reads."""

    def __init__(self, rules: Rules) -> None:
        v = rules.variant
        self.rules = rules
        self.n = rules.players
        self.hand_size = v.hand_size
        self.deck = tuple(rules.deck)
        self.base_stake = v.base_stake
        self.ante = v.ante.amount
        self.ante_if_empty = v.ante.when == "empty_pot"
        self.trump_turned = v.trump.source == "turned"
        ap = v.all_pass
        self.rounds, self.round_turn_up = ap.rounds, ap.turn_up
        self.round_ante, self.last_ante, self.redeal_antes = ap.round_ante, ap.last_ante, ap.redeal_ante == "normal"
        self.statuses: dict[str, StatusValue] = {
            s: StatusValue(r.tricks, *chips(r.stake, v.base_stake), r.locked) for s, r in v.statuses.items()
        }
        self.tricks_needed = {s: r.tricks for s, r in self.statuses.items()}
        derived = rules.derived  # the facts that follow from the variant: read, never derived again here
        self.any_locked = derived.any_locked  # else no stake is ever locked
        self.overridden_becomes = v.overridden_becomes
        self.allow_debt = v.allow_debt
        # Without debts: calls whose cost a stack cannot cover are refused (``refuse_short``), or payments are cut
        # to what the player has (``cap_payments``: always on without debts, for the payments nobody chose).
        self.refuse_short = not v.allow_debt and v.short_payment == "refused"
        self.cap_payments = not v.allow_debt
        self.min_stack = -1 if v.min_stack is None else v.min_stack * v.base_stake  # -1: no minimum
        self.orders = rules.orders
        self.calls = {cid: self._call(cid, call) for cid, call in rules.calls.items()}
        self.declaring = derived.declaring  # the calls that may make the first declarer
        self.stages = [self._stage(s) for s in v.stages]
        for offer in derived.offers:  # each before the first stage of the kind it names (else last)
            at = next((i for i, st in enumerate(self.stages) if st.kind == KIND[offer.before]), len(self.stages))
            self.stages.insert(at, CompiledStage(offer.id, OFFER, phase=w.OFFERS, decision=Kind(offer.decision),
                                                 asked=frozenset(offer.statuses)))
        # What a blind call of a calls stage asks that is known before its caller first speaks (for
        # ``Machine._look_unless_blind``): (dealer only, the turned card's rank or -1, only with no declarer).
        staged = {c.cid for st in self.stages for c in st.blind_calls[0] + st.blind_calls[1]}
        self.blind_hopes: tuple[tuple[bool, int, bool], ...] = tuple(
            (c.requires.dealer, -1 if c.requires.turned_rank is None else RANKS.index(c.requires.turned_rank),
             c.requires.declarer == "absent")
            for cid, c in rules.calls.items() if cid in staged)
        play = v.play
        self.follow_suit, self.trump_if_void = play.follow_suit, play.trump_if_void
        self.must_beat, self.must_overtrump = play.must_beat, play.must_overtrump
        self.first_lead = frozenset(play.first_lead.calls)
        lead_suit = play.first_lead.suit
        self.first_lead_suit: str | int | None = lead_suit if lead_suit in (None, "trump") else SUITS.index(lead_suit)
        self.lone_takes_all = play.lone_declarer_takes_all
        self.plain_follow = derived.plain_follow  # the machine plays such a table's tricks in one loop
        self.joker = rules.joker
        self.joker_demands_trump = v.joker is not None and v.joker.led_demands == "trump"
        self.instant_wins = [
            (wid, _of_rank(RANKS.index(win.rank)), win.count, win.payers == "all", win.next_ante == "skip_if_pot")
            for wid, win in v.instant_wins.items() if win.enabled
        ]
        s = v.settlement
        self.share_divisor = s.trick_share.divisor or v.hand_size
        self.share_statuses = frozenset(s.trick_share.statuses)
        self.share_fulfilled_only = s.trick_share.fulfilled_only
        self.prizes = tuple(s.declarer_prize)
        self.penalties = [
            (p.status, frozenset(p.calls), p.tricks, tuple(compile_pattern(h) for h in p.held),
             None if p.pay == "stake" else chips(p.pay, v.base_stake))
            for p in s.penalties
        ]
        self.penalties_read_held = derived.penalties_read_held  # else no hand is kept at play
        self.redistribute = s.pot_after == "redistribute"
        self.remainder_to_most = s.remainder == "most_tricks"
        # The house's commission: (percent, chips of a win left untaxed, spares a player who paid a penalty).
        house = s.house
        self.house: tuple[int, int, bool] | None = (
            None if house is None else (house.percent, house.above * v.base_stake, house.spare_penalized))
        # Who deals next (``derived.next_dealer``), by the dealer and the deal's final declarer: [dealer][0] with
        # none (a redeal, a deal nobody declared), [dealer][seat + 1] with ``seat``.
        self.next_dealers = tuple(tuple(facts.next_dealer(v, dealer, declarer, self.n)
                                        for declarer in (None, *range(self.n)))
                                  for dealer in range(self.n))
        # Where each seat's hand lies in a shuffled deck, by the dealer: ``derived.dealt_hands`` of a deck of the
        # positions themselves, each seat's as a slice (every n-th card: ``_as_slice``), made once (the kernel
        # slices the deck: no Python call at every deal; tests/test_kernel_branches.py holds them to dealt_hands).
        size, n = v.hand_size, self.n
        self.deal_slices = tuple(tuple(_as_slice(hand) for hand in facts.dealt_hands(list(range(size * n)), dealer, n,
                                                                                      size))
                                 for dealer in range(n))
        self.helper_status = self.statuses.get(w.HELPER)
        self._rotations: dict[tuple[int, ...], dict[int, list[int]]] = {}

    def __copy__(self) -> Program:
        return self

    def __deepcopy__(self, memo: dict) -> Program:
        """A program never changes once made: a copy of a table (``Session.clone``) shares it.  (Compiled,
        a ``Program`` could not be copied field by field: a native class is made through its ``__init__``.)"""
        return self

    def __reduce__(self) -> tuple[Callable[[Rules], Program], tuple[Rules]]:
        """A program pickles as its rules: unpickled, it is made again from them (``Rules.program``), once for
        every table shipped with it (a pickle's states that shared one program share one again, and no
        program's tables travel with every state)."""
        return _program_of, (self.rules,)

    def rotations(self, seats: list[int]) -> dict[int, list[int]]:
        """For each seat in play, the others in play in the order they follow his lead."""
        key = tuple(seats)
        found = self._rotations.get(key)
        if found is None:
            found = self._rotations[key] = {seat: seats[i + 1:] + seats[:i] for i, seat in enumerate(seats)}
        return found

    # ------------------------------------------------------------- calls
    def _call(self, cid: str, call: Call) -> CompiledCall:
        req, eff, ex = call.requires, call.effects, call.exchange
        compiled = CompiledCall(
            cid, eff.status, eff.override, req.blind, eff.forces_others, eff.ends_stage, tuple(eff.skip_stages),
            eff.when == "now", tuple(compile_pattern(p) for p in eff.keep), eff.discard_hand, eff.take_turned, eff.draw,
            eff.then_discard, ex.takes_part,
            facts.reserved_for_exchange(call), req.declarer,
        )
        compiled.moves_cards = self.rules.derived.moves_cards(cid)
        compiled.status_value = self.statuses.get(eff.status)
        compiled.has_effects = bool(compiled.moves_cards or eff.forces_others or eff.when != "now" or eff.ends_stage
                                    or eff.skip_stages or compiled.deferred_part)
        return compiled

    # ------------------------------------------------------------ stages
    def _stage(self, of: Stage) -> CompiledStage:
        stage: Any = of  # the stage model of its kind, its fields read by kind
        kind = KIND[stage.kind]
        if kind == CALLS:
            derived = self.rules.derived  # what the stage lists with no declarer [0] and with one [1]
            absent, exists = (self._calls_of(ids) for ids in derived.open_calls[stage.id])
            open_calls = (absent, exists)
            blind_calls = (self._calls_of(derived.stage_blind(stage.id, False)),
                           self._calls_of(derived.stage_blind(stage.id, True)))
            listers = (self._lister(f"{stage.id} 0", absent, 0), self._lister(f"{stage.id} 1", exists, 1))
            blind_listers = (self._blind_lister(stage.id, blind_calls[0], 0),
                             self._blind_lister(stage.id, blind_calls[1], 1))
            return CompiledStage(stage.id, kind, stage.speakers, stage.phase, stage.start == "declarer_left",
                                 open_calls, blind_calls, stage.out_hands, listers=listers,
                                 blind_listers=blind_listers)
        if kind == EXCHANGE:
            turns = {cid: facts.exchange_turns(self.rules.variant, stage, cid or None) for cid in ("", *self.calls)}
            return CompiledStage(stage.id, kind, turns=turns, limits=self._limits(stage))
        return CompiledStage(stage.id, kind)

    def _limits(self, stage: Any) -> dict[str, tuple[int, int | None, int, int, int]]:
        """Exchange ``stage``'s turn for a player by the call he made (``CompiledStage.limits``)."""
        limits: dict[str, tuple[int, int | None, int, int, int]] = {"": (0, facts.discard_cap(stage, None), 0, 0, 0)}
        for cid, call in self.rules.calls.items():
            ex = call.exchange
            limits[cid] = (ex.min_discard, facts.discard_cap(stage, call), ex.draw_extra,
                           facts.reserved_for_exchange(call), ex.then_discard)
        return limits

    def _calls_of(self, ids: tuple[str, ...]) -> tuple[CompiledCall, ...]:
        return tuple(self.calls[cid] for cid in ids)

    def _blind_lister(self, sid: str, calls: tuple[CompiledCall, ...], declarer_exists: int) -> Lister | None:
        """The blind calls of a stage as a lister (None: no blind call to test)."""
        return self._lister(f"{sid} {declarer_exists} blind", calls, declarer_exists) if calls else None

    def _lister(self, where: str, calls: tuple[CompiledCall, ...], declarer_exists: int) -> Lister:
        """The calls of a stage as a lister (``where``: the stage, for error messages)."""
        named = [(c.cid, self.rules.calls[c.cid]) for c in calls]
        return make_lister(where, named, not self.refuse_short, bool(declarer_exists))


def make_lister(where: str, calls: Sequence[tuple[str, Call]], allow_debt: bool, declarer_exists: bool) -> Lister:
    """The lister of ``calls`` (in the stage's order) while a declarer exists or not: each call's tests from the
    preconditions table (``conditions``) and its forms; an optional take's two forms tested apart."""
    entries: list[Entry] = []
    for cid, call in calls:
        take = call.effects.take_turned
        tests = tuple(conditions(cid, call, allow_debt, declarer_exists))
        if take == "optional":
            plain, taking = call_forms(cid, take, 0)
            entries.append((tests, (plain,), ""))
            entries.append((tuple(conditions(cid, call, allow_debt, declarer_exists, takes=True)), (taking,), ""))
        elif take == "swap":  # (its forms by the hand's size, made when a size is first listed)
            entries.append((tests, (), cid))
        else:
            entries.append((tests, call_forms(cid, take, 0), ""))
    return Lister(where, entries)


def _program_of(rules: Rules) -> Program:
    """The program of ``rules`` (made once per ``Rules``): how a pickled program is made again."""
    found: Program = rules.program
    return found


def _of_rank(rank: int) -> Callable[[int], bool]:
    """Whether a card is of ``rank``, as a C-level test for ``filter``."""
    return frozenset(range(rank, 52, 13)).__contains__


def holds(cards: Sequence[int], patterns: tuple[tuple[int, int | None], ...], trump: int | None) -> bool:
    """Whether ``cards`` include every (rank, suit) pattern; suit None is the trump suit (none yet: no)."""
    for rank, suit in patterns:
        if suit is None:
            if trump is None:
                return False
            suit = trump
        if suit * 13 + rank not in cards:
            return False
    return True
