"""Issue 16: worked examples that show the game's character (guards khrap/rulebook/example_deals.yaml,
the example deals as data, and the example's words in templates/narrative.j2)."""

from __future__ import annotations

import pytest

from khrap.rulebook.render import Words
from khrap.rulebook.sheet import example_deals, render_rules, worked_example
from khrap.rulebook.steps import STEPS, Ante, Call, Trick, Trump
from khrap.variant.catalog import builtin, builtin_names

SIGNATURE = {
    "khrap": {"merry", "sad", "wrap", "helicopter"},
    "khrap-52": {"merry", "wrap", "helicopter"},
    "khrap-shoot": {"shoot", "wrap"},
    "frap": {"blind-frap"},
    "snore": {"trump named"},
    "student-snore": {"joker"},
}


def shown(name: str) -> set[str]:
    example, _ = worked_example(builtin(name), name)
    calls = {e.call for e in example.events if isinstance(e, Call)}
    if any(isinstance(e, Trump) for e in example.events):
        calls.add("trump named")
    if any(play.joker for e in example.events if isinstance(e, Trick) for play in e.plays):
        calls.add("joker")
    return calls


def test_every_builtin_has_its_deal_as_data() -> None:
    assert set(example_deals()) == set(builtin_names())


@pytest.mark.parametrize("name", builtin_names())
def test_the_example_shows_the_signature_rule(name: str) -> None:
    found = shown(name) & SIGNATURE[name]
    assert found, f"{name}'s example shows none of {sorted(SIGNATURE[name])}"
    assert set(example_deals()[name]["shows"]) <= shown(name) | {"joker"}


@pytest.mark.parametrize("name", builtin_names())
def test_every_share_in_the_example_is_non_zero(name: str) -> None:
    example, _ = worked_example(builtin(name), name)
    paid = [i for i in example.settlement.items if i.kind in ("share", "redistribute", "prize")]
    assert paid and all(i.chips > 0 for i in paid), [(i.kind, i.chips) for i in paid]


@pytest.mark.parametrize("name", builtin_names())
def test_the_example_reads_as_a_deal(name: str) -> None:
    text = " ".join(render_rules(name, "txt", "en").split())
    example = text.split("A DEAL PLAYED OUT")[1]
    assert "seed" not in example
    assert "After the deal, the ante included, the players hold" in example
    spec = example_deals()[name]
    if spec["base_stake"] != 1:
        assert f"In this example a base stake is {spec['base_stake']} chips." in example


def test_a_call_is_explained_where_it_is_made() -> None:
    text = " ".join(render_rules("khrap", "txt", "en").split())
    assert "says Merry" in text and "(With the trump ace, show it, throw the rest" in text


def test_the_totals_include_the_ante() -> None:
    example, played = worked_example(builtin("khrap"), "khrap")
    ante = next(e.each for e in example.events if isinstance(e, Ante))
    assert ante == played.base_stake
    net = example.settlement.net
    assert [100 - ante + net.get(seat, 0) for seat in range(example.players)] == example.stacks_after


def test_each_trick_says_why_it_was_won() -> None:
    text = " ".join(render_rules("snore", "txt", "en").split())
    assert "B wins with the highest trump." in text and "wins with the highest card of the suit led." in text
    student = " ".join(render_rules("student-snore", "txt", "en").split())
    assert "wins with the joker." in student


def test_a_call_is_explained_once() -> None:
    text = " ".join(render_rules("snore", "txt", "en").split())
    assert text.count("(Play the hand against the snorer and take at least one trick.)") == 1


def test_a_pass_and_an_exchange_say_why() -> None:
    text = " ".join(render_rules("khrap", "txt", "en").split())
    assert "D says Pass. (With no trump and no ace they cannot count on a trick.)" in text
    assert "(With only 1 trump or ace they cannot count on enough tricks.)" in text
    assert ", keeping their trumps and high cards and throwing the low cards of other suits." in text
    assert "C discards 6♦, their weakest card, to keep the hand size." in text


def test_each_kind_of_step_is_worded_by_a_macro_of_its_own() -> None:
    """The sheet words a step by the macro its class names (no kind word to switch on): each exists, once."""
    words = Words(builtin("khrap"), "txt", "en")
    for kind in STEPS:
        assert callable(getattr(words.narrative, kind.sentence, None)), kind.__name__
    assert len({kind.sentence for kind in STEPS}) == len(STEPS)


@pytest.mark.parametrize("name", builtin_names())
def test_the_example_is_a_fold_into_typed_steps(name: str) -> None:
    """Every step of the record is of a step class; none carries a kind word or a data dict."""
    example, _ = worked_example(builtin(name), name)
    assert example.events and all(isinstance(e, STEPS) for e in example.events)
    assert not any(hasattr(e, "kind") or hasattr(e, "data") for e in example.events)
