"""Simulation: many deals played by bots, their statistics, and a balance report comparing house rules.

    from khrap.sim import SimSpec, simulate
    from khrap.variant.catalog import load_variant
    spec = SimSpec.make(load_variant("khrap"), players=4, bots="random", seed=1, deals=1000)
    result = simulate(spec, workers=2)
    result.summary()["contracts"]        # how often each contract is held, fulfilled, and what it wins

See docs/simulate.md.
"""

from khrap.sim.records import Contract, DealRecord, deal_record, decided_after
from khrap.sim.runner import CHUNK, ENGINES, SimResult, SimSpec, chunk_seed, play_chunk, simulate
from khrap.sim.stats import Stats

__all__ = [
    "CHUNK",
    "ENGINES",
    "Contract",
    "DealRecord",
    "SimResult",
    "SimSpec",
    "Stats",
    "chunk_seed",
    "deal_record",
    "decided_after",
    "play_chunk",
    "simulate",
]
