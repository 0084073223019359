"""Two kernel leftovers of issue 31: an ante that fails at the start of a deal, and a call made again.

- A player who cannot pay the ante on a table without debts is not dealt in: the session is over
  (issue 28; docs/house-rules.md "A table without debts").  ``start_deal`` refuses such a table before
  anything moves (``_short_seat``, the scenario house-rules/no_debt_ante_not_dealt_in.yaml); where the ante
  itself fails, the session ends there and no card is dealt, as at a redeal (``_all_pass``).  Before, it
  went on and dealt a deal to a session that was over.
- A seat asked again makes a new call, which takes the earlier one's place: what the earlier one left
  waiting for his exchange turn is no longer owed (the scenario house-rules/asked_again_a_five_becomes_a_helper.yaml).
"""

from __future__ import annotations

from pathlib import Path

from khrap import words as w
from khrap.cards import parse_card
from khrap.engine import GameState, Rules
from khrap.variant import catalog

HOUSE = Path(__file__).parent / "house-variants"


class _Unguarded(GameState):
    """A table whose start-of-deal check lets everyone in, so that the ante itself is what fails."""

    def _short_seat(self) -> tuple[int, int] | None:
        return None


def test_an_ante_that_fails_deals_nothing() -> None:
    v = catalog.load_variant(str(HOUSE / "khrap-no-debt.yaml"))
    # khrap antes 1 chip every deal; seat 0 has none, so nobody pays (all or nothing) and the session is over.
    state = _Unguarded(Rules(v, 2), 2, stacks=[0, 10])
    state.start_deal()
    assert state.session_over and state.pending is None and state.phase == w.SETTLED
    assert state.hands == [[], []] and state.stacks == [0, 10] and state.pot == 0
    assert [e.kind for e in state.log][-2:] == ["session_over", "settled"]


def _second_thoughts(last: str) -> GameState:
    """The scenario's deal (seat 1 snores; seat 2 passes, says five, then ``last``), to that point."""
    v = catalog.load_variant(str(HOUSE / "khrap-shoot-second-thoughts.yaml"))
    deck = ("AH QH 9D 9C KH 7S TD TC 6S 8S JD JC 6C AC QD QC 7H 7D 8D 6D KD AD 9S TS JS QS KS 7C 8C KC 6H 8H")
    state = GameState(v, 4, seed=None, decks=[[parse_card(c) for c in deck.split()]])
    state.start_deal()
    for seat, action in [(1, "snore"), (2, "pass"), (3, "pass"), (0, "pass"), (2, "five"), (3, "fold"),
                         (0, "fold")]:
        state.apply(action, seat)
    assert state.owed_draws == 5  # the five's draws, kept in the stock for his turn
    state.apply(last, 2)
    return state


def test_a_five_that_helps_owes_no_draws() -> None:
    state = _second_thoughts("help")
    assert state.owed_draws == 0 and state.call_of[2] == "help"
    state.apply("exchange 6S 6C", 1)
    assert (state.pending.kind, state.pending.seat) == ("exchange", 2)
    # the stock's 17 cards are all his to draw from: he may throw his whole hand
    assert max(len(a.cards) for a in state.legal_actions()) == 4


def test_a_five_that_passes_owes_no_draws_and_has_no_turn() -> None:
    state = _second_thoughts("pass")
    assert state.owed_draws == 0 and state.statuses[2] == w.OUT
    state.apply("exchange", 1)  # the declarer stands pat; nobody else exchanges: he plays alone
    assert state.phase in (w.PLAY_PHASE, w.SETTLED) and state.hands[2] == []


def test_a_payment_from_the_pot_takes_no_more_than_it_holds() -> None:
    """A share larger than the pot (a house rule's ``trick_share.divisor: 1`` pays the whole pot for the first
    trick, and the second finds it empty): the kernel pays what the pot holds, no more, and the pot never goes
    below 0.  (The branches' lockstep test cannot see this: both pay through the same step.)"""
    from khrap.engine.compiled import Machine

    machine = Machine(Rules(catalog.builtin("khrap"), 4).program, stacks=100, pot=5)
    assert machine._pay_from_pot(1, 8, "share", {}) == 5
    assert machine.pot == 0 and machine.stacks[1] == 105
    assert machine._pay_from_pot(2, 3, "share", {}) == 0
    assert machine.pot == 0 and machine.stacks[2] == 100
