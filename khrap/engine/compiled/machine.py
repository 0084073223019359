"""The kernel: one table playing deal after deal, every rule read from a compiled ``Program``.

These step functions are the only rule code of the engine: dealing, turn-ups, calls and their
effects, the exchange, naming trump, instant wins (``payouts``), tricks (``tricks``) and
settlement (``payouts``).  ``GameState`` (``state.py``) is the public face built on this class:
it adds checking an action and the reason for a refusal (``legal``), observations and clones.
Used bare, as simulations and benchmarks do, ``apply`` trusts that an action came from ``legal``.

Events: each step tells the machine's ``sink`` what happened (``sink.py``): with ``emitting`` on, the
recording sink appends a typed ``Event`` to ``log`` (``events.py``); off (the default of a bare
machine), the null sink's methods do nothing.  The machine also keeps
the few facts a deal record needs whether or not it emits (calls said, all-passes, turn-ups,
redeals, trick winners, how the deal ended): ``sim.records.deal_record`` reads them.

Fast paths are branches chosen by the program's derived flags (``Program.plain_follow``:
``_play_tricks``; whole calls stages and exchanges in one loop: ``play_deal``); each is tested
against the general step-by-step branch (``tests/test_kernel_branches.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence, Sized
from functools import lru_cache
from itertools import combinations
from operator import itemgetter
from types import CodeType
from typing import Any, ClassVar, Final, cast

from khrap import words as w
from khrap.engine.actions import Action
from khrap.engine.compiled.listers import (
    Always,
    Check,
    Covers,
    Dealer,
    DeclarerExists,
    Holds,
    HoldsTrump,
    IsDeclarer,
    Lister,
    NoDeclarer,
    NoOtherDeclarer,
    NotLooked,
    PotAtMost,
    StockHolds,
    TrumpsAtLeast,
    TrumpsAtMost,
    TurnedRank,
    TurnedThere,
    trumps,
)
from khrap.engine.compiled.payouts import Payouts
from khrap.engine.compiled.program import (
    CALLS,
    EXCHANGE,
    INSTANT_WINS,
    NAME_TRUMP,
    OFFER,
    CompiledCall,
    CompiledStage,
    Program,
    StatusValue,
)
from khrap.engine.compiled.table import Choose, mypyc_attr
from khrap.engine.compiled.tricks import first_lead_suit
from khrap.engine.kinds import CALL, DISCARD, PLAY, TRUMP, Kind
from khrap.engine.kinds import EXCHANGE as EXCHANGING
from khrap.engine.randomness import shuffle
from khrap.engine.rules import Rules

UNDECIDED: Final = w.UNDECIDED
DECLARER: Final = w.DECLARER
HELPER: Final = w.HELPER
OUT: Final = w.OUT
TOP: Final = w.TOP
BOTTOM: Final = w.BOTTOM
LOOK: Final = Action(w.LOOK)
# What ``Machine.legal`` lists: an ``Action`` (a call, look), an int (a card played or thrown, a suit) or a
# tuple of cards (an exchange), by the kind of decision.
Option = Any
# The kinds of decision a stage of the rules offers (``OFFER`` stages: ``Derived.offers``), by kind: (list the
# answers of the seat to act, apply one for a seat).  Filled by the registry (``face.DECISIONS``) as it is made:
# the kernel steps through an offer without naming its kind; applying an answer is the kind's own kernel function.
OfferRule = tuple[Callable[["Machine"], list[Action]], Callable[["Machine", int, Action], None]]
OFFERED: Final[dict[Kind, OfferRule]] = {}


def offered(kind: Kind) -> OfferRule:
    """The listing and the kernel function of ``kind``, a kind of decision that an offer stage asks (any but
    the kernel's own kinds: call, discard, exchange, play, trump).  A function of a ``Kind``, not a fall-through
    of ``legal``'s and ``apply``'s tests, so that no narrowing of ``kind`` by those tests decides it."""
    rule = OFFERED.get(kind)
    if rule is None:
        raise RuntimeError(f"the kernel has no step for a decision of kind {kind.value!r}: a kind offered in a "
                           "stage of its own is registered by its entry in the registry (compiled/face.py)")
    return rule


# ------------------------------------------------------------------------------------------------------------
# The playout loop's idioms for the compiled build (``play_deal`` and the loops it runs: the calls stages, the
# exchanges, the tricks of the plain follow rule) are all in this module, each beside the code that needs it, so
# that the kernel's rule steps elsewhere (``tricks.py``, ``payouts.py``, the steps below) read as plain Python.
# The lockstep tests hold each loop to the general step-by-step branch (tests/test_kernel_branches.py) and each
# idiom's two ways to each other (tests/test_compiled_parts.py).

# Whether a card is of a suit (None: no trump named), as C-level tests for ``filter``.
IN_SUIT: Final[dict[int | None, Callable[[int], bool]]] = {
    suit: frozenset(range(13 * suit, 13 * suit + 13)).__contains__ for suit in range(4)
}
IN_SUIT[None] = frozenset().__contains__
# Whether this module runs as plain Python (not compiled by mypyc): the fused trick loop then lists a follower's
# cards with C-level filters over ``IN_SUIT``, else with ``_follow``'s native loop (held equal by
# tests/test_kernel_branches.py, which plays the loop against the general branch, and test_compiled_parts.py).
INTERPRETED: Final = __file__.endswith(".py")


def _follow(hand: list[int], led: int, trump: int | None) -> list[int]:
    """The plain follow rule's options for ``hand`` on a trick led in suit ``led``: the cards of that suit, else the
    trumps, else every card (a new list, in the hand's order).  Compiled, a native loop over the unboxed cards
    (``list(filter(...))`` called a set's ``__contains__`` through Python for each card)."""
    same = [c for c in hand if c // 13 == led]
    if same:
        return same
    if trump is not None:
        trumps = [c for c in hand if c // 13 == trump]
        if trumps:
            return trumps
    return hand.copy()


# The calls listers as plain Python.  A lister (``listers.Lister``) runs its tests as a loop over their ``met``: a
# native loop of virtual calls when compiled, but a Python call per test where this module runs as plain Python
# (``INTERPRETED``), which cost the plain machine 8.8 %.  There each lister is run written out as one function,
# every test an expression (``_WRITTEN``) with the variant's values in it as constants, compiled once with ``exec``
# (the way ``dataclasses`` writes its methods); a kind of test with no expression here calls its own ``met``.
# tests/test_compiled_parts.py holds each expression to its ``met`` and the written function to ``open``.
_WRITTEN: Final[dict[type, Callable[[Check], str]]] = {
    Check: lambda t: "True",
    Always: lambda t: "True",
    Dealer: lambda t: "seat == m.dealer",
    IsDeclarer: lambda t: "m.declarer == seat",
    DeclarerExists: lambda t: "m.declarer is not None",
    NoDeclarer: lambda t: "m.declarer is None",
    NoOtherDeclarer: lambda t: "m.declarer is None or m.declarer == seat",
    Holds: lambda t: f"{t.n} in hand",
    HoldsTrump: lambda t: f"trump is not None and trump * 13 + {t.n} in hand",
    TrumpsAtLeast: lambda t: f"trumps(hand, trump) >= {t.n}",
    TrumpsAtMost: lambda t: f"trumps(hand, trump) <= {t.n}",
    TurnedThere: lambda t: "not m.turned_taken and bool(m.turned)",
    TurnedRank: lambda t: f"not m.turned_taken and bool(m.turned) and m.turned[-1] % 13 == {t.n}",
    PotAtMost: lambda t: f"m.pot <= {t.n} * m.program.base_stake" + (" * m.n" if t.flag else ""),
    StockHolds: lambda t: f"{t.n} <= len(m.stock) - m.owed_draws",
    Covers: lambda t: f"m.can_cover(seat, {t.status!r}, {t.cid!r})",
    NotLooked: lambda t: "not m.looked[seat]",
}


def check_source(test: Check, at: str) -> str:
    """``test.met`` as a Python expression over ``m``, ``seat``, ``hand`` and ``trump``; ``at``: how the written
    function reaches the test itself (a kind with no expression of its own is asked through its ``met``)."""
    write = _WRITTEN.get(type(test))
    return write(test) if write is not None else f"{at}.met(m, seat, hand, trump)"


def lister_source(lister: Lister) -> str:
    """Source of ``def lister(m, seat)``, ``lister.open`` written out: each entry's tests (``check_source``) joined
    by ``and``, then its forms (``FORMS``, or a swap's forms for the hand's size: ``SIZED``).  Only the locals some
    test or swap reads are set, and a first entry without tests starts the list with its forms (a calls stage's
    listers run several times a deal: each line left out is left out of every listing)."""
    body: list[str] = []
    for i in range(len(lister.tests)):
        tests, swap = lister.tests[i], lister.swaps[i]
        indent = "    "
        if tests:
            conditions = " and ".join(f"({check_source(t, f'TESTS[{i}][{j}]')})" for j, t in enumerate(tests))
            body.append(f"    if {conditions}:")
            indent = "        "
        forms = f"SIZED({swap!r}, size)" if swap else f"FORMS[{i}]"
        if not body and not tests:
            body.append(f"    found = [*{forms}]")
        else:
            body.append(f"{indent}found += {forms}")
    read = "\n".join(body)
    lines = ["def lister(m, seat):"]
    if "hand" in read or "size" in read:
        lines.append("    hand = m.hands[seat]")
    if "size" in read:
        lines.append("    size = len(hand)")
    if "trump" in read:
        lines.append("    trump = m.trump")
    if not body or not body[0].startswith("    found = "):
        lines.append("    found = []")
    lines += body
    lines.append("    return found")
    return "\n".join(lines) + "\n"


def written_lister(lister: Lister) -> Callable[[Machine, int], list[Action]]:
    """``lister.open`` as one Python function (``lister_source``), made once per lister (``Lister.written``)."""
    written = lister.written
    if written is None:
        scope: dict[str, Any] = {"FORMS": lister.forms, "SIZED": lister.sized_forms, "TESTS": lister.tests,
                                 "trumps": trumps}
        exec(_compiled(lister_source(lister), lister.where), scope)  # noqa: S102 - written from the tests' own
        written = lister.written = scope["lister"]
    return written


@lru_cache(maxsize=256)
def _compiled(source: str, where: str) -> CodeType:
    """The code of a lister's source, compiled once: every table of the same rules writes the same source
    (a server makes a session per table, and compiling was most of the cost of a new one)."""
    return compile(source, f"<calls lister: {where}>", "exec")


def _calls_open(lister: Lister, m: Machine, seat: int) -> list[Action]:
    """The calls ``lister`` lists for ``seat`` on ``m``: its loop, or where this module is plain Python, the same
    written out (``written_lister``)."""
    if INTERPRETED:
        written = lister.written  # (read here: a call less a listing than asking ``written_lister``)
        return (written if written is not None else written_lister(lister))(m, seat)
    return lister.open(m, seat)


class Exchanges(Sequence):
    """The exchanges open to a hand, as ``Machine.legal`` lists them, each made only when it is read.

    A 4-card hand may throw any of 16 sets; a random choice reads one.  Index patterns of the
    sets are made once per hand size and limits, and a set's cards are picked by a C-level getter."""

    __slots__ = ("hand", "getters", "positions")
    # ClassVar: one cache, also compiled; by (hand size, least, most): (getters, their positions in the hand)
    _patterns: ClassVar[dict[tuple[int, int, int], tuple[tuple[Callable, ...], tuple[tuple[int, ...], ...]]]] = {}

    def __init__(self, hand: list[int], least: int, most: int) -> None:
        self.hand = hand
        key = (len(hand), least, most)
        made = self._patterns.get(key)
        if made is None:
            positions = tuple(chosen for k in range(least, most + 1) for chosen in combinations(range(len(hand)), k))
            made = self._patterns[key] = (tuple(_getter(chosen) for chosen in positions), positions)
        self.getters, self.positions = made  # (the positions: for a reader that makes the sets its own way)

    def __len__(self) -> int:
        return len(self.getters)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [get(self.hand) for get in self.getters[i]]
        return self.getters[i](self.hand)


def _getter(positions: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """A function giving the cards at ``positions`` of a hand, as a tuple."""
    if len(positions) > 1:
        return itemgetter(*positions)
    if positions:
        position = positions[0]
        return lambda hand: (hand[position],)
    return lambda hand: ()


# The stepped face's exchange listing (``face.DECISIONS``): each set of cards an ``Action``, made once and shared
# by every listing.  A set of at most _SMALL cards (ascending) is kept at its cards read as a number in base 52 in
# ``_BY_SIZE[its size]`` (a list indexed natively: no int made or hashed; a 4-card hand's 16 sets have 11 that
# small), a larger set by its cards as bits (the sum of ``1 << card``) in ``_EXCHANGES``, emptied when it grows
# past _MEMO_LIMIT.  (A table of the sets of three, 52 ** 3 slots, would cost every process that imports the
# kernel about 18 million instructions: made, and walked by the collector.)  Held to ``Action(EXCHANGE, ...)``
# and to the kernel's sets by tests/test_stepped_paths.py and tests/test_face.py.
_SMALL: Final = 2
_BY_SIZE: Final[list[list[Action | None]]] = []
_EXCHANGES: Final[dict[int, Action]] = {}
_MEMO_LIMIT: Final = 100_000
_NEW: Final = object.__new__


def exchange_action(cards: tuple[int, ...]) -> Action:
    """``Action(EXCHANGE, cards=cards)``, made without the frozen dataclass's ``__init__``: that sets each of
    the seven fields through ``object.__setattr__`` in Python (about 9,600 instructions an ``Action``), and an
    exchange listing makes one for each subset of the hand that no earlier listing made.  Its instance dict is
    given the two fields that are not their defaults; the class holds the defaults (``Action`` has no slots),
    so every field reads as the constructor's (a test compares them with ``Action(EXCHANGE, cards=...)``)."""
    action = cast(Action, _NEW(Action))
    made = action.__dict__
    made["word"] = w.EXCHANGE
    made["cards"] = cards
    return action


def forget_exchanges() -> None:
    """Empty the exchanges made so far (``_BY_SIZE``, ``_EXCHANGES``): later listings make them again."""
    _BY_SIZE.clear()
    _BY_SIZE.extend([None] * 52 ** size for size in range(_SMALL + 1))
    _EXCHANGES.clear()


forget_exchanges()


def exchange_actions(sets: Exchanges) -> list[Action]:
    """The exchanges ``sets`` lists (``Machine._exchanges``), each as its shared ``Action``, in their order."""
    hand: list[int] = sets.hand
    by_size = _BY_SIZE
    found: list[Action] = []
    for positions in sets.positions:
        size = len(positions)
        if size <= _SMALL:
            index = 0  # the set's cards in base 52: its place in the table of its size (a native loop)
            for at in positions:
                index = index * 52 + hand[at]
            table = by_size[size]
            action = table[index]
            if action is None:
                action = exchange_action(tuple([hand[at] for at in positions]))
                table[index] = action
            found.append(action)
        else:
            found.append(_large_exchange(hand, positions))
    return found


def _large_exchange(hand: list[int], positions: tuple[int, ...]) -> Action:
    """The exchange of the cards at ``positions`` of ``hand`` (more than _SMALL), by its cards as bits."""
    made = _EXCHANGES
    key = 0
    for at in positions:
        key |= 1 << hand[at]
    action = made.get(key)
    if action is None:
        if len(made) > _MEMO_LIMIT:
            made.clear()
        action = made[key] = exchange_action(tuple([hand[at] for at in positions]))
    return action


@mypyc_attr(allow_interpreted_subclasses=True)  # copies and pickles: see table.py
class ListingMarks:
    """The state the stepped face's last listing was made in (the marker of ``Face.last_legal``): the decision's
    kind and seat, the log's length, the hand itself and its size, which any step (it emits an event) or a hand
    replaced or changed in place would change.  Compiled, its fields are native and ``same`` compares them
    without making a tuple of them at each listing; one object a listing, never changed (copies share it)."""

    kind: Kind | None
    seat: int
    events: int
    hand: list[int]
    size: int

    def __init__(self, kind: Kind | None, seat: int, events: int, hand: list[int]) -> None:
        self.kind = kind
        self.seat = seat
        self.events = events
        self.hand = hand
        self.size = len(hand)

    def same(self, kind: Kind | None, seat: int, events: int, hand: list[int]) -> bool:
        """Whether a listing made now would be made in the same state (the hand by identity and size)."""
        return (self.hand is hand and self.events == events and self.size == len(hand) and self.seat == seat
                and self.kind is kind)

    def of(self, kind: Kind | None, seat: int) -> bool:
        """Whether the listing was of this decision (its kind and seat)."""
        return self.kind is kind and self.seat == seat


@mypyc_attr(allow_interpreted_subclasses=True)  # copies and pickles: see table.py
class Machine(Payouts):
    """A table of ``program.n`` seats; ``kind``/``seat`` name the pending decision (``kind`` None: none).

    ``stacks``: one number for every seat, or one per seat; ``decks``: shuffles given by their cards
    (top first), dealt before any random one; ``emitting``: append events to ``log``."""

    __slots__ = ()  # no instance dict: see ``Table.__slots__``

    # ``keep_held``, ``record_decks``: class attributes declared in ``Table``
    # (keep every hand at play, every deck dealt: records, replays, bots' knowledge).

    def __init__(self, program: Program, seed: int | None = 0, stacks: int | Sequence[int] = 100, pot: int = 0,
                 dealer: int = 0, decks: Sequence[Sequence[int]] = (), emitting: bool = False) -> None:
        self.program = program
        self.n = n = program.n
        self.rng = random.Random(seed)
        self.stacks = [stacks] * n if isinstance(stacks, int) else list(stacks)
        if len(self.stacks) != n:
            raise ValueError(f"stacks lists {len(self.stacks)} seats for {n} players")
        self.pot = pot
        self.locked = [0] * n
        self.house = 0
        self.total_chips = sum(self.stacks) + pot
        self.dealer = dealer % n
        self.next_dealer: int | None = None
        self.started = False
        self.skip_next_ante = False
        self.session_over = False
        self.deals_completed = 0
        self.scripted_decks = [list(d) for d in decks]
        self.decks_dealt = []
        self.emitting = emitting  # (sets ``sink``)
        self.log = []
        self.items = []
        # Textless events, which the game log does not narrate (cards thrown face down, statuses and stakes
        # set): the current deal's, each with ``at``, the length of ``log`` when it happened.
        self.quiet = []
        self.deal_log_start = 0  # where the current deal's events begin in the log
        self.kind: Kind | None = None
        self.seat = 0
        self.may_look = False
        self.settled = True
        self.phase = w.SETTLED
        self.best: tuple[int, int] = (0, 0)  # the trick's best (class, rank) so far (``trick.strength``), set
        self.best_seat = 0  # with who plays it (the trick's winner as cards are played) by each trick's lead
        self._reset_deal()
        self._reset_facts()
        # Stacks too small to be dealt in (``min_stack``, or an ante a table without debts cannot take): the
        # session is over before it begins (``start_deal`` says who).
        self.session_over = self._short_seat() is not None

    # ----------------------------------------------------------- deal setup
    def _reset_deal(self) -> None:
        n = self.n
        self.round = 1
        hands: list[list[int]] = []
        for _ in range(n):  # (loops, not comprehensions, in the steps of every deal: no function made and called)
            hands.append([])
        self.hands = hands
        self.looked = [False] * n
        self.stock: list[int] = []
        self.turned: list[int] = []
        self.turned_taken = False  # the current (latest) turn-up has left the table
        self.discards: list[int] = []
        self.won: list[int] = []
        self.trump: int | None = None
        self.statuses = [UNDECIDED] * n
        self.call_of: list[str | None] = [None] * n
        self.stake_of = [0] * n
        self.declarer: int | None = None
        self.declarer_round = 1
        self.stage_index = 0
        self.stage_started = False
        self.queue: list[int] = []
        self.skipped: set[str] = set()
        self.owed_discards = [0] * n
        self.owed_draws = 0
        self.deferred: set[int] = set()
        self.shown = []
        self.trick: list[tuple[int, int, bool]] = []  # (seat, card, as the joker), in the order played
        self.tricks = [0] * n
        self.leader: int | None = None
        self.in_play: list[int] = []  # players in play, clockwise from the declarer, set when play starts
        # The hands at play, kept when a penalty reads them (or ``keep_held``).
        self.held_at_play = [[] for _ in range(n)] if self.keep_held else ((),) * n
        self.next_dealer = None

    def _reset_facts(self) -> None:
        """What a deal record needs, gathered as the deal goes (redeals included)."""
        self.said: list[tuple[int, str]] = []
        self.all_passes = self.turn_ups = self.redeals = 0
        self.trick_winners: list[int] = []
        self.ending = w.PLAY_PHASE
        self.pot_settle: int | None = None

    def start_deal(self) -> None:
        """Ante, shuffle and deal the next deal, then run to the first decision."""
        short = self._short_seat()
        if short is not None:  # (checked again at each try: the stacks do not change until a deal is dealt)
            seat, need = short
            raise self._over(f"the session is over: seat {seat} has {self.stacks[seat]} chips and a player needs "
                             f"{need} to be dealt in")
        if self.session_over:
            raise self._over("the session is over: nobody can cover a declaring call, or a player could not pay "
                             "an ante")
        if self.started:
            passed = self.next_dealer
            self.dealer = passed if passed is not None else self.program.next_dealers[self.dealer][0]
        self.started = True
        self.sink.new_deal(self)
        self._reset_facts()
        self._reset_deal()
        # An ante a player cannot pay (a table without debts) ends the session and nothing is dealt, as at a
        # redeal (``_all_pass``).  ``_short_seat`` refuses such a table above, before anything moves: this
        # is the same rule, kept to it where the two might ever differ.
        if not self._ante():
            return
        self._deal()
        self.advance()

    def _over(self, message: str) -> Exception:
        return RuntimeError(message)

    def _ante(self) -> bool:
        """The deal's ante (False: a player cannot pay it and the session is over)."""
        if self.skip_next_ante:
            self.skip_next_ante = False
            return True
        if self.program.ante_if_empty and self.pot != 0:
            return True
        return self._collect(self.program.ante, "ante")

    def _collect(self, stakes: int, reason: str) -> bool:
        """Every player puts ``stakes`` base stakes in the pot; ``reason``: ante, round (an all-pass) or last.

        Without debts an ante is paid in full or not at all: if a player cannot pay it, nobody pays and the
        session ends there (False)."""
        if stakes > 0:
            chips = stakes * self.program.base_stake
            stacks = self.stacks
            if self.program.cap_payments:
                short = next((seat for seat in range(self.n) if stacks[seat] < chips), None)
                if short is not None:
                    self._end_session("ante", short, chips)
                    return False
            for seat in range(self.n):
                stacks[seat] -= chips
            self.pot += chips * self.n
            self.sink.anted(self, reason, chips)
        return True

    def _end_session(self, reason: str, seat: int | None = None, chips: int = 0) -> None:
        """The session ends in the middle of a deal (tables without debts): ``reason`` ``declare`` (nobody can
        cover a declaring call) or ``ante`` (``seat`` cannot pay an ante of ``chips``); locks go back, the pot
        stays as it is."""
        self.sink.session_over(self, seat, reason, chips)
        self.session_over = True
        self.ending = "session_over"
        self._return_locks()
        self._finish_deal()

    def _deal(self) -> None:
        if self.scripted_decks:
            deck = self.scripted_decks.pop(0)
        else:
            deck = list(self.program.deck)
            shuffle(self.rng, deck)
        if self.record_decks:
            self.decks_dealt.append(list(deck))
        # One at a time from his left (``derived.dealt_hands``, as the program's slices of the deck).
        size = self.program.hand_size
        hands: list[list[int]] = []
        for seat_slice in self.program.deal_slices[self.dealer]:
            hands.append(deck[seat_slice])
        self.hands = hands
        self.stock = deck[size * self.n:]
        self.settled = False
        self.phase = w.BIDDING
        self.sink.dealt(self, size)
        if self.program.trump_turned:
            self._turn_up()
        self._look_unless_blind()

    def _look_unless_blind(self) -> None:
        """Every seat who has not looked and to whom no blind call can be open any more looks at his cards
        (issue 27: a hand is seen as soon as it is dealt, unless its seat may still call blind).  Run at
        the deal and when a declarer appears.  The turned card a blind call asks for is the one turned at
        the deal: a new one is turned only after an all-pass round, in which every seat spoke (and looked,
        or called blind)."""
        hopes = self.program.blind_hopes
        looked = self.looked
        if not hopes:
            for seat in range(self.n):
                looked[seat] = True
            return
        turned = self.turned[-1] % 13 if self.turned and not self.turned_taken else -2
        dealer, no_declarer = self.dealer, self.declarer is None
        for seat in range(self.n):
            if looked[seat]:
                continue
            for only_dealer, rank, absent in hopes:  # (a loop, not ``any`` of a generator: twice a deal)
                if (not only_dealer or seat == dealer) and (rank < 0 or rank == turned) and (no_declarer or not absent):
                    break  # a blind call may still be open to him
            else:
                looked[seat] = True

    def _turn_up(self) -> bool:
        """Turn the top stock card; its suit becomes trump (False: the stock is empty)."""
        if not self.stock:
            return False
        card = self.stock.pop(0)
        self.turned.append(card)
        self.turned_taken = False
        self.trump = card // 13
        self.sink.turned(self, card)
        return True

    @property
    def rules(self) -> Rules:
        """The variant at this table (``Rules``), which the program was compiled from."""
        return self.program.rules

    # ------------------------------------------------------------- driving
    def advance(self) -> None:
        """Run the kernel's own steps until a seat must act or the deal is settled."""
        stages = self.program.stages
        while self.kind is None and not self.settled:
            stage = stages[self.stage_index]
            kind = stage.kind
            if stage.id in self.skipped:
                self._next_stage()
            elif kind == CALLS:
                self._calls_step(stage)
            elif kind == EXCHANGE:
                self._exchange_step(stage)
            elif kind == NAME_TRUMP:
                self.phase = w.TRUMP_PHASE
                self._wait(TRUMP, cast(int, self.declarer))
            elif kind == INSTANT_WINS:
                self._instant_wins()
            elif kind == OFFER:
                self._offer_step(stage)
            elif not self.stage_started:
                self.stage_started = True
                if not self._start_play():
                    self._settle()
            else:
                self._settle()

    def _offer_step(self, stage: CompiledStage) -> None:
        """An offer stage: each seat of the statuses it asks, clockwise from the declarer's left, is asked its
        decision in turn (the kind's kernel function may end the offers: ``queue`` emptied)."""
        if not self.stage_started:
            self.stage_started = True
            self.phase = w.OFFERS
            declarer = self.declarer
            assert declarer is not None
            statuses, asked = self.statuses, stage.asked
            self.queue = [s for s in self.program.orders[(declarer + 1) % self.n]
                          if s != declarer and statuses[s] in asked]
        if not self.queue:
            self._next_stage()
            return
        self._wait(stage.decision, self.queue.pop(0))

    def _wait(self, kind: Kind, seat: int) -> None:
        """Wait for ``seat``; he looks at his cards unless a blind call is open to him."""
        self.kind = kind
        self.seat = seat
        # Whether ``look`` is legal: nothing changes between this and listing the legal actions.
        self.may_look = False
        if not self.looked[seat]:
            if kind is CALL and self._blind_open(seat):
                self.may_look = True
            else:
                self.looked[seat] = True

    def play_deal(self, choose: Choose) -> int:
        """Play one whole deal, ``choose(legal)`` picking each action; returns the number of decisions.

        ``choose`` sees the very options ``legal`` would give, in the same order (a list, except the
        exchanges: an ``Exchanges`` sequence that makes a set of cards when it is read).  Each calls
        stage (``_run_calls``) and each exchange (``_run_exchange``) run in a loop of their own instead
        of step by step, and so do the tricks of a table with the plain follow rule (``_play_tricks``;
        not when the leader is not in play, which the checks refuse but a variant built past them may
        still bring about).  While the tricks run in that loop the machine's pending decision is not
        updated card by card: ``choose`` must decide from the list it is given, not by reading the
        machine."""
        self.start_deal()
        actions = 0
        if self.sink.records:  # the general branch: every step through ``apply_option``, each recording its events
            while self.kind is not None:
                self.apply_option(choose(self.legal()))
                actions += 1
            return actions
        plain = self.program.plain_follow
        while self.kind is not None:
            kind = self.kind
            if kind is CALL:
                actions += self._run_calls(choose)
            elif kind is PLAY and plain and self.seat in self.in_play:
                actions += self._play_tricks(choose)
                self.advance()  # (the deal's last trick taken: settlement)
            elif kind is EXCHANGING:
                actions += self._run_exchange(choose)
            else:
                self.apply_option(choose(self.legal()))
                actions += 1
        return actions

    def _run_calls(self, choose: Choose) -> int:
        """The calls stage's turns from the pending one to its end, as ``apply`` of each would play them,
        without going back through ``advance`` between speakers; returns the decisions made."""
        stage = self.program.stages[self.stage_index]
        listers, queue, owed = stage.listers, self.queue, self.owed_discards
        assert listers is not None
        made = 0
        while True:
            seat = self.seat
            lister = listers[self.declarer is not None]
            # (plain Python: the lister written out, once made, called here, a call less than ``_calls_open``)
            written = lister.written if INTERPRETED else None
            found = written(self, seat) if written is not None else _calls_open(lister, self, seat)
            if self.may_look:
                found.append(LOOK)
            action = choose(found)
            made += 1
            if action is LOOK:  # (the one look this loop lists: no attribute read)
                self.looked[seat] = True
                self.may_look = False
                continue
            self._make(seat, action)
            if owed[seat]:
                made += self._run_discards(seat, choose)
            if not queue or self.skipped and stage.id in self.skipped:
                self.kind = None
                self.advance()
                return made
            self._wait(CALL, queue.pop(0))

    def _run_discards(self, seat: int, choose: Choose) -> int:
        """``seat``'s owed discards, one decision each; returns their number."""
        hand, owed, discards = self.hands[seat], self.owed_discards, self.discards
        self.kind, self.seat = DISCARD, seat
        self.looked[seat] = True
        self.may_look = False
        made = owed[seat]
        while owed[seat]:
            card = choose(list(hand))
            hand.remove(card)
            discards.append(card)
            owed[seat] -= 1
        return made

    def _run_exchange(self, choose: Choose) -> int:
        """The exchange stage's turns from the pending one, each with the discards it owes, as long as
        the next seat in the queue exchanges too; then on to the next decision."""
        queue, deferred = self.queue, self.deferred
        made = 0
        while True:
            seat = self.seat
            cards = choose(self._exchanges(seat))
            self.kind = None
            self._exchange(seat, cards)
            made += 1
            if self.owed_discards[seat]:  # ``_exchange`` waits for his discards (not ``self.kind``: see table.py)
                made += self._run_discards(seat, choose)
                self.kind = None
            if not queue or queue[0] in deferred:  # the stage ends, or a deferred call's cards move first
                self.advance()
                return made
            self._wait(EXCHANGING, queue.pop(0))

    def _play_tricks(self, choose: Choose) -> int:
        """Play every trick left, ``choose`` picking each card from what ``_playable`` would list.

        The same steps as ``apply`` of each card, for the plain follow rule (follow suit, else
        trump, else anything; no duty to beat; no joker) in one loop: most decisions of a deal
        are cards, and this loop is where a simulation spends its time."""
        hands, seats, looked = self.hands, self.in_play, self.looked
        tricks, winners, won = self.tricks, self.trick_winners, self.won
        trump, size = self.trump, len(seats)
        leader = self.seat
        played = 0
        rotations = self.program.rotations(seats)
        in_suit = IN_SUIT
        in_trump = in_suit[trump]
        for seat in seats:  # each plays a card to the first trick, and a seat that plays has looked
            looked[seat] = True
        first = first_lead_suit(self.program, trump, not self.won)  # the first lead's suit (None: any card)
        while True:
            hand = hands[leader]
            if first is None:
                card: int = choose(list(hand))
            else:
                card = choose(list(filter(in_suit[first], hand)) or list(hand))
                first = None
            hand.remove(card)
            won.append(card)
            led = card // 13
            # (class, rank) as one number, class × 13 + rank: trump 2, the suit led 1 (another suit never wins).
            best_seat, best = leader, card % 13 + (26 if led == trump else 13)
            in_led = in_suit[led] if INTERPRETED else in_trump
            for seat in rotations[leader]:
                hand = hands[seat]
                if INTERPRETED:  # (C-level filters, the interpreter's fastest; compiled, ``_follow``'s native loop)
                    card = choose(list(filter(in_led, hand)) or list(filter(in_trump, hand)) or list(hand))
                else:
                    card = choose(_follow(hand, led, trump))
                hand.remove(card)
                won.append(card)
                suit = card // 13
                if suit == trump:
                    value = card % 13 + 26
                elif suit == led:
                    value = card % 13 + 13
                else:
                    continue
                if value > best:
                    best_seat, best = seat, value
            played += size
            tricks[best_seat] += 1
            winners.append(best_seat)
            if not hands[best_seat]:  # the last trick: nobody is to act, ``play_deal`` runs on to settlement
                self.kind = None
                return played
            leader = best_seat
            self.seat = leader

    # ---------------------------------------------------------- legal, apply
    def legal(self) -> list[Option]:
        """The legal actions of the seat to act, in the order ``GameState.legal_actions`` lists them.

        Calls and ``look`` are ``Action`` objects; ``discard`` and ``trump`` ints (card, suit);
        ``exchange`` tuples of cards; ``play`` ints (card, plus ``JOKER_FLAG`` as the joker)."""
        kind, seat = self.kind, self.seat
        if kind is None:
            return []
        if kind is CALL:
            found = self._legal_calls(seat)
            if self.may_look:
                found.append(LOOK)
            return found
        if kind is PLAY:
            return self._playable(seat)
        if kind is DISCARD:
            return list(self.hands[seat])
        if kind is EXCHANGING:
            return list(self._exchanges(seat))
        if kind is TRUMP:
            return [0, 1, 2, 3]
        return offered(kind)[0](self)  # a kind an offer stage asks

    def apply(self, action: Option, source: str | int = TOP) -> None:
        """Apply an action that ``legal`` listed for the seat to act (it is not checked again);
        ``source``: where an exchange draws from (a call's draws say it in the call's ``Action``).
        A face's ``apply`` (``GameState``'s) checks an action first and takes its words too."""
        self.apply_option(action, source)

    def apply_option(self, action: Option, source: str | int = TOP) -> None:
        """The kernel's step of an option ``legal`` listed (``apply``'s, under a name no face overrides: the
        face applies an action it has checked by this step)."""
        kind, seat = self.kind, self.seat
        self.kind = None
        if kind is None:
            pass  # nothing is pending (a settled deal): nothing to apply
        elif kind is CALL:
            if action.word == w.LOOK:
                self.looked[seat] = True
                self.kind = CALL
                self.may_look = False
                self.sink.looked(self, seat)
            else:
                self._make(seat, action)
                if self.owed_discards[seat]:
                    self._wait(DISCARD, seat)
        elif kind is DISCARD:
            self._discard(seat, action)
        elif kind is EXCHANGING:
            self._exchange(seat, action, source)
        elif kind is PLAY:
            self._play(seat, action)
        elif kind is TRUMP:
            self.trump = action
            self.sink.named_trump(self, seat, action)
            self._next_stage()
        else:  # a kind an offer stage asks: its own kernel function
            self._decided(kind, seat, action)
        self.advance()  # (it runs only while no seat is to act: not ``if self.kind is None``, see table.py)

    def _decided(self, kind: Kind, seat: int, action: Action) -> None:
        """``seat``'s answer to an offer of ``kind``: said (a deal record's fact, an event), then applied by
        the kind's kernel function."""
        self.said.append((seat, action.word))
        self.sink.decided(self, seat, kind, action)
        offered(kind)[1](self, seat, action)

    # ---------------------------------------------------------------- calls
    def _calls_step(self, stage: CompiledStage) -> None:
        if not self.stage_started:
            self.stage_started = True
            self.phase = stage.phase
            self.queue = self._speakers(stage)
        if self.queue:
            self._wait(CALL, self.queue.pop(0))
            return
        if self.declarer is None:
            self._all_pass()
            return
        if stage.out_hands == "at_end":
            for seat in range(self.n):
                if self.statuses[seat] == OUT:
                    self._throw_hand(seat)
        self._next_stage()

    def _speakers(self, stage: CompiledStage) -> list[int]:
        declarer = self.declarer
        start = self.dealer + 1 if not stage.from_declarer or declarer is None else declarer + 1
        seats = self.program.orders[start % self.n]
        speakers = stage.speakers
        if speakers == "all":
            return [*filter(self.hands.__getitem__, seats)]  # those with cards
        found: list[int] = []
        if speakers == "out":
            statuses = self.statuses
            for seat in seats:
                if statuses[seat] == OUT:
                    found.append(seat)
        else:  # others
            hands = self.hands
            for seat in seats:
                if seat != declarer and hands[seat]:
                    found.append(seat)
        return found

    def _legal_calls(self, seat: int) -> list[Action]:
        listers = self.program.stages[self.stage_index].listers
        assert listers is not None
        return _calls_open(listers[self.declarer is not None], self, seat)

    def _blind_open(self, seat: int) -> bool:
        """Whether a blind call is open to ``seat`` (he has not looked)."""
        listers = self.program.stages[self.stage_index].blind_listers
        assert listers is not None
        lister = listers[self.declarer is not None]
        return lister is not None and bool(_calls_open(lister, self, seat))

    def in_hand(self, hand: list[int], card: int) -> bool:
        """``card in hand``, the test of the listers' checks that ask for a card (``listers.Holds``, ``HoldsTrump``,
        which reach it through the machine they are given: listers.py cannot import this module, which imports
        it).  Compiled, a native loop over the unboxed cards (``in`` compared boxed ints, about 190 instructions a
        check); as plain Python the checks' written expressions say ``in`` (``_WRITTEN``)."""
        for c in hand:  # noqa: SIM110 - compiled, a loop over unboxed ints (``any`` makes a generator)
            if c == card:
                return True
        return False

    def can_cover(self, seat: int, status: str, cid: str | None) -> bool:
        """Whether call ``cid`` (giving ``status``) may be made by ``seat`` on a table that refuses what a stack
        cannot pay: every stack it may charge covers the most it can cost (``short_of``)."""
        return self.short_of(seat, status, cid)[0] < 0

    def short_of(self, seat: int, status: str, cid: str | None) -> tuple[int, str, int]:
        """(seat, role, chips) of the first player whose stack and locked chips do not cover the most the call
        may cost him: the caller (role ``caller``), a declarer it overrides (``overridden``, his new status),
        a player it makes a helper (``forced``); seat -1 when every one is covered."""
        cost = self._worst_cost(status, cid)
        if cost > self.stacks[seat] + self.locked[seat]:
            return seat, "caller", cost
        call = self.program.calls.get(cid) if cid is not None else None
        if call is None:
            return -1, "", 0
        old = self.declarer
        if status == DECLARER and old is not None and old != seat:
            cost = self._worst_cost(self.program.overridden_becomes, self.call_of[old])
            if cost > self.stacks[old] + self.locked[old]:
                return old, "overridden", cost
        if call.forces_others:
            cost = self._worst_cost(HELPER, None)
            for other in range(self.n):
                if other != seat and self.hands[other] and cost > self.stacks[other] + self.locked[other]:
                    return other, "forced", cost
        return -1, "", 0

    def _worst_cost(self, status: str, cid: str | None) -> int:
        rule = self.program.statuses.get(status)
        if rule is None:
            return 0
        costs = [rule.base + rule.pots * self.pot]
        for pstatus, pcalls, _, _, pay in self.program.penalties:
            by_call = not pcalls or cid is None or cid in pcalls
            if pstatus in (None, status) and by_call and pay is not None:
                costs.append(pay[0] + pay[1] * self.pot)
        return max(costs)

    def _set_status(self, seat: int, status: str, rule: StatusValue | None | bool = False) -> None:
        """Give ``seat`` the status and its stake (``rule``: the status's value, when the caller has it)."""
        if isinstance(rule, bool):
            rule = self.program.statuses.get(status)
        self.statuses[seat] = status
        locked = self.locked
        was = locked[seat]
        # Its stake: locked (cut to what he has when payments are capped), or not, and what he had locked goes back.
        if rule is not None and rule.locked:
            stake = self.stake_of[seat] = rule.base + rule.pots * self.pot
            delta = stake - was
            if self.program.cap_payments and delta > self.stacks[seat]:  # a lock is cut to what he has
                delta = max(self.stacks[seat], 0)
            self.stacks[seat] -= delta
            locked[seat] = was + delta
        else:
            self.stake_of[seat] = 0 if rule is None else rule.base + rule.pots * self.pot
            if was:
                self.stacks[seat] += was
                locked[seat] = 0
        self.sink.status(self, seat, locked[seat] - was)

    def _make(self, seat: int, action: Action) -> None:
        cid = action.word
        program = self.program
        call = program.calls[cid]
        if not call.blind:
            self.looked[seat] = True
        self.said.append((seat, cid))
        self.sink.called(self, seat, cid, action)
        status = call.status
        if status == DECLARER:
            old = self.declarer
            if old is not None and old != seat:
                becomes = program.overridden_becomes
                self._set_status(old, becomes)
                self.sink.overridden(self, old, becomes)
            self.declarer = seat
            self.declarer_round = self.round
            if old is None and program.blind_hopes:
                self._look_unless_blind()  # a blind call "only with no declarer" has closed
        self._set_status(seat, status, call.status_value)
        before = self.call_of[seat]
        if before is not None:  # asked again (a later calls stage): the new call takes the earlier one's place
            self._withdraw(seat, program.calls[before])
        self.call_of[seat] = cid
        if call.has_effects:
            self._effects(seat, call, action)
        if status == OUT and program.stages[self.stage_index].out_hands == "on_call":
            self._throw_hand(seat)

    def _withdraw(self, seat: int, call: CompiledCall) -> None:
        """``seat``'s earlier ``call`` is replaced by another: what it left waiting is no longer owed.  Its draws,
        when it acts at the exchange, and the cards kept for the discards it forces: the stock keeps none of
        them and he takes the exchange turn his new call gives.  The stages it skips: skipped only where another
        seat's standing call skips them too (the stages already passed are behind the deal either way)."""
        if seat in self.deferred:
            self.deferred.discard(seat)
            self.owed_draws -= call.draw
        self.owed_draws -= call.deferred_part
        if call.skip_stages:
            self.call_of[seat] = None  # (his new call is set, and its own skips added, by ``_make``)
            calls = self.program.calls
            self.skipped = {sid for cid in self.call_of if cid is not None for sid in calls[cid].skip_stages}

    def _effects(self, seat: int, call: CompiledCall, action: Action) -> None:
        """What a call does besides setting its status: others forced in, cards moved or deferred, stages skipped."""
        if call.forces_others:
            for other in self.program.orders[(seat + 1) % self.n]:
                if other != seat and self.hands[other]:
                    self._set_status(other, HELPER)
                    self.sink.forced(self, other)
        if call.when_now:
            if call.moves_cards:
                self._card_effects(seat, call, action)
        else:
            self.deferred.add(seat)
            self.owed_draws += call.draw
        self.owed_draws += call.deferred_part
        if call.ends_stage:
            self.queue.clear()
        if call.skip_stages:
            self.skipped.update(call.skip_stages)

    def _throw_hand(self, seat: int) -> None:
        hand = self.hands[seat]
        if hand:
            self.sink.threw(self, seat, hand, 0)
        self.discards.extend(hand)
        hand.clear()

    def _card_effects(self, seat: int, call: CompiledCall, action: Action) -> None:
        """Throw, keep, take the turned card, draw; then owe the discards."""
        hand, sink = self.hands[seat], self.sink
        if call.discard_hand:
            trump = self.trump
            keep: set[int] = set()
            for rank, suit in call.keep:
                of = trump if suit is None else suit
                if of is not None:
                    keep.add(of * 13 + rank)
            kept: list[int] = []
            thrown: list[int] = []
            for card in hand:
                (kept if card in keep else thrown).append(card)
            self.discards.extend(thrown)
            hand[:] = kept
            if thrown:
                sink.threw(self, seat, thrown, len(kept))
            if kept:
                self.shown.extend(kept)
                sink.shown(self, seat, kept)
        draws = call.draw
        mode = call.take_turned
        if mode == "swap":
            assert action.position is not None
            position = action.position - 1
            sink.threw(self, seat, [hand[position]], len(hand) - 1)
            self.discards.append(hand[position])
            hand[position] = self.turned.pop()
            self.turned_taken = True
            sink.swapped(self, seat, position + 1, hand[position])
        elif mode == "yes" or mode == "optional" and action.take_turned:  # (a form of no other mode takes it)
            hand.append(self.turned.pop())
            self.turned_taken = True
            sink.took_turned(self, seat, hand[-1])
            if mode == "optional":
                draws -= 1
        if draws > 0:
            self._draw(seat, draws, action.source)
        self.owed_discards[seat] += call.then_discard

    def _draw(self, seat: int, count: int, source: str | int = TOP) -> None:
        """Move ``count`` (> 0) stock cards into ``seat``'s hand from ``source`` (top, bottom, a position)."""
        stock = self.stock
        if source == TOP:
            taken = stock[:count]
            del stock[:count]
        elif source == BOTTOM:
            taken = stock[-count:][::-1]
            del stock[-count:]
        else:
            assert isinstance(source, int)
            taken = stock[source - 1:source - 1 + count]
            del stock[source - 1:source - 1 + count]
        self.hands[seat].extend(taken)
        self.sink.drew(self, seat, source, taken)

    def _all_pass(self) -> None:
        p = self.program
        self.all_passes += 1
        self.sink.all_passed(self)
        if self.round < p.rounds:
            self.round += 1
            if not self._collect(p.round_ante, "round"):
                return
            self._return_locks()
            self.statuses = [UNDECIDED] * self.n
            self.call_of = [None] * self.n
            self.skipped.clear()
            self.deferred.clear()
            self.owed_draws = 0
            self.owed_discards = [0] * self.n
            if p.round_turn_up and self._turn_up():
                self.turn_ups += 1
            self.stage_index = 0
            self.stage_started = False
            return
        if not self._collect(p.last_ante, "last"):  # (without debts: paid in full, or the session ends)
            return
        if p.refuse_short and not self._anyone_can_declare():
            # Without debts a broke table could pass out forever: the session ends instead.
            self._end_session("declare")
            return
        self._return_locks()
        self.dealer = p.next_dealers[self.dealer][0]  # (a redeal: the deal had no declarer)
        self._reset_deal()
        self.redeals += 1
        if p.redeal_antes and not self._ante():
            return
        self.sink.redealt(self)
        self._deal()

    def _anyone_can_declare(self) -> bool:
        costs = [self._worst_cost(DECLARER, cid) for cid in self.program.declaring]
        stacks, locked = self.stacks, self.locked
        return any(stacks[seat] + locked[seat] >= cost for seat in range(self.n) for cost in costs)

    # ------------------------------------------------------------- exchange
    def _call_of(self, seat: int) -> CompiledCall | None:
        cid = self.call_of[seat]
        return None if cid is None else self.program.calls.get(cid)

    def _exchange_step(self, stage: CompiledStage) -> None:
        if not self.stage_started:
            self.stage_started = True
            self.phase = w.EXCHANGE_PHASE
            self.queue = self._exchange_queue(stage)
        if not self.queue:
            self._next_stage()
            return
        seat = self.queue.pop(0)
        if seat in self.deferred:
            self.deferred.discard(seat)
            call = self._call_of(seat)
            assert call is not None
            self.owed_draws -= call.draw
            self._card_effects(seat, call, Action(call.cid))
            if self.owed_discards[seat]:
                self._wait(DISCARD, seat)
            return
        self._wait(EXCHANGING, seat)

    def _exchange_queue(self, stage: CompiledStage) -> list[int]:
        declarer = self.declarer
        assert declarer is not None
        groups = stage.turns[self.call_of[declarer] or ""]  # each group: the (status, call) pairs with a turn
        statuses, call_of, deferred, calls = self.statuses, self.call_of, self.deferred, self.program.calls
        seats = self.program.orders[declarer]
        order: list[int] = []
        for turns in groups:
            for seat in seats:
                cid = call_of[seat]
                if seat not in order and (statuses[seat], cid) in turns:
                    call = None if cid is None else calls.get(cid)
                    if seat in deferred or call is None or call.takes_part:
                        order.append(seat)
        return order

    def _limits(self, seat: int) -> tuple[int, int, int]:
        """(least, most, extra draws) ``seat`` may throw at his exchange turn: his call's limits at this stage,
        the most capped by his hand and to what the stock holds beyond the draws promised to others."""
        least, cap, extra, own, _ = self.program.stages[self.stage_index].limits[self.call_of[seat] or ""]
        size = len(self.hands[seat])
        most = size if cap is None or cap > size else cap
        return least, min(most, len(self.stock) - (self.owed_draws - own) - extra), extra

    def _exchanges(self, seat: int) -> Exchanges:
        """The cards ``seat`` may throw: every set the limits allow, fewest first, each in card order."""
        least, most, _ = self._limits(seat)
        return Exchanges(sorted(self.hands[seat]), least, most)

    def _exchange(self, seat: int, cards: tuple[int, ...], source: str | int = TOP) -> None:
        _, _, extra, own, then_discard = self.program.stages[self.stage_index].limits[self.call_of[seat] or ""]
        self.owed_draws -= own  # (the cards the stock kept for this turn)
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        self.discards.extend(cards)
        count = len(cards) + extra
        self.sink.exchanged(self, seat, cards)
        if count > 0:
            self._draw(seat, count, source)
        if then_discard:
            self.owed_discards[seat] += then_discard
        if self.owed_discards[seat]:
            self._wait(DISCARD, seat)

    def _discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.discards.append(card)
        self.owed_discards[seat] -= 1
        self.sink.discarded(self, seat, card)
        if self.owed_discards[seat]:
            self._wait(DISCARD, seat)

    # ------------------------------------------------------------- checks
    def chips_in_play(self) -> int:
        """The chips at the table (stacks, pot, locked stakes); they and ``house`` (the commission taken,
        which left the table) add up to what the players brought, ``total_chips``."""
        return sum(self.stacks) + self.pot + sum(self.locked)

    def cards_in_play(self) -> int:
        tables: tuple[Sized, ...] = (self.stock, self.turned, self.discards, self.won, self.trick)
        return sum(map(len, self.hands)) + sum(map(len, tables))

