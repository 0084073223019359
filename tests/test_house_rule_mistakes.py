"""Each mistake of issue 17, as a player writes it, and the exact line the player reads back.

The expected lines are written from what a player needs to read (where, what is wrong, what to write),
so each test says what the message must be, not what the program happens to print.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from khrap.cards import CardError, card_str, parse_card, parse_rank, rank_str
from khrap.cli import app
from khrap.variant.catalog import load_variant, variants_dir
from khrap.variant.lint import lint_file
from khrap.variant.loader import VariantError, VariantErrors, errors_of

KHRAP = variants_dir() / "khrap.yaml"
runner = CliRunner()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def mistakes(path: Path) -> list[str]:
    with pytest.raises(VariantError) as info:
        load_variant(str(path))
    return [str(e) for e in errors_of(info.value)]


def line_of(path: Path, text: str) -> int:
    """The 1-based line of ``path`` that holds ``text`` (so a test reads as the file does)."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


# --------------------------------------------------------------------------- a misspelt call is not a new call


def test_a_misspelt_call_in_a_house_rule_is_an_unknown_call_with_a_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, "no-sad.yaml", "extends: khrap\ncalls: {sadd: {enabled: false}}\n")
    assert mistakes(path) == [
        f"{path}:2:9: calls: 'khrap' has no call 'sadd'; did you mean 'sad'? (to add a new call, give it "
        "`name` and `effects`)"
    ]


def test_a_misspelt_instant_win_in_a_house_rule_is_unknown_too(tmp_path: Path) -> None:
    path = write(tmp_path, "no-aces.yaml", "extends: khrap\ninstant_wins:\n  four-aecs: {enabled: false}\n")
    assert mistakes(path) == [
        f"{path}:3:3: instant_wins: 'khrap' has no instant win 'four-aecs'; did you mean 'four-aces'? (to add a "
        "new instant win, give it `name` and `rank` and `count`)"
    ]


def test_a_complete_new_call_that_nothing_offers_is_warned_about(tmp_path: Path) -> None:
    path = write(tmp_path, "new.yaml",
                 "extends: khrap\ncalls:\n  sadd:\n    name: {en: Sad}\n    effects: {status: helper}\n")
    _, warnings = lint_file(path)
    assert [str(w) for w in warnings] == [
        f"{path}:3:3: warning: call 'sadd' is defined but no stage offers it, so it can never be said: add it "
        "to the `calls` of a stage, or remove it (or is it a misspelt 'sad'?)"
    ]


# --------------------------------------------------------------------------- a replaced list that drops rules


FRAP_PENALTIES = "extends: frap\nsettlement:\n  penalties: [{calls: [frap], pay: {pots: 2}}]\n"


def test_a_replaced_penalty_list_warns_for_each_call_it_no_longer_charges(tmp_path: Path) -> None:
    path = write(tmp_path, "frap-fines.yaml", FRAP_PENALTIES)
    _, warnings = lint_file(path)
    tail = ("charged it; copy the rules you keep into your list (a last `{pay: stake}` catches everyone else)")
    assert [str(w) for w in warnings] == [
        f"{path}:3:3: warning: a failed 'blind-frap' now pays nothing: this list replaces the whole list of "
        f"'frap', where {{calls: [blind-frap], tricks: 1, held: [{{rank: A, suit: trump}}], pay: {{pots: 3}}}} "
        + tail,
        f"{path}:3:3: warning: a failed 'whist' now pays nothing: this list replaces the whole list of 'frap', "
        "where {status: helper, pay: {pots: 1}} " + tail,
        f"{path}:3:3: warning: a failed 'cut' now pays nothing: this list replaces the whole list of 'frap', "
        "where {status: helper, pay: {pots: 1}} " + tail,
    ]


def test_validate_prints_warnings_and_exits_0_and_strict_makes_them_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "frap-fines.yaml", FRAP_PENALTIES)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0
    assert result.stdout.strip().endswith(f"{path}: ok (3 warnings)")
    assert result.stderr.count(f"{path}:3:3: warning: ") == 3
    strict = runner.invoke(app, ["validate", "--strict", str(path)])
    assert strict.exit_code == 2
    assert f"{path}: 3 warnings, which --strict makes errors" in strict.stderr


def test_rules_and_play_print_a_one_line_count_pointing_at_validate(tmp_path: Path) -> None:
    path = write(tmp_path, "frap-fines.yaml", FRAP_PENALTIES)
    pointer = f"{path}: 3 warnings; run `khrap validate {path}` to read them"
    result = runner.invoke(app, ["rules", str(path), "--format", "txt"])
    assert result.exit_code == 0 and result.stderr.strip().splitlines() == [pointer]
    played = runner.invoke(app, ["play", str(path), "--watch", "--deals", "1", "--seed", "1"])
    assert played.exit_code == 0, played.output
    assert pointer in played.stderr
    clean = runner.invoke(app, ["rules", "khrap", "--format", "txt"])
    assert clean.exit_code == 0 and "warning" not in clean.stderr


def test_other_replaced_lists_name_what_they_drop(tmp_path: Path) -> None:
    path = write(tmp_path, "lists.yaml", (
        "extends: khrap\n"
        "settlement: {trick_share: {statuses: [declarer]}}\n"
        "stages:\n"
        "  - {id: bidding, kind: calls, phase: bidding, speakers: all, start: dealer_left,\n"
        "     calls: [khrap, help, merry, wrap, helicopter, pass], out_hands: at_end}\n"
        "  - {id: fives, kind: calls, phase: offers, speakers: out, start: declarer_left, calls: [take-five, pass]}\n"
        "  - {id: exchange, kind: exchange, order: [{statuses: [declarer]}]}\n"
        "  - {id: play, kind: play}\n"
    ))
    assert [str(w) for w in lint_file(path)[1]] == [
        f"{path}:2:28: warning: tricks taken by a helper are no longer paid: this list replaces the whole list "
        "of 'khrap', which paid them; add them back if that was not meant",
        f"{path}:3:1: warning: stage 'four-aces-check' (“Instant wins”, step 4 of 'khrap') is gone: this list "
        "replaces the whole list of 'khrap'; write it out again if that was not meant",
        f"{path}:5:6: warning: stage 'bidding' no longer offers call 'sad': this list replaces the whole list of "
        "'khrap'; add it back, or switch it off with `enabled: false` if that was meant",
        f"{path}:7:36: warning: the exchange order of stage 'exchange' no longer gives helper a turn: this list "
        "replaces the whole order of 'khrap'; add it back if that was not meant",
    ]


def test_a_dropped_order_group_is_named_only_for_a_call_still_on(tmp_path: Path) -> None:
    """khrap-shoot's exchange order gives `five` a turn.  A house rule that writes its own order without it is
    warned, unless it switched `five` off too: a call nobody can make has no turn to lose (the lint read every
    call the parent's order named, switched off or not)."""
    order = ("  - id: exchange\n    kind: exchange\n    order: [{statuses: [declarer]}, {statuses: [helper]}]\n"
             "    order_by_call: {}\n")
    stages = ("stages:\n"
              "  - {id: declare, kind: calls, phase: bidding, speakers: all, start: dealer_left,\n"
              "     calls: [snore, helicopter, wrap, pass], out_hands: keep}\n"
              "  - {id: answers, kind: calls, phase: bidding, speakers: others, start: declarer_left,\n"
              "     calls: [help, pass], out_hands: at_end}\n" + order + "  - {id: play, kind: play}\n")
    calls = "calls:\n  helicopter: {effects: {skip_stages: [answers, exchange]}}\n  shoot: {enabled: false}\n"
    off, on = calls + "  five: {enabled: false}\n  fold: {enabled: false}\n", calls + "  fold: {enabled: false}\n"
    gives = "the exchange order of stage 'exchange' no longer gives five a turn"
    quiet = write(tmp_path, "off.yaml", "extends: khrap-shoot\n" + off + stages)
    assert not [w for w in lint_file(quiet)[1] if gives in str(w)]
    loud = write(tmp_path, "on.yaml", "extends: khrap-shoot\n" + on + stages)
    assert [w for w in lint_file(loud)[1] if gives in str(w)]


def test_an_override_that_changes_nothing_is_noted_and_an_unreachable_call_warned_about(tmp_path: Path) -> None:
    path = write(tmp_path, "same.yaml", (
        "extends: khrap\nhand_size: 4\nplay: {must_beat: true, follow_suit: true}\n"
        "calls:\n  merry: {requires: {min_trumps: 5}}\n"
    ))
    assert [str(w) for w in lint_file(path)[1]] == [
        f"{path}:2:1: note: `hand_size: 4` is what 'khrap' has already (kept as a record of the table's rules)",
        f"{path}:3:25: note: `play.follow_suit: true` is what 'khrap' has already (kept as a record of the "
        "table's rules)",
        f"{path}:5:22: warning: call 'merry' can never be made: it requires at least 5 trumps (`min_trumps`), "
        "but a hand has 4 cards and the deck 9 trumps",
    ]


def test_strict_accepts_a_file_that_restates_inherited_values(tmp_path: Path) -> None:
    """Issue 30: a file recording a site's rules in full says what matches the parent too."""
    path = write(tmp_path, "full.yaml", "extends: khrap\nhand_size: 4\nbase_stake: 1\n")
    result = runner.invoke(app, ["validate", "--strict", str(path)])
    assert result.exit_code == 0, result.output
    assert f"{path}:2:1: note: `hand_size: 4` is what 'khrap' has already" in result.output
    broken = write(tmp_path, "broken.yaml",
                   "extends: khrap\nhand_size: 4\ncalls:\n  merry: {requires: {min_trumps: 5}}\n")
    assert runner.invoke(app, ["validate", "--strict", str(broken)]).exit_code == 2


@pytest.mark.parametrize("name", ["khrap", "khrap-52", "khrap-shoot", "frap", "snore", "student-snore"])
def test_the_builtins_have_no_warnings(name: str) -> None:
    assert lint_file(name)[1] == []


def test_the_house_rule_examples_in_docs_have_no_warnings() -> None:
    for path in sorted((Path(__file__).parents[1] / "docs" / "house-rules").glob("*.yaml")):
        assert lint_file(path)[1] == [], path


# --------------------------------------------------------------------------- every mistake at once


def test_every_mistake_of_a_file_is_reported_at_once_in_file_order(tmp_path: Path) -> None:
    path = write(tmp_path, "typos.yaml", "extends: khrap\nplay:\n  must_beet: true\nante: {amuont: 2}\n")
    assert mistakes(path) == [
        f"{path}:3:3: play: unknown key 'must_beet'; did you mean 'must_beat'?",
        f"{path}:4:8: ante: unknown key 'amuont'; did you mean 'amount'?",
    ]


def test_the_rules_that_do_not_fit_together_are_all_reported_too(tmp_path: Path) -> None:
    path = write(tmp_path, "refs.yaml", "extends: khrap\nplay:\n  first_lead: {calls: [take-fve, hlp]}\n")
    assert mistakes(path) == [
        f"{path}:3:24: unknown call 'take-fve'; did you mean 'take-five'?",
        f"{path}:3:34: unknown call 'hlp'; did you mean 'help'?",
    ]


def test_unknown_ids_come_with_mistakes_of_type(tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.yaml", "extends: khrap\nplay: {first_lead: {calls: [take-fve]}}\nante: 2\n"
                 "calls:\n  helicopter: {effects: {skip_stages: [fivs]}}\n")
    assert mistakes(path) == [
        f"{path}:2:29: unknown call 'take-fve'; did you mean 'take-five'?",
        f"{path}:3:7: ante: must be a mapping, e.g. `ante: {{amount: 1, when: every_deal}}`; got 2",
        f"{path}:5:40: call 'helicopter' skips stage 'fivs' (`skip_stages`), but no stage has that id; did you "
        f"mean 'fives'? (inherited: `stages` at {KHRAP}:{line_of(KHRAP, 'id: bidding, kind: calls')}:3)",
    ]


def test_too_many_mistakes_are_counted_after_the_first_twenty(tmp_path: Path) -> None:
    keys = "".join(f"  zz{i}: 1\n" for i in range(25))
    path = write(tmp_path, "many.yaml", "extends: khrap\nplay:\n" + keys)
    with pytest.raises(VariantErrors) as info:
        load_variant(str(path))
    lines = str(info.value).splitlines()
    assert len(lines) == 21 and lines[-1] == "... and 5 more mistakes (fix these first)"
    assert lines[0].startswith(f"{path}:3:3: play: unknown key 'zz0' (the keys here are: follow_suit, ")


def test_validate_prints_every_mistake_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "typos.yaml", "extends: khrap\nplay:\n  must_beet: true\nante: {amuont: 2}\n")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert [line.split(": ", 1)[0] for line in result.stderr.splitlines()] == [f"{path}:3:3", f"{path}:4:8"]


# --------------------------------------------------------------------------- a player's words


def test_a_number_where_a_mapping_is_needed_shows_the_right_form(tmp_path: Path) -> None:
    path = write(tmp_path, "ante.yaml", "extends: khrap\nante: 2\n")
    assert mistakes(path) == [
        f"{path}:2:7: ante: must be a mapping, e.g. `ante: {{amount: 1, when: every_deal}}`; got 2"
    ]


def test_a_plain_name_shows_the_per_language_form_with_the_players_text(tmp_path: Path) -> None:
    path = write(tmp_path, "name.yaml", 'extends: khrap\nname: "My Khrap"\n')
    assert mistakes(path) == [
        f"{path}:2:7: name: must be a text per language, e.g. `name: {{en: My Khrap}}`; got 'My Khrap'"
    ]


def test_a_missing_field_says_what_to_add(tmp_path: Path) -> None:
    path = write(tmp_path, "joker.yaml", "extends: khrap\njoker: {led_demands: trump}\n")
    assert mistakes(path) == [f"{path}:2:8: joker: `card` is missing: add it, e.g. `card: 7S`"]
    path = write(tmp_path, "stage.yaml", "extends: khrap\nstages:\n  - {id: bidding, kind: calls}\n"
                 "  - {id: play, kind: play}\n")
    assert f"{path}:3:5: stages[0]: `calls` is missing: add it, e.g. `calls: [khrap, pass]`" in mistakes(path)


def test_an_out_of_range_value_says_the_range(tmp_path: Path) -> None:
    path = write(tmp_path, "big.yaml", "extends: khrap\nplayers: {max: 13}\nhand_size: 0\n")
    assert mistakes(path) == [
        f"{path}:2:16: players.max: must be at most 12, got 13",
        f"{path}:3:12: hand_size: must be at least 1, got 0",
    ]


def test_a_wrong_word_lists_the_words_and_suggests_one(tmp_path: Path) -> None:
    path = write(tmp_path, "words.yaml", "extends: khrap\nstatuses: {helpr: {tricks: 1}}\n"
                 "settlement: {trick_share: {statuses: [declarer, helpr]}}\n")
    assert mistakes(path) == [
        f"{path}:2:12: statuses: unknown key 'helpr'; did you mean 'helper'?",
        f"{path}:3:49: settlement.trick_share.statuses[1]: must be one of `declarer` or `helper`; got 'helpr'; "
        "did you mean 'helper'?",
    ]


def test_a_wrong_type_in_a_list_of_calls_names_a_call(tmp_path: Path) -> None:
    path = write(tmp_path, "calls.yaml", "extends: khrap\nplay: {first_lead: {calls: [3]}}\n")
    assert mistakes(path) == [f"{path}:2:29: play.first_lead.calls[0]: must be a call id, e.g. `khrap`; got 3"]


def test_a_stage_kind_misspelt(tmp_path: Path) -> None:
    path = write(tmp_path, "kind.yaml", "extends: khrap\nstages:\n  - {id: bidding, kind: calsl, calls: [khrap]}\n")
    assert (f"{path}:3:25: stages[0].kind: must be one of `calls`, `exchange`, `name_trump`, `instant_wins` or "
            "`play`; got 'calsl'; did you mean 'calls'?") in mistakes(path)


YAML_MISTAKES = {
    "a missing colon": (
        "extends: khrap\nplay:\n  must_beat true\n  must_overtrump: true\n",
        "3:3: invalid YAML: a colon is missing after 'must_beat'? write `must_beat: VALUE` (with a space after "
        "the colon)",
    ),
    "a missing colon on the last line": (
        "extends: khrap\nhand_size 5\n",
        "2:1: invalid YAML: a colon is missing after 'hand_size'? write `hand_size: VALUE` (with a space after "
        "the colon)",
    ),
    "a tab": (
        "extends: khrap\nplay:\n\tmust_beat: true\n",
        "3:1: invalid YAML: a tab is used here: YAML needs spaces, not tabs, for indentation and after colons; "
        "replace the tab with spaces",
    ),
    "a key out of line": (
        "extends: khrap\nplay:\n    must_beat: true\n  must_overtrump: true\n",
        "4:3: invalid YAML: 'must_overtrump' is not lined up with the keys above it: the keys of one mapping must "
        "start in the same column (indent with spaces only)",
    ),
    "a key indented under a value": (
        "extends: khrap\nplay:\n  must_beat: true\n    must_overtrump: true\n",
        "4:5: invalid YAML: this line is indented more than 'must_beat' above it, which already has a value on its "
        "own line: start 'must_overtrump' in the same column as 'must_beat'",
    ),
    "a quote never closed": (
        'extends: khrap\nname: {en: "My Khrap}\n',
        '2:12: invalid YAML: the quote opened here is never closed: add the closing " at the end of the text',
    ),
    "a list never closed": (
        "extends: khrap\ndeck: {ranks: [6, 7, 8}\n",
        "2:23: invalid YAML: the list opened with '[' at line 2, column 15 needs a ',' between its entries and a "
        "']' at its end",
    ),
    "a colon inside a text": (
        "extends: khrap\ndescription:\n  en: Khrap: the real one\n",
        "3:12: invalid YAML: this value holds ': ', which YAML reads as another key: put it in quotes, e.g. "
        '"Khrap: the real one"',
    ),
}


@pytest.mark.parametrize("case", sorted(YAML_MISTAKES))
def test_a_yaml_mistake_says_what_to_do(tmp_path: Path, case: str) -> None:
    text, expected = YAML_MISTAKES[case]
    path = write(tmp_path, "house.yaml", text)
    assert mistakes(path) == [f"{path}:{expected}"]


# --------------------------------------------------------------------------- where the user wrote it


def test_a_value_wrong_only_with_the_house_rule_is_reported_at_the_house_rule(tmp_path: Path) -> None:
    path = write(tmp_path, "big.yaml", "extends: khrap\nname: {en: Big table}\nplayers: {max: 9}\n")
    deck, hand = line_of(KHRAP, "deck: {ranks:"), line_of(KHRAP, "hand_size: 4")
    assert mistakes(path) == [
        f"{path}:3:16: a deck of 36 cards is too small for 9 players: 9 hands of 4 and 3 turned cards need 39 "
        f"(inherited: `deck: {{ranks: [6, 7, 8, 9, T, J, Q, K, A]}}` at {KHRAP}:{deck}:7; `hand_size: 4` at "
        f"{KHRAP}:{hand}:12)"
    ]


def test_a_stage_the_house_rule_dropped_is_named_as_the_sheet_names_it(tmp_path: Path) -> None:
    path = write(tmp_path, "two-stages.yaml", "extends: khrap\nstages:\n"
                 "  - {id: bidding, kind: calls, calls: [khrap, help, pass]}\n  - {id: play, kind: play}\n")
    skip = line_of(KHRAP, "skip_stages: [fives, exchange]")
    assert mistakes(path) == [
        f"{path}:3:3: call 'helicopter' skips stage 'fives' (“Offers”, step 2 of 'khrap') (`skip_stages`), but no "
        "stage has that id: add the stage to `stages`, or take 'fives' out of the call's `skip_stages` (inherited: "
        f"`calls.helicopter.effects.skip_stages[0]: fives` at {KHRAP}:{skip}:21)",
        f"{path}:3:3: call 'helicopter' skips stage 'exchange' (“Exchange”, step 3 of 'khrap') (`skip_stages`), but "
        "no stage has that id: add the stage to `stages`, or take 'exchange' out of the call's `skip_stages` "
        f"(inherited: `calls.helicopter.effects.skip_stages[1]: exchange` at {KHRAP}:{skip}:28)",
    ]


def test_a_stage_of_the_file_is_named_by_its_step_on_the_sheet(tmp_path: Path) -> None:
    path = write(tmp_path, "skip.yaml", "extends: khrap\ncalls:\n  take-five: {effects: {skip_stages: [bidding]}}\n")
    message = mistakes(path)[0]
    assert message.startswith(f"{path}:3:39: call 'take-five' skips stage 'bidding' (“Bidding”, step 1) "), message


# --------------------------------------------------------------------------- cards as players write them


@pytest.mark.parametrize(("written", "card"), [
    ("7♠", "7S"), ("10♦", "TD"), ("7s", "7S"), ("TS", "TS"), ("10h", "TH"), ("a♣", "AC"), ("Q♡", "QH"),
    ("ace of spades", "AS"), ("K hearts", "KH"), (" jd ", "JD"),
])
def test_cards_as_players_write_them(written: str, card: str) -> None:
    assert card_str(parse_card(written)) == card


@pytest.mark.parametrize(("written", "rank"), [("Ace", "A"), ("ace", "A"), ("10", "T"), (10, "T"), ("t", "T"),
                                                ("King", "K"), ("six", "6"), (6, "6")])
def test_ranks_as_players_write_them(written: str | int, rank: str) -> None:
    assert rank_str(parse_rank(written)) == rank


def test_a_bad_rank_is_named_once_as_written() -> None:
    with pytest.raises(CardError) as info:
        parse_rank("Ace1")
    assert str(info.value) == "'Ace1' is not a rank: write 2-9, 10 (or T), J, Q, K or A, e.g. 10 or Ace"
    with pytest.raises(CardError) as info:
        parse_card("11S")
    assert str(info.value) == "'11S' is not a card: write rank then suit, e.g. TS, 10♠, 7s or AH"


def test_a_variant_file_takes_cards_and_ranks_as_players_write_them(tmp_path: Path) -> None:
    path = write(tmp_path, "joker.yaml", 'extends: khrap\njoker: {card: "7♠"}\n'
                 "deck: {ranks: [six, 7, 8, 9, 10, Jack, queen, K, Ace]}\n"
                 "calls:\n  merry: {requires: {holds: [{rank: ace, suit: trump}]}, effects: {keep: [{rank: Ace}]}}\n"
                 "  sad: {requires: {holds: [{rank: 6, suit: ♠}]}, effects: {keep: [{rank: 6, suit: spades}]}}\n")
    v = load_variant(str(path))
    assert v.joker.card == "7S" and v.deck.ranks == ["6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    assert v.calls["merry"].requires.holds[0].rank == "A"
    assert (v.calls["sad"].requires.holds[0].suit, v.calls["sad"].effects.keep[0].suit) == ("S", "S")


def test_a_bad_rank_in_a_file_is_one_clear_message(tmp_path: Path) -> None:
    path = write(tmp_path, "rank.yaml", "extends: khrap\ncalls:\n  merry: {requires: {holds: [{rank: Ace1}]}}\n")
    assert mistakes(path) == [
        f"{path}:3:37: calls.merry.requires.holds[0].rank: 'Ace1' is not a rank: write 2-9, 10 (or T), J, Q, K or "
        "A, e.g. 10 or Ace"
    ]


def test_a_scenario_deck_takes_cards_as_players_write_them(tmp_path: Path) -> None:
    from khrap.scenario import load_scenario

    scn = load_scenario(write(tmp_path, "s.yaml", "variant: khrap\nplayers: 2\ndecks:\n  - \"A♠ 10♦ 7s Kh\"\n"))
    assert [card_str(c) for c in scn.decks[0][:4]] == ["AS", "TD", "7S", "KH"]


def test_the_play_prompt_takes_cards_as_players_write_them() -> None:
    from khrap.engine.actions import parse_action

    assert [card_str(c) for c in parse_action("exchange 10♦ 7s").cards] == ["TD", "7S"]
    assert card_str(parse_action("play A♠").cards[0]) == "AS"


# --------------------------------------------------------------------------- the command


def test_version() -> None:
    from khrap import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"khrap {__version__}\n"


COMMANDS = ["variants", "show", "validate", "schema", "run", "new", "play", "replay", "rules", "diff", "simulate",
            "analyze"]


@pytest.mark.parametrize("command", COMMANDS)
def test_boolean_options_show_as_flags_in_help(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.stdout and "--help" in result.stdout


def test_a_flag_is_parsed_as_a_flag() -> None:
    assert runner.invoke(app, ["variants", "--json"]).exit_code == 0
    assert runner.invoke(app, ["variants", "--json", "true"]).exit_code == 2


def test_new_writes_a_commented_starting_file_that_validates(tmp_path: Path) -> None:
    path = tmp_path / "anna.yaml"
    result = runner.invoke(app, ["new", str(tmp_path / "anna"), "--from", "frap"])
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    assert "extends: frap\n" in text and "name: {en: Anna}\n" in text
    assert "# Cards per hand, and tricks per deal.\n# hand_size: 4\n" in text
    assert "#   cut: {enabled: true}  # Cut: " in text
    assert lint_file(path)[1] == []  # as written it plays like frap and warns about nothing
    # each commented rule, uncommented, is a valid house rule (with the value it shows, it changes nothing)
    edited = re.sub(r"^# (ante): \{amount: 1, ", r"\1: {amount: 2, ", text, flags=re.M)
    edited = re.sub(r"^# (play:)$\n^#   (must_beat): false", r"\1\n  \2: true", edited, flags=re.M)
    path.write_text(edited, encoding="utf-8")
    v = load_variant(str(path))
    assert v.ante.amount == 2 and v.play.must_beat is True
    again = runner.invoke(app, ["new", str(path)])
    assert again.exit_code == 2 and "exists already" in again.stderr


# --------------------------------------------------------------------------- the docs say what the program says


def test_the_mistake_shown_in_the_docs_gives_the_messages_shown(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[1] / "docs" / "house-rules.md").read_text(encoding="utf-8")
    part = doc[doc.index("For example, this file has two:"):]
    text = re.search(r"```text\n(.*?)```", part, re.S)[1]
    shown = re.search(r"```text\n\$ khrap validate my-khrap.yaml\n(.*?)```", part, re.S)[1].splitlines()
    path = write(tmp_path, "my-khrap.yaml", text)
    assert [m.replace(str(path), "my-khrap.yaml") for m in mistakes(path)] == shown
    fixed_text = text.replace("ante: 2", "ante: {amount: 2}").replace("must_beet", "must_beat")
    fixed = write(tmp_path, "fixed.yaml", fixed_text)
    assert load_variant(str(fixed)).ante.amount == 2


def test_the_table_of_messages_in_the_docs_matches_the_program(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[1] / "docs" / "house-rules.md").read_text(encoding="utf-8")
    table = doc[doc.index("| Mistake | Example | Message |"):doc.index("A YAML mistake stops the reading")]
    documented = re.findall(r"\| `` (.*?) `` ", table)
    files = {
        "a.yaml": "extends: khrap\nplay: {must_beet: true}\nante: 2\nname: \"My Khrap\"\nallow_debt: sometimes\n"
                  "hand_size: five\nstatuses: {helpr: {tricks: 1}}\n",
        "b.yaml": "extends: khrap\nplayers: {max: 13}\nstages:\n  - {id: bidding, kind: calsl, calls: [khrap]}\n",
        "b1.yaml": "extends: khrap\nstages:\n  - {id: bidding, kind: calls}\n",
        "b2.yaml": "extends: khrap\nstages:\n  - {id: bidding, kind: calls, calls: []}\n",
        "c.yaml": "extends: khrap\ncalls:\n  sadd: {enabled: false}\n  merry: {requires: {holds: [{rank: Ace1}]}}\n"
                  "joker: {card: 7x}\n",
        "c2.yaml": "extends: khrap\nplay: {first_lead: {calls: [take-fve]}}\n"
                   "calls:\n  helicopter: {effects: {skip_stages: [fivs]}}\n",
        "d.yaml": "extends: khrap\nname: {en: Big table}\nplayers: {max: 9}\n",
        "e.yaml": "extends: khrap\nstages:\n  - {id: bidding, kind: calls, calls: [khrap, help, pass]}\n"
                  "  - {id: play, kind: play}\n",
        "f.yaml": 'extends: khrap\nname: {en: "Пятница\\u202eEVIL"}\n',  # a YAML escape: the file stays plain
        **{f"y{i}.yaml": text for i, (text, _) in enumerate(YAML_MISTAKES.values())},
    }
    said = []
    for name, text in files.items():
        said += [m.replace(str(tmp_path / name), "") for m in mistakes(write(tmp_path, name, text))]
    said = [m.replace(str(KHRAP), "variants/khrap.yaml") for m in said]
    for message in documented:
        head = message.split(" ...")[0]
        assert any(head in m for m in said), message


def test_lengths_and_counts_beyond_a_limit_are_said_in_words(tmp_path: Path) -> None:
    from typing import Annotated

    from pydantic import BaseModel, ConfigDict, Field, StringConstraints

    from khrap.variant.loader import Origins, read_yaml, validate

    class Toy(BaseModel):
        model_config = ConfigDict(extra="forbid")
        name: Annotated[str, StringConstraints(max_length=3)]
        ids: list[str] = Field(default_factory=list, max_length=2)

    path = write(tmp_path, "toy.yaml", "name: Khrap\nids: [a, b, c]\n")
    data, marks = read_yaml(path)
    with pytest.raises(VariantErrors) as info:
        validate(Toy, data, Origins.for_file(path, marks))
    assert str(info.value).splitlines() == [
        f"{path}:1:7: name: is too long: at most 3 characters",
        f"{path}:2:6: ids: needs at most 2 entries, got 3",
    ]


def test_a_hand_size_that_breaks_an_inherited_call_is_reported_at_the_hand_size(tmp_path: Path) -> None:
    frap = variants_dir() / "frap.yaml"
    path = write(tmp_path, "frap-five.yaml", "extends: frap\nhand_size: 5\n")
    effects = line_of(frap, "effects: {status: helper, discard_hand: true, take_turned: optional")
    assert mistakes(path)[-1] == (
        f"{path}:2:12: call 'cut' leaves 4 cards in hand, not the hand size 5: keep + take + draw - then_discard "
        f"must make a hand (inherited: `calls.cut.effects` at {frap}:{effects}:14)"
    )


def test_fewer_players_than_the_inherited_fewest_is_one_mistake(tmp_path: Path) -> None:
    path = write(tmp_path, "few.yaml", "extends: khrap\nplayers: {max: 2, min: 3}\n")
    assert mistakes(path) == [f"{path}:2:24: players.min (3) is more than players.max (2)"]


# --------------------------------------------------------------------------- checks that know a hand's size (issue 30)


def test_a_declarer_promising_more_tricks_than_a_deal_has_is_refused(tmp_path: Path) -> None:
    """Issue 30: `statuses: {declarer: {tricks: 5}}` on khrap's 4-card hands validated, even with --strict."""
    path = write(tmp_path, "five.yaml", "extends: khrap\nstatuses: {declarer: {tricks: 5}}\n")
    assert mistakes(path) == [
        f"{path}:2:31: a declarer must take at least 5 tricks (`statuses.declarer.tricks: 5`), but a deal has only "
        "4 (`hand_size: 4`), so every declarer would fail, whatever he held: write at most 4, or a larger "
        f"`hand_size` (inherited: `hand_size: 4` at {KHRAP}:10:12)"
    ]
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "at least 5 tricks" in result.output
    load_variant(str(write(tmp_path, "four.yaml", "extends: khrap\nstatuses: {declarer: {tricks: 4}}\n")))


def test_a_call_that_draws_more_than_the_stock_ever_holds_is_warned_about(tmp_path: Path) -> None:
    # khrap at its fewest, 2 players: 36 cards - 2 hands of 4 - 1 turned card = a stock of 27
    text = "extends: khrap\ncalls:\n  take-five: {{effects: {{draw: {draw}, then_discard: {discard}}}}}\n"
    path = write(tmp_path, "greedy.yaml", text.format(draw=28, discard=24))
    assert [str(w) for w in lint_file(path)[1]] == [
        f"{path}:3:25: warning: call 'take-five' can never be made: it draws 28 cards (`draw: 28`), but the stock "
        "never holds more than 27 (at 2 players, after the deal), and no draw is ever partial"
    ]
    assert lint_file(write(tmp_path, "most.yaml", text.format(draw=27, discard=23)))[1] == []


def test_a_fine_no_failed_player_can_owe_is_warned_about(tmp_path: Path) -> None:
    # frap's helpers must take 1 trick: a helper with 1 trick has not failed; a rule after a catch-all never applies
    path = write(tmp_path, "fines.yaml", "extends: frap\nsettlement:\n  penalties:\n"
                 "    - {status: helper, tricks: 1, pay: {pots: 1}}\n"
                 "    - {pay: stake}\n"
                 "    - {status: declarer, tricks: 0, pay: {pots: 2}}\n")
    assert [str(w) for w in lint_file(path)[1] if "can never be paid" in str(w)] == [
        f"{path}:4:24: warning: penalty rule 1 can never be paid: it charges a player who took 1 trick "
        "(`tricks: 1`), but a helper who took 1 or more has not failed, and only failed players pay: write fewer "
        "tricks, or remove it",
        f"{path}:6:7: warning: penalty rule 3 can never be paid: rule 2 (`{{pay: stake}}`) charges every player it "
        "would, and only the first rule that matches applies: put it before rule 2, or remove it",
    ]
    fine = write(tmp_path, "fine.yaml", "extends: frap\nsettlement:\n  penalties:\n"
                 "    - {status: helper, tricks: 0, pay: {pots: 1}}\n"
                 "    - {status: declarer, tricks: 0, pay: {pots: 2}}\n"
                 "    - {pay: stake}\n")
    assert [str(w) for w in lint_file(fine)[1] if "can never be paid" in str(w)] == []


# --------------------------------------------------------------------------- writing a house rule (issue 30)

KHRAP_STAGES = ("stages:\n"
                "  - {id: bidding, kind: calls, phase: bidding, speakers: all, start: dealer_left,\n"
                "     calls: [khrap, help, merry, sad, wrap, helicopter, pass], out_hands: at_end}\n"
                "{fives}"
                "  - {id: exchange, kind: exchange, order: [{statuses: [declarer, helper]}]}\n"
                "  - {id: four-aces-check, kind: instant_wins}\n"
                "  - {id: play, kind: play}\n")
LATE = "  - {id: late, kind: calls, phase: offers, speakers: out, start: declarer_left, calls: [take-five, pass]}\n"


def test_calls_moved_to_a_new_step_are_still_offered(tmp_path: Path) -> None:
    """Take five moved from step 'fives' to a new step: 'fives no longer offers take-five' was wrong."""
    fives = "  - {id: fives, kind: calls, phase: offers, speakers: out, start: declarer_left, calls: [pass]}\n"
    path = write(tmp_path, "moved.yaml", "extends: khrap\n" + KHRAP_STAGES.replace("{fives}", fives + LATE))
    assert [str(w) for w in lint_file(path)[1]] == []


def test_a_renamed_step_is_said_to_be_gone(tmp_path: Path) -> None:
    text = ("extends: khrap\n" + KHRAP_STAGES.replace("{fives}", LATE)
            + "calls:\n  helicopter: {effects: {skip_stages: [late, exchange]}}\n")
    path = write(tmp_path, "renamed.yaml", text)
    assert [str(w) for w in lint_file(path)[1]] == [
        f"{path}:2:1: warning: stage 'fives' (“Offers”, step 2 of 'khrap') is gone, and new stage 'late' offers its "
        "calls: if it is the same step, keep the id 'fives', so that the sheet and `khrap diff` compare it with the "
        "step of 'khrap'"
    ]


def test_a_comma_in_unquoted_text_says_to_quote_it(tmp_path: Path) -> None:
    path = write(tmp_path, "comma.yaml", "extends: khrap\nnotes:\n  - {en: No phones, no snacks at the table}\n")
    assert mistakes(path) == [
        f"{path}:3:43: notes[0].no snacks at the table: must be a text, e.g. `no snacks at the table: \"...\"`; "
        "got null (a comma inside `{...}` ends a text, so 'no snacks at the table' was read as a key: if it "
        "belongs to the text before it, put that whole text in quotes, e.g. `\"..., no snacks at the table\"`)"
    ]


def test_a_new_ante_whose_all_pass_stakes_stay_behind_is_warned_about(tmp_path: Path) -> None:
    """frap: each new round adds an ante (round_ante 1 = ante 1); an ante of 2 leaves them at 1."""
    path = write(tmp_path, "ante.yaml", "extends: frap\nante: {amount: 2}\n")
    assert [str(w) for w in lint_file(path)[1]] == [
        f"{path}:2:8: warning: the ante is now 2 base stakes, but the stakes players add when all pass stay 1 "
        "(`all_pass.round_ante: 1`, `all_pass.last_ante: 1`, from 'frap', where they were one ante each): write "
        "`all_pass: {round_ante: 2, last_ante: 2}` if they follow the ante"
    ]
    both = write(tmp_path, "both.yaml", "extends: frap\nante: {amount: 2}\nall_pass: {round_ante: 2, last_ante: 2}\n")
    assert lint_file(both)[1] == []


@pytest.mark.parametrize(("written", "meant"), [("храп", "'khrap' (Храп)"),
                                                ("Student Snore", "'student-snore' (Student Snore)"),
                                                ("Frapas", "'frap' (Frapas)")])
def test_a_builtin_named_as_the_table_calls_it_is_suggested_by_its_id(tmp_path: Path, written: str, meant: str) -> None:
    # A Russian host pasted `extends: храп` on the create page and read "unknown built-in variant 'храп'; built-in
    # variants are: frap, khrap, ...": the ids, none of them the word he wrote. A built-in's display name in any
    # language points at its id.
    path = write(tmp_path, "house.yaml", f"extends: {written}\nbase_stake: 2\n")
    assert mistakes(path) == [f"{path}:1:10: unknown built-in variant '{written}'; did you mean {meant}?"]


# --------------------------------------------------------------------------- in the player's language


FRIDAY = "extends: khrap\nbase_stak: 2\ncalls: {sadd: {enabled: false}}\nplayers: {min: 1}\nante: 2\n"


def test_validate_says_each_mistake_in_russian_at_the_same_place(tmp_path: Path) -> None:
    path = write(tmp_path, "friday.yaml", FRIDAY)
    result = runner.invoke(app, ["validate", str(path), "--lang", "ru"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{path}:2:1: неизвестный ключ 'base_stak'; вы имели в виду 'base_stake'?",
        f"{path}:3:9: calls: в 'khrap' нет заявки 'sadd'; вы имели в виду 'sad'? (чтобы добавить новую заявку, "
        "задайте ей `name` и `effects`)",
        f"{path}:4:16: players.min: должно быть не меньше 2, а указано 1",
        f"{path}:5:7: ante: должно быть: словарь (ключ: значение), например `ante: {{amount: 1, when: every_deal}}`; "
        "а указано 2",
    ]
    english = runner.invoke(app, ["validate", str(path)])  # the default, word for word as before
    assert english.stderr.splitlines()[:3] == [
        f"{path}:2:1: unknown key 'base_stak'; did you mean 'base_stake'?",
        f"{path}:3:9: calls: 'khrap' has no call 'sadd'; did you mean 'sad'? (to add a new call, give it `name` and "
        "`effects`)",
        f"{path}:4:16: players.min: must be at least 2, got 1",
    ]


def test_rules_and_diff_refuse_a_broken_house_rule_in_the_sheets_language(tmp_path: Path) -> None:
    path = write(tmp_path, "friday.yaml", "extends: khrap\nplayers: {min: 1}\n")
    for args in (["rules", str(path)], ["diff", "khrap", str(path)]):
        result = runner.invoke(app, [*args, "--lang", "ru"])
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert result.stderr == f"{path}:2:16: players.min: должно быть не меньше 2, а указано 1\n"
    # and in the other languages of the sheets (a message a catalog lacks shows in English: test_checker_catalogs)
    result = runner.invoke(app, ["rules", str(path), "--lang", "fi"])
    assert result.stderr == f"{path}:2:16: players.min: on oltava vähintään 2; annettiin 1\n"


def test_every_checker_message_has_its_russian() -> None:
    # (and its Lithuanian, Finnish and Armenian, with the same values: tests/test_checker_catalogs.py)
    from tests.test_checker_catalogs import test_every_checker_message_is_translated_with_the_same_values

    test_every_checker_message_is_translated_with_the_same_values("ru")


def test_a_value_of_the_wrong_kind_names_the_kind_in_russian_too(tmp_path: Path) -> None:
    path = write(tmp_path, "kinds.yaml", "extends: khrap\nplayers: {min: x}\ncalls:\n  sad: {enabled: maybe}\n")
    result = runner.invoke(app, ["validate", str(path), "--lang", "ru"])
    assert result.stderr.splitlines() == [
        f"{path}:2:16: players.min: должно быть: целое число от 2 до 12, например `min: 2`; а указано 'x'",
        f"{path}:4:18: calls.sad.enabled: должно быть: true или false, например `enabled: true`; а указано 'maybe'",
    ]
    assert mistakes(path)[0] == f"{path}:2:16: players.min: must be a whole number from 2 to 12, e.g. `min: 2`; got 'x'"
