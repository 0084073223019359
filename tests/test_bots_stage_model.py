"""The heuristic bot reads the stage model (khrap/variant/derived.py) for who may still join a declarer.

khrap/bots/estimate.py kept its own copies of two stage-model facts; each disagreement is settled here by the
kernel's play (on every built-in and house rule the copies agreed: 7,834 declaring calls of random deals
compared, none apart):

- "an out player may come back" (``Estimator.comeback``) looked only for a later stage that asks the players
  who are out (``speakers: out``) and offers a helper call.  The sheet's ``comeback`` (now
  ``derived.comes_back_at``) counts any later step that asks a passer who still holds his cards.  The sheet
  was right: the kernel asks a passer again at a step that asks all but the declarer.
- "who may still join" (``Estimator.joiners``) counted the players still to speak as holding cards at every
  later step, even where the current step throws the passers' hands at its end.  The kernel asks a later
  step's speakers only while they hold cards (machine.py, ``_speakers``): a player who passes there cannot
  join later (``derived.keeps_out_hands``).
"""

from __future__ import annotations

from pathlib import Path

from khrap.bots.estimate import Estimator, Info
from khrap.cards import parse_card
from khrap.engine import GameState, Rules
from khrap.engine.kinds import CALL
from khrap.rulebook.sheet import render_rules
from khrap.variant import catalog
from khrap.variant import derived as model
from khrap.variant.schema import Variant
from tests.test_checks_both_ways import FIRST, tiny
from tests.test_stage_model import _load

# A second step asking all but the declarer, from his left, whether they help him (no step asks the out).
ANSWERS = FIRST + "  - {id: answers, kind: calls, speakers: others, start: declarer_left, calls: [help, pass]}\n"
# The same, with no help in the bidding and the passers' hands thrown at its end.
THROWN = ("  - {id: bidding, kind: calls, out_hands: at_end, calls: [bid, pass]}\n"
          "  - {id: answers, kind: calls, speakers: others, start: declarer_left, calls: [help, pass]}\n")


def _asked_at_answers(v: Variant, words: tuple[str, ...]) -> tuple[GameState, list[tuple[int, list[str]]]]:
    """3 seats, dealer 0 (seat 1 speaks first): the bidding said as ``words``, then every seat the kernel asks
    at a call decision with the calls it lists, each passing."""
    state = GameState(Rules(v, 3), 3, seed=1)
    state.start_deal()
    for word in words:
        state.apply(word)
    asked = []
    while state.pending is not None and state.pending.kind is CALL:
        asked.append((state.pending.seat, [a.word for a in state.legal_actions()]))
        state.apply("pass")
    return state, asked


def _info(seat: int, statuses: list[str]) -> Info:
    return Info(seat=seat, n=3, hand=[parse_card(c) for c in ["6C", "7D", "8H", "9S"]], trump=0, turned=None,
                statuses=statuses, calls=[None] * 3, tricks=[0] * 3, trick=[], gone=set(), pot=3,
                hand_sizes=[4] * 3, stock_count=24)


def test_a_passer_asked_again_by_a_step_for_all_but_the_declarer_may_come_back(tmp_path: Path) -> None:
    """Seat 1 passes, seat 2 bids, seat 0 passes; the answers step asks seats 0 and 1 (from the declarer's
    left), each offered help: the passers may come back, though no step asks the players who are out."""
    v = _load(tmp_path, tiny(("  - {id: bidding, kind: calls, calls: [bid, help, pass]}\n", ANSWERS)))
    state, asked = _asked_at_answers(v, ("pass", "bid", "pass"))
    assert asked == [(0, ["help", "pass"]), (1, ["help", "pass"])]
    assert model.comes_back_at(v, "pass") == [1]
    rules = Rules(v, 3)
    assert rules.derived.comeback and Estimator(rules).comeback  # (the bot's own copy said no)
    rows = render_rules(v, "md", "en", example=False).splitlines()
    assert "| **Pass** | Steps 1 and 2 | Out for now, but may still come in at step 2 | Nothing |" in rows
    # and where no later step can bring a passer back, nobody comes back
    plain = catalog.builtin("khrap-52")
    assert not Rules(plain, 4).derived.comeback and not Estimator(Rules(plain, 4)).comeback


def test_players_who_pass_where_the_hands_are_thrown_cannot_join_later(tmp_path: Path) -> None:
    """Seat 1 bids first; seats 2 and 0 pass and the bidding throws their hands at its end: the answers step
    asks nobody (it asks those who hold cards), so the declarer plays alone: the bot counts no joiner.  Where
    the bidding keeps the passers' hands, both are asked and both are counted."""
    v = _load(tmp_path, tiny(("  - {id: bidding, kind: calls, calls: [bid, help, pass]}\n", THROWN)))
    state, asked = _asked_at_answers(v, ("bid", "pass", "pass"))
    assert asked == [] and state.statuses == ["out", "declarer", "out"] and not state.hands[0] and not state.hands[2]
    rules = Rules(v, 3)
    first = _info(1, ["undecided"] * 3)
    assert Estimator(rules).joiners(rules.calls["bid"], first, ["bid", "pass"]) == []  # (the bot's copy: [0, 2])
    kept = _load(tmp_path, tiny(("  - {id: bidding, kind: calls, calls: [bid, help, pass]}\n",
                                 THROWN.replace("out_hands: at_end, ", ""))))
    state, asked = _asked_at_answers(kept, ("bid", "pass", "pass"))
    assert [seat for seat, _ in asked] == [2, 0]
    rules = Rules(kept, 3)
    assert Estimator(rules).joiners(rules.calls["bid"], first, ["bid", "pass"]) == [0, 2]
    # seat 0 passed before: asked again while he holds his cards, not once they are gone (one estimator asked
    # both: its kept answers are kept by the cards held too)
    est, passed = Estimator(rules), _info(1, ["out", "undecided", "undecided"])
    assert est.joiners(rules.calls["bid"], passed, ["bid", "pass"]) == [0, 2]
    passed.hand_sizes = [0, 4, 4]
    assert est.joiners(rules.calls["bid"], passed, ["bid", "pass"]) == [2]
