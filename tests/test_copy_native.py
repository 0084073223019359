"""A deal's copy for play: ``GameState.play_copy`` (each field written out) against the general walk
(``copying.general_copy``), which ``copy_state`` used for every state before.

At every step of random deals of every built-in, the two copies of the same state must hold the same fields
with the same values, share with the original exactly what the general one shares (the program, the sink, the
random generator, events, tuples) and copy what it copies (every list, the lists in a list, the sets), and play
on alike.  A field ``play_copy`` leaves out fails here (reading it raises), as does a list shared, not copied.
"""

from __future__ import annotations

import random

import pytest

from khrap.engine import GameState, Rules
from khrap.engine.copying import copy_state, general_copy
from khrap.variant.catalog import builtin, builtin_names


def field_names(state: GameState) -> list[str]:
    """Every field the general copy carries (plain: the slots set and the instance dict; compiled: every native
    attribute)."""
    got = state.__getstate__()
    if isinstance(got, tuple):
        return sorted({**(got[0] or {}), **(got[1] or {})})
    return sorted(got)


def same_sharing(name: str, original, native, general) -> None:
    """``native`` and ``general`` (one field of two copies of ``original``) equal, each sharing with the
    original what the other shares, one level into a list (the hands of ``hands``)."""
    assert type(native) is type(general), name
    assert (native is original) == (general is original), name
    if isinstance(general, list):
        assert native == general, name
        assert [a is b for a, b in zip(native, original, strict=True)] == \
            [a is b for a, b in zip(general, original, strict=True)], name
    elif isinstance(general, (set, dict, int, str, tuple, float)) or general is None:
        assert native == general, name


def states_of(variant: str, players: int, seed: int, deals: int = 2):
    """Every state of ``deals`` deals played by a random seat (seeded), the first dealt."""
    state = GameState(Rules(builtin(variant), players), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(deals):
        if state.session_over:
            return
        state.start_deal()
        yield state
        while state.pending is not None:
            state.apply(rng.choice(state.legal_actions()))
            yield state


@pytest.mark.parametrize("variant", builtin_names())
def test_the_native_copy_is_the_general_copy_field_by_field(variant):
    steps = 0
    for players in (3, 4):
        for state in states_of(variant, players, seed=players * 7):
            native, general = state.play_copy(), general_copy(state)
            assert type(native) is type(general) is GameState
            for name in field_names(state):
                same_sharing(name, getattr(state, name), getattr(native, name), getattr(general, name))
            steps += 1
    assert steps > 40  # (the deals were played, not refused at the start)


def test_the_hands_and_lists_copied_are_the_copys_own():
    state = next(s for s in states_of("khrap", 4, seed=3) if s.pending is not None and s.hands[1])
    copied = state.play_copy()
    for name in ("hands", "stacks", "locked", "log", "statuses", "tricks", "trick", "stock"):
        assert getattr(copied, name) is not getattr(state, name), name
    assert all(a is not b for a, b in zip(copied.hands, state.hands, strict=True))
    assert copied.skipped is not state.skipped and copied.deferred is not state.deferred
    assert copied.program is state.program and copied.sink is state.sink and copied.rng is state.rng
    before = [list(h) for h in state.hands]
    copied.hands[1].clear()
    copied.stacks[0] += 5
    assert state.hands == before and state.stacks[0] == copied.stacks[0] - 5


def test_copy_state_takes_the_native_branch_for_a_state_and_the_general_for_a_subclass():
    class Other(GameState):  # an interpreted subclass (a compiled GameState allows them): copied the general way
        pass

    state = GameState(Rules(builtin("khrap"), 4), 4, seed=1)
    state.start_deal()
    other = Other(Rules(builtin("khrap"), 4), 4, seed=1)
    other.start_deal()
    assert type(copy_state(state)) is GameState and type(copy_state(other)) is Other
    assert copy_state(other).hands == other.hands and copy_state(other).hands is not other.hands


@pytest.mark.parametrize("variant", ["khrap", "frap", "khrap-shoot"])
def test_copies_play_on_alike(variant):
    """Both copies of each state, their random generators seeded alike, play the rest of the deal the same way
    (the same actions, the same events, the same chips), and the original is left as it was."""
    for state in states_of(variant, 4, seed=11, deals=1):
        if state.pending is None:
            continue
        rng_state = state.rng.getstate()
        hands = [list(h) for h in state.hands]
        ends = []
        for copied in (state.play_copy(), general_copy(state)):
            copied.rng = random.Random(5)
            pick = random.Random(9)
            while copied.pending is not None:
                copied.apply(pick.choice(copied.legal_actions()))
            ends.append(([e.kind for e in copied.log], copied.stacks, copied.pot, copied.tricks))
        assert ends[0] == ends[1]
        assert state.hands == hands and state.rng.getstate() == rng_state


def reference_deal(pool, order, sizes, voids, seat, known, hands):
    """``Resampler.sample``'s deal as it was written before ``deal_hidden`` (the reference)."""
    for s in order:
        need = sizes[s]
        void = voids.get(s, set()) if s != seat else set()
        fits = [c for c in pool if c // 13 not in void][:need]
        if len(fits) < need:
            fits += [c for c in pool if c not in fits][: need - len(fits)]
        taken = set(fits)
        pool = [c for c in pool if c not in taken]
        hands[s] = list(known.get(s, ())) + fits
    return pool


def test_deal_hidden_deals_as_the_resampler_did():
    """Random pools, sizes, voids (every suit void too: the fill from anything) and known cards: the same hands
    and the same cards left.  Hand-checked: seat 1, void in suit 0 (cards 0-12), takes the first two cards of the
    pool of other suits; seat 2, with nothing void, the next two; the card left is the stock."""
    from khrap.engine.copying import deal_hidden

    hands = [[], [], [], []]
    left = deal_hidden([3, 20, 5, 40, 7, 30], [1, 2], {1: 2, 2: 2}, {1: {0}}, 0, {2: [50]}, hands)
    assert hands == [[], [20, 40], [50, 3, 5], []] and left == [7, 30]
    rng = random.Random(3)
    for _ in range(2000):
        pool = rng.sample(range(52), rng.randint(0, 30))
        order = rng.sample(range(4), rng.randint(1, 4))
        sizes = {s: rng.randint(0, 8) for s in order}
        voids = {s: set(rng.sample(range(4), rng.randint(0, 4))) for s in order if rng.random() < 0.6}
        seat = rng.randrange(4)
        known = {s: sorted(rng.sample(range(52), 2)) for s in order if rng.random() < 0.3}
        ours, theirs = [[9]] * 4, [[9]] * 4
        assert deal_hidden(list(pool), order, sizes, voids, seat, known, ours) == \
            reference_deal(list(pool), order, sizes, voids, seat, known, theirs)
        assert ours == theirs


def test_the_decks_still_scripted_are_the_copys_own_as_in_the_general_copy():
    # A session given two decks: after the first deal begins, the second waits in ``scripted_decks``; both copies
    # make their own list of it (the states above script no deck, so this field was always empty there).
    from khrap.session import Session

    state = Session("khrap", 4, seed=1, decks=["AS KS", "QH"]).state
    state.start_deal()
    assert len(state.scripted_decks) == 1
    native, general = state.play_copy(), general_copy(state)
    for name in ("scripted_decks", "decks_dealt"):
        same_sharing(name, getattr(state, name), getattr(native, name), getattr(general, name))
    assert native.scripted_decks[0] is not state.scripted_decks[0]
