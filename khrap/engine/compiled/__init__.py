"""A variant compiled into a fast machine for simulations and benchmarks (see ``machine``)."""

from khrap.engine.compiled.machine import Machine
from khrap.engine.compiled.program import Program
from khrap.engine.compiled.tricks import JOKER_FLAG

__all__ = ["JOKER_FLAG", "Machine", "Program"]
