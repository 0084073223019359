"""What the terminal shows a seat: its observation as a table, and the choices it has.

Everything here is drawn from ``session.observation(seat)`` (what that seat
may see) and the legal actions of the seat to act; nothing else.
"""

from __future__ import annotations

from khrap import words as w
from khrap.engine.kinds import DISCARD, EXCHANGE, PLAY, TRUMP
from khrap.gamelog import _, translate, word
from khrap.session import Session

MENU_LIMIT = 12  # exchanges are listed one by one only when there are this few


def _line(title: str, width: int = 64) -> str:
    return f"── {title} " + "─" * max(3, width - len(title) - 4)


def render(session: Session, seat: int, lang: str = "en") -> str:
    """The table as ``seat`` sees it now, in ``lang`` (the game log's catalogs)."""
    obs = session.observation(seat)

    def t(message: str, **values) -> str:
        return translate(lang, message, **values)

    phase = word(lang, obs["phase"])
    if obs["phase"] == w.BIDDING and obs["round"] > 1:
        phase += t(_(" (round {round})"), round=obs["round"])
    lines = [_line(t(_("{variant} · deal {deal} · {phase}"), variant=session.variant_name,
                     deal=session.deals_started, phase=phase))]
    trump = obs["trump"] or t(_("not named yet"))
    if obs["turned"]:
        trump += t(_(" (turned {cards})"), cards=" ".join(obs["turned"]))
    lines.append(t(_("dealer seat {dealer} · trump {trump} · pot {pot} · stock {stock}"), dealer=obs["dealer"],
                   trump=trump, pot=obs["pot"], stock=obs["stock_count"]))
    heads = [t(_("seat")), t(_("stack")), t(_("locked")), t(_("status")), t(_("call")), t(_("cards")), t(_("tricks"))]
    lines.append(f"  {heads[0]:<6}{heads[1]:>7}{heads[2]:>8}  {heads[3]:<10} {heads[4]:<12}{heads[5]:>5}{heads[6]:>8}")
    for s in range(session.players):
        mark = t(_("  ← you")) if s == seat else ""
        turn = ">" if s == obs["to_act"] else " "
        name = t(_("seat {seat}"), seat=s)
        lines.append(
            f"{turn} {name:<6}{obs['stacks'][s]:>7}{obs['locked'][s]:>8}  {word(lang, obs['statuses'][s]):<10} "
            f"{obs['calls'][s] or '-':<12}{obs['hand_sizes'][s]:>5}{obs['tricks'][s]:>8}{mark}"
        )
    if obs["shown"]:
        lines.append(t(_("shown: {cards}"), cards=" ".join(obs["shown"])))
    if obs["trick"]:
        plays = ", ".join(t(_("seat {seat} {card}"), seat=s, card=c) + (t(_(" (joker)")) if j else "")
                          for s, c, j in obs["trick"])
        lines.append(t(_("trick: {plays}"), plays=plays))
    if obs["hand"] is None:
        lines.append(t(_("your hand (seat {seat}): {count} cards face down (you have not looked)"), seat=seat,
                       count=obs["hand_sizes"][seat]))
    else:
        lines.append(t(_("your hand (seat {seat}): {cards}"), seat=seat,
                       cards=" ".join(obs["hand"]) or t(_("(none)"))))
    return "\n".join(lines)


def choices(session: Session) -> tuple[list[str], str]:
    """Numbered choices for the seat to act, and a hint for what may be typed besides."""
    pending = session.state.pending
    if pending is None:
        return [], ""
    if pending.kind in (DISCARD, TRUMP):
        return [str(a) for a in session.legal_actions()], ""
    if pending.kind is PLAY:
        return [str(a) for a in sorted(session.legal_actions(), key=lambda a: (a.cards, a.joker))], ""
    if pending.kind is not EXCHANGE:
        return session.legal_words(), ""
    actions = session.legal_actions()
    sizes = sorted({len(a.cards) for a in actions})
    menu = [str(a) for a in actions] if len(actions) <= MENU_LIMIT else [str(a) for a in actions if not a.cards]
    count = f"{sizes[0]}" if sizes[0] == sizes[-1] else f"{sizes[0]} to {sizes[-1]}"
    hint = f"or type: exchange CARD ... (throw {count} cards and draw as many)"
    if 0 in sizes:
        hint += "; plain 'exchange' keeps your hand"
    if session.variant.draw_from == "anywhere":
        hint += "; add 'from top', 'from bottom' or 'from N' to choose where you draw"
    return menu, hint


def menu_text(menu: list[str], hint: str, width: int = 72, lang: str = "en") -> str:
    lines: list[str] = []
    row, filled = translate(lang, _("choose:")), False
    for i, text in enumerate(menu, 1):
        item = f"{i}) {text}"
        if filled and len(row) + 2 + len(item) > width:
            lines.append(row)
            row = "       "
        row, filled = row + "  " + item, True
    if menu:
        lines.append(row)
    if hint:
        lines.append(hint)
    lines.append(translate(lang, _("type a number or an action; ? shows the table again; q quits")))
    return "\n".join(lines)
