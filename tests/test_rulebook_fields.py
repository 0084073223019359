"""Every field of the variant schema shows in the rule sheet: change the field, and the sheet changes.

The fields are enumerated from the schema itself (khrap.rulebook.reference.schema_fields), so a new
field fails `test_every_field_is_covered` until it has a mutation here (and a sentence in the
templates) or is listed in NOT_IN_TEXT with the reason it does not change the rules text.
"""

from __future__ import annotations

import copy
import html
import re
from typing import Any

import pytest

from khrap.rulebook.reference import schema_fields
from khrap.rulebook.sheet import render_rules
from khrap.variant.catalog import builtin
from khrap.variant.checks import semantic_issues
from khrap.variant.schema import Variant

NOT_IN_TEXT = {
    "stages[].id": "a stage's id only names it for skip_stages; the sheet numbers the steps instead",
    "statuses": "its keys are fixed (declarer, helper); what they hold is covered by statuses.*.*",
    "instant_wins.*.description": "free text that does not change play; the sheet words the rule from its fields",
}

Path = tuple[Any, ...]
MERRY_KEEPS_NONE = {("calls", "merry", "effects", "keep"): [], ("calls", "merry", "effects", "draw"): 5}
# field path -> (built-in variant to start from, where in it, the new value[, other changes]).  The other
# changes, made before and after, keep the changed variant valid (a draw that must still make a hand...).
HELI_CAP = {("calls", "helicopter", "requires", "max_pot"): {"base": 3, "per_player": True}}
HOUSE = {("settlement", "house"): {"percent": 4, "above": 1, "spare_penalized": True}}
MUTATIONS: dict[str, tuple] = {
    "name": ("khrap", ("name",), {"en": "Changed", "ru": "Изменено"}),
    "description": ("khrap", ("description",), {"en": "Changed.", "ru": "Изменено."}),
    "players.min": ("khrap", ("players", "min"), 3),
    "players.max": ("khrap", ("players", "max"), 4),
    "hand_size": ("snore", ("hand_size",), 4, {("calls", "cut", "effects", "draw"): 5}),
    "deck.ranks": ("khrap", ("deck", "ranks"), ["5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]),
    "deck.by_players": ("frap", ("deck", "by_players"), "drop-first"),
    "deck.by_players[].up_to": ("frap", ("deck", "by_players", 0, "up_to"), 3),
    "deck.by_players[].ranks": ("frap", ("deck", "by_players", 0, "ranks"), ["8", "9", "T", "J", "Q", "K", "A"]),
    "base_stake": ("khrap", ("base_stake",), 2),
    "ante.amount": ("khrap", ("ante", "amount"), 2),
    "ante.when": ("khrap", ("ante", "when"), "empty_pot"),
    "trump.source": ("snore", ("trump", "source"), "turned", {("stages",): "snore-without-name-trump"}),
    "all_pass.rounds": ("khrap", ("all_pass", "rounds"), 2),
    "all_pass.turn_up": ("khrap", ("all_pass", "turn_up"), False),
    "all_pass.round_ante": ("khrap", ("all_pass", "round_ante"), 1),
    "all_pass.last_ante": ("khrap", ("all_pass", "last_ante"), 2),
    "all_pass.redeal_ante": ("khrap", ("all_pass", "redeal_ante"), "normal"),
    "statuses.*.tricks": ("khrap", ("statuses", "declarer", "tricks"), 3),
    "statuses.*.stake.base": ("khrap", ("statuses", "declarer", "stake", "base"), 3),
    "statuses.*.stake.pots": ("khrap", ("statuses", "declarer", "stake", "pots"), 1),
    "statuses.*.locked": ("khrap", ("statuses", "declarer", "locked"), True),
    "overridden_becomes": ("khrap", ("overridden_becomes",), "out"),
    "calls": ("khrap", ("calls",), "drop-sad"),
    "calls.*.name": ("khrap", ("calls", "khrap", "name"), {"en": "Snort", "ru": "Фырк"}),
    "calls.*.description": ("khrap", ("calls", "khrap", "description"), {"en": "Changed.", "ru": "Изменено."}),
    "calls.*.enabled": ("khrap", ("calls", "sad", "enabled"), False),
    "calls.*.requires.declarer": ("khrap", ("calls", "help", "requires", "declarer"), "any"),
    "calls.*.requires.dealer": ("khrap", ("calls", "help", "requires", "dealer"), True),
    "calls.*.requires.blind": ("khrap", ("calls", "help", "requires", "blind"), True),
    # merry keeps no card there: a kept card must be one it requires
    "calls.*.requires.holds": ("khrap", ("calls", "merry", "requires", "holds"), [], MERRY_KEEPS_NONE),
    "calls.*.requires.holds[].rank": ("khrap", ("calls", "merry", "requires", "holds", 0, "rank"), "K",
                                      MERRY_KEEPS_NONE),
    "calls.*.requires.holds[].suit": ("khrap", ("calls", "merry", "requires", "holds", 0, "suit"), "H",
                                      MERRY_KEEPS_NONE),
    "calls.*.requires.min_trumps": ("khrap", ("calls", "help", "requires", "min_trumps"), 1),
    "calls.*.requires.max_trumps": ("khrap", ("calls", "help", "requires", "max_trumps"), 3),
    "calls.*.requires.turned_rank": ("khrap", ("calls", "wrap", "requires", "turned_rank"), "K"),
    "calls.*.requires.max_pot.base": ("khrap", ("calls", "helicopter", "requires", "max_pot", "base"), 5, HELI_CAP),
    "calls.*.requires.max_pot.per_player": ("khrap", ("calls", "helicopter", "requires", "max_pot", "per_player"),
                                            False, HELI_CAP),
    "calls.*.effects.status": ("khrap", ("calls", "help", "effects", "status"), "out"),
    "calls.*.effects.override": ("khrap", ("calls", "merry", "effects", "override"), False,
                                 {("calls", "merry", "requires", "declarer"): "absent"}),
    "calls.*.effects.forces_others": ("khrap", ("calls", "khrap", "effects", "forces_others"), True),
    "calls.*.effects.ends_stage": ("khrap", ("calls", "khrap", "effects", "ends_stage"), True),
    "calls.*.effects.skip_stages": ("khrap", ("calls", "helicopter", "effects", "skip_stages"), ["fives"]),
    "calls.*.effects.when": ("khrap", ("calls", "take-five", "effects", "when"), "exchange"),
    "calls.*.effects.keep": ("khrap", ("calls", "merry", "effects", "keep"), [],
                             {("calls", "merry", "effects", "draw"): 5}),
    # merry requires the card it keeps, changed the same way
    "calls.*.effects.keep[].rank": ("khrap", ("calls", "merry", "effects", "keep", 0, "rank"), "K",
                                    {("calls", "merry", "requires", "holds"): [{"rank": "K", "suit": "trump"}]}),
    "calls.*.effects.keep[].suit": ("khrap", ("calls", "merry", "effects", "keep", 0, "suit"), "H",
                                    {("calls", "merry", "requires", "holds"): [{"rank": "A", "suit": "H"}]}),
    # passers keep their hands: take-five without throwing it would leave a thrown hand empty
    "calls.*.effects.discard_hand": ("khrap", ("calls", "take-five", "effects", "discard_hand"), False,
                                     {("calls", "take-five", "effects", "draw"): 1,
                                      ("stages", 0, "out_hands"): "keep"}),
    "calls.*.effects.take_turned": ("khrap", ("calls", "take-five", "effects", "take_turned"), "optional"),
    "calls.*.effects.draw": ("khrap", ("calls", "take-five", "effects", "draw"), 6,
                             {("calls", "take-five", "effects", "then_discard"): 2}),
    "calls.*.effects.then_discard": ("khrap", ("calls", "take-five", "effects", "then_discard"), 2,
                                     {("calls", "take-five", "effects", "draw"): 6}),
    "calls.*.exchange.takes_part": ("khrap", ("calls", "khrap", "exchange", "takes_part"), False),
    # the helicopter must not skip the exchange that a khrap's reserved draws wait for
    "calls.*.exchange.min_discard": ("khrap", ("calls", "khrap", "exchange", "min_discard"), 1,
                                     {("calls", "helicopter", "effects", "skip_stages"): ["fives"]}),
    "calls.*.exchange.max_discard": ("khrap", ("calls", "khrap", "exchange", "max_discard"), 2),
    "calls.*.exchange.draw_extra": ("khrap", ("calls", "khrap", "exchange", "draw_extra"), 1,
                                    {("calls", "khrap", "exchange", "then_discard"): 1}),
    "calls.*.exchange.then_discard": ("khrap", ("calls", "khrap", "exchange", "then_discard"), 1,
                                      {("calls", "khrap", "exchange", "draw_extra"): 1}),
    "stages": ("khrap", ("stages",), "drop-instant-wins"),
    "stages[].kind": ("snore", ("stages", 4, "kind"), "instant_wins", {("trump", "source"): "turned"}),
    "stages[].phase": ("khrap-shoot", ("stages", 2, "phase"), "bidding"),  # khrap's offers are named «Пятаки?»
    "stages[].speakers": ("khrap", ("stages", 1, "speakers"), "others"),
    "stages[].start": ("khrap", ("stages", 1, "start"), "dealer_left"),
    "stages[].calls": ("khrap", ("stages", 0, "calls"), ["khrap", "help", "merry", "wrap", "helicopter", "pass"]),
    "stages[].out_hands": ("khrap", ("stages", 1, "out_hands"), "at_end"),
    "stages[].order": ("khrap", ("stages", 2, "order"), [{"statuses": ["declarer"]}, {"statuses": ["helper"]}]),
    "stages[].order[].statuses": ("khrap", ("stages", 2, "order", 0, "statuses"), ["declarer"]),
    "stages[].order[].calls": ("khrap", ("stages", 2, "order", 0, "calls"), ["take-five"]),
    "stages[].order_by_call": ("khrap-shoot", ("stages", 3, "order_by_call"), {}),
    "stages[].order_by_call.*[].statuses": ("khrap-shoot", ("stages", 3, "order_by_call", "shoot", 0, "statuses"),
                                            ["declarer", "helper"]),
    "stages[].order_by_call.*[].calls": ("khrap-shoot", ("stages", 3, "order_by_call", "shoot", 0, "calls"), ["five"]),
    "stages[].max_discard": ("khrap", ("stages", 2, "max_discard"), 3),
    "draw_from": ("khrap", ("draw_from",), "anywhere"),
    "play.follow_suit": ("khrap", ("play", "follow_suit"), False),
    "play.trump_if_void": ("khrap", ("play", "trump_if_void"), False),
    "play.must_beat": ("khrap", ("play", "must_beat"), True),
    "play.must_overtrump": ("khrap", ("play", "must_overtrump"), True),
    "play.first_lead.calls": ("khrap", ("play", "first_lead", "calls"), []),
    "play.first_lead.suit": ("khrap", ("play", "first_lead", "suit"), "trump"),
    "play.lone_declarer_takes_all": ("khrap", ("play", "lone_declarer_takes_all"), False),
    "joker": ("khrap", ("joker",), {"card": "7S", "led_demands": "none"}),
    "joker.card": ("student-snore", ("joker", "card"), "6S"),
    "joker.led_demands": ("student-snore", ("joker", "led_demands"), "trump"),
    "instant_wins": ("khrap", ("instant_wins",), {}),
    "instant_wins.*.name": ("khrap", ("instant_wins", "four-aces", "name"), {"en": "Quads", "ru": "Каре"}),
    "instant_wins.*.enabled": ("khrap", ("instant_wins", "four-aces", "enabled"), False),
    "instant_wins.*.rank": ("khrap", ("instant_wins", "four-aces", "rank"), "K"),
    "instant_wins.*.count": ("khrap", ("instant_wins", "four-aces", "count"), 3),
    "instant_wins.*.payers": ("khrap", ("instant_wins", "four-aces", "payers"), "all"),
    "instant_wins.*.next_ante": ("khrap", ("instant_wins", "four-aces", "next_ante"), "normal"),
    "settlement.trick_share.divisor": ("khrap", ("settlement", "trick_share", "divisor"), 5),
    "settlement.trick_share.statuses": ("khrap", ("settlement", "trick_share", "statuses"), ["helper"]),
    "settlement.trick_share.fulfilled_only": ("khrap", ("settlement", "trick_share", "fulfilled_only"), True),
    "settlement.declarer_prize": ("khrap", ("settlement", "declarer_prize"), ["rest"]),
    "settlement.penalties": ("khrap", ("settlement", "penalties"), []),
    "settlement.penalties[].status": ("khrap", ("settlement", "penalties", 0, "status"), "declarer"),
    "settlement.penalties[].calls": ("khrap", ("settlement", "penalties", 0, "calls"), ["khrap"]),
    "settlement.penalties[].tricks": ("khrap", ("settlement", "penalties", 0, "tricks"), 0),
    "settlement.penalties[].held": ("frap", ("settlement", "penalties", 0, "held"), []),
    "settlement.penalties[].held[].rank": ("frap", ("settlement", "penalties", 0, "held", 0, "rank"), "K"),
    "settlement.penalties[].held[].suit": ("frap", ("settlement", "penalties", 0, "held", 0, "suit"), "S"),
    "settlement.penalties[].pay": ("khrap", ("settlement", "penalties", 0, "pay"), {"base": 3, "pots": 0}),
    "settlement.penalties[].pay.base": ("frap", ("settlement", "penalties", 0, "pay", "base"), 1),
    "settlement.penalties[].pay.pots": ("frap", ("settlement", "penalties", 0, "pay", "pots"), 5),
    "settlement.pot_after": ("khrap", ("settlement", "pot_after"), "carry"),
    "settlement.remainder": ("khrap", ("settlement", "remainder"), "most_tricks"),
    "settlement.house.percent": ("khrap", ("settlement", "house", "percent"), 5, HOUSE),
    "settlement.house.above": ("khrap", ("settlement", "house", "above"), 0, HOUSE),
    "settlement.house.spare_penalized": ("khrap", ("settlement", "house", "spare_penalized"), False, HOUSE),
    "next_dealer": ("khrap", ("next_dealer",), "declarer"),
    "allow_debt": ("khrap", ("allow_debt",), False),
    # issue 28: what a table without debts does with a payment a stack cannot make; who is dealt in
    "short_payment": ("khrap", ("short_payment",), "capped", {("allow_debt",): False}),
    "min_stack": ("khrap", ("min_stack",), 3),
    "double": ("khrap", ("double",), True),
    # issue 16: a step's own name, the table's session rules and the notes box
    "stages[].name": ("frap", ("stages", 2, "name"), {"en": "Purchase", "ru": "Закупка"}),
    "table.first_dealer": ("khrap", ("table", "first_dealer"), "lowest_card"),
    "table.join": ("khrap", ("table", "join"), "any_time"),
    "table.session_end": ("khrap", ("table", "session_end"), "share_pot"),
    "notes": ("khrap", ("notes",), [{"en": "The loser fetches the snacks.", "ru": "Проигравший несёт закуску."}]),
    "terms": ("khrap", ("terms",), {"en": {"declarer": "khrapper"}, "ru": {"храпящ": "заявивш"}}),
}

# field path -> (English, Russian key phrase[, call id]).  The phrase states the rule after the change: it must
# be in the changed sheet and not in the one before; a phrase written "-..." is the old rule, which must go.  With
# a call id, the phrase is looked for in that call's row of the calls table only.  The sheets are compared as
# Markdown with the spaces normalized (a row of the calls table is one line there).
EXPECTED: dict[str, tuple[str, ...]] = {
    "name": ("Changed", "Изменено"),
    "description": ("Changed.", "Изменено."),
    "players.min": ("For 3 to 5 players.", "От 3 до 5"),
    "players.max": ("For 2 to 4 players.", "От 2 до 4"),
    "hand_size": ("Each player is dealt 4 cards, so a deal has 4 tricks",
                  "Каждому сдаются 4 карты, в раздаче 4 взятки"),
    "deck.ranks": ('A deck of 40 cards: 5 to A', 'Колода: 40 карт — от 5 до Т'),
    "deck.by_players": ("-up to 4 players:", "-до 4 игроков —"),
    "deck.by_players[].up_to": ("up to 3 players:", "до 3 игроков"),
    "deck.by_players[].ranks": ("up to 4 players: 28 cards (8 to A)", "до 4 игроков — 28 карт (от 8 до Т)"),
    "base_stake": ('a base stake is 2 chips', 'базовая ставка — 2 фишки'),
    "ante.amount": (
        'Before every deal each player puts 2 base stakes into the pot',
        'перед каждой раздачей каждый кладёт в банк 2 базовые ставки'),
    "ante.when": ("but only when the pot is empty", "но только если банк пуст"),
    "trump.source": ("The top card of the stock is turned face up beside it: its suit is trump.",
                     "Верхняя карта колоды открывается рядом с ней: её масть — козырь."),
    "all_pass.rounds": ("up to 2 rounds in all", "всего не больше 2 кругов"),
    "all_pass.turn_up": ("The trump stays the same.", "Козырь остаётся прежним."),
    "all_pass.round_ante": (
        'Before each new round every player adds 1 base stake to the pot.',
        'Перед каждым новым кругом каждый добавляет в банк 1 базовую ставку.'),
    "all_pass.last_ante": (
        'every player adds 2 base stakes to the pot and the next dealer deals new cards',
        'каждый добавляет в банк 2 базовые ставки, и следующий сдатчик сдаёт заново'),
    "all_pass.redeal_ante": ('That new deal antes as usual.', 'Новая раздача начинается с обычной ставки на кон.'),
    "statuses.*.tricks": ('The declarer must take at least 3 tricks', 'Храпящий должен взять не меньше 3'),
    "statuses.*.stake.base": ('failing: pays 3 base stakes', 'при провале платит 3 базовые ставки', 'khrap'),
    "statuses.*.stake.pots": ("+ 1 × the pot", "+ банк × 1", "khrap"),
    "statuses.*.locked": (
        'Locked stakes: a player who locks a stake puts it aside from their chips when they call',
        'Заблокированные ставки: сделав заявку, игрок откладывает ставку из своих фишек'),
    "overridden_becomes": (
        'A declarer who is taken over by another call is out of the deal.',
        'Храпящий, которого перебила другая заявка, выходит из игры.'),
    "calls": ("says Khrap, Help, Merry, Wrap, Helicopter or Pass",
              "Храп, Помогу, Веселюсь, Заворачиваю, Вертолёт или Пас"),
    "calls.*.name": ("says Snort, Help", "Фырк, Помогу"),
    "calls.*.description": ("Changed.", "Изменено."),
    "calls.*.enabled": ("says Khrap, Help, Merry, Wrap, Helicopter or Pass",
                        "Храп, Помогу, Веселюсь, Заворачиваю, Вертолёт или Пас"),
    "calls.*.requires.declarer": ('Step 1 | Becomes a helper', 'Шаг 1 | Становится помогающим', 'help'),
    "calls.*.requires.dealer": ('dealer only', 'только сдатчик', 'help'),
    "calls.*.requires.blind": ('blind: before looking at their cards', 'втёмную: не посмотрев в свои карты', 'help'),
    "calls.*.requires.holds": ("-holding the trump ace", "-на руке: козырной туз", "merry"),
    "calls.*.requires.holds[].rank": ("holding the trump king", "на руке: козырной король", "merry"),
    "calls.*.requires.holds[].suit": ("holding the A♥", "на руке: Т♥", "merry"),
    "calls.*.requires.min_trumps": ("with at least 1 trump", "не меньше 1 козыря на руке", "help"),
    "calls.*.requires.max_trumps": (
        'with no more than 3 trumps in all',
        'если всего у него не больше 3 козырей',
        'help'),
    "calls.*.requires.turned_rank": ("when the turned card is the trump king", "если открытая карта — козырной король",
                                     "wrap"),
    "calls.*.requires.max_pot.base": ("only while the pot holds at most 5 base stakes per player",
                                      "только пока в банке не больше 5 базовых ставок на игрока", "helicopter"),
    "calls.*.requires.max_pot.per_player": ("-at most 3 base stakes per player",
                                            "-не больше 3 базовых ставок на игрока", "helicopter"),
    "calls.*.effects.status": (
        'Out for now, but may still come in at step 2',
        'Пока вне игры: он ещё может вступить на шаге 2',
        'help'),
    "calls.*.effects.override": ('-takes over from a declarer', '-перебивает храпящего', 'merry'),
    "calls.*.effects.forces_others": ("everyone else who holds cards must help",
                                      "все остальные с картами обязаны помогать",
                                      "khrap"),
    "calls.*.effects.ends_stage": ("ends this step at once", "сразу завершает шаг", "khrap"),
    "calls.*.effects.skip_stages": ("step 2 is skipped", "шаг 2 пропускается", "helicopter"),
    "calls.*.effects.when": ("at their exchange turn", "в свою очередь обмена", "take-five"),
    "calls.*.effects.keep": (
        '-shows the trump ace and keeps it',
        '-показывает козырного туза и оставляет его себе',
        'merry'),
    "calls.*.effects.keep[].rank": (
        'shows the trump king and keeps it',
        'показывает козырного короля и оставляет его себе',
        'merry'),
    "calls.*.effects.keep[].suit": ("shows and keeps the A♥", "показывает и оставляет: Т♥", "merry"),
    "calls.*.effects.discard_hand": ("-throws their hand", "-сбрасывает все карты", "take-five"),
    "calls.*.effects.take_turned": ("may take the turned trump card as one of the cards drawn",
                                    "может взять открытый козырь в счёт добираемых карт", "take-five"),
    "calls.*.effects.draw": (
        'draws a new hand of 6 cards, then discards 2',
        'берёт новые: 6 карт, затем сбрасывает 2',
        'take-five'),
    "calls.*.effects.then_discard": (
        'draws a new hand of 6 cards, then discards 2',
        'берёт новые: 6 карт, затем сбрасывает 2',
        'take-five'),
    "calls.*.exchange.takes_part": ("no exchange turn", "в обмене не участвует", "khrap"),
    "calls.*.exchange.min_discard": ("exchanges at least 1 card", "меняет не меньше 1 карты", "khrap"),
    "calls.*.exchange.max_discard": ("exchanges at most 2 cards", "меняет не больше 2 карт", "khrap"),
    "calls.*.exchange.draw_extra": ("draws 1 card more than they discard, then discards 1",
                                    "берёт на 1 карту больше, чем сбросил, затем сбрасывает 1", "khrap"),
    "calls.*.exchange.then_discard": ("draws 1 card more than they discard, then discards 1",
                                      "берёт на 1 карту больше, чем сбросил, затем сбрасывает 1", "khrap"),
    "stages": ("Four aces: no step checks for it, so it never happens.", "ни один шаг этого не проверяет"),
    "stages[].kind": ('-The declarer names the trump suit.', '-Храпящий называет козырную масть.'),
    "stages[].phase": ("3. **Bidding.**", "3. **Торговля.**"),
    "stages[].speakers": (
        'each player other than the declarer who still holds cards',
        'каждого, кроме храпящего, у кого ещё есть карты'),
    "stages[].start": (
        "2. **Fives?** Starting on the dealer's left",
        'слева от сдатчика, по часовой стрелке, каждого игрока вне игры'),
    "stages[].calls": ("Never: no step offers it", "Никогда: ни один шаг её не предлагает", "sad"),
    "stages[].out_hands": (
        'says Take five or Pass. When this step ends with a declarer, those who are out throw their cards away.',
        'Беру пять или Пас. Если на этом шаге появился храпящий, игроки вне игры сбрасывают карты.'),
    "stages[].order": ('Exchange order: the declarer, then the helpers', 'Порядок обмена: храпящий, затем помогающие'),
    "stages[].order[].statuses": ('Exchange order: the declarer;', 'Порядок обмена: храпящий;'),
    "stages[].order[].calls": (
        'the declarer and the helpers or those who said Take five',
        'храпящий и помогающие или сказавшие «Беру пять»'),
    "stages[].order_by_call": ('-When the declarer said Wrap, the order is',
                               '-Если храпящий сказал «Заворачиваю», порядок'),
    "stages[].order_by_call.*[].statuses": (
        'said Shoot, the order is: the declarer and the helpers,',
        'сказал «Стреляю», порядок такой: храпящий и помогающие,'),
    "stages[].order_by_call.*[].calls": (
        'said Shoot, the order is: the declarer or those who said Five,',
        'сказал «Стреляю», порядок такой: храпящий или сказавшие «Пять»'),
    "stages[].max_discard": ("A player may exchange at most 3 cards.", "Можно поменять не больше 3 карт."),
    "draw_from": ("Whoever draws may say where from: the top (usual), the bottom, or the N-th card from the top",
                  "Кто добирает, может сказать откуда: сверху (обычно), снизу или с N-й карты сверху"),
    "play.follow_suit": ("nobody has to follow the suit led", "масть никто не обязан"),
    "play.trump_if_void": ("A player who cannot follow suit may play any card, trump or not.",
                           "Кто не может ходить в масть, кладёт любую карту, козырь или нет."),
    "play.must_beat": ("Following suit, a player must beat the best card of that suit on the trick if they can.",
                       "он обязан побить старшую карту этой масти во взятке, если может"),
    "play.must_overtrump": ("Playing a trump, a player must beat the best trump on the trick if they can.",
                            "Козыряя, он обязан перебить старший козырь во взятке, если может."),
    "play.first_lead.calls": ('The declarer leads to the first trick.', 'В первую взятку ходит храпящий.'),
    "play.lone_declarer_takes_all": ("they play the tricks out alone", "он разыгрывает взятки сам"),
    "joker": ("Joker: the 7♠ is the joker.", "Джокер: 7♠ — джокер."),
    "joker.card": ("the 6♠ is the joker", "6♠ — джокер"),
    "joker.led_demands": ("When the joker is led as the joker, the others must play trumps if they have any.",
                          "обязаны класть козыри, если они есть"),
    "instant_wins": ("-Four aces:", "-Четыре туза:"),
    "instant_wins.*.name": ("Quads:", "Каре:"),
    "instant_wins.*.enabled": ("-Four aces:", "-Четыре туза:"),
    "instant_wins.*.rank": ("who holds K♠ K♥ K♦ K♣", "К♠ К♥ К♦ К♣"),
    "instant_wins.*.count": ("who holds 3 cards of rank A", "3 карты достоинства Т"),
    "instant_wins.*.payers": (
        "Every other player then pays into the pot: their stake, or a helper's stake if they are out.",
        'Затем каждый другой игрок платит в банк свою ставку, а игрок вне игры — ставку помогающего.'),
    "instant_wins.*.next_ante": (
        'The next deal antes as usual.',
        'Следующая раздача начинается с обычной ставки на кон.'),
    "settlement.trick_share.divisor": ("Each trick pays ⌊P / 5⌋", "Каждая взятка приносит ⌊P / 5⌋"),
    "settlement.trick_share.statuses": (
        'Each trick pays ⌊P / 4⌋ from the pot to each helper,',
        'Каждая взятка приносит ⌊P / 4⌋ из банка — каждому помогающему,'),
    "settlement.trick_share.fulfilled_only": ("but only to a player who met their obligation",
                                              "но только тому, кто выполнил обязательство"),
    "settlement.declarer_prize": ("A declarer who met their obligation then takes, by the bidding round in which they "
                                  "declared: round 1: all that is left in the pot",
                                  "круг 1 — всё, что осталось в банке"),
    "settlement.penalties": ("A failed player pays nothing.", "Провалившийся ничего не платит."),
    "settlement.penalties[].status": ('Then a failed declarer pays their stake', 'Затем провалившийся храпящий платит'),
    "settlement.penalties[].calls": ("Then a failed player who said Khrap pays",
                                     "сказавший «Храп», платит свою ставку"),
    "settlement.penalties[].tricks": ("Then a failed player with 0 tricks pays",
                                      "провалившийся игрок с 0 взятками платит"),
    "settlement.penalties[].held": ("-having held the trump ace", "-среди его карт — козырной туз"),
    "settlement.penalties[].held[].rank": ("having held the trump king", "среди его карт — козырной король"),
    "settlement.penalties[].held[].suit": ("having held the A♠", "среди его карт — Т♠"),
    "settlement.penalties[].pay": (
        'Then a failed player pays 3 base stakes',
        'Затем провалившийся игрок платит 3 базовые ставки'),
    # "1 base stake" and "1 баз. взнос" also match the plural the sheet prints today ("1 base stakes")
    "settlement.penalties[].pay.base": ('having held the trump ace when play began: pays 1 base stake',
                                        'козырной туз: платит 1 базов'),
    "settlement.penalties[].pay.pots": ("having held the trump ace when play began: pays 5 × P",
                                        "козырной туз: платит 5 × P"),
    "settlement.pot_after": ("What is left in the pot, fines included, stays there for the next deal.",
                             "Всё, что осталось в банке, вместе со штрафами, переходит в следующую раздачу."),
    "settlement.remainder": ("What rounding leaves goes to the player with the most tricks.",
                             "Остаток от округления получает игрок с наибольшим числом взяток."),
    "settlement.house.percent": ("the house takes 5 per cent, rounded down, of the part of each win above 1 base stake",
                                 "заведение берёт 5% (с округлением вниз) с той части каждого выигрыша, что больше "
                                 "1 базовой ставки"),
    "settlement.house.above": ("the house takes 4 per cent, rounded down, of each win (what",
                               "заведение берёт 4% (с округлением вниз) с каждого выигрыша (того"),
    "settlement.house.spare_penalized": ("-A player who paid a penalty in the deal pays no commission.",
                                         "-Игрок, заплативший в раздаче штраф, комиссию не платит."),
    "next_dealer": (
        "The next deal is dealt by this deal's final declarer",
        'Следующую раздачу сдаёт последний храпящий этой раздачи'),
    "allow_debt": ("No debts: a call that could cost a player more chips than they have is not allowed to them.",
                   "В долг не играют: заявка, которая может стоить игроку больше фишек, чем у него есть, "
                   "ему запрещена."),
    "short_payment": ("pays what they have (their chips and those they have staked), and the rest is not owed",
                      "платит всё, что у него есть (свои фишки и поставленные), а остальное с него не спрашивают"),
    "min_stack": ("A player needs at least 3 base stakes to be dealt in; if one has fewer after a deal, the session "
                  "ends.", "игроку нужно не меньше 3 базовых ставок"),
    "double": ("A double adds the declarer's stake to what the declarer pays on failing, and to what the doubler "
               "pays on failing.", "Удвоение добавляет ставку храпящего к тому, что платит храпящий"),
    "notes": ("The loser fetches the snacks.", "Проигравший несёт закуску."),
    "play.first_lead.suit": ("The first lead of a deal must be a trump if the leader holds one.",
                             "Первым ходом в сдаче должен быть козырь, если он есть у ходящего."),
    "stages[].name": ("3. **Purchase.**", "3. **Закупка.**"),
    "table.first_dealer": ("whoever draws the lowest card deals", "сдаёт тот, кто вытянул самую младшую"),
    "table.join": (
        'join the table or leave it between any two deals',
        'уходить из-за стола можно между любыми раздачами'),
    "table.session_end": ("A session may end after any deal;", "Игру можно закончить после любой раздачи"),
    "terms": ("Becomes the khrapper:", "заявивш"),
}


def _holds_only_fields(path: str) -> bool:
    """A field whose value is a single model: its meaning is in its own fields, each tested."""
    doc = next(d for d in schema_fields() if d.path == path)
    return doc.composite and not doc.collection and path not in MUTATIONS


def _special(data: dict, how: str) -> Any:
    if how == "drop-sad":
        del data["calls"]["sad"]
        for stage in data["stages"]:
            if "calls" in stage and "sad" in stage["calls"]:
                stage["calls"].remove("sad")
    elif how == "drop-instant-wins":
        data["stages"] = [s for s in data["stages"] if s["kind"] != "instant_wins"]
    elif how == "snore-without-name-trump":
        return [s for s in data["stages"] if s["kind"] != "name_trump"]
    else:  # pragma: no cover
        raise AssertionError(how)
    return None


def _set(data: dict, where: Path, value: Any) -> None:
    target = data
    for step in where[:-1]:
        target = target[step]
    if value == "drop-first":
        value = target[where[-1]][1:]
    elif isinstance(value, str) and value.endswith("-without-name-trump"):
        value = _special(data, value)
    target[where[-1]] = value


def mutated(path: str) -> tuple[Variant, Variant]:
    """The variant before and after the field at ``path`` changes (the changed one must be valid)."""
    name, where, value, *rest = MUTATIONS[path]
    data = builtin(name).model_dump(mode="json")
    for other, other_value in (rest[0] if rest else {}).items():
        _set(data, other, other_value)
    changed = copy.deepcopy(data)
    if isinstance(value, str) and value.startswith("drop-") and value != "drop-first":
        _special(changed, value)
    else:
        _set(changed, where, value)
        assert changed != data, f"{path}: the mutation sets the value it already has"
    variant = Variant.model_validate(changed)
    issues = semantic_issues(variant)
    assert not issues, f"{path}: the changed variant is not valid: {issues[0]}"
    return Variant.model_validate(data), variant


def _pattern(path: str) -> re.Pattern[str]:
    parts = []
    for part in path.split("."):
        name = re.escape(part.replace("[]", ""))
        parts.append(name if name != r"\*" else r"[^/]+")
        parts += [r"\d+"] * part.count("[]")
    return re.compile("/".join(p for p in parts if p))


def test_every_field_is_covered() -> None:
    missing = [
        d.path for d in schema_fields()
        if d.path not in MUTATIONS and d.path not in NOT_IN_TEXT and not _holds_only_fields(d.path)
    ]
    assert not missing, (
        "schema fields with no sentence test; add a mutation to MUTATIONS (and a sentence to "
        "khrap/rulebook/templates/sentences.j2) or list the field in NOT_IN_TEXT with the reason: " + ", ".join(missing)
    )


def test_listed_fields_exist() -> None:
    paths = {d.path for d in schema_fields()}
    assert not (set(MUTATIONS) | set(NOT_IN_TEXT)) - paths


@pytest.mark.parametrize("path", sorted(MUTATIONS))
def test_mutation_points_at_its_field(path: str) -> None:
    where = "/".join(str(step) for step in MUTATIONS[path][1])
    assert _pattern(path).fullmatch(where), f"{path}: the mutation changes {where}"


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("path", sorted(MUTATIONS))
def test_changing_a_field_changes_the_sheet(path: str, lang: str) -> None:
    before, after = mutated(path)
    old = render_rules(before, "txt", lang, example=False)
    new = render_rules(after, "txt", lang, example=False)
    assert old != new, f"changing {path} does not change the {lang} rule sheet"


def _text(variant: Variant, lang: str, cid: str | None) -> str:
    """The sheet as one line of words (Markdown), or the row of call ``cid`` in its calls table."""
    text = render_rules(variant, "md", lang, example=False)
    if cid is not None:
        name = variant.calls[cid].name.get(lang, variant.calls[cid].name["en"])
        text = next(line for line in text.splitlines() if line.startswith(f"| **{name}**"))
    return " ".join(text.split())


def test_every_change_has_its_expected_sentence() -> None:
    assert sorted(EXPECTED) == sorted(MUTATIONS)


# Sheets that state a rule wrongly today: the expected words are the rule's; the test fails (strictly) once fixed.
SHEET_BUGS: dict[str, str] = {}
"""Field changes whose sheet sentence is known to be wrong (marked strict xfail with the reason); none today."""


def _sentence_cases() -> list:
    return [pytest.param(path, lang, marks=[pytest.mark.xfail(strict=True, reason=SHEET_BUGS[path])]
                         if path in SHEET_BUGS else [])
            for path in sorted(EXPECTED) if path in MUTATIONS for lang in ("en", "ru")]


@pytest.mark.parametrize(("path", "lang"), _sentence_cases())
def test_a_changed_field_says_its_rule(path: str, lang: str) -> None:
    """The changed sheet states the new rule in the expected words (or the old rule is gone)."""
    en, ru, *row = EXPECTED[path]
    phrase = en if lang == "en" else ru
    before, after = mutated(path)
    old, new = (_text(v, lang, row[0] if row else None) for v in (before, after))
    if phrase.startswith("-"):
        assert phrase[1:] in old, f"{path}: the {lang} sheet before the change does not say {phrase[1:]!r}"
        assert phrase[1:] not in new, f"{path}: the changed {lang} sheet still says {phrase[1:]!r}"
    else:
        assert phrase in new, f"{path}: the changed {lang} sheet does not say {phrase!r}"
        assert phrase not in old, f"{path}: the {lang} sheet said {phrase!r} before the change"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_without_following_suit_nobody_is_told_to_trump_when_void(lang: str) -> None:
    """play.follow_suit: false with trump_if_void: the sheet says to trump whatever was led, not "who cannot follow
    suit must play a trump" (there is no suit to follow)."""
    data = builtin("khrap").model_dump(mode="json")
    data["play"]["follow_suit"] = False
    text = _text(Variant.model_validate(data), lang, None)
    said = {"en": "A player must play a trump if they have one, whatever was led.",
            "ru": "Игрок обязан класть козырь, если он есть, какой бы ни была масть хода."}[lang]
    wrong = {"en": "who cannot follow suit must play a trump",
    "ru": "Кто не может ходить в масть, обязан козырять"}[lang]
    assert said in text and wrong not in text


def test_house_rules_made_of_several_changes_render() -> None:
    """Random combinations of the changes above: each valid one renders in every format, example included, and
    names the variant and every call it offers."""
    import random

    from khrap.rulebook.render import FORMATS

    rng = random.Random(7)
    by_base: dict[str, list[str]] = {}
    for path, (base, *_rest) in MUTATIONS.items():
        by_base.setdefault(base, []).append(path)
    rendered = 0
    for _ in range(60):
        base = rng.choice(sorted(by_base))
        data = builtin(base).model_dump(mode="json")
        for path in rng.sample(by_base[base], min(3, len(by_base[base]))):
            _, where, value, *rest = MUTATIONS[path]
            try:
                for other, other_value in (rest[0] if rest else {}).items():
                    _set(data, other, other_value)
                if isinstance(value, str) and value.startswith("drop-") and value != "drop-first":
                    _special(data, value)
                else:
                    _set(data, where, value)
            except (KeyError, IndexError, TypeError):
                continue
        try:
            variant = Variant.model_validate(data)
        except ValueError:
            continue
        if semantic_issues(variant):
            continue
        lang = rng.choice(["en", "ru"])
        names = [variant.name.get(lang, variant.name["en"])] + [
            call.name.get(lang, call.name["en"]) for call in variant.calls.values() if call.enabled]
        for fmt in FORMATS:
            text = render_rules(variant, fmt, lang)
            words = " ".join(html.unescape(text).split()).casefold()  # a txt title is in capitals, lines wrap
            missing = [name for name in names if " ".join(name.split()).casefold() not in words]
            assert not missing, f"the {fmt} sheet in {lang} leaves out {missing}"
        rendered += 1
    assert rendered >= 10


def _variant(base: str, **changes: Any) -> Variant:
    """A built-in with top-level sections changed (each a dotted path: value)."""
    data = builtin(base).model_dump(mode="json")
    for path, value in changes.items():
        _set(data, tuple(int(p) if p.isdigit() else p for p in path.split("__")), value)
    variant = Variant.model_validate(data)
    assert not semantic_issues(variant)
    return variant


def test_a_penalty_for_some_calls_shows_only_in_their_rows() -> None:
    variant = _variant("khrap", settlement__penalties=[{"calls": ["khrap"]}])
    assert "failing: pays 2 base stakes" in _text(variant, "en", "khrap")
    assert "failing" not in _text(variant, "en", "help")


def test_a_penalty_for_one_status_shows_only_in_its_rows() -> None:
    variant = _variant("khrap", settlement__penalties=[{"status": "declarer"}])
    assert "failing: pays 2 base stakes" in _text(variant, "en", "merry")
    assert "failing" not in _text(variant, "en", "sad")


def test_a_penalty_asking_for_held_cards_does_not_hide_the_next() -> None:
    """frap's blind frap with 1 trick: 3 x P having held the trump ace, else 2 x P; the row gives both."""
    row = _text(builtin("frap"), "en", "blind-frap")
    assert ("failing with 1 trick, having held the trump ace when play began: pays 3 × P; failing with 1 trick: "
            "pays 2 × P") in row


def test_the_stock_a_call_needs_counts_its_extra_exchange_draws() -> None:
    """khrap exchanging at least 1 card and drawing 1 extra (then discarding it) reserves 2 cards of the stock."""
    variant = _variant("khrap", calls__khrap__exchange={"min_discard": 1, "draw_extra": 1, "then_discard": 1},
                       calls__helicopter__effects__skip_stages=["fives"])
    assert "only while the stock still holds 2 cards to draw" in _text(variant, "en", "khrap")


def test_a_carried_pot_keeps_what_rounding_leaves() -> None:
    """settlement.remainder: most_tricks acts only when the pot is shared at once (pot_after: redistribute)."""
    variant = _variant("khrap", settlement__pot_after="carry", settlement__remainder="most_tricks")
    assert "goes to the player with the most tricks" not in _text(variant, "en", None)


def test_no_overridden_declarer_sentence_without_a_call_that_overrides() -> None:
    """overridden_becomes is said only where some call takes over from a declarer."""
    data = builtin("khrap-52").model_dump(mode="json")
    for call in data["calls"].values():
        call["effects"]["override"] = False
        if call["effects"]["status"] == "declarer":
            call["requires"]["declarer"] = "absent"
    variant = Variant.model_validate(data)
    assert not semantic_issues(variant)
    assert "taken over by another call" not in _text(variant, "en", None)
    assert "taken over by another call" in _text(builtin("khrap-52"), "en", None)


def test_a_switched_off_call_is_offered_in_no_step() -> None:
    variant = _variant("khrap", calls__sad__enabled=False)
    assert "says Khrap, Help, Merry, Wrap, Helicopter or Pass." in _text(variant, "en", None)


def test_no_debts_is_among_the_special_features() -> None:
    """A value other than the plain rule (allow_debt: true) is listed with the variant's special features."""
    text = render_rules(_variant("khrap", allow_debt=False), "md", "en", example=False)
    special = text[text.index("## Special features"):]
    assert "No debts:" in special
    plain = render_rules(builtin("khrap"), "md", "en", example=False)
    assert "may go below zero" in plain[plain.index("## What you need"):plain.index("## The deal")]


def show_changes(paths: list[str]) -> None:
    """Print, per field change, the words that change on the sheet: a reading aid for choosing the phrase of a
    new EXPECTED entry, or for checking one after the templates are reworded (the phrase must state the rule)."""
    import difflib

    for path in paths or sorted(MUTATIONS):
        before, after = mutated(path)
        print(f"== {path}")
        for lang in ("en", "ru"):
            old, new = (_text(v, lang, None).split() for v in (before, after))
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
                if tag != "equal":
                    print(f"  {lang} …{' '.join(old[max(0, i1 - 6):i1])} [-{' '.join(old[i1:i2])}-] "
                          f"[+{' '.join(new[j1:j2])}+]")


if __name__ == "__main__":  # python -m tests.test_rulebook_fields [FIELD_PATH ...]
    import sys

    show_changes(sys.argv[1:])


@pytest.mark.parametrize(("base_stake", "fine", "paid", "pot"), [
    # khrap's sample settlement: P = 10, a trick ⌊10 / 4⌋ = 2; A takes 3 × 2 = 6 (pot 4), B 1 × 2 (pot 2);
    # C, a helper with 0 tricks, pays his stake of 1 base stake = base_stake chips.
    (1, None, 1, 3), (5, None, 5, 7),
    # a fine of {base: 3}: 3 × base_stake chips.
    (5, {"base": 3}, 15, 17),
])
def test_an_amount_in_base_stakes_is_base_stake_chips_each(base_stake: int, fine: Any, paid: int, pot: int) -> None:
    """Issue 28: a stake or a fine counted in base stakes is `base_stake` chips each, in the sheet's own
    arithmetic (and in the kernel: tests/scenarios/house-rules/base_stake_counts_every_stake.yaml)."""
    changes: dict[str, Any] = {"base_stake": base_stake}
    if fine is not None:
        changes["settlement__penalties"] = [{"pay": fine}]
    text = render_rules(_variant("khrap", **changes), "md", "en", example=False)
    paying = "pays their stake, " if fine is None else "pays "
    assert f"C failed with 0 tricks and {paying}{paid} (pot {pot})" in text, text[text.index("For example"):][:600]
