"""Issue 16: the sentences of the rule sheets, read against RULES.md (guards templates/sentences.j2,
khrap/rulebook/facts.py and the variant files).  Each test names the wrong or missing sentence of the
sheets before the fix; each fails on them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from khrap.rulebook.sheet import render_diff, render_rules
from khrap.variant.catalog import builtin_names

ROOT = Path(__file__).resolve().parents[1]
JOKER_CUT = str(ROOT / "docs" / "house-rules" / "khrap-joker-cut.yaml")


def flat(text: str) -> str:
    return " ".join(text.split())


def sheet(name: str, lang: str = "en", *, example: bool = True) -> str:
    """The sheet in Markdown, on one line (a calls-table row stays whole there)."""
    return flat(render_rules(name, "md", lang, example=example))


def calls_row(ref: str, call: str) -> str:
    """The calls table's row of a call (its description and cells), from the Markdown sheet."""
    rows = [line for line in render_rules(ref, "md", "en", example=False).splitlines()
            if re.match(rf"\| (▶ )?\*\*{re.escape(call)}\*\*", line)]
    assert rows, f"no row for {call}"
    return rows[0]


# ------------------------------------------------------------------ wrong sentences
@pytest.mark.parametrize("ref", ["frap", JOKER_CUT])
def test_cut_needs_five_cards_or_four_with_the_turned_trump(ref: str) -> None:
    row = calls_row(ref, "Cut")
    assert "5 cards to draw, or 4 if the turned trump is taken" in row
    assert "while the stock has 5 cards for it" not in row


@pytest.mark.parametrize("name", ["frap", "snore"])
def test_whist_is_never_offered_in_step_one(name: str) -> None:
    text = render_rules(name, "md", "en", example=False)
    step1 = next(line for line in text.splitlines() if line.startswith("1. "))
    assert "Whist" not in step1, step1
    assert "Steps 1 and 2" not in calls_row(name, "Whist")
    assert calls_row(name, "Whist").split("|")[2].strip().startswith("Step 2")


def test_no_trump_to_keep_before_snore_names_it() -> None:
    assert "The trump stays the same" not in sheet("snore")


def test_the_wrapper_has_no_exchange_turn() -> None:
    text = sheet("khrap-shoot")
    assert "When the declarer said Wrap, the order is: those who said Five, then the helpers; " \
           "the declarer has no turn." in text
    assert "When the declarer said Wrap, the order is: those who said Five, then the declarer" not in text


def test_rounding_is_said_wherever_shares_round() -> None:
    """student-snore's differences said 'Rounding ... (not in this game)' while its sheet rounds every share."""
    for name in builtin_names():
        assert "What rounding leaves" in sheet(name, example=False), name
    assert "Rounding" not in flat(render_diff("khrap-52", "student-snore"))


@pytest.mark.parametrize(("ref", "call"), [("khrap", "Take five"), (JOKER_CUT, "Cut")])
def test_a_passer_whose_cards_are_gone_draws_a_new_hand(ref: str, call: str) -> None:
    row = calls_row(ref, call)
    assert "throws their hand" not in row
    assert "with their cards already gone, draws a new hand of 5 cards" in row


def test_a_passer_who_still_holds_his_cards_throws_them() -> None:
    assert "throws their hand" in calls_row("frap", "Cut")  # frap's passers keep their cards until the cut


# ------------------------------------------------------------------ missing rules
@pytest.mark.parametrize("name", ["khrap", "khrap-52", "student-snore"])
def test_the_dealer_keeps_his_cards_face_down_until_the_bidding_reaches_him(name: str) -> None:
    assert "The dealer's cards stay face down until the bidding reaches the dealer" in sheet(name)


@pytest.mark.parametrize(("name", "call"), [("khrap-shoot", "Wrap"), ("frap", "Blind frap")])
def test_anyone_may_keep_his_cards_face_down_for_a_blind_call(name: str, call: str) -> None:
    assert f"Anyone may leave their cards face down to keep {call} open" in sheet(name)


def test_khrap_52_has_no_missing_blind_rule() -> None:
    diff = flat(render_diff("khrap", "khrap-52"))
    assert "Blind calls" not in diff and "(not in this game) * Looking" not in diff


def test_khrap_52_locks() -> None:
    text = sheet("khrap-52", example=False)
    assert "their locked stake drops to a helper's, counted on the pot at that moment, and the rest goes back" in text
    assert "everyone else who holds cards must help, and each of them locks 1 × the pot" in text
    assert "counted on the pot at that moment" in text.split("Locked stakes:")[1]


@pytest.mark.parametrize(("name", "words"), [
    ("khrap", "takes the turned trump card (the trump suit stays the same)"),
    ("frap", "draws 5 cards, or takes the turned trump card and draws 4 (the trump suit stays the same)"),
    ("khrap-shoot", "the card given up goes to the discards and the trump suit stays the same"),
])
def test_a_taken_turned_card_leaves_the_trump_and_the_swapped_card_is_discarded(name: str, words: str) -> None:
    assert words in sheet(name, example=False)


def test_whoever_plays_the_joker_says_how() -> None:
    assert "Whoever plays it says how: as the plain 7♠" in sheet("student-snore")


@pytest.mark.parametrize("name", builtin_names())
def test_every_sheet_says_how_a_session_goes(name: str) -> None:
    text = sheet(name, example=False)
    assert re.search(r"Object: in each deal one player, the declarer, promises to take at least \d of the \d tricks",
                     text)
    assert "Cards rank from high to low: A K Q J 10 9 8 7 6" in text
    assert "first dealer is chosen by lot" in text or "whoever draws the lowest card deals" in text
    assert "A player may join the table or leave it only between deals, and only when the pot is empty." in text
    assert "A session " in text and " pot " in text.split("A session ")[1][:200]


def test_snore_deals_first_to_the_lowest_card() -> None:
    assert "whoever draws the lowest card deals" in sheet("snore")  # seed 002 "Kuorsata"


@pytest.mark.parametrize("name", builtin_names())
def test_decisions_are_marked_in_the_variant_files(name: str) -> None:
    """What RULES.md does not settle (first dealer, joining, the end of a session) is decided in the file,
    marked [D], or traced to the seed that settles it."""
    text = (ROOT / "variants" / f"{name}.yaml").read_text(encoding="utf-8")
    tail = text.split("table:")[0].rsplit("\n\n", 1)[-1] if "table:" in text else text.rsplit("\n\n", 1)[-1]
    assert "dealer" in tail and ("[D]" in tail or "seed" in tail), name


# ------------------------------------------------------------------ a player's words
ENGINE_SHAPED = [
    "P as it was before anything was paid",
    "by the first of these lines that fits him",
    "(the last entry for any later round)",
    "draws 1 card more than they discard",
    "shuffled with seed",
    "with at most 2 trumps",
    "The first player clockwise from the declarer who said",
    "House rules: what differs",
    "Stake: 2 × the pot",
]


@pytest.mark.parametrize("name", builtin_names())
def test_no_engine_shaped_wording(name: str) -> None:
    text = sheet(name)
    found = [phrase for phrase in ENGINE_SHAPED if phrase in text]
    assert not found, found


def test_a_stake_put_up_later_is_not_called_a_stake_now() -> None:
    row = calls_row("frap", "Frap")
    assert "Nothing now" in row and "Stake:" not in row
    assert "failing: pays 2 base stakes" in calls_row("khrap", "Khrap")


def test_pass_is_out_for_now_where_passers_may_still_come_in() -> None:
    assert "Out for now, but may still come in at step 2" in calls_row("khrap", "Pass")
    assert "Out of the deal" in calls_row("student-snore", "Pass")  # no later offer there


def test_helicopter_has_no_other_trump() -> None:
    assert "with no more than 2 trumps in all" in calls_row("khrap", "Helicopter")


def test_first_lead_reads_plainly() -> None:
    assert "Of the players who said Take five, the first one clockwise from the declarer leads" in sheet("khrap")


def test_a_builtin_differs_it_is_no_house_rule() -> None:
    text = sheet("khrap-52")
    assert "## How it differs from “Khrap”" in render_rules("khrap-52", "md", "en")
    assert "HOUSE RULES" not in text.upper()


def test_khrap_52_step_two_is_not_missing() -> None:
    diff = render_diff("khrap", "khrap-52")
    assert "* Step 2\n" not in diff  # khrap-52's step 2 is khrap's exchange, the same rule
    assert "* Step 2 (Fives?)\n" in diff  # khrap's offers of Take five («Пятаки?») are gone, and named as such


def test_joker_cut_lists_step_two_once() -> None:
    diff = render_diff("khrap", JOKER_CUT)
    assert diff.count("* Step 2\n") == 1


@pytest.mark.parametrize("name", builtin_names())
def test_a_players_stake_is_theirs_not_his(name: str) -> None:
    # "A failed player pays his stake", "C failed with 0 tricks and pays his stake", "Every other player ... pays
    # his stake into the pot": players are not all "he". (The four-aces sheets' stake sentence is khrap's own.)
    text = render_rules(name, "txt", "en")
    assert not re.search(r"\bhis stake\b", text), re.search(r".{60}\bhis stake\b.{20}", text)
    if name in ("khrap", "khrap-52"):
        assert "pays their stake" in text


HE = re.compile(r"\b(he|him|his|himself)\b", re.IGNORECASE)


@pytest.mark.parametrize("name", builtin_names())
def test_the_english_sheets_do_not_call_every_player_he(name: str) -> None:
    # The sheets said "he" about a player some 25 times a sheet ("if he has one", "the player on his left",
    # "throws his hand"): in the sentences, the worked example and the built-in calls' descriptions.
    for fmt in ("txt", "md", "html"):
        text = render_rules(name, fmt, "en")
        assert not HE.search(text), (fmt, re.search(r".{60}\b(he|him|his|himself)\b.{20}", text, re.IGNORECASE))


def test_no_sentence_of_the_sheets_says_he() -> None:
    # Every sentence a template can print, also those no built-in sheet shows (must beat, doubles, debts).
    from khrap.rulebook.messages import extract

    said = [m.id if isinstance(m.id, str) else " / ".join(m.id) for m in extract() if m.id]
    assert len(said) > 300
    assert [s for s in said if HE.search(s)] == []
