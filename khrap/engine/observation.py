"""What one seat may see: its own hand once looked, the table, and public history.

Nothing of other hands, the stock's order or the discards' faces is included;
bots and players decide from this alone.
"""

from __future__ import annotations

from khrap import words as w
from khrap.cards import canonical, card_str, cards_str, suit_str


def observation(state, seat: int) -> dict:
    """A plain dict (JSON-ready) of everything ``seat`` may know now."""
    own = cards_str(canonical(state.hands[seat])) if state.looked[seat] else None
    return {
        "seat": seat,
        "phase": state.phase,
        "to_act": state.to_act,
        "dealer": state.dealer,
        "round": state.round,
        "trump": None if state.trump is None else suit_str(state.trump),
        "turned": cards_str(state.turned),
        "shown": cards_str(state.shown),
        "hand": own,
        "hand_sizes": [len(h) for h in state.hands],
        "stock_count": len(state.stock),
        "discard_count": len(state.discards),
        "stacks": list(state.stacks),
        "pot": state.pot,
        "locked": list(state.locked),
        "statuses": list(state.statuses),
        "calls": list(state.call_of),
        "trick": [[s, card_str(c), j] for s, c, j in state.trick],
        "tricks": list(state.tricks),
        # The current deal only: earlier deals are settled and would make every observation grow.
        "history": [e.render("en", seat) for e in state.log[state.deal_log_start :]],
        # The same events as data: what bots and programs read (the history is for people).
        "events": [e.data(seat) for e in state.log[state.deal_log_start :]],
        "legal": state.legal_words() if state.to_act == seat and state.phase != w.SETTLED else [],
    }
