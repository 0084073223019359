"""Semantic checks of a variant beyond its types: references, card counts, hand sizes.

Each check yields ``(loc, message)``; ``loc`` is the path of the offending
value in the variant data, so the loader can point at FILE:LINE:COL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from khrap.cards import RANKS
from khrap.variant import derived
from khrap.variant.derived import deck_for, makes_declarer, offering, open_while, opens
from khrap.variant.errors import meant
from khrap.variant.said import Counted, Said
from khrap.variant.schema import Call, CallsStage, CardPattern, ExchangeStage, NameTrumpStage, PlayStage, Variant
from khrap.words import KERNEL_WORDS

Issue = tuple[tuple, str | Said]
"""Where, and the message: ``Said``, put in the reader's language when shown (``--lang``); ``str()`` of it is
the English.  Every message here is a ``Said`` with named values, so that ``python -m khrap.rulebook.messages``
finds it for the checker's catalogs (checker.po); parts chosen by the case are ``Said`` themselves."""


class Fields(tuple):
    """The paths of several fields that make one problem together, the one to blame first.

    An issue may give its location as ``Fields(...)``: the loader then points at the field that was
    written latest in an ``extends`` chain (the one a house rule changed), else at the first.
    """

    def __new__(cls, *locs: tuple) -> Fields:
        return super().__new__(cls, locs)


def semantic_issues(v: Variant) -> list[Issue]:
    """Every problem found, most basic first."""
    checks = (_texts, _players, _deck, _call_ids, _references, _skips, _cards, _turned_card, _hand_sizes,
              _obligations, _overrides, _out_discards, _out_speakers, _exchange_turns, _stages, _bounded)
    return [issue for check in checks for issue in check(v)]


def _texts(v: Variant) -> Iterator[Issue]:
    """Display names need English, the language every other one falls back to."""
    if "en" not in v.name:
        yield ("name",), Said("name needs an English text (en), the fallback for every language")
    for cid, call in v.calls.items():
        if "en" not in call.name:
            yield ("calls", cid, "name"), Said("call '%(call)s' needs an English name (en)", call=cid)


def _enabled(v: Variant) -> list[tuple[str, Call]]:
    """Calls switched on: a switched-off call need not fit the deck or the hand size."""
    return list(derived.enabled(v).items())


def _players(v: Variant) -> Iterator[Issue]:
    if v.players.min > v.players.max:
        yield (Fields(("players", "min"), ("players", "max")),
               Said("players.min (%(min)s) is more than players.max (%(max)s)", min=v.players.min, max=v.players.max))


def _deck(v: Variant) -> Iterator[Issue]:
    if bool(v.deck.ranks) == bool(v.deck.by_players):
        yield ("deck",), Said("give the deck either as `ranks` or as `by_players`, not both or neither")
        return
    if v.deck.by_players:
        bounds = [e.up_to for e in v.deck.by_players]
        if bounds != sorted(bounds):
            yield ("deck", "by_players"), Said("list the decks by_players in ascending order of up_to")
    turned = (v.all_pass.rounds if v.all_pass.turn_up else 1) if v.trump.source == "turned" else 0
    small: set[tuple[str, ...]] = set()
    for players in range(v.players.min, v.players.max + 1):
        ranks = deck_for(v, players)
        if ranks is None:
            yield Fields(("deck", "by_players"), ("players", "max")), Said("no deck is given for %(players)s players",
                                                                           players=players)
            continue
        need = players * v.hand_size + turned
        if len(ranks) * 4 < need and tuple(ranks) not in small:  # each deck once: at its fewest players
            yield (Fields(("deck",), ("players", "max"), ("hand_size",)),
                   Said("a deck of %(cards)s cards is too small for %(players)s players: %(players)s hands of "
                        "%(hand)s and %(turned)s turned cards need %(need)s", cards=len(ranks) * 4, players=players,
                        hand=v.hand_size, turned=turned, need=need))
            if v.deck.ranks:
                return  # one deck for every count: more players would only repeat this
            small.add(tuple(ranks))


def _call_ids(v: Variant) -> Iterator[Issue]:
    for cid in v.calls:
        if cid in KERNEL_WORDS:
            yield ("calls", cid), Said("'%(call)s' is an action word of the kernel and cannot be a call id", call=cid)
        if not cid or any(ch.isspace() for ch in cid):
            yield ("calls", cid), Said("call id %(call)s must be one word", call=repr(cid))
    for wid in v.instant_wins:  # announced in the log as 'seat N: ID', read back by the deal records
        if not wid or any(ch.isspace() for ch in wid):
            yield ("instant_wins", wid), Said("instant win id %(win)s must be one word (e.g. '%(word)s')",
                                              win=repr(wid), word="-".join(wid.split()))


def _ref(v: Variant, loc: tuple, cid: str) -> Iterator[Issue]:
    if cid not in v.calls:
        quoted = f"'{cid}'"
        yield loc, Said("unknown call %(call)s", call=quoted) + meant(cid, v.calls)


def _references(v: Variant) -> Iterator[Issue]:
    stage_ids = [s.id for s in v.stages]
    uses = Counter(stage_ids)  # counted once: checking stays linear in the number of stages
    for i, stage in enumerate(v.stages):
        if uses[stage.id] > 1:
            yield ("stages", i, "id"), Said("stage id '%(stage)s' is used twice", stage=stage.id)
        if isinstance(stage, CallsStage):
            for j, cid in enumerate(stage.calls):
                yield from _ref(v, ("stages", i, "calls", j), cid)
        if isinstance(stage, ExchangeStage):
            yield from _exchange_refs(v, i, stage)
    for cid, call in v.calls.items():
        for j, sid in enumerate(call.effects.skip_stages):
            if sid not in stage_ids:
                fix = meant(sid, stage_ids) or Said(
                    ": add the stage to `stages`, or take '%(stage)s' out of the call's `skip_stages`", stage=sid)
                yield (Fields(("calls", cid, "effects", "skip_stages", j), ("stages",)),
                       Said("call '%(call)s' skips stage '%(stage)s' (`skip_stages`), but no stage has that id",
                            call=cid, stage=sid) + fix)
    for j, cid in enumerate(v.play.first_lead.calls):
        yield from _ref(v, ("play", "first_lead", "calls", j), cid)
    for i, penalty in enumerate(v.settlement.penalties):
        for j, cid in enumerate(penalty.calls):
            yield from _ref(v, ("settlement", "penalties", i, "calls", j), cid)
    for status in ("declarer", "helper"):
        if status not in v.statuses:
            yield ("statuses",), Said("statuses must give the '%(status)s' status its tricks and stake", status=status)


def _skips(v: Variant) -> Iterator[Issue]:
    """A call skips only stages the deal has still to come to, and never the play.

    A stage is skipped when the deal comes to it: skipping the stage a call is said in stops that stage at
    once, without its ending (an all-pass round while nobody has declared, out players' hands thrown), and
    the deal could go on with no declarer; skipping an earlier stage does nothing.
    """
    index = {stage.id: i for i, stage in enumerate(v.stages)}
    for cid, call in _enabled(v):
        offered = offering(v, cid)
        for j, sid in enumerate(call.effects.skip_stages):
            target = index.get(sid)
            if target is None:
                continue  # an unknown stage, reported by _references
            where = ("calls", cid, "effects", "skip_stages", j)
            if isinstance(v.stages[target], PlayStage):
                yield (where, Said("call '%(call)s' skips the play stage '%(stage)s' (`skip_stages`), but a deal ends "
                                   "only when its tricks are played (or by an instant win): remove '%(stage)s' from "
                                   "`skip_stages`", call=cid, stage=sid))
                continue
            if isinstance(v.stages[target], NameTrumpStage):
                yield (where, Said("call '%(call)s' skips stage '%(stage)s' (`skip_stages`), where the declarer names "
                                   "trump (`kind: name_trump`), but this variant has no other trump (`trump.source: "
                                   "named`), so the deal would be played with no trump at all: remove '%(stage)s' "
                                   "from `skip_stages`", call=cid, stage=sid))
                continue
            late = [(i, k) for i, k in offered if i >= target]
            if not late:
                continue
            i, k = late[-1]
            said = v.stages[i].id
            if i == target:
                why = Said("a stage is skipped when the deal comes to it, so this one would stop at once without "
                           "its ending (no all-pass round while nobody has declared, no out players' hands thrown) "
                           "and the deal could go on with no declarer")
                fix = Said("skip only stages after '%(stage)s', or write `ends_stage: true` to end the stage it is "
                           "said in", stage=said)
            else:
                why = Said("that stage has run when the call is said, so the skip does nothing")
                fix = Said("skip only stages after '%(stage)s'", stage=said)
            yield (Fields(where, ("stages", i, "calls", k)),
                   Said("call '%(call)s' skips stage '%(stage)s' (`skip_stages`), which does not come after stage "
                        "'%(said)s' where the call is said: %(why)s: %(fix)s", call=cid, stage=sid, said=said,
                        why=why, fix=fix))


def _exchange_refs(v: Variant, i: int, stage: ExchangeStage) -> Iterator[Issue]:
    for key, order in [(None, stage.order), *stage.order_by_call.items()]:
        if key is not None:
            yield from _ref(v, ("stages", i, "order_by_call", key), key)
        for g, group in enumerate(order):
            where = ("stages", i, "order", g) if key is None else ("stages", i, "order_by_call", key, g)
            for j, cid in enumerate(group.calls):
                yield from _ref(v, (*where, "calls", j), cid)


def _cards(v: Variant) -> Iterator[Issue]:
    """Every rank a rule names exists in every deck the variant uses."""
    decks = [deck_for(v, n) or [] for n in range(v.players.min, v.players.max + 1)]
    if not decks:
        return  # no player count at all: reported by _players
    common = set(RANKS).intersection(*map(set, decks))

    def check(loc: tuple, rank: str, what: Said) -> Iterator[Issue]:
        if rank not in common:  # blamed on the deck when a house rule changed it
            yield Fields(loc, ("deck",)), Said("%(what)s names rank %(rank)s, which is not in every deck of this "
                                               "variant", what=what, rank=rank)

    for cid, call in _enabled(v):
        named = Said("call '%(call)s'", call=cid)
        for key, patterns in (("requires", call.requires.holds), ("effects", call.effects.keep)):
            field = "holds" if key == "requires" else "keep"
            for j, p in enumerate(patterns):
                yield from check(("calls", cid, key, field, j), p.rank, named)
                yield from _trump_pattern(v, ("calls", cid, key, field, j), p, key)
        if call.requires.turned_rank:
            yield from check(("calls", cid, "requires", "turned_rank"), call.requires.turned_rank, named)
        if v.trump.source != "turned" and (call.requires.turned_rank or call.effects.take_turned != "no"):
            yield ("calls", cid), Said("call '%(call)s' uses the turned card, but this variant turns no trump",
                                       call=cid)
    for wid, win in v.instant_wins.items():
        yield from check(("instant_wins", wid, "rank"), win.rank, Said("instant win '%(win)s'", win=wid))
    if v.joker:
        yield from check(("joker", "card"), v.joker.card[0], Said("the joker"))


def _trump_pattern(v: Variant, loc: tuple, pattern: CardPattern, key: str) -> Iterator[Issue]:
    if v.trump.source == "named" and pattern.suit == "trump" and key == "requires":
        yield loc, Said("this card is named by trump, but trump is only named after bidding")


_DEFERRED_TAKE = {
    "swap": Said("the hand position named with the call is not kept until then"),
    "optional": Said("the choice made with the call (`CALL trump`) is not kept until then"),
    "yes": Said("another call may take the card first"),
}


def _turned_card(v: Variant) -> Iterator[Issue]:
    """The turned card is taken with the call itself, and a swap names a card of the hand as dealt."""
    for cid, call in _enabled(v):
        eff = call.effects
        where = ("calls", cid, "effects")
        if eff.when == "exchange" and eff.take_turned != "no":
            yield (Fields((*where, "when"), (*where, "take_turned")),
                   Said("call '%(call)s' takes the turned card (`take_turned: %(take)s`) only at the exchange "
                        "(`when: exchange`), but %(why)s: write `when: now`, or `take_turned: no`", call=cid,
                        take=eff.take_turned, why=_DEFERRED_TAKE[eff.take_turned]))
        if eff.take_turned == "swap" and eff.discard_hand:
            yield (Fields((*where, "take_turned"), (*where, "discard_hand")),
                   Said("call '%(call)s' swaps the turned card for a named hand position (`take_turned: swap`) after "
                        "throwing the hand (`discard_hand: true`), so the position names a thrown card: write "
                        "`take_turned: yes` (the card joins the new hand), or `discard_hand: false`", call=cid))


def surely_kept(call: Call) -> list[CardPattern]:
    """The cards a call keeps (``keep``) that its caller surely holds: those it requires (``requires.holds``)."""
    return [p for p in call.effects.keep if p in call.requires.holds]


def hand_after(v: Variant, call: Call, sure: bool = False) -> int | None:
    """Cards in the caller's hand after the call's effects (None: the effects do not apply, his cards are not
    played); with ``sure``, the fewest: a kept card he is not required to hold may not be there."""
    eff = call.effects
    if eff.status == "out" and not eff.draw:
        return None
    taken = 1 if eff.take_turned == "yes" else 0
    start = len(surely_kept(call) if sure else eff.keep) if eff.discard_hand else v.hand_size
    return start + taken + eff.draw - eff.then_discard


def _cards_word(count: int) -> Said:
    if count <= 0:
        return Said("no card")
    return Counted("%(count)s card", "%(count)s cards", count, count=count)


def _hand_sizes(v: Variant) -> Iterator[Issue]:
    """Each call leaves a full hand to a player whose cards are played: a caller in play, or a declarer."""
    for cid, call in _enabled(v):
        after = hand_after(v, call)
        fewest = hand_after(v, call, sure=True)
        if after is not None and after != v.hand_size:
            yield (Fields(("calls", cid, "effects"), ("hand_size",)),
                   Said("call '%(call)s' leaves %(after)s cards in hand, not the hand size %(hand)s: keep + take + "
                        "draw - then_discard must make a hand", call=cid, after=after, hand=v.hand_size))
        elif fewest is not None and fewest != after:
            where = ("calls", cid)
            yield (Fields((*where, "effects", "keep"), (*where, "requires", "holds")),
                   Said("call '%(call)s' throws the hand but for cards it keeps (`keep`) without requiring them "
                        "(`requires.holds`), so a caller who lacks them is left with %(cards)s, not the hand size "
                        "%(hand)s, and play could find him with no card to play: list every kept card in "
                        "`requires.holds` too", call=cid, cards=_cards_word(fewest), hand=v.hand_size))
        ex = call.exchange
        if ex.draw_extra != ex.then_discard:
            yield (("calls", cid, "exchange"),
                   Said("call '%(call)s' draws %(extra)s extra at the exchange but discards %(discards)s after",
                        call=cid, extra=ex.draw_extra, discards=ex.then_discard))
        if ex.min_discard > v.hand_size:
            yield (Fields(("calls", cid, "exchange", "min_discard"), ("hand_size",)),
                   Said("call '%(call)s': min_discard is more than the hand size", call=cid))
        if ex.max_discard is not None and ex.min_discard > ex.max_discard:
            yield (("calls", cid, "exchange", "min_discard"),
                   Said("call '%(call)s': min_discard is more than max_discard", call=cid))
    yield from _declarer_goes_out(v)


_STATUS_WORDS = {"declarer": Said("a declarer"), "helper": Said("each helper")}


def _obligations(v: Variant) -> Iterator[Issue]:
    """No status may promise more tricks than a deal has: every player of it would fail, whatever he held."""
    for status, rule in v.statuses.items():
        if rule.tricks <= v.hand_size:
            continue
        who = _STATUS_WORDS.get(status, Said("a %(status)s", status=status))
        yield (Fields(("statuses", status, "tricks"), ("hand_size",)),
               Said("%(who)s must take at least %(tricks)s tricks (`statuses.%(status)s.tricks: %(tricks)s`), but a "
                    "deal has only %(hand)s (`hand_size: %(hand)s`), so every %(status)s would fail, whatever he "
                    "held: write at most %(hand)s, or a larger `hand_size`", who=who, tricks=rule.tricks,
                    status=status, hand=v.hand_size))


def _declarer_goes_out(v: Variant) -> Iterator[Issue]:
    """A call that the declarer may say in a later stage and that does not make a declarer leaves him the
    deal's declarer, who leads to the first trick, with another status: out of play, or a helper."""
    for i, stage in enumerate(v.stages):
        if i == 0 or not isinstance(stage, CallsStage) or stage.speakers != "all":
            continue  # a later stage asks everyone, the declarer too; the first begins with no declarer
        for cid in dict.fromkeys(derived.stage_calls(v, stage)):  # each enabled call once, where first listed
            call = v.calls[cid]
            if call.effects.status == "declarer" or call.requires.declarer == "absent":
                continue
            eff = call.effects
            where = ("calls", cid, "effects")
            if eff.status != "out":  # in play, but no longer with the declarer's status
                yield (Fields(("stages", i, "speakers"), (*where, "status")),
                       Said("call '%(call)s' makes its caller a %(status)s (`status: %(status)s`), and stage "
                            "'%(stage)s' asks the declarer too (`speakers: all`): a declarer who says it stays the "
                            "deal's declarer, who leads to the first trick and whose call orders the exchange, yet his "
                            "status is %(status)s, so nobody plays for the declarer's tricks: write `speakers: "
                            "others` or `speakers: out` in stage '%(stage)s'", call=cid, status=eff.status,
                            stage=stage.id))
                continue
            later = next((j for j, other in enumerate(v.stages) if j > i and isinstance(other, CallsStage) and (
                other.out_hands == "at_end"
                or other.speakers != "others" and derived.may_empty_out_hands(v, other))), None)
            why: Said
            cause: tuple
            fix: Said | str
            if eff.discard_hand and not eff.draw:
                why = Said("the call throws his hand (`discard_hand: true`)")
                cause, fix = (*where, "discard_hand"), "`discard_hand: false`"
            elif stage.out_hands != "keep":
                why = Said("stage '%(stage)s' throws the hands of those who go out (`out_hands: %(hands)s`)",
                           stage=stage.id, hands=stage.out_hands)
                cause, fix = ("stages", i, "out_hands"), Said("`out_hands: keep` in stage '%(stage)s'", stage=stage.id)
            elif later is not None:
                why = Said("a later stage, '%(stage)s', may throw the hands of those who are out",
                           stage=v.stages[later].id)
                cause, fix = (("stages", later, "out_hands"),
                              Said("`out_hands: keep` in stage '%(stage)s'", stage=v.stages[later].id))
            else:  # he keeps his cards, but he is out of the players in play whom he would lead
                yield (Fields(("stages", i, "speakers"), (*where, "status")),
                       Said("call '%(call)s' puts its caller out, and stage '%(stage)s' asks the declarer too "
                            "(`speakers: all`): a declarer who says it stays the deal's declarer and leads to the "
                            "first trick, yet he is no longer among the players in play, so the tricks cannot be "
                            "played: write `speakers: others` or `speakers: out` in stage '%(stage)s'", call=cid,
                            stage=stage.id))
                continue
            yield (Fields(("stages", i, "speakers"), cause, (*where, "status")),
                   Said("call '%(call)s' puts its caller out, and stage '%(stage)s' asks the declarer too (`speakers: "
                        "all`): a declarer who says it stays the deal's declarer and leads to the first trick, but "
                        "%(why)s, so he could lead with no card and have no legal action: write `speakers: others` "
                        "in stage '%(stage)s', or %(fix)s", call=cid, stage=stage.id, why=why, fix=fix))


def _overrides(v: Variant) -> Iterator[Issue]:
    for cid, call in _enabled(v):
        if call.effects.status == "declarer" and call.requires.declarer != "absent" and not call.effects.override:
            yield (("calls", cid, "effects", "override"),
                   Said("call '%(call)s' makes a declarer when one may exist: set `override: true` or `declarer: "
                        "absent`", call=cid))


def _out_discards(v: Variant) -> Iterator[Issue]:
    """A call that puts its caller out and owes discards must leave him the cards to discard."""
    thrower: CallsStage | None = None  # an earlier calls stage after which out players may hold no cards
    for i, stage in enumerate(v.stages):
        if not isinstance(stage, CallsStage):
            continue
        for cid in dict.fromkeys(derived.stage_calls(v, stage)):
            call = v.calls[cid]
            eff = call.effects
            if eff.status != "out" or not eff.then_discard or eff.when != "now":
                continue
            where = ("calls", cid, "effects")
            owes = Counted("call '%(call)s' puts its caller out owing %(n)s discard (`then_discard: %(n)s`), but ",
                           "call '%(call)s' puts its caller out owing %(n)s discards (`then_discard: %(n)s`), but ",
                           eff.then_discard, call=cid, n=eff.then_discard)
            fix = Said("write `then_discard: 0` (an out player's cards are not played)")
            if stage.out_hands == "on_call":
                yield (Fields((*where, "then_discard"), ("stages", i, "out_hands"), (*where, "status")),
                       owes + Said("stage '%(stage)s' throws his hand as he goes out (`out_hands: on_call`), so he "
                                   "would have no card to discard and no legal action: %(fix)s, or `out_hands: "
                                   "at_end` in stage '%(stage)s'", stage=stage.id, fix=fix))
                continue
            empty = thrower is not None and stage.speakers == "out"
            held = 0 if empty else len(surely_kept(call)) if eff.discard_hand else v.hand_size
            cards = held + (1 if eff.take_turned == "yes" else 0) + eff.draw
            if eff.then_discard <= cards:
                continue
            left = Counted("only %(n)s card", "only %(n)s cards", cards, n=cards) if cards else Said("no card")
            if empty and thrower is not None:
                why = Said("stage '%(stage)s' asks players who are out (`speakers: out`), whose hands stage "
                           "'%(thrower)s' may have thrown, so he could have %(left)s", stage=stage.id,
                           thrower=thrower.id, left=left)
            elif eff.discard_hand:
                why = Said("it throws his hand (`discard_hand: true`) and leaves him %(left)s", left=left)
            else:
                why = Said("it leaves him %(left)s", left=left)
            yield (Fields((*where, "then_discard"), (*where, "status")),
                   owes + Said("%(why)s to discard and no legal action: %(fix)s", why=why, fix=fix))
        if thrower is None and derived.may_empty_out_hands(v, stage):
            thrower = stage


def _always_open(v: Variant, cid: str, call: Call, declarer_exists: bool) -> bool:
    """Whether ``call`` is open to every speaker at every stack size the variant allows, while a declarer
    exists or while none does: it needs no cards, no turn of the table, and on a table that refuses what a
    stack cannot pay (`allow_debt: false`, `short_payment: refused`) it costs nothing."""
    req, eff = call.requires, call.effects
    plain = not (req.holds or req.dealer or req.blind or req.turned_rank or req.min_trumps or eff.draw)
    if not plain or req.max_trumps is not None or eff.take_turned in ("yes", "swap"):
        return False
    if not open_while(call, declarer_exists):
        return False
    if declarer_exists and eff.status == "declarer" and not eff.override:
        return False  # only the declarer himself may say it again
    return v.allow_debt or v.short_payment == "capped" or not _may_cost(v, cid, call)


def _may_cost(v: Variant, cid: str, call: Call) -> bool:
    """Whether ``call`` may charge a stack: its status's stake or a fine, or a status it gives others."""
    eff = call.effects
    if eff.forces_others or eff.override:
        return True
    rule = v.statuses.get(eff.status)  # type: ignore[arg-type]  # "out" has no rule: it costs nothing
    if rule is None:
        return False
    if rule.stake.base or rule.stake.pots:
        return True
    for penalty in v.settlement.penalties:
        if penalty.status in (None, eff.status) and (not penalty.calls or cid in penalty.calls):
            pay = rule.stake if penalty.pay == "stake" else penalty.pay
            if pay.base or pay.pots:
                return True
    return False


def _open_declaring(v: Variant, cid: str) -> bool:
    """A call that makes a declarer and is open whenever nobody has declared yet."""
    call = derived.enabled(v).get(cid)
    if call is None or not opens(call):
        return False
    req = call.requires
    cards = req.holds or req.turned_rank or req.min_trumps or req.dealer or req.blind
    return not cards and req.max_trumps is None and not call.effects.draw


def _stages(v: Variant) -> Iterator[Issue]:
    if not v.stages or not isinstance(v.stages[0], CallsStage):
        yield ("stages",), Said("the first stage must be a calls stage (someone has to become declarer)")
    plays = [i for i, s in enumerate(v.stages) if isinstance(s, PlayStage)]
    if plays != [len(v.stages) - 1]:
        yield ("stages",), Said("the last stage, and only that one, must be the play stage")
    naming = [i for i, s in enumerate(v.stages) if isinstance(s, NameTrumpStage)]
    if v.trump.source == "named" and not naming:
        yield (Fields(("trump", "source"), ("stages",)),
               Said("trump is named by the declarer (`trump.source: named`), but no stage lets him name it (`kind: "
                    "name_trump`), so the deal would be played with no trump at all: add `{id: name-trump, kind: "
                    "name_trump}` to the stages before the play stage, or write `trump.source: turned`"))
    elif v.trump.source == "turned":
        for i in naming:
            yield (Fields(("trump", "source"), ("stages", i, "kind")),
                   Said("stage '%(stage)s' lets the declarer name trump (`kind: name_trump`), but trump is the "
                        "turned card (`trump.source: turned`), so naming a suit would change trump after the calls "
                        "were made under the turned one: remove stage '%(stage)s', or write `trump.source: named`",
                        stage=v.stages[i].id))
    first = v.stages[0] if v.stages and isinstance(v.stages[0], CallsStage) else None
    if first is not None and not any(_open_declaring(v, cid) for cid in first.calls):
        yield (("stages", 0, "calls"),
               Said("stage '%(stage)s' offers no call that makes a declarer without needing particular cards, "
                    "so deal after deal could pass out forever", stage=first.id))
    if first is not None and first.speakers == "out":  # `others` is fine: with no declarer yet it asks everyone
        yield (("stages", 0, "speakers"),
               Said("stage '%(stage)s' asks only players who are out (`speakers: out`), but nobody is out when a "
                    "deal begins, so nobody is asked and every deal passes out and is dealt again, forever: write "
                    "`speakers: all` (or `others`) in the first calls stage", stage=first.id))
    for i, stage in enumerate(v.stages):
        if not isinstance(stage, CallsStage):
            continue
        enabled = [(c, v.calls[c]) for c in derived.stage_calls(v, stage)]
        states = derived.declarer_states(v, i)  # the first stage asks while nobody has declared
        stuck = [exists for exists in states if not any(_always_open(v, cid, c, exists) for cid, c in enabled)]
        if stuck:
            when = "" if len(stuck) == len(states) else (
                Said(" once a declarer exists") if stuck[0] else Said(" while nobody has declared"))
            costly = "" if v.allow_debt or v.short_payment == "capped" else Said(
                "; without debts (`allow_debt: false`) a call that may cost chips is not open to an empty stack")
            yield (Fields(("stages", i, "calls"), ("allow_debt",)),
                   Said("stage '%(stage)s' has no call that is always open (such as pass)%(when)s: a player could be "
                        "stuck%(costly)s", stage=stage.id, when=when, costly=costly))
        if i == 0 and stage.out_hands == "on_call" and v.all_pass.rounds > 1:
            yield (("stages", 0, "out_hands"),
                   Said("the first calls stage cannot throw passers' hands at once: an all-pass round gives them "
                        "back"))


def _out_speakers(v: Variant) -> Iterator[Issue]:
    """A stage that asks those who are out, after their hands may have been thrown, offers them only calls that
    leave them out, that need cards in hand, or that throw the hand and draw a whole new one."""
    thrower: CallsStage | None = None  # an earlier calls stage after which out players may hold no cards
    for i, stage in enumerate(v.stages):
        if not isinstance(stage, CallsStage):
            continue
        offered = derived.stage_calls(v, stage) if thrower is not None and stage.speakers == "out" else ()
        for cid in dict.fromkeys(offered):  # each enabled call once, where first listed
            assert thrower is not None  # (nothing is offered here before a thrower: ``offered`` is empty)
            call = v.calls[cid]
            if _safe_for_the_handless(v, call):
                continue
            k = stage.calls.index(cid)
            eff = call.effects
            cards = _cards_from_nothing(call)
            model = next((o for o in offered if o != cid and v.calls[o].effects.status != "out"
                          and _safe_for_the_handless(v, v.calls[o])), None)
            like = Said(" (as '%(model)s' does)", model=model) if model else ""
            yield (Fields(("stages", i, "calls", k), ("calls", cid, "effects")),
                   Said("stage '%(stage)s' offers call '%(call)s' to players who are out (`speakers: out`), whose "
                        "hands stage '%(thrower)s' may have thrown, but the call puts its caller in play (`status: "
                        "%(status)s`) without throwing the hand and drawing a whole new one, so he could play with "
                        "%(cards)s and find no legal action: give '%(call)s' `discard_hand: true` and draws that make "
                        "a hand of %(hand)s%(like)s, or do not offer it in stage '%(stage)s'", stage=stage.id,
                        call=cid, thrower=thrower.id, status=eff.status, cards=_cards_word(cards), hand=v.hand_size,
                        like=like))
        if thrower is None and derived.may_empty_out_hands(v, stage):
            thrower = stage


def _cards_from_nothing(call: Call) -> int:
    """The cards a call leaves in an empty hand: the turned card it takes, its draws, less its discards."""
    eff = call.effects
    return (1 if eff.take_turned == "yes" else 0) + eff.draw - eff.then_discard


def _safe_for_the_handless(v: Variant, call: Call) -> bool:
    """Whether a player whose hand was thrown may make ``call``: it leaves him out, needs cards in hand
    (so it is not open to him), or throws the hand and draws a whole new one."""
    eff, req = call.effects, call.requires
    if eff.status == "out" or req.holds or req.min_trumps or eff.take_turned == "swap":
        return True
    return eff.discard_hand and _cards_from_nothing(call) == v.hand_size


def _exchange_orders(v: Variant, stage: ExchangeStage, cid: str, status: str) -> list[tuple[tuple, list]]:
    """(location, groups) of each order of exchange ``stage`` that may apply when call ``cid`` was said."""
    if status == "declarer":  # his own call chooses the order
        key = cid if cid in stage.order_by_call else None
        return [(("order",) if key is None else ("order_by_call", key), derived.exchange_order(stage, cid))]
    declaring = [c for c, call in _enabled(v) if makes_declarer(call)]  # an overrider's call chooses it too
    default = [(("order",), stage.order)] if any(c not in stage.order_by_call for c in declaring) else []
    return default + [(("order_by_call", key), order) for key, order in stage.order_by_call.items()]


def _one_deal(v: Variant, first: tuple[str, int], then: tuple[str, int]) -> bool:
    """Whether call ``then[0]`` may be said in stage ``then[1]`` after call ``first[0]`` in stage ``first[1]``."""
    (a, i), (b, j) = first, then
    call_a, call_b = v.calls[a], v.calls[b]
    if i == j:
        blocked = call_a.effects.ends_stage or (call_b.requires.declarer == "absent"
                                                and call_a.effects.status == "declarer")
        return not blocked
    if j > i:
        return v.stages[j].id not in call_a.effects.skip_stages and open_while(call_b, True)
    return False


def _skippers(v: Variant, exchange_id: str, cid: str, i: int) -> Iterator[tuple[str, int]]:
    """(call, index in its skip_stages) of each call that skips ``exchange_id`` and may be said in the same deal
    as call ``cid`` said in stage ``i``, before the deal comes to that exchange stage."""
    index = {stage.id: n for n, stage in enumerate(v.stages)}
    for other, call in _enabled(v):
        if exchange_id not in call.effects.skip_stages:
            continue
        for k, _ in offering(v, other):
            if k >= index[exchange_id]:
                continue
            if (other, k) == (cid, i) or _one_deal(v, (cid, i), (other, k)) or _one_deal(v, (other, k), (cid, i)):
                yield other, call.effects.skip_stages.index(exchange_id)
                break


def _exchange_turns(v: Variant) -> Iterator[Issue]:
    """A call that waits for its caller's exchange turn (`when: exchange`) or reserves draws for it
    (`exchange.min_discard`) must be sure to get that turn: else its cards never move and the draws it
    reserved stay reserved for the rest of the deal.  A declarer who goes out when a later call overrides him
    (`overridden_becomes: out`) loses that turn too."""
    for cid, call in _enabled(v):
        eff = call.effects
        if eff.when == "exchange":
            waits = Said("waits for its caller's exchange turn (`when: exchange`)")
            field, fix = ("calls", cid, "effects", "when"), Said("write `when: now`")
            lost = Said("so its cards would never move and the draws it reserves would stay reserved for the rest "
                        "of the deal")
        elif call.exchange.takes_part and call.exchange.min_discard:
            waits = Said("reserves draws for its caller's exchange turn (`exchange: {min_discard: %(n)s}`)",
                         n=call.exchange.min_discard)
            field, fix = ("calls", cid, "exchange", "min_discard"), Said("write `min_discard: 0`")
            lost = Said("so that exchange would never happen and the draws it reserves would stay reserved for the "
                        "rest of the deal")
        else:
            continue
        told = {"call": cid, "waits": waits, "lost": lost, "fix": fix}
        if eff.status == "out":
            yield (Fields(field, ("calls", cid, "effects", "status")),
                   Said("call '%(call)s' %(waits)s, but it puts him out, and players who are out have no exchange "
                        "turn, %(lost)s: %(fix)s, or give the call a status in play (`status: helper`)", **told))
            continue
        overrider = _overrider(v, cid) if eff.status == "declarer" and v.overridden_becomes == "out" else None
        if overrider is not None:
            yield (Fields(("overridden_becomes",), field, ("calls", overrider, "effects", "override")),
                   Said("call '%(call)s' %(waits)s, but call '%(other)s', which may be said after it in the same "
                        "deal, overrides its caller (`override: true`) and puts him out (`overridden_becomes: out`), "
                        "and players who are out have no exchange turn, %(lost)s: write `overridden_becomes: "
                        "helper`, or %(fix)s", other=overrider, **told))
        for i, k in offering(v, cid):
            said = v.stages[i].id
            e = next((j for j in range(i + 1, len(v.stages)) if isinstance(v.stages[j], ExchangeStage)), None)
            if e is None:
                yield (Fields(("stages", i, "calls", k), field),
                       Said("call '%(call)s' %(waits)s, but stage '%(said)s' offers it after the last exchange "
                            "stage, %(lost)s: %(fix)s, or offer it in a stage before an exchange stage", said=said,
                            **told))
                continue
            stage = v.stages[e]
            assert isinstance(stage, ExchangeStage)  # (``e`` is an exchange stage's index)
            for other, j in _skippers(v, stage.id, cid, i):
                yield (Fields(("calls", other, "effects", "skip_stages", j), field), Said(
                    "call '%(call)s' %(waits)s, but it skips exchange stage '%(stage)s' (`skip_stages`), %(lost)s: "
                    "take '%(stage)s' out of the `skip_stages` of '%(other)s', or %(fix)s", stage=stage.id,
                    other=other, **told) if other == cid else Said(
                    "call '%(call)s' %(waits)s, but call '%(other)s', which may be said in the same deal, skips "
                    "exchange stage '%(stage)s' (`skip_stages`), %(lost)s: take '%(stage)s' out of the "
                    "`skip_stages` of '%(other)s', or %(fix)s", stage=stage.id, other=other, **told))
            for where, order in _exchange_orders(v, stage, cid, eff.status):
                if derived.has_turn(order, eff.status, cid):
                    continue
                name = ".".join(map(str, where))
                yield (Fields(("stages", e, *where), field),
                       Said("call '%(call)s' %(waits)s, but exchange stage '%(stage)s', the next after stage "
                            "'%(said)s' where it is said, gives its caller no turn (neither status '%(status)s' nor "
                            "call '%(call)s' is in its `%(order)s`), %(lost)s: add `{calls: [%(call)s]}` to that "
                            "order, or %(fix)s", stage=stage.id, said=said, status=eff.status, order=name, **told))


def _overrider(v: Variant, cid: str) -> str | None:
    """A call that may override the declarer made by call ``cid``: said after it in the same deal, it makes a
    declarer with `override: true` (another call first, else ``cid`` itself said by another player)."""
    found = [other for other, call in _enabled(v) if call.effects.status == "declarer" and call.effects.override
             and any(_one_deal(v, (cid, i), (other, j)) for i, _ in offering(v, cid) for j, _ in offering(v, other))]
    return next((other for other in found if other != cid), found[0] if found else None)


DEAL_DECISIONS = 20_000
"""The most decisions (actions) any deal of a valid variant may take; :func:`deal_bound` proves a variant
stays under it, so every deal of every variant that validates ends in bounded time."""


def deal_bound(v: Variant, players: int | None = None) -> int:
    """An upper bound on the actions of one deal of ``v`` at ``players`` seats (default: its most).

    Each calls stage asks each speaker at most once per bidding round (a call that draws may owe
    discards: counted with the exchange); each exchange stage gives each player one turn, his
    discards owed and his draws; naming trump is one action; the play is one card per player per trick.
    """
    n = v.players.max if players is None else players
    calls = sum(isinstance(s, CallsStage) for s in v.stages)
    exchanges = sum(isinstance(s, ExchangeStage) for s in v.stages)
    names = sum(isinstance(s, NameTrumpStage) for s in v.stages)
    per_turn = 2 + max((c.exchange.then_discard + c.effects.then_discard + c.effects.draw + c.exchange.draw_extra
                        for c in v.calls.values()), default=0)
    bidding = v.all_pass.rounds * calls * n * (1 + per_turn)
    return bidding + exchanges * n * per_turn + names + v.hand_size * n + 1


def _bounded(v: Variant) -> Iterator[Issue]:
    bound = deal_bound(v)
    if bound > DEAL_DECISIONS:
        yield (Fields(("all_pass", "rounds"), ("stages",)),
               Said("a deal could take up to %(bound)s actions (%(rounds)s bidding rounds of %(stages)s calls stages "
                    "at %(seats)s seats, with the exchanges and the play); the limit is %(limit)s: fewer rounds, "
                    "stages or players", bound=bound, rounds=v.all_pass.rounds,
                    stages=sum(isinstance(s, CallsStage) for s in v.stages), seats=v.players.max,
                    limit=DEAL_DECISIONS))
