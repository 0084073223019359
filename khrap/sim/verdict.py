"""The verdict of a paired comparison: each measure in a player's words, and one plain paragraph first.

``words(key, players)`` names a per-deal measure of ``khrap.sim.paired`` as a
player would and defines it in one sentence; ``verdict(result)`` says, for
each house rule against the first variant (its parent), what changes most, by
how much and how sure, then what else changed, then what did not measurably
change at this many deals (and how many deals would tell).

"The largest change" is the significant difference (its 95% interval leaves
out zero) that is largest against the measure's own spread from deal to deal
(the difference divided by the parent's standard deviation per deal), so that
a share of deals and a number of chips can be ranked together.
"""

from __future__ import annotations

from collections.abc import Callable

from khrap.sim.report_words import figures
from khrap.sim.summary import position_name
from khrap.sim.table_words import rate, said_in_either

WORDS: dict[str, tuple[str, str, str]] = {
    # key: (name, definition, unit: "stakes", "share" or "count")
    "first_edge": ("the first speaker's edge",
                   "how many base stakes a deal the player at the dealer's left (the first to speak) wins more "
                   "than the average player at the table; 0 is fair", "stakes"),
    "swing": ("stakes at risk per deal",
              "how many base stakes an average player wins or loses in one deal, either way", "stakes"),
    "declarer_made": ("the declarer makes it",
                      "of the deals with a declarer whose tricks were played, the share where the declarer took "
                      "the tricks called for", "share"),
    "all_pass": ("deals where everybody passes",
                 "the share of deals with at least one bidding round in which every player passed", "share"),
    "redeal": ("deals dealt again", "the share of deals redealt after the last all-pass round", "share"),
    "pot_after": ("pot carried over", "the base stakes left in the pot after a deal, for the next one", "stakes"),
    "decisive": ("deals decided early",
                 "of the deals played out, the share in which every player's fate (made or failed) was certain "
                 "before the last trick", "share"),
    "drama": ("lead changes",
              "the share of deals after which a different player leads the evening in chips", "share"),
    "actions": ("decisions per deal", "how many calls, exchanges and cards the players chose in a deal", "count"),
}


def _same(text: str) -> str:
    return text


def words(key: str, players: int, t: Callable[[str], str] = _same) -> tuple[str, str, str]:
    """(name, definition, unit) of a measure, in a player's words (``t``: in the report's language)."""
    if key in WORDS:
        name, definition, unit = WORDS[key]
        return t(name), t(definition), unit
    if key.startswith("position:"):
        p = int(key.split(":", 1)[1])
        position = position_name(p, players)
        shown = t("speaker {n}").format(n=position[8:]) if position.startswith("speaker ") else t(position)
        name = t("the dealer") if p == players - 1 else shown
        where = (t("who deals") if p == players - 1 else t("at the dealer's left (who speaks first)") if p == 0
                 else t("{k} seats to the dealer's left").format(k=p + 1))
        title = t("{name}'s result").format(name=name) if p else t("the first speaker's result")
        return (title, t("the base stakes the player {where} wins (+) or loses (-) in a deal, ante included").format(
            where=where), "stakes")
    if key.startswith("held:"):
        label = key.split(":", 1)[1]
        return (t("“{label}” per deal").format(label=label),
                t("how many players end a deal standing by “{label}” (declarer or helper), per deal").format(
                    label=label), "count")
    return (key, key, "count")


def amount(x: float, unit: str, with_unit: bool = True, t: Callable[[str], str] = _same) -> str:
    """A change, signed, in its unit: shares in percentage points, stakes with two decimals (figures as
    ``t``'s language writes them)."""
    fig = figures(t)
    if unit == "share":
        return fig(100 * x, "+.1f") + (t(" points") if with_unit else "")
    return fig(x, "+.2f") + (t(" base stakes") if with_unit and unit == "stakes" else "")


def _level(x: float, unit: str, t: Callable[[str], str] = _same) -> str:
    fig = figures(t)
    return fig(100 * x, ".1f") + "%" if unit == "share" else fig(x, ".2f")


def ranked(differences: list[dict]) -> list[dict]:
    """The significant differences of the game's measures (not the per-call counts, not each position's result,
    which the first speaker's edge sums up), the largest against the measure's spread per deal first."""
    return sorted((d for d in differences if d["significant"] and not d["key"].startswith(("held:", "position:"))),
                  key=lambda d: -d["effect"])


def describe(d: dict, players: int, t: Callable[[str], str] = _same) -> str:
    """"the first speaker's edge goes from 0.10 to 0.50 base stakes (+0.40; 95% sure between +0.20 and +0.60)"."""
    name, _, unit = words(d["key"], players, t)
    lo, hi = d["ci"]
    tail = t(" base stakes") if unit == "stakes" else ""
    return t("{name} goes from {a} to {b}{tail} ({diff}; 95% sure between {lo} and {hi})").format(
        name=name, a=_level(d['base'], unit, t), b=_level(d['value'], unit, t), tail=tail,
        diff=amount(d['difference'], unit, t=t), lo=amount(lo, unit, False, t), hi=amount(hi, unit, False, t))


def stakes_note(rule: str, stake: int, parent_stake: int, t: Callable[[str], str] = _same) -> str:
    """Which base stake the verdict's amounts count in when the two rules' differ: the rule's, for both (the paired
    rows are scaled by it), so khrap's "0.97 base stakes" against a house rule at 2 chips is 1.9 chips, not 0.97."""
    if stake == parent_stake:
        return ""
    return " " + t("Its base stakes are “{rule}”'s ({chips} chips), under both rules.").format(rule=rule, chips=stake)


def verdict(parent: str, rule: str, differences: list[dict], deals: int, players: int, bots: str,
            decks_differ: bool = False, t: Callable[[str], str] = _same) -> str:
    """One paragraph: what ``rule`` changes against ``parent``, by how much, how sure (``t``: in the report's
    language)."""
    big = ranked(differences)
    calls = [d for d in differences if d["significant"] and d["key"].startswith("held:") and said_in_either(d)]
    unclear = sorted((d for d in differences if not d["significant"] and d["deals_needed"]
                      and not d["key"].startswith("held:")), key=lambda d: d["deals_needed"])
    setup = t("Measured on {deals} deals played by {bots} bots at {players} players, each deal with the same {what} "
              "and the same bot dice under both rules.").format(
        deals=deals, bots=t(bots), players=players, what=t('shuffle seed' if decks_differ else 'cards'))
    if not big and not calls:
        if not unclear:
            return t("“{rule}” played exactly as “{parent}” on every one of the {deals} deals: with these bots the "
                     "rule never changed a deal. {setup}").format(rule=rule, parent=parent, deals=deals, setup=setup)
        closest = unclear[0]
        name, _, unit = words(closest['key'], players, t)
        return t("No measurable difference between “{rule}” and “{parent}” at {deals} deals in any measure. The "
                 "closest to showing one is {name} ({diff}): about {needed:,} deals would tell whether it is real. "
                 "{setup}").format(rule=rule, parent=parent, deals=deals, name=name,
                                   diff=amount(closest['difference'], unit, t=t), needed=closest['deals_needed'],
                                   setup=setup)
    if big:
        text = t("The largest change “{rule}” makes to “{parent}”: {what}.").format(
            rule=rule, parent=parent, what=describe(big[0], players, t))
        if len(big) > 1:
            text += t(" Also, ") + "; ".join(describe(d, players, t) for d in big[1:3]) + "."
        if len(big) > 3:
            more = len(big) - 3
            if t is _same:
                text += f" {more} more measure{'s' if more > 1 else ''} changed (see the table)."
            else:
                text += t(" {more} more measure(s) changed (see the table).").format(more=more)
    else:
        text = t("“{rule}” changes the calls players stand by, but no measure of the game measurably, against "
                 "“{parent}”.").format(rule=rule, parent=parent)
    if calls:
        shown = sorted(calls, key=lambda d: -abs(d["difference"]))[:3]
        text += t(" Calls stood by per deal: ") + ", ".join(
            f"{d.get('label', d['key'].split(':', 1)[1])} {rate(d['base'], d['value'], figures(t))} → "
            f"{rate(d['value'], d['base'], figures(t))}"
            for d in shown) + "."
    if unclear:
        names = ", ".join(words(d["key"], players, t)[0] for d in unclear[:3])
        text += t(" No measurable difference at {deals} deals in {names}{others} (about {needed:,} deals would tell "
                  "for the first).").format(deals=deals, names=names,
                                            others=t(" and others") if len(unclear) > 3 else "",
                                            needed=unclear[0]['deals_needed'])
    return f"{text} {setup}"


def portrait(name: str, summary: dict, bots: str, t: Callable[[str], str] = _same,
             label: Callable[[str], str] = _same) -> str:
    """One paragraph about a single variant (nothing to compare it with): who is favoured, how the calls go
    (``t``: in the report's language; ``label``: a contract's display name)."""
    n, deals = summary["players"], summary["deals"]
    first = summary["positions"][0]
    dealer = summary["positions"][-1]
    parts = [t("“{name}” with {bots} bots at {players} players, {deals} deals:").format(
        name=name, bots=bots, players=n, deals=deals)]
    ci = first.get("ci")
    sure = "" if ci is None else t(" (95% sure between {lo:+.2f} and {hi:+.2f})").format(lo=ci[0], hi=ci[1])
    parts.append(t("the first speaker wins {first:+.2f} base stakes a deal{sure}, the dealer {dealer:+.2f}.").format(
        first=first["mean"], sure=sure, dealer=dealer["mean"]))
    judged = [c for c in summary["contracts"] if c["judged"] and c["success"] is not None]
    if judged:
        top = max(judged, key=lambda c: c["judged"])
        parts.append(t("The call most often stood by is “{call}”: made {made:.0f}% of {times} times, for "
                       "{mean:+.2f} base stakes on average.").format(
            call=label(top["contract"]), made=100 * top["success"], times=top["judged"], mean=top["mean"]))
    rate = summary["rates"]["all_pass"]
    if rate is not None:
        parts.append(t("Everybody passes in {rate:.1f}% of deals.").format(rate=100 * rate))
    return " ".join(parts)


__all__ = ["WORDS", "amount", "describe", "portrait", "ranked", "verdict", "words"]
