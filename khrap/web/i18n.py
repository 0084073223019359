"""The page's words in English, Russian, Lithuanian, Finnish and Armenian, from gettext catalogs as the rule
sheets' and the log's are.

``UI`` holds every message (key: English text, ``{name}`` placeholders filled in by the page); the
translations are ``khrap/web/locale/LANG/LC_MESSAGES/web.po``, compiled in memory by
:mod:`khrap.catalogs`, the mechanism the rule sheets and the game log use.  The names of calls come
from the variant's own data and the log's sentences from the game log's catalogs, so the page,
the sheet and the log say the same words.  ``python -m khrap.web.i18n`` brings ``web.pot`` and the
catalogs in step with ``UI`` (tests/web/test_web_i18n.py checks that every message is translated).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from khrap import catalogs

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "web"
LANGS = ("en", "ru", "lt", "fi", "hy")
"""The page's languages: the rule sheets' and the game log's (their catalogs give the game's own words)."""

UI: dict[str, str] = {
    "create_title": "Start a table",
    "variant": "Rules",
    "house_rule": "A house rule (paste or upload a file)",
    "house_text": "House-rule file (YAML: extends a built-in, then what changes)",
    "check": "Check",
    "mistakes": "Mistakes",
    "house_ok": "The file is valid: {title}",
    "house_too_big": "The file is {size} KiB: a house-rule file is at most {most} KiB",
    "house_not_utf8": "The file is not UTF-8 text (line {line}): save it as UTF-8 and upload it again",
    "line_col": "line {line}, column {col}:",
    "players": "Players",
    "stacks": "Chips each",
    "base_stake": "Base stake",
    "deals": "Deals",
    "seats": "Seats",
    "clock": "Turn clock (seconds; 0: off)",
    "clock_help": "When a player takes longer over a decision, the seat's bot makes that one decision instead",
    "clock_left": "Time left for this decision",
    "seconds": "{seconds}\u00a0s",  # (a no-break space: «600 с» never breaks between the two)
    "clock_ran_out": "Your time ran out: the bot played {action} for you. The next decision is yours again.",
    "person": "a person",
    "bot_kind": "bot ({kind})",
    "bot_easy": "easy",
    "bot_normal": "normal",
    "bot_strong": "strong",
    "bot_random": "random",
    "bot_rule": "rules of thumb",
    "bot_heuristic": "heuristic",
    "bot_mcts": "Monte Carlo",
    "bot_search": "deep search",
    "seat_n": "Seat {seat}",
    "seat_short": "{seat}",
    "bot_short": "Bot{seat}",
    "you_seat": "Seat {seat} (you)",
    "you_name": "{name} (you)",
    "bot_seat": "Bot ({name}'s seat)",
    "bot_n": "Bot {seat}",
    "your_name": "Your name at this table:",
    "standings": "The evening after {deal} of {deals} deals",
    "start_chips": "Start",
    "winner": "The evening is over: {seat} wins with {chips}",
    "winners": "The evening is over: {seats} share the win with {chips} each",
    "deal_result": "Deal {deal} is over: {change} for you, {chips} now",
    "deal_result_even": "Deal {deal} is over: no change for you, {chips}",
    "chart": "Chips after each deal",
    "play_again": "Play again (same seats and rules)",
    "go_again": "To the new table",
    "go_again_by": "{name} started a new evening: to the new table",
    "my_tables": "My tables (kept in this browser)",
    "state_waiting": "not started",
    "state_finished": "over",
    "create": "Create the table",
    "links_title": "Invite links",
    "links_help": "Send each link to its player only: whoever opens it sits at that seat. Keep them secret.",
    "open_seat": "open this seat",
    "invite_table": "{title} ({deals})",
    "invite_line": "{table}, {seat}: {link}",
    "spectators": "Spectators:",
    "watch": "watch",
    "copy": "copy",
    "copied": "copied",
    "copy_failed": "not copied: select the link and copy it",
    "fingerprint": "Rules fingerprint",
    "fingerprint_help": "A hash of the rules this table plays: the same on every seat's page and on the rule sheet",
    "rule_sheet": "Rule sheet",
    "back_to_table": "Back to the table",
    "sheet_new_tab": "Open in a new tab (to print)",
    "sheet_loading": "The rule sheet is being made…",
    "draw_from": "Draw from",
    "draw_top": "the top of the stock",
    "draw_bottom": "the bottom of the stock",
    "connected": "connected",
    "reconnecting": "reconnecting…",
    "no_token": "This page needs a table link (…/play#TOKEN).",
    "dealer": "dealer",
    "away": "away",
    "taken_over": "played by a bot",
    "takeover_banner": "{seat} is away: a bot plays the seat meanwhile.",
    "missed": "While you were away, at your seat: {what}",
    "missed_deal": "deal {deal} played, {change} chips for you",
    "missed_deals": "deals {first}–{last} played, {change} chips for you",
    "takeover_rule": "a seat whose player is away {seconds}\u00a0s is played by a bot until the player is back",
    "chips": "{chips} chips",
    "locked": "{chips} staked",
    "cards_tricks": "{cards}, {tricks}",
    "status_declarer": "declarer",
    "status_helper": "helper",
    "status_out": "out",
    "pot": "Pot {chips}",
    "trump": "Trump {suit}",
    "stock": "Stock {cards}",
    "turned": "Turned:",
    "shown": "Shown:",
    "no_trick": "No cards on the table",
    "took_trick": "{seat} took the trick",
    "previous_trick": "Previous trick",
    "spectating": "You are watching: you see what every player sees.",
    "not_looked": "Your cards are face down: you may still call {calls} before looking at them",
    "look_gives_up": "Looking at your cards gives up {calls}: it is called blind or not at all.",
    "no_cards": "No cards",
    "as_joker": "as joker",
    "as_card": "as itself",
    "exchange_n": "Exchange {count}",
    "keep_hand": "Keep my hand",
    "exchange_help": "Tap the cards to change, then press the button.",
    "exchange_help_most": "Tap the cards to change (at most {count}), then press the button.",
    "exchange_help_exactly": "Tap the cards to change (exactly {count}), then press the button.",
    "exchange_too_many": "Change at most {count}: tap a card again to put it back.",
    "your_turn": "Your turn:",
    "title_turn": "your turn",
    "todo_lead": "lead any card.",
    "todo_follow": "play a card: you must follow {suit}.",
    "todo_trump": "play a card: you have no {suit}, so you must trump ({trump}).",
    "todo_any": "play any card.",
    "todo_exchange": "choose the cards to change (or keep your hand).",
    "todo_exchange_all": "choose the cards to change.",
    "todo_discard": "discard a card.",
    "todo_name_trump": "name the trump suit.",
    "todo_call": "make your call.",
    "todo_offer": "your choice: {choices}.",
    "or_list": "{items} or {last}",
    "waiting_ready": "waiting for {seats} to press “{button}”",
    "signal_on": "♪ sound on",
    "signal_off": "♪ sound off",
    "signal_help": "A sound and a vibration when it is your turn (the tab's title and icon change anyway)",
    "waiting_for": "Waiting for {seat}",
    "name_trump": "Trump {suit}",
    "with_turned": "{call} and take the turned card",
    "word_look": "Look at my cards",
    "word_pass": "Pass",
    "the_pot": "The pot",
    "pot_short": "Pot",
    "settlement": "Deal {deal}: every chip that moved, and why",
    "settlement_help": "Each column adds up: a seat's rows to its change of chips, the pot's to what it holds now.",
    "row_carried": "In the pot from the deal before",
    "row_ante": "Ante",
    "row_round_ante": "Everybody passed: the ante of round {round}",
    "row_last_ante": "Everybody passed in the last round: the ante before the redeal",
    "row_share": "From the pot: {tricks} × {unit}",
    "row_prize": "The declarer's prize",
    "row_redistribute": "What was left in the pot, shared by tricks",
    "row_rounding": "What rounding left, to the most tricks",
    "row_penalty": "Into the pot: failed as {status} with {tricks}",
    "row_stake": "Into the pot: the stake",
    "row_took_pot": "Took the pot",
    "row_house": "The house's commission: {percent} per cent",
    "row_net": "Change",
    "row_now": "Now",
    "next_deal": "Next deal",
    "start": "Start the game",
    "waiting_next": "The next deal starts when the players are ready.",
    "lobby": "The first deal begins when every player here has pressed “{button}”.",
    "pot_kept": "The pot keeps {chips} for the next deal.",
    "pot_kept_end": "The pot keeps {chips}: the evening is over, and nobody won the pot.",
    "download_record": "Download the record (khrap replay, khrap verify)",
    "deal_of": "Deal {deal} of {deals}",
    "deals_ahead": "An evening of {deals}",
    "deal_n": "Deal {deal}",
    "commitment": "commitment",
    "seed": "seed",
    "seed_hidden": "seed revealed after the deal",
    "deck_verified": "✓ the deck dealt is the seed's",
    "deck_wrong": "✗ the deck dealt is NOT the seed's",
    "fair_title": "Fair deals",
    "fair_help": "Before each deal the server commits to its seed (SHA-256); after it, it reveals the seed and this "
                 "page checks that the cards dealt are the ones the seed makes. `khrap verify RECORD` checks a "
                 "whole session.",
    "log": "What happened",
    "log_dealt": "{seat} deals {cards} each",
    "log_turned": "{card} is turned: {trump} is trump",
    "log_called": "{seat}: {call}",
    "log_looked": "{seat} looks at the cards",
    "log_played": "{seat} plays {card}",
    "log_played_joker": "{seat} plays {card} as the joker",
    "log_took_trick": "{seat} takes the trick ({tricks} now)",
    "log_drew": "{seat} draws {cards}",
    "log_drew_cards": "{seat} draws {cards}",
    "log_drew_bottom": "{seat} draws {cards} from the bottom of the stock",
    "log_drew_at": "{seat} draws {cards} from the stock, from card {n} down",
    "log_exchanged": "{seat} exchanges {cards}",
    "log_exchanged_cards": "{seat} exchanges {cards}",
    "log_kept": "{seat} keeps the hand",
    "log_discarded": "{seat} discards a card",
    "log_discarded_card": "{seat} discards {card}",
    "log_shown": "{seat} shows {cards}",
    "log_swapped": "{seat} swaps hand card {position} for {card}",
    "log_took_turned": "{seat} takes {card} from the table",
    "log_named_trump": "{seat} names {suit} as trump",
    "log_ante": "Ante: everybody puts {chips} in the pot; pot {pot}",
    "log_round_ante": "Round {round}: everybody puts {chips} in the pot; pot {pot}",
    "log_last_ante": "All passed in every round: everybody puts {chips} in the pot; pot {pot}",
    "log_all_passed": "All pass in round {round}",
    "log_redealt": "Redeal: {seat} deals",
    "log_session_over": "Nobody can cover a declaring call: the session is over",
    "log_session_over_ante": "{seat} cannot pay {chips}: the session is over",
    "log_session_over_stack": "{seat} has fewer than the {chips} chips a player needs to be dealt in: "
                              "the session is over",
    "log_overridden": "{seat} is overridden and becomes {status}",
    "log_forced": "{seat} is forced to be a helper",
    "log_credited": "{seat} plays alone and is credited every trick",
    "log_settling": "Settlement: pot {pot}; tricks: {tricks}",
    "log_seat_has": "{seat} {what}",
    "log_paid_out": "{seat} takes {chips} from the pot ({why}); pot {pot}",
    "log_paid_in": "{seat} pays {chips} into the pot ({why}); pot {pot}",
    "why_share": "{tricks} × {unit}",
    "why_prize": "the declarer's prize, round {round}",
    "why_redistribute": "a share of what was left",
    "why_rounding": "what rounding left",
    "why_penalty": "failed as {status} with {tricks}",
    "why_stake": "the stake as {status}",
    "why_helper_stake": "a helper's stake",
    "log_instant_win": "{seat}: {win}",
    "log_took_pot": "{seat} takes the pot of {chips}",
    "log_house_share": "{seat} pays the house {chips} ({percent} per cent of {taxed})",
    "log_settled": "Deal settled: {stacks}; pot {pot}",
    "host_link": "Your host link:",
    "open_host": "open the host's page",
    "host_help": "Keep it to yourself: it shows every seat's link and hands a seat to a bot or to a new link.",
    "host_title": "Host: the seats",
    "host_seats_help": "Give a seat to a bot, or to a new link for somebody else: its old link stops playing it.",
    "give_bot": "Give to a bot",
    "new_link": "New link",
    "state_revoked": "no longer yours",
    "mine_host": "the host's page",
    "revoked_bot": "The table's host gave your seat to a bot: this link no longer plays it.",
    "revoked_link": "The table's host gave your seat to a new link: this link no longer plays it. "
                    "Ask the host for yours.",
    "revoked_left": "You left the table: a bot plays your seat now, and this link no longer plays it.",
    "to_start": "To the start page",
    "elsewhere": "This seat is open in another tab or on another device: this tab only watches.",
    "play_here": "Play here",
    "leave": "Leave the table",
    "host_sure_bot": "{seat}: give the seat to a bot? Its link stops playing it.",
    "host_sure_link": "{seat}: give the seat a new link? The old link stops playing it.",
    "host_sure_link_bot": "{seat}: give the seat a link for a person?",
    "host_keep": "Keep it as it is",
    "leave_sure": "Leave? A bot plays your seat for the rest of the evening, and your link stops working.",
    "leave_yes": "Yes, leave",
    "leave_no": "Stay",
    "left_tag": "left the table",
    "left_banner": "{seat} left the table: a bot plays the seat.",
    "chat_title": "Table talk",
    "chat_send": "Send",
    "chat_placeholder": "Your message",
    "chat_length": "A message is 1 to 200 characters.",
    "chat_rate": "Too many messages: wait a little.",
    "chat_spectator": "Spectators read the table talk only.",
    "react_thumbs_up": "Thumbs up",
    "react_laugh": "Ha ha",
    "react_wow": "Wow",
    "react_grimace": "Ouch",
    "react_party": "Hooray",
    "react_well_played": "Well played!",
    "react_good_luck": "Good luck!",
    "react_thinking": "Just a moment, thinking…",
    "react_oops": "Oops!",
    "react_thanks": "Thanks!",
}

PLURAL: dict[str, tuple[str, str]] = {
    "n_cards": ("{n} card", "{n} cards"),
    "n_chips": ("{n} chip", "{n} chips"),
    "n_tricks": ("{n} trick", "{n} tricks"),
    "n_deals": ("{n} deal", "{n} deals"),
    "n_cards_taken": ("{n} card", "{n} cards"),
}
"""Counted words, in the language's grammar: the page gets each as its forms for 1, 2 and 5 (one, few
and many in Russian, the order of its catalog's plural forms) and picks one by ``Intl.PluralRules``."""
PLURAL_CONTEXT = {"n_cards_taken": "taken"}
"""The counted words that are the object of a verb ("Vera draws 1 card"), told apart from the same English by a
gettext context: Russian and Lithuanian say them in another case («берёт 1 карту», "ima 1 kortą"; the log said
«берёт из колоды 1 карта»), as the game log does."""
PLURAL_SAMPLES = {"lt": (1, 2, 10)}
"""A number of each of the page's three kinds (one, few, other) where 1, 2 and 5 are not: Lithuanian says
"5 kortos" as "2 kortos" (few) and "10 kortų" (other)."""


@cache
def strings(lang: str) -> dict[str, str | list[str]]:
    """Every message of the page in ``lang`` (English where a message is not translated)."""
    translations = catalogs.load(LOCALE_DIR, DOMAIN, lang)
    words: dict[str, str | list[str]] = {key: translations.gettext(text) for key, text in UI.items()}
    for key, (one, many) in PLURAL.items():
        context = PLURAL_CONTEXT.get(key)
        words[key] = [translations.npgettext(context, one, many, n) if context else translations.ngettext(one, many, n)
                      for n in PLURAL_SAMPLES.get(lang, (1, 2, 5))]
    return words


@cache
def ranks(lang: str) -> dict[str, str]:
    """Each rank's CONTRACT letter (``23456789TJQKA``) as ``lang``'s rule sheet prints it (``10`` for ten,
    Russian В Д К Т): the page's cards say what the terminal, the log and the sheet say."""
    from khrap.cards import RANKS
    from khrap.gamelog.voice import rank_label

    return {letter: rank_label(lang, rank) for rank, letter in enumerate(RANKS)}


@cache
def suits(lang: str) -> dict[str, str]:
    """Each suit's name in ``lang`` (``пики``), as the terminal reads it typed: a card's tooltip on the
    page says it beside the symbol (the code ``QH`` is for the data attributes and the actions sent)."""
    from khrap.cards import SUITS
    from khrap.gamelog.voice import Voice

    voice = Voice(lang)
    return {letter: voice.suit_name(letter) for letter in SUITS}


def update() -> None:
    """Write web.pot and bring every catalog in step with ``UI`` (translations kept, new ones empty)."""
    from io import BytesIO

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    template = Catalog(project="khrap", domain=DOMAIN, charset="utf-8")
    for key, text in UI.items():
        template.add(text, None, auto_comments=[key])
    for key, forms in PLURAL.items():
        template.add(forms, None, auto_comments=[key], context=PLURAL_CONTEXT.get(key))
    options = {"width": 100, "omit_header": False, "sort_output": False, "no_location": True}

    def write(catalog: Catalog, path: Path) -> None:
        buffer = BytesIO()
        write_po(buffer, catalog, ignore_obsolete=True, include_previous=False, **options)
        dated = (b'"POT-Creation-Date', b'"PO-Revision')
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\n".join(line for line in buffer.getvalue().split(b"\n") if not line.startswith(dated)))

    write(template, LOCALE_DIR / f"{DOMAIN}.pot")
    for lang in LANGS[1:]:
        path = catalogs.catalog_path(LOCALE_DIR, DOMAIN, lang)
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="khrap", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        write(catalog, path)


if __name__ == "__main__":
    update()
