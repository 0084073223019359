"""What one seat may see: its own hand once looked, the table, and public history.

Nothing of other hands, the stock's order or the discards' faces is included;
bots and players decide from this alone.
"""

from __future__ import annotations

from khrap import words as w
from khrap.cards import canonical, card_str, cards_str, suit_str


class SeatViews:
    """Per seat, the current deal's history lines and event data made so far.

    An observation is asked for at every decision and holds the whole deal's events: each seat's
    lists grow by the events since its last observation instead of being made again.  A copy of a
    state starts with none (``clone`` and search copies), and the lists are checked against the
    log (its first and last events seen) before they are grown, so a cleared or replaced log, or a
    copy that went another way, makes them again."""

    __slots__ = ("by_seat",)

    def __init__(self) -> None:
        self.by_seat: dict[int, tuple] = {}

    def __copy__(self) -> SeatViews:
        return SeatViews()

    def __deepcopy__(self, memo: dict) -> SeatViews:
        return SeatViews()

    def lists(self, state, seat: int) -> tuple[list[str], list[dict]]:
        log, start = state.log, state.deal_log_start
        end = len(log)
        found = self.by_seat.get(seat)
        if found is not None:
            first, seen, lines, events = found
            if seen <= end and start < end and log[start] is first and log[seen - 1] is lines[1]:
                lines, events = lines[0], events
                for event in log[seen:]:
                    text, data = event.seen_by(seat)
                    lines.append(text)
                    events.append(data)
                self.by_seat[seat] = (first, end, (lines, log[end - 1]), events)
                return lines, events
        deal = log[start:]
        pairs = [event.seen_by(seat) for event in deal]
        lines = [text for text, _ in pairs]
        events = [data for _, data in pairs]
        if deal:
            self.by_seat[seat] = (deal[0], end, (lines, deal[-1]), events)
        return lines, events


def observation(state, seat: int) -> dict:
    """A plain dict (JSON-ready) of everything ``seat`` may know now."""
    own = cards_str(canonical(state.hands[seat])) if state.looked[seat] else None
    views = state.__dict__.get("seat_views")
    if views is None:
        views = state.seat_views = SeatViews()
    lines, events = views.lists(state, seat)
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
        "history": list(lines),
        # The same events as data: what bots and programs read (the history is for people).  The dicts
        # are shared by the observations of one seat: read them, do not change them.
        "events": list(events),
        "legal": state.legal_words() if state.to_act == seat and state.phase != w.SETTLED else [],
    }
