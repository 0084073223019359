"""A bare, hand-written loop of a simpler Frap-like deal: the speed yardstick for the kernel.

    python benchmarks/bare_loop.py [--seconds 3]

4 players, 32 cards (7..A), everyone antes 1, 4 cards each dealt one at a time
from the dealer's left, the next card turned for trump.  One bidding round from
the dealer's left: while nobody has frapped a player says frap or pass at random,
after a frap whist or pass.  Nobody in: the pot stays.  A lone frapper is
credited every trick.  Otherwise 4 tricks, the frapper leading; each player in
turn plays a random legal card (follow suit, else trump, else anything); the
highest trump, else the highest card of the led suit, wins and leads next.
Each trick pays its taker pot // 4; what is left stays.  No exchange, no cut,
no penalties, no log, no legality checks of a given action: the least work a
deal of this family can be.
"""

from __future__ import annotations

import argparse
import random
import time

PLAYERS = 4
HAND = 4
DECK = list(range(32))  # card = suit * 8 + rank, rank 0 (7) .. 7 (A)


def play_deal(rng: random.Random, stacks: list[int], pot: int, dealer: int) -> int:
    """Play one deal; changes ``stacks``; returns the pot after it."""
    n = PLAYERS
    for seat in range(n):
        stacks[seat] -= 1
    pot += n
    deck = DECK[:]
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(HAND * n):
        hands[(dealer + 1 + i) % n].append(deck[i])
    trump = deck[HAND * n] // 8
    frapper = None
    active = []
    for k in range(n):
        seat = (dealer + 1 + k) % n
        if rng.random() < 0.5:
            active.append(seat)
            if frapper is None:
                frapper = seat
    if frapper is None:
        return pot
    tricks = [0] * n
    if len(active) == 1:
        tricks[frapper] = HAND
    else:
        order = sorted(active, key=lambda s: (s - frapper) % n)
        leader = frapper
        for _ in range(HAND):
            start = order.index(leader)
            led = best = None
            winner = leader
            for seat in order[start:] + order[:start]:
                hand = hands[seat]
                if led is None:
                    legal = hand
                else:
                    legal = [c for c in hand if c // 8 == led] or [c for c in hand if c // 8 == trump] or hand
                card = rng.choice(legal)
                hand.remove(card)
                if led is None:
                    led, best, winner = card // 8, card, seat
                elif (card // 8 == trump and (best // 8 != trump or card > best)) or (
                        card // 8 == led == best // 8 and card > best):
                    best, winner = card, seat
            tricks[winner] += 1
            leader = winner
    unit = pot // HAND
    for seat in active:
        stacks[seat] += unit * tricks[seat]
        pot -= unit * tricks[seat]
    return pot


def deals_per_second(seconds: float, seed: int = 1) -> float:
    """Bare deals per second on one core, playing for ``seconds``."""
    rng = random.Random(seed)
    stacks, pot, dealer, deals = [100] * PLAYERS, 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pot = play_deal(rng, stacks, pot, dealer)
        dealer = (dealer + 1) % PLAYERS
        deals += 1
    assert sum(stacks) + pot == 100 * PLAYERS
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"bare Frap-like loop: {deals_per_second(args.seconds):.0f} deals/s")


if __name__ == "__main__":
    main()
