"""What the terminal shows a seat: its observation as a table, and the choices it has.

Everything here is drawn from ``session.observation(seat)`` (what that seat
may see) and the legal actions of the seat to act; nothing else.
"""

from __future__ import annotations

from khrap import words as w
from khrap.session import Session

MENU_LIMIT = 12  # exchanges are listed one by one only when there are this few


def _line(title: str, width: int = 64) -> str:
    return f"── {title} " + "─" * max(3, width - len(title) - 4)


def render(session: Session, seat: int) -> str:
    """The table as ``seat`` sees it now."""
    obs = session.observation(seat)
    phase = obs["phase"] + (f" (round {obs['round']})" if obs["phase"] == w.BIDDING and obs["round"] > 1 else "")
    lines = [_line(f"{session.variant_name} · deal {session.deals_started} · {phase}")]
    trump = obs["trump"] or "not named yet"
    if obs["turned"]:
        trump += f" (turned {' '.join(obs['turned'])})"
    lines.append(f"dealer seat {obs['dealer']} · trump {trump} · pot {obs['pot']} · stock {obs['stock_count']}")
    lines.append(f"  {'seat':<6}{'stack':>7}{'locked':>8}  {'status':<10} {'call':<12}{'cards':>5}{'tricks':>8}")
    for s in range(session.players):
        mark = "  ← you" if s == seat else ""
        turn = ">" if s == obs["to_act"] else " "
        lines.append(
            f"{turn} {'seat ' + str(s):<6}{obs['stacks'][s]:>7}{obs['locked'][s]:>8}  {obs['statuses'][s]:<10} "
            f"{obs['calls'][s] or '-':<12}{obs['hand_sizes'][s]:>5}{obs['tricks'][s]:>8}{mark}"
        )
    if obs["shown"]:
        lines.append(f"shown: {' '.join(obs['shown'])}")
    if obs["trick"]:
        lines.append("trick: " + ", ".join(f"seat {s} {c}{' (joker)' if j else ''}" for s, c, j in obs["trick"]))
    if obs["hand"] is None:
        lines.append(f"your hand (seat {seat}): {obs['hand_sizes'][seat]} cards face down (you have not looked)")
    else:
        lines.append(f"your hand (seat {seat}): {' '.join(obs['hand']) or '(none)'}")
    return "\n".join(lines)


def choices(session: Session) -> tuple[list[str], str]:
    """Numbered choices for the seat to act, and a hint for what may be typed besides."""
    pending = session.state.pending
    if pending is None:
        return [], ""
    if pending.kind in ("discard", "trump"):
        return [str(a) for a in session.legal_actions()], ""
    if pending.kind == "play":
        return [str(a) for a in sorted(session.legal_actions(), key=lambda a: (a.cards, a.joker))], ""
    if pending.kind != "exchange":
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


def menu_text(menu: list[str], hint: str, width: int = 72) -> str:
    lines: list[str] = []
    row, filled = "choose:", False
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
    lines.append("type a number or an action; ? shows the table again; q quits")
    return "\n".join(lines)
