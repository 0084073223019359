"""After a deal: a failed obligation that every card open shows could have been met, in play and replay."""

from __future__ import annotations

from khrap.bots.hindsight import missed
from khrap.cards import parse_card
from khrap.play.game import Table, run
from khrap.session import Session
from khrap.session.narrate import narrative

# Khrap, three seats, seat 0 deals (to seats 1, 2, 0 in turn).  Hands: seat 0 JS 8C QS 6S; seat 1 9S KC 6D 6C;
# seat 2 TS QC KS JD.  7C is turned: clubs are trump.  Seat 2 takes five (9H KD 6H 8H TC, throws TC), seat 1
# (khrap, the declarer) exchanges 9S KC for AC AS.  At the first card: seat 1 holds AC AS 6D 6C, seat 2
# 9H KD 6H 8H; seat 2 (take five: the first lead) leads and needs one trick as a helper.
HANDS = {1: "9S KC 6D 6C", 2: "TS QC KS JD", 0: "JS 8C QS 6S"}
STOCK = "7C 9H KD 6H 8H TC AC AS"
CALLS = [(1, "khrap"), (2, "pass"), (0, "pass"), (2, "take-five"), (2, "discard TC"), (0, "pass"),
         (1, "exchange 9S KC")]
# As played: 6H is trumped by AC; seat 1 leads 6C (trump; seat 2 has none and throws KD), 6D (9H thrown), AS
# (8H thrown): seat 1 takes all four, seat 2 none, and fails.  Led instead, KD wins: seat 1 must follow
# diamonds with its only diamond, 6D, and KD is higher, so seat 2's trick was sure whatever seat 1 did.
PLAYS = [(2, "play 6H"), (1, "play AC"), (1, "play 6C"), (2, "play KD"), (1, "play 6D"), (2, "play 9H"),
         (1, "play AS"), (2, "play 8H")]
LINE = "with all cards open, seat 2's Take five could have been made: lead KD"


def _deck() -> str:
    order = [1, 2, 0]
    cards = [HANDS[order[i % 3]].split()[i // 3] for i in range(12)]
    return " ".join(cards) + " " + STOCK


def _session() -> Session:
    return Session("khrap", 3, seed=0, decks=[_deck()])


def test_missed_finds_the_sure_trick_the_helper_did_not_lead() -> None:
    game = _session()
    game.start_deal()
    for seat, text in CALLS:
        game.apply(text, seat)
    start = game.state.clone()
    at = len(game.state.log)
    for seat, text in PLAYS:
        game.apply(text, seat)
    found = missed(start, game.state.log[at:])
    assert [(m.seat, m.call, m.need, m.tricks, m.card, m.leads) for m in found] == \
        [(2, "take-five", 1, 0, parse_card("KD"), True)]


def test_replay_tells_what_could_have_been_made() -> None:
    game = _session()
    game.start_deal()
    for seat, text in CALLS + PLAYS:
        game.apply(text, seat)
    text = narrative(game.to_record())
    assert "  " + LINE in text.splitlines()  # one line of deal 1, after its settlement
    assert text.count("could have been made") == 1  # seat 1 made its khrap: nothing said about it


def test_play_tells_it_after_the_deal_in_the_players_language() -> None:
    ru = "при открытых картах заявку «Беру пять» места 2 можно было выполнить: заход с К♦"
    for lang, expected in (("en", LINE), ("ru", ru)):
        game = _session()
        script = iter(text for _, text in CALLS + PLAYS)
        out: list[str] = []
        run(game, Table(humans=[0, 1, 2], deals=1, lang=lang), read=lambda prompt, s=script: next(s), write=out.append)
        assert [line.strip() for line in out if ("KD" in line or "К♦" in line) and ":" in line][-1] == expected
