"""Typed refusals (``engine.refusal``): a code and its values, the English sentence made in one place.

Every code has its English sentence and its game-log message, and every catalog (ru, lt, fi, hy) says that
message with the same placeholders; the English of a refusal is CONTRACT.md's (the scenarios and
``tests/test_refusal_tables.py`` hold the sentences byte for byte); a table says a refusal from its code.
"""

from __future__ import annotations

import pickle
import string

import pytest

from khrap import gamelog
from khrap.engine import GameState, IllegalAction
from khrap.engine.decisions import DECISIONS  # noqa: F401 - the registry registers its offers' codes
from khrap.engine.refusal import ENGLISH, Refusal
from khrap.gamelog.voice import Voice
from khrap.play import refusals
from khrap.session import Session
from khrap.variant.catalog import builtin

OTHER_LANGUAGES = [lang for lang in gamelog.languages() if lang != "en"]


def _fields(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_every_code_has_a_message() -> None:
    # A kind of decision a rule offers (``offer_<kind>``, registered by the registry) is said by the one offer
    # sentence; every other code has its own message, and no message is left without its code.
    offers = {code for code in ENGLISH if code.startswith(refusals.OFFERED)}
    assert "offer_double" in offers
    assert set(ENGLISH) - offers == set(refusals.MESSAGES)
    assert all(refusals.known(Refusal(code, seat=1, answers=("a", "b"))) for code in offers)


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_code_is_said_in_every_catalog(lang: str) -> None:
    catalog = gamelog.translations(lang)
    for code, message in [*refusals.MESSAGES.items(), ("offer_double", refusals.OFFER_MESSAGE)]:
        said = catalog.gettext(message)
        assert said != message, f"{lang}: {code} ({message!r}) is not translated"
        assert _fields(said) == _fields(message), (lang, code)
        assert _fields(message) <= _fields(ENGLISH[code]) | {"position"}, code


def test_the_english_is_made_from_the_code() -> None:
    # Hand-written: CONTRACT.md's sentences, suits as letters and cards as codes.
    assert Refusal("follow", seat=2, suit=1) == "seat 2 must follow suit (H)"
    assert Refusal("not_held", seat=0, cards=(12, 8 + 13)) == "seat 0 does not hold AS TH"
    assert Refusal("needs_declarer", call="help", calls=("khrap", "frap")) == \
        "help needs a khrap or frap to have been called"
    assert Refusal("pot_cap", call="heli", n=24, per=(2, 4), m=30) == \
        "heli may not be called while the pot exceeds 24 (2 base stakes × 4 players); the pot holds 30"
    refusal = Refusal("short_other", call="khrap", seat=3, role="helper", n=40, m=7)
    assert (refusal.code, refusal.fields["seat"]) == ("short_other", 3)
    copied = pickle.loads(pickle.dumps(refusal))
    assert (copied, copied.code, copied.fields) == (refusal, refusal.code, refusal.fields)


def test_a_refused_action_carries_its_code_and_a_russian_table_says_it() -> None:
    # The CONTRACT example (tests/scenarios/khrap/contract_example.yaml): seat 2 holds hearts (QH 6H) and
    # must follow the led KH: playing AD is refused.
    game = Session("khrap", 4, seed=0, decks=["AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"])
    game.start_deal()
    for seat, text in ((1, "khrap"), (2, "help"), (3, "pass"), (0, "pass"), (3, "pass"), (0, "pass"),
                       (1, "exchange 6D 7C"), (2, "exchange 8C"), (1, "play KH")):
        game.apply(text, seat)
    with pytest.raises(IllegalAction) as caught:
        game.apply("play AD", 2)
    reason = caught.value.reason
    assert isinstance(reason, Refusal) and (reason.code, reason.fields) == ("follow", {"seat": 2, "suit": 1})
    assert str(caught.value) == "seat 2 must follow suit (H)"
    assert refusals.say(Voice("ru", game.variant), reason) == "место 2 должно ходить в масть (♥)"
    assert refusals.say(Voice("fi", game.variant), reason) != str(reason)


def test_the_face_refuses_with_codes() -> None:
    state = GameState(builtin("khrap"), 4, seed=1)
    state.start_deal()
    with pytest.raises(IllegalAction) as caught:
        state.apply("pass", (state.seat + 1) % 4)
    assert caught.value.reason.code == "not_turn"


def test_an_offered_kind_with_no_message_of_its_own_is_said_by_its_answers(monkeypatch) -> None:
    # A kind a house rule might add (issue 31: no terminal file changes for it): its refusal code is registered
    # with its English only, and a Russian table still says it, its answers by their names in the registry (a
    # word no entry names as it is).  The doubling rule's own refusal is said the same way.
    monkeypatch.setitem(ENGLISH, "offer_raise", "seat {seat} is asked whether he raises: {answers}")
    variant = builtin("khrap")
    raised = Refusal("offer_raise", seat=3, answers=("no-raise", "raise"))
    assert str(raised) == "seat 3 is asked whether he raises: no-raise or raise"
    assert refusals.known(raised)
    assert refusals.say(Voice("ru", variant), raised) == "место 3 сейчас должно ответить: no-raise или raise"
    doubled = Refusal("offer_double", seat=2, answers=("no-double", "double"))
    assert refusals.say(Voice("ru", variant), doubled) == "место 2 сейчас должно ответить: Не удваиваю или Удваиваю"
    assert refusals.say(Voice("en", variant), doubled) == (
        "seat 2 is asked whether he doubles the declarer's stake: no-double or double")  # CONTRACT.md's English
