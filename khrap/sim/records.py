"""One record per deal, read from the kernel after the deal is settled.

Nothing here changes the kernel.  The one kernel (``GameState`` or a bare ``Machine``, events on or
off) keeps the facts a record needs as the deal goes: the calls said, trick winners, all-passes,
turn-ups, redeals, P and how the deal ended; statuses, tricks, round, dealer, stacks and pot are its
end state; obligations come from ``variant.statuses``.  ``tests/test_kernel_branches.py`` checks
that these facts say what the deal's events say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from khrap import words as w
from khrap.engine import Rules

if TYPE_CHECKING:
    from khrap.engine.compiled import Machine


class Contract(NamedTuple):
    """What one seat stood for when the deal ended, and how it went.

    Records are named tuples: immutable like frozen dataclasses, and several times cheaper to make,
    which counts when a simulation makes five of them a deal (a record and a contract per seat).
    Being tuples, they also compare equal to plain tuples of the same values, iterate, and go to
    JSON as lists: use ``DealRecord.as_dict`` for named fields."""

    seat: int
    label: str  # the call that gave the status; "khrap (overridden)", "forced helper"; the last call of an out seat
    status: str  # declarer, helper, out (undecided when the deal never reached play)
    need: int  # tricks the status obliges (0 when out)
    tricks: int
    fulfilled: bool | None  # None: out, or no trick could be played (instant win, session over)


class DealRecord(NamedTuple):
    """Everything the statistics need about one settled deal."""

    players: int
    hand_size: int
    base_stake: int
    dealer: int  # the dealer of the deal's last dealing (after any redeal): positions count from his left
    calls: tuple[tuple[int, str], ...]  # every call said, in order, (seat, call id); all-pass rounds included
    contracts: tuple[Contract, ...]  # one per seat
    delta: tuple[int, ...]  # chips won (+) or lost (-) by each seat, ante included
    stacks: tuple[int, ...]  # stacks after the deal
    pot_before: int  # before the ante
    pot_settle: int | None  # P, the pot when settlement began (None: no settlement)
    pot_after: int
    rounds: int  # bidding rounds of the last dealing (1 + its all-passes)
    all_passes: int  # every all-pass of the deal, redeals included
    turn_ups: int  # trumps turned after an all-pass (not the first turn-up of a dealing)
    redeals: int
    actions: int  # decisions made by the players
    trick_winners: tuple[int, ...]  # the seat that took each trick, in order
    ending: str  # "play", "lone" (lone declarer credited), an instant win's id, or "session_over"

    @property
    def played(self) -> bool:
        """True when tricks were played out."""
        return self.ending == w.PLAY_PHASE

    def as_dict(self) -> dict:
        """The record as plain data, its contracts as dicts too."""
        return {**self._asdict(), "contracts": tuple(c._asdict() for c in self.contracts)}


FORCED = "forced "
"""How a contract label begins where a call forced the status on the seat (``forced helper``): no call of its own."""


def is_forced(label: str) -> bool:
    """Whether a contract label is a forced status (``forced helper``), not a call the seat said."""
    return label.startswith(FORCED)


def _label(rules: Rules, status: str, call: str | None) -> str:
    """The contract a seat stood by: the call that gave its status, or how it came by it."""
    if call is None:
        return FORCED + status if status in w.ACTIVE else status
    gives = rules.calls[call].effects.status if call in rules.calls else None
    if gives == status:
        return call
    if gives == w.DECLARER:  # overridden: a helper now, or out where the variant says so
        return f"{call} (overridden)"
    return FORCED + status if status in w.ACTIVE else call


# By id of the rules, kept alive here so that the id is not reused: (status, call) -> its terms.  The
# simulator makes one Rules per variant and process (``runner._rules``), so this holds a handful.
_TERMS: dict[int, tuple[Rules, dict]] = {}


def _terms(rules: Rules, status: str, call: str | None) -> tuple[str, int, bool]:
    """(label, tricks needed, active) of a seat that ended with ``status`` by ``call``, worked out once."""
    entry = _TERMS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_TERMS) > 64:
            _TERMS.clear()
        entry = _TERMS[id(rules)] = (rules, {})
    found = entry[1].get((status, call))
    if found is None:
        active = status in w.ACTIVE
        need = rules.variant.statuses[status].tricks if active else 0
        found = entry[1][status, call] = (_label(rules, status, call), need, active)
    return found


def _contracts(
    rules: Rules, statuses: Sequence[str], call_of: Sequence[str | None], tricks: Sequence[int], reached_play: bool
) -> tuple[Contract, ...]:
    """One contract per seat, from the settled deal's statuses, calls and tricks."""
    out = []
    for seat, (status, call, took) in enumerate(zip(statuses, call_of, tricks, strict=True)):
        label, need, active = _terms(rules, status, call)
        out.append(Contract(seat, label, status, need, took, (took >= need) if active and reached_play else None))
    return tuple(out)


def deal_record(table: Machine, stacks_before: Sequence[int], pot_before: int, actions: int) -> DealRecord:
    """The record of the deal just settled at ``table`` (a ``GameState`` or a bare machine: the one kernel).

    The kernel keeps the facts a record reads whether or not it emits events, so one builder serves both."""
    rules = table.program.rules
    return DealRecord(
        players=table.n,
        hand_size=rules.hand_size,
        base_stake=rules.variant.base_stake,
        dealer=table.dealer,
        calls=tuple(table.said),
        contracts=_contracts(rules, table.statuses, table.call_of, table.tricks,
                             table.ending in (w.PLAY_PHASE, "lone")),
        delta=tuple(after - before for after, before in zip(table.stacks, stacks_before, strict=True)),
        stacks=tuple(table.stacks),
        pot_before=pot_before,
        pot_settle=table.pot_settle,
        pot_after=table.pot,
        rounds=table.round,
        all_passes=table.all_passes,
        turn_ups=table.turn_ups,
        redeals=table.redeals,
        actions=actions,
        trick_winners=tuple(table.trick_winners),
        ending=table.ending,
    )



def decided_after(record: DealRecord) -> int | None:
    """After how many tricks every active player's fulfilled/failed outcome was certain (None: not played).

    After trick t, with r = hand size - t tricks left, a player with obligation
    ``need`` is certain once he has ``need`` tricks (tricks never go back) or
    once even every remaining trick could not bring him to ``need``.  Once
    certain, an outcome stays certain, so the deal is decided at the latest of
    the players' own first certain tricks.
    """
    if record.ending != w.PLAY_PHASE:
        return None
    winners = record.trick_winners
    size = len(winners)
    latest = 0
    for c in record.contracts:
        if c.status not in w.ACTIVE:
            continue
        seat, need, taken, t = c.seat, c.need, 0, 0
        while taken < need <= taken + size - t:  # neither certain to be fulfilled nor certain to fail
            taken += winners[t] == seat
            t += 1
        if t > latest:
            latest = t
    return latest


__all__ = ["FORCED", "Contract", "DealRecord", "deal_record", "decided_after", "is_forced"]
