"""Statistics of many deals, kept as integer sums and counts so that they merge exactly.

A ``Stats`` is filled session by session (``add_session``) and two of them add
up (``merge``); every total is an integer, so the merged numbers are the same
whatever the order or the number of workers.  ``summary()`` turns them into
plain, JSON-ready numbers (chips in base stakes, 95% confidence intervals).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from khrap.sim.records import DealRecord, decided_after
from khrap.variant.derived import deal_order

Z95 = 1.959964  # two-sided 95% normal quantile


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of ``hits`` in ``n > 0`` (sensible at 0 and 1, unlike the normal one).  At
    the ends it is exact: 0 hits start at 0 and ``n`` hits end at 1 (the formula's floats may miss them by
    a rounding, and an interval must hold its own share)."""
    p, z2 = hits / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (0.0 if hits == 0 else max(0.0, centre - half)), (1.0 if hits == n else min(1.0, centre + half))


@dataclass
class Moments:
    """Count, sum and sum of squares of integer samples (chips)."""

    n: int = 0
    s: int = 0
    ss: int = 0

    def add(self, x: int) -> None:
        self.n += 1
        self.s += x
        self.ss += x * x

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.s += other.s
        self.ss += other.ss

    def mean(self, scale: float = 1.0) -> float | None:
        return None if not self.n else self.s / self.n / scale

    def sd(self, scale: float = 1.0) -> float | None:
        if self.n < 2:
            return None
        var = (self.ss - self.s * self.s / self.n) / (self.n - 1)
        return math.sqrt(max(var, 0.0)) / scale

    def ci(self, scale: float = 1.0) -> tuple[float, float] | None:
        """The normal-approximation 95% confidence interval of the mean."""
        sd = self.sd(scale)
        if sd is None:
            return None
        half = Z95 * sd / math.sqrt(self.n)
        mean = self.s / self.n / scale
        return (mean - half, mean + half)


@dataclass
class ContractStats:
    """One contract label: how often it was held at the end of a deal, fulfilled, and what it won."""

    count: int = 0
    judged: int = 0  # deals where fulfilled/failed was decided (tricks were played or credited)
    fulfilled: int = 0
    result: Moments = field(default_factory=Moments)

    def merge(self, other: ContractStats) -> None:
        self.count += other.count
        self.judged += other.judged
        self.fulfilled += other.fulfilled
        self.result.merge(other.result)


@dataclass
class Stats:
    """Mergeable totals over deals of one variant at one table size."""

    players: int
    base_stake: int = 1
    hand_size: int = 4
    deals: int = 0
    calls_made: Counter = field(default_factory=Counter)
    contracts: dict[str, ContractStats] = field(default_factory=dict)
    by_seat: list[Moments] = field(default_factory=list)
    by_position: list[Moments] = field(default_factory=list)  # 0 = first speaker (dealer's left) .. n-1 = dealer
    pot_settle: Counter = field(default_factory=Counter)
    pot_after: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)
    rounds: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)
    decided: Counter = field(default_factory=Counter)  # played deals by tricks after which every outcome was certain
    swing: Counter = field(default_factory=Counter)  # deals by the sum over seats of |chip change|
    all_pass_deals: int = 0
    all_passes: int = 0
    turn_up_deals: int = 0
    turn_ups: int = 0
    redeal_deals: int = 0
    redeals: int = 0
    leader_changes: int = 0
    leader_steps: int = 0

    def __post_init__(self) -> None:
        if not self.by_seat:
            self.by_seat = [Moments() for _ in range(self.players)]
            self.by_position = [Moments() for _ in range(self.players)]

    # ----------------------------------------------------------- filling
    def add(self, rec: DealRecord) -> None:
        """Count one deal (the moments are summed inline: this runs once a deal, for every deal)."""
        n = self.players
        delta = rec.delta
        self.deals += 1
        calls_made = self.calls_made
        for _, word in rec.calls:
            calls_made[word] += 1
        contracts = self.contracts
        for c in rec.contracts:
            acc = contracts.get(c.label)
            if acc is None:
                acc = contracts[c.label] = ContractStats()
            acc.count += 1
            d = delta[c.seat]
            result = acc.result
            result.n += 1
            result.s += d
            result.ss += d * d
            if c.fulfilled is not None:
                acc.judged += 1
                acc.fulfilled += c.fulfilled
        by_seat, by_position = self.by_seat, self.by_position
        for position, seat in enumerate(deal_order(rec.dealer, n)):  # (position 0: the first speaker)
            d = delta[seat]
            for m in (by_seat[seat], by_position[position]):
                m.n += 1
                m.s += d
                m.ss += d * d
        if rec.pot_settle is not None:
            self.pot_settle[rec.pot_settle] += 1
        self.pot_after[rec.pot_after] += 1
        self.actions[rec.actions] += 1
        self.rounds[rec.rounds] += 1
        self.endings[rec.ending] += 1
        t = decided_after(rec)
        if t is not None:
            self.decided[t] += 1
        self.swing[sum(map(abs, delta))] += 1
        if rec.all_passes:
            self.all_pass_deals += 1
            self.all_passes += rec.all_passes
        if rec.turn_ups:
            self.turn_up_deals += 1
            self.turn_ups += rec.turn_ups
        if rec.redeals:
            self.redeal_deals += 1
            self.redeals += rec.redeals

    def add_session(self, records: Iterable[DealRecord]) -> None:
        """Count one session's deals in order (a session starts with equal stacks: nobody leads)."""
        leader = None
        for rec in records:
            self.add(rec)
            new = _leader(rec.stacks, leader)
            if leader is not None:
                self.leader_steps += 1
                self.leader_changes += new != leader
            leader = new

    def merge(self, other: Stats) -> Stats:
        """Add ``other``'s totals to these; returns self."""
        self.deals += other.deals
        for name in ("calls_made", "pot_settle", "pot_after", "actions", "rounds", "endings", "decided", "swing"):
            getattr(self, name).update(getattr(other, name))
        for label, acc in other.contracts.items():
            self.contracts.setdefault(label, ContractStats()).merge(acc)
        for mine, theirs in zip(self.by_seat + self.by_position, other.by_seat + other.by_position, strict=True):
            mine.merge(theirs)
        for name in ("all_pass_deals", "all_passes", "turn_up_deals", "turn_ups", "redeal_deals", "redeals",
                     "leader_changes", "leader_steps"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    # ----------------------------------------------------------- reading
    def summary(self) -> dict:
        """Every figure as plain data: rates, means in base stakes with 95% intervals, distributions."""
        from khrap.sim.summary import summarize

        return summarize(self)


def _leader(stacks, previous: int | None) -> int | None:
    """The chip leader: the previous one while he still shares the lead, else the lowest seat with the most."""
    stacks = list(stacks)
    top = max(stacks)
    if stacks.count(top) == len(stacks):
        return previous  # everyone level: nobody leads, the lead has not changed
    if previous is not None and stacks[previous] == top:
        return previous
    return stacks.index(top)


__all__ = ["ContractStats", "Moments", "Stats"]
