"""The game log as text: each kernel event rendered as a sentence, in English or another language.

The sentences are gettext messages of their own domain, ``gamelog`` (apart
from the rule sheets' ``messages``): English is the source language (the
msgids themselves, so the English log needs no catalog), and each other
language is one catalog, ``locale/LANG/LC_MESSAGES/gamelog.po``, compiled in
memory the first time it is used, the way the rule sheets' catalogs are
(:mod:`khrap.rulebook.i18n`).  A message missing from a catalog shows in
English.

Nothing reads these sentences back: bots, records and the rule sheets'
examples read the events (:mod:`khrap.engine.events`).  The English text is
what ``khrap run`` prints in its ``log`` (CONTRACT.md), word for word.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path

from khrap import catalogs
from khrap.cards import card_str, suit_str

DOMAIN = "gamelog"
SOURCE_LANGUAGE = catalogs.SOURCE_LANGUAGE
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def _(message: str) -> str:
    """Mark a message for extraction; it is translated when rendered."""
    return message


def catalog_path(lang: str) -> Path:
    return catalogs.catalog_path(LOCALE_DIR, DOMAIN, lang)


def languages() -> list[str]:
    """English and every language that has a game-log catalog."""
    return catalogs.languages(LOCALE_DIR, DOMAIN)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English, or a language without a catalog: the msgids)."""
    return catalogs.load(LOCALE_DIR, DOMAIN, lang)


_NAMES = {c: card_str(c) for c in range(52)}  # the cards' notation, by their int (observations render cards often)


def _cards(cards) -> str:
    try:
        return " ".join([_NAMES[c] for c in cards])
    except (KeyError, TypeError):  # not a card of the deck's 52: the general notation
        return " ".join(card_str(c) for c in cards)


# Reasons a payment gives, by the ``reason`` field of ``paid_out`` / ``paid_in``.
_REASONS = {
    "share": _("{tricks} tricks × {unit}"),
    "prize": _("declarer's prize, round {round}"),
    "redistribute": _("share of the pot"),
    "rounding": _("what rounding left"),
    "penalty": _("failed {status}, {tricks} tricks"),
    "stake": _("{status}'s stake"),
    "helper_stake": _("a helper's stake"),
}

_ANTES = {
    "ante": _("ante: every player puts {chips} in the pot; pot {pot}"),
    "round": _("round {round}: every player puts {chips} in the pot; pot {pot}"),
    "last": _("all passed in every round: every player puts {chips} in the pot; pot {pot}"),
}

# Why a session ends (tables without debts, or with a minimum stack), by the ``reason`` of ``session_over``.
_SESSION_OVER = {
    "declare": _("nobody can cover a declaring call: the session is over"),
    "ante": _("seat {seat} cannot pay {chips}: the session is over"),
    "stack": _("seat {seat} has fewer than the {chips} chips a player needs to be dealt in: the session is over"),
}

# Words of the kernel that appear inside sentences (statuses, draw sources).
_WORDS = {
    "declarer": _("declarer"),
    "helper": _("helper"),
    "out": _("out"),
    "undecided": _("undecided"),
    "bottom": _("bottom"),
    "bidding": _("bidding"),
    "offers": _("offers"),
    "exchange": _("exchange"),
    "trump": _("trump"),
    "play": _("play"),
    "settled": _("settled"),
}


def translate(lang: str, message: str, **values) -> str:
    """``message`` (an English msgid of this domain) in ``lang``, its ``{fields}`` filled in."""
    text = translations(lang).gettext(message)
    return text.format(**values) if values else text


def word(lang: str, kernel_word: str) -> str:
    """A kernel word (a status, a phase, a draw source) in ``lang``; other words as they are."""
    return translations(lang).gettext(_WORDS[kernel_word]) if kernel_word in _WORDS else kernel_word


class _Renderer:
    """Sentences in one language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.t = translations(lang).gettext

    def word(self, word: str) -> str:
        return self.t(_WORDS[word]) if word in _WORDS else word

    def say(self, message: str, **values) -> str:
        return self.t(message).format(**values)


def _dealt(r: _Renderer, f: dict, full: bool) -> str:
    text = r.say(_("seat {seat} deals {size} cards each"), seat=f["dealer"], size=f["size"])
    if not full:
        return text
    hands = "; ".join(r.say(_("seat {seat}: {cards}"), seat=s, cards=_cards(h)) for s, h in enumerate(f["hands"]))
    return f"{text} ({hands})"


def _drew(r: _Renderer, f: dict, full: bool) -> str:
    what = _cards(f["cards"]) if full else f["count"]
    if f["source"] == "top":
        return r.say(_("seat {seat} draws {cards}"), seat=f["seat"], cards=what)
    return r.say(_("seat {seat} draws {cards} from {source}"), seat=f["seat"], cards=what,
                 source=r.word(str(f["source"])))


def _exchanged(r: _Renderer, f: dict, full: bool) -> str:
    if not full:
        return r.say(_("seat {seat} exchanges {count}"), seat=f["seat"], count=f["count"])
    if not f["cards"]:
        return r.say(_("seat {seat} exchanges nothing"), seat=f["seat"])
    return r.say(_("seat {seat} exchanges {cards}"), seat=f["seat"], cards=_cards(f["cards"]))


def _discarded(r: _Renderer, f: dict, full: bool) -> str:
    if full:
        return r.say(_("seat {seat} discards {card}"), seat=f["seat"], card=card_str(f["card"]))
    return r.say(_("seat {seat} discards a card"), seat=f["seat"])


def _played(r: _Renderer, f: dict, full: bool) -> str:
    if f["joker"]:
        return r.say(_("seat {seat} plays {card} as the joker"), seat=f["seat"], card=card_str(f["card"]))
    return r.say(_("seat {seat} plays {card}"), seat=f["seat"], card=card_str(f["card"]))


def _paid(message: str) -> Callable[[_Renderer, dict, bool], str]:
    def render(r: _Renderer, f: dict, full: bool) -> str:
        values = {**f, "status": r.word(f.get("status", ""))}
        why = r.say(_REASONS[f["reason"]], **values)
        return r.say(message, seat=f["seat"], chips=f["chips"], why=why, pot=f["pot"])

    return render


def _settling(r: _Renderer, f: dict, full: bool) -> str:
    tricks = ", ".join(r.say(_("seat {seat} {tricks}"), seat=s, tricks=t) for s, t in f["tricks"])
    return r.say(_("settlement: pot {pot}; tricks {tricks}"), pot=f["pot"], tricks=tricks)


def _simple(message: str, **convert: Callable) -> Callable[[_Renderer, dict, bool], str]:
    def render(r: _Renderer, f: dict, full: bool) -> str:
        for key, how in convert.items():  # ``f`` is the renderer's own copy of the fields
            f[key] = how(r, f[key])
        return r.t(message).format_map(f)

    return render


def _card(r: _Renderer, card: int) -> str:
    return card_str(card)


def _suit(r: _Renderer, suit: int) -> str:
    return suit_str(suit)


def _word(r: _Renderer, word: str) -> str:
    return r.word(word)


def _list(r: _Renderer, values) -> str:
    return str(list(values))


def _decided(r: _Renderer, f: dict, full: bool) -> str:
    """An answer to a decision a rule offers: its words as the registry names them in the log's language."""
    from khrap.engine.decisions import display_name  # (the engine renders through this package)

    word, *rest = f["action"].split(" ")
    name = display_name(word, r.lang) or word
    return r.t(_("seat {seat}: {action}")).format(seat=f["seat"], action=" ".join([name, *rest]))


_KINDS: dict[str, Callable[[_Renderer, dict, bool], str]] = {
    "anted": lambda r, f, full: r.t(_ANTES[f["reason"]]).format_map(f),
    "dealt": _dealt,
    "turned": _simple(_("{card} is turned: {trump} is trump"), card=_card, trump=_suit),
    "redealt": _simple(_("redeal by seat {seat}")),
    "all_passed": _simple(_("all pass in round {round}")),
    "session_over": lambda r, f, full: r.say(_SESSION_OVER[f.get("reason", "declare")], **f),
    "looked": _simple(_("seat {seat} looks at his cards")),
    "called": _simple(_("seat {seat}: {action}")),
    "decided": _decided,
    "overridden": _simple(_("seat {seat} is overridden and becomes {status}"), status=_word),
    "forced": _simple(_("seat {seat} is forced to be a helper")),
    "shown": lambda r, f, full: r.say(_("seat {seat} shows {cards}"), seat=f["seat"], cards=_cards(f["cards"])),
    "swapped": _simple(_("seat {seat} swaps hand card {position} for {card}"), card=_card),
    "took_turned": _simple(_("seat {seat} takes {card} from the table"), card=_card),
    "drew": _drew,
    "named_trump": _simple(_("seat {seat} names {suit} as trump"), suit=_suit),
    "exchanged": _exchanged,
    "discarded": _discarded,
    "credited": _simple(_("seat {seat} plays alone and is credited every trick")),
    "played": _played,
    "took_trick": _simple(_("seat {seat} takes the trick ({count})")),
    "settling": _settling,
    "paid_out": _paid(_("seat {seat} takes {chips} ({why}); pot {pot}")),
    "paid_in": _paid(_("seat {seat} pays {chips} ({why}); pot {pot}")),
    "instant_win": _simple(_("seat {seat}: {win}")),
    "took_pot": _simple(_("seat {seat} takes the pot of {chips}")),
    "house_share": _simple(_("seat {seat} pays the house {chips} ({percent} per cent of {taxed})")),
    "settled": _simple(_("deal settled; stacks {stacks}; pot {pot}"), stacks=_list),
}


@cache
def _renderer(lang: str) -> _Renderer:
    return _Renderer(lang)


def render(event, lang: str = SOURCE_LANGUAGE, full: bool = True) -> str:
    """The sentence of ``event`` in ``lang``; ``full``: with its secret fields (the acting seat's view)."""
    fields = {**event.fields, "seat": event.seat}
    if full and event.secret:
        fields.update(event.secret)
    return _KINDS[event.kind](_renderer(lang), fields, full)


def missed_line(lang: str, seat: int, call: str, card: int, joker: bool, leads: bool) -> str:
    """After a deal: seat ``seat``'s call ``call`` (its name in ``lang``) could have been made with ``card``
    first, with every card open (``khrap.bots.hindsight``)."""
    r = _renderer(lang)
    shown = r.say(_("{card} as the joker"), card=card_str(card)) if joker else card_str(card)
    if leads:
        message = _("with all cards open, seat {seat}'s {call} could have been made: lead {card}")
    else:
        message = _("with all cards open, seat {seat}'s {call} could have been made: play {card} to the first trick")
    return r.say(message, seat=seat, call=call, card=shown)


def kinds() -> frozenset[str]:
    """Every event kind the log can render."""
    return frozenset(_KINDS)


SOURCES = ("gamelog/__init__.py", "play/screen.py", "play/game.py")
"""The modules whose ``_("...")`` messages belong to this domain (paths inside the package)."""


def messages() -> list[str]:
    """Every msgid of the game log and the play screen, in a stable order (for the catalogs and their test)."""
    import ast

    package = Path(__file__).resolve().parent.parent
    found: list[str] = []
    for source in SOURCES:
        tree = ast.parse((package / source).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_" and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and arg.value not in found:
                    found.append(arg.value)
    return found
