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
from khrap.engine import events as ev
from khrap.engine.actions import Action
from khrap.gamelog.voice import Voice
from khrap.terms import own_words, variant_terms

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


def _n(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted message (``ngettext``) for extraction; rendered with its count."""
    return singular, plural


# Reasons a payment gives, by the ``reason`` field of ``paid_out`` / ``paid_in``; a pair is counted by
# ``tricks``.
_REASONS: dict[str, str | tuple[str, str]] = {
    "share": _n("{tricks} trick × {unit}", "{tricks} tricks × {unit}"),
    "prize": _("declarer's prize, round {round}"),
    "redistribute": _("share of the pot"),
    "rounding": _("what rounding left"),
    "penalty": _n("failed {status}, {tricks} trick", "failed {status}, {tricks} tricks"),
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
    "forced": _("forced"),
    "overridden": _("overridden"),
    "caller": _("caller"),
}


def translate(lang: str, message: str, **values) -> str:
    """``message`` (an English msgid of this domain) in ``lang``, its ``{fields}`` filled in."""
    text = translations(lang).gettext(message)
    return text.format(**values) if values else text


def counted(lang: str, message: tuple[str, str], count: int, **values) -> str:
    """A counted message (``_n``) in ``lang``'s grammar for ``count``; ``{count}`` is filled in too (below zero
    with the minus sign, ``number``, and the form of its size: «по −1 фишке», as «по 1 фишке»)."""
    form = translations(lang).ngettext(message[0], message[1], abs(count))
    return form.format(count=number(count), **values)


def number(n: int) -> str:
    """A number as people read it: below zero with the minus sign (U+2212), as the web page and the terminal's
    own lines write it, not a hyphen ("−8", not "-8").  (Prose only: JSON and records keep numbers.)"""
    return str(n).replace("-", "\u2212")


def word(lang: str, kernel_word: str, variant=None) -> str:
    """A kernel word (a status, a phase, a draw source) in ``lang``; other words as they are.  With the
    ``variant``, a status takes the variant's own word (its ``terms:``: a frap declarer is «фрапующий»)."""
    text = translations(lang).gettext(_WORDS[kernel_word]) if kernel_word in _WORDS else kernel_word
    return own_words(variant_terms(variant, lang))(text) if variant is not None else text


class _Renderer:
    """Sentences in one voice (a language; CONTRACT codes or the players' cards; the variant's names)."""

    def __init__(self, voice: Voice) -> None:
        self.voice = voice
        self.t = voice.catalog.gettext if voice.codes else (lambda message: voice.own(voice.catalog.gettext(message)))

    def word(self, kernel_word: str) -> str:
        if self.voice.codes:
            return self.t(_WORDS[kernel_word]) if kernel_word in _WORDS else kernel_word
        return self.voice.own(word(self.voice.lang, kernel_word))  # (``word`` with the variant: the voice's terms)

    def say(self, message: str | tuple[str, str], n: int = 0, **values) -> str:
        """``message`` filled in; a counted one (``_n``) in the form for ``n``."""
        if isinstance(message, tuple):
            text = self.voice.catalog.ngettext(message[0], message[1], n)
            return (text if self.voice.codes else self.voice.own(text)).format(**values)
        return self.t(message).format(**values)

    def cards(self, cards) -> str:
        return self.voice.cards(cards)


def _dealt(r: _Renderer, f: dict, full: bool) -> str:
    text = r.say(_n("seat {seat} deals {size} card each", "seat {seat} deals {size} cards each"), f["size"],
                 seat=f["dealer"], size=f["size"])
    if not full:
        return text
    hands = "; ".join(r.say(_("seat {seat}: {cards}"), seat=s, cards=r.cards(h)) for s, h in enumerate(f["hands"]))
    return f"{text} ({hands})"


def _drew(r: _Renderer, f: dict, full: bool) -> str:
    if full:
        what = r.cards(f["cards"])
    elif r.voice.codes:  # the log of `khrap run` and reports, as it always read
        what = f["count"]
    else:
        what = r.say(_n("{count} card", "{count} cards"), f["count"], count=f["count"])
    if f["source"] == "top":
        return r.say(_("seat {seat} draws {cards}"), seat=f["seat"], cards=what)
    return r.say(_("seat {seat} draws {cards} from {source}"), seat=f["seat"], cards=what,
                 source=r.word(str(f["source"])))


def _exchanged(r: _Renderer, f: dict, full: bool) -> str:
    if not full and r.voice.codes:  # as it always read
        return r.say(_("seat {seat} exchanges {count}"), seat=f["seat"], count=f["count"])
    if not full:
        if not f["count"]:
            return r.say(_("seat {seat} exchanges nothing"), seat=f["seat"])
        return r.say(_n("seat {seat} exchanges {count} card", "seat {seat} exchanges {count} cards"), f["count"],
                     seat=f["seat"], count=f["count"])
    if not f["cards"]:
        return r.say(_("seat {seat} exchanges nothing"), seat=f["seat"])
    return r.say(_("seat {seat} exchanges {cards}"), seat=f["seat"], cards=r.cards(f["cards"]))


def _discarded(r: _Renderer, f: dict, full: bool) -> str:
    if full:
        return r.say(_("seat {seat} discards {card}"), seat=f["seat"], card=r.voice.card(f["card"]))
    return r.say(_("seat {seat} discards a card"), seat=f["seat"])


def _played(r: _Renderer, f: dict, full: bool) -> str:
    if f["joker"]:
        return r.say(_("seat {seat} plays {card} as the joker"), seat=f["seat"], card=r.voice.card(f["card"]))
    return r.say(_("seat {seat} plays {card}"), seat=f["seat"], card=r.voice.card(f["card"]))


def _paid(message: str) -> Callable[[_Renderer, dict, bool], str]:
    def render(r: _Renderer, f: dict, full: bool) -> str:
        values = {**f, "status": r.word(f.get("status", ""))}
        why = r.say(_REASONS[f["reason"]], f.get("tricks", 0), **values)
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
    return r.voice.card(card)


def _suit(r: _Renderer, suit: int) -> str:
    return r.voice.suit(suit)


def _word(r: _Renderer, word: str) -> str:
    return r.word(word)


def listed(values) -> str:
    """Chips, seat by seat, as a reader writes them: "98, −3" (it read as a Python list, "[98, -3]")."""
    return ", ".join(number(v) for v in values)


def _list(r: _Renderer, values) -> str:
    return listed(values)


def _decided(r: _Renderer, f: dict, full: bool) -> str:
    """An answer to a decision a rule offers, from the event's typed fields (``events.decided_event``): its word as
    the registry names it in the log's language, what it carries in the log's voice."""
    action = Action(f["answer"], cards=tuple(f["cards"]), position=f["position"], take_turned=f["take_turned"],
                    source=f["source"])
    return r.t(_("seat {seat}: {action}")).format(seat=f["seat"], action=r.voice.answer(action))


def _called(r: _Renderer, f: dict, full: bool) -> str:
    """A call with what it carries, from the event's typed fields (``events.call_event``), in the log's voice (in
    CONTRACT words with codes: the call's words as said)."""
    action = Action(f["call"], cards=tuple(f["cards"]), position=f["position"], take_turned=f["take_turned"],
                    source=f["source"])
    return r.t(_("seat {seat}: {action}")).format(seat=f["seat"], action=r.voice.action(action))


def _win(r: _Renderer, wid: str) -> str:
    variant = r.voice.variant
    win = getattr(variant, "instant_wins", {}).get(wid) if variant is not None and not r.voice.codes else None
    return (win.name.get(r.voice.lang) or win.name.get(SOURCE_LANGUAGE) or wid) if win is not None else wid


_KINDS: dict[type, Callable[[_Renderer, dict, bool], str]] = {
    ev.Anted: lambda r, f, full: r.t(_ANTES[f["reason"]]).format_map(f),
    ev.Dealt: _dealt,
    ev.Turned: _simple(_("{card} is turned: {trump} is trump"), card=_card, trump=_suit),
    ev.Redealt: _simple(_("redeal by seat {seat}")),
    ev.AllPassed: _simple(_("all pass in round {round}")),
    ev.SessionOver: lambda r, f, full: r.say(_SESSION_OVER[f.get("reason", "declare")], **f),
    ev.Looked: _simple(_("seat {seat} looks at his cards")),
    ev.Called: _called,
    ev.Decided: _decided,
    ev.Overridden: _simple(_("seat {seat} is overridden and becomes {status}"), status=_word),
    ev.Forced: _simple(_("seat {seat} is forced to be a helper")),
    ev.Shown: lambda r, f, full: r.say(_("seat {seat} shows {cards}"), seat=f["seat"], cards=r.cards(f["cards"])),
    ev.Swapped: _simple(_("seat {seat} swaps hand card {position} for {card}"), card=_card),
    ev.TookTurned: _simple(_("seat {seat} takes {card} from the table"), card=_card),
    ev.Drew: _drew,
    ev.NamedTrump: _simple(_("seat {seat} names {suit} as trump"), suit=_suit),
    ev.Exchanged: _exchanged,
    ev.Discarded: _discarded,
    ev.Credited: _simple(_("seat {seat} plays alone and is credited every trick")),
    ev.Played: _played,
    ev.TookTrick: _simple(_("seat {seat} takes the trick ({count})")),
    ev.Settling: _settling,
    ev.PaidOut: _paid(_("seat {seat} takes {chips} ({why}); pot {pot}")),
    ev.PaidIn: _paid(_("seat {seat} pays {chips} ({why}); pot {pot}")),
    ev.InstantWin: _simple(_("seat {seat}: {win}"), win=_win),
    ev.TookPot: _simple(_("seat {seat} takes the pot of {chips}")),
    ev.HouseShare: _simple(_("seat {seat} pays the house {chips} ({percent} per cent of {taxed})")),
    ev.Settled: _simple(_("deal settled; stacks {stacks}; pot {pot}"), stacks=_list),
}
"""How each event class is told; consumers name the class (``engine.events``), never the kind's word."""


@cache
def _renderer(lang: str) -> _Renderer:
    """The log of ``khrap run`` and of reports: CONTRACT codes and call ids in every language."""
    return _Renderer(Voice(lang, codes=True))


def render(event, lang: str = SOURCE_LANGUAGE, full: bool = True, voice: Voice | None = None) -> str:
    """The sentence of ``event`` in ``lang``; ``full``: with its secret fields (the acting seat's view).

    ``voice``: say cards and calls as players write them (``Voice``: 10♥, the variant's call names) in
    the voice's language; without it, CONTRACT.md's codes and ids (``khrap run``)."""
    fields = {**event.fields, "seat": event.seat}
    if full and event.secret:
        fields.update(event.secret)
    renderer = _renderer(lang) if voice is None else _voiced(voice)
    told = _KINDS.get(type(event))
    if told is None:  # a plain ``Event`` made by its word: the class that word names
        told = _KINDS[ev.EVENT_TYPES[event.kind]]
    return told(renderer, fields, full)


def tell(events, lang: str = SOURCE_LANGUAGE, viewer: int | None = ev.EVERYTHING, variant=None,
         voice: Voice | None = None) -> list[str]:
    """The log of ``events`` as ``viewer`` (a seat, None for the table, EVERYTHING) sees it, in ``lang``: the one
    renderer of the terminal, the web table and replays.  English says cards and calls in CONTRACT's words
    (as ``khrap run``); any other language as its players write them, calls by ``variant``'s names."""
    if voice is None:
        voice = Voice(lang, variant, codes=lang == SOURCE_LANGUAGE)
    if voice.codes:
        return [event.render(voice.lang, viewer) for event in events]  # made once per event and view
    return [render(event, voice.lang, event.sees_secret(viewer), voice) for event in events]


_MARK = "\x00"  # what ``_Marking`` writes for a card: no sentence holds it


class _Marking(Voice):
    """The ``khrap run`` voice (CONTRACT codes) writing each card as ``_MARK`` (``template``)."""

    def card(self, card: int) -> str:
        return _MARK


@cache
def _marking(lang: str) -> _Marking:
    return _Marking(lang, codes=True)


def template(event, lang: str = SOURCE_LANGUAGE) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``event``'s sentence as its own seat sees it (``render(event, lang)``), cut where it names a card:
    (the text's parts, one more than the cards named; the voice's name of each card by its int).  The
    sentence of another event of the same kind, seat and public fields is the parts with its own cards
    named in between, in the order it lists them (a renderer says a card only through the voice, and
    says nothing else of the secret cards but their number, a public field): what an observation makes
    the seat's own draws, exchanges and discards with, at a fraction of a rendering's cost
    (``engine.observation``, which checks the first sentence made so against ``render``)."""
    parts = tuple(render(event, lang, True, _marking(lang)).split(_MARK))
    return parts, _card_names(lang)


@cache
def _card_names(lang: str) -> tuple[str, ...]:
    """The voice's name of each card by its int (``template``'s second half: the same for every event, and the
    52 names cost about as much again as the sentence)."""
    voice = _renderer(lang).voice
    return tuple(voice.card(c) for c in range(52))


def _voiced(voice: Voice) -> _Renderer:
    made = getattr(voice, "_renderer", None)
    if made is None:
        made = _Renderer(voice)
        voice._renderer = made  # type: ignore[attr-defined]
    return made


def missed_line(lang: str, seat: int, call: str, card: int, joker: bool, leads: bool,
                voice: Voice | None = None) -> str:
    """After a deal: seat ``seat``'s call ``call`` (its name in ``lang``) could have been made with ``card``
    first, with every card open (``khrap.bots.hindsight``)."""
    r = _renderer(lang) if voice is None else _voiced(voice)
    shown = r.say(_("{card} as the joker"), card=r.voice.card(card)) if joker else r.voice.card(card)
    if leads:
        message = _("with all cards open, seat {seat}'s {call} could have been made: lead {card}")
    else:
        message = _("with all cards open, seat {seat}'s {call} could have been made: play {card} to the first trick")
    return r.say(message, seat=seat, call=call, card=shown)


def kinds() -> frozenset[str]:
    """Every event kind the log can render (the words of their classes)."""
    return frozenset(word for word, made in ev.EVENT_TYPES.items() if made in _KINDS)


SOURCES = ("gamelog/__init__.py", "gamelog/voice.py", "play/screen.py", "play/game.py", "play/reader.py",
           "play/refusals.py", "play/commands.py", "session/narrate.py")
"""The modules whose ``_("...")``, ``_n("...", "...")`` and ``_p("context", "...")`` messages belong to this
domain (paths inside the package)."""


def entries() -> list[tuple[str | None, str, str | None]]:
    """Every message of the game log and the play screen as (context, msgid, plural msgid), in a stable
    order (for the catalogs and their test)."""
    import ast

    package = Path(__file__).resolve().parent.parent
    found: list[tuple[str | None, str, str | None]] = []
    for source in SOURCES:
        tree = ast.parse((package / source).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or getattr(node.func, "id", None) not in ("_", "_n", "_p"):
                continue
            args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if len(args) != len(node.args) or not args:
                continue
            name = node.func.id  # type: ignore[attr-defined]
            entry = (None, args[0], args[1]) if name == "_n" else (args[0], args[1], None) if name == "_p" \
                else (None, args[0], None)
            if entry not in found:
                found.append(entry)
    return found


def messages() -> list[str]:
    """Every msgid of the game log and the play screen (singular and plural), in a stable order."""
    found: list[str] = []
    for _context, message, plural in entries():
        for text in (message, plural):
            if text is not None and text not in found:
                found.append(text)
    return found
