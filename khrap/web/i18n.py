"""The page's words in English and Russian, from a gettext catalog as the rule sheets' and the log's are.

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
LANGS = ("en", "ru")

UI: dict[str, str] = {
    "create_title": "Start a table",
    "variant": "Rules",
    "house_rule": "A house rule (paste or upload a file)",
    "house_text": "House-rule file (YAML: extends a built-in, then what changes)",
    "check": "Check",
    "mistakes": "Mistakes",
    "house_ok": "The file is valid: {title}",
    "line_col": "line {line}, column {col}:",
    "players": "Players",
    "stacks": "Chips each",
    "base_stake": "Base stake",
    "deals": "Deals",
    "seats": "Seats",
    "person": "a person",
    "bot_kind": "bot ({kind})",
    "bot_easy": "easy",
    "bot_normal": "normal",
    "bot_strong": "strong",
    "bot_random": "random",
    "bot_rule": "rules of thumb",
    "bot_heuristic": "heuristic",
    "bot_mcts": "search",
    "seat_n": "Seat {seat}",
    "seat_short": "{seat}",
    "you_seat": "Seat {seat} (you)",
    "create": "Create the table",
    "links_title": "Invite links",
    "links_help": "Send each player his own link: whoever opens it sits at that seat. Keep them secret.",
    "open_seat": "open this seat",
    "spectators": "Spectators:",
    "watch": "watch",
    "copy": "copy",
    "fingerprint": "Rules fingerprint",
    "fingerprint_help": "A hash of the rules this table plays: the same on every seat's page and on the rule sheet",
    "rule_sheet": "Rule sheet",
    "connected": "connected",
    "reconnecting": "reconnecting…",
    "no_token": "This page needs a table link (…/play#TOKEN).",
    "dealer": "dealer",
    "away": "away",
    "taken_over": "played by a bot",
    "takeover_banner": "{seat} is away: a bot plays for him until he returns.",
    "takeover_rule": "a player away for {seconds} s is replaced by a bot until he returns",
    "chips": "{chips} chips",
    "locked": "{chips} staked",
    "cards_tricks": "{cards} cards, {tricks} tricks",
    "status_declarer": "declarer",
    "status_helper": "helper",
    "status_out": "out",
    "pot": "Pot {chips}",
    "trump": "Trump {suit}",
    "stock": "Stock {cards}",
    "turned": "Turned:",
    "shown": "Shown:",
    "no_trick": "No cards on the table",
    "spectating": "You are watching: you see what every player sees.",
    "not_looked": "You have not looked at your cards",
    "no_cards": "No cards",
    "as_joker": "as joker",
    "as_card": "as itself",
    "exchange_n": "Exchange {count}",
    "keep_hand": "Keep my hand",
    "exchange_help": "Tap the cards to change, then press the button.",
    "your_turn": "Your turn:",
    "waiting_for": "Waiting for {seat}",
    "name_trump": "Trump {suit}",
    "with_turned": "{call} and take the turned card",
    "word_look": "Look at my cards",
    "word_pass": "Pass",
    "the_pot": "The pot",
    "ledger_share": "share of the pot: {tricks} tricks × {unit}",
    "ledger_prize": "prize ({detail})",
    "ledger_penalty": "penalty for failing, into the pot ({tricks} tricks taken)",
    "ledger_unlock": "his staked chips back",
    "ledger_redistribute": "{tricks} of {total} tricks × the pot of {base}",
    "ledger_rounding": "what the rounding left",
    "ledger_house": "the house's commission: {total} per cent of {base}",
    "ledger_left": "stay in the pot",
    "settlement": "Deal {deal}: who paid what, and why",
    "next_deal": "Next deal",
    "start": "Start the game",
    "waiting_others": "waiting for the other players…",
    "waiting_next": "The next deal starts when the players are ready.",
    "session_over": "The session is over.",
    "download_record": "Download the record (khrap replay, khrap verify)",
    "deal_of": "Deal {deal} of {deals}",
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
}


@cache
def strings(lang: str) -> dict[str, str]:
    """Every message of the page in ``lang`` (English where a message is not translated)."""
    translations = catalogs.load(LOCALE_DIR, DOMAIN, lang)
    return {key: translations.gettext(text) for key, text in UI.items()}


def update() -> None:
    """Write web.pot and bring every catalog in step with ``UI`` (translations kept, new ones empty)."""
    from io import BytesIO

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    template = Catalog(project="khrap", domain=DOMAIN, charset="utf-8")
    for key, text in UI.items():
        template.add(text, None, auto_comments=[key])
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
