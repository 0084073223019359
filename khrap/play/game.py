"""The terminal game: people at some seats, bots at the others, deal after deal.

``run`` drives a ``Session``: it deals, asks each human seat at its turn
(showing only what that seat may see), lets bots act and narrates what
happens as that seat sees it, prints a settlement summary after each deal,
and saves the record after every action when asked to.  Input and output are
the ``read``/``write`` functions given (``input``/``print`` at a terminal).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from khrap.bots import Bot, choose_for, decision_rng, make_bot
from khrap.engine import IllegalAction
from khrap.engine.events import EVERYTHING, Credited, InstantWin, Settling
from khrap.engine.kinds import PLAY
from khrap.gamelog import _, _n, counted, number, tell, translate
from khrap.play import refusals
from khrap.play.reader import Reader, Unreadable, normal
from khrap.play.screen import choices, menu_text, render, table_voice
from khrap.session import Session, save_record

QUIT_WORDS = ("q", "quit", "exit")
RULES_WORDS = ("?", "rules")
"""Typed at the table: the sheet's rules of the step now (besides the word in the player's language)."""


@dataclass
class Table:
    """Who sits where and how long the session runs; saved in the record's ``table``."""

    humans: list[int] = field(default_factory=lambda: [0])
    bots: str = "normal"  # khrap.bots.DEFAULT
    deals: int | None = None  # stop once the session has completed this many deals
    save: Path | None = None
    lang: str = "en"  # the language of the log and the screen (not saved: a resumed session may choose again)

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
        self.voice = table_voice(session, table.lang)
        self.reader = Reader(self.voice, session.variant)
        self.quit_words = {*QUIT_WORDS, normal(self.voice.t(_("quit")))}
        self.rules_words = {*RULES_WORDS, normal(self.voice.t(_("rules")))}
        self.shown = len(session.state.log)
        self.play_start = None  # the deal as its card play began (for what could have been made)
        self.play_start_log = 0
        if recap and not session.deal_over:  # a resumed deal: tell it again as far as it went
            self.shown = session.deal_log_at
            write(translate(table.lang, _("Deal {deal} so far:"), deal=session.deals_started))
            self.narrate()

    # ---------------------------------------------------------- output
    def _visible(self, event) -> str:
        # Everyone a bot: the watcher sees every card; several people at one keyboard: what the table sees.
        viewer = EVERYTHING if not self.table.humans else self.viewer
        return tell([event], self.table.lang, viewer, voice=self.voice)[0]

    def t(self, message: str, **values) -> str:
        return translate(self.table.lang, message, **values)

    def narrate(self) -> None:
        events = self.session.state.log[self.shown :]
        self.shown += len(events)
        if not events:
            return
        cut = _settlement_start(self.session, events) if self.session.deal_over else len(events)
        for event in events[:cut]:
            self.write(f"  {self._visible(event)}")
        if cut < len(events):
            self.summary([self._visible(e) for e in events[cut:]] + self.hindsight())

    def watch_play_start(self) -> None:
        """Keep a copy of the deal when its first card is to be played."""
        state = self.session.state
        if self.play_start is None and state.pending is not None and state.pending.kind is PLAY and \
                not state.won and not state.trick:
            self.play_start, self.play_start_log = state.clone(), len(state.log)

    def hindsight(self) -> list[str]:
        """Failed obligations that every card open shows could have been met (from the events)."""
        start, self.play_start = self.play_start, None
        if start is None:
            return []
        from khrap.bots.hindsight import missed_lines

        return missed_lines(start, self.session.state.log[self.play_start_log:], self.table.lang, self.voice)

    def summary(self, lines: list[str]) -> None:
        s = self.session
        self.write(self.t(_("── deal {deal} settled "), deal=s.deals_started) + "─" * 44)
        for line in lines:
            self.write(f"  {line}")
        heads = [self.t(_("seat")), self.t(_("before")), self.t(_("after")), self.t(_("change"))]
        self.write(f"  {heads[0]:<8}{heads[1]:>8}{heads[2]:>8}{heads[3]:>8}")
        for seat, (before, after) in enumerate(zip(s.deal_stacks, s.stacks, strict=True)):
            you = self.t(_("  ← you")) if seat in self.table.humans else ""
            self.write(f"  {self.t(_('seat {seat}'), seat=seat):<8}{_chips(before):>8}{_chips(after):>8}"
                       f"{_chips(after - before, sign=True):>8}{you}")
        self.write("  " + self.t(_("pot {pot}"), pot=s.pot))

    def save(self) -> None:
        if self.table.save is not None:
            self.session.table = self.table.to_data()
            save_record(self.session.to_record(), self.table.save)

    # ---------------------------------------------------------- turns
    def ask(self, seat: int) -> None:
        """Ask ``seat`` until it gives a legal action; Quit if it asks to stop."""
        s = self.session
        menu, hint = choices(s, self.voice)
        lang = self.table.lang
        self.write(render(s, seat, lang, self.voice))
        self.write(menu_text(menu, hint, voice=self.voice))
        while True:
            try:
                text = self.read(self.t(_("seat {seat}> "), seat=seat)).strip()
            except (EOFError, KeyboardInterrupt):
                self.write("")
                raise Quit from None
            if not text:
                continue
            if normal(text) in self.quit_words:
                raise Quit
            if normal(text) in self.rules_words or text == "?":
                self.write(render(s, seat, lang, self.voice))
                self.write(self.step_rules())
                self.write(menu_text(menu, hint, voice=self.voice))
                continue
            if text.isascii() and text.isdigit():  # "²" or "٣" is not a choice number (int() would refuse it)
                if len(text) > 6 or not 1 <= int(text) <= len(menu):
                    if len(menu) == 1:  # ("choose 1 to 1")
                        self.write(self.t(_("there is no choice {number}; the only one is 1, or type an action"),
                                          number=text))
                    else:
                        self.write(self.t(_("there is no choice {number}; choose 1 to {last} or type an action"),
                                          number=text, last=len(menu)))
                    continue
                action = menu[int(text) - 1]
            else:
                try:
                    action = self.reader.read(text, self.pending_word())
                except Unreadable as err:
                    self.write(self.refused(str(err), translated=True))
                    continue
            try:
                s.apply(action, seat)
                return
            except IllegalAction as err:
                self.write(self.refused(err.reason))

    def pending_word(self) -> str | None:
        """The word the decision waited for begins with (``play``, ``discard``...: the registry's), if any."""
        from khrap.engine.decisions import DECISIONS

        pending = self.session.state.pending
        return DECISIONS[pending.kind].word if pending is not None else None

    def refused(self, reason: str, translated: bool = False) -> str:
        """A refusal in the player's language, with the legal choices."""
        said = reason if translated else refusals.say(self.voice, reason)
        legal = self.session.legal_words() if self.voice.codes else \
            list(dict.fromkeys(self.voice.action(a) if a.word not in ("exchange",) else self.voice.kernel_word(a.word)
                               for a in self.session.legal_actions()))
        if said.rstrip().endswith(("?", ".", "!")):  # a question ends its sentence ("did you mean 'khrap'?; legal")
            return self.t(_("{reason} Legal: {legal}"), reason=said.rstrip(), legal=", ".join(legal))
        return self.t(_("{reason}; legal: {legal}"), reason=said, legal=", ".join(legal))

    def step_rules(self) -> str:
        """The rule sheet's words for the step the deal is at (``rules`` or ``?`` at the table)."""
        from khrap.rulebook.i18n import languages
        from khrap.rulebook.sheet import render_step

        lang = self.table.lang if self.table.lang in languages() else "en"
        state = self.session.state
        stage = None if state.pending is None else state.program.stages[state.stage_index].id
        return render_step(self.session.variant, lang, stage)

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
            if s.deal_over and s.state.session_over:  # no debt: nobody can cover a call, or a stack is too small
                self.write(self.t(_("Nobody can cover a declaring call any more, or a player cannot be dealt in: "
                                    "the session ends here.")))
                return
            if s.deal_over:
                self.write("")
                s.start_deal()
                self.write(self.t(_("Deal {deal}: seat {dealer} deals."), deal=s.deals_started, dealer=s.state.dealer))
            else:
                seat = s.to_act
                if seat in self.bots:
                    self.bot_turn(seat)
                else:
                    self.ask(seat)
            self.save()
            self.watch_play_start()
            self.narrate()


SETTLEMENT_BEGINS = (Settling, InstantWin, Credited)
"""Event classes after which a deal's lines are its settlement."""


def _settlement_start(session: Session, events: list) -> int:
    """Where the settlement lines begin among the events that ended a deal."""
    for i, event in enumerate(events):
        if isinstance(event, SETTLEMENT_BEGINS):
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
        write(translate(table.lang, _("You stopped the session.")))
        _goodbye(session, table, write)
        return False
    write("")
    count = session.deals_completed
    deals = counted(table.lang, _n("{count} deal", "{count} deals"), count)
    write(translate(table.lang, _("The session is over after {deals}: {stacks}; pot {pot}."), deals=deals,
                    stacks=_stacks(session.stacks, table.lang), pot=session.pot))
    write(_winners(session.stacks, table.lang, table.humans))
    _goodbye(session, table, write)
    return True


def _stacks(stacks: list[int], lang: str) -> str:
    """Each seat's chips in words, "seat 0: 94, seat 1: 112" (it printed the list, "[94, 112]")."""
    return ", ".join(translate(lang, _("seat {seat}: {chips}"), seat=seat, chips=_chips(chips))
                     for seat, chips in enumerate(stacks))


def _chips(chips: int, sign: bool = False) -> str:
    """Chips as people read them (``gamelog.number``: "−8", not "-8"); ``sign``: a change, "+8" too, and no
    change "0", as the web's settlement writes it and the log writes every payment (unsigned), not "+0"."""
    return ("+" if sign and chips > 0 else "") + number(chips)


def _winners(stacks: list[int], lang: str, humans: Collection[int] = ()) -> str:
    """Who won the evening, with how many chips (the session's end said only the stacks); a seat of a person at
    this keyboard marked "(you)", as the settlement's rows are ("← you")."""
    best = max(stacks)
    seats = [translate(lang, _("{seat} (you)"), seat=seat) if seat in humans else str(seat)
             for seat, chips in enumerate(stacks) if chips == best]
    if len(seats) == 1:
        return counted(lang, _n("Seat {seat} wins with {count} chip.", "Seat {seat} wins with {count} chips."), best,
                       seat=seats[0])
    return counted(lang, _n("Seats {seats} share the win with {count} chip each.",
                            "Seats {seats} share the win with {count} chips each."), best,
                   seats=", ".join(seats))


def _goodbye(session: Session, table: Table, write: Callable[[str], None]) -> None:
    if table.save is None:
        write(translate(table.lang, _("It was not saved (use --save FILE to keep a session).")))
        return
    write(translate(table.lang, _("Saved to {file}: continue with `khrap play --resume {file}`, read it with "
                                  "`khrap replay {file}`."), file=table.save))
