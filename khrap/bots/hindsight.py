"""After a deal: whose failed obligation could have been met with every card open, and how.

``missed(start, events)`` takes the deal as it stood when the card play began
(a GameState waiting for the first card) and the events that followed (the
``played`` cards and the ``settling`` tricks, read as data, never as text).
For each seat in play that took fewer tricks than its status obliges, it
replays the cards actually played before that seat's first card, and asks the
solver whether some card then makes the obligation sure against any play of
the others (``khrap.bots.solver.makeable``).  ``khrap play`` and ``khrap
replay`` print the answer (``khrap.gamelog.missed_line``); ``khrap analyze``
may count them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from khrap import words as w
from khrap.bots.determinize import fast_clone
from khrap.bots.position import in_card_play, obligation
from khrap.bots.solver import SolverTimeout, makeable
from khrap.engine import Action, IllegalAction
from khrap.engine.events import Played, Settling

SECONDS = 2.0  # at most this long per seat; a position not solved in time is not reported


@dataclass(frozen=True)
class Missed:
    """Seat ``seat`` (call ``call``) needed ``need`` tricks, took ``tricks``; ``card`` would have made it."""

    seat: int
    call: str | None
    need: int
    tricks: int
    card: int
    joker: bool
    leads: bool  # the seat's first card leads the first trick (else it follows the cards played before it)


def played_cards(events: Sequence) -> list[tuple[int, int, bool]]:
    """The cards played, in order, as (seat, card, as_joker), from ``played`` events."""
    return [(e.seat, e.fields["card"], bool(e.fields["joker"])) for e in events if isinstance(e, Played)]


def final_tricks(events: Sequence) -> dict[int, int] | None:
    """Tricks per seat in play from the deal's ``settling`` event (None if the deal was not played out)."""
    for event in events:
        if isinstance(event, Settling):
            return {s: t for s, t in event.fields["tricks"]}
    return None


def missed(start, events: Sequence, *, seconds: float = SECONDS) -> list[Missed]:
    """The failed obligations that ``start`` (the deal at its first card) shows could have been met."""
    if not in_card_play(start) or start.won or start.trick:
        raise ValueError("missed reads the deal as it stood before its first card")
    tricks = final_tricks(events)
    if tricks is None:
        return []
    played = played_cards(events)
    found = []
    for seat in start.in_play:
        need = obligation(start, seat)
        if need <= 0 or tricks.get(seat, 0) >= need:
            continue
        state = _before_first_card(start, seat, played)
        if state is None:
            continue
        try:
            how = makeable(state, seat, need, deadline=time.perf_counter() + seconds)
        except SolverTimeout:
            continue
        if how is not None:
            found.append(Missed(seat, start.call_of[seat], need, tricks.get(seat, 0), how.play[0], how.play[1],
                                how.leads))
    return found


def _before_first_card(start, seat: int, played: Sequence[tuple[int, int, bool]]):
    """``start`` with the cards actually played before ``seat``'s first card."""
    state = fast_clone(start)
    state.log = []
    for who, card, joker in played:
        if state.to_act == seat:
            return state
        try:
            state.apply(Action(w.PLAY, cards=(card,), joker=joker), who)
        except IllegalAction:
            return None
    return state if in_card_play(state) and state.to_act == seat else None


def missed_lines(start, events: Sequence, lang: str = "en", voice=None, *, seconds: float = SECONDS) -> list[str]:
    """``missed`` as the game log's sentences in ``lang`` (``voice``: cards as the table shows them)."""
    from khrap.gamelog import missed_line, word

    lines = []
    for m in missed(start, events, seconds=seconds):
        call = start.rules.variant.calls.get(m.call or "")
        if call is not None:
            name = call.name.get(lang) or call.name.get("en") or m.call
        else:
            name = word(lang, start.statuses[m.seat])
        lines.append(missed_line(lang, m.seat, name, m.card, m.joker, m.leads, voice))
    return lines
