"""The kernel's shuffle and choice give exactly what ``random.Random`` gives, call for call."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from khrap.engine.randomness import chooser, shuffle
from tests.conftest import examples


@pytest.mark.large
@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 60))
def test_shuffle_is_the_standard_shuffle(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()  # the same draws were made: what follows is the same too


@pytest.mark.large
@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**64), sizes=st.lists(st.integers(1, 300), min_size=1, max_size=30))
def test_chooser_is_the_standard_choice(seed: int, sizes: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    choose = chooser(ours)
    assert [choose(range(n)) for n in sizes] == [theirs.choice(range(n)) for n in sizes]
    assert ours.getstate() == theirs.getstate()


def test_chooser_refuses_an_empty_sequence() -> None:
    with pytest.raises(IndexError):
        chooser(random.Random(1))([])


class Halves(random.Random):
    """A generator that draws below n from ``random()``, so it must not be read through ``getrandbits``."""

    def random(self) -> float:
        return super().random() / 2


def test_another_generator_is_used_through_its_own_methods() -> None:
    ours, theirs = Halves(5), Halves(5)
    a, b = list(range(40)), list(range(40))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert [chooser(ours)(a) for _ in range(20)] == [theirs.choice(b) for _ in range(20)]
