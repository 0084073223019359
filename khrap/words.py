"""The kernel's own action words: the only game words that appear in engine code.

Calls (``pass`` included) are defined by variant files; these words are the
card actions every variant shares (CONTRACT.md, "Card actions").
"""

LOOK = "look"
EXCHANGE = "exchange"
DISCARD = "discard"
PLAY = "play"
TRUMP = "trump"
JOKER = "joker"
FROM = "from"
TOP = "top"
BOTTOM = "bottom"

KERNEL_WORDS = frozenset({LOOK, EXCHANGE, DISCARD, PLAY, TRUMP})
"""Words a variant may not use as call ids."""

# Statuses (RULES.md §0).
UNDECIDED = "undecided"
DECLARER = "declarer"
HELPER = "helper"
OUT = "out"
ACTIVE = (DECLARER, HELPER)

# Phases reported by `khrap run` (CONTRACT.md).
BIDDING = "bidding"
OFFERS = "offers"
EXCHANGE_PHASE = "exchange"
TRUMP_PHASE = "trump"
PLAY_PHASE = "play"
SETTLED = "settled"
