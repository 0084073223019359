"""The verdict in the table's words: what a house rule changes for the players, first lines first.

``table_lines(...)`` says, for a house rule against its parent, what a player
at the table asks first: how much a seat wins or loses over an evening, how
often a deal is dealt again, how big the pot gets, how often the declarer makes
it, which calls are stood by more or less; then a warning for each call the
house rule adds that the bots never (or hardly ever) said, with the reason when
the call is dominated (another call wins as much and fails more cheaply); then
the strength the bots played at.  Calls and variants go by their display names
in the report's language (``LANGS``), never by id.

Why a module of its own: ``khrap.sim.verdict`` ranks the statistician's
measures; this one picks the few a player asks about and words them.
"""

from __future__ import annotations

from collections.abc import Sequence

from khrap import words as w
from khrap.bots import strength_of
from khrap.engine.decisions import display_name
from khrap.gamelog import word as kernel_word
from khrap.sim.figures import Figures, template_class
from khrap.sim.records import FORCED, is_forced
from khrap.variant.derived import enabled, penalty_matches
from khrap.variant.schema import Variant

LANGS = ("en", "ru")
HARDLY = 0.01  # a call said in under 1 % of the deals is "hardly ever" said

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "evening": "Over an evening of {deals} deals with {stack} chips each, half the players end between "
                   "{rule} chips under {r}, between {parent} under {p}.",
        "same": "{r} played exactly as {p} on every one of the {n} deals: with these bots the rule never "
                "changed a deal.",
        "stake": "A deal puts {rule} chips at stake for a player under {r}, {parent} under {p}{sure}.",
        "redeal": "Dealt again: {rule} of deals under {r}, {parent} under {p}{sure}.",
        "pot": "The pot played for: {rule} chips on average under {r}, {parent} under {p}; left for the next "
               "deal: {after_rule} against {after_parent}{sure}.",
        "made": "The declarer makes it in {rule} of deals under {r}, {parent} under {p}{sure}.",
        "more": "Said more often: {calls}.",
        "less": "Said less often: {calls}.",
        "never": "Warning: {call}, which {r} adds, was never said by the bots in {n} deals.",
        "hardly": "Warning: {call}, which {r} adds, was hardly ever said by the bots: {k} times in {n} deals.",
        "dominated": " It wins no more than {other} and costs more when it fails, so a player has no reason to "
                     "say it.",
        "strength": "Played by {strength} bots ({what}); a weaker table may call differently.",
        "strength_up": "Played by {strength} bots ({what}); a stronger table may call differently.",
        "sure": " ({diff}, 95% sure between {lo} and {hi})",
        "unsure": " (no measurable difference at {n} deals)",
        "points": "{x:+.0f} points",
        "overridden": "{call} (overridden)",
        "forced": "{call} (forced)",
        "easy": "rules of thumb", "normal": "they estimate their hand and call whenever it pays",
        "strong": "they deal the hidden cards many times and solve the play",
        "random": "each picks any legal action at random",
        "a deal": "{a} → {b} a deal",
        "quotes": "“”", "span": "{lo} and {hi}",
    },
    "ru": {
        "evening": "За вечер из {deals} раздач по {stack} фишек у каждого половина игроков заканчивает "
                   "с результатом {rule} фишек по правилам {r}, {parent} по правилам {p}.",
        "same": "Правила {r} сыграли точно так же, как {p}, во всех {n} раздачах: с этими ботами правило ни "
                "разу ничего не изменило.",
        "stake": "Ставка игрока за раздачу в фишках: {rule} по правилам {r}, {parent} по правилам {p}{sure}.",
        "redeal": "Пересдача: {rule} раздач по правилам {r}, {parent} по правилам {p}{sure}.",
        "pot": "Разыгрываемый банк в фишках: в среднем {rule} по правилам {r}, {parent} по правилам {p}; "
               "остаётся на следующую раздачу: {after_rule} против {after_parent}{sure}.",
        "made": "Объявивший выполняет обязательство в {rule} раздач по правилам {r}, {parent} по правилам "
                "{p}{sure}.",
        "more": "Говорят чаще: {calls}.",
        "less": "Говорят реже: {calls}.",
        "never": "Внимание: {call}, добавленное правилами {r}, боты не сказали ни разу за {n} раздач.",
        "hardly": "Внимание: {call}, добавленное правилами {r}, боты почти не говорили: {k} раз за {n} "
                  "раздач.",
        "dominated": " Оно выигрывает не больше, чем {other}, а при неудаче стоит дороже: игроку незачем его "
                     "говорить.",
        "strength": "Играли боты уровня «{strength}» ({what}); за более слабым столом заявки могут быть другими.",
        "strength_up": "Играли боты уровня «{strength}» ({what}); за более сильным столом заявки могут быть "
                       "другими.",
        "sure": " ({diff}, с уверенностью 95% от {lo} до {hi})",
        "unsure": " (за {n} раздач разница не измерима)",
        "points": "{x:+.0f} п.п.",
        "overridden": "{call} (перебит)",
        "forced": "{call} (обязательно)",
        "easy": "простые правила", "normal": "оценивают руку и заявляют, когда это выгодно",
        "strong": "много раз раздают скрытые карты и решают розыгрыш",
        "random": "каждый выбирает любой разрешённый ход наугад",
        "a deal": "{a} → {b} за раздачу",
        "quotes": "«»", "span": "от {lo} до {hi}",
    },
}
STRENGTH_WORDS = {"en": {"easy": "easy", "normal": "normal", "strong": "strong", "random": "random"},
                  "ru": {"easy": "лёгкий", "normal": "обычный", "strong": "сильный", "random": "случайный"}}


def _t(lang: str) -> dict[str, str]:
    """The texts of ``lang``, each a template whose ``format`` writes figures as ``lang`` does."""
    template = template_class(lang if lang in TEXT else "en")
    return {key: template(text) for key, text in TEXT.get(lang, TEXT["en"]).items()}


ENGLISH = Figures()


def _fig(lang: str) -> Figures:
    return template_class(lang if lang in TEXT else "en").figures


def quoted(name: str, lang: str) -> str:
    """A name in the language's quotation marks."""
    marks = _t(lang)["quotes"]
    return f"{marks[0]}{name}{marks[1]}"


def variant_name(variant: Variant, lang: str) -> str:
    """The variant's name in ``lang`` (English, then any, when it has none)."""
    return variant.name.get(lang) or variant.name.get("en") or next(iter(variant.name.values()), "?")


def call_name(variant: Variant, cid: str, lang: str) -> str:
    """A call's display name in ``lang``; the id only if the call has no name at all."""
    call = variant.calls.get(cid)
    if call is None or not call.name:
        return cid
    return call.name.get(lang) or call.name.get("en") or next(iter(call.name.values()))


def word_name(variants: Sequence[Variant], word: str, lang: str) -> str:
    """A label of the records that is not a call, in words: an instant win's name (a deal's ending, ``four-aces``),
    an offer's answer (``no-double``: the kernel's registry names it), else the label as given (``play``)."""
    for v in variants:
        win = v.instant_wins.get(word)
        if win is not None and win.name:
            return win.name.get(lang) or win.name.get("en") or word
    return display_name(word, lang) or word


def contract_name(variant: Variant | Sequence[Variant], label: str, lang: str) -> str:
    """A contract label of the records (``khrap``, ``khrap (overridden)``, ``forced helper``) in words; the
    call named by the first of the variants that has it (a house rule, then its parent)."""
    t = _t(lang)
    variants = [variant] if isinstance(variant, Variant) else list(variant)

    def name(cid: str) -> str:
        found = next((call_name(v, cid, lang) for v in variants if cid in v.calls), None)
        return found or word_name(variants, cid, lang)

    if label.endswith(" (overridden)"):
        return t["overridden"].format(call=name(label[: -len(" (overridden)")]))
    if is_forced(label):  # a status a call forced on the seat, not a call it said: named as such, never as its label
        return forced_name(variants, label[len(FORCED):], lang)
    return name(label)


def forced_name(variants: Sequence[Variant], status: str, lang: str) -> str:
    """A status a call forced on a seat (``forced helper``) by the name of the call that gives it by choice, as an
    overridden call is named: khrap's "Help (forced)", frap's "Whist (forced)" (its helper's call), in the variant's
    own words (its ``terms:``); the status's own word where no call gives it."""
    for v in variants:
        giving = next((cid for cid, call in v.calls.items()
                       if call.effects.status == status and not call.effects.forces_others), None)
        if giving is not None:
            named = call_name(v, giving, lang)
            break
    else:
        named = kernel_word(lang, status)  # (the general word: the variant's terms are put in once, below)
    return _own(variants, _t(lang)["forced"].format(call=named), lang)


def _own(variants: Sequence[Variant], text: str, lang: str) -> str:
    """``text`` in the first variant's own words (its ``terms:`` in ``lang``), by the project's one substitution
    (``terms.own_words``: one pass, longest first, what it puts in never searched again: a chain of terms cannot
    grow)."""
    from khrap.terms import own_words

    terms = variants[0].terms.get(lang, {}) if variants else {}
    return own_words(terms, "txt")(text)


SAID = 0.005
"""A call stood by under this often a deal (once in 200 deals) under both rules reads 0.00 → 0.00: said in
neither, to the precision shown, it is left out of the calls said more or less (a call the house rule adds is
the "never used" warning instead: ``call_warnings``)."""


def said_in_either(row: dict) -> bool:
    """Whether a call's paired row (``held:``) shows it said under one rule or the other, to the precision shown.
    A forced status (``forced helper``) is held but never said, so it is not among the calls said more or less."""
    return max(row["base"], row["value"]) >= SAID and not is_forced(row["key"].split(":", 1)[-1])


def rate(x: float, other: float, fig: Figures = ENGLISH) -> str:
    """A call's rate a deal, two decimals; three where two would show it the same as ``other``."""
    return fig(x, ".2f") if f"{x:.2f}" != f"{other:.2f}" else fig(x, ".3f")


def _pct(x: float, fig: Figures) -> str:
    return fig(100 * x, ".0f") + "%"


def _sure(t: dict, row: dict | None, deals: int, fig: Figures, points: bool = False, scale: float = 1.0) -> str:
    if row is None:
        return ""
    if not row["significant"]:
        return t["unsure"].format(n=deals)
    if points:
        return t["sure"].format(diff=t["points"].format(x=100 * row["difference"]),
                                lo=fig(100 * row["ci"][0], "+.0f"), hi=fig(100 * row["ci"][1], "+.0f"))
    return t["sure"].format(diff=fig(scale * row["difference"], "+.1f"), lo=fig(scale * row["ci"][0], "+.1f"),
                            hi=fig(scale * row["ci"][1], "+.1f"))


def _penalty(variant: Variant, cid: str, status: str, tricks: int, held: bool) -> float:
    """What ``cid`` pays short of its obligation with ``tricks`` (in pots plus base stakes at a pot of 10
    base stakes); ``held``: every card a penalty line asks for is held (else none is)."""
    for pen in variant.settlement.penalties:
        if not penalty_matches(pen, status, cid):
            continue
        if pen.tricks is not None and pen.tricks != tricks:
            continue
        if pen.held and not held:
            continue
        pay = variant.statuses[status].stake if pen.pay == "stake" else pen.pay
        return pay.base + 10 * pay.pots
    return 0.0


def dominated_by(variant: Variant, cid: str) -> str | None:
    """Another enabled call that makes the same status with the same effects, asks no more of the player (a
    blind call asks more: to say it unseen) and never costs more when it fails, while ``cid`` sometimes costs
    more: a player has no reason to say ``cid``.  None when there is none."""
    call = variant.calls[cid]
    status = call.effects.status
    if status == w.OUT:
        return None
    need = variant.statuses[status].tricks
    for oid, other in enabled(variant).items():
        if oid == cid or other.effects != call.effects:
            continue
        mine, theirs = call.requires, other.requires
        if theirs.model_copy(update={"blind": mine.blind}) != mine or (theirs.blind and not mine.blind):
            continue
        if any(oid in pen.calls for pen in variant.settlement.penalties if pen.calls) and not any(
                cid in pen.calls for pen in variant.settlement.penalties if pen.calls):
            continue
        costs = [(_penalty(variant, cid, status, k, h), _penalty(variant, oid, status, k, h))
                 for k in range(need) for h in (False, True)]
        if all(a >= b for a, b in costs) and any(a > b for a, b in costs):
            return oid
    return None


def added_calls(parent: Variant, rule: Variant) -> list[str]:
    """The calls ``rule`` makes available that ``parent`` does not (new, or enabled there)."""
    return [cid for cid, c in enabled(rule).items() if c.effects.status != w.OUT and cid not in enabled(parent)]


def call_warnings(parent: Variant, rule: Variant, said: dict[str, int], deals: int, lang: str) -> list[str]:
    """A warning for each call ``rule`` adds that was never or hardly ever said (``said``: times per call id)."""
    t, out = _t(lang), []
    r = quoted(variant_name(rule, lang), lang)
    for cid in added_calls(parent, rule):
        k = said.get(cid, 0)
        if k >= HARDLY * deals:
            continue
        name = quoted(call_name(rule, cid, lang), lang)
        text = t["never"].format(call=name, r=r, n=deals) if k == 0 else \
            t["hardly"].format(call=name, r=r, k=k, n=deals)
        other = dominated_by(rule, cid)
        if other is not None:
            text += t["dominated"].format(other=quoted(call_name(rule, other, lang), lang))
        out.append(text)
    return out


def strength_line(bots: Sequence[str], lang: str) -> str:
    """Which strength the bots played at, and that a weaker table may differ (a stronger one, where every bot
    was the easy or the random one: there is no weaker table to speak of)."""
    t = _t(lang)
    words = [strength_of(b) or b for b in dict.fromkeys(bots)]
    shown = ", ".join(STRENGTH_WORDS.get(lang, STRENGTH_WORDS["en"]).get(x, x) for x in words)
    what = "; ".join(t.get(x, x) for x in words)
    weakest = all(x in ("easy", "random") for x in words)
    return t["strength_up" if weakest else "strength"].format(strength=shown, what=what)


def _evening(t: dict, evenings: Sequence[dict], r: str, p: str, fig: Figures) -> str | None:
    """Half the players end an evening within these chips (the middle half), under the rule and the parent."""
    if len(evenings) < 2:
        return None
    rows = [next((x for x in e["rows"] if x["seat"] == "any player"), e["rows"][0]) for e in evenings[:2]]
    spans = [t["span"].format(lo=fig(x["p25"], "+d"), hi=fig(x["p75"], "+d")) for x in rows]
    return t["evening"].format(deals=evenings[0]["deals"], stack=evenings[0]["stack"], rule=spans[1],
                               parent=spans[0], r=r, p=p)


def table_lines(parent: Variant, rule: Variant, rows: Sequence[dict], summaries: tuple[dict, dict],
                deals: int, bots: Sequence[str], lang: str = "en", evenings: Sequence[dict] = ()) -> list[str]:
    """The verdict for the table, first lines first (see the module's doc).  ``rows``: the paired
    differences (``khrap.sim.analysis.difference_rows``); ``summaries``: parent's and rule's summaries;
    ``evenings``: parent's and rule's evening views (``khrap.sim.evening``), if played."""
    t, fig = _t(lang), _fig(lang)
    by = {r["key"]: r for r in rows}
    p, r = quoted(variant_name(parent, lang), lang), quoted(variant_name(rule, lang), lang)
    base, other = summaries
    stake = rule.base_stake
    if rows and all(d["difference"] == 0 and not d["significant"] for d in rows):
        said = {c["call"]: c["made"] for c in other["calls"]}
        return [t["same"].format(r=r, p=p, n=deals), *call_warnings(parent, rule, said, deals, lang),
                strength_line(bots, lang)]
    lines = [line for line in [_evening(t, evenings, r, p, fig)] if line]
    swing = by.get("swing")
    if swing is not None:  # the chips a player wins or loses in a deal, either way
        lines.append(t["stake"].format(rule=fig(stake * swing["value"], ".1f"),
                                       parent=fig(stake * swing["base"], ".1f"), r=r, p=p,
                                       sure=_sure(t, swing, deals, fig, scale=stake)))
    redeal = by.get("redeal")
    if redeal is not None:
        lines.append(t["redeal"].format(rule=_pct(redeal["value"], fig), parent=_pct(redeal["base"], fig), r=r, p=p,
                                        sure=_sure(t, redeal, deals, fig, points=True)))
    # a summary's pot is in its own variant's base stakes (the paired rows in the rule's): each in chips by its own
    pots = [None if s["pot"]["settlement"]["mean"] is None else s["pot"]["settlement"]["mean"] * s.get("base_stake", 1)
            for s in (base, other)]
    after = by.get("pot_after")
    if None not in pots and after is not None:
        lines.append(t["pot"].format(rule=fig(pots[1], ".0f"), parent=fig(pots[0], ".0f"), r=r, p=p,
                                     after_rule=fig(stake * after["value"], ".1f"),
                                     after_parent=fig(stake * after["base"], ".1f"),
                                     sure=_sure(t, after, deals, fig, scale=stake)))
    made = by.get("declarer_made")
    if made is not None:
        lines.append(t["made"].format(rule=_pct(made["value"], fig), parent=_pct(made["base"], fig), r=r, p=p,
                                      sure=_sure(t, made, deals, fig, points=True)))
    held = sorted((d for d in rows if d["key"].startswith("held:") and d["significant"] and said_in_either(d)),
                  key=lambda d: -abs(d["difference"]))
    for word, sign in (("more", 1), ("less", -1)):
        shown = [d for d in held if d["difference"] * sign > 0][:3]
        if shown:
            lines.append(t[word].format(calls=", ".join(
                quoted(contract_name((rule, parent), d["key"].split(":", 1)[1], lang), lang) + " "
                + t["a deal"].format(a=rate(d["base"], d["value"], fig), b=rate(d["value"], d["base"], fig))
                for d in shown)))
    said = {c["call"]: c["made"] for c in other["calls"]}
    lines += call_warnings(parent, rule, said, deals, lang)
    lines.append(strength_line(bots, lang))
    return lines


__all__ = ["LANGS", "added_calls", "call_name", "call_warnings", "contract_name", "dominated_by", "forced_name",
           "quoted", "rate", "said_in_either", "strength_line", "table_lines", "variant_name", "word_name"]
