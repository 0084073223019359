"""Facts that follow from a variant's fields: the one definition of each, as pure functions of the schema.

``khrap.engine.derived`` concludes them once per rules (``Rules.derived``) for the kernel, the rule sheets
and the bots.  They are defined here, beside the schema, because the checks of this package need some of
them too and the schema may not import the engine; nothing else should compute them again.
"""

from __future__ import annotations

from dataclasses import dataclass

from khrap import words as w
from khrap.variant.schema import Call, CallsStage, CardPattern, ExchangeGroup, ExchangeStage, Penalty, Stage, Variant


def moves_cards(call: Call) -> bool:
    """Whether making ``call`` moves cards at once or owes them: it throws the hand, takes the turned card,
    draws, or owes discards (``then_discard``: a call that owes only a discard still has a card to move)."""
    eff = call.effects
    return bool(eff.discard_hand or eff.draw or eff.take_turned != "no" or eff.then_discard)


def reserved_for_exchange(call: Call) -> int:
    """Cards the stock keeps for the caller's exchange turn: those he must exchange there (``min_discard``,
    when he takes part) and their extra draws."""
    ex = call.exchange
    return ex.min_discard + ex.draw_extra if ex.takes_part and ex.min_discard else 0


def draws_at_once(call: Call) -> bool:
    """Whether ``call`` draws as it is made (not at the exchange): the one kind of call that may say where its
    cards are drawn from (``CALL from N``, where the variant lets the stock be drawn from anywhere)."""
    return call.effects.when == "now" and call.effects.draw > 0


def draws_now(call: Call, takes: bool = False) -> int:
    """Cards ``call`` draws when its cards move (at once, or at the exchange when they wait): its ``draw``, less
    the one the turned card stands for when the caller takes it by an optional take (``takes``)."""
    eff = call.effects
    return eff.draw - (1 if takes and eff.take_turned == "optional" else 0)


def draws_of(call: Call, takes: bool = False) -> int:
    """Cards ``call`` takes from the stock, now or at its caller's exchange turn: what it needs the stock,
    less the cards promised to earlier calls, to hold (``takes``: made taking the turned card by an optional
    take, which stands for one draw).  The kernel's stock test (preconditions.py) and the sheet read it."""
    return max(draws_now(call, takes) + reserved_for_exchange(call), 0)


def held_after(call: Call) -> list[CardPattern]:
    """The cards ``call`` proves its caller holds once it is made: those it requires him to hold, less those it
    throws (a call that throws the hand keeps only its ``keep``)."""
    eff = call.effects
    return [p for p in call.requires.holds if not eff.discard_hand or p in eff.keep]


def makes_declarer(call: Call) -> bool:
    """Whether ``call`` makes its caller the declarer, whether or not someone has declared before
    (an overriding call included): such a call may be the deal's final declaring call."""
    return call.effects.status == w.DECLARER


def opens(call: Call) -> bool:
    """Whether ``call`` may make the deal's first declarer: it makes one and does not need one already."""
    return makes_declarer(call) and call.requires.declarer != "exists"


def plain(call: Call) -> bool:
    """Whether ``call`` only sets its caller's status: it moves no card, forces nobody, overrides nobody
    and is not blind (the call a worked example or a sample settlement names for a status)."""
    eff = call.effects
    return not (moves_cards(call) or eff.forces_others or eff.override or call.requires.blind)


def enabled(v: Variant) -> dict[str, Call]:
    """The calls switched on, in the variant's order."""
    return {cid: call for cid, call in v.calls.items() if call.enabled}


def stage_calls(v: Variant, stage: CallsStage) -> tuple[str, ...]:
    """The enabled calls ``stage`` offers, in its order (unknown or switched-off ids left out)."""
    return tuple(cid for cid in stage.calls if cid in v.calls and v.calls[cid].enabled)


def call_order(v: Variant) -> list[str]:
    """Enabled calls in the order the stages first offer them, then any offered nowhere."""
    order: list[str] = []
    for stage in v.stages:
        if isinstance(stage, CallsStage):
            order += [cid for cid in stage_calls(v, stage) if cid not in order]
    return order + [cid for cid in enabled(v) if cid not in order]


# ---------------------------------------------------------------- the stage model
# How a deal moves through the stages, as far as the variant's fields fix it: the one static model that
# the checks (variant/checks.py) and the rule sheet (rulebook/facts.py) read.  The kernel plays the same
# flow step by step (compiled/machine.py); tests/test_stage_model.py holds each fact against it.


def offering(v: Variant, cid: str) -> list[tuple[int, int]]:
    """(stage index, index in its calls) of every calls stage that offers call ``cid`` (first listing)."""
    return [(i, stage.calls.index(cid)) for i, stage in enumerate(v.stages)
            if isinstance(stage, CallsStage) and cid in stage.calls]


def open_while(call: Call, declarer_exists: bool) -> bool:
    """Whether ``call`` may be said while a declarer exists (True) or while none does (False), as its
    ``requires.declarer`` says (the kernel lists a stage's calls by the same test)."""
    return call.requires.declarer != ("absent" if declarer_exists else "exists")


def open_calls(v: Variant, stage: CallsStage, declarer_exists: bool) -> tuple[str, ...]:
    """The enabled calls ``stage`` offers that are open while a declarer exists (or while none does), in its
    order: what the kernel lists there in that state (compiled/program.py), before each call's other tests."""
    return tuple(cid for cid in stage_calls(v, stage) if open_while(v.calls[cid], declarer_exists))


def first_calls_stage(v: Variant) -> int | None:
    """The index of the first calls stage: the only one asked while nobody has declared."""
    return next((i for i, stage in enumerate(v.stages) if isinstance(stage, CallsStage)), None)


def declares_and_goes_on(v: Variant, stage: CallsStage) -> bool:
    """Whether a call ``stage`` offers makes a declarer without ending the stage: the speakers after him
    are asked while a declarer exists."""
    return any(makes_declarer(call) and not call.effects.ends_stage
               for cid, call in enabled(v).items() if cid in stage.calls)


def declarer_states(v: Variant, index: int) -> tuple[bool, ...]:
    """Whether a declarer may exist (True) or not (False) while calls stage ``index`` asks.  A deal goes past
    a calls stage only with a declarer (else all passed), so only the first calls stage asks while nobody has
    declared, and with a declarer too where one of its calls makes one and the stage goes on."""
    if index != first_calls_stage(v):
        return (True,)
    stage = v.stages[index]
    assert isinstance(stage, CallsStage)
    return (False, True) if declares_and_goes_on(v, stage) else (False,)


def sayable(v: Variant, index: int, cid: str) -> bool:
    """Whether enabled call ``cid`` can ever be said at stage ``index``: the stage offers it, and it is open
    in a state of the declarer that stage may be asked in."""
    stage = v.stages[index]
    if not isinstance(stage, CallsStage):
        return False
    return any(cid in open_calls(v, stage, exists) for exists in declarer_states(v, index))


def throws_out_hands(stage: Stage) -> bool:
    """Whether calls ``stage`` throws the hands of every player out (as he goes out, or at its end)."""
    return isinstance(stage, CallsStage) and stage.out_hands != "keep"


def throws_own_hand(call: Call) -> bool:
    """Whether ``call`` leaves its caller out with no cards: it puts him out, throws his hand, draws none."""
    eff = call.effects
    return eff.status == w.OUT and eff.discard_hand and not eff.draw


def may_empty_out_hands(v: Variant, stage: CallsStage) -> bool:
    """Whether players who are out after ``stage`` may hold no cards: it throws their hands, or one of its
    calls throws its caller's."""
    return throws_out_hands(stage) or any(throws_own_hand(call) for cid, call in enabled(v).items()
                                          if cid in stage.calls)


def keeps_out_hands(v: Variant, said: int, index: int) -> bool:
    """Whether the players out at stage ``said`` (or going out there) keep their cards until stage ``index``
    (later) asks: no calls stage from ``said`` on throws the out players' hands."""
    return not any(throws_out_hands(s) for s in v.stages[said:index])


def holds_cards_at(v: Variant, cid: str, said: int, index: int) -> bool:
    """Whether a player who went out with ``cid`` at stage ``said`` still holds cards when stage ``index``
    (later) asks: his call kept his hand and no calls stage from ``said`` on threw the out players'.  (The
    kernel asks those who hold cards, unless a stage asks the players who are out.)"""
    return not throws_own_hand(v.calls[cid]) and keeps_out_hands(v, said, index)


def comes_back_at(v: Variant, cid: str) -> list[int]:
    """The later stages (indexes) at which a player who went out with call ``cid`` may still come into the
    game: calls stages after the first that can say ``cid``, where a call that is not "out" can be said, that
    ask the players who are out, or those who hold cards while he holds his (``holds_cards_at``)."""
    said = [i for i in range(len(v.stages)) if sayable(v, i, cid)]
    if not said or v.calls[cid].effects.status != w.OUT:
        return []
    back = []
    for i in range(said[0] + 1, len(v.stages)):
        stage = v.stages[i]
        if not isinstance(stage, CallsStage):
            continue
        if not any(v.calls[c].effects.status != w.OUT for c in stage_calls(v, stage) if sayable(v, i, c)):
            continue
        if stage.speakers == "out" or holds_cards_at(v, cid, said[0], i):
            back.append(i)
    return back


def may_come_back(v: Variant) -> bool:
    """Whether a player who went out may come into the game again at a later stage (``comes_back_at``):
    until then his cards may still play against the declarer."""
    return any(comes_back_at(v, cid) for cid, call in enabled(v).items() if call.effects.status == w.OUT)


def joinable(v: Variant, stage: CallsStage) -> bool:
    """Whether calls ``stage`` lists a call that makes its caller a helper while a declarer exists: a player
    it asks may join the declarer there."""
    return any(v.calls[cid].effects.status == w.HELPER for cid in open_calls(v, stage, True))


def exchange_order(stage: ExchangeStage, declarer_call: str | None) -> list[ExchangeGroup]:
    """The order of exchange ``stage`` when the deal's declarer made ``declarer_call``: that call's own
    (``order_by_call``), else the stage's ``order`` (the kernel reads it through ``exchange_turns``)."""
    return stage.order_by_call.get(declarer_call or "", stage.order)


def has_turn(order: list[ExchangeGroup], status: str, cid: str | None) -> bool:
    """Whether ``order`` gives a player in play a turn: a group names his status or the call he made."""
    return any(status in group.statuses or (cid is not None and cid in group.calls) for group in order)


def exchange_turns(v: Variant, stage: ExchangeStage, declarer_call: str | None) -> tuple[frozenset, ...]:
    """Exchange ``stage``'s order when the declarer made ``declarer_call`` (``exchange_order``), each group as
    the (status, call made) pairs of the players in play it gives a turn (``has_turn``; call None: none made):
    the kernel's table, which it reads group by group (compiled/machine.py, ``_exchange_queue``)."""
    made: list[str | None] = [None, *enabled(v)]
    return tuple(frozenset((status, cid) for status in (w.DECLARER, w.HELPER) for cid in made
                           if has_turn([group], status, cid))
                 for group in exchange_order(stage, declarer_call))


def discard_cap(stage: ExchangeStage, call: Call | None) -> int | None:
    """The most cards a player who made ``call`` (None: none, as a forced helper) may throw at his turn of
    exchange ``stage``, before his hand's size and the stock's limit (RULES.md §0, short stock): his call's own
    ``max_discard``, else the stage's; None: no limit but those two.  The kernel reads it at every exchange
    turn, from a table made once per program (``CompiledStage.limits``)."""
    own = call.exchange.max_discard if call is not None else None
    return stage.max_discard if own is None else own


def exchange_limit(v: Variant, call: Call | None) -> int | None:
    """The most cards a player who made ``call`` (None: none, as a forced helper) may throw at his first exchange
    turn, before the stock's limit: ``discard_cap`` at the first exchange stage his call does not skip, never
    more than the hand.  None where he has no exchange turn: no such stage, or his call does not take part
    (``takes_part: false``).  (A later exchange stage may have a limit of its own: the kernel reads each
    stage's.)"""
    stage = next((s for s in v.stages if isinstance(s, ExchangeStage)
                  and (call is None or s.id not in call.effects.skip_stages)), None)
    if stage is None or (call is not None and not call.exchange.takes_part):
        return None
    most = discard_cap(stage, call)
    return v.hand_size if most is None else min(most, v.hand_size)


def joins(v: Variant) -> tuple[str, ...]:
    """The calls by which a player who has seen his hand may join a declarer whatever he holds, in the variant's
    order: a calls stage lists them while a declarer exists (``open_calls``, as ``joinable`` reads), they give
    the helper's status, require no card and are not blind (a blind call closes as he looks: RULES.md §0)."""
    listed = {cid for stage in v.stages if isinstance(stage, CallsStage) for cid in open_calls(v, stage, True)}
    return tuple(cid for cid, call in enabled(v).items() if cid in listed and call.effects.status == w.HELPER
                 and not call.requires.holds and not call.requires.blind)


def deck_for(v: Variant, players: int) -> list[str] | None:
    """The ranks of the deck ``players`` play with (each in all four suits): the first of ``by_players`` whose
    ``up_to`` they do not exceed, else ``ranks``; None where no deck is given for so many."""
    if v.deck.by_players:
        return next((e.ranks for e in v.deck.by_players if players <= e.up_to), None)
    return v.deck.ranks


def decks(v: Variant) -> list[list[str]]:
    """The decks a table of the variant may play with (``deck_for`` at each player count it allows), each once,
    fewest players first: a ``by_players`` entry no allowed count reaches is not one of them."""
    found: list[list[str]] = []
    for players in range(v.players.min, v.players.max + 1):
        ranks = deck_for(v, players)
        if ranks is not None and ranks not in found:
            found.append(ranks)
    return found


def offered(v: Variant) -> set[str]:
    """The calls some calls stage offers (``stage_calls``: switched-off and unknown ids left out)."""
    return {cid for stage in v.stages if isinstance(stage, CallsStage) for cid in stage_calls(v, stage)}


def stock_after_deal(v: Variant, players: int) -> int | None:
    """The cards the stock holds when ``players`` have been dealt their hands and the trump turned (where the
    variant turns one): the deck less the hands and that card; None where no deck is given for so many."""
    ranks = deck_for(v, players)
    if ranks is None:
        return None
    return len(ranks) * 4 - players * v.hand_size - (1 if v.trump.source == "turned" else 0)


def clockwise_from(start: int, n: int) -> tuple[int, ...]:
    """Every seat of ``n``, clockwise beginning with ``start`` (RULES.md §0: seats are numbered clockwise, and
    "clockwise from X" is ``clockwise_from(X + 1, n)``, beginning at his left)."""
    return tuple((start + i) % n for i in range(n))


def deal_order(dealer: int, n: int) -> tuple[int, ...]:
    """The seats in the order they are dealt to: the dealer's left first, the dealer last (RULES.md §0)."""
    return clockwise_from(dealer + 1, n)


def next_dealer(v: Variant, dealer: int, declarer: int | None, n: int) -> int:
    """Who deals after a deal of ``n`` seats dealt by ``dealer`` whose final declarer was ``declarer`` (None: it
    had none, as a deal redealt after all passed): that declarer where the variant says so (``next_dealer:
    declarer``), else the dealer's left (RULES.md §0: the dealer passes clockwise, redeals included).  The
    kernel reads it from a table made once per program (``Program.next_dealers``)."""
    if v.next_dealer == "declarer" and declarer is not None:
        return declarer
    return (dealer + 1) % n


def dealt_hands(deck: list[int], dealer: int, n: int, size: int) -> list[list[int]]:
    """Each seat's hand as dealt from the top of ``deck``, one card at a time in ``deal_order``: the seat
    dealt to first takes the first card, then every n-th."""
    first, dealt = dealer + 1, size * n
    return [deck[(seat - first) % n:dealt:n] for seat in range(n)]


def plain_follow(v: Variant) -> bool:
    """Follow suit, else trump, else anything, with no duty to beat and no joker: the kernel may play such
    a table's tricks in one loop (a fast path)."""
    play = v.play
    return (play.follow_suit and play.trump_if_void and not play.must_beat and not play.must_overtrump
            and v.joker is None)


def penalty_matches(penalty: Penalty, status: str, cid: str | None) -> bool:
    """Whether ``penalty`` may charge a failed player of ``status`` who made call ``cid`` (None: made none, as a
    forced helper), whatever his tricks and cards: its status and its calls, where it names them, are his.
    (The kernel tests the same on its compiled table, with the tricks and the cards held: payouts.py.)"""
    return penalty.status in (None, status) and (not penalty.calls or cid in penalty.calls)


def any_locked(v: Variant) -> bool:
    """Whether any status locks its stake (else no stake is ever locked, and settlement returns none)."""
    return any(rule.locked for rule in v.statuses.values())


def penalties_read_held(v: Variant) -> bool:
    """Whether a penalty depends on the cards held when play began (else no hand need be kept at play)."""
    return any(p.held for p in v.settlement.penalties)


def opening_pot(v: Variant, players: int) -> int:
    """The chips a deal's pot opens with at a table of ``players``: every player's ante."""
    return v.ante.amount * v.base_stake * players


def default_players(v: Variant) -> int:
    """The players a table seats where nobody says how many (a game, a simulation, the sheet's worked
    example): four where the variant allows it, else the nearest count it allows."""
    return min(max(4, v.players.min), v.players.max)


def seat_stack(v: Variant) -> int:
    """The chips a seat brings where nobody says how many (a simulation, the sheet's worked example): 100
    where stacks only count (debts allowed, no minimum); 100 base stakes where they decide who is dealt in
    or what a player can pay (``allow_debt: false``, ``min_stack``), so that nobody is short at the start."""
    if v.allow_debt and v.min_stack is None:
        return 100
    return 100 * v.base_stake


@dataclass(frozen=True, slots=True)
class Offer:
    """A decision a rule offers in a stage of its own, which the kernel adds to the variant's stages: its
    stage ``id``, the kind of decision (a kind of the engine's registry, by its word), the statuses of the
    seats asked (each once, clockwise from the declarer's left) and the kind of stage it comes before
    (the first one; none: last)."""

    id: str
    decision: str
    statuses: tuple[str, ...]
    before: str = "play"


def offers(v: Variant) -> tuple[Offer, ...]:
    """The offer stages the variant's fields switch on, in order (none in a built-in variant): ``double``,
    asked of the declarer's helpers before the first lead."""
    return (Offer("double", "double", (w.HELPER,)),) if v.double else ()
