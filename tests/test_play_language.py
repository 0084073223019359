"""The terminal game and replays in the player's language (issue 30): no English word and no card code at
a Russian table, calls typed in the language's words (and the ids, always), "did you mean", the sheet's
rules of the step at `?`, every kernel refusal said in the language, `khrap replay --lang`."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from khrap.engine import GameState
from khrap.engine.decisions import refusal
from khrap.gamelog import languages
from khrap.gamelog.voice import Voice
from khrap.play import Table, refusals, run
from khrap.play.reader import Reader, Unreadable
from khrap.session import Session
from khrap.variant.catalog import builtin, builtin_names

OTHER_LANGUAGES = [lang for lang in languages() if lang != "en"]

# Words an English table says, by hand: none may show at a table in another language.
FORBIDDEN = ("seat", "deal", "deals", "pass", "khrap", "help", "play", "plays", "exchange", "discard", "trump",
             "pot", "stack", "stacks", "tricks", "trick", "choose", "type", "players", "bots", "you", "the",
             "take-five", "settled", "legal", "unknown", "call", "cards", "round", "ante", "declarer", "helper", "quit")
CARD_CODE = re.compile(r"(?<![\w-])(?:[2-9TJQKA][SHDC])(?!\w)")
LATIN_WORD = re.compile(r"(?<![-\w])[A-Za-z]{2,}")  # an option such as --save is a command's, not a word


NOT_LATIN = {"ru", "hy"}
"""Languages with a script of their own: any word in Latin letters there is English."""


def english_in(text: str, lang: str = "ru") -> list[str]:
    """The English words and card codes in ``text`` (in ``lang``'s script: any Latin word)."""
    found = LATIN_WORD.findall(text) if lang in NOT_LATIN else []
    found += [w for w in re.findall(r"[\w-]+", text) if w.lower() in FORBIDDEN]
    return found + CARD_CODE.findall(text)


# ------------------------------------------------------------------ the whole table
@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
@pytest.mark.parametrize("name", builtin_names())
def test_a_table_in_another_language_shows_no_english_and_no_card_code(name: str, lang: str) -> None:
    players = 3 if name == "student-snore" else 4
    for humans in ([0], []):  # a player's screen, and the watcher's (every card, every event kind told)
        game = Session(name, players, seed=11)
        out: list[str] = []
        finished = run(game, Table(humans=humans, deals=2, lang=lang), read=lambda prompt: "1", write=out.append)
        assert finished
        text = "\n".join(out)
        assert not english_in(text, lang), (english_in(text, lang)[:10], text[-2000:])


def spawn(*args: str, cwd: Path):
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(sys.executable, ["-m", "khrap.cli", *args], cwd=str(cwd), encoding="utf-8",
                         timeout=90, dimensions=(60, 200))


def test_a_russian_game_typed_at_the_keyboard(tmp_path: Path) -> None:
    """Seed 3: seats 1-3 pass and seat 0 is asked first.  A mistyped call gets «Храп» as what was meant;
    «пас» is accepted (the log says «место 0: Пас»); `?` prints the sheet's rules of the step; every other
    question is answered with choice 1 until the deal is settled."""
    import pexpect

    child = spawn("play", "khrap", "--lang", "ru", "--seed", "3", "--deals", "1", cwd=tmp_path)
    child.logfile_read = transcript = io.StringIO()
    child.expect_exact("место 0> ")
    child.sendline("кхрап")
    child.expect_exact("может быть, «Храп»? Можно: Храп, Пас")  # (it read "«Храп»?; можно:")
    child.sendline("?")
    child.expect_exact("ЗАЯВКИ")  # the course's step 1 and the calls' section of the Russian sheet
    child.expect_exact("место 0> ")
    child.sendline("пас")
    child.expect_exact("место 0: Пас")
    while True:
        found = child.expect_exact(["место 0> ", pexpect.EOF])
        if found == 1:
            break
        child.sendline("1")
    child.close()
    out = transcript.getvalue().replace("\r\n", "\n")
    assert child.exitstatus == 0, out
    assert "Игра окончена после 1 сдачи" in out
    assert not english_in(out), english_in(out)


# ------------------------------------------------------------------ typing
def reader(lang: str = "ru", name: str = "khrap") -> Reader:
    variant = builtin(name)
    return Reader(Voice(lang, variant, codes=lang == "en"), variant)


def test_calls_are_read_in_the_language_and_by_their_ids() -> None:
    r = reader()
    assert r.read("пас", None) == "pass" and r.read("Пас", None) == "pass" and r.read("pass", None) == "pass"
    assert r.read("Беру пять", None) == "take-five" and r.read("take-five", None) == "take-five"
    assert r.read("Вертолёт", None) == r.read("вертолет", None) == "helicopter"


def test_cards_are_read_as_the_language_writes_them() -> None:
    r = reader()
    # Russian В Д К Т are jack, queen, king, ace (the sheet's letters); a suit by symbol, letter or initial
    # (п пики, ч черви, б бубны, т трефы); the CONTRACT codes always.
    for typed in ("хожу В♠", "хожу Вп", "хожу вs", "В♠", "play JS", "JS", "хожу JS"):
        assert r.read(typed, "play") == "play JS", typed
    assert r.read("10ч", "play") == "play TH" and r.read("Тт", "discard") == "discard AC"
    assert r.read("меняю 6♦ Д♣", "exchange") == "exchange 6D QC"
    assert r.read("козырь черви", "trump") == "trump H" and r.read("♥", "trump") == "trump H"


def test_a_mistyped_word_gets_did_you_mean_in_the_language() -> None:
    with pytest.raises(Unreadable, match="«Храп»"):
        reader().read("кхрап", None)
    with pytest.raises(Unreadable, match="did you mean 'khrap'"):
        reader("en").read("kharp", None)
    with pytest.raises(Unreadable, match="unknown call 'exchnage'; did you mean 'exchange'"):
        reader("en").read("exchnage 9S", "exchange")


# ------------------------------------------------------------------ refusals
@pytest.mark.parametrize("name", builtin_names())
def test_every_refusal_of_the_kernel_is_said_in_russian(name: str) -> None:
    """Every action number of the space tried at each decision of random deals: each refusal the kernel
    gives is one the table can say in Russian (a new refusal sentence needs its pattern and translation)."""
    rng = random.Random(name)
    players = 3 if name == "student-snore" else 4
    state = GameState(builtin(name), players, seed=rng.randrange(10**6))
    space = state.rules.action_space
    voice = Voice("ru", state.rules.variant)
    unknown: set[str] = set()
    for _ in range(3):
        if state.session_over:
            break
        state.start_deal()
        while state.pending is not None:
            hand = state.hands[state.seat]
            numbers = [n for n in range(space.exchange)] + rng.sample(range(space.exchange, space.size), 4)
            for n in numbers:
                try:
                    action = space.action(n, hand)
                except ValueError:
                    continue
                reason = refusal(state, action)
                if reason and not refusals.known(reason):
                    unknown.add(reason)
                elif reason:
                    said = refusals.say(voice, reason)
                    assert not english_in(said) or "{" in said, (reason, said)
            state.apply(rng.choice(state.legal_actions()))
    assert not unknown, sorted(unknown)


# ------------------------------------------------------------------ replays
def test_replay_in_russian(tmp_path: Path) -> None:
    game = Session("frap", 4, seed=5)
    out: list[str] = []
    run(game, Table(humans=[], deals=2), read=lambda prompt: "1", write=out.append)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(game.to_record()))
    result = subprocess.run([sys.executable, "-m", "khrap.cli", "replay", str(path), "--lang", "ru"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Фрап: игроков — 4")
    assert "Сдача 1: сдаёт место" in result.stdout and "После 2 сдач" in result.stdout
    assert not english_in(result.stdout), english_in(result.stdout)
    english = subprocess.run([sys.executable, "-m", "khrap.cli", "replay", str(path)], capture_output=True,
                             text=True, timeout=120)
    assert english.stdout.startswith("frap (Frap), 4 players")  # the English story as it always read


# ------------------------------------------------------------------ the web table's log
def test_the_web_tables_log_is_the_same_renderer_in_russian() -> None:
    """The web view's ``log`` (its lines for every event the page does not word itself: antes, settlement)
    is the game log's renderer in the page's language: seed 004's «ставка на кон», cards as 10♥, no code."""
    from khrap.gamelog import tell
    from khrap.web.table import Table as WebTable
    from tests.web.conftest import fixed_seeds

    table = WebTable.create(builtin("khrap"), name="khrap", source=None, players=3, stacks=50, base_stake=1,
                            bots={1: "rule", 2: "rule"}, deals=1, seed_source=fixed_seeds("lang"), session_seed=1)
    table.start_deal()
    while table.in_deal:
        table.apply(table.session.to_act, table.bot_action(table.session.to_act, "rule"))
    view = table.view(0, "ru")
    assert view["log"] and view["log"][0].startswith("ставка на кон: каждый кладёт в банк")
    assert not english_in("\n".join(view["log"])), english_in("\n".join(view["log"]))
    log = table.session.state.log
    assert tell(log[-len(view["log"]):], "ru", 0, table.session.variant) == view["log"]
    assert table.view(0, "en")["log"][0].startswith("ante: every player puts")  # English as it always read
