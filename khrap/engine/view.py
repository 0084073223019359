"""A seat's view and a spectator's, typed, made by the engine in one place (``engine.observation``).

    view = seat_view(state, seat)         # what ``seat`` may know now
    table = spectator_view(state)         # what nobody's secret reveals: the public table and events
    view.hand, view.events, view.legal, view.numbers()
    seat_hand(state, seat)                # view.hand alone
    events_since(state, seat, start)      # view.events[start:], made from the new events alone
    own_since(state, seat, start)         # whether those hold the seat's own secret events (else: a spectator's)
    spectator_observation(state)          # to_json(spectator_view(state)) without its history and events
    to_json(view)                         # the observation dict (CONTRACT.md's shape)

Cards are the kernel's ints; the events are the typed ``Event`` objects the viewer may hold (another
seat's secret fields left out; a spectator holds none); the legal actions are ``Action`` objects and
their numbers in the rules' action space.  ``GameState.observation(seat)`` is ``to_json`` of the same
view, made incrementally (the history lines and event data of earlier observations kept).
"""

from __future__ import annotations

from khrap.engine.observation import (
    SeatView,
    as_seen,
    events_since,
    own_since,
    seat_hand,
    seat_view,
    spectator_observation,
    to_json,
)


def spectator_view(state) -> SeatView:
    """What a spectator may know now: the public table and the public events, nobody's secret (no hand,
    nothing drawn or thrown, no legal actions).  Made for no seat, not a seat's view with parts taken out."""
    return seat_view(state, None)


__all__ = ["SeatView", "as_seen", "events_since", "own_since", "seat_hand", "seat_view", "spectator_observation",
           "spectator_view", "to_json"]
