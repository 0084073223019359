"""The evening view: a player's result over an evening of N deals with a stack of S chips, and going broke.

An evening is one session at a fresh table: every seat brings ``stack`` chips,
the pot starts empty and carries over from deal to deal, seat 1 deals first and
the deal passes round the table; it lasts ``deals`` deals, or less when the
table can play no more (nobody can cover a declaring call).  A player's result
is his stack at the end minus what he brought; he *went broke* when his stack
reached zero or less after some deal of the evening.  Evening ``e`` of a run
seeded ``seed`` is fixed by ``evening_seed(seed, e)``: the same numbers whatever
the workers.

Results are grouped by seat kind: by the bot kind seated there when the seats
hold different bots, else by the seat's place in the first deal (seat 2 is the
first deal's first speaker, seat 1 its dealer; over a long evening every seat
deals in turn, so the groups differ little).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from khrap.engine import GameState
from khrap.engine.compiled import Machine
from khrap.sim import runner
from khrap.sim.runner import SimSpec
from khrap.sim.stats import wilson
from khrap.sim.summary import position_name

Evening = tuple[tuple[int, ...], tuple[bool, ...], int]
"""(each seat's result in chips, whether each seat went broke, deals played)."""


def evening_seed(seed: int, evening: int) -> int:
    digest = hashlib.sha256(f"khrap-evening:{seed}:{evening}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)


@dataclass(frozen=True)
class EveningSpec:
    spec: SimSpec
    stack: int = 100
    deals: int = 50
    evenings: int = 100

    def __post_init__(self) -> None:
        if self.stack < 1 or self.deals < 1 or self.evenings < 1:
            raise ValueError("the stack, the deals of an evening and the evenings must be at least 1")


def _machine_deal(rng: random.Random) -> Callable:
    """One deal on a compiled machine with random choices, as ``runner`` plays it."""
    return lambda machine: runner._play_machine_deal(machine, runner.chooser(rng))


def _reference_deal(bots: list, rng: random.Random) -> Callable:
    """One deal on a ``GameState`` played by ``bots``, as ``runner`` plays it."""
    return lambda state: runner._play_deal(state, bots, rng)


def play_evenings(espec: EveningSpec, indexes: Sequence[int]) -> list[Evening]:
    """Play evenings ``indexes`` of ``espec``."""
    spec = espec.spec
    out = []
    for e in indexes:
        seed = evening_seed(spec.seed, e)
        rng = random.Random(seed ^ 0x5EED)
        if spec.compiled:
            program = runner._program(spec.variant_json, spec.players)
            table: GameState | Machine = Machine(program, seed=seed, stacks=espec.stack)
            play = _machine_deal(rng)
        else:
            rules = runner._rules(spec.variant_json, spec.players)
            bots = [runner.make_bot(kind, rules) for kind in spec.bots]
            table = GameState(rules, spec.players, stacks=espec.stack, seed=seed)
            play = _reference_deal(bots, rng)
        broke = [False] * spec.players
        played = 0
        for _ in range(espec.deals):
            if table.session_over:
                break
            rec = play(table)
            played += 1
            for seat, chips in enumerate(rec.stacks):
                if chips <= 0:
                    broke[seat] = True
        out.append((tuple(s - espec.stack for s in table.stacks), tuple(broke), played))
    return out


Mapper = Callable[[Callable, list[tuple]], Iterable[tuple[int, list[Evening]]]]


def run_evenings(espec: EveningSpec, mapper: Mapper | None = None, tasks: int = 16,
                 progress: Callable[[int], object] | None = None) -> list[Evening]:
    """Every evening, in order, played through ``mapper(fn, [args, ...])`` (a pool's ``map_tasks``; None: here);
    ``progress(k)`` told of each batch of ``k`` evenings done."""
    size = max(1, math.ceil(espec.evenings / tasks))
    batches = [list(range(i, min(i + size, espec.evenings))) for i in range(0, espec.evenings, size)]
    mapper = mapper or (lambda fn, args: (fn(*a) for a in args))
    done: dict[int, list[Evening]] = {}
    for first, played in mapper(_play_batch, [(espec, b) for b in batches]):
        done[first] = played
        if progress is not None:
            progress(len(played))
    return [ev for b in batches for ev in done[b[0]]]


def _play_batch(espec: EveningSpec, batch: list[int]) -> tuple[int, list[Evening]]:
    return batch[0], play_evenings(espec, batch)


def _quantile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def summarize_evenings(espec: EveningSpec, evenings: Sequence[Evening]) -> dict:
    """The distribution of a player's evening result and the chance of going broke, per seat kind."""
    spec = espec.spec
    n = spec.players
    by_kind = len(set(spec.bots)) > 1
    groups: dict[str, list[int]] = {}
    for seat in range(n):
        name = spec.bots[seat] if by_kind else f"seat {seat + 1} ({position_name((seat - 1) % n, n)} of the first deal)"
        groups.setdefault(name, []).append(seat)
    if len(groups) > 1:
        groups["any player"] = list(range(n))
    rows = []
    for name, seats in groups.items():
        results = [ev[0][s] for ev in evenings for s in seats]
        broke = [ev[1][s] for ev in evenings for s in seats]
        k = len(results)
        p = sum(broke) / k
        lo, hi = wilson(sum(broke), k)
        rows.append({"seat": name, "players": k, "mean": sum(results) / k,
                     **{f"p{int(q * 100)}": _quantile(results, q) for q in (0.05, 0.25, 0.5, 0.75, 0.95)},
                     "min": min(results), "max": max(results), "broke": p, "broke_ci": [lo, hi]})
    return {"stack": espec.stack, "deals": espec.deals, "evenings": espec.evenings,
            "deals_played_mean": sum(ev[2] for ev in evenings) / len(evenings), "rows": rows,
            **_histogram([r for ev in evenings for r in ev[0]])}


def _histogram(values: list[int], bins: int = 12) -> dict:
    """``histogram``: players by the start of their result's bin (empty bins left out); ``bin_width``."""
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    out: dict[str, int] = {}
    for v in values:
        start = lo + (v - lo) // width * width
        out[str(start)] = out.get(str(start), 0) + 1
    return {"histogram": dict(sorted(out.items(), key=lambda kv: int(kv[0]))), "bin_width": width}


__all__ = ["EveningSpec", "evening_seed", "play_evenings", "run_evenings", "summarize_evenings"]
