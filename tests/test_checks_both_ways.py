"""Each semantic check of khrap/variant/checks.py proven both ways.

For every check, a variant it must refuse (the exact message, at the exact place in the file) and the
nearest variant it must accept: the boundary.  A check dropped, or its boundary moved by one, fails one
side.  The variants are small edits of TINY, a complete variant of three calls and two stages; each case
says in its name the rule it guards.  (tests/test_loader.py holds more refused cases of the same checks,
written against the built-ins: UNPLAYABLE and PLAYABLE.)
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from khrap.engine import GameState, Rules
from khrap.variant import catalog
from khrap.variant.loader import VariantError
from tests.conftest import random_deal

TINY = """\
name: {en: Tiny, ru: Малый}
players: {min: 2, max: 4}
hand_size: 4
deck: {ranks: [6, 7, 8, 9, T, J, Q, K, A]}
calls:
  bid:
    name: {en: Bid}
    requires: {declarer: absent}
    effects: {status: declarer}
  help:
    name: {en: Help}
    requires: {declarer: exists}
    effects: {status: helper}
  pass:
    name: {en: Pass}
    effects: {status: out}
stages:
  - {id: bidding, kind: calls, calls: [bid, help, pass]}
  - {id: exchange, kind: exchange}
  - {id: play, kind: play}
"""
NINE = "[6, 7, 8, 9, T, J, Q, K, A]"
EIGHT = "[7, 8, 9, T, J, Q, K, A]"
BID = "    requires: {declarer: absent}\n    effects: {status: declarer}\n"
HELP = "    requires: {declarer: exists}\n    effects: {status: helper}\n"
PASS = "    effects: {status: out}\n"
FIRST = "  - {id: bidding, kind: calls, calls: [bid, help, pass]}\n"
EXCHANGE = "  - {id: exchange, kind: exchange}\n"
PLAY = "  - {id: play, kind: play}\n"
# a declaring call said after a declarer exists, taking his place (for the exchange-turn checks)
GRAB = ("  grab:\n    name: {en: Grab}\n    requires: {declarer: exists}\n"
        "    effects: {status: declarer, override: true}\n")
NAMED = "trump: {source: named}\n"
NAME_TRUMP = "  - {id: name-trump, kind: name_trump}\n"
# 7 seats, 5 bidding rounds, 11 calls stages, a help that draws and discards 24 (never open: the stock is short)
BOUNDED = (("players: {min: 2, max: 4}", "players: {min: 2, max: 7}\nall_pass: {rounds: 5}"),
           (HELP, "    requires: {declarer: exists}\n    effects: {status: helper, draw: 24, then_discard: 24}\n"),
           (EXCHANGE, "".join(f"  - {{id: more-{k}, kind: calls, speakers: others, calls: [help, pass]}}\n"
                              for k in range(10)) + EXCHANGE))


def tiny(*edits: tuple[str, str], add: str = "") -> str:
    """TINY with each (old, new) replaced once (old must occur once), and ``add`` appended."""
    text = TINY
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} must occur once in TINY"
        text = text.replace(old, new)
    return text + add


def calls_with(extra: str) -> tuple[str, str]:
    """An edit adding call definitions after the pass call."""
    return PASS, PASS + extra


# check function -> rule -> (refused text, LINE:COL of the message, message, the accepted neighbour)
CASES: dict[str, dict[str, tuple[str, str, str, str]]] = {
    "_texts": {
        "variant-name-needs-english": (
            tiny(("name: {en: Tiny, ru: Малый}", "name: {ru: Малый}")), "1:7",
            "name needs an English text (en), the fallback for every language",
            tiny(("name: {en: Tiny, ru: Малый}", "name: {en: Tiny}")),
        ),
        "call-name-needs-english": (
            tiny(("name: {en: Bid}", "name: {ru: Заявка}")), "7:11",
            "call 'bid' needs an English name (en)",
            tiny(("name: {en: Bid}", "name: {en: Bid, ru: Заявка}")),
        ),
    },
    "_players": {
        "min-not-above-max": (
            tiny(("players: {min: 2, max: 4}", "players: {min: 4, max: 3}")), "2:16",
            "players.min (4) is more than players.max (3)",
            tiny(("players: {min: 2, max: 4}", "players: {min: 3, max: 3}")),  # min == max is a table of 3
        ),
    },
    "_deck": {
        "deck-as-ranks-or-by-players": (
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{ranks: {NINE}, by_players: [{{up_to: 4, ranks: {NINE}}}]}}")),
            "4:7", "give the deck either as `ranks` or as `by_players`, not both or neither",
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{by_players: [{{up_to: 4, ranks: {NINE}}}]}}")),
        ),
        "by-players-in-ascending-order": (
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{by_players: [{{up_to: 4, ranks: {NINE}}}, "
                                              f"{{up_to: 3, ranks: {EIGHT}}}]}}")),
            "4:20", "list the decks by_players in ascending order of up_to",
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{by_players: [{{up_to: 3, ranks: {EIGHT}}}, "
                                              f"{{up_to: 4, ranks: {NINE}}}]}}")),  # 4 players: the second deck
        ),
        "a-deck-for-every-player-count": (
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{by_players: [{{up_to: 3, ranks: {NINE}}}]}}")),
            "4:20", "no deck is given for 4 players",
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{by_players: [{{up_to: 4, ranks: {NINE}}}]}}")),  # up_to counts
        ),
        # 4 hands of 4 and one turned card per bidding round (turn_up): 5 rounds need 21 cards, 4 need 20
        "deck-holds-the-hands-and-the-turned-cards": (
            tiny((f"deck: {{ranks: {NINE}}}", "deck: {ranks: [T, J, Q, K, A]}\nall_pass: {rounds: 5}")), "4:7",
            "a deck of 20 cards is too small for 4 players: 4 hands of 4 and 5 turned cards need 21",
            tiny((f"deck: {{ranks: {NINE}}}", "deck: {ranks: [T, J, Q, K, A]}\nall_pass: {rounds: 4}")),
        ),
        # without turn_up the first turned card stays trump for every round: 17 cards needed
        "one-turned-card-without-turn-up": (
            tiny((f"deck: {{ranks: {NINE}}}", "deck: {ranks: [J, Q, K, A]}\nall_pass: {rounds: 2, turn_up: false}")),
            "4:7", "a deck of 16 cards is too small for 4 players: 4 hands of 4 and 1 turned cards need 17",
            tiny((f"deck: {{ranks: {NINE}}}", "deck: {ranks: [T, J, Q, K, A]}\nall_pass: {rounds: 4, turn_up: false}")),
        ),
    },
    "_call_ids": {
        "call-id-not-a-kernel-word": (
            tiny(("  pass:\n", "  discard:\n"), ("[bid, help, pass]", "[bid, help, discard]")), "15:5",
            "'discard' is an action word of the kernel and cannot be a call id",
            tiny(("  pass:\n", "  discards:\n"), ("[bid, help, pass]", "[bid, help, discards]")),
        ),
        "call-id-of-one-word": (
            tiny(("  pass:\n", "  no bid:\n"), ("[bid, help, pass]", "[bid, help, no bid]")), "15:5",
            "call id 'no bid' must be one word",
            tiny(("  pass:\n", "  no-bid:\n"), ("[bid, help, pass]", "[bid, help, no-bid]")),
        ),
        "instant-win-id-of-one-word": (
            tiny(add="instant_wins:\n  four aces: {name: {en: Four aces}, rank: A, count: 4}\n"), "22:14",
            "instant win id 'four aces' must be one word (e.g. 'four-aces')",
            tiny(add="instant_wins:\n  four-aces: {name: {en: Four aces}, rank: A, count: 4}\n"),
        ),
    },
    "_references": {
        "stage-ids-unique": (
            tiny((EXCHANGE, "  - {id: bidding, kind: calls, speakers: others, calls: [help, pass]}\n" + EXCHANGE)),
            "18:10", "stage id 'bidding' is used twice",
            tiny((EXCHANGE, "  - {id: answers, kind: calls, speakers: others, calls: [help, pass]}\n" + EXCHANGE)),
        ),
        "stage-offers-known-calls": (
            tiny(("[bid, help, pass]", "[bid, help, pas]")), "18:51", "unknown call 'pas'; did you mean 'pass'?",
            TINY,
        ),
        "skip-known-stages": (
            tiny(("    effects: {status: declarer}\n", "    effects: {status: declarer, skip_stages: [exchang]}\n")),
            "9:47", "call 'bid' skips stage 'exchang' (`skip_stages`), but no stage has that id; did you mean "
            "'exchange'?",
            tiny(("    effects: {status: declarer}\n", "    effects: {status: declarer, skip_stages: [exchange]}\n")),
        ),
        "first-lead-names-known-calls": (
            tiny(add="play: {first_lead: {calls: [hlep]}}\n"), "21:29", "unknown call 'hlep'; did you mean 'help'?",
            tiny(add="play: {first_lead: {calls: [help]}}\n"),
        ),
        "penalty-names-known-calls": (
            tiny(add="settlement: {penalties: [{calls: [bidd]}, {}]}\n"), "21:35",
            "unknown call 'bidd'; did you mean 'bid'?",
            tiny(add="settlement: {penalties: [{calls: [bid]}, {}]}\n"),
        ),
        "exchange-order-names-known-calls": (
            tiny((EXCHANGE, "  - {id: exchange, kind: exchange, order: [{statuses: [declarer]}, {calls: [hepl]}]}\n")),
            "19:77", "unknown call 'hepl'; did you mean 'help'?",
            tiny((EXCHANGE, "  - {id: exchange, kind: exchange, order: [{statuses: [declarer]}, {calls: [help]}]}\n")),
        ),
        "exchange-order-by-known-calls": (
            tiny((EXCHANGE, "  - {id: exchange, kind: exchange, order_by_call: {bdi: [{statuses: [declarer]}]}}\n")),
            "19:57", "unknown call 'bdi'; did you mean 'bid'?",
            tiny((EXCHANGE, "  - {id: exchange, kind: exchange, order_by_call: {bid: [{statuses: [declarer]}]}}\n")),
        ),
        "statuses-give-the-helper": (
            tiny(add="statuses: {declarer: {tricks: 2, stake: {base: 2}}}\n"), "21:11",
            "statuses must give the 'helper' status its tricks and stake",
            tiny(add="statuses: {declarer: {tricks: 2, stake: {base: 2}}, helper: {tricks: 1}}\n"),
        ),
        "statuses-give-the-declarer": (
            tiny(add="statuses: {helper: {tricks: 1, stake: {base: 1}}}\n"), "21:11",
            "statuses must give the 'declarer' status its tricks and stake",
            tiny(add="statuses: {helper: {tricks: 1, stake: {base: 1}}, declarer: {tricks: 2}}\n"),
        ),
    },
    "_skips": {
        "never-skip-the-play": (
            tiny(("    effects: {status: declarer}\n", "    effects: {status: declarer, skip_stages: [play]}\n")),
            "9:47", "call 'bid' skips the play stage 'play' (“Play”, step 3) (`skip_stages`), but a deal ends only "
            "when its tricks "
            "are played (or by an instant win): remove 'play' from `skip_stages`",
            tiny(("    effects: {status: declarer}\n", "    effects: {status: declarer, skip_stages: [exchange]}\n")),
        ),
        "never-skip-naming-trump": (
            tiny(("    effects: {status: declarer}\n", "    effects: {status: declarer, skip_stages: [name-trump]}\n"),
                 (EXCHANGE, EXCHANGE + NAME_TRUMP), add=NAMED), "9:47",
            "call 'bid' skips stage 'name-trump' (“Trump”, step 3) (`skip_stages`), where the declarer names trump "
            "(`kind: "
            "name_trump`), but this variant has no other trump (`trump.source: named`), so the deal would be "
            "played with no trump at all: remove 'name-trump' from `skip_stages`",
            tiny(("    effects: {status: declarer}\n", "    effects: {status: declarer, skip_stages: [exchange]}\n"),
                 (EXCHANGE, EXCHANGE + NAME_TRUMP), add=NAMED),
        ),
        "skip-only-later-stages": (
            tiny(("    effects: {status: declarer}\n", "    effects: {status: declarer, skip_stages: [bidding]}\n")),
            "9:47",
            "call 'bid' skips stage 'bidding' (“Bidding”, step 1) (`skip_stages`), which does not come after stage "
            "'bidding' where the "
            "call is said: a stage is skipped when the deal comes to it, so this one would stop at once without its "
            "ending (no all-pass round while nobody has declared, no out players' hands thrown) and the deal could "
            "go on with no declarer: skip only stages after 'bidding', or write `ends_stage: true` to end the stage "
            "it is said in",
            tiny(("    effects: {status: declarer}\n", "    effects: {status: declarer, ends_stage: true}\n")),
        ),
    },
    "_cards": {
        # the first deck, for 2 players, has the six; the deck for 3 and 4 players has not
        "held-rank-in-every-deck": (
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{by_players: [{{up_to: 2, ranks: {NINE}}}, "
                                              f"{{up_to: 4, ranks: {EIGHT}}}]}}"),
                 (HELP, "    requires: {declarer: exists, holds: [{rank: 6}]}\n    effects: {status: helper}\n")),
            "12:42", "call 'help' names rank 6, which is not in every deck of this variant",
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{by_players: [{{up_to: 2, ranks: {NINE}}}, "
                                              f"{{up_to: 4, ranks: {EIGHT}}}]}}"),
                 (HELP, "    requires: {declarer: exists, holds: [{rank: 7}]}\n    effects: {status: helper}\n")),
        ),
        "instant-win-rank-in-every-deck": (
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{ranks: {EIGHT}}}"),
                 add="instant_wins:\n  sixes: {name: {en: Sixes}, rank: 6, count: 4}\n"), "22:36",
            "instant win 'sixes' names rank 6, which is not in every deck of this variant",
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{ranks: {EIGHT}}}"),
                 add="instant_wins:\n  sevens: {name: {en: Sevens}, rank: 7, count: 4}\n"),
        ),
        "joker-in-every-deck": (
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{ranks: {EIGHT}}}"), add="joker: {card: 6S}\n"), "21:15",
            "the joker names rank 6, which is not in every deck of this variant",
            tiny((f"deck: {{ranks: {NINE}}}", f"deck: {{ranks: {EIGHT}}}"), add="joker: {card: 7S}\n"),
        ),
        "turned-rank-needs-a-turned-card": (
            tiny((HELP, "    requires: {declarer: exists, turned_rank: A}\n    effects: {status: helper}\n"),
                 (EXCHANGE, EXCHANGE + NAME_TRUMP), add=NAMED), "11:5",
            "call 'help' uses the turned card, but this variant turns no trump",
            tiny((HELP, "    requires: {declarer: exists, turned_rank: A}\n    effects: {status: helper}\n")),
        ),
        "taking-the-turned-card-needs-one": (
            tiny((HELP, "    requires: {declarer: exists}\n"
                        "    effects: {status: helper, take_turned: \"yes\", then_discard: 1}\n"),
                 (EXCHANGE, EXCHANGE + NAME_TRUMP), add=NAMED), "11:5",
            "call 'help' uses the turned card, but this variant turns no trump",
            tiny((HELP, "    requires: {declarer: exists}\n"
                        "    effects: {status: helper, take_turned: \"yes\", then_discard: 1}\n")),
        ),
        "no-trump-card-required-before-trump-is-named": (
            tiny((HELP, "    requires: {declarer: exists, holds: [{rank: A, suit: trump}]}\n"
                        "    effects: {status: helper}\n"), (EXCHANGE, EXCHANGE + NAME_TRUMP), add=NAMED), "12:42",
            "this card is named by trump, but trump is only named after bidding",
            tiny((HELP, "    requires: {declarer: exists, holds: [{rank: A, suit: H}]}\n"
                        "    effects: {status: helper}\n"), (EXCHANGE, EXCHANGE + NAME_TRUMP), add=NAMED),
        ),
    },
    "_turned_card": {
        "turned-card-taken-with-the-call": (
            tiny((HELP, "    requires: {declarer: exists}\n    effects: {status: helper, take_turned: \"yes\", "
                        "then_discard: 1, when: exchange}\n")), "13:74",
            "call 'help' takes the turned card (`take_turned: yes`) only at the exchange (`when: exchange`), but "
            "another call may take the card first: write `when: now`, or `take_turned: no`",
            tiny((HELP, "    requires: {declarer: exists}\n    effects: {status: helper, take_turned: \"yes\", "
                        "then_discard: 1, when: now}\n")),
        ),
        "swap-names-a-card-of-the-hand-as-dealt": (
            tiny((HELP, "    requires: {declarer: exists}\n    effects: {status: helper, take_turned: swap, "
                        "discard_hand: true, draw: 4}\n")), "13:44",
            "call 'help' swaps the turned card for a named hand position (`take_turned: swap`) after throwing the "
            "hand (`discard_hand: true`), so the position names a thrown card: write `take_turned: yes` (the card "
            "joins the new hand), or `discard_hand: false`",
            tiny((HELP, "    requires: {declarer: exists}\n    effects: {status: helper, take_turned: swap}\n")),
        ),
    },
    "_hand_sizes": {
        "a-call-leaves-a-full-hand-not-more": (
            tiny((HELP, "    requires: {declarer: exists}\n    effects: {status: helper, draw: 1}\n")), "13:14",
            "call 'help' leaves 5 cards in hand, not the hand size 4: keep + take + draw - then_discard must make a "
            "hand",
            tiny((HELP, "    requires: {declarer: exists}\n    effects: {status: helper, draw: 1, then_discard: 1}\n")),
        ),
        "a-call-leaves-a-full-hand-not-fewer": (
            tiny((HELP, "    requires: {declarer: exists}\n    effects: {status: helper, then_discard: 1}\n")), "13:14",
            "call 'help' leaves 3 cards in hand, not the hand size 4: keep + take + draw - then_discard must make a "
            "hand",
            tiny((HELP, "    requires: {declarer: exists}\n    effects: {status: helper, draw: 2, then_discard: 2}\n")),
        ),
        "the-taken-turned-card-counts": (
            tiny((HELP, "    requires: {declarer: exists}\n    effects: {status: helper, take_turned: \"yes\"}\n")),
            "13:14",
            "call 'help' leaves 5 cards in hand, not the hand size 4: keep + take + draw - then_discard must make a "
            "hand",
            tiny((HELP, "    requires: {declarer: exists}\n"
                        "    effects: {status: helper, take_turned: \"yes\", then_discard: 1}\n")),
        ),
        "kept-cards-are-required": (
            tiny((HELP, "    requires: {declarer: exists}\n"
                        "    effects: {status: helper, discard_hand: true, keep: [{rank: A}], draw: 3}\n")),
            "13:57",
            "call 'help' throws the hand but for cards it keeps (`keep`) without requiring them (`requires.holds`), "
            "so a caller who lacks them is left with 3 cards, not the hand size 4, and play could find him with no "
            "card to play: list every kept card in `requires.holds` too",
            tiny((HELP, "    requires: {declarer: exists, holds: [{rank: A}]}\n"
                        "    effects: {status: helper, discard_hand: true, keep: [{rank: A}], draw: 3}\n")),
        ),
        "exchange-draws-extra-only-to-discard": (
            tiny((BID, BID + "    exchange: {draw_extra: 1}\n")), "10:15",
            "call 'bid' draws 1 extra at the exchange but discards 0 after",
            tiny((BID, BID + "    exchange: {draw_extra: 1, then_discard: 1}\n")),
        ),
        "min-discard-at-most-the-hand": (
            tiny((BID, BID + "    exchange: {min_discard: 5}\n")), "10:29",
            "call 'bid': min_discard is more than the hand size",
            tiny((BID, BID + "    exchange: {min_discard: 4}\n")),  # the declarer changes his whole hand
        ),
        "min-discard-at-most-max-discard": (
            tiny((BID, BID + "    exchange: {min_discard: 3, max_discard: 2}\n")), "10:29",
            "call 'bid': min_discard is more than max_discard",
            tiny((BID, BID + "    exchange: {min_discard: 2, max_discard: 2}\n")),
        ),
    },
    "_declarer_goes_out": {  # run inside _hand_sizes
        "a-declarer-asked-again-keeps-his-status": (
            tiny((EXCHANGE, "  - {id: again, kind: calls, speakers: all, calls: [help, bid]}\n" + EXCHANGE)),
            "19:40",
            "call 'help' makes its caller a helper (`status: helper`), and stage 'again' (“Bidding”, step 2) asks "
            "the declarer too "
            "(`speakers: all`): a declarer who says it stays the deal's declarer, who leads to the first trick and "
            "whose call orders the exchange, yet his status is helper, so nobody plays for the declarer's tricks: "
            "write `speakers: others` or `speakers: out` in stage 'again'",
            tiny((EXCHANGE, "  - {id: again, kind: calls, speakers: others, calls: [help, bid]}\n" + EXCHANGE)),
        ),
    },
    # a deal has hand_size tricks: a status may promise all of them, never more
    "_obligations": {
        "declarer-promises-no-more-tricks-than-a-deal-has": (
            tiny(add="statuses: {declarer: {tricks: 5}, helper: {tricks: 1}}\n"), "21:31",
            "a declarer must take at least 5 tricks (`statuses.declarer.tricks: 5`), but a deal has only 4 "
            "(`hand_size: 4`), so every declarer would fail, whatever he held: write at most 4, or a larger "
            "`hand_size`",
            tiny(add="statuses: {declarer: {tricks: 4}, helper: {tricks: 1}}\n"),
        ),
        "helper-promises-no-more-tricks-than-a-deal-has": (
            tiny(add="statuses: {declarer: {tricks: 2}, helper: {tricks: 5}}\n"), "21:52",
            "each helper must take at least 5 tricks (`statuses.helper.tricks: 5`), but a deal has only 4 "
            "(`hand_size: 4`), so every helper would fail, whatever he held: write at most 4, or a larger "
            "`hand_size`",
            tiny(add="statuses: {declarer: {tricks: 2}, helper: {tricks: 4}}\n"),
        ),
    },
    "_overrides": {
        "a-declarer-made-over-another-overrides": (
            tiny(calls_with("  grab:\n    name: {en: Grab}\n    requires: {declarer: exists}\n"
                            "    effects: {status: declarer}\n"), ("[bid, help, pass]", "[bid, help, grab, pass]")),
            "20:14", "call 'grab' makes a declarer when one may exist: set `override: true` or `declarer: absent`",
            tiny(calls_with(GRAB), ("[bid, help, pass]", "[bid, help, grab, pass]")),
        ),
        "a-declarer-made-at-any-time-overrides": (
            tiny(("    requires: {declarer: absent}\n", "")), "8:14",
            "call 'bid' makes a declarer when one may exist: set `override: true` or `declarer: absent`",
            tiny(("    requires: {declarer: absent}\n    effects: {status: declarer}\n",
                  "    effects: {status: declarer, override: true}\n")),
        ),
    },
    "_out_discards": {
        # fold is said in a later stage: thrown as he goes out, the folder could not discard; at its end he can
        "an-out-caller-owing-a-discard-keeps-his-hand-until-the-stage-ends": (
            tiny(calls_with("  fold:\n    name: {en: Fold}\n    effects: {status: out, then_discard: 1}\n"),
                 (EXCHANGE, "  - {id: late, kind: calls, speakers: others, start: declarer_left, calls: [fold, help], "
                            "out_hands: on_call}\n" + EXCHANGE)), "19:42",
            "call 'fold' puts its caller out owing 1 discard (`then_discard: 1`), but stage 'late' (“Bidding”, step "
            "2) throws his hand as "
            "he goes out (`out_hands: on_call`), so he would have no card to discard and no legal action: write "
            "`then_discard: 0` (an out player's cards are not played), or `out_hands: at_end` in stage 'late'",
            tiny(calls_with("  fold:\n    name: {en: Fold}\n    effects: {status: out, then_discard: 1}\n"),
                 (EXCHANGE, "  - {id: late, kind: calls, speakers: others, start: declarer_left, calls: [fold, help], "
                            "out_hands: at_end}\n" + EXCHANGE)),
        ),
        # the folder keeps his required ace: one card, so he may owe one discard, not two
        "an-out-caller-keeps-the-cards-he-owes": (
            tiny(calls_with("  fold:\n    name: {en: Fold}\n    requires: {holds: [{rank: A}]}\n    effects: "
                            "{status: out, discard_hand: true, keep: [{rank: A}], then_discard: 2}\n"),
                 ("[bid, help, pass]", "[bid, help, fold, pass]")), "20:81",
            "call 'fold' puts its caller out owing 2 discards (`then_discard: 2`), but it throws his hand "
            "(`discard_hand: true`) and leaves him only 1 card to discard and no legal action: write "
            "`then_discard: 0` (an out player's cards are not played)",
            tiny(calls_with("  fold:\n    name: {en: Fold}\n    requires: {holds: [{rank: A}]}\n    effects: "
                            "{status: out, discard_hand: true, keep: [{rank: A}], then_discard: 1}\n"),
                 ("[bid, help, pass]", "[bid, help, fold, pass]")),
        ),
    },
    "_out_speakers": {
        # the passers of the first stage throw their hands (pass: discard_hand), so a later stage asking them may
        # offer only calls that need no cards of theirs
        "players-without-cards-are-not-put-in-play": (
            tiny((PASS, "    effects: {status: out, discard_hand: true}\n"),
                 (EXCHANGE, "  - {id: late, kind: calls, speakers: out, start: declarer_left, calls: [help, pass]}\n"
                  + EXCHANGE)), "19:74",
            "stage 'late' (“Bidding”, step 2) offers call 'help' to players who are out (`speakers: out`), whose hands "
            "stage 'bidding' (“Bidding”, step 1) may have thrown, but the call puts its caller in play (`status: "
            "helper`) without throwing the hand and "
            "drawing a whole new one, so he could play with no card and find no legal action: give 'help' "
            "`discard_hand: true` and draws that make a hand of 4, or do not offer it in stage 'late'",
            tiny((EXCHANGE, "  - {id: late, kind: calls, speakers: out, start: declarer_left, calls: [help, pass]}\n"
                  + EXCHANGE)),
        ),
    },
    "_exchange_turns": {
        "reserved-draws-need-an-exchange-turn": (
            tiny((BID, BID + "    exchange: {min_discard: 1}\n"),
                 (EXCHANGE, "  - {id: exchange, kind: exchange, order: [{calls: [help]}]}\n")), "20:43",
            "call 'bid' reserves draws for its caller's exchange turn (`exchange: {min_discard: 1}`), but exchange "
            "stage 'exchange' (“Exchange”, step 2), the next after stage 'bidding' (“Bidding”, step 1) where it is "
            "said, "
            "gives its caller no turn (neither status 'declarer' nor call 'bid' is in its `order`), so that "
            "exchange would never happen and the draws "
            "it reserves would stay reserved for the rest of the deal: add `{calls: [bid]}` to that order, or write "
            "`min_discard: 0`",
            tiny((BID, BID + "    exchange: {min_discard: 1}\n"),
                 (EXCHANGE, "  - {id: exchange, kind: exchange, order: [{calls: [bid]}]}\n")),  # a turn by its name
        ),
        # grab may follow bid in the same stage and puts the bidder out, losing the turn his draws wait for;
        # a bid that ends the stage cannot be followed there
        "an-overridden-declarer-put-out-loses-his-turn": (
            tiny((BID, BID + "    exchange: {min_discard: 1}\n"), calls_with(GRAB),
                 ("[bid, help, pass]", "[bid, help, grab, pass]"), add="overridden_becomes: out\n"), "26:21",
            "call 'bid' reserves draws for its caller's exchange turn (`exchange: {min_discard: 1}`), but call "
            "'grab', which may be said after it in the same deal, overrides its caller (`override: true`) and puts "
            "him out (`overridden_becomes: out`), and players who are out have no exchange turn, so that exchange "
            "would never happen and the draws it reserves would stay reserved for the rest of the deal: write "
            "`overridden_becomes: helper`, or write `min_discard: 0`",
            tiny(("    effects: {status: declarer}\n", "    effects: {status: declarer, ends_stage: true}\n"
                  "    exchange: {min_discard: 1}\n"), calls_with(GRAB),
                 ("[bid, help, pass]", "[bid, help, grab, pass]"), add="overridden_becomes: out\n"),
        ),
        "a-waiting-call-comes-before-an-exchange": (
            tiny((BID, BID + "    exchange: {min_discard: 1}\n"), (EXCHANGE, "")), "19:40",
            "call 'bid' reserves draws for its caller's exchange turn (`exchange: {min_discard: 1}`), but stage "
            "'bidding' (“Bidding”, step 1) offers it after the last exchange stage, so that exchange would never "
            "happen and the draws "
            "it reserves would stay reserved for the rest of the deal: write `min_discard: 0`, or offer it in a "
            "stage before an exchange stage",
            tiny((BID, BID + "    exchange: {min_discard: 0}\n"), (EXCHANGE, "")),
        ),
    },
    # deal_bound: rounds x calls stages x seats x (1 + per turn) + exchanges x seats x per turn + trump
    # namings + hand x seats + 1, per turn = 2 + the most a call draws and discards (help: 24 + 24).
    # 5 x 11 x 7 x 51 + 1 x 7 x 50 + 0 + 2 x 7 + 1 = 20000, the limit; a hand of 3 makes it 20007.
    "_bounded": {
        "a-deal-has-a-bounded-number-of-actions": (
            tiny(*BOUNDED, ("hand_size: 4", "hand_size: 3")), "3:20",
            "a deal could take up to 20007 actions (5 bidding rounds of 11 calls stages at 7 seats, with the "
            "exchanges and the play); the limit is 20000: fewer rounds, stages or players",
            tiny(*BOUNDED, ("hand_size: 4", "hand_size: 2")),
        ),
    },
    "_stages": {
        "first-stage-is-a-calls-stage": (
            tiny((FIRST, "  - {id: four-aces, kind: instant_wins}\n"
                         "  - {id: bidding, kind: calls, speakers: others, calls: [bid, help, pass]}\n")), "18:3",
            "the first stage must be a calls stage (someone has to become declarer)",
            tiny((FIRST, FIRST + "  - {id: four-aces, kind: instant_wins}\n")),
        ),
        "one-play-stage": (
            tiny((PLAY, PLAY + "  - {id: play-again, kind: play}\n")), "18:3",
            "the last stage, and only that one, must be the play stage",
            TINY,
        ),
        "the-play-stage-last": (
            tiny((EXCHANGE + PLAY, PLAY + EXCHANGE)), "18:3",
            "the last stage, and only that one, must be the play stage",
            TINY,
        ),
        "named-trump-needs-a-stage-to-name-it": (
            tiny(add=NAMED), "21:17",
            "trump is named by the declarer (`trump.source: named`), but no stage lets him name it (`kind: "
            "name_trump`), so the deal would be played with no trump at all: add `{id: name-trump, kind: "
            "name_trump}` to the stages before the play stage, or write `trump.source: turned`",
            tiny((EXCHANGE, EXCHANGE + NAME_TRUMP), add=NAMED),
        ),
        "turned-trump-is-not-named-again": (
            tiny((EXCHANGE, EXCHANGE + NAME_TRUMP)), "20:28",
            "stage 'name-trump' (“Trump”, step 3) lets the declarer name trump (`kind: name_trump`), but trump is "
            "the turned card "
            "(`trump.source: turned`), so naming a suit would change trump after the calls were made under the "
            "turned one: remove stage 'name-trump', or write `trump.source: named`",
            TINY,
        ),
        "first-stage-offers-an-open-declaring-call": (
            tiny(("    requires: {declarer: absent}\n", "    requires: {declarer: absent, holds: [{rank: A}]}\n")),
            "18:39",
            "stage 'bidding' (“Bidding”, step 1) offers no call that makes a declarer without needing particular "
            "cards, so deal after "
            "deal could pass out forever",
            TINY,
        ),
        "first-stage-open-declaring-call-needs-no-declarer": (
            tiny(calls_with(GRAB), (FIRST, "  - {id: bidding, kind: calls, calls: [grab, help, pass]}\n"),
                 (EXCHANGE, "  - {id: late, kind: calls, speakers: others, calls: [bid, pass]}\n" + EXCHANGE)),
            "22:39",
            "stage 'bidding' (“Bidding”, step 1) offers no call that makes a declarer without needing particular "
            "cards, so deal after "
            "deal could pass out forever",
            tiny(calls_with(GRAB), (FIRST, "  - {id: bidding, kind: calls, calls: [bid, grab, help, pass]}\n")),
        ),
        "first-stage-asks-the-players-in-the-deal": (
            tiny((FIRST, "  - {id: bidding, kind: calls, speakers: out, calls: [bid, help, pass]}\n")), "18:42",
            "stage 'bidding' (“Bidding”, step 1) asks only players who are out (`speakers: out`), but nobody is out "
            "when a deal begins, "
            "so nobody is asked and every deal passes out and is dealt again, forever: write `speakers: all` (or "
            "`others`) in the first calls stage",
            tiny((FIRST, "  - {id: bidding, kind: calls, speakers: others, calls: [bid, help, pass]}\n")),
        ),
        # help is open whenever a declarer exists, bid while none does: together nobody is ever stuck
        "every-calls-stage-has-an-open-call": (
            tiny(("[bid, help, pass]", "[bid, help]"),
                 (HELP, "    requires: {declarer: exists, min_trumps: 1}\n    effects: {status: helper}\n")), "18:39",
            "stage 'bidding' (“Bidding”, step 1) has no call that is always open (such as pass) once a declarer "
            "exists: a player could be stuck",
            tiny(("[bid, help, pass]", "[bid, help]")),
        ),
        # issue 28: without debts (short_payment: refused) help, which stakes a helper's base stake, is not open
        # to an empty stack, so without pass such a player would be stuck; with payments capped it is open
        "an-open-call-costs-nothing-without-debts": (
            tiny(("[bid, help, pass]", "[bid, help]"), add="allow_debt: false\n"), "18:39",
            "stage 'bidding' (“Bidding”, step 1) has no call that is always open (such as pass): a player could be "
            "stuck; without debts (`allow_debt: false`) a call that may cost chips is not open to an empty stack",
            tiny(("[bid, help, pass]", "[bid, help]"), add="allow_debt: false\nshort_payment: capped\n"),
        ),
        "passers-hands-thrown-at-once-only-with-one-round": (
            tiny((FIRST, "  - {id: bidding, kind: calls, calls: [bid, help, pass], out_hands: on_call}\n"),
                 add="all_pass: {rounds: 2}\n"), "18:69",
            "the first calls stage cannot throw passers' hands at once: an all-pass round gives them back",
            tiny((FIRST, "  - {id: bidding, kind: calls, calls: [bid, help, pass], out_hands: on_call}\n"),
                 add="all_pass: {rounds: 1}\n"),
        ),
    },
}
REFUSED = {f"{check}:{rule}": case[:3] for check, rules in CASES.items() for rule, case in rules.items()}
ACCEPTED = {f"{check}:{rule}": case[3] for check, rules in CASES.items() for rule, case in rules.items()}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name.replace(':', '-').lstrip('_')}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_check_refuses(tmp_path: Path, case: str) -> None:
    text, where, message = REFUSED[case]
    path = write(tmp_path, case, text)
    with pytest.raises(VariantError) as info:
        catalog.load_variant(str(path))
    assert str(info.value).splitlines()[0] == f"{path}:{where}: {message}"


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_check_accepts_the_nearest_playable_variant(tmp_path: Path, case: str) -> None:
    """The boundary is accepted, and the kernel plays it: four deals at the fewest and the most players."""
    variant = catalog.load_variant(str(write(tmp_path, case, ACCEPTED[case])))
    for players in sorted({variant.players.min, variant.players.max}):
        state = GameState(Rules(variant, players), players, seed=5)
        rng = random.Random(5)
        played = sum(1 for _ in range(4) if random_deal(state, rng) > 0)
        assert played == 4, f"{case}: the session ended after {played} deals at {players} players"


def test_every_check_has_cases_both_ways() -> None:
    """Each check that semantic_issues runs (and _declarer_goes_out, run inside _hand_sizes) is in CASES."""
    source = Path(catalog.__file__).with_name("checks.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    run = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "semantic_issues")
    names = {n.id for n in ast.walk(run) if isinstance(n, ast.Name) and n.id.startswith("_")}
    assert names | {"_declarer_goes_out"} == set(CASES)
