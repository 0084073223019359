"""The exact card-play solver: against brute force through the kernel, and on hand-checked positions."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from khrap.bots.determinize import fast_clone
from khrap.bots.position import Kernel, Position, in_card_play, obligation, position_of, pot_share
from khrap.bots.solver import Solver, SolverTimeout, at_least, best_results, can_make, makeable, solve, tricks_of
from khrap.cards import parse_card
from khrap.engine import GameState, Rules
from khrap.variant.catalog import builtin, builtin_names
from tests.conftest import examples


def in_play(variant: str, players: int, seed: int, left: int) -> GameState | None:
    """A deal reached by random actions, played on at random until every hand holds at most ``left`` cards."""
    rng = random.Random(seed)
    state = GameState(builtin(variant), players, seed=seed, stacks=200)
    for _ in range(40):
        if state.session_over:
            return None
        state.start_deal()
        while state.pending is not None and not in_card_play(state):
            state.apply(rng.choice(state.legal_actions()))
        if in_card_play(state):
            break
    else:
        return None
    while in_card_play(state) and max(len(h) for h in state.hands) > left:
        state.apply(rng.choice(state.legal_actions()))
    return state if in_card_play(state) else None


def worth(state: GameState, seat: int) -> float:
    """The brute force's own count: stack, locked stake, the variant's fitted share of the pot."""
    return state.stacks[seat] + state.locked[seat] + pot_share(state.rules) * state.pot


def brute(state: GameState, seat: int, score) -> float:
    """Every legal play tried through the kernel's own ``apply`` and settlement: the seat maximises, the rest
    minimise ``score(state at the end)``."""
    if not in_card_play(state):
        return score(state)
    values = []
    for action in state.legal_actions():
        sim = fast_clone(state)
        sim.apply(action)
        values.append(brute(sim, seat, score))
    return max(values) if state.to_act == seat else min(values)


TABLES = [(v, n) for v in builtin_names() for n in (2, 3, 4) if builtin(v).players.min <= n <= builtin(v).players.max]


@pytest.mark.large
@settings(max_examples=examples(30), deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000), left=st.integers(1, 2))
def test_the_solver_matches_brute_force_over_every_legal_play(table, seed, left) -> None:
    variant, players = table
    state = in_play(variant, players, seed, left)
    if state is None:
        return
    for seat in state.in_play:
        base = worth(state, seat)
        exact = solve(state, seat)
        assert exact.value == pytest.approx(brute(state, seat, lambda s, seat=seat, base=base: worth(s, seat) - base))
        tricks = solve(state, seat, "tricks").value
        assert tricks == brute(state, seat, lambda s, seat=seat: s.tricks[seat])
    # every play's value, the seat to act maximising, matches the brute force of that play
    seat = state.to_act
    base = worth(state, seat)
    values = solve(state, seat).plays
    for action in state.legal_actions():
        sim = fast_clone(state)
        sim.apply(action)
        expected = brute(sim, seat, lambda s: worth(s, seat) - base)
        assert values[(action.cards[0], action.joker)] == pytest.approx(expected)


@pytest.mark.large
@settings(max_examples=examples(12), deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000))
def test_pruning_equivalent_cards_and_the_table_change_no_value(table, seed) -> None:
    """On bigger positions (three cards left): the pruned search equals the unpruned one."""
    state = in_play(*table, seed, 3)
    if state is None:
        return
    position = position_of(state)
    for seat in state.in_play:
        kernel = Kernel(position)
        pruned = Solver(position, seat, kernel=kernel).value()
        plain = Solver(position, seat, kernel=kernel, prune=False).value()
        assert pruned == pytest.approx(plain)


def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def _khrap_position(hands: list[str], trump: str, leader: int = 0) -> Position:
    """Three seats in play at Khrap's follow rule (follow suit, else trump if you can)."""
    rules = Rules(builtin("khrap"), 3)
    return Position(rules=rules, n=3, trump="SHDC".index(trump), order=(0, 1, 2),
                    hands=tuple(_cards(h) for h in hands), trick=(), tricks=(0, 0, 0), to_act=leader,
                    first_trick=False)


def test_hand_checked_the_side_ace_led_before_the_master_trump_is_ruffed() -> None:
    # Trump spades.  Seat 0: A♠ A♥; seat 1: K♠ 7♦; seat 2: 8♥ 9♦; seat 0 leads.
    # Lead A♥: seat 1 has no heart and must trump: K♠ takes (seat 0: 0).  Seat 1 leads 7♦, seat 2
    #   follows 9♦, seat 0 has no diamond and trumps with A♠ (seat 0: 1).  Lead A♥ is worth 1 trick.
    # Lead A♠: seat 1 must follow K♠, seat 2 throws either card; A♠ takes (1).  Then A♥: seat 1 has no
    #   heart nor trump left, throws 7♦; seat 2 follows or throws; A♥ takes (2).  Lead A♠ is worth 2.
    position = _khrap_position(["AS AH", "KS 7D", "8H 9D"], "S")
    solver = Solver(position, 0, tricks_of(0))
    values = solver.play_values()
    assert values == {(parse_card("AS"), False): 2, (parse_card("AH"), False): 1}
    assert solver.value() == 2
    # Seat 1 against seat 0's best: A♠ draws K♠, and 7♦ loses to A♥: nothing (A♥ led would give it 1).
    assert Solver(position, 1, tricks_of(1)).value() == 0
    # Seat 2: its 9♦ is trumped or beaten and its 8♥ is below A♥ whatever it keeps: nothing.
    assert Solver(position, 2, tricks_of(2)).value() == 0
    # Two tricks are a sure thing for seat 0 (A♠ first), three cannot be (two cards each).
    assert Solver(position, 0, at_least(0, 2)).value() == 1
    assert Solver(position, 0, at_least(0, 3)).value() == 0


def test_hand_checked_a_follower_keeps_the_trump_for_the_trick_it_can_take() -> None:
    # Trump hearts.  Seat 0 leads; seat 0: A♣ K♣; seat 1: Q♣ 2♥; seat 2: J♣ T♣.
    # Seat 1 must follow clubs while it holds Q♣, so on the first club it plays Q♣ (under A♣ or K♣):
    #   trick 1 goes to seat 0 (the ace or king is highest).  On the second club seat 1 has only 2♥,
    #   has no club and must trump: 2♥ beats any club.  Seat 1 takes 1 trick whatever seat 0 leads,
    #   seat 0 takes 1, seat 2 (lower clubs) none.
    position = _khrap_position(["AC KC", "QC 2H", "JC TC"], "H")
    assert Solver(position, 1, tricks_of(1)).value() == 1
    assert Solver(position, 0, tricks_of(0)).value() == 1
    assert Solver(position, 2, tricks_of(2)).value() == 0


def test_makeable_names_a_first_card_that_makes_the_obligation() -> None:
    for seed in range(200):
        state = in_play("khrap", 3, seed, 4)
        if state is None or state.to_act not in state.in_play:
            continue
        seat = state.to_act
        need = obligation(state, seat)
        if need == 0:
            continue
        found = makeable(state, seat)
        most = best_results(state, "tricks")[seat]
        assert (found is not None) == (most >= need) == can_make(state, seat)
        if found is not None:  # playing that card keeps the obligation sure
            position = position_of(state)
            solver = Solver(position, seat, at_least(seat, need))
            assert solver.play_values()[found.play] == 1
            return
    pytest.fail("no makeable obligation met in 200 deals")


def test_the_deadline_stops_the_search_inside_it() -> None:
    state = in_play("khrap-shoot", 6, 5, 4)
    assert state is not None
    position = position_of(state)
    solver = Solver(position, state.to_act, deadline=time.perf_counter() - 1)
    with pytest.raises(SolverTimeout):
        solver.value()
    assert solver.nodes <= 1024  # stopped within a few checks, not at the end


def test_the_taker_is_the_kernels_best_entry_first_of_equals() -> None:
    """``Kernel.taker`` (the (class, rank) pair compared as one number) names the seat of the kernel's
    ``trick.best`` on tricks of every size, with jokers, any trump or none, and ties (two off-suit cards of one
    rank, two jokers): the first of equals takes.  Hand-checked first: hearts led, the 5 of spades and the 5
    of clubs off-suit after the 2 of hearts, no trump: the 2 of hearts takes; a joker led as the joker and a
    second joker: the first."""
    from khrap.engine import trick as kernel_trick

    state = next(s for s in (in_play("khrap", 4, seed, 8) for seed in range(40)) if s is not None)
    kernel = Kernel(position_of(state))
    kernel.trump = None
    hearts_2, spades_5, clubs_5 = parse_card("2h"), parse_card("5s"), parse_card("5c")
    assert kernel.taker(((0, hearts_2, False), (1, spades_5, False), (2, clubs_5, False))) == 0
    assert kernel.taker(((3, spades_5, False), (0, clubs_5, False))) == 3  # spades led: the 5 of spades
    assert kernel.taker(((2, 0, True), (3, 1, True), (0, 51, False))) == 2
    rng = random.Random(7)
    for _ in range(3000):
        trump = rng.choice([None, 0, 1, 2, 3])
        kernel.trump = trump
        cards = rng.sample(range(52), rng.randint(1, 6))
        trick = tuple((seat, card % 13 + 13 * rng.choice([card // 13, 0]), rng.random() < 0.1)
                      for seat, card in enumerate(cards))
        assert kernel.taker(trick) == kernel_trick.best(trick, trump)[0][0], trick


def test_the_plays_strongest_first_in_the_kernels_order_first_listed_first_of_equals() -> None:
    """``Kernel.strongest_first`` (the solver's move ordering: integer keys in one loop) orders the plays by the
    kernel's ``strength`` on the trick, highest first, the first listed first among equals, as a stable sort
    does.  Hand-checked first: hearts led, spades trump: the 3 of spades (trump), then the king and the 2 of
    hearts (the led suit), then the ace and the 5 of clubs (off-suit, by rank); off-suit cards of one rank keep
    the order listed (the 5 of clubs before the 5 of diamonds, and after, when listed after); a joker played as the
    joker first of all.  An empty trick: each card as if it were led, by rank, a trump above."""
    state = next(s for s in (in_play("khrap", 4, seed, 8) for seed in range(40)) if s is not None)
    kernel = Kernel(position_of(state))
    kernel.trump = 0  # spades
    card = parse_card
    trick = ((0, card("7h"), False),)
    plays = [(card("5c"), False), (card("2h"), False), (card("ac"), False), (card("3s"), False),
             (card("kh"), False), (card("5d"), False)]
    assert kernel.strongest_first(plays, trick) == [
        (card("3s"), False), (card("kh"), False), (card("2h"), False), (card("ac"), False), (card("5c"), False),
        (card("5d"), False)]
    swapped = [(card("5d"), False), (card("5c"), False)]
    assert kernel.strongest_first(swapped, trick) == swapped
    assert kernel.strongest_first([(card("2h"), False), (card("9c"), True)], trick) == [
        (card("9c"), True), (card("2h"), False)]
    assert kernel.strongest_first([(card("5c"), False), (card("2s"), False), (card("kh"), False)], ()) == [
        (card("2s"), False), (card("kh"), False), (card("5c"), False)]
    rng = random.Random(11)
    for _ in range(2000):  # and as the sort it replaced, on random plays and tricks
        kernel.trump = rng.choice([None, 0, 1, 2, 3])
        plays = [(c, rng.random() < 0.1) for c in rng.sample(range(52), rng.randint(1, 12))]
        trick = tuple((seat, c, rng.random() < 0.1) for seat, c in enumerate(rng.sample(range(52), rng.randint(0, 3))))
        expected = sorted(plays, key=lambda p: kernel.strength(p[0], p[1], trick), reverse=True)
        assert kernel.strongest_first(plays, trick) == expected, (plays, trick)


def test_a_settlement_kept_by_what_it_reads_is_the_kernels_own() -> None:
    """``Kernel(alike=...)`` keeps each settlement by ``settles_as`` (the statuses, declarer, calls, stakes, round,
    stacks, locked stakes, pot, trump, share) and hands it to any later position of the same rules with the same
    facts: on leaves of random deals of every built-in, each also changed in one fact a settlement reads (the pot,
    a stack, a locked stake, the declarer's stake, his round), one kept dict per variant, every seat's gain for
    every split of the tricks left is the kernel's own settlement of that deal.  A key without the pot, the
    declarer's stake or his round fails it (those deals then find the unchanged deal's settlement); the stacks and
    locked stakes change a gain only where payments are capped (no debts) or a house takes a share, none of the
    built-ins here: kept in the key, not shown by this test.  Where a penalty reads the cards held
    (frap), nothing is kept."""
    checked = 0
    for variant in builtin_names():
        alike: dict = {}
        for seed in range(12):
            state = in_play(variant, 4, seed, 2)
            if state is None:
                continue
            declarer = state.declarer
            assert declarer is not None
            changed = []
            for change in ("pot", "stack", "locked", "stake", "round"):
                other = fast_clone(state)
                if change == "pot":
                    other.pot += 3
                elif change == "stack":
                    other.stacks[declarer] += 5
                elif change == "locked":
                    other.locked[declarer] += 2
                elif change == "stake":
                    other.stake_of[declarer] += 2
                else:
                    other.declarer_round += 1
                changed.append(other)
            for deal in (state, *changed):
                position = position_of(deal)
                kept, fresh = Kernel(position, alike=alike), Kernel(position)
                left = sum(len(h) for h in deal.hands) // len(position.order)
                for taker in position.order:  # the tricks left all to one seat in play, then split with the next
                    for split in range(left + 1):
                        tricks = list(deal.tricks)
                        tricks[taker] += split
                        tricks[kernel_next(position, taker)] += left - split
                        assert kept.chips(tuple(tricks)) == fresh.chips(tuple(tricks)), (variant, seed, tricks)
        checked += bool(alike)  # (some leaves were settled through it)
    assert checked >= 4


def kernel_next(position: Position, seat: int) -> int:
    """The seat in play after ``seat``."""
    order = position.order
    return order[(order.index(seat) + 1) % len(order)]
