"""Issue 28, read from the events: one P for every payer, capped payments shown with what was owed, and the
session ending after a deal that leaves a player unable to be dealt the next one.

The outcomes (stacks, pot) of these deals are checked by the scenario files named in each test; here the
events and the ledger are checked to say which P each payment used and what a capped one owed."""

from pathlib import Path

from khrap.engine import GameState
from khrap.scenario import load_scenario, run
from khrap.variant.loader import ANYWHERE, trusting

HERE = Path(__file__).parent


def _played(name: str) -> GameState:
    with trusting(ANYWHERE):
        return run(load_scenario(HERE / "scenarios" / "house-rules" / name))


def test_every_payer_of_an_instant_win_names_the_same_p() -> None:
    """four_aces_every_payer_pays_on_one_pot.yaml: P = 4 (4 antes of 1); seat 3 takes it; the passers owe
    1 x P = 4 each whatever their order, the declarer his 2."""
    state = _played("four_aces_every_payer_pays_on_one_pot.yaml")
    paid = [(e.seat, e.fields["chips"], e.fields["base"]) for e in state.log if e.kind == "paid_in"]
    assert paid == [(0, 4, 4), (1, 2, 4), (2, 4, 4)]


def test_a_capped_payment_says_what_was_owed() -> None:
    """no_debt_four_aces_passer_pays_what_he_has.yaml: seat 0 owes 1 x P = 4 and has 2: he pays 2."""
    state = _played("no_debt_four_aces_passer_pays_what_he_has.yaml")
    paid = {e.seat: e.fields for e in state.log if e.kind == "paid_in"}
    assert (paid[0]["chips"], paid[0]["owed"], paid[0]["base"]) == (2, 4, 4)
    assert "owed" not in paid[3] and "owed" not in paid[1]  # paid in full


def test_a_session_ends_after_a_deal_that_leaves_a_stack_below_the_minimum() -> None:
    """min_stack_session_ends_after_the_deal.yaml without its last line: seat 1 ends the deal with 4 chips,
    fewer than min_stack's 3 base stakes of 2: the session is over, and the event says who and how many."""
    with trusting(ANYWHERE):
        scenario = load_scenario(HERE / "scenarios" / "house-rules" / "min_stack_session_ends_after_the_deal.yaml")
    scenario.actions = scenario.actions[:-1]
    state = run(scenario)
    assert state.stacks[1] == 4 and state.session_over
    over = [e for e in state.log if e.kind == "session_over"]
    assert [(e.seat, e.fields["reason"], e.fields["chips"]) for e in over] == [(1, "stack", 6)]
