"""What a rule sheet says, as data: which sentence states which rule, and in which section.

This module decides *what* is said and in which order; the words are in the
templates (``templates/sentences.j2``), one macro per rule concept, with a
sentence for each value of the schema field(s) behind it.  Nothing here knows
a variant by name: every line comes from the resolved variant's fields.

A :class:`Line` names its concept by ``key`` (the schema field, e.g. ``ante``
or ``calls.merry.when``), so two variants can be compared concept by concept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from khrap.engine.derived import Derived
from khrap.variant import derived as model
from khrap.variant.schema import (
    Call,
    CallsStage,
    ExchangeStage,
    InstantWinsStage,
    NameTrumpStage,
    Penalty,
    PlayStage,
    Variant,
)

SECTIONS = ("overview", "need", "deal", "course", "calls", "exchange", "play", "settlement", "session", "quirks")
"""The sections of a sheet, in order (their headings are in the templates)."""


@dataclass(frozen=True)
class Line:
    """One sentence (or clause) of a sheet: the concept it states and the macro that words it."""

    key: str
    macro: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass
class CallRow:
    """A row of the calls table: the call's name, when it may be said, what it obliges, what it costs."""

    cid: str
    name: Line
    description: Line
    when: list[Line]
    obliges: list[Line]
    costs: list[Line]

    def lines(self) -> list[Line]:
        return [self.name, self.description, *self.when, *self.obliges, *self.costs]


@dataclass
class Facts:
    """Everything a sheet states about one variant."""

    variant: Variant
    sections: dict[str, list[Line]]
    calls: list[CallRow]

    def concepts(self) -> list[Line]:
        """Every line of the rules proper, in sheet order (the calls table after the calls section)."""
        out: list[Line] = []
        for section in SECTIONS:
            out += self.sections[section]
            if section == "calls":
                for row in self.calls:
                    out += row.lines()
        return out


# ------------------------------------------------------------------ helpers
def call_order(v: Variant) -> list[str]:
    """Enabled calls in the order the steps first list them, then any listed nowhere."""
    return list(Derived(v).call_order)


def step_numbers(v: Variant, stage_ids: list[str]) -> list[int]:
    """The 1-based step numbers of the stages named (unknown ids are left out)."""
    ids = [s.id for s in v.stages]
    return [ids.index(sid) + 1 for sid in stage_ids if sid in ids]


def sayable(v: Variant, index: int, cid: str) -> bool:
    """Whether call ``cid`` can ever be said at step ``index`` (0-based): the stage model's (variant/derived.py)."""
    return model.sayable(v, index, cid)


def stage_calls(v: Variant, index: int) -> list[str]:
    """The calls that can be said at step ``index``, in the step's order."""
    stage = v.stages[index]
    return [cid for cid in getattr(stage, "calls", []) if sayable(v, index, cid)]


def steps_saying(v: Variant, cid: str) -> list[int]:
    return [i + 1 for i in range(len(v.stages)) if sayable(v, i, cid)]


def comeback(v: Variant, cid: str) -> list[int]:
    """The later steps at which a player who went out with ``cid`` may still come into the game."""
    return [i + 1 for i in model.comes_back_at(v, cid)]


def hand_gone(v: Variant, cid: str) -> bool:
    """Whether a player making ``cid`` has already thrown his cards away (a passer asked again after the
    passers' cards went to the discards): he draws a new hand rather than throwing one."""
    steps = steps_saying(v, cid)
    if not steps:
        return False
    for step in steps:
        stage = v.stages[step - 1]
        if stage.speakers != "out":
            return False
        if not any(model.throws_out_hands(s) for s in v.stages[: step - 1]):
            return False
    return True


def penalty_applies(penalty: Penalty, cid: str, call: Call) -> bool:
    """Whether a failed player who made call ``cid`` can be charged by ``penalty``."""
    status = call.effects.status
    if status == "out":
        return False
    return model.penalty_matches(penalty, status, cid)


def penalties_for(v: Variant, cid: str, call: Call) -> list[Penalty]:
    """The penalties that can charge this call's failed caller, in order.

    For each number of tricks that fails, the first penalty that fits applies;
    one that also asks for held cards may not fit, so the next is kept too.
    """
    rule = v.statuses.get(call.effects.status)
    if rule is None:
        return []
    found: list[Penalty] = []
    for tricks in range(rule.tricks):
        for penalty in v.settlement.penalties:
            if not penalty_applies(penalty, cid, call) or penalty.tricks not in (None, tricks):
                continue
            if penalty not in found:
                found.append(penalty)
            if not penalty.held:
                break
    return [p for p in v.settlement.penalties if p in found]


def has_override(v: Variant) -> bool:
    """Whether a call switched on overrides a declarer (the sheet then says what the overridden one becomes)."""
    return any(c.effects.override for c in model.enabled(v).values())


def forced_lock(v: Variant):
    """What a forced helper locks (the helper's stake), or None where stakes are not locked."""
    rule = v.statuses["helper"]
    return rule.stake if rule.locked else None


# ------------------------------------------------------------------ sections
def _overview(v: Variant) -> list[Line]:
    return [
        Line("object", "object", {"v": v}),
        Line("players", "players", {"players": v.players}),
        Line("deck", "deck", {"deck": v.deck}),
        Line("ranks", "rank_order", {"deck": v.deck, "joker": v.joker}),
        Line("hand_size", "hand_size", {"n": v.hand_size}),
    ]


def debts(v: Variant) -> dict[str, Any]:
    """What the debts sentence states: debts or not, what happens to a player who cannot pay, who is dealt in."""
    enabled = model.enabled(v).values()
    ap = v.all_pass
    return {
        "allow": v.allow_debt, "short": v.short_payment, "min_stack": v.min_stack,
        "others": any(c.effects.forces_others or c.effects.override for c in enabled),
        "instant": any(w.enabled for w in v.instant_wins.values()),
        "antes": bool(v.ante.amount or ap.round_ante and ap.rounds > 1 or ap.last_ante),
    }


def _need(v: Variant) -> list[Line]:
    return [
        Line("base_stake", "base_stake", {"n": v.base_stake}),
        Line("ante", "ante", {"ante": v.ante}),
        Line("allow_debt", "allow_debt", debts(v)),
    ]


def dealer_calls(v: Variant) -> list[str]:
    return [cid for cid in call_order(v) if v.calls[cid].requires.dealer]


def blind_calls(v: Variant) -> list[str]:
    return list(Derived(v).blind)


def _deal(v: Variant) -> list[Line]:
    return [
        Line("table.first_dealer", "first_dealer", {"value": v.table.first_dealer}),
        Line("deal", "dealing", {"n": v.hand_size}),
        Line("trump.source", "trump_source", {"source": v.trump.source}),
        Line("looking", "looking", {"dealer": dealer_calls(v), "blind": blind_calls(v), "v": v}),
        Line("draw_from", "draw_from", {"value": v.draw_from}),
        Line("next_dealer", "next_dealer", {"value": v.next_dealer}),
    ]


def _course(v: Variant) -> list[Line]:
    lines = []
    for index, stage in enumerate(v.stages):
        key = f"steps.{stage.id}"  # a step is paired with its namesake (diff), not with the same number
        if isinstance(stage, CallsStage):
            lines.append(Line(key, "step_calls", {"stage": stage, "calls": stage_calls(v, index)}))
        elif isinstance(stage, ExchangeStage):
            lines.append(Line(key, "step_exchange", {"stage": stage}))
        elif isinstance(stage, NameTrumpStage):
            lines.append(Line(key, "step_name_trump", {}))
        elif isinstance(stage, InstantWinsStage):
            lines.append(Line(key, "step_instant_wins", {}))
        elif isinstance(stage, PlayStage):
            lines.append(Line(key, "step_play", {}))
    return lines


def _calls_section(v: Variant) -> list[Line]:
    lines = [Line("statuses", "statuses", {"statuses": v.statuses})]
    if model.any_locked(v):
        lines.append(Line("statuses.locked", "locks_return", {}))
    if has_override(v):
        locked = v.statuses["declarer"].locked
        lines.append(Line("overridden_becomes", "overridden", {"value": v.overridden_becomes, "locked": locked}))
    lines.append(Line("all_pass", "all_pass", {"rule": v.all_pass, "source": v.trump.source}))
    return lines


def _call_row(v: Variant, cid: str) -> CallRow:
    call = v.calls[cid]
    req, eff, ex = call.requires, call.effects, call.exchange
    key = f"calls.{cid}"
    when = [
        Line(f"{key}.steps", "when_steps", {"steps": steps_saying(v, cid)}),
        Line(f"{key}.requires.declarer", "when_declarer", {"value": req.declarer}),
        Line(f"{key}.requires.dealer", "when_dealer", {"value": req.dealer}),
        Line(f"{key}.requires.blind", "when_blind", {"value": req.blind}),
        Line(f"{key}.requires.holds", "when_holds", {"cards": req.holds}),
        Line(f"{key}.requires.trumps", "when_trumps", {"least": req.min_trumps, "most": req.max_trumps}),
        Line(f"{key}.requires.turned_rank", "when_turned", {"rank": req.turned_rank}),
        Line(f"{key}.requires.max_pot", "when_pot", {"bound": req.max_pot}),
        Line(f"{key}.stock", "when_stock", {"draws": model.draws_of(call), "turned": eff.take_turned}),
    ]
    tricks = v.statuses[eff.status].tricks if eff.status in v.statuses else 0
    obliges = [
        Line(f"{key}.effects.status", "does_status", {
            "status": eff.status, "tricks": tricks, "back": comeback(v, cid),
        }),
        Line(f"{key}.effects.override", "does_override", {"value": eff.override, "status": eff.status}),
        Line(f"{key}.effects.forces_others", "does_force", {"value": eff.forces_others, "lock": forced_lock(v)}),
        Line(f"{key}.effects.ends_stage", "does_end", {"value": eff.ends_stage}),
        Line(f"{key}.effects.skip_stages", "does_skip", {"steps": step_numbers(v, eff.skip_stages)}),
        Line(f"{key}.effects.cards", "does_cards", {"eff": eff, "gone": hand_gone(v, cid)}),
        Line(f"{key}.exchange", "does_exchange", {"ex": ex}),
    ]
    rule = v.statuses.get(eff.status)
    costs = [
        Line(f"{key}.stake", "costs_stake", {"rule": rule}),
        Line(f"{key}.penalties", "costs_penalties", {
            "penalties": penalties_for(v, cid, call) if rule else [], "stake": rule.stake if rule else None,
        }),
    ]
    name = Line(f"{key}.name", "call_name", {"cid": cid, "call": call})
    description = Line(f"{key}.description", "call_description", {"cid": cid, "call": call})
    return CallRow(cid, name, description, when, obliges, costs)


def _exchange(v: Variant) -> list[Line]:
    lines = []
    for stage in v.stages:
        if isinstance(stage, ExchangeStage):
            key = f"stages.{stage.id}"
            args = {"order": stage.order, "by_call": None, "no_turn": False}
            lines.append(Line(f"{key}.order", "exchange_order", args))
            for cid, order in stage.order_by_call.items():
                if cid not in model.enabled(v):
                    continue
                turn = v.calls[cid].exchange.takes_part
                if turn and order == stage.order:
                    continue  # the general order, said once already
                # a declarer whose call gives him no exchange turn is not in the order, whatever the list says
                groups = order if turn else [g for g in order if g.calls or g.statuses != ["declarer"]]
                args = {"order": groups, "by_call": cid, "no_turn": not turn}
                lines.append(Line(f"{key}.order_by_call.{cid}", "exchange_order", args))
            lines.append(Line(f"{key}.max_discard", "exchange_limit", {"most": stage.max_discard}))
    if lines:
        lines.append(Line("exchange.stock", "exchange_stock", {}))
    return lines


def _play(v: Variant) -> list[Line]:
    p = v.play
    lines = [
        *([Line("double", "double", {"value": v.double})] if v.double else []),
        Line("play.first_lead", "first_lead", {"calls": p.first_lead.calls}),
        *([Line("play.first_lead.suit", "first_lead_suit", {"suit": p.first_lead.suit})] if p.first_lead.suit else []),
        Line("play.follow_suit", "follow_suit", {"value": p.follow_suit}),
        Line("play.trump_if_void", "trump_if_void", {"value": p.trump_if_void, "follow": p.follow_suit}),
        Line("play.must_beat", "must_beat", {"value": p.must_beat}),
        Line("play.must_overtrump", "must_overtrump", {"value": p.must_overtrump}),
    ]
    if v.joker is not None:
        lines.append(Line("joker", "joker", {"joker": v.joker}))
    lines += [
        Line("play.trick", "trick_winner", {"joker": v.joker is not None}),
        Line("play.lone_declarer_takes_all", "lone_declarer", {"value": p.lone_declarer_takes_all, "n": v.hand_size}),
    ]
    return lines


def _fines_on_p(v: Variant) -> bool:
    """Whether a fine may be counted on P (a multiple of the pot): else the sheet need not say which pot."""
    stakes = any(p.pay == "stake" for p in v.settlement.penalties)
    return any(p.pay != "stake" and p.pay.pots for p in v.settlement.penalties) or stakes and any(
        rule.stake.pots for rule in v.statuses.values())


def _settlement(v: Variant) -> list[Line]:
    s = v.settlement
    lines = [
        Line("settlement.pot", "pot_p", {}),
        Line("settlement.trick_share", "trick_share", {"share": s.trick_share, "hand": v.hand_size}),
    ]
    if s.declarer_prize:
        lines.append(Line("settlement.declarer_prize", "declarer_prize", {
            "prizes": s.declarer_prize, "later": v.all_pass.rounds > len(s.declarer_prize),
        }))
    lines.append(Line("settlement.penalties", "penalties", {"penalties": s.penalties, "on_p": _fines_on_p(v)}))
    lines.append(Line("settlement.pot_after", "pot_after", {"value": s.pot_after}))
    # What rounding leaves goes elsewhere only when the pot is shared out at once: a carried pot keeps it.
    remainder = s.remainder if s.pot_after == "redistribute" else "pot"
    lines.append(Line("settlement.remainder", "remainder", {"value": remainder}))
    if s.house is not None:
        lines.append(Line("settlement.house", "house_share", {"house": s.house}))
    return lines


def _session(v: Variant) -> list[Line]:
    return [
        Line("table.join", "joining", {"value": v.table.join}),
        Line("table.session_end", "session_end", {"value": v.table.session_end, "carry": v.settlement.pot_after}),
    ]


def _quirks(v: Variant) -> list[Line]:
    checked = [i + 1 for i, s in enumerate(v.stages) if isinstance(s, InstantWinsStage)]
    return [
        Line(f"instant_wins.{wid}", "instant_win", {"win": win, "steps": checked})
        for wid, win in v.instant_wins.items()
        if win.enabled
    ]


QUIRKS = {"draw_from": "top", "next_dealer": "left", "allow_debt": True, "joker": None}
"""Concepts stated among the variant's special features when they are not the plain rule (the value given)."""


def _is_quirk(v: Variant, line: Line) -> bool:
    if line.key not in QUIRKS:
        return False
    plain = QUIRKS[line.key]
    return plain is None or getattr(v, line.key) != plain


def facts(v: Variant) -> Facts:
    """What the sheet of ``v`` states, section by section."""
    sections = {
        "overview": _overview(v),
        "need": _need(v),
        "deal": _deal(v),
        "course": _course(v),
        "calls": _calls_section(v),
        "exchange": _exchange(v),
        "play": _play(v),
        "settlement": _settlement(v),
        "session": _session(v),
        "quirks": _quirks(v),
    }
    moved: list[Line] = []
    for name in SECTIONS[:-1]:
        moved += [line for line in sections[name] if _is_quirk(v, line)]
        sections[name] = [line for line in sections[name] if not _is_quirk(v, line)]
    sections["quirks"] = moved + sections["quirks"]
    return Facts(v, sections, [_call_row(v, cid) for cid in call_order(v)])
