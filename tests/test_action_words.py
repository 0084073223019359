"""The codec's words for an action (``format_action``): an action that names only cards is written by a fast
branch (the word, then the cards), every other by the general branch (``_general_words``); the two agree on every
action the built-ins list over seeded deals, and on hand-written actions of each field."""

from __future__ import annotations

import random

import pytest

from khrap.cards import CARD_WORDS
from khrap.engine.actions import Action, _general_words, format_action
from khrap.session import Session
from khrap.variant.catalog import builtin, builtin_names


@pytest.mark.parametrize(("action", "text"), [
    (Action("exchange", cards=(0, 12)), "exchange 2S AS"),  # 0 is 2S, 12 AS (tests/test_card_words.py)
    (Action("discard", cards=(24,)), "discard KH"),
    (Action("play", cards=(34,)), "play TD"),
    (Action("exchange"), "exchange"),  # an exchange of no card
    (Action("khrap"), "khrap"),
    (Action("play", cards=(51,), joker=True), "play AC joker"),  # the general branch from here on
    (Action("exchange", cards=(13,), source="bottom"), "exchange 2H from bottom"),
    (Action("exchange", cards=(13,), source=2), "exchange 2H from 2"),
    (Action("take-five", source="bottom"), "take-five from bottom"),
    (Action("cut", take_turned=True), "cut trump"),
    (Action("wrap", position=2), "wrap 2"),
    (Action("trump", suit=1), "trump H"),
])
def test_an_actions_words_are_contracts(action: Action, text: str) -> None:
    assert format_action(action) == text
    assert format_action(action, [CARD_WORDS[c] for c in action.cards]) == text
    assert _general_words(action) == text
    assert str(action) == text


GENERAL = {"frap", "khrap-shoot", "student-snore"}
"""Built-ins that list an action of more than cards: ``cut trump``, ``wrap N``, ``... from bottom``."""


def _players(name: str) -> int:
    v = builtin(name)
    return max(v.players.min, min(v.players.max, 4))


@pytest.mark.parametrize("name", builtin_names())
def test_both_branches_write_every_listed_action_alike(name: str) -> None:
    game = Session(name, _players(name), seed=5)
    rng, listed, fast = random.Random(name), 0, 0
    for _ in range(6):
        game.start_deal()
        while not game.deal_over:
            legal = game.legal_actions()
            for action in legal:
                general = _general_words(action)
                assert format_action(action) == general
                assert format_action(action, [CARD_WORDS[c] for c in action.cards]) == general
                listed += 1
                fast += action.suit is None and not action.joker and not action.take_turned \
                    and action.position is None and action.source == "top"
            game.apply(rng.choice(legal), game.to_act)
    assert listed > 200 and fast > 0
    if name in GENERAL:  # (where the rules list actions with more than cards, the general branch wrote them too)
        assert fast < listed
