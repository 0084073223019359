"""The game state of a session: chips, the deal in progress, whose turn it is.

A session is a run of deals at one table.  ``GameState`` holds everything;
the phase modules (``calls``, ``exchange``, ``play``, ``settlement``) read and
change it.  ``advance`` runs the kernel's own steps (dealing, turn-ups, the
draws a call makes, instant wins, settlement) until a seat has to decide.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass

from khrap import words as w
from khrap.engine.events import Event
from khrap.engine.randomness import shuffle
from khrap.engine.rules import Rules
from khrap.variant.schema import Variant


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the kernel waits for: its kind and the seat to make it."""

    kind: str  # "call", "discard", "exchange", "trump", "play"
    seat: int


class GameState:
    """A table of ``players`` seats playing ``variant`` deal after deal."""

    def __init__(
        self,
        variant: Variant | Rules,
        players: int,
        *,
        dealer: int = 0,
        stacks: int | Sequence[int] = 100,
        pot: int = 0,
        seed: int | None = 0,
        decks: Sequence[Sequence[int]] = (),
    ) -> None:
        self.rules = variant if isinstance(variant, Rules) else Rules(variant, players)
        self.n = players
        self.rng = random.Random(seed)
        self.scripted_decks = [list(d) for d in decks]
        self.decks_dealt: list[list[int]] = []  # every deck dealt, top card first (records, replays)
        self.stacks = [stacks] * players if isinstance(stacks, int) else list(stacks)
        if len(self.stacks) != players:
            raise ValueError(f"stacks lists {len(self.stacks)} seats for {players} players")
        self.pot = pot
        self.locked = [0] * players
        self.total_chips = sum(self.stacks) + pot
        self.dealer = dealer % players
        self.deals_completed = 0
        self.skip_next_ante = False
        self.started = False
        self.session_over = False
        self.log: list[Event] = []
        self.last_legal: tuple = (None, [])
        self.deal_log_start = 0  # where the current deal's events begin in the log
        self._reset_deal()
        self.phase = w.SETTLED
        self.pending: Pending | None = None

    # ----------------------------------------------------------- deal setup
    def _reset_deal(self) -> None:
        n = self.n
        self.round = 1
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.looked = [False] * n
        self.stock: list[int] = []
        self.turned: list[int] = []
        self.turned_taken = False  # the current (latest) turn-up has left the table
        self.discards: list[int] = []
        self.won: list[int] = []
        self.trump: int | None = None
        self.statuses = [w.UNDECIDED] * n
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
        self.shown: list[int] = []
        self.trick: list[tuple[int, int, bool]] = []
        self.tricks = [0] * n
        self.leader: int | None = None
        self.in_play: list[int] = []  # players in play, clockwise from the declarer, set when play starts
        self.held_at_play: list[list[int]] = [[] for _ in range(n)]
        self.next_dealer: int | None = None

    def start_deal(self) -> None:
        """Ante, shuffle and deal the next deal (or redeal), then run to the first decision."""
        if self.session_over:
            raise IllegalAction("the session is over: nobody can cover a declaring call")
        if self.started:
            self.dealer = self.next_dealer if self.next_dealer is not None else (self.dealer + 1) % self.n
        self.started = True
        self.deal_log_start = len(self.log)
        self._reset_deal()
        self._ante()
        self._shuffle_and_deal()
        self.advance()

    def redeal(self) -> None:
        """After the last all-pass round: the next dealer deals anew in the same deal."""
        self.return_locks()
        self.dealer = (self.dealer + 1) % self.n
        self._reset_deal()
        if self.rules.variant.all_pass.redeal_ante == "normal":
            self._ante()
        self.emit("redealt", self.dealer)
        self._shuffle_and_deal()

    def return_locks(self) -> None:
        for seat in range(self.n):
            self.stacks[seat] += self.locked[seat]
            self.locked[seat] = 0

    def _ante(self) -> None:
        ante = self.rules.variant.ante
        if self.skip_next_ante:
            self.skip_next_ante = False
            return
        if ante.when == "empty_pot" and self.pot != 0:
            return
        self.collect_from_all(ante.amount, "ante")

    def collect_from_all(self, stakes: int, reason: str) -> None:
        """Every player puts ``stakes`` base stakes in the pot; ``reason``: ante, round (an all-pass) or last."""
        if stakes <= 0:
            return
        chips = stakes * self.rules.variant.base_stake
        for seat in range(self.n):
            self.stacks[seat] -= chips
            self.pot += chips
        self.emit("anted", reason=reason, round=self.round, chips=chips, pot=self.pot)

    def _next_deck(self) -> list[int]:
        if self.scripted_decks:
            deck = self.scripted_decks.pop(0)
        else:
            deck = list(self.rules.deck)
            shuffle(self.rng, deck)
        self.decks_dealt.append(list(deck))
        return deck

    def _shuffle_and_deal(self) -> None:
        deck = self._next_deck()
        size = self.rules.hand_size
        order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
        for i in range(size * self.n):
            self.hands[order[i % self.n]].append(deck[i])
        self.stock = deck[size * self.n :]
        self.phase = w.BIDDING
        self.emit("dealt", secret={"hands": tuple(tuple(h) for h in self.hands)}, dealer=self.dealer, size=size)
        if self.rules.variant.trump.source == "turned":
            self.turn_up()

    def turn_up(self) -> None:
        """Turn the top stock card; its suit becomes trump."""
        if not self.stock:
            return
        card = self.stock.pop(0)
        self.turned.append(card)
        self.turned_taken = False
        self.trump = card // 13
        self.emit("turned", card=card, trump=self.trump)

    # -------------------------------------------------------------- events
    def emit(self, kind: str, seat: int | None = None, secret: dict | None = None, **fields) -> None:
        """Record an event (see the ``events`` module): ``fields`` every seat sees, ``secret`` only ``seat``."""
        self.log.append(Event(kind, seat, fields, secret))

    # ------------------------------------------------------------ queries
    @property
    def to_act(self) -> int | None:
        return None if self.pending is None else self.pending.seat

    def active(self, seat: int) -> bool:
        return self.statuses[seat] in w.ACTIVE

    def seats_from(self, start: int) -> tuple[int, ...]:
        """Every seat clockwise beginning with ``start``."""
        return self.rules.orders[start % self.n]

    def clockwise_after(self, seat: int) -> list[int]:
        return self.seats_from(seat + 1)

    def current_turned(self) -> int | None:
        """The current turned trump card: the latest turn-up while it is still on the table."""
        return self.turned[-1] if self.turned and not self.turned_taken else None

    def worst_cost(self, status: str, cid: str | None = None) -> int:
        """The most ``status`` (given by call ``cid``) can cost its holder (see ``calls.worst_cost``)."""
        return calls.worst_cost(self, status, cid)

    def can_cover(self, seat: int, status: str, cid: str | None) -> bool:
        """Whether ``seat``'s stack covers the most the status can cost him (tables without debts)."""
        cost = calls.worst_cost(self, status, cid)
        return cost <= 0 or self.stacks[seat] >= cost

    def chips_in_play(self) -> int:
        return sum(self.stacks) + self.pot + sum(self.locked)

    def cards_in_play(self) -> int:
        tables = (self.stock, self.turned, self.discards, self.won, self.trick)
        return sum(map(len, self.hands)) + sum(map(len, tables))

    def observation(self, seat: int) -> dict:
        """What ``seat`` may see now (see the observation module)."""
        from khrap.engine.observation import observation

        return observation(self, seat)

    def clone(self) -> GameState:
        return copy.deepcopy(self)

    # --------------------------------------------------------------- flow
    def advance(self) -> None:
        flow.advance(self)

    def legal_actions(self) -> list:
        return legal.legal_actions(self)

    def legal_words(self) -> list[str]:
        return legal.legal_words(self)

    def apply(self, action, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` (default: the seat to act), or raise IllegalAction."""
        flow.apply(self, action, seat)

    def set_pending(self, kind: str, seat: int) -> None:
        """Wait for ``seat``; he looks at his cards unless a blind call is open to him."""
        self.pending = Pending(kind, seat)
        if not self.looked[seat] and not (kind == "call" and self.blind_call_open(seat)):
            self.looked[seat] = True

    def blind_call_open(self, seat: int) -> bool:
        return legal.blind_call_open(self, seat)

    def next_stage(self) -> None:
        self.stage_index += 1
        self.stage_started = False
        self.queue = []


# The phase modules import this one; importing them last keeps the cycle harmless
# and saves an import look-up on every action.
from khrap.engine import calls, flow, legal  # noqa: E402
