"""Paired comparisons of variants: the same cards and the same bot dice, deal by deal (common random numbers).

When variants are compared, deal number ``d`` of the run (counted from 0 over
the whole run, whatever the chunk) is played in every variant from the same
two seeds, both worked out from (run seed, deal number) alone, never from the
variant:

- the table's shuffle is reseeded with ``deal_seed(seed, d, "deck")`` before the
  deal, so variants with the same deck deal exactly the same cards, in the same
  order, from the dealer's left: the player at each position gets the same hand
  (a redeal within the deal draws its next deck from the same stream, so it
  matches too while the variants agree on it);
- the bots' random stream is reseeded with ``deal_seed(seed, d, "bots")``.

Decks of different sizes (a 52-card house rule against a 36-card parent) get
the same permutation seed: the shuffle of each deck starts from the same state,
so the cards are not the same ones; the pairing then still removes the bots'
noise and the order of the deals, and the report says that the decks differ.

A chunk of deals is still one session per variant (a fresh table, stacks and
pot carried from deal to deal), and all the variants' chunk ``i`` are played in
one task, so with ``--workers`` or a Dask cluster the chunks are the same deal
numbers in every variant by construction.  Each task returns, besides each
variant's ``Stats``, the integer moments of every per-deal measure and of its
difference to the first variant (the parent), so the paired intervals merge
exactly whatever the workers.

The interval of a difference is the normal 95% interval of the mean of the
per-deal differences ``x_v(d) - x_0(d)``; the unpaired interval (kept to show
what the pairing gains) uses each variant's own variance as if the deals were
independent.  Deals of one session share the pot carried over and the chip
lead: for the two measures that carry over (``CARRIED``: lead changes and the
pot left) the interval comes from the spread of the sessions' mean differences
(batch means, Student's t), which counts that dependence; for the others the
per-deal and the per-session intervals agree (checked on 20,000 random deals
of khrap against "must beat": ratios 0.8 to 1.06; lead changes 1.38, hence
``CARRIED``).  Both are in the JSON (``ci`` is the one used, ``session_ci``
the per-session one).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from khrap import words as w
from khrap.engine.events import Dealt
from khrap.sim import runner
from khrap.sim.evening import Evening
from khrap.sim.makeable import FirstCard, Tally, is_solved
from khrap.sim.records import DealRecord, decided_after
from khrap.sim.runner import SimResult, SimSpec, chunk_seed
from khrap.sim.stats import Z95, Moments, Stats, _leader
from khrap.variant.derived import deal_order, seat_stack

Z80 = 0.841621  # one-sided 80% normal quantile: the power used for "deals that would resolve it"


def deal_seed(seed: int, deal: int, stream: str) -> int:
    """The seed of deal number ``deal`` of a run seeded ``seed``, for ``stream`` ("deck" or "bots").

    The variant plays no part: that is what pairs the deals."""
    digest = hashlib.sha256(f"khrap-deal:{seed}:{deal}:{stream}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)


class PairingError(ValueError):
    """Variants that cannot be compared deal by deal (different table sizes, deals or seeds)."""


@dataclass(frozen=True)
class PairedSpec:
    """Several specs played deal by deal together; the first is the one the others are compared with."""

    specs: tuple[SimSpec, ...]
    solve: int = 0  # deals per variant whose contracts the exact solver judges (khrap.sim.makeable); 0: none
    solve_seconds: float = 2.0  # the solver's time limit per deal

    @classmethod
    def make(cls, specs: Sequence[SimSpec], solve: int = 0, solve_seconds: float = 2.0) -> PairedSpec:
        specs = tuple(specs)
        if not specs:
            raise PairingError("no variant to simulate")
        first = specs[0]
        for spec in specs[1:]:
            if spec.players != first.players:
                raise PairingError(
                    f"'{first.name}' is simulated with {first.players} players and '{spec.name}' with "
                    f"{spec.players}: a comparison must seat the same number of players at both (give --players "
                    f"with a count both allow, or analyze them one at a time)")
            for name in ("deals", "chunk", "seed"):
                if getattr(spec, name) != getattr(first, name):
                    raise PairingError(f"paired specs must share their {name}")
        if solve and any(spec.compiled for spec in specs):
            raise PairingError("the solver reads the deal through GameState: give engine 'reference' with it")
        return cls(specs, max(0, solve), solve_seconds)

    @property
    def players(self) -> int:
        return self.specs[0].players

    @property
    def deals(self) -> int:
        return self.specs[0].deals

    @property
    def chunk(self) -> int:
        return self.specs[0].chunk

    @property
    def seed(self) -> int:
        return self.specs[0].seed


# ---------------------------------------------------------------- per-deal measures
def base_keys(players: int) -> list[str]:
    """The per-deal measures every variant has, in report order (``held:<contract>`` ones are added per run)."""
    return (["first_edge", "swing", "declarer_made", "all_pass", "redeal", "pot_after", "decisive", "drama",
             "actions"] + [f"position:{p}" for p in range(players)])


def deal_measures(rec: DealRecord, leader_changed: int | None) -> dict[str, int | None]:
    """One deal's measures as integers (None: the measure does not apply to this deal).

    Chips are raw chips here (scaled to base stakes when reported); ``first_edge`` is ``n`` times the
    first speaker's result minus the table's total, so that it stays an integer."""
    n, delta = rec.players, rec.delta
    by_position = [delta[seat] for seat in deal_order(rec.dealer, n)]  # from the first speaker
    t = decided_after(rec)
    declarers = [c for c in rec.contracts if c.status == w.DECLARER and c.fulfilled is not None]
    out: dict[str, int | None] = {
        "first_edge": n * by_position[0] - sum(delta),
        "swing": sum(map(abs, delta)),
        "declarer_made": int(declarers[0].fulfilled) if declarers else None,
        "all_pass": int(rec.all_passes > 0),
        "redeal": int(rec.redeals > 0),
        "pot_after": rec.pot_after,
        "decisive": None if t is None else int(t < rec.hand_size),
        "drama": leader_changed,
        "actions": rec.actions,
    }
    for p, d in enumerate(by_position):
        out[f"position:{p}"] = d
    for c in rec.contracts:
        if c.status in w.ACTIVE:
            key = f"held:{c.label}"
            out[key] = (out.get(key) or 0) + 1
    return out


def _scale(key: str, players: int, base: int) -> float:
    if key.startswith("position:") or key == "pot_after":
        return base
    if key in ("first_edge", "swing"):
        return base * players
    return 1


@dataclass
class Pair:
    """Moments of one measure in one variant, and of its per-deal difference to the first variant."""

    own: Moments = field(default_factory=Moments)
    base: Moments = field(default_factory=Moments)  # the first variant on the same deals
    diff: Moments = field(default_factory=Moments)
    sessions: list[tuple[int, int]] = field(default_factory=list)  # per chunk: (deals, sum of the differences)

    def merge(self, other: Pair) -> None:
        self.own.merge(other.own)
        self.base.merge(other.base)
        self.diff.merge(other.diff)
        self.sessions += other.sessions


CARRIED = ("drama", "pot_after")
"""Measures that carry from deal to deal within a session (who leads, the pot left): their interval comes from the
spread of the sessions' mean differences (batch means), as deals of one session are not independent for them."""
MIN_SESSIONS = 10
"""Fewer sessions than this: the per-deal interval is used for every measure (and the report says so)."""


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (Cornish-Fisher, to 3 decimals)."""
    z = Z95
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def session_half_width(sessions: Sequence[tuple[int, int]], scale: float) -> float | None:
    """The 95% half-width of the mean difference from the sessions' sums (a ratio estimator), or None."""
    k = len(sessions)
    n = sum(c for c, _ in sessions)
    if k < 2 or not n:
        return None
    mean = sum(x for _, x in sessions) / n
    var = sum((x - mean * c) ** 2 for c, x in sessions) / (k - 1) / (n / k) ** 2
    return t95(k - 1) * math.sqrt(var / k) / scale


# ---------------------------------------------------------------- hand features
def hand_features(hand: Sequence[int], trump: int | None) -> dict[str, int]:
    """Simple features of a hand a player can count: trumps, whether he holds the trump ace, aces and kings."""
    trumps = [c for c in hand if trump is not None and c // 13 == trump]
    return {"trumps": len(trumps), "trump_ace": int(any(c % 13 == 12 for c in trumps)),
            "high_cards": sum(1 for c in hand if c % 13 >= 11)}


def _dealt_hands(table: Any) -> list | None:
    """The hands of the deal's last dealing, read from its ``dealt`` event (None where the table keeps no log)."""
    log = getattr(table, "log", None)
    if not log:
        return None
    for event in reversed(log):
        if isinstance(event, Dealt) and event.secret:
            return [list(h) for h in event.secret.get("hands", ())]
    return None


HandKey = tuple[str, str, int]  # (contract, feature, value)


def _count_hands(hands: dict[HandKey, list[int]], rec: DealRecord, dealt: list | None, trump: int | None) -> None:
    if dealt is None or len(dealt) != rec.players:
        return
    for c in rec.contracts:
        if c.status not in w.ACTIVE or c.fulfilled is None:
            continue
        d = rec.delta[c.seat]
        for feature, value in hand_features(dealt[c.seat], trump).items():
            acc = hands.setdefault((c.label, feature, value), [0, 0, 0, 0])
            acc[0] += 1
            acc[1] += c.fulfilled
            acc[2] += d
            acc[3] += d * d


# ---------------------------------------------------------------- playing
@dataclass
class PairedChunk:
    index: int
    deals: int
    stats: list[Stats]
    pairs: list[dict[str, Pair]]  # per variant: measure -> its moments (the first variant's diffs are 0)
    hands: list[dict[HandKey, list[int]]]
    records: list[list[DealRecord]] | None
    decks: list[list[tuple[int, ...] | None]] | None  # per variant, per deal: the deal's first deck, where kept
    seconds: float
    cpu: float
    makeable: list[Tally] | None = None  # per variant, when the solver is on (PairedSpec.solve)
    # per variant: the chunk's first session as an evening (khrap.sim.evening.Evening), None for a chunk shorter
    # than the others (the run's last, cut short: not a whole evening)
    evenings: list[Evening | None] | None = None


class _Table:
    """One variant's session in a chunk: its table, bots' stream and statistics."""

    def __init__(self, spec: SimSpec, seed: int, watch: FirstCard | None = None) -> None:
        self.spec, self.seed = spec, seed
        self.rng = random.Random(seed ^ 0x5EED)
        self.watch = watch
        if spec.compiled:
            program = runner._program(spec.variant_json, spec.players)
            rules = program.rules
            self.new_table, self.play_deal = runner._compiled(program, self.rng)
        else:
            rules = runner._rules(spec.variant_json, spec.players)
            self.new_table, self.play_deal = runner._reference(spec, rules, self.rng, watch)
        self.table = self.new_table(seed)
        self.stack = seat_stack(rules.variant)  # what each seat brought
        self.stats = Stats(spec.players, rules.variant.base_stake, rules.hand_size)
        self.session: list[DealRecord] = []
        self.restarts = 0
        self.leader: int | None = None
        # The chunk's first session is an evening (a fresh table, the variant's seat stack, an empty pot): each
        # seat's result, whether he went broke, the deals played; kept when the session ends (``evening``).
        self.broke = [False] * spec.players
        self.played = 0
        self.evening: Evening | None = None

    def end_evening(self) -> None:
        """The first session is over (the table can play no more, or the chunk ends): keep it as an evening."""
        if self.evening is None:
            stacks = self.table.stacks
            self.evening = (tuple(s - self.stack for s in stacks), tuple(self.broke), self.played)

    def play(self, deal: int, run_seed: int) -> tuple[DealRecord, int | None, Any]:
        """Play deal number ``deal``: its record, whether the chip leader changed, and the table."""
        if self.table.session_over:
            self.end_evening()
            self.stats.add_session(self.session)
            self.session = []
            self.restarts += 1
            self.table = self.new_table(chunk_seed(self.seed, self.restarts))
            self.leader = None
        table = self.table
        table.rng.seed(deal_seed(run_seed, deal, "deck"))
        self.rng.seed(deal_seed(run_seed, deal, "bots"))
        dealt_before = len(getattr(table, "decks_dealt", ()))
        rec = self.play_deal(table)
        self.session.append(rec)
        if self.evening is None:
            self.played += 1
            for seat, chips in enumerate(rec.stacks):
                if chips <= 0:
                    self.broke[seat] = True
        new = _leader(rec.stacks, self.leader)
        changed = None if self.leader is None else int(new != self.leader)
        self.leader = new
        self.deck = (tuple(table.decks_dealt[dealt_before]) if len(getattr(table, "decks_dealt", ())) > dealt_before
                     else None)
        return rec, changed, table


def play_paired_chunk(pspec: PairedSpec, index: int, keep_records: bool = False) -> PairedChunk:
    """Play chunk ``index`` of every variant of ``pspec``, deal number by deal number."""
    started, cpu = time.perf_counter(), time.process_time()
    first = pspec.specs[0]
    deals = first.chunk_deals(index)
    start = index * first.chunk
    seed = chunk_seed(first.seed, index)
    solving = pspec.solve > 0
    tables = [_Table(spec, seed, FirstCard() if solving else None) for spec in pspec.specs]
    tallies = [Tally() for _ in tables] if solving else None
    pairs: list[dict[str, Pair]] = [{} for _ in tables]
    hands: list[dict[HandKey, list[int]]] = [{} for _ in tables]
    records: list[list[DealRecord]] = [[] for _ in tables]
    decks: list[list[tuple[int, ...] | None]] = [[] for _ in tables]
    for k in range(deals):
        deal = start + k
        measured = []
        solve = solving and is_solved(deal, pspec.deals, pspec.solve)
        for v, t in enumerate(tables):
            if solve:
                t.watch.arm()
            rec, changed, table = t.play(deal, first.seed)
            if solve:
                tallies[v].add(rec, t.watch.take(), pspec.solve_seconds)
            measured.append(deal_measures(rec, changed))
            _count_hands(hands[v], rec, _dealt_hands(table), getattr(table, "trump", None))
            if keep_records:
                records[v].append(rec)
                decks[v].append(t.deck)
        base = measured[0]
        for v, values in enumerate(measured):
            acc = pairs[v]
            for key in base.keys() | values.keys():
                x = values.get(key, 0 if key.startswith("held:") else None)
                b = base.get(key, 0 if key.startswith("held:") else None)
                pair = acc.get(key)
                if pair is None:
                    pair = acc[key] = Pair()
                if x is not None:
                    pair.own.add(x)
                if x is not None and b is not None:
                    pair.base.add(b)
                    pair.diff.add(x - b)
    for t in tables:
        t.stats.add_session(t.session)
        t.end_evening()
    whole = deals == first.chunk  # a chunk cut short is not a whole evening
    for acc in pairs:
        for key, pair in acc.items():
            pair.sessions.append((deals if key.startswith("held:") else pair.diff.n, pair.diff.s))
    return PairedChunk(index, deals, [t.stats for t in tables], pairs, hands,
                       records if keep_records else None, decks if keep_records else None,
                       time.perf_counter() - started, time.process_time() - cpu, tallies,
                       [t.evening if whole else None for t in tables])


def play_paired_chunks(pspec: PairedSpec, indexes: list[int], keep_records: bool = False) -> list[PairedChunk]:
    """Several chunks in one task, each as ``play_paired_chunk`` plays it alone."""
    return [play_paired_chunk(pspec, index, keep_records) for index in indexes]


# ---------------------------------------------------------------- results
@dataclass
class PairedResult:
    """Every variant's ``SimResult`` and the paired moments of their per-deal measures."""

    pspec: PairedSpec
    results: list[SimResult]
    pairs: list[dict[str, Pair]]
    hands: list[dict[HandKey, list[int]]]
    decks: list[list[tuple[int, ...] | None]]
    seconds: float
    workers: int
    makeable: list[Tally] | None = None  # per variant, when the solver was on
    # per variant: the sessions as evenings, in chunk order (each whole chunk's first session: ``PairedChunk``)
    evenings: list[list[Evening]] = field(default_factory=list)

    def difference(self, v: int, key: str) -> dict | None:
        """Variant ``v`` minus the first on measure ``key``: means, paired and unpaired 95% intervals."""
        pair = self.pairs[v].get(key)
        if pair is None or pair.diff.n < 2:
            return None
        spec = self.pspec.specs[v]
        scale = _scale(key, spec.players, self.results[v].stats.base_stake)
        d, base, own = pair.diff, pair.base, pair.own
        if key.startswith("held:"):  # counted where some variant held it: every other deal adds a 0
            deals = self.results[v].stats.deals
            d, base, own = (Moments(deals, m.s, m.ss) for m in (d, base, own))
        mean = d.s / d.n / scale
        sd = d.sd(scale) or 0.0
        half = Z95 * sd / math.sqrt(d.n)
        sessions = pair.sessions
        if key.startswith("held:"):  # chunks where nobody held it: no entry, a difference of 0
            sessions = sessions + [(self.pspec.chunk, 0)] * (len(self.pspec.specs[0].chunks()) - len(sessions))
        per_session = session_half_width(sessions, scale)
        by_sessions = key in CARRIED and per_session is not None and len(pair.sessions) >= MIN_SESSIONS
        sd_b, sd_o = base.sd(scale) or 0.0, own.sd(scale) or 0.0
        half_unpaired = Z95 * math.sqrt(sd_b ** 2 / base.n + sd_o ** 2 / max(own.n, 1))
        if by_sessions:  # the deals' dependence widens the unpaired interval alike (so that the two compare)
            half_unpaired *= per_session / half if half else 1.0
            half = per_session
        significant = half > 0 and abs(mean) > half or half == 0 and mean != 0
        if mean == 0 and sd == 0:
            needed = None  # the same on every deal: no number of deals would show a difference
        elif significant:
            needed = 0
        else:
            spread = half * math.sqrt(d.n) / Z95  # the per-deal sd, or what the sessions' spread implies
            needed = math.ceil(((Z95 + Z80) * spread / abs(mean)) ** 2) if mean else None
        return {
            "key": key, "deals": d.n, "base": base.mean(scale), "value": base.mean(scale) + mean,
            "difference": mean, "ci": [mean - half, mean + half], "unpaired_ci": [mean - half_unpaired,
                                                                                   mean + half_unpaired],
            "interval_from": "sessions" if by_sessions else "deals",
            "session_ci": None if per_session is None else [mean - per_session, mean + per_session],
            "sd": sd, "base_sd": sd_b, "significant": significant, "deals_needed": needed,
            "effect": abs(mean) / sd_b if sd_b else (math.inf if mean else 0.0),
        }

    def keys(self) -> list[str]:
        """Every measure, the fixed ones first, then the contracts held in any variant."""
        fixed = base_keys(self.pspec.players)
        held = sorted({k for acc in self.pairs for k in acc if k.startswith("held:")})
        return [k for k in fixed if any(k in acc for acc in self.pairs)] + held

    def differences(self, v: int) -> list[dict]:
        return [d for key in self.keys() if (d := self.difference(v, key)) is not None]


class PairedMerge:
    """Chunk results folded in chunk order as they come (``add``): a result is merged and let go as soon as
    every chunk before it has been, so a run holds only those that finished out of order, not every chunk's
    statistics until the end (memory flat in the number of deals); the same numbers whatever the workers."""

    def __init__(self, pspec: PairedSpec) -> None:
        self.pspec = pspec
        count = len(pspec.specs)
        self.stats: list[Stats | None] = [None] * count
        self.pairs: list[dict[str, Pair]] = [{} for _ in range(count)]
        self.hands: list[dict[HandKey, list[int]]] = [{} for _ in range(count)]
        self.records: list[list[DealRecord]] = [[] for _ in range(count)]
        self.decks: list[list[tuple[int, ...] | None]] = [[] for _ in range(count)]
        self.evenings: list[list[Evening]] = [[] for _ in range(count)]
        self.tallies = [Tally() for _ in range(count)] if pspec.solve else None
        self.cpu = 0.0
        self.pending: dict[int, PairedChunk] = {}
        self.order = iter([index for index, _ in pspec.specs[0].chunks()] + [None])
        self.following = next(self.order)

    def add(self, chunk: PairedChunk) -> None:
        self.pending[chunk.index] = chunk
        while self.following is not None and self.following in self.pending:
            self._fold(self.pending.pop(self.following))
            self.following = next(self.order)

    def _fold(self, chunk: PairedChunk) -> None:
        for v, spec in enumerate(self.pspec.specs):
            own = chunk.stats[v]
            stats = self.stats[v]
            if stats is None:
                stats = self.stats[v] = Stats(spec.players, own.base_stake, own.hand_size)
            stats.merge(own)
            acc = self.pairs[v]
            for key, pair in chunk.pairs[v].items():
                acc.setdefault(key, Pair()).merge(pair)
            counted = self.hands[v]
            for key, row in chunk.hands[v].items():
                mine = counted.setdefault(key, [0, 0, 0, 0])
                for i, x in enumerate(row):
                    mine[i] += x
            self.records[v] += chunk.records[v] if chunk.records else []
            self.decks[v] += chunk.decks[v] if chunk.decks else []
            evening = chunk.evenings[v] if chunk.evenings else None
            if evening is not None:
                self.evenings[v].append(evening)
            if self.tallies is not None and chunk.makeable:
                self.tallies[v].merge(chunk.makeable[v])
        self.cpu += chunk.cpu

    def result(self, seconds: float, workers: int) -> PairedResult:
        for index in sorted(self.pending):  # chunks outside the spec's list (a caller's own): in index order
            self._fold(self.pending.pop(index))
        if any(stats is None for stats in self.stats):
            raise ValueError("no chunk result to merge")
        results = [SimResult(spec, stats, seconds, workers, self.records[v], self.cpu)
                   for v, (spec, stats) in enumerate(zip(self.pspec.specs, self.stats, strict=True))]
        return PairedResult(self.pspec, results, self.pairs, self.hands, self.decks, seconds, workers, self.tallies,
                            self.evenings)


def merge_paired(pspec: PairedSpec, chunks: Sequence[PairedChunk], seconds: float, workers: int) -> PairedResult:
    """Merge chunk results in chunk order (the same numbers whatever the workers)."""
    merged = PairedMerge(pspec)
    for chunk in chunks:
        merged.add(chunk)
    return merged.result(seconds, workers)


Progress = Callable[[int], None]


def simulate_paired(pspec: PairedSpec, workers: int | None = 1, *, keep_records: bool = False,
                    progress: Progress | None = None, pool: Any = None) -> PairedResult:
    """Play every variant of ``pspec`` deal by deal on ``workers`` processes here (or an open ``LocalWorkers``)."""
    from khrap.sim.pool import LocalWorkers, batch_size

    own = pool is None
    pool = LocalWorkers(workers) if own else pool
    try:
        pool.start()
        started = time.perf_counter()
        indexes = [index for index, _ in pspec.specs[0].chunks()]
        size = batch_size(len(indexes), pool.workers)
        batches = [indexes[i:i + size] for i in range(0, len(indexes), size)]
        merged = PairedMerge(pspec)
        for done in pool.map_tasks(play_paired_chunks, [(pspec, b, keep_records) for b in batches]):
            for chunk in done:
                merged.add(chunk)
            if progress:
                progress(sum(c.deals for c in done))
        used = 1 if pool.workers == 1 or len(batches) == 1 else min(pool.workers, len(batches))
        return merged.result(time.perf_counter() - started, used)
    finally:
        if own:
            pool.close()


def simulate_paired_on_dask(pspec: PairedSpec, client: Any, *, keep_records: bool = False,
                            progress: Progress | None = None) -> PairedResult:
    """Play every variant of ``pspec`` deal by deal on a Dask cluster (``client`` connected)."""
    from distributed import as_completed

    from khrap.sim.pool import batch_size

    started = time.perf_counter()
    client.wait_for_workers(1)
    threads = client.nthreads()
    indexes = [index for index, _ in pspec.specs[0].chunks()]
    size = batch_size(len(indexes), sum(threads.values()))
    futures = [client.submit(play_paired_chunks, pspec, indexes[i:i + size], keep_records, pure=False)
               for i in range(0, len(indexes), size)]
    merged = PairedMerge(pspec)
    for future in as_completed(futures):
        done = future.result()
        for chunk in done:
            merged.add(chunk)
        if progress:
            progress(sum(c.deals for c in done))
    return merged.result(time.perf_counter() - started, min(len(threads), len(futures)))


__all__ = ["CARRIED", "MIN_SESSIONS", "Pair", "PairedChunk", "PairedMerge", "PairedResult", "PairedSpec",
           "PairingError", "base_keys", "deal_measures", "deal_seed", "hand_features", "merge_paired",
           "play_paired_chunk", "play_paired_chunks", "session_half_width", "simulate_paired",
           "simulate_paired_on_dask", "t95"]
