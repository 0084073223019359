"""The kernel's own action words: the only game words that appear in engine code.

Calls (``pass`` included) are defined by variant files; these words are the
card actions every variant shares (CONTRACT.md, "Card actions").
"""

from typing import Final

# Final: a compiled kernel (docs/compiled.md) reads each as a constant, not a module attribute.
LOOK: Final = "look"
EXCHANGE: Final = "exchange"
DISCARD: Final = "discard"
PLAY: Final = "play"
TRUMP: Final = "trump"
JOKER: Final = "joker"
FROM: Final = "from"
TOP: Final = "top"
BOTTOM: Final = "bottom"

# The answers of the doubling offer (``Variant.double``; its registry entry, engine/compiled/face.py): the
# words the kernel's ``Payouts._double`` applies, named here beside the other action words, not borrowed
# from the kind's name (``Kind.DOUBLE`` names the decision, ``DOUBLE`` one of its answers).
NO_DOUBLE: Final = "no-double"
DOUBLE: Final = "double"

KERNEL_WORDS: Final = frozenset({LOOK, EXCHANGE, DISCARD, PLAY, TRUMP, NO_DOUBLE, DOUBLE})
"""Words a variant may not use as call ids: a call named ``double`` would read, in a scenario line or a
record, as the doubling offer's answer of the same word (a house rule may switch ``double`` on)."""

# Statuses (RULES.md §0).
UNDECIDED: Final = "undecided"
DECLARER: Final = "declarer"
HELPER: Final = "helper"
OUT: Final = "out"
ACTIVE: Final = (DECLARER, HELPER)

# Phases reported by `khrap run` (CONTRACT.md).
BIDDING: Final = "bidding"
OFFERS: Final = "offers"
EXCHANGE_PHASE: Final = "exchange"
TRUMP_PHASE: Final = "trump"
PLAY_PHASE: Final = "play"
SETTLED: Final = "settled"
