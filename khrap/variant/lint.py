"""Warnings for house rules that are valid but probably not what the table meant.

A variant that loads may still say something its writer did not intend: a call nothing offers, a
replaced list that silently drops the parent's rules, an override equal to what it overrides, a call
whose conditions can never hold.  Each warning is located like an error, ``FILE:LINE:COL: warning:
...``; ``khrap validate`` prints them (``--strict`` makes them errors), and ``khrap rules`` and
``khrap play`` say how many there are.

The checks compare the loaded file with the variant it extends (when it extends one), so they speak
of what the house rule changed, never of the built-in it starts from.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from khrap.cards import RANKS
from khrap.variant.catalog import Loaded, load_checked, offered_calls
from khrap.variant.derived import deck_for, enabled, penalty_matches, stock_after_deal
from khrap.variant.expect import flow
from khrap.variant.loader import Loc, _show, did_you_mean, dotted, value_at
from khrap.variant.schema import Call, CallsStage, ExchangeStage, Penalty, Variant

__all__ = ["LintWarning", "lint", "lint_file", "summary", "warnings_line"]

Found = tuple[Loc, str]


@dataclass(frozen=True)
class LintWarning:
    """One warning, located in the file that wrote the value."""

    message: str
    path: str
    line: int | None = None
    col: int | None = None
    kind: str = "warning"  # or "note": said, never an error (--strict), never counted as a warning

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}:{self.col}"
        return f"{where}: {self.kind}: {self.message}"


def lint_file(ref: str | os.PathLike[str]) -> tuple[Variant, list[LintWarning]]:
    """Load a variant (raising VariantError for mistakes) and return it with its warnings."""
    loaded = load_checked(ref)
    return loaded.variant, lint(loaded)


def lint(loaded: Loaded) -> list[LintWarning]:
    """Every warning for the loaded file, in file order."""
    v = loaded.variant
    # A built-in is written out in full on purpose (each reads alone): it is not compared with its parent.
    parent = None if _builtin(loaded.origins.user_file) else loaded.parent()
    found: list[Found] = [*_unoffered(loaded, v, parent), *_unreachable(v), *_unpaid(v)]
    # a value equal to the parent's is a note: a file may record a table's rules in full, inherited ones too
    notes: list[Found] = []
    if parent is not None:
        found += [*_dropped(loaded, v, parent), *_unfollowed(loaded, v, parent)]
        notes += _unchanged(loaded, v, parent)
    out = {}
    for kind, items in (("warning", found), ("note", notes)):
        for loc, message in items:
            path, line, col = loaded.origins.locate(loc, key=True)
            out.setdefault((path, line, col, message), LintWarning(message, path, line, col, kind))
    home = loaded.origins.user_file
    return sorted(out.values(), key=lambda w: (w.path != home, w.path, w.line or 0, w.col or 0))


def warnings_line(ref: str | os.PathLike[str]) -> str | None:
    """The one-line count for a variant that loads, or None when it has no warnings (or does not load:
    the command reports that itself)."""
    from khrap.variant.loader import VariantError

    try:
        _, found = lint_file(ref)
    except VariantError:
        return None
    warnings = [w for w in found if w.kind == "warning"]
    return summary(warnings, str(ref)) if warnings else None


def summary(warnings: list[LintWarning], ref: str) -> str:
    """The one line ``khrap rules`` and ``khrap play`` print: how many warnings, and where to read them."""
    n = len(warnings)
    return f"{ref}: {n} warning{'s' if n != 1 else ''}; run `khrap validate {ref}` to read {'them' if n > 1 else 'it'}"


# --------------------------------------------------------------------------- calls nothing offers


def _builtin(path: str) -> bool:
    from khrap.variant.catalog import variants_dir

    try:
        return Path(path).resolve().parent == variants_dir().resolve()
    except OSError:
        return False


def _unoffered(loaded: Loaded, v: Variant, parent: Variant | None) -> Iterator[Found]:
    """An enabled call that no stage offers; an inherited one only if the parent offered it (else a stage list
    the house rule replaced dropped it, and that is said at the list)."""
    offered = offered_calls(v)
    for cid in enabled(v):
        if cid in offered:
            continue
        if parent is not None and cid in parent.calls and not _written(loaded, ("calls", cid)):
            continue
        known = [c for c in (parent.calls if parent is not None else ()) if c != cid]
        meant = did_you_mean(cid, known) if parent is not None and cid not in parent.calls else ""
        hint = f" (or is it a misspelt {_show(meant.split(chr(39))[1])}?)" if meant else ""
        yield (("calls", cid), f"call {_show(cid)} is defined but no stage offers it, so it can never be said: "
               f"add it to the `calls` of a stage, or remove it{hint}")


# --------------------------------------------------------------------------- conditions that never hold


def _unreachable(v: Variant) -> Iterator[Found]:
    decks = [deck_for(v, n) or [] for n in range(v.players.min, v.players.max + 1)]
    most = max((len(d) for d in decks), default=len(RANKS))
    for cid, call in enabled(v).items():
        for loc, why in _never(v, call, most):
            yield ("calls", cid, "requires", *loc), f"call {_show(cid)} can never be made: {why}"
    for cid, call in enabled(v).items():
        if call.effects.draw:
            yield from _short_stock(v, cid, call)
    for wid, win in v.instant_wins.items():
        if win.enabled and win.count > v.hand_size:
            yield (("instant_wins", wid, "count"),
                   f"instant win {_show(wid)} can never happen: it needs {win.count} cards of rank {win.rank} "
                   f"in a hand of {v.hand_size}")


def _never(v: Variant, call: Call, trumps_in_deck: int) -> Iterator[tuple[Loc, str]]:
    req = call.requires
    trump_holds = sum(1 for p in req.holds if p.suit == "trump")
    cards = {(p.rank, p.suit) for p in req.holds}
    if len(cards) < len(req.holds):
        yield ("holds",), "`holds` names the same card twice, and there is one of each card"
    if len(cards) > v.hand_size:
        yield ("holds",), f"it requires holding {len(cards)} cards (`holds`) in a hand of {v.hand_size}"
    if req.min_trumps is not None and req.min_trumps > min(v.hand_size, trumps_in_deck):
        yield (("min_trumps",), f"it requires at least {req.min_trumps} trumps (`min_trumps`), but a hand has "
               f"{v.hand_size} cards and the deck {trumps_in_deck} trumps")
    if req.max_trumps is not None and req.max_trumps < trump_holds:
        yield (("max_trumps",), f"it requires holding {trump_holds} trumps (`holds`) but at most {req.max_trumps} "
               "(`max_trumps`)")
    if req.min_trumps is not None and req.max_trumps is not None and req.min_trumps > req.max_trumps:
        yield ("min_trumps",), f"`min_trumps: {req.min_trumps}` is more than `max_trumps: {req.max_trumps}`"


def _short_stock(v: Variant, cid: str, call: Call) -> Iterator[Found]:
    """A call that draws more cards than the stock ever holds: no draw is partial, so it is never open."""
    stocks = [(stock, -n) for n in range(v.players.min, v.players.max + 1)
              if (stock := stock_after_deal(v, n)) is not None]
    most, n = max(stocks, default=(0, -v.players.min))
    n = -n  # the fewest players with that stock
    if call.effects.draw > most:
        yield (("calls", cid, "effects", "draw"),
               f"call {_show(cid)} can never be made: it draws {call.effects.draw} cards (`draw: "
               f"{call.effects.draw}`), but the stock never holds more than {most} (at {n} players, after the "
               "deal), and no draw is ever partial")


# --------------------------------------------------------------------------- fines nobody pays


def _unpaid(v: Variant) -> Iterator[Found]:
    """A penalty rule that can never charge anyone: it asks for more tricks than a failed player can have
    taken, or an earlier rule charges everyone it would (the first rule that matches applies)."""
    rules = v.settlement.penalties
    for i, penalty in enumerate(rules):
        loc = ("settlement", "penalties", i)
        statuses = [penalty.status] if penalty.status else [s for s in ("declarer", "helper") if s in v.statuses]
        most = max((v.statuses[s].tricks for s in statuses), default=0)
        if penalty.tricks is not None and penalty.tricks >= most:
            who = " or ".join(f"a {s}" for s in statuses)
            yield ((*loc, "tricks"),
                   f"penalty rule {i + 1} can never be paid: it charges a player who took {penalty.tricks} "
                   f"trick{'s' if penalty.tricks != 1 else ''} (`tricks: {penalty.tricks}`), but {who} who took "
                   f"{most} or more has not failed, and only failed players pay: write fewer tricks, or remove it")
            continue
        earlier = next((j for j in range(i) if _covers(rules[j], penalty)), None)
        if earlier is not None:
            shown = _rule(rules[earlier]) if rules[earlier].pay != "stake" else _rule(rules[earlier])[:-1] + \
                (", " if _rule(rules[earlier]) != "{}" else "") + "pay: stake}"
            yield (loc, f"penalty rule {i + 1} can never be paid: rule {earlier + 1} (`{shown}`) "
                   "charges every player it would, and only the first rule that matches applies: put it before "
                   f"rule {earlier + 1}, or remove it")


def _covers(first: Penalty, later: Penalty) -> bool:
    """Whether every failed player that ``later`` matches is matched by ``first`` already."""
    return (first.status in (None, later.status) and (not first.calls or bool(later.calls)
                                                       and set(later.calls) <= set(first.calls))
            and first.tricks in (None, later.tricks) and all(p in later.held for p in first.held))


# --------------------------------------------------------------------------- replaced lists


def _written(loaded: Loaded, loc: Loc) -> bool:
    """Whether the loaded file itself wrote the value at ``loc``."""
    origins = loaded.origins
    return origins.owner(loc) == len(origins.sources) - 1 and origins.sources[-1][1].written(loc)


def _dropped(loaded: Loaded, v: Variant, parent: Variant) -> Iterator[Found]:
    """What the parent's list covered that the house rule's replacement no longer does."""
    name = _name(loaded)
    if _written(loaded, ("settlement", "penalties")):
        yield from _dropped_penalties(v, parent, name)
    if _written(loaded, ("settlement", "trick_share", "statuses")):
        gone = [s for s in parent.settlement.trick_share.statuses if s not in v.settlement.trick_share.statuses]
        if gone:
            yield (("settlement", "trick_share", "statuses"),
                   f"tricks taken by a {_words(gone, 'or')} are no longer paid: this list replaces the whole "
                   f"list of '{name}', which paid them; add them back if that was not meant")
    if _written(loaded, ("settlement", "declarer_prize")):
        old, new = parent.settlement.declarer_prize, v.settlement.declarer_prize
        if len(new) < len(old) and any(p != "none" for p in old[len(new):]):
            yield (("settlement", "declarer_prize"),
                   f"the declarer's prize after bidding round {len(new) + 1} is gone: this list replaces the "
                   f"whole list of '{name}' ({flow(old)}); give an entry for every round you mean")
    if _written(loaded, ("play", "first_lead", "calls")):
        offered = offered_calls(v)
        gone = [c for c in parent.play.first_lead.calls if c not in v.play.first_lead.calls and c in offered]
        if gone:
            yield (("play", "first_lead", "calls"),
                   f"{_calls(gone)} no longer lead{'s' if len(gone) == 1 else ''} to the first trick: this "
                   f"list replaces the whole list of '{name}'; add {'it' if len(gone) == 1 else 'them'} back if "
                   "that was not meant")
    if _written(loaded, ("stages",)):
        yield from _dropped_stages(v, parent, name)
    for i, stage in enumerate(v.stages):
        old = next((s for s in parent.stages if s.id == stage.id and s.kind == stage.kind), None)
        if old is None:
            continue
        if isinstance(stage, CallsStage) and _written(loaded, ("stages", i, "calls")):
            offered = offered_calls(v)  # a call moved to another stage is still offered: not gone
            gone = [c for c in old.calls if c not in stage.calls and c in enabled(v) and c not in offered]
            if gone:
                yield (("stages", i, "calls"),
                       f"stage {_show(stage.id)} no longer offers {_calls(gone)}: this list replaces the whole list of "
                       f"'{name}'; add {'it' if len(gone) == 1 else 'them'} back, or switch "
                       f"{'it' if len(gone) == 1 else 'them'} off with `enabled: false` if that was meant")
        if isinstance(stage, ExchangeStage) and _written(loaded, ("stages", i, "order")):
            yield from _dropped_order(v, i, stage, old, name)


def _dropped_penalties(v: Variant, parent: Variant, name: str) -> Iterator[Found]:
    loc = ("settlement", "penalties")
    for cid, call in enabled(v).items():
        if call.effects.status == "out" or cid not in parent.calls:
            continue
        before = [p for p in parent.settlement.penalties if _applies(p, cid, call)]
        if before and not any(_applies(p, cid, call) for p in v.settlement.penalties):
            yield (loc, f"a failed {_show(cid)} now pays nothing: this list replaces the whole list of '{name}', "
                   f"where {_rule(before[0])} charged it; copy the rules "
                   "you keep into your list (a last `{pay: stake}` catches everyone else)")


def _rule(penalty: Penalty) -> str:
    """A penalty rule as it would be written: the fields that differ from their defaults."""
    blank = Penalty().model_dump(mode="json")
    rule = {k: v for k, v in penalty.model_dump(mode="json").items() if v != blank[k]}
    if isinstance(rule.get("pay"), dict):
        rule["pay"] = {k: n for k, n in rule["pay"].items() if n} or {"base": 0}
    return flow(rule)


def _applies(penalty: Penalty, cid: str, call: Call) -> bool:
    """Whether ``penalty`` may charge a failed player who made call ``cid`` (whatever his tricks)."""
    return penalty_matches(penalty, call.effects.status, cid)


def _dropped_stages(v: Variant, parent: Variant, name: str) -> Iterator[Found]:
    from khrap.variant.catalog import stage_title

    ids = {s.id for s in v.stages}
    offered = offered_calls(v)
    for n, stage in enumerate(parent.stages, 1):
        if stage.id in ids:
            continue
        if isinstance(stage, CallsStage):  # its calls offered elsewhere: renamed, or merged into another stage
            stranded = [c for c in stage.calls if c not in offered and c in enabled(v)]
            moved = [c for c in stage.calls if c in offered and c != "pass"]
            heir = next((s.id for s in v.stages if isinstance(s, CallsStage) and s.id not in
                         {p.id for p in parent.stages} and any(c in s.calls for c in moved)), None)
            if not stranded and heir is not None:
                yield (("stages",), f"stage {_show(stage.id)} (“{stage_title(stage)}”, step {n} of '{name}') is "
                       f"gone, and new stage {_show(heir)} offers its calls: if it is the same step, keep the id "
                       f"'{stage.id}', so that the sheet and `khrap diff` compare it with the step of '{name}'")
                continue
            if not stranded:
                continue
        if stage.id not in ids:
            yield (("stages",), f"stage {_show(stage.id)} (“{stage_title(stage)}”, step {n} of '{name}') "
                   f"is gone: this list replaces the whole list of '{name}'; write it out again if that was not "
                   "meant")


def _dropped_order(v: Variant, i: int, stage: ExchangeStage, old: ExchangeStage, name: str) -> Iterator[Found]:
    """A status or call the parent's exchange order gave a turn and the house rule's does not; a call it
    switched off has no turn to lose (``enabled``)."""
    had = {s for g in old.order for s in g.statuses} | {c for g in old.order for c in g.calls if c in enabled(v)}
    has = {s for g in stage.order for s in g.statuses} | {c for g in stage.order for c in g.calls}
    gone = sorted(had - has)
    if gone:
        yield (("stages", i, "order"),
               f"the exchange order of stage {_show(stage.id)} no longer gives {_words(gone, 'or')} a turn: this list "
               f"replaces the whole order of '{name}'; add {'it' if len(gone) == 1 else 'them'} back if that was "
               "not meant")


# --------------------------------------------------------------------------- amounts that followed the ante


def _unfollowed(loaded: Loaded, v: Variant, parent: Variant) -> Iterator[Found]:
    """A new ante whose all-pass stakes stay the parent's, where the parent's were one ante each: in frap
    every player antes again for a new round, and a table that doubles the ante means the round's too."""
    old, new = parent.ante.amount, v.ante.amount
    if new == old or not _written(loaded, ("ante", "amount")) or _written(loaded, ("all_pass",)):
        return
    fields = [f for f in ("round_ante", "last_ante") if getattr(parent.all_pass, f) == old
              and getattr(v.all_pass, f) == old]
    if not fields or old == 0:
        return
    stays = ", ".join(f"`all_pass.{f}: {old}`" for f in fields)
    fix = ", ".join(f"{f}: {new}" for f in fields)
    yield (("ante", "amount"),
           f"the ante is now {new} base stakes, but the stakes players add when all pass stay {old} ({stays}, "
           f"from '{_name(loaded)}', where they were one ante each): write `all_pass: {{{fix}}}` if they follow "
           "the ante")


# --------------------------------------------------------------------------- overrides that change nothing


def _unchanged(loaded: Loaded, v: Variant, parent: Variant) -> Iterator[Found]:
    """Values the house rule writes that equal what the parent has already (after reading, so `10` is `T`)."""
    mine, theirs = v.model_dump(mode="json"), parent.model_dump(mode="json")
    marks = loaded.origins.sources[-1][1]
    for loc in marks.locations():
        if not loc or loc[0] == "extends" or any(isinstance(c, int) for c in loc):
            continue  # a list is replaced whole: only the list itself can equal the parent's
        here, there = value_at(mine, loc, _MISSING), value_at(theirs, loc, _MISSING)
        if here is _MISSING or there is _MISSING or isinstance(here, dict) or here != there:
            continue
        shown = flow(here)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        yield loc, (f"`{dotted(loc)}: {shown}` is what '{_name(loaded)}' has already (kept as a record of the "
                    "table's rules)")


_MISSING = object()


# --------------------------------------------------------------------------- words


def _name(loaded: Loaded) -> str:
    return Path(loaded.origins.sources[-2][0]).stem


def _words(items: list[str], joiner: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {joiner} " + items[-1]


def _calls(ids: list[str]) -> str:
    quoted = [_show(c) for c in ids]
    return ("call " if len(ids) == 1 else "calls ") + _words(quoted, "and")
