"""``Session.apply`` of a listed action's words (what a page sends back) takes the listed action as listed,
without parsing and checking it: tested here against the general path (the same action written otherwise,
so parsed and checked) at every decision of deals of every built-in variant."""

import random

import pytest

import khrap.session.core as core
from khrap.session import IllegalAction, Session
from khrap.variant.catalog import builtin_names


def _otherwise(text: str) -> str:
    """The same action in other words the kernel reads alike (lower case, spaces doubled): never a listed word."""
    return "  ".join(text.lower().split()) + " "


def _seen(game: Session) -> tuple:
    return (game.actions, [game.observation(s) for s in range(game.players)], [str(e) for e in game.state.log],
            game.state.stacks, game.legal_words())


@pytest.mark.parametrize("variant", builtin_names())
def test_a_listed_actions_words_do_what_the_general_path_does(variant: str) -> None:
    rng = random.Random(variant)
    game = Session(variant, 4, seed=7)
    decisions = 0
    while game.state.deals_completed < 2 and decisions < 400:
        if game.deal_over:
            game.start_deal()
            continue
        texts = [str(a) for a in game.legal_actions()]
        text = rng.choice(texts)
        general = game.clone()
        assert general.apply(_otherwise(text), seat=general.to_act) == text
        assert game.apply(text, seat=game.to_act) == text
        assert _seen(game) == _seen(general)
        decisions += 1
    assert game.state.deals_completed == 2


def test_a_listed_actions_words_are_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Session("khrap", 4, seed=3)
    game.start_deal()

    def unparsed(text: str) -> None:
        raise AssertionError(f"{text!r} parsed")

    monkeypatch.setattr(core, "parse_action", unparsed)
    word = game.legal_words()[0]
    assert game.apply(word) == word
    with pytest.raises(AssertionError, match="parsed"):  # the same action otherwise written is parsed
        game.apply(_otherwise(game.legal_words()[0]))


def test_a_listed_word_for_another_seat_is_refused() -> None:
    game = Session("khrap", 4, seed=3)
    game.start_deal()
    seat = game.to_act
    other = (seat + 1) % game.players
    with pytest.raises(IllegalAction, match=f"not seat {other}'s turn"):
        game.apply(game.legal_words()[0], seat=other)
    assert game.actions == []


def _to_a_decision_by_word(variant: str, word: str) -> Session:
    """A game whose pending decision is offered by ``word`` alone (its listing holds ``word CARD`` or ``word SUIT``)."""
    rng = random.Random(5)
    game = Session(variant, 4, seed=7)
    for _ in range(400):
        if game.deal_over:
            game.start_deal()
        elif game.legal_words() == [word]:
            return game
        else:
            game.apply(rng.choice([str(a) for a in game.legal_actions()]))
    raise AssertionError(f"no {word!r} decision reached in {variant}")


@pytest.mark.parametrize(("variant", "word", "refusal"), [
    ("khrap", "discard", "discard one card"),
    ("snore", "trump", "write 'trump SUIT'"),
])
def test_a_decisions_word_alone_is_refused_as_before(variant: str, word: str, refusal: str) -> None:
    # The word alone is what legal_words offers for the decision, but no listed action's text: it is
    # parsed and refused as before, never taken as the listing's first action ("discard" is not "discard KS").
    game = _to_a_decision_by_word(variant, word)
    before = list(game.actions)
    assert all(str(a) != word for a in game.legal_actions())
    with pytest.raises(IllegalAction, match=refusal):
        game.apply(word)
    assert game.actions == before and game.legal_words() == [word]


@pytest.mark.parametrize("variant", ["khrap", "snore"])
def test_a_listed_actions_words_are_found_not_written_again(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The listing's words are made once (legal_words, as a view offers them); the action the words name is found
    # among them, not formatted again for each action applied (some 6,000 instructions an action at the server).
    import khrap.engine.actions as actions

    rng = random.Random(11)
    game = Session(variant, 4, seed=5)
    for _ in range(60):
        if game.deal_over:
            game.start_deal()
            continue
        words, actions_listed = game.legal_words(), game.legal_actions()
        if len(words) != len(actions_listed):  # (a decision offered by its word alone: its cards are written)
            game.apply(str(rng.choice(actions_listed)))
            continue
        text = rng.choice(words)
        with monkeypatch.context() as m:
            m.setattr(actions, "format_action", lambda action: pytest.fail(f"{action!r} written again"))
            assert game.apply(text) == text
    assert game.actions
