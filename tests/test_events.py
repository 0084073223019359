"""Events as data: what the kernel emits, who sees which field, and the log rendered from them per language."""

from __future__ import annotations

import ast
import json
import random
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from khrap import gamelog
from khrap.bots.knowledge import deal_facts
from khrap.cards import parse_card
from khrap.engine import GameState
from khrap.engine.actions import Action
from khrap.engine.events import EVERYTHING, Event, Ledger, LedgerItem, call_event, ledger_item
from khrap.variant.catalog import builtin, builtin_names

PACKAGE = Path(gamelog.__file__).resolve().parent.parent
C = parse_card


def _played(name: str, players: int, seed: int, deals: int = 3) -> GameState:
    state = GameState(builtin(name), players, seed=seed, stacks=40)
    rng = random.Random(seed)
    for _ in range(deals):
        if state.session_over:
            break
        state.start_deal()
        while state.pending is not None:
            state.apply(rng.choice(state.legal_actions()))
    return state


GAMES = [(name, players, seed) for name in builtin_names() for players in (3, 4) for seed in (1, 2)
         if builtin(name).players.min <= players <= builtin(name).players.max]


# ------------------------------------------------------------------ the log's sentences
@pytest.mark.parametrize(("event", "full", "public"), [
    (Event("anted", None, {"reason": "ante", "round": 1, "chips": 1, "pot": 4}),
     "ante: every player puts 1 in the pot; pot 4", None),
    (Event("anted", None, {"reason": "round", "round": 2, "chips": 1, "pot": 8}),
     "round 2: every player puts 1 in the pot; pot 8", None),
    (Event("dealt", None, {"dealer": 0, "size": 2}, {"hands": ((C("AS"), C("KH")), (C("7C"), C("6D")))}),
     "seat 0 deals 2 cards each (seat 0: AS KH; seat 1: 7C 6D)", "seat 0 deals 2 cards each"),
    (Event("turned", None, {"card": C("9H"), "trump": 1}), "9H is turned: H is trump", None),
    (call_event(2, "c", Action("c", take_turned=True), "c trump"), "seat 2: c trump", None),
    (call_event(1, "take-five", Action("take-five", source="bottom"), "take-five from bottom"),
     "seat 1: take-five from bottom", None),
    (call_event(0, "wrap", Action("wrap", position=2), "wrap 2"), "seat 0: wrap 2", None),
    (Event("drew", 1, {"count": 2, "source": "top"}, {"cards": (C("AS"), C("6D"))}),
     "seat 1 draws AS 6D", "seat 1 draws 2"),
    (Event("drew", 1, {"count": 1, "source": "bottom"}, {"cards": (C("AS"),)}),
     "seat 1 draws AS from bottom", "seat 1 draws 1 from bottom"),
    (Event("drew", 1, {"count": 1, "source": 3}, {"cards": (C("AS"),)}),
     "seat 1 draws AS from 3", "seat 1 draws 1 from 3"),
    (Event("exchanged", 3, {"count": 0}, {"cards": ()}), "seat 3 exchanges nothing", "seat 3 exchanges 0"),
    (Event("exchanged", 3, {"count": 2}, {"cards": (C("7C"), C("6D"))}), "seat 3 exchanges 7C 6D",
     "seat 3 exchanges 2"),
    (Event("discarded", 0, {}, {"card": C("TS")}), "seat 0 discards TS", "seat 0 discards a card"),
    (Event("played", 0, {"card": C("7S"), "joker": True}), "seat 0 plays 7S as the joker", None),
    (Event("took_trick", 2, {"count": 3}), "seat 2 takes the trick (3)", None),
    (Event("settling", None, {"pot": 12, "tricks": ((1, 3), (2, 1))}),
     "settlement: pot 12; tricks seat 1 3, seat 2 1", None),
    (Event("paid_out", 1, {"chips": 9, "pot": 3, "reason": "share", "tricks": 3, "unit": 3}),
     "seat 1 takes 9 (3 tricks × 3); pot 3", None),
    (Event("paid_in", 2, {"chips": 2, "pot": 5, "reason": "penalty", "status": "helper", "tricks": 0}),
     "seat 2 pays 2 (failed helper, 0 tricks); pot 5", None),
    (Event("paid_in", 2, {"chips": 1, "pot": 6, "reason": "stake", "status": "helper"}),
     "seat 2 pays 1 (helper's stake); pot 6", None),
    (Event("settled", None, {"stacks": (98, 103), "pot": 0, "ledger": None}),
     "deal settled; stacks 98, 103; pot 0", None),  # (a Python list before: "stacks [98, 103]")
])
def test_each_kind_reads_as_the_log_always_read(event: Event, full: str, public: str | None) -> None:
    assert event.text == full
    assert event.public == (public or full)
    if event.seat is not None:
        assert event.render("en", event.seat) == full  # the acting seat sees his own cards
    assert event.render("en", 5) == (public or full)  # another seat does not


def test_every_kind_the_kernel_emits_renders_in_every_language() -> None:
    kinds: set[str] = set()
    for name, players, seed in GAMES:
        state = _played(name, players, seed)
        for event in state.log:
            kinds.add(event.kind)
            for lang in gamelog.languages():
                assert event.render(lang, EVERYTHING) and event.render(lang, None)
    assert kinds <= gamelog.kinds()
    assert {"dealt", "called", "played", "took_trick", "settling", "paid_out", "settled"} <= kinds


def test_russian_log_is_russian() -> None:
    state = _played("khrap", 4, 3, deals=1)
    lines = [event.render("ru") for event in state.log]
    assert lines[0].startswith("ставка на кон: каждый кладёт в банк")  # seed 004: «ставит на кон», not «анте»
    assert any(line.startswith("место ") and "берёт взятку" in line for line in lines)
    assert all(not line.startswith("seat ") for line in lines)


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


@pytest.mark.parametrize("lang", [lang for lang in gamelog.languages() if lang != "en"])
def test_each_catalog_is_complete_and_keeps_every_placeholder(lang: str) -> None:
    from babel.messages.pofile import read_po

    with gamelog.catalog_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    found = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
    for context, message, plural in gamelog.entries():
        entry = found.get((context, message))
        assert entry is not None, f"gamelog.po ({lang}) lacks {message!r} (context {context})"
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert all(forms) and not entry.fuzzy, f"untranslated: {message!r}"
        assert (plural is not None) == isinstance(entry.id, tuple), message
        for form in forms:
            assert _placeholders(form) == _placeholders(plural or message), (message, form)
    wanted = {(context, message) for context, message, _plural in gamelog.entries()}
    assert set(found) <= wanted, f"gamelog.po ({lang}) holds messages no module uses: {set(found) - wanted}"


# --------------------------------------------------------------------- who sees what
SECRET_KINDS = {"drew": "cards", "exchanged": "cards", "discarded": "card"}


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_a_seat_sees_the_secret_fields_of_its_own_events_only(name: str, players: int, seed: int) -> None:
    state = _played(name, players, seed, deals=1)
    for seat in range(players):
        for event, seen in zip(state.log, (e.data(seat) for e in state.log), strict=True):
            assert seen["kind"] == event.kind
            if event.kind == "dealt":
                assert "hands" not in seen
            secret = SECRET_KINDS.get(event.kind)
            if secret:
                assert (secret in seen) == (event.seat == seat)
    obs = state.observation(0)
    assert obs["events"] == [e.data(0) for e in state.log[state.deal_log_start:]]
    assert json.loads(json.dumps(obs)) == obs  # JSON-ready, the settlement's ledger included


def test_bots_read_the_events_not_the_text() -> None:
    """The knowledge of a seat comes from events: rewording a sentence cannot change it."""
    state = _played("khrap", 4, 5, deals=1)
    events = [e.data(1) for e in state.log]
    facts = deal_facts(events, 1)
    played = [(e.seat, e.fields["card"], e.fields["joker"]) for e in state.log if e.kind == "played"]
    assert facts.played == played
    assert len(facts.tricks) == sum(1 for e in state.log if e.kind == "took_trick")


def test_the_settled_event_carries_the_ledger_of_a_played_deal() -> None:
    for name, players, seed in GAMES:
        state = GameState(builtin(name), players, seed=seed, stacks=40)
        rng = random.Random(seed)
        state.start_deal()
        before = list(state.stacks)
        locked = None
        while state.pending is not None:
            if state.phase == "play" and locked is None:
                locked, before = list(state.locked), list(state.stacks)
            state.apply(rng.choice(state.legal_actions()))
        settling = [e for e in state.log if e.kind == "settling"]
        ledger = state.log[-1].fields["ledger"]
        if not settling:
            assert ledger is None
            continue
        assert isinstance(ledger, Ledger) and ledger.pot == settling[0].fields["pot"]
        assert ledger.items[-1] == LedgerItem("left", None, state.pot, state.pot)
        gained = {seat: 0 for seat in range(players)}
        for item in ledger.items:
            if item.kind in ("share", "prize", "redistribute", "rounding", "unlock"):
                gained[item.seat] += item.chips
            elif item.kind == "penalty":
                from_lock = min(item.chips, locked[item.seat])
                locked[item.seat] -= from_lock
                gained[item.seat] -= item.chips - from_lock
        assert [before[s] + gained[s] for s in range(players)] == state.stacks, (name, players, seed)


# --------------------------------------------------------------------- no text is read back
READ_THE_LOG = ("bots/knowledge.py", "sim/records.py", "rulebook/example.py", "rulebook/arithmetic.py",
                "play/game.py", "play/screen.py", "engine")


def test_no_regular_expression_reads_the_log() -> None:
    """The modules that once read the log's wording import no ``re`` at all now."""
    for where in READ_THE_LOG:
        paths = sorted((PACKAGE / where).rglob("*.py")) if (PACKAGE / where).is_dir() else [PACKAGE / where]
        for path in paths:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
            assert "re" not in imported, f"{path.relative_to(PACKAGE)} imports re"
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\.(text|public)\b.*\.(startswith|match)\(|re\.\w+\(.*\b(log|history)\b", text), path


# ------------------------------------------------------------------------ khrap play --lang
def test_play_watch_in_russian() -> None:
    result = subprocess.run([sys.executable, "-m", "khrap.cli", "play", "khrap", "--watch", "--seed", "2",
                             "--deals", "1", "--bots", "random", "--lang", "ru"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Сдача 1: сдаёт место 0." in result.stdout
    assert "── сдача 1: расчёт" in result.stdout
    assert "берёт взятку" in result.stdout and "takes the trick" not in result.stdout
    assert "Игра окончена после 1 сдачи" in result.stdout


def test_play_refuses_an_unknown_language() -> None:
    result = subprocess.run([sys.executable, "-m", "khrap.cli", "play", "khrap", "--watch", "--lang", "xx"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "--lang xx" in result.stderr and "en, fi, hy, lt, ru" in result.stderr


def test_the_ledger_pays_penalties_from_the_lock_and_the_remainder_to_the_most_tricks() -> None:
    """Khrap-52 (locked stakes, penalty = the stake, redistribution) with remainder: most_tricks, worked by
    hand: P = 11, unit 11 // 4 = 2; seat 0 (declarer, 3 tricks) and seat 1 (helper, 1 trick) are paid
    their shares, seat 2 (helper, no trick) fails and pays his stake of 11 out of his lock; the locks of
    seats 0 and 1 come back; the pot of 14 is divided 3:1 (10 and 3) and the 1 left goes to seat 0."""
    from khrap.rulebook import arithmetic

    v = builtin("khrap-52")
    v = v.model_copy(update={"settlement": v.settlement.model_copy(update={"remainder": "most_tricks"})})
    players = [arithmetic.Player(0, "declarer", "khrap", 3, 22, 22), arithmetic.Player(1, "helper", "help", 1, 11, 11),
               arithmetic.Player(2, "helper", "help", 0, 11, 11)]
    result = arithmetic.itemize(v, arithmetic.Table(11, players, seats=3, stacks=[0, 0, 0], trump="H"))
    assert [(i.kind, i.seat, i.chips, i.pot) for i in result.items] == [
        ("share", 0, 6, 5), ("share", 1, 2, 3), ("penalty", 2, 11, 14), ("unlock", 0, 22, 14), ("unlock", 1, 11, 14),
        ("redistribute", 0, 10, 4), ("redistribute", 1, 3, 1), ("rounding", 0, 1, 0), ("left", None, 0, 0)]
    assert result.failed == [2] and result.net == {0: 6 + 22 + 10 + 1, 1: 2 + 11 + 3, 2: 0}


def test_ledger_item_is_the_named_tuple_with_its_defaults() -> None:
    """The recorder's items are made by ``ledger_item`` (``tuple.__new__``, not the named tuple's interpreted
    ``__new__``): the same class, and the same defaults, field by field."""
    assert type(ledger_item("left", None, 5, 5)) is LedgerItem
    assert ledger_item("left", None, 5, 5) == LedgerItem("left", None, 5, 5)  # every default
    assert ledger_item("left", None, 5, 5).owed == 0 and ledger_item("left", None, 5, 5).detail == ""
    for i, name in enumerate(LedgerItem._field_defaults):  # each one given alone lands in its own field
        value = "stake" if name == "detail" else 11 + i
        assert ledger_item("penalty", 2, 7, 30, **{name: value}) == LedgerItem("penalty", 2, 7, 30, **{name: value})
    assert ledger_item("penalty", 2, 7, 30, owed=9)[-1] == 9


def test_textless_events_say_what_moved_silently() -> None:
    """``GameState.quiet``: cards thrown face down, statuses with the chips they lock, locks returned;
    each placed in the narrated log by ``at``, and none of them in the log itself."""
    from khrap.variant.catalog import builtin, builtin_names

    kinds: set[str] = set()
    for seed, name in [(seed, name) for seed in range(6) for name in builtin_names()]:
        state = GameState(builtin(name), 4, seed=seed)
        rng = __import__("random").Random(seed)
        state.start_deal()
        while state.pending is not None:
            state.apply(rng.choice(state.legal_actions()))
        for event in state.quiet:
            assert 0 <= event.fields["at"] <= len(state.log)
            kinds.add(event.kind)
            if event.kind == "threw":
                assert len(event.secret["cards"]) == event.fields["count"]
            elif event.kind == "unlocked":
                assert event.fields["chips"] > 0
        assert not {e.kind for e in state.log} & {"threw", "status", "unlocked"}
    assert kinds == {"threw", "status", "unlocked"}, kinds
