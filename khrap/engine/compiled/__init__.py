"""A variant compiled into a fast machine for simulations and benchmarks (see ``machine``)."""

from khrap.engine.compiled.machine import JOKER_FLAG, Machine, action_word
from khrap.engine.compiled.program import Program

__all__ = ["JOKER_FLAG", "Machine", "Program", "action_word"]
