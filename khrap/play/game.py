"""The terminal game: people at some seats, bots at the others, deal after deal.

``run`` drives a ``Session``: it deals, asks each human seat at its turn
(showing only what that seat may see), lets bots act and narrates what
happens as that seat sees it, prints a settlement summary after each deal,
and saves the record after every action when asked to.  Input and output are
the ``read``/``write`` functions given (``input``/``print`` at a terminal).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from khrap.bots import Bot, choose_for, decision_rng, make_bot
from khrap.engine import IllegalAction
from khrap.play.screen import choices, menu_text, render
from khrap.session import Session, save_record

QUIT_WORDS = ("q", "quit", "exit")


@dataclass
class Table:
    """Who sits where and how long the session runs; saved in the record's ``table``."""

    humans: list[int] = field(default_factory=lambda: [0])
    bots: str = "rule"
    deals: int | None = None  # stop once the session has completed this many deals
    save: Path | None = None

    def to_data(self) -> dict:
        return {"humans": list(self.humans), "bots": self.bots, "deals": self.deals}


class Quit(Exception):
    """The player asked to stop (q, quit, end of input or Ctrl-C)."""


class Game:
    def __init__(self, session: Session, table: Table, read: Callable[[str], str], write: Callable[[str], None],
                 recap: bool = False) -> None:
        self.session, self.table, self.read, self.write = session, table, read, write
        self.bots: dict[int, Bot] = {
            seat: make_bot(table.bots, session.rules) for seat in range(session.players) if seat not in table.humans
        }
        self.viewer = table.humans[0] if len(table.humans) == 1 else None
        self.shown = len(session.state.log)
        if recap and not session.deal_over:  # a resumed deal: tell it again as far as it went
            self.shown = session.deal_log_at
            write(f"Deal {session.deals_started} so far:")
            self.narrate()

    # ---------------------------------------------------------- output
    def _visible(self, event) -> str:
        if not self.table.humans:
            return event.text  # everyone is a bot: the watcher sees every card
        return event.text if event.seat is not None and event.seat == self.viewer else event.public

    def narrate(self) -> None:
        events = self.session.state.log[self.shown :]
        self.shown += len(events)
        if not events:
            return
        cut = _settlement_start(self.session, events) if self.session.deal_over else len(events)
        for event in events[:cut]:
            self.write(f"  {self._visible(event)}")
        if cut < len(events):
            self.summary([self._visible(e) for e in events[cut:]])

    def summary(self, lines: list[str]) -> None:
        s = self.session
        self.write(f"── deal {s.deals_started} settled " + "─" * 44)
        for line in lines:
            self.write(f"  {line}")
        self.write(f"  {'seat':<8}{'before':>8}{'after':>8}{'change':>8}")
        for seat, (before, after) in enumerate(zip(s.deal_stacks, s.stacks, strict=True)):
            you = "  ← you" if seat in self.table.humans else ""
            self.write(f"  {'seat ' + str(seat):<8}{before:>8}{after:>8}{after - before:>+8}{you}")
        self.write(f"  pot {s.pot}")

    def save(self) -> None:
        if self.table.save is not None:
            self.session.table = self.table.to_data()
            save_record(self.session.to_record(), self.table.save)

    # ---------------------------------------------------------- turns
    def ask(self, seat: int) -> None:
        """Ask ``seat`` until it gives a legal action; Quit if it asks to stop."""
        s = self.session
        menu, hint = choices(s)
        self.write(render(s, seat))
        self.write(menu_text(menu, hint))
        while True:
            try:
                text = self.read(f"seat {seat}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.write("")
                raise Quit from None
            if not text:
                continue
            if text.lower() in QUIT_WORDS:
                raise Quit
            if text == "?":
                self.write(render(s, seat))
                self.write(menu_text(menu, hint))
                continue
            if text.isascii() and text.isdigit():  # "²" or "٣" is not a choice number (int() would refuse it)
                if len(text) > 6 or not 1 <= int(text) <= len(menu):
                    self.write(f"there is no choice {text}; choose 1 to {len(menu)} or type an action")
                    continue
                text = menu[int(text) - 1]
            try:
                s.apply(text, seat)
                return
            except IllegalAction as err:
                self.write(f"{err}; legal: {', '.join(s.legal_words())}")

    def bot_turn(self, seat: int) -> None:
        s = self.session
        rng = decision_rng(s.seed, len(s.actions))
        s.apply(choose_for(self.bots[seat], s, rng), seat)  # a search bot also gets its seat's view

    def finished(self) -> bool:
        return self.table.deals is not None and self.session.deals_completed >= self.table.deals

    def run(self) -> None:
        """Play until the deal limit or until a player quits."""
        s = self.session
        while not (s.deal_over and self.finished()):
            if s.deal_over and s.state.session_over:  # no debt, and nobody can cover a declaring call
                self.write("Nobody can cover a declaring call any more: the session ends here.")
                return
            if s.deal_over:
                self.write("")
                s.start_deal()
                self.write(f"Deal {s.deals_started}: seat {s.state.dealer} deals.")
            else:
                seat = s.to_act
                if seat in self.bots:
                    self.bot_turn(seat)
                else:
                    self.ask(seat)
            self.save()
            self.narrate()


def _settlement_start(session: Session, events: list) -> int:
    """Where the settlement lines begin among the events that ended a deal."""
    wins = {f"seat {seat}: {win}" for seat in range(session.players) for win in session.variant.instant_wins}
    for i, event in enumerate(events):
        if event.text.startswith("settlement:") or event.text in wins or "credited every trick" in event.text:
            return i
    return len(events) - 1


def run(session: Session, table: Table, read: Callable[[str], str] = input,
        write: Callable[[str], None] = print, recap: bool = False) -> bool:
    """Play ``session`` at ``table``; True if it ran to its deal limit, False if a player quit.

    ``recap``: first retell the deal in progress (for a resumed session)."""
    game = Game(session, table, read, write, recap)
    game.save()
    try:
        game.run()
    except (Quit, KeyboardInterrupt):
        write("You stopped the session.")
        _goodbye(session, table, write)
        return False
    write("")
    deals = f"{session.deals_completed} deal{'' if session.deals_completed == 1 else 's'}"
    write(f"The session is over after {deals}: stacks {session.stacks}, pot {session.pot}.")
    _goodbye(session, table, write)
    return True


def _goodbye(session: Session, table: Table, write: Callable[[str], None]) -> None:
    if table.save is None:
        write("It was not saved (use --save FILE to keep a session).")
        return
    write(f"Saved to {table.save}: continue with `khrap play --resume {table.save}`, "
          f"read it with `khrap replay {table.save}`.")
