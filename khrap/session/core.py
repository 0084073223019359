"""``Session``: a table playing one variant deal after deal, every action recorded.

A session wraps the kernel's ``GameState`` and remembers what it needs to be
written down and played again: how the table was set up (variant, players,
dealer, stacks, pot, seed, fixed decks), every action with its seat, and how
many deals were begun.  ``to_record`` / ``from_record`` (``khrap.session.record``)
turn it into a JSON-ready dict and back, by replaying.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from khrap.cards import CardError, parse_card
from khrap.engine import Action, ActionError, GameState, IllegalAction, Rules, RulesError, parse_action
from khrap.engine.compiled.table import mypyc_attr
from khrap.engine.rules import shared_rules
from khrap.variant.catalog import load_variant
from khrap.variant.schema import Variant

DeckSpec = str | Sequence[str] | Sequence[int]


def complete_deck(listed: DeckSpec, rules: Rules) -> list[int]:
    """A deck from its top cards (text, card words or ints); unlisted cards follow in canonical order."""
    words: list[str | int] = list(listed.split() if isinstance(listed, str) else listed)
    try:
        cards = [c if isinstance(c, int) else parse_card(c) for c in words]
    except CardError as err:
        raise ValueError(str(err)) from None
    try:
        return rules.complete_deck(cards)
    except RulesError as err:
        raise ValueError(str(err)) from None


def refuse_foreign_digits(text: str) -> None:
    """IllegalAction for a number written in other digits than 0-9 ("²", "٣"): the kernel reads only those."""
    if any(c.isdigit() and not c.isascii() for c in text):
        raise IllegalAction("write numbers with the digits 0 to 9")
    if len(text) > 200:
        raise IllegalAction("an action is at most 200 characters")


# Compiled with the server's modules (``SERVER_MODULES``, docs/compiled.md): a native class, copied and pickled as the
# kernel's classes are (mypyc's ``__getstate__``/``__setstate__``; ``clone`` is a ``deepcopy``).
@mypyc_attr(allow_interpreted_subclasses=True)
class Session:
    """A game of ``variant`` at ``players`` seats: deals, legal actions, observations, records.

    ``variant`` is a built-in name, a path to a variant file, or a ``Variant``.
    ``seed`` fixes every shuffle (a random one is chosen when it is None);
    ``decks`` fixes the first shuffles (top card first, as in scenario files).
    """

    def __init__(
        self,
        variant: str | Path | Variant,
        players: int = 4,
        *,
        seed: int | None = None,
        dealer: int = 0,
        stacks: int | Sequence[int] = 100,
        pot: int = 0,
        decks: Sequence[DeckSpec] = (),
        name: str | None = None,
    ) -> None:
        if isinstance(variant, Variant):
            self.variant = variant
            self.variant_name = name or variant.name.get("en", "variant")
        else:
            self.variant = load_variant(variant)
            self.variant_name = name or str(variant)
        # (one Rules for every session of the same rules and players: a server's tables keep one copy, not one each)
        self.rules = shared_rules(self.variant, players)
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        self.setup: dict[str, Any] = {
            "players": players,
            "dealer": dealer,
            "stacks": stacks if isinstance(stacks, int) else list(stacks),
            "pot": pot,
            "seed": self.seed,
        }
        self.decks = [complete_deck(d, self.rules) for d in decks]
        self.state = GameState(self.rules, players, dealer=dealer, stacks=stacks, pot=pot, seed=self.seed,
                               decks=self.decks)
        self.actions: list[tuple[int, str]] = []
        # Where each action's events begin in ``state.log`` (its length then): the events from there to the next
        # one's are the action's, so a reader that knows who made an action (a table's bot or its player) can say
        # who made each event of it (``web.table``: the log names the bot, not the player, for a bot's play).
        self.acted_at: list[int] = []
        # A server's table plays hundreds of deals and reads only the deal in progress from the log: with
        # ``release_ended`` each deal begins with the events of the deals before released (a deal's some 40 events
        # held ~31 KB, the most of what a table grew a deal, docs/serve.md's fifteenth pass).  An event's place in
        # the evening is then ``log_base`` + its index in ``state.log``, and ``acted_at[i]`` is the place of action
        # ``acted_base + i``'s events; the actions and the decks dealt are all kept (``to_record`` reads them).
        self.releasing = False
        self.log_base = 0
        self.acted_base = 0
        self.deals_started = 0
        self.deal_stacks = list(self.state.stacks)  # stacks before the current deal's ante
        self.deal_log_at = 0  # where the current deal's lines begin in state.log
        self.table: dict[str, Any] = {}  # free data saved with the record (the terminal game's options)
        self._variant_data: dict | None = None

    # ------------------------------------------------------------ reading
    @property
    def variant_data(self) -> dict:
        """The resolved variant as plain data (what a record stores)."""
        if self._variant_data is None:
            self._variant_data = self.variant.model_dump(mode="json")
        return self._variant_data

    @property
    def players(self) -> int:
        return self.state.n

    @property
    def to_act(self) -> int | None:
        """The seat whose decision the game waits for; None between deals."""
        return self.state.to_act

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def deal_over(self) -> bool:
        """True before the first deal and once a deal is settled: call ``start_deal`` to go on."""
        return self.state.pending is None

    @property
    def stacks(self) -> list[int]:
        return list(self.state.stacks)

    @property
    def pot(self) -> int:
        return self.state.pot

    @property
    def deals_completed(self) -> int:
        return self.state.deals_completed

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (exchanges as card combinations, draws from the top)."""
        return self.state.legal_actions()

    def legal_words(self) -> list[str]:
        """The legal actions as CONTRACT.md words (exchange, discard and trump by the word alone)."""
        return self.state.legal_words()

    def observation(self, seat: int) -> dict:
        """What ``seat`` may see now: a JSON-ready dict (own hand once looked, the table, public history)."""
        return self.state.observation(seat)

    # ------------------------------------------------------------ acting
    def start_deal(self) -> None:
        """Ante, shuffle and deal the next deal; the game then waits for the first decision."""
        if not self.deal_over:
            raise IllegalAction(f"deal in progress: seat {self.to_act} is to act")
        self.deal_stacks = list(self.state.stacks)
        if self.releasing:
            self._release()
        self.deal_log_at = len(self.state.log)
        self.state.start_deal()
        self.deals_started += 1

    def release_ended(self) -> None:
        """From now on each deal begins with the events of the deals before it released from ``state.log`` (and
        their ``acted_at``): a reader of the log keeps what it needs of an ended deal before the next one begins.
        The log is released between deals only, before the kernel deals (``sim.runner`` plays so), where every
        event in it is an ended deal's: the one in progress, or the last one until the next begins, stays whole."""
        self.releasing = True

    def _release(self) -> None:
        log = self.state.log
        self.log_base += len(log)
        log.clear()
        self.acted_base = len(self.actions)
        self.acted_at.clear()

    def apply(self, action: str | Action, seat: int | None = None) -> str:
        """Apply an action (text such as ``"exchange 6D 7C"`` or an ``Action``) for ``seat``
        (default: the seat to act).  Returns the action as recorded; IllegalAction says why not."""
        if isinstance(action, str):
            listed = self._listed(action, seat)
            actor = self.state.to_act  # (not None when an action is listed: a decision is pending)
            if listed is not None and actor is not None:  # a listed action's words: applied as listed, not parsed
                at = len(self.state.log)
                self.state.apply(listed)
                self.acted_at.append(at)
                self.actions.append((actor, action))
                return action
            refuse_foreign_digits(action)
            try:
                action = parse_action(action)
            except ActionError as err:
                raise IllegalAction(str(err)) from None
        actor = self.state.to_act
        if actor is None:
            raise IllegalAction("no deal is in progress: start_deal() begins the next one")
        at = len(self.state.log)
        self.state.apply(action, seat)
        text = str(action)
        self.acted_at.append(at)
        self.actions.append((actor, text))
        return text

    def _listed(self, text: str, seat: int | None) -> Action | None:
        """The legal action listed for the pending decision whose words are ``text`` exactly (as offered:
        ``legal_words``), or None.  Such an action needs no parsing or check: the kernel applies a listed
        action as listed (an identity test), and ``str`` of it is ``text``, so it is the action ``text``
        parses to.  Anything else (other spellings, an exchange's cards) takes the general path.  The kernel finds
        it among the listing's words, made once (``GameState.listed``): not the action written again."""
        state = self.state
        if seat is not None and seat != state.to_act:
            return None
        return state.listed(text)

    def clone(self) -> Session:
        """An independent copy: changing one never changes the other."""
        return copy.deepcopy(self)

    # ------------------------------------------------------------ records
    def to_record(self) -> dict:
        from khrap.session.record import to_record

        return to_record(self)

    @classmethod
    def from_record(cls, record: dict, *, check: bool = True) -> Session:
        from khrap.session.record import from_record

        return from_record(record, check=check)

    def save(self, path: str | Path) -> None:
        """Write the record to ``path`` atomically (temporary file, fsync, rename)."""
        from khrap.session.record import save_record

        save_record(self.to_record(), path)

    @classmethod
    def load(cls, path: str | Path, *, check: bool = True) -> Session:
        from khrap.session.record import load_record

        return cls.from_record(load_record(path), check=check)

    def __repr__(self) -> str:
        where = "between deals" if self.deal_over else f"{self.phase}, seat {self.to_act} to act"
        return f"<Session {self.variant_name} {self.players} players, deal {self.deals_started}, {where}>"


__all__ = ["DeckSpec", "Session", "complete_deck"]
