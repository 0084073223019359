"""A legal action as the page offers it (``Table._describe``): its ``text`` is the codec's words
(``format_action``, given the card words the table made natively), over every action the built-ins offer over
seeded deals; the codec's own two branches are tests/test_action_words.py's."""

from __future__ import annotations

import random

import pytest

from khrap.engine.actions import Action, _general_words
from khrap.variant.catalog import builtin, builtin_names
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds


@pytest.mark.parametrize(("action", "text"), [
    (Action("exchange", cards=(0, 12)), "exchange 2S AS"),  # 0 is 2S, 12 AS (tests/test_card_words.py)
    (Action("discard", cards=(24,)), "discard KH"),
    (Action("play", cards=(34,)), "play TD"),
    (Action("exchange"), "exchange"),  # an exchange of no card
    (Action("play", cards=(51,), joker=True), "play AC joker"),  # the codec's branch from here on
    (Action("exchange", cards=(13,), source="bottom"), "exchange 2H from bottom"),
    (Action("exchange", cards=(13,), source=2), "exchange 2H from 2"),
    (Action("trump", suit=1), "trump H"),
])
def test_an_actions_text_is_the_codecs_words(action: Action, text: str) -> None:
    assert Table._describe(action)["text"] == text


@pytest.mark.parametrize("name", builtin_names())
def test_every_offered_action_is_written_as_the_codec_writes_it(name: str) -> None:
    table = Table.create(builtin(name), name=name, source=None, players=4, stacks=1000, base_stake=1, bots={},
                         deals=6, session_seed=3, seed_source=fixed_seeds(f"describe-{name}"))
    rng, offered = random.Random(name), 0
    while not table.finished:
        if not table.in_deal:
            table.start_deal()
            continue
        legal = table.session.legal_actions()
        for action in legal:
            assert Table._describe(action)["text"] == _general_words(action)
            offered += 1
        table.apply(table.session.to_act, str(rng.choice(legal)))
    assert offered > 200
