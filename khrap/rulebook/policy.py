"""A simple, deterministic way to play, for the worked example of a rule sheet.

It only picks among the engine's legal actions, so whatever it picks is
legal under the variant; its aim is a short, ordinary deal: strong hands
declare, fair hands help, the first player offered a late entry takes it.
"""

from __future__ import annotations

from khrap.cards import RANKS
from khrap.engine import Action, GameState
from khrap.engine.kinds import CALL, DISCARD, EXCHANGE, PLAY, TRUMP
from khrap.engine.trick import led_suit

QUEEN = RANKS.index("Q")


def _trump(state: GameState, hand: list[int]) -> int:
    """The trump suit, or the suit he would name (his longest) before it is known."""
    if state.trump is not None:
        return state.trump
    return max(range(4), key=lambda s: (sum(1 for c in hand if c // 13 == s), s))


def strength(state: GameState, hand: list[int]) -> int:
    """Trumps plus side aces."""
    trump = _trump(state, hand)
    return sum(1 for c in hand if c // 13 == trump or c % 13 == len(RANKS) - 1)


def _value(state: GameState, hand: list[int], card: int) -> tuple[int, int, int]:
    """How much a card is worth keeping (higher keeps)."""
    joker = state.rules.joker
    return (card == joker, card // 13 == _trump(state, hand), card % 13)


def _choose_call(state: GameState, seat: int, actions: list[Action], prefer: tuple[str, ...] = ()) -> Action:
    calls = state.rules.calls
    shown = [a for a in actions if a.word in prefer]
    if shown:  # the call the worked example is there to show, whenever it is open to him
        return shown[0]
    usable = [a for a in actions if a.word in calls and not calls[a.word].requires.blind]
    by_status: dict[str, list[Action]] = {}
    for action in usable:
        by_status.setdefault(calls[action.word].effects.status, []).append(action)
    offers = state.rules.stages[state.stage_index].speakers == "out"
    power = strength(state, state.hands[seat])
    late = _late_entries(state)
    if offers and by_status.get("helper") and not any(state.call_of[s] in late for s in range(state.n)):
        return by_status["helper"][0]
    for status, needed in (("declarer", 3), ("helper", 2)):
        plain = [a for a in by_status.get(status, []) if state.rules.derived.calls[a.word].plain]
        if plain and power >= needed and not offers:
            return plain[0]
    if by_status.get("out"):
        return by_status["out"][0]
    return (usable or actions)[0]


def _late_entries(state: GameState) -> set[str]:
    """Calls that bring a player who is out into the game, said in offer steps."""
    calls = state.rules.calls
    return {
        cid
        for stage in state.rules.stages
        if getattr(stage, "speakers", "") == "out"
        for cid in stage.calls
        if cid in calls and calls[cid].effects.status != "out"
    }


def _weakest(state: GameState, hand: list[int], count: int) -> tuple[int, ...]:
    return tuple(sorted(hand, key=lambda c: _value(state, hand, c))[:count])


def _choose_exchange(state: GameState, seat: int, actions: list[Action]) -> Action:
    hand = state.hands[seat]
    trump = _trump(state, hand)
    weak = [c for c in hand if c // 13 != trump and c % 13 < QUEEN and c != state.rules.joker]
    sizes = sorted({len(a.cards) for a in actions})
    want = min(max(len(weak), sizes[0]), sizes[-1])
    if want not in sizes:
        want = max(s for s in sizes if s <= want) if any(s <= want for s in sizes) else sizes[0]
    cards = set(_weakest(state, hand, want))
    return next(a for a in actions if set(a.cards) == cards)


def _choose_play(state: GameState, seat: int, actions: list[Action], prefer: tuple[str, ...] = ()) -> Action:
    hand = state.hands[seat]
    jokers = [a for a in actions if a.joker]
    if "joker" in prefer and jokers:
        return jokers[0]
    plain = [a for a in actions if not a.joker] or actions
    if not state.trick:
        return max(plain, key=lambda a: _value(state, hand, a.cards[0]))
    best = _trick_best(state)
    winning = [a for a in plain if _beats(state, a.cards[0], best)]
    if winning:
        return min(winning, key=lambda a: _value(state, hand, a.cards[0]))
    return min(plain, key=lambda a: _value(state, hand, a.cards[0]))


def _on_trick(state: GameState, card: int, joker: bool) -> tuple[int, int]:
    """(class, rank) of a card on the trick: joker 3, trump 2, the suit led 1, any other 0."""
    if joker:
        return (3, 0)
    suit = card // 13
    if suit == state.trump:
        return (2, card % 13)
    return (1 if suit == led_suit(state.trick) else 0, card % 13)


def _trick_best(state: GameState) -> tuple[int, int]:
    return max(_on_trick(state, card, joker) for _, card, joker in state.trick)


def _beats(state: GameState, card: int, best: tuple[int, int]) -> bool:
    return _on_trick(state, card, False) > best


def choose(state: GameState, prefer: tuple[str, ...] = ()) -> Action:
    """The action this policy takes for the seat to act; ``prefer``: calls (and ``joker``, the joker
    played as the joker) to take whenever they are legal, so that a worked example shows them."""
    seat = state.pending.seat
    kind = state.pending.kind
    actions = state.legal_actions()
    if kind is CALL:
        return _choose_call(state, seat, actions, prefer)
    if kind is DISCARD:
        hand = state.hands[seat]
        card = _weakest(state, hand, 1)[0]
        return next(a for a in actions if a.cards == (card,))
    if kind is EXCHANGE:
        return _choose_exchange(state, seat, actions)
    if kind is TRUMP:
        suit = _trump(state, state.hands[seat])
        return next(a for a in actions if a.suit == suit)
    if kind is not PLAY:  # a kind a rule offers (the registry's): taken where preferred, else its first answer,
        return next((a for a in actions if a.word in prefer), actions[0])  # which changes nothing
    return _choose_play(state, seat, actions, prefer)
