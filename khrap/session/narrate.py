"""A record told as a story: each deal's events, its settlement, and where the session stands."""

from __future__ import annotations

from khrap.engine.kinds import PLAY
from khrap.gamelog import _, _n, counted, listed, tell, translate
from khrap.gamelog.voice import Voice
from khrap.session.core import Session
from khrap.session.record import DealMark, RecordError, _actions, new_session, replay, replay_record


def _setup_line(record: dict, session: Session, lang: str) -> str:
    title = session.variant.name.get(lang) or session.variant.name.get("en", session.variant_name)
    if lang == "en":
        title = f"{session.variant_name} ({title})"
    setup = session.setup
    stacks = setup["stacks"]
    stacks_text = translate(lang, _("{chips} chips each"), chips=stacks) if isinstance(stacks, int) else \
        translate(lang, _("stacks {stacks}"), stacks=listed(stacks))
    return translate(lang, _("{title}, {players} players, seed {seed}; seat {dealer} deals first; {stacks}, pot {pot}"),
                     title=title, players=session.players, seed=setup["seed"], dealer=setup["dealer"],
                     stacks=stacks_text, pot=setup["pot"])


def _where(session: Session, lang: str) -> str:
    if session.deal_over:
        deals = counted(lang, _n("{count} deal", "{count} deals"), session.deals_completed)
        if lang == "en":  # the English line as it always read
            deals = f"{session.deals_completed} deals"
        return translate(lang, _("After {deals}: stacks {stacks}, pot {pot}."), deals=deals,
                         stacks=listed(session.stacks), pot=session.pot)
    from khrap.gamelog import word

    held = session.state.locked
    locked = translate(lang, _(", locked {locked}"), locked=listed(held)) if any(held) else ""
    return translate(lang, _("Deal {deal} is in progress ({phase}, seat {seat} to act): stacks {stacks}, pot {pot}"),
                     deal=session.deals_started, phase=word(lang, session.phase), seat=session.to_act,
                     stacks=listed(session.stacks), pot=session.pot) + locked + "."


def narrative(record: dict, deal: int | None = None, lang: str = "en") -> str:
    """The record as readable text in ``lang`` (every card shown: a replay is told after the fact).  English
    tells cards and calls in CONTRACT's words, as ``khrap run``; any other language as its players write them."""
    session, marks = replay_record(record)
    log = session.state.log
    if deal is not None and not 1 <= deal <= len(marks):
        raise RecordError(f"the record has {len(marks)} deals; there is no deal {deal}")
    voice = Voice(lang, session.variant, codes=lang == "en")
    lines = [_setup_line(record, session, lang), ""]
    starts = _play_starts(record, [m for m in marks if deal is None or m.number == deal])
    for i, mark in enumerate(marks):
        if deal is not None and mark.number != deal:
            continue
        end = marks[i + 1].log_at if i + 1 < len(marks) else len(log)
        told = tell(log[mark.log_at : end], lang, voice=voice)
        lines += _deal_lines(mark, told + _hindsight(starts.get(mark.number), log[:end], lang, voice), lang)
    lines.append(_where(session, lang))
    if record.get("result"):
        lines.append(translate(lang, _("The replay reaches the record's saved result.")))
    return "\n".join(lines)


def _deal_lines(mark: DealMark, events: list[str], lang: str) -> list[str]:
    head = translate(lang, _("Deal {deal}: seat {dealer} deals; stacks {stacks}, pot {pot}"), deal=mark.number,
                     dealer=mark.dealer, stacks=listed(mark.stacks), pot=mark.pot)
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


def _hindsight(start, log: list, lang: str = "en", voice: Voice | None = None) -> list[str]:
    """What could have been made in a played deal with every card open (khrap.bots.hindsight)."""
    if start is None:
        return []
    from khrap.bots.hindsight import missed_lines

    if voice is not None and voice.codes:
        voice = None
    return missed_lines(start, log[len(start.log):], lang, voice)
