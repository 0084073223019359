"""``determinize.try_each``: the search bots' one step, every candidate tried on the same cards and luck."""

from __future__ import annotations

from khrap import words as w
from khrap.bots.determinize import try_each
from khrap.engine import Action, GameState, Rules
from khrap.variant.catalog import load_variant


def a_call_decision() -> GameState:
    state = GameState(Rules(load_variant("khrap"), 4), 4, seed=7)
    state.start_deal()
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


def test_every_candidate_draws_the_same_luck() -> None:
    state = a_call_decision()
    candidates = state.legal_actions()[:2]
    # the game's own draws and the finisher's draws: equal for every candidate only when each copy is
    # reseeded with the one seed (common random numbers), different for another seed
    row = try_each(state, candidates, 11, lambda sim, luck: sim.rng.random() + 10 * luck.random())
    assert row is not None and len(row) == 2 and row[0] == row[1]
    other = try_each(state, candidates, 12, lambda sim, luck: sim.rng.random() + 10 * luck.random())
    assert other is not None and other[0] != row[0]


def test_the_deal_itself_is_left_alone_and_an_illegal_candidate_drops_the_deal() -> None:
    state = a_call_decision()
    before = state.legal_words()
    impossible = Action(word=w.PLAY, cards=(0,))  # no card is played during the calls
    assert try_each(state, [state.legal_actions()[0], impossible], 3, lambda sim, luck: 0.0) is None
    assert state.legal_words() == before


def test_a_replay_draws_what_a_fresh_generator_of_its_seed_draws() -> None:
    """Every replay of one tape, interleaved, gives ``random.Random(seed)``'s draws call for call (the kernel's
    shuffle, choices, floats, bits of every width), and the tape seeds its one generator only when a word is asked."""
    import random

    from khrap.bots.determinize import Replay, Tape
    from khrap.engine.randomness import shuffle

    for seed in range(40):
        tape = Tape(seed)
        assert tape._source is None
        replays = [(Replay(tape), random.Random(seed)) for _ in range(3)]
        script = random.Random(1000 + seed)
        for _ in range(200):
            ours, theirs = script.choice(replays)
            op = script.randrange(5)
            if op == 0:
                assert ours.random() == theirs.random()
            elif op == 1:
                k = script.randrange(0, 130)
                assert ours.getrandbits(k) == theirs.getrandbits(k), k
            elif op == 2:
                a, b = list(range(52)), list(range(52))
                shuffle(ours, a)
                shuffle(theirs, b)
                assert a == b
            elif op == 3:
                assert ours.randrange(3, 10 ** 15) == theirs.randrange(3, 10 ** 15)
            else:
                assert ours.sample(range(90), 5) == theirs.sample(range(90), 5)
    assert Replay(Tape(5)).getrandbits(0) == 0 and Tape(5)._source is None


def test_spending_the_deal_plays_the_last_candidate_on_it_and_changes_no_figure() -> None:
    # ``spend``: the caller gives the deal away, so the last candidate is played on the deal itself; every
    # other candidate still starts from the deal as it was, so the row is the row of copies.
    from khrap.bots.determinize import fast_clone

    def finish(sim: GameState, luck: object) -> float:
        return 100.0 * len(sim.legal_actions()) + len(sim.log) + sim.rng.random()

    state = a_call_decision()
    candidates = state.legal_actions()[:2]
    after_last = fast_clone(state)
    after_last.apply(candidates[-1])
    copies = try_each(state, candidates, 5, finish)
    spent = try_each(state, candidates, 5, finish, spend=True)
    assert copies is not None and spent == copies
    assert state.legal_words() == after_last.legal_words() and len(state.log) == len(after_last.log)


def test_a_replay_refuses_what_random_random_refuses_and_is_never_reseeded() -> None:
    import random

    import pytest

    from khrap.bots.determinize import Replay, Tape

    ours, theirs = Replay(Tape(9)), random.Random(9)
    for gen in (ours, theirs):
        with pytest.raises(ValueError):
            gen.getrandbits(-1)
    # gauss keeps its second value (gauss_next) between calls, as random.Random's does
    assert [ours.gauss(0, 1) for _ in range(3)] == [theirs.gauss(0, 1) for _ in range(3)]
    with pytest.raises(TypeError):
        ours.seed(3)
    assert ours.random() == theirs.random()
