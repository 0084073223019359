"""The trick-taking kernel: it knows mechanisms, and reads every rule from a variant.

One kernel: the compiled ``Program`` (``compiled/program.py``, made once per variant and player
count, ``Rules.program``) is the rules object, and the step functions of ``compiled.Machine``
over it are the only rule code.  ``GameState`` (``state.py``) is its public face: checked
actions, refusals (``legal.py``), events, observations, clones.
"""

from khrap.engine.actions import Action, ActionError, parse_action
from khrap.engine.kinds import Kind
from khrap.engine.rules import Rules, RulesError
from khrap.engine.state import GameState, IllegalAction

KERNEL_MODULES = tuple(f"{__name__}.{name}" for name in (
    "compiled.machine", "compiled.tricks", "compiled.payouts", "compiled.program", "trick", "randomness"))
"""The kernel's hot modules, plain typed Python, in the order a compiled build (mypyc) may take them:
the step functions (machine, tricks, payouts), the program they read, who takes a trick, the shuffle."""

__all__ = ["KERNEL_MODULES", "Action", "ActionError", "GameState", "IllegalAction", "Kind", "Rules",
           "RulesError", "parse_action"]
