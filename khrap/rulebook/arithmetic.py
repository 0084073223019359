"""Settlement, itemized: each payment with the numbers behind it, for worked examples.

:func:`itemize` follows the settlement rules of a variant step by step (trick
shares, the declarer's prize, penalties, locked stakes, redistribution) and
keeps each payment as an :class:`Item` that a template can word.  Every
worked example is also settled by the kernel (:func:`kernel_settle`), and
:func:`check` refuses an itemization that disagrees with it, so a sheet can
never print arithmetic the engine would not do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from khrap.cards import parse_card
from khrap.engine import GameState, Rules
from khrap.engine import settlement as kernel_settlement
from khrap.engine.rules import pattern_card
from khrap.variant.schema import Penalty, Variant


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


@dataclass(frozen=True)
class Item:
    """One step of a settlement.

    ``kind``: ``share`` (tricks × unit), ``prize``, ``penalty``, ``unlock``,
    ``redistribute`` (pot × tricks ÷ total), ``rounding`` (what rounding left, to
    the most tricks), ``left`` (what stays in the pot).  ``chips`` is what moved
    (into the pot for ``penalty``), ``pot`` the pot after the step.
    """

    kind: str
    seat: int | None
    chips: int
    pot: int
    tricks: int = 0
    unit: int = 0
    total: int = 0
    base: int = 0  # pot the share was taken from (redistribute), P otherwise
    detail: str = ""  # prize kind, or penalty pay ("stake" or "amount")
    pots: int = 0  # a penalty amount: pots × P ...
    bases: int = 0  # ... plus base stakes (in chips)


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


def _matches(v: Variant, player: Player, penalty: Penalty, trump: int | None) -> bool:
    if penalty.status is not None and penalty.status != player.status:
        return False
    if penalty.calls and player.call not in penalty.calls:
        return False
    if penalty.tricks is not None and penalty.tricks != player.tricks:
        return False
    held = {parse_card(c) for c in player.held}
    return all(pattern_card(p, trump) in held for p in penalty.held)


def itemize(v: Variant, table: Table) -> Settlement:
    """Settle ``table`` under ``v``'s rules, one item per payment."""
    s = v.settlement
    p = table.pot
    pot = p
    trump = "SHDC".index(table.trump) if table.trump else None
    items: list[Item] = []
    net = {pl.seat: 0 for pl in table.players}
    locked = {pl.seat: pl.locked for pl in table.players}
    failed = [pl.seat for pl in table.players if pl.tricks < v.statuses[pl.status].tricks]
    divisor = s.trick_share.divisor or v.hand_size
    unit = p // divisor

    def take(seat: int, chips: int) -> int:
        nonlocal pot
        chips = max(0, min(chips, pot))
        pot -= chips
        net[seat] += chips
        return chips

    for pl in table.players:
        if pl.status in s.trick_share.statuses and not (s.trick_share.fulfilled_only and pl.seat in failed):
            chips = take(pl.seat, unit * pl.tricks)
            if chips:
                items.append(Item("share", pl.seat, chips, pot, tricks=pl.tricks, unit=unit, base=p))
    declarer = table.players[0]
    if s.declarer_prize and declarer.seat not in failed:
        prize = s.declarer_prize[min(table.declarer_round, len(s.declarer_prize)) - 1]
        chips = take(declarer.seat, {"rest": pot, "half": p // 2, "none": 0}[prize])
        if chips:
            items.append(Item("prize", declarer.seat, chips, pot, base=p, detail=prize))
    for pl in table.players:
        if pl.seat not in failed:
            continue
        penalty = next((pen for pen in s.penalties if _matches(v, pl, pen, trump)), None)
        if penalty is None:
            continue
        if penalty.pay == "stake":
            chips, detail = pl.stake, "stake"
        else:
            chips, detail = penalty.pay.base * v.base_stake + penalty.pay.pots * p, "amount"
        from_lock = min(chips, locked[pl.seat])
        locked[pl.seat] -= from_lock
        net[pl.seat] -= chips - from_lock
        pot += chips
        pots, bases = (0, 0) if penalty.pay == "stake" else (penalty.pay.pots, penalty.pay.base * v.base_stake)
        items.append(
            Item("penalty", pl.seat, chips, pot, tricks=pl.tricks, base=p, detail=detail, pots=pots, bases=bases)
        )
    for pl in table.players:
        if locked[pl.seat]:
            items.append(Item("unlock", pl.seat, locked[pl.seat], pot))
            net[pl.seat] += locked[pl.seat]
            locked[pl.seat] = 0
    if s.pot_after == "redistribute":
        winners = [pl for pl in table.players if pl.seat not in failed and pl.tricks > 0]
        total = sum(pl.tricks for pl in winners)
        base = pot
        if total and base > 0:
            for pl in winners:
                chips = take(pl.seat, base * pl.tricks // total)
                items.append(Item("redistribute", pl.seat, chips, pot, tricks=pl.tricks, total=total, base=base))
            if s.remainder == "most_tricks" and pot:
                best = max(winners, key=lambda pl: pl.tricks)
                chips = take(best.seat, pot)
                items.append(Item("rounding", best.seat, chips, pot))
    items.append(Item("left", None, pot, pot))
    outcome = {pl.seat: net[pl.seat] - pl.locked for pl in table.players}
    return Settlement(p, unit, divisor, failed, items, net, pot, outcome)


def kernel_settle(v: Variant, table: Table) -> tuple[list[int], int]:
    """Settle the same table with the kernel: the stacks after (from ``table.stacks``) and the pot."""
    n = table.seats
    state = GameState(Rules(v, max(n, v.players.min)), max(n, v.players.min), stacks=table.stacks or 0, pot=table.pot)
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
    kernel_settlement.settle(state)
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
    """The first plain call (no cards moved, not blind) that gives ``status``, in step order."""
    from khrap.rulebook.facts import call_order

    for cid in call_order(v):
        call = v.calls[cid]
        eff = call.effects
        moves_cards = eff.draw or eff.discard_hand or eff.take_turned != "no"
        plain = not (moves_cards or eff.forces_others or call.requires.blind)
        if eff.status == status and plain:
            return cid
    return None
