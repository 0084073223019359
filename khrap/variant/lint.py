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

import difflib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from khrap.cards import RANKS
from khrap.variant.catalog import Loaded, load_checked, offered_calls
from khrap.variant.derived import deck_for, enabled, penalty_matches, stock_after_deal
from khrap.variant.expect import flow
from khrap.variant.loader import Loc, _show, dotted, value_at
from khrap.variant.said import Counted, Said, Translate, shown
from khrap.variant.schema import Call, CallsStage, ExchangeStage, Penalty, Variant

__all__ = ["LintWarning", "lint", "lint_file", "summary", "verdict", "warnings_line"]

Found = tuple[Loc, Said]


@dataclass(frozen=True)
class LintWarning:
    """One warning, located in the file that wrote the value.  ``message`` is a :class:`Said`, put in the
    reader's language by :meth:`shown`; ``str()`` is the English.  The location is never translated (an
    editor jumps to it); the kind's word (``warning:``, ``note:``) is said in the reader's language with
    the message, so a Russian line reads in Russian from its location on.  In English (no ``translate``,
    or the English catalog) the line is ``FILE:LINE:COL: warning: message``, byte for byte, for a CI to grep."""

    message: Said | str
    path: str
    line: int | None = None
    col: int | None = None
    kind: str = "warning"  # or "note": said, never an error (--strict), never counted as a warning

    def text(self, translate: Translate | None = None) -> str:
        """The message alone, in the language of ``translate`` (English without one)."""
        return str(self.message) if translate is None else shown(self.message, translate)

    def shown(self, translate: Translate | None = None) -> str:
        """``FILE:LINE:COL: warning: message``, the message in the language of ``translate``."""
        where = self.path if self.line is None else f"{self.path}:{self.line}:{self.col}"
        said = _KINDS[self.kind](self.message)
        return f"{where}: {said if translate is None else shown(said, translate)}"

    def __str__(self) -> str:
        return self.shown()


# the kind's word and the message, one msgid each, so a language may order or punctuate them its own way
_KINDS = {
    "warning": lambda message: Said("warning: %(message)s", message=message),
    "note": lambda message: Said("note: %(message)s", message=message),
}


def lint_file(ref: str | os.PathLike[str]) -> tuple[Variant, list[LintWarning]]:
    """Load a variant (raising VariantError for mistakes) and return it with its warnings."""
    loaded = load_checked(os.fspath(ref))
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
    out: dict[tuple, LintWarning] = {}
    for kind, items in (("warning", found), ("note", notes)):
        for loc, message in items:
            path, line, col = loaded.origins.locate(loc, key=True)
            out.setdefault((path, line, col, str(message)), LintWarning(message, path, line, col, kind))
    home = loaded.origins.user_file
    return sorted(out.values(), key=lambda w: (w.path != home, w.path, w.line or 0, w.col or 0))


def warnings_line(ref: str | os.PathLike[str], translate: Translate | None = None) -> str | None:
    """The one-line count for a variant that loads, or None when it has no warnings (or does not load:
    the command reports that itself); in the language of ``translate``."""
    from khrap.variant.loader import VariantError

    try:
        _, found = lint_file(ref)
    except VariantError:
        return None
    warnings = [w for w in found if w.kind == "warning"]
    return shown(summary(warnings, str(ref)), translate or str) if warnings else None


def summary(warnings: list[LintWarning], ref: str) -> Said:
    """The one line ``khrap rules`` and ``khrap play`` print: how many warnings, and where to read them."""
    if len(warnings) == 1:
        return Said("%(file)s: 1 warning; run `khrap validate %(file)s` to read it", file=ref)
    return Said("%(file)s: %(n)s warnings; run `khrap validate %(file)s` to read them", file=ref, n=len(warnings))


def verdict(ref: str, warnings: int, strict: bool = False) -> Said:
    """What ``khrap validate`` says of a file that loads: ``ok``, with its count of warnings; under ``--strict``
    a file with warnings fails, and the line says so."""
    if strict and warnings:
        return Said("%(file)s: 1 warning, which --strict makes errors", file=ref) if warnings == 1 else \
            Said("%(file)s: %(n)s warnings, which --strict makes errors", file=ref, n=warnings)
    if not warnings:
        return Said("%(file)s: ok", file=ref)
    return Said("%(file)s: ok (1 warning)", file=ref) if warnings == 1 else \
        Said("%(file)s: ok (%(n)s warnings)", file=ref, n=warnings)


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
        close = difflib.get_close_matches(cid, known, n=1, cutoff=0.6) if parent is not None and \
            cid not in parent.calls else []
        hint = Said(" (or is it a misspelt %(call)s?)", call=_show(close[0])) if close else ""
        yield (("calls", cid), Said("call %(call)s is defined but no stage offers it, so it can never be said: "
                                    "add it to the `calls` of a stage, or remove it", call=_show(cid)) + hint)


# --------------------------------------------------------------------------- conditions that never hold


def _unreachable(v: Variant) -> Iterator[Found]:
    decks = [deck_for(v, n) or [] for n in range(v.players.min, v.players.max + 1)]
    most = max((len(d) for d in decks), default=len(RANKS))
    for cid, call in enabled(v).items():
        for loc, why in _never(v, call, most):
            yield ("calls", cid, "requires", *loc), Said("call %(call)s can never be made: %(why)s", call=_show(cid),
                                                         why=why)
    for cid, call in enabled(v).items():
        if call.effects.draw:
            yield from _short_stock(v, cid, call)
    for wid, win in v.instant_wins.items():
        if win.enabled and win.count > v.hand_size:
            yield (("instant_wins", wid, "count"),
                   Said("instant win %(win)s can never happen: it needs %(count)s cards of rank %(rank)s in a hand "
                        "of %(hand)s", win=_show(wid), count=win.count, rank=win.rank, hand=v.hand_size))


def _never(v: Variant, call: Call, trumps_in_deck: int) -> Iterator[tuple[Loc, Said]]:
    req = call.requires
    trump_holds = sum(1 for p in req.holds if p.suit == "trump")
    cards = {(p.rank, p.suit) for p in req.holds}
    if len(cards) < len(req.holds):
        yield ("holds",), Said("`holds` names the same card twice, and there is one of each card")
    if len(cards) > v.hand_size:
        yield ("holds",), Said("it requires holding %(cards)s cards (`holds`) in a hand of %(hand)s",
                               cards=len(cards), hand=v.hand_size)
    if req.min_trumps is not None and req.min_trumps > min(v.hand_size, trumps_in_deck):
        yield (("min_trumps",), Said("it requires at least %(trumps)s trumps (`min_trumps`), but a hand has %(hand)s "
                                     "cards and the deck %(deck)s trumps", trumps=req.min_trumps, hand=v.hand_size,
                                     deck=trumps_in_deck))
    if req.max_trumps is not None and req.max_trumps < trump_holds:
        yield (("max_trumps",), Said("it requires holding %(held)s trumps (`holds`) but at most %(most)s "
                                     "(`max_trumps`)", held=trump_holds, most=req.max_trumps))
    if req.min_trumps is not None and req.max_trumps is not None and req.min_trumps > req.max_trumps:
        yield ("min_trumps",), Said("`min_trumps: %(least)s` is more than `max_trumps: %(most)s`",
                                    least=req.min_trumps, most=req.max_trumps)


def _short_stock(v: Variant, cid: str, call: Call) -> Iterator[Found]:
    """A call that draws more cards than the stock ever holds: no draw is partial, so it is never open."""
    stocks = [(stock, -n) for n in range(v.players.min, v.players.max + 1)
              if (stock := stock_after_deal(v, n)) is not None]
    most, n = max(stocks, default=(0, -v.players.min))
    n = -n  # the fewest players with that stock
    if call.effects.draw > most:
        yield (("calls", cid, "effects", "draw"),
               Said("call %(call)s can never be made: it draws %(draw)s cards (`draw: %(draw)s`), but the stock never "
                    "holds more than %(most)s (at %(n)s players, after the deal), and no draw is ever partial",
                    call=_show(cid), draw=call.effects.draw, most=most, n=n))


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
            who = _either([Said("a %(status)s", status=s) for s in statuses])
            took = Counted("%(n)s trick", "%(n)s tricks", penalty.tricks, n=penalty.tricks)
            yield ((*loc, "tricks"),
                   Said("penalty rule %(rule)s can never be paid: it charges a player who took %(took)s (`tricks: "
                        "%(n)s`), but %(who)s who took %(most)s or more has not failed, and only failed players pay: "
                        "write fewer tricks, or remove it", rule=i + 1, took=took, n=penalty.tricks, who=who,
                        most=most))
            continue
        earlier = next((j for j in range(i) if _covers(rules[j], penalty)), None)
        if earlier is not None:
            shown = _rule(rules[earlier]) if rules[earlier].pay != "stake" else _rule(rules[earlier])[:-1] + \
                (", " if _rule(rules[earlier]) != "{}" else "") + "pay: stake}"
            yield (loc, Said("penalty rule %(rule)s can never be paid: rule %(earlier)s (`%(shown)s`) charges every "
                             "player it would, and only the first rule that matches applies: put it before rule "
                             "%(earlier)s, or remove it", rule=i + 1, earlier=earlier + 1, shown=shown))


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
        gone: list[str] = [s for s in parent.settlement.trick_share.statuses
                           if s not in v.settlement.trick_share.statuses]
        if gone:
            yield (("settlement", "trick_share", "statuses"),
                   Said("tricks taken by a %(statuses)s are no longer paid: this list replaces the whole list of "
                        "'%(parent)s', which paid them; add them back if that was not meant",
                        statuses=_words(gone, "or"), parent=name))
    if _written(loaded, ("settlement", "declarer_prize")):
        was, now = parent.settlement.declarer_prize, v.settlement.declarer_prize
        if len(now) < len(was) and any(p != "none" for p in was[len(now):]):
            yield (("settlement", "declarer_prize"),
                   Said("the declarer's prize after bidding round %(round)s is gone: this list replaces the whole "
                        "list of '%(parent)s' (%(old)s); give an entry for every round you mean", round=len(now) + 1,
                        parent=name, old=flow(was)))
    if _written(loaded, ("play", "first_lead", "calls")):
        offered = offered_calls(v)
        gone = [c for c in parent.play.first_lead.calls if c not in v.play.first_lead.calls and c in offered]
        if gone:
            yield (("play", "first_lead", "calls"), Said(
                "call %(calls)s no longer leads to the first trick: this list replaces the whole list of "
                "'%(parent)s'; add it back if that was not meant", calls=_show(gone[0]), parent=name)
                if len(gone) == 1 else Said(
                "calls %(calls)s no longer lead to the first trick: this list replaces the whole list of "
                "'%(parent)s'; add them back if that was not meant", calls=_calls(gone), parent=name))
    if _written(loaded, ("stages",)):
        yield from _dropped_stages(v, parent, name)
    for i, stage in enumerate(v.stages):
        old = next((s for s in parent.stages if s.id == stage.id and s.kind == stage.kind), None)
        if old is None:
            continue
        # (the same kind is the same class: the isinstance tests only say so to the type checker)
        if isinstance(stage, CallsStage) and isinstance(old, CallsStage) and _written(loaded, ("stages", i, "calls")):
            offered = offered_calls(v)  # a call moved to another stage is still offered: not gone
            gone = [c for c in old.calls if c not in stage.calls and c in enabled(v) and c not in offered]
            if gone:
                yield (("stages", i, "calls"), Said(
                    "stage %(stage)s no longer offers call %(calls)s: this list replaces the whole list of "
                    "'%(parent)s'; add it back, or switch it off with `enabled: false` if that was meant",
                    stage=_show(stage.id), calls=_show(gone[0]), parent=name) if len(gone) == 1 else Said(
                    "stage %(stage)s no longer offers calls %(calls)s: this list replaces the whole list of "
                    "'%(parent)s'; add them back, or switch them off with `enabled: false` if that was meant",
                    stage=_show(stage.id), calls=_calls(gone), parent=name))
        if isinstance(stage, ExchangeStage) and isinstance(old, ExchangeStage) \
                and _written(loaded, ("stages", i, "order")):
            yield from _dropped_order(v, i, stage, old, name)


def _dropped_penalties(v: Variant, parent: Variant, name: str) -> Iterator[Found]:
    loc = ("settlement", "penalties")
    for cid, call in enabled(v).items():
        if call.effects.status == "out" or cid not in parent.calls:
            continue
        before = [p for p in parent.settlement.penalties if _applies(p, cid, call)]
        if before and not any(_applies(p, cid, call) for p in v.settlement.penalties):
            yield (loc, Said("a failed %(call)s now pays nothing: this list replaces the whole list of '%(parent)s', "
                             "where %(rule)s charged it; copy the rules you keep into your list (a last `{pay: "
                             "stake}` catches everyone else)", call=_show(cid), parent=name, rule=_rule(before[0])))


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
    from khrap.variant.catalog import stage_title_said

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
                yield (("stages",), Said(
                    "stage %(stage)s (“%(title)s”, step %(n)s of '%(parent)s') is gone, and new stage %(heir)s offers "
                    "its calls: if it is the same step, keep the id '%(id)s', so that the sheet and `khrap diff` "
                    "compare it with the step of '%(parent)s'", stage=_show(stage.id), title=stage_title_said(stage),
                    n=n, parent=name, heir=_show(heir), id=stage.id))
                continue
            if not stranded:
                continue
        if stage.id not in ids:
            yield (("stages",), Said("stage %(stage)s (“%(title)s”, step %(n)s of '%(parent)s') is gone: this list "
                                     "replaces the whole list of '%(parent)s'; write it out again if that was not "
                                     "meant", stage=_show(stage.id), title=stage_title_said(stage), n=n, parent=name))


def _dropped_order(v: Variant, i: int, stage: ExchangeStage, old: ExchangeStage, name: str) -> Iterator[Found]:
    """A status or call the parent's exchange order gave a turn and the house rule's does not; a call it
    switched off has no turn to lose (``enabled``)."""
    had = {s for g in old.order for s in g.statuses} | {c for g in old.order for c in g.calls if c in enabled(v)}
    has = {s for g in stage.order for s in g.statuses} | {c for g in stage.order for c in g.calls}
    gone = sorted(had - has)
    if gone:
        yield (("stages", i, "order"), Said(
            "the exchange order of stage %(stage)s no longer gives %(gone)s a turn: this list replaces the whole "
            "order of '%(parent)s'; add it back if that was not meant", stage=_show(stage.id), gone=gone[0],
            parent=name) if len(gone) == 1 else Said(
            "the exchange order of stage %(stage)s no longer gives %(gone)s a turn: this list replaces the whole "
            "order of '%(parent)s'; add them back if that was not meant", stage=_show(stage.id),
            gone=_words(gone, "or"), parent=name))


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
           Said("the ante is now %(new)s base stakes, but the stakes players add when all pass stay %(old)s "
                "(%(stays)s, from '%(parent)s', where they were one ante each): write `all_pass: {%(fix)s}` if they "
                "follow the ante", new=new, old=old, stays=stays, parent=_name(loaded), fix=fix))


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
        yield loc, Said("`%(field)s: %(value)s` is what '%(parent)s' has already (kept as a record of the table's "
                        "rules)", field=dotted(loc), value=shown, parent=_name(loaded))


_MISSING = object()


# --------------------------------------------------------------------------- words


def _name(loaded: Loaded) -> str:
    return Path(loaded.origins.sources[-2][0]).stem


def _words(items: Sequence[str], joiner: str) -> Said | str:
    """``a, b or c`` (``joiner`` "or" or "and"), the joining word in the reader's language."""
    if len(items) == 1:
        return items[0]
    head, last = ", ".join(items[:-1]), items[-1]
    return Said("%(head)s or %(last)s", head=head, last=last) if joiner == "or" else \
        Said("%(head)s and %(last)s", head=head, last=last)


def _either(items: list[Said]) -> Said:
    """``a declarer or a helper``: the statuses a penalty rule names, one or two."""
    return items[0] if len(items) == 1 else Said("%(first)s or %(second)s", first=items[0], second=items[1])


def _calls(ids: Sequence[str]) -> Said | str:
    return _words([_show(c) for c in ids], "and")
