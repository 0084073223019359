"""A bare, hand-written loop of classic Khrap for 4 players: the yardstick for the kernel's random playout.

    python benchmarks/bare_khrap.py [--seconds 3]

Classic Khrap (RULES.md §1, variants/khrap.yaml) as the kernel plays it: 4
players, 36 cards (6..A), hand 4, base stake 1.  Everyone antes 1 (not after a
four-aces deal that left chips in the pot), 4 cards each dealt one at a time
from the dealer's left, the next card turned for trump.  Bidding once around
from the dealer's left with khrap, help, merry, sad, wrap (the dealer, blind,
with look as one more option), helicopter and pass, each offered exactly when
the kernel offers it; merry, sad and wrap draw and owe a discard at once.  All
pass: the next card is turned for trump, at most three rounds; then everyone
puts 1 more in and the next dealer redeals.  Then take five for the passers, the
exchange (any subset of the hand the stock can cover), the four-aces check,
4 tricks (follow suit, else trump, else anything; the first take-five helper
clockwise from the declarer leads, else the declarer; a lone declarer is
credited every trick) and the settlement (trick shares of P // 4, failed
players pay their stake, the pot is shared by tricks among the others).  Every
decision is picked uniformly at random among exactly the options the kernel
lists (every subset of the hand for an exchange), as its random bot does, so a
deal asks for the same decisions as a kernel deal.  The rules are written out
by hand for this one variant, with constants in the code, no log and no
legality checks of a given action; a choice is ``options[int(random() * n)]``
and the shuffle sorts the deck on random keys.  A yardstick of how fast a deal
of classic Khrap can be played in plain Python, not part of the package.
"""

from __future__ import annotations

import argparse
import random
import time

PLAYERS = 4
HAND = 4
STOCK = 36  # the stock holds STOCK - top cards: deck[top:], drawn from the top
CARDS = range(36)  # card = rank * 4 + suit, rank 0 (6) .. 8 (A): suit = card & 3, aces are 32..35
ORDER = [tuple((start + i) % PLAYERS for i in range(PLAYERS)) for start in range(PLAYERS)]  # clockwise from start
# Where each seat's cards lie in the deck (deck[j:16:4]) when ``dealer`` deals one at a time from his left.
DEALT = [tuple((seat - dealer - 1) % PLAYERS for seat in range(PLAYERS)) for dealer in range(PLAYERS)]
THROWN = [tuple(i for i in range(HAND) if mask >> i & 1) for mask in range(16)]  # hand positions an exchange throws
# The exchanges open to a 4-card hand (as masks of the cards thrown) when the stock holds ``left`` cards.
EXCHANGES = [[m for m in range(16) if bin(m).count("1") <= left] for left in range(HAND + 1)]
# The players in play (a mask of seats) after each leader, in the order they play.
AFTER = [[tuple(s for s in ORDER[(leader + 1) % PLAYERS][:3] if mask >> s & 1) for leader in range(PLAYERS)]
         for mask in range(16)]


def play_deal(rng: random.Random, stacks: list[int], pot: int, dealer: int, skip_ante: bool = False
              ) -> tuple[int, int, bool]:
    """Play one deal, redeals included; changes ``stacks``; returns (pot, next dealer, skip the next ante)."""
    rand = rng.random
    if not skip_ante:
        for seat in range(PLAYERS):
            stacks[seat] -= 1
        pot += PLAYERS
    while True:
        deck = sorted(CARDS, key=[rand() for _ in CARDS].__getitem__)  # a uniform shuffle, top card first
        a, b, c, d = DEALT[dealer]
        hands = [deck[a:16:4], deck[b:16:4], deck[c:16:4], deck[d:16:4]]
        top = 16
        order = ORDER[(dealer + 1) % PLAYERS]
        for rnd in range(3):
            turned = deck[top]
            top += 1
            trump = turned & 3
            ace = trump + 32
            status = [0, 0, 0, 0]  # 2 declarer, 1 helper, 0 out: also his stake and the tricks he owes
            drew = [False, False, False, False]  # has no exchange turn
            declarer = -1
            for seat in order:
                hand = hands[seat]
                if declarer < 0 and (trump not in hand or ace not in hand):  # khrap or pass: the common case
                    if rand() < 0.5:
                        declarer = seat
                        status[seat] = 2
                    continue
                wrap = False
                if declarer < 0:
                    calls = ["khrap"]
                else:
                    calls = ["help"]
                    if STOCK - top >= 4:
                        if ace in hand:
                            calls.append("merry")
                        if trump in hand:
                            calls.append("sad")
                        if seat == dealer and rnd == 0 and turned >= 32:  # unseen: his first turn of the deal
                            calls.append("wrap")
                            wrap = True
                if trump in hand and ace in hand and [card & 3 for card in hand].count(trump) == 2:
                    calls.append("helicopter")
                calls.append("pass")
                if wrap:
                    calls.append("look")
                call = calls[int(rand() * len(calls))]
                if call == "look":
                    calls.remove("wrap")
                    calls.pop()
                    call = calls[int(rand() * len(calls))]
                if call == "pass":
                    continue
                if call == "khrap":
                    declarer = seat
                    status[seat] = 2
                elif call == "help":
                    status[seat] = 1
                elif call == "helicopter":  # everyone helps; no take five, no exchange
                    declarer = seat
                    status = [1, 1, 1, 1]
                    status[seat] = 2
                    drew = [True, True, True, True]
                    break
                else:
                    if call == "sad":
                        hand = [trump]
                        status[seat] = 1
                    else:
                        hand = [ace] if call == "merry" else [turned]
                        status[declarer] = 1
                        status[seat] = 2
                        declarer = seat
                    hand += deck[top:top + 4]
                    top += 4
                    del hand[int(rand() * 5)]
                    hands[seat] = hand
                    drew[seat] = True
            if declarer >= 0:
                break
        else:
            for seat in range(PLAYERS):
                stacks[seat] -= 1
            pot += PLAYERS
            dealer = (dealer + 1) % PLAYERS
            continue
        break

    leader = declarer
    for seat in ORDER[(declarer + 1) % PLAYERS]:  # fives
        if not status[seat] and STOCK - top >= 5 and rand() < 0.5:
            hands[seat] = hand = deck[top:top + 5]
            top += 5
            del hand[int(rand() * 5)]
            status[seat] = 1
            drew[seat] = True
            if leader == declarer:
                leader = seat
    active = []
    in_play = 0
    for seat in ORDER[declarer]:  # exchange
        if status[seat]:
            if not drew[seat]:
                left = STOCK - top
                if left >= 4:
                    mask = int(rand() * 16)
                else:
                    masks = EXCHANGES[left]
                    mask = masks[int(rand() * len(masks))]
                hand = hands[seat]
                for i in THROWN[mask]:
                    hand[i] = deck[top]
                    top += 1
            active.append(seat)
            in_play |= 1 << seat
    for seat in active:
        hand = hands[seat]
        if hand[0] >= 32 and min(hand) >= 32:  # four aces
            stacks[seat] += pot
            pot = 0
            for other in active:
                if other != seat:
                    stacks[other] -= status[other]
                    pot += status[other]
            return pot, (dealer + 1) % PLAYERS, pot > 0

    tricks = [0, 0, 0, 0]
    if len(active) == 1:
        tricks[declarer] = HAND
    else:
        suits: list[list[list[int]]] = [[], [], [], []]  # each hand in play, split by suit
        for seat in active:
            suits[seat] = split = [[], [], [], []]
            a, b, c, d = hands[seat]
            split[a & 3].append(a)
            split[b & 3].append(b)
            split[c & 3].append(c)
            split[d & 3].append(d)
        after = AFTER[in_play]
        for _ in range(HAND):
            split = suits[leader]
            hand = [*split[0], *split[1], *split[2], *split[3]]
            best = hand[int(rand() * len(hand))] if len(hand) > 1 else hand[0]
            led = high = best & 3  # high: the suit of the best card so far
            split[led].remove(best)
            winner = leader
            for seat in after[leader]:
                split = suits[seat]
                legal = split[led]
                if legal:  # follow suit
                    card = legal.pop(int(rand() * len(legal))) if len(legal) > 1 else legal.pop()
                    if high == led and card > best:
                        best, winner = card, seat
                    continue
                legal = split[trump]
                if legal:  # trump
                    card = legal.pop(int(rand() * len(legal))) if len(legal) > 1 else legal.pop()
                    if high != trump or card > best:
                        best, winner, high = card, seat, trump
                    continue
                hand = [*split[0], *split[1], *split[2], *split[3]]  # anything: it cannot win
                card = hand[int(rand() * len(hand))] if len(hand) > 1 else hand[0]
                split[card & 3].remove(card)
            tricks[winner] += 1
            leader = winner

    unit = pot // HAND
    kept = []  # who did not fail
    total = 0  # their tricks
    for seat in active:
        taken = tricks[seat]
        stacks[seat] += unit * taken
        pot -= unit * taken
        if taken < status[seat]:
            stacks[seat] -= status[seat]
            pot += status[seat]
        else:
            kept.append(seat)
            total += taken
    if total and pot > 0:
        share = pot
        for seat in kept:
            chips = share * tricks[seat] // total
            stacks[seat] += chips
            pot -= chips
    return pot, (dealer + 1) % PLAYERS, False


def deals_per_second(seconds: float, seed: int = 1) -> float:
    """Bare deals per second on one core, playing for ``seconds``."""
    rng = random.Random(seed)
    stacks, pot, dealer, skip, deals = [100] * PLAYERS, 0, 0, False, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pot, dealer, skip = play_deal(rng, stacks, pot, dealer, skip)
        deals += 1
    assert sum(stacks) + pot == 100 * PLAYERS
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"bare Khrap loop: {deals_per_second(args.seconds):.0f} deals/s")


if __name__ == "__main__":
    main()
