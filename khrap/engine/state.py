"""The game state of a session: the public face of the one kernel.

``GameState`` is the kernel (``compiled.Machine``: every rule's step functions over the compiled
``Program``) with what a table of people and bots needs on top: actions checked before they are
applied, with the reason when one is refused (``legal``, one table of tests and sentences),
concrete ``Action`` objects, the events on (``log``), observations and clones.  There is no rule
code here: dealing, calls, the exchange, tricks and settlement are the kernel's.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from khrap import words as w
from khrap.engine.actions import Action, IllegalAction
from khrap.engine.compiled.face import Face
from khrap.engine.compiled.table import mypyc_attr
from khrap.engine.kinds import CALL
from khrap.engine.observation import SeatViews
from khrap.engine.pending import Pending
from khrap.engine.rules import Rules
from khrap.variant.schema import Variant

__all__ = ["GameState", "IllegalAction", "Pending"]


@mypyc_attr(allow_interpreted_subclasses=True)  # copies and pickles: see compiled/table.py
class GameState(Face):
    """A table of ``players`` seats playing ``variant`` deal after deal.

    Compiled with the kernel (``KERNEL_MODULES``, docs/compiled.md): a native class, so the kernel's steps call
    each other natively on a table too; copies and pickles carry every attribute."""

    keep_held = True
    record_decks = True

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
        rules = variant if isinstance(variant, Rules) else Rules(variant, players)
        super().__init__(rules.program, seed=seed, stacks=stacks, pot=pot, dealer=dealer, decks=decks,
                         emitting=True)
        # The last listing and its words (``Face``: the hot steps, compiled with the kernel).
        self.last_legal = (None, [])
        self._words = (None, [])
        self.seat_views = SeatViews()

    def _over(self, message: str) -> Exception:
        return IllegalAction(message)

    # ------------------------------------------------------------ queries
    @property
    def to_act(self) -> int | None:
        return None if self.kind is None else self.seat

    def active(self, seat: int) -> bool:
        return self.statuses[seat] in w.ACTIVE

    def seats_from(self, start: int) -> tuple[int, ...]:
        """Every seat clockwise beginning with ``start``."""
        return self.program.orders[start % self.n]

    def blind_call_open(self, seat: int) -> bool:
        """Whether a blind call is legal for ``seat`` now (he has not looked)."""
        return self.kind is CALL and seat == self.seat and self.may_look

    def legal_numbers(self) -> dict[int, Action]:
        """The legal actions by their numbers in the rules' action space (``Rules.action_space``)."""
        if self.kind is None:
            return {}
        return self.rules.action_space.mask(self.legal_actions(), self.hands[self.seat])

    def clone(self) -> GameState:
        """An independent copy (the compiled program is shared: it never changes)."""
        return copy.deepcopy(self, {id(self.program): self.program})

    def play_copy(self) -> GameState:
        """A copy for play: what ``copying.copy_state`` makes by its general walk of the fields, each written out.

        Lists copied, with the lists in them (hands, decks); sets copied; the observations' views started
        afresh (their ``__copy__``); all else shared (numbers, words, tuples, the program, the sink, the random
        generator, the kinds, the last listing).  Compiled, each field is one native read and write, where the
        general copy has ``__getstate__`` make a dict of them by name (half of its cost, docs/solver.md,
        "Speed").  ``copy_state`` takes this branch for a ``GameState`` itself; tests/test_copy_native.py
        compares the two field by field on every built-in and fails on a field this copy leaves out."""
        kind: Any = type(self)
        new: GameState = kind.__new__(kind)
        # the face's (the last listing and its marks: immutable, shared; the copy's hands are new lists, so the
        # marks, which hold the hand listed itself, do not match them: the copy lists its decision afresh)
        new.last_legal, new._words = self.last_legal, self._words
        views = self.seat_views
        new.seat_views = None if views is None else views.__copy__()
        # the table's (``Table``'s fields, in its order)
        new.program, new.n, new.rng = self.program, self.n, self.rng
        new.stacks, new.total_chips, new.pot = self.stacks[:], self.total_chips, self.pot
        new.locked, new.house, new.dealer, new.next_dealer = self.locked[:], self.house, self.dealer, self.next_dealer
        new.started, new.skip_next_ante, new.session_over = self.started, self.skip_next_ante, self.session_over
        new.scripted_decks = [deck[:] for deck in self.scripted_decks]
        new.decks_dealt = [deck[:] for deck in self.decks_dealt]
        new.sink, new.log, new.quiet = self.sink, self.log[:], self.quiet[:]
        new.deal_log_start, new.items, new.phase = self.deal_log_start, self.items[:], self.phase
        new.deals_completed, new.kind, new.seat = self.deals_completed, self.kind, self.seat
        new.may_look, new.settled, new.round = self.may_look, self.settled, self.round
        new.hands = [hand[:] for hand in self.hands]
        new.looked, new.stock, new.turned = self.looked[:], self.stock[:], self.turned[:]
        new.turned_taken, new.discards, new.won = self.turned_taken, self.discards[:], self.won[:]
        new.trump, new.statuses, new.call_of = self.trump, self.statuses[:], self.call_of[:]
        new.stake_of, new.declarer, new.declarer_round = self.stake_of[:], self.declarer, self.declarer_round
        new.stage_index, new.stage_started, new.queue = self.stage_index, self.stage_started, self.queue[:]
        new.skipped, new.owed_discards = self.skipped.copy(), self.owed_discards[:]
        new.owed_draws, new.deferred, new.shown = self.owed_draws, self.deferred.copy(), self.shown[:]
        new.trick, new.tricks, new.best, new.best_seat = self.trick[:], self.tricks[:], self.best, self.best_seat
        new.leader, new.in_play = self.leader, self.in_play[:]
        held = self.held_at_play  # (a list of the hands kept, or a tuple of empty ones when none are kept)
        new.held_at_play = [h[:] if isinstance(h, list) else h for h in held] if isinstance(held, list) else held
        new.said, new.all_passes, new.turn_ups = self.said[:], self.all_passes, self.turn_ups
        new.redeals, new.trick_winners = self.redeals, self.trick_winners[:]
        new.ending, new.pot_settle = self.ending, self.pot_settle
        return new

    # ``legal_actions``, ``legal_words``, ``pending``, ``observation`` and ``apply`` are the face's (``Face``).

