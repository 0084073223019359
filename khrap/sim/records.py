"""One record per deal, read from the kernel's state and the deal's events after it is settled.

Nothing here changes the kernel: calls come from the ``called`` events, trick
winners from ``took_trick``, all-passes, turn-ups, redeals, P and how the deal
ended from their events; statuses, tricks, round, dealer, stacks and pot from
the state; obligations from ``variant.statuses``.

The compiled machine keeps no log but the same facts (``Machine.said`` and the
like): ``machine_record`` reads them and gives the record ``deal_record`` gives
for the same deal (``tests/test_compiled.py`` checks this deal by deal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from khrap import words as w
from khrap.engine import GameState, Rules
from khrap.engine.events import Event

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
        return self.ending == "play"

    def as_dict(self) -> dict:
        """The record as plain data, its contracts as dicts too."""
        return {**self._asdict(), "contracts": tuple(c._asdict() for c in self.contracts)}


def _label(rules: Rules, status: str, call: str | None) -> str:
    """The contract a seat stood by: the call that gave its status, or how it came by it."""
    if call is None:
        return f"forced {status}" if status in w.ACTIVE else status
    gives = rules.calls[call].effects.status if call in rules.calls else None
    if gives == status:
        return call
    if gives == w.DECLARER:  # overridden: a helper now, or out where the variant says so
        return f"{call} (overridden)"
    return f"forced {status}" if status in w.ACTIVE else call


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
    """One contract per seat, from the settled deal's statuses, calls and tricks (either engine's)."""
    out = []
    for seat, (status, call, took) in enumerate(zip(statuses, call_of, tricks, strict=True)):
        label, need, active = _terms(rules, status, call)
        out.append(Contract(seat, label, status, need, took, (took >= need) if active and reached_play else None))
    return tuple(out)


def deal_record(
    state: GameState, events: Sequence[Event], stacks_before: Sequence[int], pot_before: int, actions: int
) -> DealRecord:
    """The record of the deal just settled in ``state``; ``events`` are the deal's events (``state.log``)."""
    calls: list[tuple[int, str]] = []
    winners: list[int] = []
    all_passes = turn_ups = redeals = 0
    pot_settle = None
    ending = "play"
    after_all_pass = False
    for event in events:
        kind = event.kind
        if kind == "called":
            calls.append((event.seat, event.fields["call"]))
        elif kind == "played":
            continue
        elif kind == "took_trick":
            winners.append(event.seat)
        elif kind == "all_passed":
            all_passes += 1
            after_all_pass = True
        elif kind == "redealt":
            redeals += 1
            after_all_pass = False
        elif kind == "turned" and after_all_pass:
            turn_ups += 1
            after_all_pass = False
        elif kind == "settling":
            pot_settle = event.fields["pot"]
        elif kind == "credited":
            ending = "lone"
        elif kind == "instant_win":
            ending = event.fields["win"]
        elif kind == "session_over":
            ending = "session_over"
    reached_play = ending in ("play", "lone")
    return DealRecord(
        players=state.n,
        hand_size=state.rules.hand_size,
        base_stake=state.rules.variant.base_stake,
        dealer=state.dealer,
        calls=tuple(calls),
        contracts=_contracts(state.rules, state.statuses, state.call_of, state.tricks, reached_play),
        delta=tuple(after - before for after, before in zip(state.stacks, stacks_before, strict=True)),
        stacks=tuple(state.stacks),
        pot_before=pot_before,
        pot_settle=pot_settle,
        pot_after=state.pot,
        rounds=state.round,
        all_passes=all_passes,
        turn_ups=turn_ups,
        redeals=redeals,
        actions=actions,
        trick_winners=tuple(winners),
        ending=ending,
    )


def machine_record(machine: Machine, stacks_before: Sequence[int], pot_before: int, actions: int) -> DealRecord:
    """The record of the deal just settled on the compiled ``machine``: the same as ``deal_record`` gives."""
    rules = machine.program.rules
    return DealRecord(
        players=machine.n,
        hand_size=rules.hand_size,
        base_stake=rules.variant.base_stake,
        dealer=machine.dealer,
        calls=tuple(machine.said),
        contracts=_contracts(rules, machine.statuses, machine.call_of, machine.tricks,
                             machine.ending in ("play", "lone")),
        delta=tuple(after - before for after, before in zip(machine.stacks, stacks_before, strict=True)),
        stacks=tuple(machine.stacks),
        pot_before=pot_before,
        pot_settle=machine.pot_settle,
        pot_after=machine.pot,
        rounds=machine.round,
        all_passes=machine.all_passes,
        turn_ups=machine.turn_ups,
        redeals=machine.redeals,
        actions=actions,
        trick_winners=tuple(machine.trick_winners),
        ending=machine.ending,
    )


def decided_after(record: DealRecord) -> int | None:
    """After how many tricks every active player's fulfilled/failed outcome was certain (None: not played).

    After trick t, with r = hand size - t tricks left, a player with obligation
    ``need`` is certain once he has ``need`` tricks (tricks never go back) or
    once even every remaining trick could not bring him to ``need``.  Once
    certain, an outcome stays certain, so the deal is decided at the latest of
    the players' own first certain tricks.
    """
    if record.ending != "play":
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


__all__ = ["Contract", "DealRecord", "deal_record", "decided_after", "machine_record"]
