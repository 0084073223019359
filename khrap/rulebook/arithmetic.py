"""Settlement, itemized: each payment with the numbers behind it, for worked examples.

:func:`itemize` does not settle a third time: the kernel settles (trick
shares, the declarer's prize, penalties, locked stakes, redistribution) and
keeps each step in the ledger of its ``settled`` event; this module reads that
ledger into :class:`Item` records a template can word.  A worked example reads
the ledger of the deal the kernel actually played (:func:`from_ledger`), so a
sheet can never print arithmetic the engine would not do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from khrap.cards import parse_card
from khrap.engine import GameState, Rules
from khrap.engine.derived import Derived
from khrap.engine.events import Ledger, LedgerItem, Settled
from khrap.variant.schema import Variant


class ArithmeticMismatch(AssertionError):
    """The itemized settlement and the kernel's disagree: a bug in one of them."""


@dataclass
class Player:
    """A player in the game when settlement begins."""

    seat: int
    status: str  # declarer or helper
    call: str | None
    tricks: int
    stake: int  # his status stake in chips
    locked: int = 0
    held: list[str] = field(default_factory=list)  # cards held when play began


@dataclass
class Table:
    """What settlement starts from."""

    pot: int  # P
    players: list[Player]  # clockwise from the declarer, declarer first
    declarer_round: int = 1
    trump: str | None = None  # suit letter
    seats: int = 4
    stacks: list[int] = field(default_factory=list)


Item = LedgerItem
"""One step of a settlement: the kernel's own ledger entry (``khrap.engine.events.LedgerItem``)."""


@dataclass
class Settlement:
    p: int
    unit: int
    divisor: int
    failed: list[int]
    items: list[Item]
    net: dict[int, int]  # chips each player's stack gains in settlement
    pot: int
    outcome: dict[int, int] = field(default_factory=dict)  # against his stack before he locked a stake


def itemize(v: Variant, table: Table) -> Settlement:
    """Settle ``table`` under ``v``'s rules with the kernel, and read its ledger: one item per payment."""
    state = _table_state(v, table)
    before = list(state.stacks)
    state.settle()
    return from_ledger(ledger_of(state.log), table.players, before, state.stacks, state.pot)


def ledger_of(events) -> Ledger:
    """The itemised settlement the kernel's last ``settled`` event carries."""
    for event in reversed(events):
        if isinstance(event, Settled) and event.fields.get("ledger") is not None:
            return event.fields["ledger"]
    raise ArithmeticMismatch("the kernel settled no played deal: there is no ledger to read")


def from_ledger(ledger: Ledger, players: list[Player], stacks_before: list[int], stacks_after: list[int],
                pot: int) -> Settlement:
    """The settlement of ``players`` as the kernel's ledger itemises it; ``net``: what each stack gained."""
    items = list(ledger.items)
    net = {pl.seat: stacks_after[pl.seat] - stacks_before[pl.seat] for pl in players}
    outcome = {pl.seat: net[pl.seat] - pl.locked for pl in players}
    return Settlement(ledger.pot, ledger.unit, ledger.divisor, list(ledger.failed), items, net, pot, outcome)


def _table_state(v: Variant, table: Table) -> GameState:
    """A kernel state at the start of settlement, as ``table`` describes it."""
    n = max(table.seats, v.players.min)
    state = GameState(Rules(v, n), n, stacks=table.stacks or 0, pot=table.pot)
    state.started = True
    state.declarer = table.players[0].seat
    state.declarer_round = table.declarer_round
    state.trump = "SHDC".index(table.trump) if table.trump else None
    state.statuses = ["out"] * state.n
    for pl in table.players:
        state.statuses[pl.seat] = pl.status
        state.call_of[pl.seat] = pl.call
        state.tricks[pl.seat] = pl.tricks
        state.stake_of[pl.seat] = pl.stake
        state.locked[pl.seat] = pl.locked
        state.held_at_play[pl.seat] = [parse_card(c) for c in pl.held]
    return state


def kernel_settle(v: Variant, table: Table) -> tuple[list[int], int]:
    """Settle the same table with the kernel: the stacks after (from ``table.stacks``) and the pot."""
    state = _table_state(v, table)
    state.settle()
    return list(state.stacks), state.pot


def check(v: Variant, table: Table, result: Settlement) -> None:
    """Raise :class:`ArithmeticMismatch` unless the kernel settles ``table`` the same way."""
    n = max(table.seats, v.players.min)
    start = table.stacks or [0] * n
    stacks, pot = kernel_settle(v, table)
    mine = [start[s] + result.net.get(s, 0) for s in range(n)]
    if stacks != mine or pot != result.pot:
        raise ArithmeticMismatch(f"kernel: stacks {stacks}, pot {pot}; rulebook: stacks {mine}, pot {result.pot}")


def sample_table(v: Variant) -> Table:
    """A made-up settlement for the sheet: P = 10, the declarer takes all but one trick,
    one helper takes the last, another (where the table allows) takes none."""
    seats = min(max(3, v.players.min), v.players.max)
    pot = 10
    declarer_call = _first_call(v, "declarer")
    helper_call = _first_call(v, "helper")
    players = [Player(0, "declarer", declarer_call, v.hand_size - 1, 0)]
    players.append(Player(1, "helper", helper_call, 1, 0))
    if seats >= 3:
        players.append(Player(2, "helper", helper_call, 0, 0))
    for pl in players:
        rule = v.statuses[pl.status]
        pl.stake = rule.stake.base * v.base_stake + rule.stake.pots * pot
        pl.locked = pl.stake if rule.locked else 0
    return Table(pot, players, seats=seats, stacks=[0] * seats, trump="H")


def _first_call(v: Variant, status: str) -> str | None:
    """The first plain call (``Derived.plain_call``) that gives ``status``, in step order."""
    return Derived(v).plain_call(status)
