"""The worked example of a rule sheet: one deal played by the engine, folded into typed steps.

The deal is played by :mod:`khrap.rulebook.policy` from a deck shuffled with a
fixed seed (the first seed, counting from 1, that gives a short ordinary deal:
a declarer, at least one partner, no all-pass, tricks played).  Each action
goes through ``GameState.apply``, so every step is legal under the variant;
the recorder folds the kernel's typed events (told apart by class) into the
steps of :mod:`khrap.rulebook.steps`, one class per thing a sentence words,
that the templates word in any language.  Everything is read from the events:
the ante, the deal, the all-passes, the tricks and the settlement from the
narrated log (the settlement from the ledger of its ``Settled`` event, by
:mod:`khrap.rulebook.arithmetic`: nothing is settled twice); which cards a
call's effects moved (thrown, taken, drawn) and which statuses and stakes it
set, in its own seat and in others, from the log and the kernel's textless
events (``GameState.quiet``: ``Threw``, ``Status``).  Only the table at the
start of settlement (stacks and locked stakes) is read from the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from khrap.cards import canonical, card_str, suit_str
from khrap.engine import GameState, Rules
from khrap.engine.derived import clockwise_from, deal_order
from khrap.engine.events import (
    AllPassed,
    Anted,
    Credited,
    Dealt,
    Drew,
    Exchanged,
    Played,
    Settling,
    Status,
    Swapped,
    Threw,
    TookTrick,
    TookTurned,
    Turned,
)
from khrap.engine.kinds import CALL, DISCARD, EXCHANGE, PLAY, TRUMP
from khrap.rulebook import arithmetic, policy
from khrap.rulebook.steps import (
    AllPass,
    Alone,
    Ante,
    Call,
    Deal,
    Discard,
    Drawn,
    Exchange,
    Play,
    Settle,
    Statuses,
    Step,
    Thrown,
    Trick,
    Trump,
)
from khrap.variant.derived import default_players, seat_stack
from khrap.variant.schema import Variant

MAX_ACTIONS = 200
SEEDS = range(1, 400)


@dataclass
class Example:
    seed: int
    players: int
    dealer: int
    events: list[Step]
    settlement: arithmetic.Settlement | None
    stacks_before: list[int]
    stacks_after: list[int]


@dataclass
class _Moves:
    """What one batch of the kernel's events did to each seat: cards lost and gained (taken: from the table),
    seats whose hands were thrown, chips locked and the last status set; whether all passed."""

    lost: dict[int, list[int]] = field(default_factory=dict)
    gained: dict[int, list[int]] = field(default_factory=dict)
    taken: dict[int, list[int]] = field(default_factory=dict)
    emptied: list[int] = field(default_factory=list)
    locked: dict[int, int] = field(default_factory=dict)
    status: dict[int, str] = field(default_factory=dict)
    all_passed: bool = False


class NoExample(RuntimeError):
    """No seed gave a playable short deal (a variant whose deals never reach play)."""


def example_players(v: Variant) -> int:
    """Four players where the variant allows it, else the nearest count it allows."""
    return default_players(v)


def example_stack(v: Variant) -> int:
    """Each player's chips before the example: the variant's seat stack (``variant/derived.py``), so the
    example is a deal at a table where nobody is short."""
    return seat_stack(v)


def _cards(cards) -> tuple[str, ...]:
    return tuple(card_str(c) for c in canonical(cards))


class _Recorder:
    def __init__(self, v: Variant, seed: int, deck: list[int] | None = None, prefer: tuple[str, ...] = ()) -> None:
        self.v = v
        self.n = example_players(v)
        self.prefer = prefer
        decks = [deck] if deck else ()
        stacks = example_stack(v)
        self.state = GameState(Rules(v, self.n), self.n, dealer=0, stacks=stacks, pot=0, seed=seed, decks=decks)
        self.events: list[Step] = []
        self.trick: list[Play] = []
        self.tricks_done = 0
        self.seen = self.seen_before = 0  # kernel events read so far; where the last batch began
        self.quiet_seen = 0  # textless events read so far
        self.statuses: dict[int, str] = dict.fromkeys(range(self.n), "undecided")  # as the status events set them
        self.settling: dict[str, Any] = {}

    def all_passed(self) -> bool:
        return any(isinstance(e, AllPass) for e in self.events)

    def table(self) -> dict[str, Any]:
        """The stacks and locked stakes now (the settlement's starting table, read before the last card)."""
        s = self.state
        return {"stacks": list(s.stacks), "locked": list(s.locked), "round": s.round}

    def start(self) -> None:
        s = self.state
        before = self.table()
        s.start_deal()
        for event in self.new_events():
            if isinstance(event, Anted):
                self.events.append(Ante(event.fields["chips"], event.fields["pot"]))
            elif isinstance(event, Dealt):
                hands = event.secret["hands"]
                dealer = event.fields["dealer"]
                order = deal_order(dealer, self.n)
                self.events.append(Deal(dealer, event.fields["size"],
                                        tuple((seat, _cards(hands[seat])) for seat in order)))
            elif isinstance(event, Turned) and self.events and isinstance(self.events[-1], Deal):
                self.events[-1] = replace(self.events[-1], turned=card_str(event.fields["card"]))
        self.after_kernel(before, actor=None, moves=self.moves(s.log[self.seen_before:]))

    def new_events(self) -> list:
        """The kernel's events since the last look."""
        log = self.state.log
        found = log[self.seen:]
        self.seen_before, self.seen = self.seen, len(log)
        return found

    def new_quiet(self) -> list:
        """The kernel's textless events since the last look."""
        quiet = self.state.quiet
        found = quiet[self.quiet_seen:]
        self.quiet_seen = len(quiet)
        return found

    def moves(self, events: list) -> _Moves:
        """What the events since the last look (``events`` and the textless ones) did to each seat."""
        m = _Moves()
        for event in events:
            seat = event.seat
            if isinstance(event, Drew):
                m.gained.setdefault(seat, []).extend(event.secret["cards"])
            elif isinstance(event, (TookTurned, Swapped)):
                m.gained.setdefault(seat, []).append(event.fields["card"])
                m.taken.setdefault(seat, []).append(event.fields["card"])
            elif isinstance(event, Exchanged):
                m.lost.setdefault(seat, []).extend(event.secret["cards"])
            elif isinstance(event, AllPassed):
                m.all_passed = True
        for event in self.new_quiet():
            seat = event.seat
            if isinstance(event, Threw):
                m.lost.setdefault(seat, []).extend(event.secret["cards"])
                if not event.fields["left"]:
                    m.emptied.append(seat)
            elif isinstance(event, Status):
                m.locked[seat] = m.locked.get(seat, 0) + event.fields["locked"]
                m.status[seat] = event.fields["status"]
        m.emptied = [seat for seat in m.emptied if seat not in m.gained]  # thrown, then drew a new hand: not empty
        return m

    def step(self) -> None:
        s = self.state
        seat = s.pending.seat
        kind = s.pending.kind
        action = policy.choose(s, self.prefer)
        before = self.table()
        s.apply(action)
        moves = self.moves(s.log[self.seen:])
        lost, gained = moves.lost.get(seat, []), moves.gained.get(seat, [])
        thrown: list[int] = []
        if kind is CALL:
            if not s.rules.derived.moves_cards(action.word):
                thrown = [seat] if seat in moves.emptied else []
                lost = []
            taken = moves.taken.get(seat, [])
            self.events.append(Call(
                seat, action.word, s.statuses[seat], lost=_cards(lost), taken=_cards(taken),
                gained=_cards(c for c in gained if c not in taken), position=action.position,
                locked=moves.locked.get(seat, 0),
            ))
        elif kind is DISCARD:
            self.events.append(Discard(seat, card_str(action.cards[0])))
        elif kind is EXCHANGE:
            self.events.append(Exchange(seat, _cards(lost), _cards(gained)))
        elif kind is TRUMP:
            self.events.append(Trump(seat, suit_str(action.suit)))
        self.after_kernel(before, actor=seat, moves=moves, settling=kind is PLAY, thrown=thrown)

    def after_kernel(
        self, before: dict[str, Any], actor: int | None, moves: _Moves, settling: bool = False,
        thrown: list[int] | None = None,
    ) -> None:
        """Record what the kernel did by itself after an action: statuses, throws, draws, turn-ups, tricks."""
        s = self.state
        events = self.new_events() if actor is not None else s.log[self.seen_before:]
        if moves.all_passed:
            self.events.append(AllPass(before["round"]))
            return
        # clockwise from the one whose action changed them (the helicopter's forced helpers), with their locks
        order = clockwise_from(actor or 0, self.n)
        changed = [
            (seat, moves.status[seat], moves.locked.get(seat, 0)) for seat in order
            if seat != actor and seat in moves.status and moves.status[seat] != self.statuses[seat]
            and moves.status[seat] != "out"
        ]
        self.statuses.update(moves.status)
        if changed:
            self.events.append(Statuses(tuple(changed)))
        thrown = sorted((thrown or []) + [seat for seat in moves.emptied if seat != actor])
        if thrown and s.phase != "settled":
            self.events.append(Thrown(tuple(thrown)))
        for seat in range(self.n):
            gained = moves.gained.get(seat, [])
            if seat != actor and gained and s.phase != "settled":
                self.events.append(Drawn(seat, _cards(moves.lost.get(seat, [])), _cards(gained)))
        for event in events:
            if isinstance(event, Played):
                self.trick.append(Play(event.seat, card_str(event.fields["card"]), event.fields["joker"]))
            elif isinstance(event, TookTrick):
                self.tricks_done += 1
                self.events.append(Trick(event.seat, self.tricks_done, tuple(self.trick)))
                self.trick = []
            elif isinstance(event, Credited):
                self.events.append(Alone(event.seat, event.fields["tricks"]))
            elif isinstance(event, Settling):
                self.settling = event.fields
        if settling and s.phase == "settled":
            self.settle(before)

    def settle(self, before: dict[str, Any]) -> None:
        """The kernel's own ledger of the deal (its ``settled`` event), with the table it started from."""
        s = self.state
        seats = [x for x in s.seats_from(s.declarer) if s.statuses[x] in ("declarer", "helper")]
        players = [
            arithmetic.Player(
                seat, s.statuses[seat], s.call_of[seat], s.tricks[seat], s.stake_of[seat],
                before["locked"][seat], _cards(s.held_at_play[seat]),
            )
            for seat in seats
        ]
        table = arithmetic.Table(
            self.settling["pot"], players, s.declarer_round, None if s.trump is None else suit_str(s.trump), self.n,
            before["stacks"],
        )
        ledger = arithmetic.ledger_of(s.log[self.seen_before:])
        result = arithmetic.from_ledger(ledger, players, before["stacks"], s.stacks, s.pot)
        self.events.append(Settle(s.declarer, table, result))


def _ordinary(rec: _Recorder) -> bool:
    s = rec.state
    def has(kind: type) -> bool:
        return any(isinstance(e, kind) for e in rec.events)

    active = sum(1 for st in s.statuses if st in ("declarer", "helper"))
    return s.phase == "settled" and not has(AllPass) and has(Trick) and has(Settle) and active >= 2


def play_example(v: Variant, seeds=SEEDS, *, deck: list[int] | None = None, prefer: tuple[str, ...] = ()) -> Example:
    """The first ordinary deal among ``seeds``, recorded; with ``deck`` (top card first), that deal only.

    ``prefer``: the calls the players take whenever they may (see :func:`policy.choose`)."""
    for seed in [0] if deck else seeds:
        rec = _Recorder(v, seed, deck, prefer)
        rec.start()
        start_stacks = [example_stack(v)] * rec.n
        steps = 0
        while rec.state.pending is not None and steps < MAX_ACTIONS and not rec.all_passed():
            rec.step()
            steps += 1
        if _ordinary(rec):
            result = next(e for e in rec.events if isinstance(e, Settle)).result
            return Example(seed, rec.n, rec.state.dealer, rec.events, result, start_stacks, list(rec.state.stacks))
    raise NoExample("no short ordinary deal was found for the worked example")
