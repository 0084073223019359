"""Issue 31: what a seat did is read from typed fields, never by splitting action words.

- the terminal's call column names a seat's call by its id (``Voice.call``), which it parsed as words before
  (``Voice.action_words``);
- the game log words an answer to a rule's offer (a ``decided`` event) from the event's typed fields
  (``events.decided_event``: answer, source, position, take_turned, cards), not by splitting its ``action`` words
  (``Voice.decided_words``);
- the page's trump buttons read the described action's typed ``suit``, not the second word of its text.

The hand-checked lines are worked from the variants' names (variants/khrap.yaml, frap.yaml) and the doubling
rule's registry names (engine/compiled/face.py); the equality tests hold the new readers to the old ones, kept
here as they were, over random deals of the six built-ins in every language.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from khrap.cards import parse_card
from khrap.engine import GameState, Rules
from khrap.engine import events as ev
from khrap.engine.actions import Action, ActionError, parse_action
from khrap.engine.decisions import display_name
from khrap.gamelog import render
from khrap.gamelog.voice import Voice
from khrap.session import Session
from khrap.variant.catalog import builtin, load_variant
from khrap.variant.loader import ANYWHERE, trusting
from khrap.web.table import Table

BUILTINS = ("khrap", "khrap-52", "khrap-shoot", "frap", "snore", "student-snore")
LANGS = ("en", "ru", "lt", "fi", "hy")
DOUBLE = Path(__file__).resolve().parents[1] / "docs" / "house-rules" / "khrap-double.yaml"
# CONTRACT.md's example deal: dealer 0; seat 1 AS KH 7C 6D, seat 2 QH 6S 8C AD, seat 3 7S 8S 9S TS,
# seat 0 JS 6C 7D 8D; 9H turned.
CONTRACT_DECK = "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"


def old_action_words(voice: Voice, words: str) -> str:
    """``Voice.action_words`` as it was (the terminal's call column): the words parsed back into an action."""
    if voice.codes:
        return words
    try:
        return voice.action(parse_action(words))
    except (ActionError, ValueError):
        return words


def old_decided_words(voice: Voice, words: str) -> str:
    """``Voice.decided_words`` as it was (a ``decided`` line): the first word named, the rest as written."""
    word, *rest = words.split(" ")
    return " ".join([display_name(word, voice.lang) or word, *rest])


def _row(screen: str, seat: int, lang: str) -> str:
    name = {"en": "seat", "ru": "место"}[lang]
    return next(line for line in screen.splitlines() if line[2:].startswith(f"{name} {seat} "))


@pytest.mark.parametrize(("lang", "calls"), [
    ("ru", {1: "Храп", 2: "Помогу", 3: "Пас", 0: "Пас"}),
    ("en", {1: "khrap", 2: "help", 3: "pass", 0: "pass"}),  # (English: CONTRACT's words, as typed)
])
def test_the_terminal_names_each_seats_call(lang: str, calls: dict[int, str]) -> None:
    # CONTRACT.md's example: seat 1 khraps, seat 2 helps, seats 3 and 0 pass.
    from khrap.play.screen import render as screen

    session = Session("khrap", 4, seed=7, decks=[[parse_card(c) for c in CONTRACT_DECK.split()]])
    session.start_deal()
    for words in ("khrap", "help", "pass", "pass"):
        session.apply(words)
    shown = screen(session, 1, lang)
    for seat, call in calls.items():
        assert f" {call} " in _row(shown, seat, lang), (seat, _row(shown, seat, lang))


def _double_state() -> GameState:
    """test_double's deal: seat 1 khraps, seat 2 helps with three aces and is asked whether he doubles."""
    with trusting(ANYWHERE):
        rules = Rules(load_variant(str(DOUBLE)), 4)
    deck = "6S AH 8S 8C 7S KH 9S 9C 6C AS TS TC 7C AC JS JC 9H"
    state = GameState(rules, 4, seed=1, decks=[[parse_card(c) for c in deck.split()]])
    state.start_deal()
    for words in ("khrap", "help", "pass", "pass", "pass", "pass", "exchange", "exchange"):
        state.apply(words)
    return state


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "seat 2: No double"), ("ru", "место 2: Не удваиваю"), ("fi", "paikka 2: En tuplaa"),
])
def test_a_declined_offer_is_told_by_its_answer_not_by_the_kind(lang: str, line: str) -> None:
    # The kind is "double", the answer "no-double": the line names the answer (the registry's name for it).
    state = _double_state()
    state.apply("no-double")
    event = state.log[-1]
    assert isinstance(event, ev.Decided) and event.fields["answer"] == "no-double"
    assert event.fields["decision"] == "double"
    assert event.render(lang) == line


def test_an_answer_is_told_from_its_typed_fields_not_its_words() -> None:
    # An answer whose words say something else (a reader that split them would say "OTHER WORDS").
    event = ev.decided_event(2, "double", Action("double"), "OTHER WORDS")
    assert render(event, "ru") == "место 2: Удваиваю"
    assert render(event, "ru", voice=Voice("ru", builtin("khrap"))) == "место 2: Удваиваю"


def _states(name: str, deals: int, seed: int):
    """Random deals of ``name`` at four seats: the state before each action, and after the deal's last."""
    rules = Rules(builtin(name), 4)
    rng = random.Random(seed)
    state = GameState(rules, 4, seed=seed, stacks=1000)
    for _ in range(deals):
        if state.session_over:
            break
        state.start_deal()
        while state.pending is not None:
            yield state
            state.apply(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("name", BUILTINS)
def test_the_call_column_says_what_the_parsed_words_said(name: str) -> None:
    voices = [Voice(lang, builtin(name), codes=lang == "en") for lang in LANGS]
    checked = 0
    for state in _states(name, 30, 31):
        for cid in state.observation(0)["calls"]:
            if cid is None:
                continue
            for voice in voices:
                assert voice.call(cid) == old_action_words(voice, cid), (name, voice.lang, cid)
                checked += 1
    assert checked > 100


def test_an_answers_line_says_what_the_split_words_said() -> None:
    # Random deals of the doubling house rule: every decided line in every language and voice, old and new.
    with trusting(ANYWHERE):
        variant = load_variant(str(DOUBLE))
    rules = Rules(variant, 4)
    rng = random.Random(3)
    state = GameState(rules, 4, seed=3, stacks=1000)
    voices = [Voice(lang, variant, codes=codes) for lang in LANGS for codes in (False, True)]
    told = 0
    for _ in range(60):
        state.start_deal()
        while state.pending is not None:
            state.apply(rng.choice(state.legal_actions()))
        for event in state.log:
            if isinstance(event, ev.Decided):
                for voice in voices:
                    line = render(event, voice.lang, voice=voice)
                    old = voice.t("seat {seat}: {action}").format(
                        seat=event.seat, action=old_decided_words(voice, event.fields["action"]))
                    assert line == old, (voice.lang, line, old)
                    told += 1
        state.log.clear()
    assert told >= 20


def test_a_trump_button_reads_the_actions_typed_suit() -> None:
    # The page's trump buttons read ``suit`` (the letter), which the old page took from the text's second word.
    seen = set()
    for state in _states("snore", 40, 7):  # (the built-in whose declarer names trump)
        if state.pending is None:
            continue
        for action in state.legal_actions():
            described = Table._describe(action)
            if action.word == "trump":
                assert described["suit"] == described["text"].split(" ")[1]
                seen.add(described["suit"])
            else:
                assert described["suit"] is None
    assert seen == {"S", "H", "D", "C"}
    assert Table._describe(Action("trump", suit=1))["suit"] == "H"
