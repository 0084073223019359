"""Derived facts of a variant, concluded once (the model: Fairy-Stockfish's ``Variant::conclude()``).

After a variant is read, every property that follows from its fields is computed here, once, and
everything reads it: the compiled program (``compiled/program.py``: the fast-path flags, which calls move
cards, which declare), the refusal tables, the rule sheets and their worked example, the bots.
``Rules.derived`` holds the one for a table; ``Derived(variant)`` makes one for a variant alone (a sheet).

Each fact is defined once, as a pure function of the schema, in ``variant/derived.py``: the checks in
``variant/`` need some of them and the schema may not import the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from khrap.variant import derived as facts
from khrap.variant.schema import CallsStage, Variant

clockwise_from = facts.clockwise_from
deal_order = facts.deal_order
dealt_hands = facts.dealt_hands


@dataclass(frozen=True, slots=True)
class CallFacts:
    """What follows from one enabled call's fields (see ``variant/derived.py`` for each)."""

    status: str  # the status it gives its caller
    moves_cards: bool  # throws, takes, draws or owes discards when made
    makes_declarer: bool  # its caller becomes the declarer (overriding calls included)
    opens: bool  # it may make the deal's first declarer (needs none already)
    blind: bool  # open only to a player who has not looked
    plain: bool  # only sets a status: no card moved, nobody forced or overridden, not blind


class Derived:
    """Every derived fact of ``variant``: computed once, read everywhere."""

    def __init__(self, variant: Variant) -> None:
        v = variant
        self.calls = {
            cid: CallFacts(call.effects.status, facts.moves_cards(call), facts.makes_declarer(call), facts.opens(call),
                           call.requires.blind, facts.plain(call))
            for cid, call in facts.enabled(v).items()
        }
        self.call_order = tuple(facts.call_order(v))
        # Calls that may make the first declarer, in the variant's order: what a call needing a declarer
        # waits for (its refusal names them), and what a session needs someone to afford.
        self.declaring = tuple(cid for cid, f in self.calls.items() if f.opens)
        # Calls that may make the deal's final declarer (overriders too): an exchange order may be chosen
        # by any of them.
        self.declarer_calls = tuple(cid for cid, f in self.calls.items() if f.makes_declarer)
        self.blind = tuple(cid for cid in self.call_order if self.calls[cid].blind)
        # How a player who has seen his hand joins a declarer whatever he holds (the bots value a join by these).
        self.joins = facts.joins(v)
        self.stage_calls = {s.id: facts.stage_calls(v, s) for s in v.stages if isinstance(s, CallsStage)}
        # What each calls stage lists while no declarer exists [0] and while one does [1] (``open_calls``).
        self.open_calls = {s.id: (facts.open_calls(v, s, False), facts.open_calls(v, s, True))
                           for s in v.stages if isinstance(s, CallsStage)}
        # A player who went out may come into the game again at a later stage (the bots: his cards may play
        # against the declarer until play begins).
        self.comeback = facts.may_come_back(v)
        # Decisions of the registry's kinds that the rules offer in stages of their own (the kernel adds them).
        self.offers = facts.offers(v)
        # Fast-path flags: branches inside the one kernel.
        self.plain_follow = facts.plain_follow(v)
        self.any_locked = facts.any_locked(v)
        self.penalties_read_held = facts.penalties_read_held(v)

    def moves_cards(self, cid: str) -> bool:
        return self.calls[cid].moves_cards

    def stage_blind(self, stage_id: str, declarer_exists: bool | None = None) -> tuple[str, ...]:
        """The blind calls a calls stage offers, in its order (``declarer_exists``: those it lists then)."""
        calls = self.stage_calls[stage_id] if declarer_exists is None else self.open_calls[stage_id][declarer_exists]
        return tuple(cid for cid in calls if self.calls[cid].blind)

    def plain_call(self, status: str) -> str | None:
        """The first plain call (in the stages' order) that gives ``status``, or None."""
        return next((cid for cid in self.call_order
                     if self.calls[cid].plain and self.calls[cid].status == status), None)


def hand_dealt(deck: list[int], dealer: int, n: int, size: int, seat: int) -> list[int]:
    """The hand ``seat`` was dealt from ``deck`` (see ``dealt_hands``)."""
    return dealt_hands(deck, dealer, n, size)[seat]
