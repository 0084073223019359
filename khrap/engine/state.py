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

    # ``legal_actions``, ``legal_words``, ``pending``, ``observation`` and ``apply`` are the face's (``Face``).

