"""Facts that follow from a variant's fields: the one definition of each, as pure functions of the schema.

``khrap.engine.derived`` concludes them once per rules (``Rules.derived``) for the kernel, the rule sheets
and the bots.  They are defined here, beside the schema, because the checks of this package need some of
them too and the schema may not import the engine; nothing else should compute them again.
"""

from __future__ import annotations

from dataclasses import dataclass

from khrap import words as w
from khrap.variant.schema import Call, CallsStage, Variant


def moves_cards(call: Call) -> bool:
    """Whether making ``call`` moves cards at once or owes them: it throws the hand, takes the turned card,
    draws, or owes discards (``then_discard``: a call that owes only a discard still has a card to move)."""
    eff = call.effects
    return bool(eff.discard_hand or eff.draw or eff.take_turned != "no" or eff.then_discard)


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


def deal_order(dealer: int, n: int) -> tuple[int, ...]:
    """The seats in the order they are dealt to: the dealer's left first, the dealer last (RULES.md §0)."""
    return tuple((dealer + 1 + i) % n for i in range(n))


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


def any_locked(v: Variant) -> bool:
    """Whether any status locks its stake (else no stake is ever locked, and settlement returns none)."""
    return any(rule.locked for rule in v.statuses.values())


def penalties_read_held(v: Variant) -> bool:
    """Whether a penalty depends on the cards held when play began (else no hand need be kept at play)."""
    return any(p.held for p in v.settlement.penalties)


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
