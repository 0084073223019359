"""Classic Khrap by hand, behind the compiled machine's interface: how fast the engine could be at most.

    python benchmarks/interface_khrap.py [--seconds 3]

The same deal as ``bare_khrap.py`` (RULES.md §1, 4 players), written out by
hand for this one variant, but with everything the compiled machine must do
for any variant's random playout and nothing more:

- the kernel's deck (card = suit * 13 + rank), shuffle and deal;
- every decision goes through ``choose(options)`` with the very options the
  machine lists, in its order: ``Action`` objects for calls and ``look``,
  ``Exchanges`` for an exchange, card lists for discards and plays, and
  ``chooser(rng)`` picks (the draws ``random.Random.choice`` makes);
- the facts a deal record is mostly made of: the calls said, the trick
  winners, each seat's status and call (not the counts of all-passes,
  turn-ups and redeals, the ending or the number of decisions).

With the same seeds it plays the machine's deals (``tests/test_benchmarks.py``
compares stacks, pot, calls, trick winners, statuses and calls deal by deal,
about 1,200 deals from 8 seeds).  What it leaves
out is what makes the machine general: stages, preconditions and effects read
from the variant, stakes and penalties looked up, the state kept between
decisions for ``legal``/``apply``.  An engine that plays random Khrap behind
this interface does all this and more, so its speed is a practical ceiling
for one in plain Python; ``speed.py`` reports it beside the machine.  Not part of the package.
"""

from __future__ import annotations

import argparse
import random
import time

from khrap.engine.actions import Action
from khrap.engine.compiled.machine import Exchanges
from khrap.engine.randomness import chooser, shuffle

P, HAND = 4, 4
DECK = tuple(s * 13 + r for s in range(4) for r in range(4, 13))
ORDER = [tuple((start + i) % P for i in range(P)) for start in range(P)]
A = {c: Action(c) for c in ["khrap", "pass", "help", "merry", "sad", "wrap", "helicopter", "take-five"]}
LOOK = Action("look")
IN_SUIT = {s: frozenset(range(13 * s, 13 * s + 13)).__contains__ for s in range(4)}


class Table:
    """A table of 4 seats with 100 chips each and an empty pot, dealer 0, the machine's defaults."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.stacks = [100] * P
        self.pot = 0
        self.dealer = 0
        self.skip = False
        self.statuses: list[str | None] = [None] * P  # the last deal's, as a record reads them
        self.call_of: list[str | None] = [None] * P
        self.tricks = [0] * P

    def play_deal(self, choose) -> tuple[list[tuple[int, str]], list[int]]:
        """Play one deal (redeals included); returns the calls said and the trick winners."""
        rng = self.rng
        said, winners = [], []
        stacks, pot, dealer = self.stacks, self.pot, self.dealer
        if not self.skip:
            for s in range(P):
                stacks[s] -= 1
            pot += P
        self.skip = False
        while True:
            deck = list(DECK)
            shuffle(rng, deck)
            first = dealer + 1
            hands = [deck[(s - first) % P:16:P] for s in range(P)]
            stock = deck[16:]
            order = ORDER[first % P]
            for rnd in range(3):
                turned = stock.pop(0)
                trump = turned // 13
                ace, six = trump * 13 + 12, trump * 13 + 4
                status = [None] * P
                call_of = [None] * P
                drew = [False] * P
                looked = [False] * P
                declarer = -1
                for seat in order:
                    hand = hands[seat]
                    # wrap: a blind call open to the dealer on the deal's first turned ace; until he
                    # looks (an action of its own) it is listed, with ``look`` last
                    wrap = declarer >= 0 and seat == dealer and rnd == 0 and turned % 13 == 12 and len(stock) >= 4
                    if not wrap:
                        looked[seat] = True
                    while True:
                        found = []
                        if declarer < 0:
                            found.append(A["khrap"])
                        else:
                            found.append(A["help"])
                            if ace in hand and len(stock) >= 4:
                                found.append(A["merry"])
                            if six in hand and len(stock) >= 4:
                                found.append(A["sad"])
                            if wrap and not looked[seat]:
                                found.append(A["wrap"])
                        if six in hand and ace in hand and sum(1 for c in hand if c // 13 == trump) <= 2:
                            found.append(A["helicopter"])
                        found.append(A["pass"])
                        if wrap and not looked[seat]:
                            found.append(LOOK)
                        action = choose(found)
                        if action is LOOK:
                            looked[seat] = True
                            continue
                        break
                    cid = action.word
                    said.append((seat, cid))
                    looked[seat] = True
                    call_of[seat] = cid
                    if cid == "pass":
                        status[seat] = "out"
                        continue
                    if cid == "khrap":
                        declarer = seat
                        status[seat] = "declarer"
                    elif cid == "help":
                        status[seat] = "helper"
                    elif cid == "helicopter":
                        for o in range(P):
                            status[o] = "helper"
                            drew[o] = True
                        status[seat] = "declarer"
                        declarer = seat
                        break
                    else:
                        if cid == "sad":
                            keep = [c for c in hand if c == six]
                            status[seat] = "helper"
                        else:
                            keep = [c for c in hand if c == ace] if cid == "merry" else [turned]
                            status[declarer] = "helper"
                            status[seat] = "declarer"
                            declarer = seat
                        hand[:] = keep
                        hand += stock[:4]
                        del stock[:4]
                        c = choose(list(hand))
                        hand.remove(c)
                        drew[seat] = True
                if declarer >= 0:
                    break
            else:
                for s in range(P):
                    stacks[s] -= 1
                pot += P
                dealer = (dealer + 1) % P
                continue
            break
        self.statuses, self.call_of = status, call_of  # the record's, changed in place from here on
        leader = declarer
        for seat in ORDER[(declarer + 1) % P]:  # fives
            if status[seat] == "out":
                found = [A["take-five"], A["pass"]] if len(stock) >= 5 else [A["pass"]]
                action = choose(found)
                said.append((seat, action.word))
                if action.word == "take-five":
                    hands[seat] = hand = stock[:5]
                    del stock[:5]
                    c = choose(list(hand))
                    hand.remove(c)
                    status[seat] = "helper"
                    call_of[seat] = "take-five"
                    drew[seat] = True
                    if leader == declarer:
                        leader = seat
        active = []
        for seat in ORDER[declarer]:
            if status[seat] in ("declarer", "helper"):
                if not drew[seat]:
                    hand = hands[seat]
                    cards = choose(Exchanges(sorted(hand), 0, min(len(hand), len(stock))))
                    for c in cards:
                        hand.remove(c)
                    hand += stock[:len(cards)]
                    del stock[:len(cards)]
                active.append(seat)
        need = {s: (2 if status[s] == "declarer" else 1) for s in active}  # tricks owed, also the stake
        for seat in active:
            hand = hands[seat]
            if sum(1 for c in hand if c % 13 == 12) >= 4:
                stacks[seat] += pot
                pot = 0
                for o in active:
                    if o != seat:
                        stacks[o] -= need[o]
                        pot += need[o]
                self.pot, self.dealer, self.skip = pot, (dealer + 1) % P, pot > 0
                self.tricks = [0] * P
                return said, winners
        tricks = [0] * P
        if len(active) == 1:
            tricks[declarer] = HAND
        else:
            rot = {s: active[i + 1:] + active[:i] for i, s in enumerate(active)}
            in_trump = IN_SUIT[trump]
            while True:
                hand = hands[leader]
                card = choose(list(hand))
                hand.remove(card)
                led = card // 13
                in_led = IN_SUIT[led]
                bs, bc, br = leader, (2 if led == trump else 1), card % 13
                for seat in rot[leader]:
                    hand = hands[seat]
                    options = [*filter(in_led, hand)] or [*filter(in_trump, hand)] or list(hand)
                    card = choose(options)
                    hand.remove(card)
                    suit = card // 13
                    cls = 2 if suit == trump else 1 if suit == led else 0
                    if cls > bc or (cls == bc and card % 13 > br):
                        bs, bc, br = seat, cls, card % 13
                tricks[bs] += 1
                winners.append(bs)
                if not hands[bs]:
                    break
                leader = bs
        unit = pot // HAND
        kept, total = [], 0
        for seat in active:
            t = tricks[seat]
            stacks[seat] += unit * t
            pot -= unit * t
            if t < need[seat]:
                stacks[seat] -= need[seat]
                pot += need[seat]
            else:
                kept.append(seat)
                total += t
        if total and pot > 0:
            share = pot
            for seat in kept:
                chips = share * tricks[seat] // total
                stacks[seat] += chips
                pot -= chips
        self.pot, self.dealer = pot, (dealer + 1) % P
        self.tricks = tricks
        return said, winners


def deals_per_second(seconds: float, seed: int = 1) -> float:
    """Deals per second on one core, playing for ``seconds`` (random choices, as the machine's benchmark)."""
    table = Table(seed)
    choose = chooser(random.Random(seed))
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        table.play_deal(choose)
        deals += 1
    assert sum(table.stacks) + table.pot == 100 * P
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"Khrap by hand behind the machine's interface: {deals_per_second(args.seconds):.0f} deals/s")


if __name__ == "__main__":
    main()
