"""Call listers: for one calls stage, the calls open to a seat, found by running each call's tests as data.

The machine asks "which calls may this seat make?" several times a deal.  Each precondition of the
preconditions table (the engine's ``preconditions`` module, the one the refusals are worked out from)
is a ``Check``: an object of one class per kind of test (the seat is the dealer, he holds a card, the
stock holds enough cards, ...) holding the variant's values (a card, a rank, a count), whose ``met``
is the one definition of that test, read by the listers here and by the refusals (``preconditions.unmet``).
A ``Lister`` holds, for each call of the stage, the tests the listing runs and the forms it lists, and
runs them in a loop (where the kernel runs as plain Python, the machine runs them written out as one
function instead: ``machine.written_lister``, the playout's idiom).  ``tests/test_compiled_parts.py``
checks the lists against the table; no variant or call is named here.  A call
with an optional take of the turned card has two forms, tested apart: only the one that takes needs the
turned card and draws one card fewer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from khrap.engine.actions import Action, call_forms

if TYPE_CHECKING:  # (the machine imports this module through the program: the type is read natively all the same)
    from khrap.engine.compiled.machine import Machine


def trumps(hand: list[int], trump: int | None) -> int:
    """How many trumps ``hand`` holds (none while no trump is named)."""
    if trump is None:
        return 0
    count = 0
    for card in hand:
        if card // 13 == trump:
            count += 1
    return count


class Check:
    """One precondition's test: true (``met``) when ``seat`` meets it now on machine ``m`` (``hand``: his cards,
    ``trump``: the trump named, both read once per listing).  This base is always met (an entry about how a
    call is written, which listed forms always meet: ``preconditions``); each kind is a subclass, its values
    in ``n`` (a card, a rank, a count, base stakes), ``flag``, ``status`` and ``cid``."""

    n: int
    flag: bool
    status: str
    cid: str

    def __init__(self, n: int = 0, flag: bool = False, status: str = "", cid: str = "") -> None:
        self.n = n
        self.flag = flag
        self.status = status
        self.cid = cid

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Check) and type(other) is type(self) and other.n == self.n
                and other.flag == self.flag and other.status == self.status and other.cid == self.cid)

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.n, self.flag, self.status, self.cid))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.n!r}, {self.flag!r}, {self.status!r}, {self.cid!r})"


class Always(Check):
    """Always met."""


class Dealer(Check):
    """He is the dealer."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return seat == m.dealer


class IsDeclarer(Check):
    """He is the declarer."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return m.declarer == seat


class DeclarerExists(Check):
    """Someone is the declarer."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return m.declarer is not None


class NoDeclarer(Check):
    """Nobody is the declarer."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return m.declarer is None


class NoOtherDeclarer(Check):
    """Nobody is the declarer, or he is."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        declarer = m.declarer
        return declarer is None or declarer == seat


class Holds(Check):
    """He holds card ``n``."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return m.in_hand(hand, self.n)  # (the machine's: how the build compiled or not finds a card)


class HoldsTrump(Check):
    """He holds the trump of rank ``n`` (nobody does while no trump is named)."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return trump is not None and m.in_hand(hand, trump * 13 + self.n)


class TrumpsAtLeast(Check):
    """He holds ``n`` trumps or more."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return trumps(hand, trump) >= self.n


class TrumpsAtMost(Check):
    """He holds ``n`` trumps or fewer."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return trumps(hand, trump) <= self.n


class TurnedThere(Check):
    """The turned card is on the table, not taken."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return not m.turned_taken and bool(m.turned)


class TurnedRank(Check):
    """The turned card is on the table, not taken, and of rank ``n``."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        turned = m.turned
        return not m.turned_taken and bool(turned) and turned[-1] % 13 == self.n


class PotAtMost(Check):
    """The pot holds at most ``n`` base stakes, times the seats when ``flag`` (per player)."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        cap = self.n * m.program.base_stake
        return m.pot <= (cap * m.n if self.flag else cap)


class StockHolds(Check):
    """The stock holds ``n`` cards beyond those owed."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return self.n <= len(m.stock) - m.owed_draws


class Covers(Check):
    """Every stack call ``cid`` (giving ``status``) may charge covers the most it can cost (``Machine.can_cover``)."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return m.can_cover(seat, self.status, self.cid)


class NotLooked(Check):
    """He has not looked at his cards."""

    def met(self, m: Machine, seat: int, hand: list[int], trump: int | None) -> bool:
        return not m.looked[seat]


# One call form's listing: the tests it needs and the forms it lists when they are met (or, ``sized`` not "",
# the forms of call ``sized``, a swap, for the hand's size, made when a size is first asked for).
Entry = tuple[tuple[Check, ...], tuple[Action, ...], str]


class Lister:
    """The calls of one calls stage (while a declarer exists or not) as ``open(machine, seat)`` lists them: each
    call's forms whose tests ``seat`` meets, in the stage's order (``look`` not included)."""

    tests: list[tuple[Check, ...]]
    forms: list[tuple[Action, ...]]
    swaps: list[str]  # "" or the swapping call whose forms depend on the hand's size
    sized: dict[tuple[str, int], tuple[Action, ...]]
    where: str  # the stage, as error messages name it
    # The same listing as one Python function, made by the machine at its first use where the kernel runs as
    # plain Python (``machine.written_lister``), else None.
    written: Callable[[Machine, int], list[Action]] | None

    def __init__(self, where: str, entries: list[Entry]) -> None:
        self.where = where
        self.tests = [tests for tests, _, _ in entries]
        self.forms = [forms for _, forms, _ in entries]
        self.swaps = [sized for _, _, sized in entries]
        self.sized = {}
        self.written = None

    def open(self, m: Machine, seat: int) -> list[Action]:
        """The forms open to ``seat`` now, in order."""
        hand = m.hands[seat]
        trump = m.trump
        found: list[Action] = []
        tests, swaps = self.tests, self.swaps
        for i in range(len(tests)):
            met = True
            for test in tests[i]:
                if not test.met(m, seat, hand, trump):
                    met = False
                    break
            if met:
                swap = swaps[i]
                forms = self.sized_forms(swap, len(hand)) if swap else self.forms[i]
                if len(forms) == 1:  # (most calls have one form: an append is cheaper than an extend)
                    found.append(forms[0])
                else:
                    found.extend(forms)
        return found

    def sized_forms(self, cid: str, size: int) -> tuple[Action, ...]:
        """The forms of ``cid``, a swapping call, for a hand of ``size`` cards (made once each)."""
        key = (cid, size)
        found = self.sized.get(key)
        if found is None:
            found = self.sized[key] = call_forms(cid, "swap", size)
        return found

    def __repr__(self) -> str:
        return f"<calls lister: {self.where}>"

