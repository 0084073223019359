"""Trick play: the first lead, the follow rule, the joker, who wins a trick."""

from __future__ import annotations

from khrap import words as w
from khrap.cards import SUITS, card_str
from khrap.engine import trick
from khrap.engine.actions import Action


def active_seats(state) -> list[int]:
    """The players in play, clockwise from the declarer."""
    return [s for s in state.seats_from(state.declarer) if state.active(s)]


def first_leader(state) -> int:
    """The first player clockwise from the declarer whose call is a first-lead call, else the declarer."""
    calls = state.rules.variant.play.first_lead.calls
    for seat in state.clockwise_after(state.declarer):
        if state.active(seat) and state.call_of[seat] in calls:
            return seat
    return state.declarer


def start(state) -> bool:
    """Begin play; False when a lone declarer is credited every trick instead."""
    state.phase = w.PLAY_PHASE
    for seat in range(state.n):
        if not state.active(seat):
            state.statuses[seat] = w.OUT if state.statuses[seat] == w.UNDECIDED else state.statuses[seat]
        state.held_at_play[seat] = list(state.hands[seat])
    state.in_play = active_seats(state)
    if state.in_play == [state.declarer] and state.rules.variant.play.lone_declarer_takes_all:
        state.tricks[state.declarer] = state.rules.hand_size
        state.emit("credited", state.declarer, tricks=state.rules.hand_size)
        return False
    state.leader = first_leader(state)
    state.set_pending("play", state.leader)
    return True


def led_suit(state) -> int | None:
    """The suit the first card asks for; None for a joker led as the joker."""
    return trick.led_suit(state.trick)


def winning_entry(state) -> tuple[int, int, bool]:
    return trick.best(state.trick, state.trump)[0]


def playable(state, seat: int) -> list[tuple[int, bool]]:
    """Every (card, as_joker) ``seat`` may play now."""
    hand = state.hands[seat]
    joker = state.rules.joker
    options = [(c, False) for c in _plain_choices(state, hand)]
    if joker is not None and joker in hand:
        options.append((joker, True))
    return options


def first_lead_suit(state) -> int | None:
    """The suit the first lead of the deal must be, if the leader holds one (``play.first_lead.suit``).

    None: any lead, because it is not the first trick, the variant asks no suit, or it asks for
    trump and there is none."""
    suit = state.rules.variant.play.first_lead.suit
    if suit is None or state.won:
        return None
    return state.trump if suit == "trump" else SUITS.index(suit)


def leads(state, hand: list[int]) -> list[int]:
    """The cards ``hand`` may lead: of the first lead's suit if it holds one (see ``first_lead_suit``), else any."""
    suit = first_lead_suit(state)
    if suit is not None:
        same = [c for c in hand if c // 13 == suit]
        if same:
            return same
    return list(hand)


def _plain_choices(state, hand: list[int]) -> list[int]:
    rules = state.rules.variant.play
    if not state.trick:
        return leads(state, hand)
    trump = state.trump
    led = led_suit(state)
    if led is None:
        demand = state.rules.variant.joker.led_demands if state.rules.variant.joker else "none"
        trumps = [c for c in hand if c // 13 == trump]
        return trumps if demand == "trump" and trumps else list(hand)
    same = [c for c in hand if c // 13 == led] if rules.follow_suit else []
    if same:
        return _beat(state, same) if rules.must_beat else same
    trumps = [c for c in hand if c // 13 == trump] if rules.trump_if_void else []
    if trumps:
        return _beat(state, trumps) if rules.must_overtrump else trumps
    return list(hand)


def _beat(state, cards: list[int]) -> list[int]:
    """The cards that beat the trick's best card, if any can; otherwise all."""
    return trick.beaters(cards, state.trick, state.trump)


def refusal(state, seat: int, action: Action) -> str | None:
    if len(action.cards) != 1:
        return "play one card"
    card = action.cards[0]
    if card not in state.hands[seat]:
        return f"seat {seat} does not hold {card_str(card)}"
    if action.joker and card != state.rules.joker:
        return f"{card_str(card)} is not the joker"
    if (card, action.joker) in playable(state, seat):
        return None
    return _follow_reason(state, seat)


def _follow_reason(state, seat: int) -> str:
    led = led_suit(state)
    hand = state.hands[seat]
    rules = state.rules.variant.play
    if not state.trick:
        suit = first_lead_suit(state)
        what = f"a trump ({SUITS[suit]})" if rules.first_lead.suit == "trump" else f"a card of {SUITS[suit]}"
        return f"seat {seat} must lead {what} to the first trick"
    if rules.follow_suit and led is not None and any(c // 13 == led for c in hand):  # without it, no suit
        beat = " and beat the best card if possible" if rules.must_beat else ""
        return f"seat {seat} must follow suit ({'SHDC'[led]}){beat}"
    if any(c // 13 == state.trump for c in hand):
        beat = " and overtrump if possible" if rules.must_overtrump else ""
        return f"seat {seat} must play a trump ({'SHDC'[state.trump]}){beat}"
    return f"seat {seat} may not play that card now"


def play(state, seat: int, action: Action) -> None:
    """Play a card; close the trick when every active player has played."""
    card = action.cards[0]
    state.looked[seat] = True
    state.hands[seat].remove(card)
    state.trick.append((seat, card, action.joker))
    state.emit("played", seat, card=card, joker=action.joker)
    seats = state.in_play
    if len(state.trick) < len(seats):
        state.set_pending("play", seats[(seats.index(seat) + 1) % len(seats)])
        return
    winner = winning_entry(state)[0]
    state.tricks[winner] += 1
    state.won.extend(c for _, c, _ in state.trick)
    state.trick = []
    state.emit("took_trick", winner, count=state.tricks[winner])
    if state.hands[winner]:
        state.set_pending("play", winner)
