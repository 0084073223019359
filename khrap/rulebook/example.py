"""The worked example of a rule sheet: one deal played by the engine, recorded step by step.

The deal is played by :mod:`khrap.rulebook.policy` from a deck shuffled with a
fixed seed (the first seed, counting from 1, that gives a short ordinary deal:
a declarer, at least one partner, no all-pass, tricks played).  Each action
goes through ``GameState.apply``, so every step is legal under the variant;
the recorder notes what each action changed (cards, statuses, tricks, chips)
as :class:`Event` records that the templates word in any language.  The
settlement is itemized by :mod:`khrap.rulebook.arithmetic` and checked
against the chips the kernel actually moved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from khrap.cards import canonical, card_str, suit_str
from khrap.engine import GameState, Rules
from khrap.rulebook import arithmetic, policy
from khrap.variant.schema import Variant

MAX_ACTIONS = 200
SEEDS = range(1, 400)


@dataclass
class Event:
    """Something that happened, with the facts a sentence needs (cards as strings like ``AS``)."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Example:
    seed: int
    players: int
    dealer: int
    events: list[Event]
    settlement: arithmetic.Settlement | None
    stacks_before: list[int]
    stacks_after: list[int]


class NoExample(RuntimeError):
    """No seed gave a playable short deal (a variant whose deals never reach play)."""


def example_players(v: Variant) -> int:
    """Four players where the variant allows it, else the nearest count it allows."""
    return min(max(4, v.players.min), v.players.max)


def _cards(cards) -> list[str]:
    return [card_str(c) for c in canonical(cards)]


class _Recorder:
    def __init__(self, v: Variant, seed: int, deck: list[int] | None = None, prefer: tuple[str, ...] = ()) -> None:
        self.v = v
        self.n = example_players(v)
        self.prefer = prefer
        decks = [deck] if deck else ()
        self.state = GameState(Rules(v, self.n), self.n, dealer=0, stacks=100, pot=0, seed=seed, decks=decks)
        self.events: list[Event] = []
        self.trick: list[tuple[int, str, bool]] = []
        self.tricks_done = 0

    def snapshot(self) -> dict[str, Any]:
        s = self.state
        return {
            "hands": [list(h) for h in s.hands],
            "statuses": list(s.statuses),
            "tricks": list(s.tricks),
            "pot": s.pot,
            "stacks": list(s.stacks),
            "locked": list(s.locked),
            "turned": list(s.turned),
            "round": s.round,
            "dealer": s.dealer,
            "trump": s.trump,
        }

    def start(self) -> None:
        s = self.state
        before = self.snapshot()
        s.start_deal()
        ante = s.pot - before["pot"]
        if ante:
            self.events.append(Event("ante", data={"each": ante // self.n, "pot": s.pot}))
        order = [(s.dealer + 1 + i) % self.n for i in range(self.n)]
        hands = [(seat, _cards(s.hands[seat])) for seat in order]
        turned = card_str(s.turned[-1]) if s.turned else None
        self.events.append(Event("deal", s.dealer, {"hands": hands, "turned": turned, "size": s.rules.hand_size}))
        self.after_kernel(before, actor=None)

    def step(self) -> None:
        s = self.state
        seat = s.pending.seat
        kind = s.pending.kind
        action = policy.choose(s, self.prefer)
        before = self.snapshot()
        s.apply(action)
        gained = [c for c in s.hands[seat] if c not in before["hands"][seat]]
        lost = [c for c in before["hands"][seat] if c not in s.hands[seat]]
        thrown: list[int] = []
        if kind == "call":
            eff = s.rules.calls[action.word].effects
            if not (eff.discard_hand or eff.take_turned != "no" or eff.draw):
                thrown = [seat] if lost and not s.hands[seat] else []
                lost = []
            taken = [c for c in gained if c in before["turned"]]
            self.events.append(Event("call", seat, {
                "call": action.word,
                "status": s.statuses[seat],
                "lost": _cards(lost),
                "taken": _cards(taken),
                "gained": _cards(c for c in gained if c not in taken),
                "position": action.position,
                "locked": s.locked[seat] - before["locked"][seat],
            }))
        elif kind == "discard":
            self.events.append(Event("discard", seat, {"card": card_str(action.cards[0])}))
        elif kind == "exchange":
            self.events.append(Event("exchange", seat, {"lost": _cards(lost), "gained": _cards(gained)}))
        elif kind == "trump":
            self.events.append(Event("trump", seat, {"suit": suit_str(action.suit)}))
        else:
            self.trick.append((seat, card_str(action.cards[0]), action.joker))
        self.after_kernel(before, actor=seat, settling=kind == "play", thrown=thrown)

    def after_kernel(
        self, before: dict[str, Any], actor: int | None, settling: bool = False, thrown: list[int] | None = None
    ) -> None:
        """Record what the kernel did by itself after an action: statuses, throws, draws, turn-ups, tricks."""
        s = self.state
        if s.round != before["round"] or (s.dealer != before["dealer"] and actor is not None):
            self.events.append(Event("all_pass", data={"round": before["round"]}))
            return
        changed = [
            (seat, s.statuses[seat]) for seat in range(self.n)
            if seat != actor and s.statuses[seat] != before["statuses"][seat] and s.statuses[seat] != "out"
        ]
        if changed:
            self.events.append(Event("statuses", data={"changed": changed}))
        thrown = sorted((thrown or []) + [
            seat for seat in range(self.n) if seat != actor and before["hands"][seat] and not s.hands[seat]
        ])
        if thrown and s.phase != "settled":
            self.events.append(Event("thrown", data={"seats": thrown}))
        for seat in range(self.n):
            gained = [c for c in s.hands[seat] if c not in before["hands"][seat]]
            if seat != actor and gained and before["hands"][seat] and s.phase != "settled":
                lost = [c for c in before["hands"][seat] if c not in s.hands[seat]]
                self.events.append(Event("drawn", seat, {"lost": _cards(lost), "gained": _cards(gained)}))
        done = sum(s.tricks)
        if done > self.tricks_done:
            if self.trick:
                winner = max(range(self.n), key=lambda x: s.tricks[x] - before["tricks"][x])
                self.events.append(Event("trick", winner, {"number": done, "plays": self.trick}))
                self.trick = []
            else:
                self.events.append(Event("alone", s.declarer, {"tricks": done}))
            self.tricks_done = done
        if settling and s.phase == "settled":
            self.settle(before)

    def settle(self, before: dict[str, Any]) -> None:
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
            before["pot"], players, s.declarer_round, None if s.trump is None else suit_str(s.trump), self.n,
            before["stacks"],
        )
        result = arithmetic.itemize(self.v, table)
        mine = [before["stacks"][x] + result.net.get(x, 0) for x in range(self.n)]
        if mine != s.stacks or result.pot != s.pot:
            raise arithmetic.ArithmeticMismatch(
                f"kernel: stacks {s.stacks}, pot {s.pot}; rulebook: stacks {mine}, pot {result.pot}"
            )
        self.events.append(Event("settle", s.declarer, {"table": table, "result": result}))


def _ordinary(rec: _Recorder) -> bool:
    s = rec.state
    kinds = [e.kind for e in rec.events]
    active = sum(1 for st in s.statuses if st in ("declarer", "helper"))
    return s.phase == "settled" and "all_pass" not in kinds and "trick" in kinds and "settle" in kinds and active >= 2


def play_example(v: Variant, seeds=SEEDS, *, deck: list[int] | None = None, prefer: tuple[str, ...] = ()) -> Example:
    """The first ordinary deal among ``seeds``, recorded; with ``deck`` (top card first), that deal only.

    ``prefer``: the calls the players take whenever they may (see :func:`policy.choose`)."""
    for seed in [0] if deck else seeds:
        rec = _Recorder(v, seed, deck, prefer)
        rec.start()
        start_stacks = [100] * rec.n
        steps = 0
        while rec.state.pending is not None and steps < MAX_ACTIONS and "all_pass" not in (e.kind for e in rec.events):
            rec.step()
            steps += 1
        if _ordinary(rec):
            result = next(e for e in rec.events if e.kind == "settle").data["result"]
            return Example(seed, rec.n, rec.state.dealer, rec.events, result, start_stacks, list(rec.state.stacks))
    raise NoExample("no short ordinary deal was found for the worked example")
