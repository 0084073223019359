"""Playing many deals: fixed chunks with their own seeds, run on one core, many cores, or a cluster.

``N`` deals are cut into chunks of ``chunk`` deals (the last one shorter).
Chunk ``i`` is one session (a fresh table, 100 chips a seat, empty pot) whose
shuffles and bot choices are fixed by ``chunk_seed(seed, i)``; it returns its
``Stats`` (and, if asked, its deal records).  Results are merged in chunk
order, so the numbers depend on the seed and the chunk size, never on how many
workers played the chunks or in what order they finished.

When every seat's bot is the random bot, the chunks are played on the compiled
machine (``khrap.engine.compiled``) unless the spec asks for the reference
kernel: it deals the same cards from the same seed and lists the same legal
actions in the same order, and the random bot's choice is ``rng.choice`` of
that list on either engine, so both give the same records and statistics.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from khrap.bots import RandomBot, choose_for, make_bot
from khrap.engine import GameState, Rules
from khrap.engine.compiled import Machine, Program
from khrap.engine.randomness import chooser
from khrap.sim.makeable import FirstCard, Tally, is_solved
from khrap.sim.records import DealRecord, deal_record
from khrap.sim.stats import Stats
from khrap.variant.derived import seat_stack
from khrap.variant.schema import Variant

if TYPE_CHECKING:
    from khrap.sim.pool import LocalWorkers

CHUNK = 100
"""Deals per chunk (one session at one table): fixed, so that results do not depend on the workers."""

MAX_ACTIONS = 100_000
"""A deal still going after this many decisions is stopped with an error (bots that pass forever)."""

ENGINES = ("auto", "reference")
"""``auto``: the bare machine when every bot is the random bot, else the same kernel behind ``GameState``;
``reference``: always ``GameState`` (checked, events on)."""


@dataclass(frozen=True)
class SimSpec:
    """What to simulate: a variant (resolved data as JSON), the table, the bots, the seed and the size."""

    variant_json: str
    players: int
    bots: tuple[str, ...]  # one bot kind per seat
    seed: int
    deals: int
    chunk: int = CHUNK
    name: str = "variant"
    engine: str = "auto"  # one of ENGINES
    solve: int = 0  # deals whose contracts the exact solver judges (khrap.sim.makeable); 0: none
    solve_seconds: float = 2.0  # the solver's time limit per deal

    @classmethod
    def make(
        cls, variant: Variant, players: int, bots: str | Sequence[str], seed: int, deals: int,
        chunk: int = CHUNK, name: str | None = None, engine: str = "auto", solve: int = 0,
        solve_seconds: float = 2.0,
    ) -> SimSpec:
        """A spec from a loaded variant; ``bots`` is one kind for every seat or one per seat."""
        kinds = [bots] * players if isinstance(bots, str) else list(bots)
        if len(kinds) != players:
            raise ValueError(f"{len(kinds)} bot kinds given for {players} seats")
        if engine not in ENGINES:
            raise ValueError(f"unknown engine '{engine}' (use {' or '.join(ENGINES)})")
        Rules(variant, players)  # raises RulesError for a table size the variant does not allow
        for kind in set(kinds):
            make_bot(kind, Rules(variant, players))  # raises ValueError for an unknown kind
        if deals < 1 or chunk < 1:
            raise ValueError("deals and chunk must be at least 1")
        data = json.dumps(variant.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return cls(data, players, tuple(kinds), seed, deals, chunk, name or variant.name.get("en", "variant"),
                   engine, max(0, min(solve, deals)), solve_seconds)

    @property
    def compiled(self) -> bool:
        """Whether the chunks run on the compiled machine: engine ``auto``, the random bot at every seat and no
        solver (it reads the deal through ``GameState``)."""
        return self.engine == "auto" and not self.solve and all(kind == RandomBot.name for kind in self.bots)

    def chunks(self) -> list[tuple[int, int]]:
        """(index, deals) of every chunk."""
        full, rest = divmod(self.deals, self.chunk)
        return [(i, self.chunk) for i in range(full)] + ([(full, rest)] if rest else [])

    def chunk_deals(self, index: int) -> int:
        """The deals of chunk ``index`` (without listing every chunk: a long run has many)."""
        full, rest = divmod(self.deals, self.chunk)
        if not 0 <= index < full + (rest > 0):
            raise IndexError(f"chunk {index} is not in a run of {full + (rest > 0)} chunks")
        return self.chunk if index < full else rest


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` of a run seeded with ``seed`` (a hash: chunks are independent)."""
    digest = hashlib.sha256(f"khrap-sim:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)


@lru_cache(maxsize=8)
def _variant(variant_json: str) -> Variant:
    return Variant.model_validate(json.loads(variant_json))


@lru_cache(maxsize=8)
def _rules(variant_json: str, players: int) -> Rules:
    """The variant at a table size, made once per process (nothing changes it as deals are played)."""
    return Rules(_variant(variant_json), players)


@lru_cache(maxsize=8)
def _program(variant_json: str, players: int) -> Program:
    """The compiled variant, made once per process (its tables only grow as it plays, whatever the seed)."""
    return Program(_rules(variant_json, players))


@dataclass
class ChunkResult:
    index: int
    deals: int
    stats: Stats
    records: list[DealRecord] | None
    seconds: float
    cpu: float = 0.0  # CPU seconds of the process that played it
    makeable: Tally | None = None  # the solver's counts (spec.solve)


def play_chunk(spec: SimSpec, index: int, keep_records: bool = False) -> ChunkResult:
    """Play chunk ``index`` of ``spec``: one session of its deals, bots at every seat."""
    started, cpu = time.perf_counter(), time.process_time()
    deals = spec.chunk_deals(index)
    seed = chunk_seed(spec.seed, index)
    rng = random.Random(seed ^ 0x5EED)
    watch = FirstCard() if spec.solve else None
    tally = Tally() if spec.solve else None
    if spec.compiled:
        program = _program(spec.variant_json, spec.players)
        rules = program.rules
        new_table, play_deal = _compiled(program, rng)
    else:
        rules = _rules(spec.variant_json, spec.players)
        new_table, play_deal = _reference(spec, rules, rng, watch)
    table = new_table(seed)
    stats = Stats(spec.players, rules.variant.base_stake, rules.hand_size)
    session: list[DealRecord] = []
    kept: list[DealRecord] = []
    restarts = 0
    for k in range(deals):
        if table.session_over:  # without debts nobody can cover a call, or a stack cannot be dealt in: a new session
            stats.add_session(session)
            session = []
            restarts += 1
            table = new_table(chunk_seed(seed, restarts))
            if table.session_over:  # the starting stacks cannot be dealt in (min_stack, or an ante without debts)
                break
        if watch is None:
            session.append(play_deal(table))
        else:
            judged = is_solved(index * spec.chunk + k, spec.deals, spec.solve)
            if judged:
                watch.arm()
            session.append(play_deal(table))
            if judged:
                tally.add(session[-1], watch.take(), spec.solve_seconds)
        if keep_records:
            kept.append(session[-1])
    stats.add_session(session)
    return ChunkResult(index, deals, stats, kept if keep_records else None, time.perf_counter() - started,
                       time.process_time() - cpu, tally)


Table = GameState | Machine
NewTable = Callable[[int], Table]
PlayDeal = Callable[[Table], DealRecord]


def _reference(spec: SimSpec, rules: Rules, rng: random.Random,
               watch: Callable[[GameState], None] | None = None) -> tuple[NewTable, PlayDeal]:
    """A fresh ``GameState`` table from a seed, and one deal on it played by the spec's bots.

    ``watch`` (if given) sees the table before every decision (``khrap.sim.makeable`` keeps the deal at
    its first card); it must not change it."""
    bots = [make_bot(kind, rules) for kind in spec.bots]
    return (lambda seed: GameState(rules, spec.players, stacks=seat_stack(rules.variant), seed=seed),
            lambda state: _play_deal(state, bots, rng, watch))


def _compiled(program: Program, rng: random.Random) -> tuple[NewTable, PlayDeal]:
    """A fresh compiled machine from a seed, and one deal on it with random choices.

    ``chooser(rng)`` picks exactly as ``rng.choice``, which is what ``RandomBot.choose`` does with
    the list of legal actions, so it makes the same choices as random bots through ``GameState``.
    Unlike ``_play_deal`` it counts no decisions against MAX_ACTIONS (that would cost a call per
    decision): the limit is for bots that pass for ever, while validation requires the first calls
    stage to offer a declaring call that needs no particular cards, so random bots end a deal with
    probability one."""
    return (lambda seed: Machine(program, seed=seed, stacks=seat_stack(program.rules.variant)),
            lambda machine: _play_machine_deal(machine, chooser(rng)))


def _play_machine_deal(machine: Machine, choose: Callable[[list], object]) -> DealRecord:
    stacks, pot = list(machine.stacks), machine.pot
    actions = machine.play_deal(choose)
    return deal_record(machine, stacks, pot, actions)


def _play_deal(state: GameState, bots: list, rng: random.Random,
               watch: Callable[[GameState], None] | None = None) -> DealRecord:
    stacks, pot = list(state.stacks), state.pot
    state.log.clear()  # keep one deal's log: observations copy the whole log
    state.start_deal()
    actions = 0
    while state.pending is not None:
        if watch is not None:
            watch(state)
        seat = state.pending.seat
        bot = bots[seat]
        if type(bot) is RandomBot:  # needs no observation: skip building one
            state.apply(bot.choose({"seat": seat}, state.legal_actions(), rng))
        else:  # a search bot also gets its seat's view
            state.apply(choose_for(bot, state, rng))
        actions += 1
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"a deal did not end after {MAX_ACTIONS} decisions ({state.round=}, phase "
                               f"{state.phase}): do the bots pass for ever?")
    return deal_record(state, stacks, pot, actions)


# ---------------------------------------------------------------- running
@dataclass
class SimResult:
    """The merged statistics of a run, its records if kept, and how long it took."""

    spec: SimSpec
    stats: Stats
    seconds: float
    workers: int
    records: list[DealRecord] = field(default_factory=list)
    cpu_seconds: float = 0.0  # CPU time of the chunks, every worker added up
    makeable: Tally | None = None  # the solver's counts, when spec.solve

    @property
    def deals_per_second(self) -> float:
        return self.stats.deals / self.seconds if self.seconds > 0 else float("inf")

    def summary(self) -> dict:
        out = {"variant": self.spec.name, "bots": list(self.spec.bots), "seed": self.spec.seed,
               "chunk": self.spec.chunk, "workers": self.workers, "seconds": self.seconds,
               "cpu_seconds": self.cpu_seconds, "deals_per_second": self.deals_per_second}
        out.update(self.stats.summary())
        if self.makeable is not None:
            from khrap.sim.makeable import summary

            out["makeable"] = summary(self.spec.name, self.makeable, self.spec.solve, self.spec.solve_seconds)
        return out


Progress = Callable[[int], None]
"""Called with the number of deals each finished chunk played."""


def merge(spec: SimSpec, results: Iterable[ChunkResult], seconds: float, workers: int) -> SimResult:
    """Merge chunk results in chunk order, as they come: a result is merged (and let go) as soon as every
    chunk before it has been, so a run holds only the results that finished out of order, not every
    chunk's statistics until the end (memory flat in the number of deals)."""
    stats: Stats | None = None
    records: list[DealRecord] = []
    tally = Tally() if spec.solve else None
    pending: dict[int, ChunkResult] = {}
    order = iter(index for index, _ in spec.chunks())
    following = next(order, None)
    cpu = 0.0
    for result in results:
        pending[result.index] = result
        while following is not None and following in pending:
            done = pending.pop(following)
            if stats is None:
                stats = Stats(spec.players, done.stats.base_stake, done.stats.hand_size)
            stats.merge(done.stats)
            records += done.records or []
            if tally is not None and done.makeable is not None:
                tally.merge(done.makeable)
            cpu += done.cpu
            following = next(order, None)
    for index in sorted(pending):  # chunks outside the spec's list (a caller's own): in index order
        done = pending.pop(index)
        if stats is None:
            stats = Stats(spec.players, done.stats.base_stake, done.stats.hand_size)
        stats.merge(done.stats)
        records += done.records or []
        cpu += done.cpu
    if stats is None:
        raise ValueError("no chunk result to merge")
    return SimResult(spec, stats, seconds, workers, records, cpu, tally)


def simulate(
    spec: SimSpec, workers: int | None = 1, *, keep_records: bool = False, progress: Progress | None = None,
    pool: LocalWorkers | None = None,
) -> SimResult:
    """Play ``spec`` on ``workers`` processes of this machine (None: every core; 1: in this process).

    ``pool`` reuses processes already started (``LocalWorkers``) instead.  The time counted for
    deals per second starts once the processes are up.
    """
    from khrap.sim.pool import LocalWorkers

    own = pool is None
    pool = LocalWorkers(workers) if own else pool
    try:
        pool.start()
        started = time.perf_counter()
        results, used = pool.stream(spec, keep_records, progress)
        merged = merge(spec, results, 0.0, used)
        merged.seconds = time.perf_counter() - started
        return merged
    finally:
        if own:
            pool.close()


__all__ = ["CHUNK", "ENGINES", "ChunkResult", "SimResult", "SimSpec", "chunk_seed", "merge", "play_chunk", "simulate"]
