"""The engine samples what a seat cannot see: full deals consistent with everything that seat saw.

``resample(state, seat, rng)`` gives a playable ``GameState`` whose every card hidden from ``seat``
(the other hands, its own before it looked, the stock's order, the discards' faces) is dealt at random,
keeping what the seat knows (OpenSpiel's ``ResampleFromInfostate``):

- its hand once looked, the cards it drew, threw, exchanged or discarded (its own events' secrets);
- the public table: the turned card, the cards kept face up or taken from the table, the trick, the
  cards won, every count (hands, stock, discards), stacks, statuses and calls;
- the suits a player showed he lacks (not following, or not trumping when void), and the cards a
  call's requirement proves its caller holds.

The seat's view of the sample is its view of the state (``seat_view``): the sample's log holds the
events as the seat may hold them (another seat's secret fields left out, a deal's hands too).  Build
``Resampler(state, seat)`` once and ``sample(rng)`` many times (the search bots); the cards are the
only thing that changes between samples.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from khrap import words as w
from khrap.engine.copying import copy_state, deal_hidden  # (its own module, compiled: docs/compiled.md)
from khrap.engine.derived import hand_dealt
from khrap.engine.events import Dealt, Discarded, Drew, Event, Exchanged, Played, Shown, Swapped, TookTrick, TookTurned
from khrap.engine.observation import as_seen, seat_view
from khrap.engine.randomness import shuffle
from khrap.engine.rules import pattern_card
from khrap.engine.state import GameState
from khrap.variant.derived import held_after

Entry = tuple[int, int, bool]  # (seat, card, played as the joker)


@dataclass
class DealFacts:
    """The current deal as one seat saw it."""

    played: list[Entry] = field(default_factory=list)  # (seat, card, as_joker), in order
    tricks: list[list[Entry]] = field(default_factory=list)  # closed tricks
    public_in_hand: dict[int, set[int]] = field(default_factory=dict)  # shown / taken cards, per seat
    own_seen: set[int] = field(default_factory=set)  # cards the seat drew or took
    own_gone: set[int] = field(default_factory=set)  # cards the seat exchanged or discarded

    @property
    def played_cards(self) -> set[int]:
        return {c for _, c, _ in self.played}

    def voids(self, trump: int | None, follow_suit: bool = True, trump_if_void: bool = True) -> dict[int, set[int]]:
        """Suits each seat has shown he lacks (by not following, or not trumping when void)."""
        out: dict[int, set[int]] = {}
        tricks = [*self.tricks, self._open()] if self._open() else self.tricks
        for trick in tricks:
            first = trick[0]
            if first[2]:
                continue  # a joker led as the joker asks for no suit
            led = first[1] // 13
            for seat, card, joker in trick[1:]:
                if joker or card // 13 == led or not follow_suit:
                    continue
                out.setdefault(seat, set()).add(led)
                if trump_if_void and trump is not None and card // 13 != trump and led != trump:
                    out[seat].add(trump)
        return out

    def _open(self) -> list[Entry]:
        done = sum(len(t) for t in self.tricks)
        return self.played[done:]


def facts_of(events: list[Event], seat: int) -> DealFacts:
    """What ``seat`` read in the deal's typed events (as it holds them: ``SeatView.events``)."""
    start = max((i for i, e in enumerate(events) if isinstance(e, Dealt)), default=0)  # the last (re)deal's
    reader = FactsReader(seat)
    for event in events[start:]:
        reader.read(event)
    return reader.facts


# The event kinds ``FactsReader.read`` reads, and those found to be none of them (by ``isinstance``, once a kind):
# an event of one of those is passed over at a set lookup, not after the five tests that would find nothing.
_READ = (Played, TookTrick, Shown, TookTurned, Swapped, Drew, Exchanged, Discarded)
_IDLE: set[type] = set()


class FactsReader:
    """``facts_of`` one event at a time (``read``), for a reader that follows a deal as it grows: a bot that
    decides many times a deal reads each event once.  Its ``facts`` are shared: copy what you change."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.facts = DealFacts()
        self.current: list[Entry] = []  # the open trick's cards

    def read(self, event: Event) -> None:
        if type(event) in _IDLE:  # (most of a deal's events: a kind none of the branches below reads)
            return
        facts, who = self.facts, event.seat
        if not isinstance(event, _READ):
            _IDLE.add(type(event))
            return
        if isinstance(event, Played):
            entry = (who, event.fields["card"], bool(event.fields.get("joker")))
            facts.played.append(entry)
            self.current.append(entry)
            facts.public_in_hand.get(who, set()).discard(entry[1])
        elif isinstance(event, TookTrick):
            facts.tricks.append(self.current)
            self.current = []
        elif isinstance(event, (Shown, TookTurned, Swapped)):
            cards = list(event.fields["cards"]) if isinstance(event, Shown) else [event.fields["card"]]
            facts.public_in_hand.setdefault(who, set()).update(cards)
            if who == self.seat:
                facts.own_seen.update(cards)
        elif who == self.seat and isinstance(event, (Drew, Exchanged, Discarded)):
            self._own(event)

    def _own(self, event: Event) -> None:
        """The seat's own draw, exchange or discard: the cards it saw go (the kernel's event keeps them in
        ``secret``, one read back from its JSON by ``events.from_data`` in ``fields``: ``visible`` has both)."""
        seen, facts = event.visible(self.seat), self.facts
        if isinstance(event, Discarded):
            if "card" in seen:
                facts.own_gone.add(seen["card"])
        else:
            (facts.own_seen if isinstance(event, Drew) else facts.own_gone).update(seen.get("cards", ()))


def _held_by_call(state: GameState, other: int) -> set[int]:
    """Cards a call's requirement proves the caller holds (kept unless played)."""
    call = state.rules.calls.get(state.call_of[other] or "")
    if call is None:
        return set()
    cards = {pattern_card(p, state.trump) for p in held_after(call)}
    return {c for c in cards if c is not None}


def _own_gone(state: GameState, seat: int, facts: DealFacts, on_table: set[int]) -> set[int]:
    """Cards the seat held or saw in its hand this deal that have left it face down."""
    seen = set(facts.own_seen) | facts.own_gone
    call = state.rules.calls.get(state.call_of[seat] or "")
    blind_throw = call is not None and call.requires.blind and (
        call.effects.discard_hand or call.effects.take_turned == "swap")
    if state.looked[seat] and not blind_throw and state.decks_dealt:
        deck, size = state.decks_dealt[-1], state.rules.hand_size
        seen |= set(hand_dealt(deck, state.dealer, state.n, size, seat))
    return seen - set(state.hands[seat]) - on_table


class Resampler:
    """What ``seat`` knows of ``state``'s deal, and full deals drawn at random consistent with it."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.seat = seat
        self.view = view = seat_view(state, seat)
        facts = facts_of(view.events, seat)
        self.facts = facts
        self.looked = state.looked[seat]
        on_table = set(state.won) | set(state.turned) | {c for _, c, _ in state.trick}
        own = set(state.hands[seat]) if self.looked else set()
        gone = _own_gone(state, seat, facts, on_table) if self.looked else set()
        known: dict[int, list[int]] = {}
        for other in range(state.n):
            if other == seat:
                continue
            cards = set(facts.public_in_hand.get(other, ())) | _held_by_call(state, other)
            cards -= on_table | own | gone
            known[other] = sorted(cards)[: len(state.hands[other])]
        placed = set().union(*known.values()) if known else set()
        gone |= {c for s in known for c in facts.public_in_hand.get(s, ())} - placed - on_table - own
        self.known = known
        self.known_gone = sorted(gone)
        self.pool = [c for c in state.rules.deck if c not in on_table | own | placed | gone]
        follow = state.rules.variant.play
        self.voids = facts.voids(state.trump, follow.follow_suit, follow.trump_if_void)
        self.played = {s: [c for p, c, _ in facts.played if p == s] for s in range(state.n)}
        self.sizes = {s: len(state.hands[s]) - len(known.get(s, ())) for s in range(state.n) if s != seat}
        if not self.looked:
            self.sizes[seat] = len(state.hands[seat])
        self.order = sorted(self.sizes, key=lambda s: -len(self.voids.get(s, ())))  # the seats dealt, most voids first
        self.stock_count = len(state.stock)
        self.discard_count = max(0, len(state.discards) - len(self.known_gone))
        self.base = base = copy_state(state)
        base.log = [as_seen(e, seat) for e in state.log]
        base.quiet = [as_seen(e, seat) for e in state.quiet]
        base.decks_dealt, base.scripted_decks, base.rng = [], [], random.Random(0)
        if hasattr(base, "last_legal"):
            base.last_legal = (None, [])
        for s in range(state.n):
            if s != seat or not self.looked:
                base.hands[s] = []
        base.stock, base.discards = [], []

    def sample(self, rng: random.Random) -> GameState:
        """A full deal consistent with the seat's knowledge, the hidden cards dealt at random."""
        pool = list(self.pool)
        shuffle(rng, pool)  # (``rng.shuffle``'s draws, compiled: the interpreted one was most of a sample)
        state = copy_state(self.base)
        state.rng = Replay(Tape(rng.getrandbits(32)))  # (seeded only if the sample's game draws: most never do)
        # each seat, most voids first, given its known cards and the first that fit (compiled: ``deal_hidden``)
        pool = deal_hidden(pool, self.order, self.sizes, self.voids, self.seat, self.known, state.hands)
        state.stock = pool[: self.stock_count]
        state.discards = self.known_gone + pool[self.stock_count:]
        if state.phase == w.PLAY_PHASE:
            for s in range(state.n):
                if s != self.seat or not self.looked:
                    state.held_at_play[s] = state.hands[s] + self.played.get(s, [])
        return state


class Tape:
    """The 32-bit words ``random.Random(seed)`` puts out, in order, drawn from one generator as far as any reader
    (``Replay``) has asked; the generator is seeded at the first word asked, not before."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.words: list[int] = []
        self._source: random.Random | None = None

    def word(self, i: int) -> int:
        """The ``i``-th word (from 0)."""
        words = self.words
        while len(words) <= i:
            if self._source is None:
                self._source = random.Random(self.seed)
            words.append(self._source.getrandbits(32))
        return words[i]


class Replay(random.Random):
    """A generator that draws exactly what a fresh ``random.Random(tape.seed)`` would, call for call: its words
    read from ``tape`` from the first, so every replay of one tape gives the same draws, and only the tape's one
    generator is seeded.  Its own ``random`` and ``getrandbits`` make them from the words as CPython's do (every
    other method of ``random.Random`` draws through these two); its own state cannot be read, set or seeded."""

    def __init__(self, tape: Tape) -> None:  # (``random.Random.__init__`` would seed the C state: not used)
        self._tape = tape
        self._at = 0
        self.gauss_next = None  # (what ``random.Random.__init__`` sets beside the seed)

    def _word(self) -> int:
        self._at += 1
        return self._tape.word(self._at - 1)

    def random(self) -> float:
        """As CPython's ``random()``: 53 bits from two words, the first's high 27 and the second's high 26."""
        a, b = self._word() >> 5, self._word() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """As CPython's: up to 32 bits from one word's high bits; more from words filled from the low end, the
        last one shortened to its high bits."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k <= 32:
            return self._word() >> (32 - k) if k else 0
        value, shift = 0, 0
        while k > 0:
            word = self._word()
            value |= (word >> (32 - k) if k < 32 else word) << shift
            shift += 32
            k -= 32
        return value

    def seed(self, *args, **kwargs) -> None:
        raise TypeError("a Replay draws from its tape: it cannot be seeded")

    def getstate(self):
        raise TypeError("a Replay draws from its tape: it has no state of its own")

    def setstate(self, state) -> None:
        raise TypeError("a Replay draws from its tape: it has no state of its own")


def resample(state: GameState, seat: int, rng: random.Random) -> GameState:
    """One full deal drawn at random consistent with everything ``seat`` saw of ``state``'s."""
    return Resampler(state, seat).sample(rng)


__all__ = ["DealFacts", "Replay", "Resampler", "Tape", "copy_state", "facts_of", "resample"]
