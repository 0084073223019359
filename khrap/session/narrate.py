"""A record told as a story: each deal's events, its settlement, and where the session stands."""

from __future__ import annotations

from khrap.engine.kinds import PLAY
from khrap.session.core import Session
from khrap.session.record import DealMark, RecordError, _actions, new_session, replay, replay_record


def _setup_line(record: dict, session: Session) -> str:
    title = session.variant.name.get("en", session.variant_name)
    setup = session.setup
    stacks = setup["stacks"]
    stacks_text = f"{stacks} chips each" if isinstance(stacks, int) else f"stacks {stacks}"
    return (f"{session.variant_name} ({title}), {session.players} players, seed {setup['seed']}; "
            f"seat {setup['dealer']} deals first; {stacks_text}, pot {setup['pot']}")


def _where(session: Session) -> str:
    if session.deal_over:
        return f"After {session.deals_completed} deals: stacks {session.stacks}, pot {session.pot}."
    locked = f", locked {session.state.locked}" if any(session.state.locked) else ""
    return (f"Deal {session.deals_started} is in progress ({session.phase}, seat {session.to_act} to act): "
            f"stacks {session.stacks}, pot {session.pot}{locked}.")


def narrative(record: dict, deal: int | None = None) -> str:
    """The record as readable text (every card shown: a replay is told after the fact)."""
    session, marks = replay_record(record)
    log = session.state.log
    if deal is not None and not 1 <= deal <= len(marks):
        raise RecordError(f"the record has {len(marks)} deals; there is no deal {deal}")
    lines = [_setup_line(record, session), ""]
    starts = _play_starts(record, [m for m in marks if deal is None or m.number == deal])
    for i, mark in enumerate(marks):
        if deal is not None and mark.number != deal:
            continue
        end = marks[i + 1].log_at if i + 1 < len(marks) else len(log)
        told = [e.text for e in log[mark.log_at : end]]
        lines += _deal_lines(mark, told + _hindsight(starts.get(mark.number), log[:end]))
    lines.append(_where(session))
    if record.get("result"):
        lines.append("The replay reaches the record's saved result.")
    return "\n".join(lines)


def _deal_lines(mark: DealMark, events: list[str]) -> list[str]:
    head = f"Deal {mark.number}: seat {mark.dealer} deals; stacks {mark.stacks}, pot {mark.pot}"
    return [head, *(f"  {text}" for text in events), ""]



def _play_starts(record: dict, marks: list[DealMark]) -> dict[int, object]:
    """Each played deal's state at its first card, by deal number (one more replay of the record)."""
    from khrap import words as w

    session = new_session(record)
    actions = _actions(record, session.players)
    starts: dict[int, object] = {}
    done = 0
    for i, mark in enumerate(marks):
        end = marks[i + 1].actions_at if i + 1 < len(marks) else len(actions)
        first = next((k for k in range(mark.actions_at, end) if actions[k][1].split()[:1] == [w.PLAY]), None)
        if first is None:
            continue
        replay(session, actions[done:first])
        done = first
        state = session.state
        if session.deals_started == mark.number and state.pending is not None and state.pending.kind is PLAY \
                and not state.won and not state.trick:
            starts[mark.number] = state.clone()
    return starts


def _hindsight(start, log: list) -> list[str]:
    """What could have been made in a played deal with every card open (khrap.bots.hindsight)."""
    if start is None:
        return []
    from khrap.bots.hindsight import missed_lines

    return missed_lines(start, log[len(start.log):])
