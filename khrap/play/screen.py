"""What the terminal shows a seat: its observation as a table, and the choices it has.

Everything here is drawn from ``session.observation(seat)`` (what that seat
may see) and the legal actions of the seat to act; nothing else.
"""

from __future__ import annotations

from khrap import words as w
from khrap.engine.actions import Action
from khrap.engine.kinds import EXCHANGE, PLAY
from khrap.gamelog import SOURCE_LANGUAGE, _, _n, word
from khrap.gamelog.voice import Voice
from khrap.session import Session

MENU_LIMIT = 12  # exchanges are listed one by one only when there are this few
COLUMNS = (6, 7, 8, 11, 12, 5, 8)
"""The least widths of the table's columns (seat, stack, locked, status, call, cards, tricks)."""


def _line(title: str, width: int = 64) -> str:
    return f"── {title} " + "─" * max(3, width - len(title) - 4)


def table_voice(session: Session, lang: str) -> Voice:
    """How the table speaks in ``lang``: English in CONTRACT's words (what an English player types, and what
    ``khrap run`` prints), any other language in its own (10♥, В♠, the variant's call names)."""
    return Voice(lang, session.variant, codes=lang == SOURCE_LANGUAGE)


def render(session: Session, seat: int, lang: str = "en", voice: Voice | None = None) -> str:
    """The table as ``seat`` sees it now, in ``lang`` (the game log's catalogs)."""
    obs = session.observation(seat)
    v = voice or table_voice(session, lang)
    t = v.t

    def cards(codes) -> str:
        return " ".join(v.card_text(c) for c in codes)

    phase = word(lang, obs["phase"])
    if obs["phase"] == w.BIDDING and obs["round"] > 1:
        phase += t(_(" (round {round})"), round=obs["round"])
    title = session.variant.name.get(lang) or session.variant_name if not v.codes else session.variant_name
    lines = [_line(t(_("{variant} · deal {deal} · {phase}"), variant=title,
                     deal=session.deals_started, phase=phase))]
    trump = v.suit("SHDC".index(obs["trump"])) if obs["trump"] else t(_("not named yet"))
    if obs["turned"]:
        trump += t(_(" (turned {cards})"), cards=cards(obs["turned"]))
    lines.append(t(_("dealer seat {dealer} · trump {trump} · pot {pot} · stock {stock}"), dealer=obs["dealer"],
                   trump=trump, pot=obs["pot"], stock=obs["stock_count"]))
    heads = [t(_("seat")), t(_("stack")), t(_("locked")), t(_("status")), t(_("call")), t(_("cards")), t(_("tricks"))]
    # each column at least as wide as its heading in the language (and a space between numbers)
    wd = [max(n, len(h) + (1 if i in (1, 2, 5, 6) else 0)) for i, (n, h) in enumerate(zip(COLUMNS, heads, strict=True))]
    lines.append(f"  {heads[0]:<{wd[0]}}{heads[1]:>{wd[1]}}{heads[2]:>{wd[2]}}  {heads[3]:<{wd[3]}} "
                 f"{heads[4]:<{wd[4]}}{heads[5]:>{wd[5]}}{heads[6]:>{wd[6]}}")
    for s in range(session.players):
        mark = t(_("  ← you")) if s == seat else ""
        turn = ">" if s == obs["to_act"] else " "
        name = t(_("seat {seat}"), seat=s)
        call = v.call(obs["calls"][s]) if obs["calls"][s] else "-"  # (the seat's call by its id: nothing parsed)
        lines.append(
            f"{turn} {name:<{wd[0]}}{obs['stacks'][s]:>{wd[1]}}{obs['locked'][s]:>{wd[2]}}  "
            f"{word(lang, obs['statuses'][s], session.variant):<{wd[3]}} "
            f"{call:<{wd[4]}}{obs['hand_sizes'][s]:>{wd[5]}}{obs['tricks'][s]:>{wd[6]}}{mark}"
        )
    if obs["shown"]:
        lines.append(t(_("shown: {cards}"), cards=cards(obs["shown"])))
    if obs["trick"]:
        plays = ", ".join(t(_("seat {seat} {card}"), seat=s, card=v.card_text(c)) + (t(_(" (joker)")) if j else "")
                          for s, c, j in obs["trick"])
        lines.append(t(_("trick: {plays}"), plays=plays))
    if obs["hand"] is None:
        count = obs["hand_sizes"][seat]
        lines.append(v.n(*_n("your hand (seat {seat}): {count} card face down (you have not looked)",
                             "your hand (seat {seat}): {count} cards face down (you have not looked)"), count,
                         seat=seat))
    else:
        lines.append(t(_("your hand (seat {seat}): {cards}"), seat=seat,
                       cards=cards(obs["hand"]) or t(_("(none)"))))
    return "\n".join(lines)


def choices(session: Session, voice: Voice | None = None) -> tuple[list[Action], str]:
    """Numbered choices for the seat to act (``Action`` objects, in the kernel's order; plays and exchanges
    sorted), and a hint for what may be typed besides (in ``voice``'s language)."""
    pending = session.state.pending
    if pending is None:
        return [], ""
    v = voice or Voice()
    actions = list(session.legal_actions())
    if pending.kind is PLAY:
        return sorted(actions, key=lambda a: (a.cards, a.joker)), ""
    if pending.kind is not EXCHANGE:
        return actions, ""
    sizes = sorted({len(a.cards) for a in actions})
    menu = actions if len(actions) <= MENU_LIMIT else [a for a in actions if not a.cards]
    verb = v.kernel_word(w.EXCHANGE)
    if sizes[0] == sizes[-1]:
        hint = v.t(_("or type: {exchange} CARD ... (throw {count} cards and draw as many)"), exchange=verb,
                   count=sizes[0])
    else:
        hint = v.t(_("or type: {exchange} CARD ... (throw {least} to {most} cards and draw as many)"),
                   exchange=verb, least=sizes[0], most=sizes[-1])
    if 0 in sizes:
        hint += v.t(_("; plain '{exchange}' keeps your hand"), exchange=verb)
    if session.variant.draw_from == "anywhere":
        hint += v.t(_("; add '{where}' to choose where you draw"),
                    where="', '".join(f"{v.kernel_word(w.FROM)} {x}" for x in
                                      (v.kernel_word(w.TOP), v.kernel_word(w.BOTTOM), "N")))
    return menu, hint


def menu_text(menu: list, hint: str, width: int = 72, lang: str = "en", voice: Voice | None = None) -> str:
    """The numbered choices (``Action`` objects or words), the hint and how to answer."""
    v = voice or Voice(lang, codes=lang == SOURCE_LANGUAGE)
    lines: list[str] = []
    row, filled = v.t(_("choose:")), False
    for i, choice in enumerate(menu, 1):
        item = f"{i}) {v.action(choice) if not isinstance(choice, str) else choice}"
        if filled and len(row) + 2 + len(item) > width:
            lines.append(row)
            row = "       "
        row, filled = row + "  " + item, True
    if menu:
        lines.append(row)
    if hint:
        lines.append(hint)
    lines.append(v.t(_("type a number or an action; ? shows the table and the rules of this step; q quits")))
    return "\n".join(lines)
