"""One table at ``khrap serve``: its session, seats, bots, fair deals, and what each seat may see.

Nothing here knows about sockets: :mod:`khrap.web.host` feeds actions in and sends views out.  The
table is rebuilt from its setup and action list (:meth:`Table.restore`), which is how a restarted
server resumes it exactly.  :meth:`Table.parts` (whose view :meth:`Table.view` is) is the ONE place
where what a connection may see is computed: its own seat's observation (or the public one), never another
hand, the stock or an unrevealed seed.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from khrap.bots import KINDS, choose_for, decision_rng, make_bot, strength_word
from khrap.cards import CARD_WORDS, cards_str, suit_str
from khrap.catalogs import SOURCE_LANGUAGE
from khrap.engine import IllegalAction
from khrap.engine import events as ev
from khrap.engine.actions import Action, format_action
from khrap.engine.decisions import display_names
from khrap.engine.legal import draws_anywhere, names_source
from khrap.engine.observation import seen
from khrap.engine.refusal import Refusal
from khrap.engine.rules import shared_rules
from khrap.engine.view import events_since, own_since, seat_hand, spectator_observation
from khrap.fairness import commitment, deck_from_seed, new_seed
from khrap.gamelog import tell
from khrap.gamelog.voice import Voice
from khrap.rulebook.i18n import localized
from khrap.session import Session
from khrap.session.record import from_record, validated_rules
from khrap.terms import own_words, variant_terms
from khrap.variant.schema import Variant
from khrap.web.delta import Common, OwnParts, Parts

TOKEN_BYTES = 24
"""Invite tokens: 192 random bits (the issue asks for at least 128)."""
FIRST_DECKS = 8
"""Decks made from a deal's seed when a table is rebuilt (the deal and its first redeals); more if needed."""
DEAL_DECKS = 3
"""Decks made from a deal's seed when it begins (the deal and two redeals: ``_ensure_decks`` makes more after
any action that leaves fewer than two unused; each deck is some 110 k instructions, ``deck_from_seed``, and most
deals use one)."""
MAX_DEALS = 500
MAX_STACK = 1_000_000
MAX_CLOCK = 3600
"""The longest turn clock a host may set, in seconds (0: no clock)."""

MAX_RESEATS = 100
"""Times the seats of one table may change hands (a host who clicks "New link" without end stores no more)."""
RESEAT = ("bot", "link", "left")
"""How a seat changes hands: the host gives it to a bot or to a new link, or its player leaves (a bot plays it)."""

OBSERVED = ("seat", "phase", "to_act", "dealer", "round", "trump", "turned", "shown", "hand_sizes", "stock_count",
            "discard_count", "stacks", "pot", "locked", "statuses", "calls", "trick", "tricks", "hand")
"""The view's keys the page shows: the table's, then the seat's hand (None for a spectator)."""
SHARED = OBSERVED[1:-1]
"""Of those, the ones that are the same for every seat and the spectators (all but the seat and its hand:
``tests/web/test_view_cache.py`` checks it over deals of every built-in variant)."""


def fingerprint(rules: dict) -> str:
    """A short hash of the resolved rules: SHA-256 of their canonical JSON, 16 hex digits in groups of 4."""
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return " ".join(digest[i:i + 4] for i in range(0, 16, 4))


_RULES: dict[str, dict] = {}
_RULES_LIMIT = 64


def _shared(rules: dict) -> dict:
    """One dict for each rules content, shared by every table that plays them (a table never changes
    its rules): a server of many tables of a few rule sets keeps one copy of each, not one a table."""
    key = json.dumps(rules, sort_keys=True, separators=(",", ":"))
    found = _RULES.get(key)
    if found is None:
        if len(_RULES) >= _RULES_LIMIT:
            _RULES.pop(next(iter(_RULES)))
        found = _RULES[key] = rules
    return found


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class Deal:
    """A deal's fairness: its seed (secret until the deal is settled), the commitment shown before it,
    and how many decks it dealt (None while it is not settled)."""

    number: int
    seed: str
    commitment: str
    started: bool = False
    decks: int | None = None

    def public(self) -> dict:
        revealed = self.decks is not None
        return {"deal": self.number, "commitment": self.commitment, "seed": self.seed if revealed else None,
                "decks": self.decks}


@dataclass
class SeatState:
    """A seat in the room: who plays it, its invite token, and (in memory only) whether he is here."""

    human: bool
    bot: str | None  # the bot kind of a bot seat
    token: str
    connections: int = 0
    gone_since: float | None = None  # when its last connection closed (None: here, or never came)
    ready: bool = False  # pressed "next deal"
    name: str = ""  # what its player calls himself (his browser keeps it and says it again on each visit)
    why: str | None = None  # its last change of hands (one of ``RESEAT``), None if it never changed


@dataclass
class Table:
    """A table: setup (variant, players, stacks, bots, deal limit), seats, deals and actions."""

    id: str
    setup: dict[str, Any]
    seats: list[SeatState]
    spectator_token: str
    deals: list[Deal] = field(default_factory=list)
    actions: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, text, "human"|"bot")
    session: Session = field(init=False)  # made from the setup and actions by ``_rebuild``, which every maker calls
    seed_source: Callable[[], str] = new_seed
    host_token: str | None = None  # the host's link: he may hand seats over (None: a table made before hosts)
    reseats: int = 0  # how many times a seat changed hands (each leaves a revoked link stored: ``MAX_RESEATS``)
    stored_deals: tuple | None = None  # the last deals' state as the store last wrote them (None: not known)
    _decks_made: int = 0
    _dealt_kept: tuple = (None, 0, 0)  # (the deals list, its length, the decks of all its deals but the last)
    _started_kept: tuple = (None, 0, 0)  # (the deals list, its length, how many of all but the last began)
    _bots: dict[str, Any] = field(default_factory=dict)
    _canonical: list[int] = field(default_factory=list)  # the table's deck in canonical order
    _canonical_words: list[str] = field(default_factory=list)
    _revealed: dict[int, dict] = field(default_factory=dict)  # settled deals' decks, as sent
    # The session's ``settled`` events as (log index, stacks, pot), read once each: a view is made on every
    # action for every seat, and the session's log grows for the whole evening.
    _settled: list[tuple[int, list[int], int]] = field(default_factory=list)
    _settled_read: tuple[Session | None, int] = (None, 0)  # (the session read, how far: a place in the evening)
    _overs: list[int] = field(default_factory=list)  # the log indices of its ``session_over`` events, read with them
    _standings_made: list[list[int]] | None = None
    # Each viewer's log lines and page events of the deal in progress, per language, and the deal's closed
    # tricks and chip moves: an event is worded once per viewer and language, not on every update.
    _deal_logs: dict[str, DealLog] = field(default_factory=dict)  # lang: the table's (a spectator's)
    _seat_logs: dict[tuple[int, str], SeatLog] = field(default_factory=dict)  # (seat, lang): each seat's
    _voices: dict[str, Voice] = field(default_factory=dict)
    _worded: dict[str, dict] = field(default_factory=dict)  # the title and calls in each language
    _public_made: tuple[Session, tuple, dict] | None = None  # (the session and its state when made, the part)
    _observed_made: tuple[dict, dict] | None = None  # (the ``public`` it was made with, ``_shared_observed``)
    _public_deals: tuple = ()  # the last deals as ``_public``'s ``fair`` and ``dealt`` were made from them
    # (the session, the deal's start, how far it was read: places in the evening (``Session.log_base``), the moves)
    _moves_read: tuple[Session, int, int, dict] | None = None
    # lang: (public, key, part, and the presence lists it was last given: ``_table_part``)
    _table_parts: dict[str, tuple[dict, tuple, dict, Any, Any]] = field(default_factory=dict)
    # Each (seat, language, offered)'s own parts, with the ``public`` they were made with: kept until that changes;
    # and how many events of the deal it held as its own then (-1: its log is the table's).
    _bodies: dict[tuple[int | None, str, bool], tuple[dict, OwnParts, int]] = field(default_factory=dict)
    # lang: (the ``public`` and table part it was made with, what every viewer in that language holds alike)
    _commons: dict[str, tuple[dict, dict, Common]] = field(default_factory=dict)
    _hands: dict[int | None, tuple[list[int] | None, list[str] | None]] = field(default_factory=dict)  # (ints, words)

    # ------------------------------------------------------------ building
    @classmethod
    def create(cls, variant: Variant, *, name: str, source: str | None, players: int, stacks: int,
               base_stake: int, bots: dict[int, str], deals: int, takeover_bot: str = "normal",
               seed_source: Callable[[], str] = new_seed, session_seed: int | None = None,
               clock: int = 0, dealer: int = 0) -> Table:
        """A new table; ValueError says what is wrong with the setup.  ``clock``: seconds a person has
        for each decision before his seat's bot makes that one for him (0: he has all the time)."""
        if not variant.players.min <= players <= variant.players.max:
            raise ValueError(f"this variant is played by {variant.players.min} to {variant.players.max} players")
        if not 1 <= stacks <= MAX_STACK:
            raise ValueError(f"stacks must be from 1 to {MAX_STACK} chips")
        if not 1 <= deals <= MAX_DEALS:
            raise ValueError(f"deals must be from 1 to {MAX_DEALS}")
        for seat, kind in bots.items():
            if not 0 <= seat < players or kind not in KINDS:
                raise ValueError(f"a bot seat must be from 0 to {players - 1}, its kind one of {', '.join(KINDS)}")
        if len(bots) == players:
            raise ValueError("at least one seat must be a person's")
        if not 0 <= dealer < players:
            raise ValueError(f"the first dealer is a seat from 0 to {players - 1}")
        if not 0 <= clock <= MAX_CLOCK:
            raise ValueError(f"the turn clock is from 0 (off) to {MAX_CLOCK} seconds")
        if takeover_bot not in KINDS:
            raise ValueError(f"the takeover bot must be one of {', '.join(KINDS)}")
        # an old name (rule, heuristic, search) is the same bot as its strength: the table holds the strength's
        # word, so every place that shows a bot (seats, the host's row, the record) says easy/normal/strong
        bots = {seat: strength_word(kind) for seat, kind in bots.items()}
        takeover_bot = strength_word(takeover_bot)
        data = variant.model_dump(mode="json")
        data["base_stake"] = base_stake
        checked = Variant.model_validate(data)  # the schema's bound on base_stake applies
        rules = _shared(checked.model_dump(mode="json"))
        setup = {
            "name": name, "source": source, "rules": rules, "players": players, "stacks": stacks,
            "base_stake": base_stake, "bots": {str(s): k for s, k in sorted(bots.items())}, "deals": deals,
            "takeover_bot": takeover_bot, "clock": clock, "dealer": dealer,
            "session_seed": secrets.randbelow(2**31) if session_seed is None else session_seed,
            "fingerprint": fingerprint(rules),
        }
        seats = [SeatState(human=s not in bots, bot=bots.get(s), token=new_token()) for s in range(players)]
        table = cls(id=secrets.token_urlsafe(9), setup=setup, seats=seats, spectator_token=new_token(),
                    seed_source=seed_source, host_token=new_token())
        table.deals.append(table._next_deal(1))
        table._rebuild()
        if table.session.state.session_over:
            # The kernel's own test at the session's start (``min_stack``, or an ante a table without debts cannot
            # take): the table would be made, and its first "Start the game" refused for good.
            need = (checked.min_stack or 0) * base_stake
            if need > stacks:
                raise ValueError(f"these rules deal in only a player with at least {need} chips ({checked.min_stack} "
                                 f"base stakes): give each player {need} chips or more")
            raise ValueError(f"with {stacks} chips each nobody can be dealt in under these rules (without debts "
                             "a player must be able to pay the ante): give each player more chips")
        return table

    def again(self, seed_source: Callable[[], str] | None = None, by: int | None = None) -> Table:
        """A new table with this one's rules, seats, stacks and deals ("play again"): new links, new seeds;
        ``by``: the seat that asked for it (its page names who started the new evening)."""
        s = self.setup
        bots = {i: st.bot for i, st in enumerate(self.seats) if not st.human and st.bot}  # as the seats are now
        table = Table.create(
            Variant.model_validate(s["rules"]), name=s["name"], source=s["source"], players=s["players"],
            stacks=s["stacks"], base_stake=s["base_stake"], bots=bots,
            deals=s["deals"], takeover_bot=s["takeover_bot"], clock=s.get("clock", 0),
            seed_source=seed_source or self.seed_source, dealer=secrets.randbelow(s["players"]))
        table.setup["after"] = self.id
        if by is not None:
            table.setup["again_by"] = by
        for old, new in zip(self.seats, table.seats, strict=True):
            new.name = old.name
        return table

    def reseat(self, seat: int, why: str) -> str:
        """Seat ``seat`` changes hands (``why`` one of ``RESEAT``): to the takeover bot ("bot", "left") or to
        a person with a new link ("link").  Its link is replaced either way (the old one is returned: it no
        longer plays the seat); ValueError for a seat or a change that does not exist."""
        if why not in RESEAT or not 0 <= seat < self.players:
            raise ValueError(f"a seat from 0 to {self.players - 1} goes to one of {', '.join(RESEAT)}")
        if self.reseats >= MAX_RESEATS:
            raise ValueError(f"the seats of a table change hands at most {MAX_RESEATS} times")
        self.reseats += 1
        st = self.seats[seat]
        old = st.token
        st.token, st.why, st.ready, st.connections, st.gone_since = new_token(), why, False, 0, None
        if why == "link":
            # the name stays until the new link's player says one: the host's row (every page's) still says
            # whose seat he handed over (it said "Seat 3"); somebody else says his own on opening it
            st.human, st.bot = True, None
        else:
            st.human, st.bot = False, st.bot or strength_word(self.setup["takeover_bot"])  # (a stored old name)
        return old

    def _next_deal(self, number: int) -> Deal:
        seed = self.seed_source()
        return Deal(number, seed, commitment(seed))

    def _record(self, decks: list[list[str]]) -> dict:
        s = self.setup
        return {
            "format": "khrap-record", "version": 1, "variant": s["name"], "rules": s["rules"],
            "players": s["players"], "dealer": s.get("dealer", 0), "stacks": s["stacks"], "pot": 0,
            "seed": s["session_seed"],
            "decks": [" ".join(d) for d in decks],
            "deals_started": sum(d.started for d in self.deals),
            "actions": [[seat, text] for seat, text, _ in self.actions],
        }

    def _decks(self, extra: int) -> list[list[int]]:
        """Every deck the session deals, in order: each settled deal's from its seed, then ``extra``
        made from the seed of the deal in progress (or the next one)."""
        out: list[list[int]] = []
        for deal in self.deals:
            count = deal.decks if deal.decks is not None else extra
            out += [deck_from_seed(self._canonical, deal.seed, i) for i in range(count)]
        return out

    def _rebuild(self, extra: int = FIRST_DECKS) -> None:
        """(Re)make the session from the setup and the actions: the decks of the current deal are made
        from its seed up front (the session's fixed decks), so a rebuild plays the same game."""
        if not self._canonical:  # (the shared rules the session is made with: no session made for the deck)
            rules = shared_rules(validated_rules(self.setup["rules"]), self.setup["players"])
            self._canonical = rules.complete_deck([])
            self._canonical_words = cards_str(self._canonical)
        while True:
            self._decks_made = extra
            self.session = from_record(self._record([cards_str(d) for d in self._decks(extra)]), check=False)
            # A deal in progress redealt more often than the decks made: the replay ran out of the seed's decks
            # and the kernel shuffled its own (another deal than the one played): again with more.
            if len(self.session.state.decks_dealt) - self.dealt_before() <= extra:
                break
            extra *= 2
        # The table reads an ended deal's settlement before the next deal begins (``start_deal``), and nothing else
        # of it: the session releases each ended deal's events as the next one begins (flat memory over an evening).
        self.session.release_ended()
        self._bots = {}

    def _queue_decks(self, start: int, stop: int) -> bool:
        """Give the kernel the decks ``start..stop`` of the current deal's seed as its next shuffles,
        without replaying the session; False where the kernel keeps no such queue (then rebuild)."""
        queue = getattr(self.session.state, "scripted_decks", None)
        if not isinstance(queue, list):
            return False
        if start == 0:
            queue.clear()  # the previous deal's unused decks
        queue += [deck_from_seed(self._canonical, self.current.seed, i) for i in range(start, stop)]
        self._decks_made = stop
        return True

    @classmethod
    def restore(cls, id: str, setup: dict, seats: list[SeatState], spectator_token: str, deals: list[Deal],
                actions: list[tuple[int, str, str]], seed_source: Callable[[], str] = new_seed) -> Table:
        """The table as it stood, from what the store holds: the setup, the deals' seeds, the actions."""
        setup = {**setup, "rules": _shared(setup["rules"])}
        table = cls(id=id, setup=setup, seats=seats, spectator_token=spectator_token, deals=deals,
                    actions=actions, seed_source=seed_source)
        table._rebuild()
        table._ensure_decks()
        return table

    # ------------------------------------------------------------ reading
    @property
    def players(self) -> int:
        return self.setup["players"]

    @property
    def current(self) -> Deal:
        return self.deals[-1]

    @property
    def finished(self) -> bool:
        """No deal in progress and none to come: the deal limit is reached or the session is over."""
        if not self.session.deal_over or (self.current.started and self.current.decks is None):
            return False
        return self.finished_after_settle()

    def _session_over(self) -> bool:
        """Whether the deal in progress (or the last one) ended the session: a ``session_over`` event logged
        since it began (found with the settlements, reading only the events logged since the last call)."""
        self._settlements()
        return bool(self._overs) and self._overs[-1] >= self._deal_start()

    def _deal_log_at(self) -> int:
        """Where the deal in progress (or the last one) begins in the session's ``state.log``."""
        return self.session.deal_log_at

    def _deal_start(self) -> int:
        """The same as a place in the evening (``Session.log_base``: the ended deals' events are released)."""
        return self.session.log_base + self.session.deal_log_at

    @property
    def step(self) -> str:
        """Where the table stands, ``DEALS_STARTED:ACTIONS``: changes with every action and deal (an
        ``act`` names the step of the state it answers; any other is stale)."""
        return f"{self.session.deals_started}:{len(self.actions)}"

    @property
    def in_deal(self) -> bool:
        return not self.session.deal_over

    def bot_kind(self, seat: int, takeover: bool) -> str | None:
        """Which bot plays ``seat`` now: its own kind, the takeover kind for an absent player, or None."""
        st = self.seats[seat]
        if not st.human:
            return st.bot
        return self.setup["takeover_bot"] if takeover else None

    def _deals_started(self) -> int:
        """The deals begun: those before the last are (a deal is added once the last one is settled), so their
        count is kept until another deal is added (or the list replaced by a rebuild), the last one's added."""
        deals = self.deals
        kept = self._started_kept
        if kept[0] is not deals or kept[1] != len(deals):
            kept = self._started_kept = (deals, len(deals), sum(d.started for d in deals[:-1]))
        return kept[2] + (1 if deals and deals[-1].started else 0)

    def dealt_before(self) -> int:
        """Decks the settled deals dealt: the deals before the last are settled, so their sum is kept until
        another deal is added (or the list replaced by a rebuild); the last one's is added when settled."""
        deals = self.deals
        kept = self._dealt_kept
        if kept[0] is not deals or kept[1] != len(deals):
            kept = self._dealt_kept = (deals, len(deals), sum(d.decks for d in deals[:-1] if d.decks is not None))
        last = deals[-1].decks if deals else None
        return kept[2] + (last or 0)

    # ------------------------------------------------------------ acting
    def start_deal(self) -> Deal:
        """Begin the deal whose commitment is shown; IllegalAction between no deals."""
        if self.in_deal:
            raise IllegalAction(f"a deal is in progress: seat {self.session.to_act} is to act")
        if self.finished:
            raise IllegalAction("the session is over")
        deal = self.current
        if not self._queue_decks(0, DEAL_DECKS):
            self._rebuild()
        self._settlements()  # (read before the session releases the ended deals' events)
        self.session.start_deal()
        deal.started = True
        for st in self.seats:
            st.ready = False
        self._after()
        return deal

    def apply(self, seat: int, text: str, by: str = "human") -> str:
        """Apply ``text`` for ``seat``; IllegalAction (the rule's reason) if it is not that seat's to make."""
        s = self.session
        if s.deal_over:
            raise IllegalAction("no deal is in progress")
        if seat != s.to_act:
            raise IllegalAction(Refusal("not_turn", seat=seat, to_act=s.to_act))
        done = s.apply(text, seat)
        self.actions.append((seat, done, by))
        self._after()
        return done

    def bot_action(self, seat: int, kind: str) -> str:
        """What the bot of ``kind`` does for ``seat`` (to act), from that seat's view only, in CONTRACT words."""
        return str(self.bot_choice(seat, kind))

    def bot_choice(self, seat: int, kind: str) -> Action:
        """What the bot of ``kind`` does for ``seat`` (to act), from that seat's view only: the codec's ``Action``."""
        bot = self._bots.get(kind)
        if bot is None:
            bot = self._bots[kind] = make_bot(kind, self.session.rules)
        s = self.session
        return choose_for(bot, s, decision_rng(s.seed, len(s.actions)))

    def _after(self) -> None:
        """After a change: a settled deal reveals its seed, and the next deal's commitment is drawn."""
        if self.session.deal_over and self.current.started and self.current.decks is None:
            dealt = len(self.session.state.decks_dealt) - self.dealt_before()
            self.current.decks = dealt
            if not self.finished_after_settle():
                self.deals.append(self._next_deal(self.current.number + 1))
        else:
            self._ensure_decks()

    def finished_after_settle(self) -> bool:
        s = self.session
        return s.deals_completed >= self.setup["deals"] or self._session_over()

    def _ensure_decks(self) -> None:
        """A deal of many redeals gets more decks from its seed before it runs out of them."""
        if not self.in_deal:
            return
        dealt = len(self.session.state.decks_dealt) - self.dealt_before()
        if dealt >= self._decks_made - 1 and not self._queue_decks(self._decks_made, 2 * self._decks_made):
            self._rebuild(extra=2 * self._decks_made)

    # ------------------------------------------------------------ what a seat sees (the one place)
    def view(self, seat: int | None, lang: str = "en", *, present: list[bool] | None = None,
             takeover: list[bool] | None = None) -> dict:
        """Everything the connection of ``seat`` (None: a spectator) may know now, JSON-ready: ``parts``' view."""
        return self.parts(seat, lang, present=present, takeover=takeover).whole()

    def parts(self, seat: int | None, lang: str = "en", *, present: list[bool] | None = None,
              takeover: list[bool] | None = None, offered: bool = True) -> Parts:
        """The parts of the view of ``seat``'s connection (``delta.Parts``: the view, and the base of the next
        patch); ``offered`` False: no legal action offered (the connection only watches its seat).

        Built only from the engine's view of that seat (``events_since``, ``seat_hand``; the table's from a
        spectator's, made for no seat, which holds nobody's secret): its table, its hand, the deal's events as
        it may hold them (the log and the events are made from these); the seed of a deal is included only
        once it is settled."""
        public = self._public()
        return Parts(self._common(public, lang, present, takeover), self._own_parts(public, seat, lang, offered))

    def change(self, present: list[bool] | None, takeover: list[bool] | None) -> Change:
        """The parts of every view of the table as it stands now (``Change``), for a broadcast: what ``parts`` makes,
        with the table's state read once for all the views, not once a view (the seats and the session must not
        move while it is used)."""
        return Change(self, self._public(), present, takeover)

    def _own_parts(self, public: dict, seat: int | None, lang: str, offered: bool) -> OwnParts:
        """``_own``, made once a change of the session; the parts made before if none of them changed but by the
        table's new items (the same object: a patch adds nothing of the viewer's, and the viewers alike share its
        text, ``Host.broadcast``)."""
        key = (seat, lang, offered)
        made = self._bodies.get(key)
        if made is not None and made[0] is public:  # (the same ``public``: the session has not moved since)
            return made[1]
        own, mine = self._own(seat, lang, offered, self._deal_logs[lang])
        if made is not None:
            was = made[1]
            if own.log is was.log and mine == made[2] and own.hand is was.hand and own.legal is was.legal \
                    and own.settled is was.settled:  # (its log the table's, or its own grown by the table's items)
                own = was
        self._bodies[key] = (public, own, mine)
        return own

    def _common(self, public: dict, lang: str, present: list[bool] | None, takeover: list[bool] | None) -> Common:
        """What every viewer in ``lang`` holds alike (``delta.Common``): made once a change of the table and
        language, and shared by the views (a patch of it is then made once for all of them, ``delta.patch``)."""
        part = self._table_part(public, lang, present, takeover)
        made = self._commons.get(lang)
        if made is not None and made[0] is public and made[1] is part:
            return made[2]
        told = self._deal_log(lang)
        rest = {
            "moves": public["moves"],
            "tricks": told.last_tricks(),  # the deal's last closed tricks: the one on the table, the one before
            "trick_number": len(told.tricks) + 1,  # of the trick being played
            "fair": public["fair"],  # the deal to come and the last ones settled
            "dealt": public["dealt"],
        }
        # ``log``: the deal's sentences; ``events``: the same events as data (cards as codes, calls as ids): the
        # page words them in its own language, with the variant's call names and cards as 10♥; ``log`` is the
        # fallback.  (The lists as they grow: the parts hold how much of them a view shows.)
        common = Common(part, self._shared_observed(public), told.lines, told.events, rest)
        self._commons[lang] = (public, part, common)
        return common

    def _own(self, seat: int | None, lang: str, offered: bool, public: DealLog) -> tuple[OwnParts, int]:
        """What ``seat`` holds alone in its view (its hand, settlement, legal actions; its log, the table's lists
        until it holds an event otherwise), and how many of the deal's events it holds as its own: made once a
        change of the session, so a change of the seats only (a name, a seat ready for the next deal, a player come
        or gone) makes nothing of it again.  ``public``: the table's log in ``lang``, read up to now
        (``_deal_log``), and who is to act."""
        told: DealLog | SeatLog = public
        mine = -1  # (its own events; -1: none, the log is the table's, ``OwnParts.log`` None)
        if seat is not None:
            log = self._seat_logs.get((seat, lang))
            if log is None or log.public is not public:
                log = self._seat_logs[(seat, lang)] = SeatLog(seat, public)
            told = log
            if log.read < public.read:
                log.catch_up(self.session.state)
            if log.own:
                mine = log.owned
        # (not the log scanned a view; the event's own shared dict: the same object until another deal is settled)
        settled = None if told.settled is None else told.settled.shared_data(seat)
        legal: list[dict] = _NO_ACTIONS
        if offered and seat is not None and public.to_act == seat:
            legal = []
            kept = _DESCRIBED_OBJECTS
            state = self.session.state
            anywhere = draws_anywhere(state.rules)  # (else no action names where it draws from: none is asked)
            for a in self.session.legal_actions():  # (the kernel lists many of the same objects again)
                found = kept.get(id(a))
                if found is None or found[0] is not a:
                    if len(kept) >= _DESCRIBED_LIMIT:
                        kept.clear()
                    found = kept[id(a)] = (a, self._describe(a))  # (holding ``a``: its id is not reused meanwhile)
                legal.append(_sourced(found[1]) if anywhere and names_source(state, a) else found[1])
        if mine < 0:
            return OwnParts(seat, self._hand(seat), None, None, settled, legal), mine
        return OwnParts(seat, self._hand(seat), told.lines, told.events, settled, legal), mine

    def _hand(self, seat: int | None) -> list[str] | None:
        """The seat's hand as ``render`` writes it, from the engine's view of the seat (``seat_hand``): the same
        list while the hand is (a patch passes it by identity)."""
        hand = seat_hand(self.session.state, seat)
        kept = self._hands.get(seat)
        if kept is not None and kept[0] == hand:
            return kept[1]
        words = None if hand is None else _card_words(hand)
        self._hands[seat] = (hand, words)
        return words

    def _shared_observed(self, public: dict) -> dict:
        """The observation's ``SHARED`` keys, from the spectator's observation (nobody's secret), made once a
        change for every seat's view (its patch is made once for them all, ``delta.patch``)."""
        made = self._observed_made
        if made is not None and made[0] is public:
            return made[1]
        shown = spectator_observation(self.session.state)
        shared = {key: shown[key] for key in SHARED}
        self._observed_made = (public, shared)
        return shared

    def _public(self) -> dict:
        """The parts of a view no seat holds alone (where the evening stands, the chips the deal moved, the
        fair-deal data): made once a change of the table, not once a seat (a broadcast makes every view).
        A part that did not change is the same object as in the last one made: nothing is made again, and a
        patch (``delta.diff``) finds it unchanged by identity instead of comparing it, for every seat."""
        s = self.session
        current = self.deals[-1]  # (``current``, read once: this runs for every view of a broadcast)
        key = (s.log_base + len(s.state.log), len(self.actions), len(self.deals), current.started, current.decks)
        made = self._public_made
        if made is not None and made[0] is s and made[1] == key:
            return made[2]
        before = made[2] if made is not None else None
        deals = tuple((d.number, d.decks) for d in self.deals[-4:])  # what ``fair`` and ``dealt`` show
        if before is not None and self._public_deals == deals:
            fair, dealt = before["fair"], before["dealt"]
        else:
            fair, dealt = [d.public() for d in self.deals[-4:]], self._revealed_decks()
            self._public_deals = deals
        public = {
            "table": {"deals_completed": s.deals_completed, "deal": self._deals_started(),
                      "in_deal": self.in_deal, "finished": self.finished,
                      "step": self.step,  # changes with every action and deal
                      "standings": self._standings(), "deal_stacks": list(s.deal_stacks)},
            "moves": self._moves(),
            "fair": fair,
            "dealt": dealt,
        }
        self._public_made = (s, key, public)
        return public

    def _moves(self) -> dict:
        """Every chip the deal moved (``_chip_moves``), read from the events logged since the last call only: the
        same dict while no chip moved (a rebuilt session, or another deal, is read again from the deal's start)."""
        s = self.session
        log, base = s.state.log, s.log_base
        at = self._deal_log_at() if s.deals_started else len(log)
        start, end = base + at, base + len(log)  # (places in the evening: a deal's start is never another's)
        kept = self._moves_read
        if kept is not None and kept[0] is s and kept[1] == start and kept[2] <= end:
            rows = _chip_moves(log[kept[2] - base:], 0, self.players)["rows"]
            moves = kept[3] if not rows else {"carried": kept[3]["carried"], "rows": kept[3]["rows"] + rows}
        else:
            moves = _chip_moves(log[at:], self._carried(), self.players)  # (chips move in public events only)
        self._moves_read = (s, start, end, moves)
        return moves

    def _table_part(self, public: dict, lang: str, present: list[bool] | None, takeover: list[bool] | None) -> dict:
        """A view's ``table``: the same for every viewer in ``lang``, so made once a change and language and
        shared by the views (read only: a patch of it is then made once for all of them, ``delta.diff``).
        A broadcast passes every view the same ``present`` and ``takeover`` lists (made once for it, and the
        seats do not change during it): given those very lists again, the part is the one made for them."""
        made = self._table_parts.get(lang)
        if made is not None and made[0] is public and present is not None and made[3] is present \
                and made[4] is takeover:
            return made[2]
        seats = tuple((st.human, st.bot, st.ready, st.name, st.why) for st in self.seats)
        key = (lang, tuple(present) if present else None, tuple(takeover) if takeover else None, seats)
        if made is not None and made[0] is public and made[1] == key:
            self._table_parts[lang] = (public, key, made[2], present, takeover)
            return made[2]
        if made is not None and made[1] == key:  # the seats as they were: the same list (a patch finds it by
            seat_list = made[2]["seats"]  # identity, instead of comparing its dicts, on nearly every action)
        else:
            seat_list = [{"seat": i, "human": human, "bot": bot,
                          "present": bool(present[i]) if present else False,
                          "takeover": bool(takeover[i]) if takeover else False,
                          "ready": ready, "name": name, "why": why}
                         for i, (human, bot, ready, name, why) in enumerate(seats)]
        part = {
            "id": self.id,
            "fingerprint": self.setup["fingerprint"], "players": self.players,
            "deals": self.setup["deals"],
            **public["table"],  # the deal's number, the step, the standings, ...
            "clock": self.setup.get("clock", 0),
            "seats": seat_list,
            "stacks": self.setup["stacks"],
            "canonical": self._canonical_words,
            **self._words(lang),
        }
        self._table_parts[lang] = (public, key, part, present, takeover)
        return part

    def _words(self, lang: str) -> dict:
        """The table's title and calls in ``lang``: made once a language (the rules never change)."""
        words = self._worded.get(lang)
        if words is None:
            rules = self.setup["rules"]
            words = self._worded[lang] = {
                "title": localized(rules.get("name"), lang, self.setup["name"]),
                # The variant's calls by name, and the words the registry's kinds of decision name (an
                # offer's answers): the page's buttons and log read any word here.
                "calls": {**display_names(lang),
                          **{cid: localized(c.get("name"), lang, cid) for cid, c in rules["calls"].items()}},
                "blind_calls": [cid for cid, c in rules["calls"].items()
                                if (c.get("requires") or {}).get("blind")],
                "wins": {wid: localized(w.get("name"), lang, wid) for wid, w in rules.get("instant_wins", {}).items()},
                "own": own_page_words(self.session.variant, lang),
            }
        return words

    def _voice(self, lang: str) -> Voice:
        voice = self._voices.get(lang)
        if voice is None:
            voice = self._voices[lang] = Voice(lang, self.session.variant, codes=lang == SOURCE_LANGUAGE)
        return voice

    def refusal_said(self, reason: str, lang: str) -> str:
        """A refusal in ``lang``: the kernel's typed ``Refusal`` from its code's message (``play.refusals``)."""
        from khrap.play.refusals import say

        return say(self._voice(lang), reason)

    def _deal_log(self, lang: str) -> DealLog:
        """The table's worded log of the deal so far in ``lang`` (the spectators'; a seat's, ``SeatLog``, is made
        from it), extended by the events since the last update, read once a change (a new deal, or a rebuilt
        session, starts it again)."""
        s = self.session
        state = s.state
        log, at = state.log, self._deal_log_at()
        first = log[at] if s.deals_started and at < len(log) else None  # the deal's first event: which deal
        public = self._deal_logs.get(lang)
        if public is None or public.first is not first:
            public = self._deal_logs[lang] = DealLog(None, self._voice(lang), first)
        if first is not None and public.logged != len(log):  # (read once a change, not once a view)
            new = events_since(state, None, public.read)
            public.extend(new, self._makers(public.read, len(new)))
            public.logged = len(log)
        public.to_act = s.to_act if self.in_deal else None
        return public

    def _makers(self, start: int, count: int) -> list[str | None]:
        """Who made each of the deal's events ``start`` to ``start + count``: "bot" or "human" (``actions``) for
        an action's own events (its first ones, while they are about the acting seat: its call, card, draw...),
        None for the rest (what follows of it: a trick taken, the settlement).  The log names a bot's play by the
        bot and a player's by the player, whoever holds the seat when it is read (the seat's name of the moment
        wrote a bot's plays as its absent player's, and his own as the bot's once he left)."""
        s = self.session
        log, acted, deal_at = s.state.log, s.acted_at, self._deal_log_at()
        base = s.acted_base  # (``acted[k]`` is action ``base + k``'s: the ended deals' are released)
        k = bisect_right(acted, deal_at + start) - 1  # the action whose events hold the first one
        run = k >= 0 and all(log[at].seat == s.actions[base + k][0] for at in range(acted[k], deal_at + start))
        out: list[str | None] = []
        for at in range(deal_at + start, deal_at + start + count):
            while k + 1 < len(acted) and acted[k + 1] <= at:
                k, run = k + 1, True
            run = run and k >= 0 and acted[k] >= deal_at and log[at].seat == s.actions[base + k][0]
            out.append(self.actions[base + k][2] if run else None)
        return out

    def _settlements(self) -> list[tuple[int, list[int], int]]:
        """The session's ``settled`` events as (place in the evening, stacks, pot), in order; only the events logged
        since the last call are read (a rebuilt session's new log is read again from its start; the table reads
        them before the session releases an ended deal's events, ``start_deal``)."""
        s = self.session
        log, base = s.state.log, s.log_base
        read_session, read = self._settled_read
        end = base + len(log)
        if read_session is s and read == end:
            return self._settled
        if read_session is not s or read > end or read < base:
            self._settled, self._overs, read = [], [], base
        for at in range(read - base, len(log)):
            e = log[at]
            if isinstance(e, ev.Settled):
                self._settled.append((base + at, list(e.fields["stacks"]), e.fields["pot"]))
            elif isinstance(e, ev.SessionOver):
                self._overs.append(base + at)
        self._settled_read = (s, end)
        return self._settled

    def _standings(self) -> list[list[int]]:
        """The stacks after each settled deal of the session (the kernel's ``settled`` events), in order: the
        same list until another deal is settled (the kept lists: a view is only sent)."""
        settled = self._settlements()
        made = self._standings_made
        if made is None or len(made) != len(settled) or (settled and made[-1] is not settled[-1][1]):
            made = self._standings_made = [stacks for _, stacks, _ in settled]
        return made

    def _carried(self) -> int:
        """The pot the deal in progress (or the last one) began with: the previous deal's ``settled`` pot."""
        start = self._deal_start() if self.session.deals_started else 0
        return next((pot for at, _, pot in reversed(self._settlements()) if at < start), 0)

    def _revealed_decks(self) -> list[dict]:
        """The decks of the last settled deals (their seeds are revealed, so anybody can make them)."""
        settled = [d for d in self.deals[-4:] if d.decks is not None]
        missing = [d for d in settled if d.number not in self._revealed]
        if missing:
            at = sum(d.decks or 0 for d in self.deals if d.number < missing[0].number)
            for d in missing:
                count = d.decks or 0
                dealt = self.session.state.decks_dealt[at:at + count]
                self._revealed[d.number] = {"deal": d.number, "decks": [" ".join(cards_str(x)) for x in dealt]}
                at += count
            if len(self._revealed) > len(settled):  # (only the last deals' are shown: the older ones go)
                self._revealed = {d.number: self._revealed[d.number] for d in settled}
        return [self._revealed[d.number] for d in settled[-3:]]  # the last few: the page checks the latest

    @staticmethod
    def _describe(action: Action) -> dict:
        """A legal action as the page offers it: made once per action (the same few hundred recur all evening,
        at every table), shared by the views that offer it (read only)."""
        key = _ACTION_FIELDS(action)
        found = _DESCRIBED.get(key)
        if found is None:
            if len(_DESCRIBED) >= _DESCRIBED_LIMIT:
                _DESCRIBED.clear()
            cards = _card_words(action.cards)
            found = _DESCRIBED[key] = {
                "text": format_action(action, cards), "word": action.word, "cards": cards,
                "joker": bool(action.joker), "position": action.position, "take_turned": bool(action.take_turned),
                "suit": None if action.suit is None else suit_str(action.suit)}
        return found

    # ------------------------------------------------------------ records
    def record(self) -> dict:
        """The session as a record file ``khrap replay`` reads, with the fair-deal data ``khrap verify`` checks."""
        rec = self.session.to_record()
        rec["decks"] = list(rec["dealt"])  # every deck it dealt, in order: the replay deals exactly these
        rec["variant"] = self.setup["name"]
        rec["table"] = {
            "humans": [i for i, st in enumerate(self.seats) if st.human],  # as the seats are now
            "bots": next((st.bot for st in self.seats if st.bot), self.setup["takeover_bot"]),
            "deals": self.setup["deals"],
            "fingerprint": self.setup["fingerprint"],
            "fair": [d.public() for d in self.deals if d.decks is not None],
        }
        return rec


def own_page_words(variant: Any, lang: str) -> dict[str, Any]:
    """The page's messages in ``lang`` that ``variant``'s ``terms:`` change, as they change them (frap's «приз
    фрапующего» for the page's «приз храпящего»): the project's one substitution (``terms.own_words``), made here so
    that the page substitutes nothing itself; every other message is the page's own."""
    from khrap.web.i18n import strings

    own = own_words(variant_terms(variant, lang))
    changed: dict[str, Any] = {}
    for key, text in strings(lang).items():
        said = [own(form) for form in text] if isinstance(text, list) else own(text)
        if said != text:
            changed[key] = said
    return changed


class Change:
    """The parts of the views of one change of a table (``Table.change``): the common parts made once a language,
    each viewer's own parts found once (``Table.parts`` asks the table whether it moved at each view: some
    10,000 instructions a view, a third of a broadcast's).  Kept for one broadcast only."""

    __slots__ = ("_commons", "_present", "_public", "_table", "_takeover")

    def __init__(self, table: Table, public: dict, present: list[bool] | None, takeover: list[bool] | None) -> None:
        self._table, self._public, self._present, self._takeover = table, public, present, takeover
        self._commons: dict[str, Common] = {}

    def common(self, lang: str) -> Common:
        """What every viewer in ``lang`` holds alike (``Table._common``)."""
        found = self._commons.get(lang)
        if found is None:
            found = self._commons[lang] = self._table._common(self._public, lang, self._present, self._takeover)
        return found

    def own(self, seat: int | None, lang: str, offered: bool) -> OwnParts:
        """What the viewer of ``seat`` holds alone (``Table._own_parts``; after the language's common parts, whose
        log of the deal it reads)."""
        if lang not in self._commons:
            self.common(lang)
        return self._table._own_parts(self._public, seat, lang, offered)


class DealLog:
    """The table's log of a deal in one language (as a spectator holds it, nobody's secret), kept as the deal
    goes: the sentences (the game log's one renderer, ``gamelog.tell``), the events as the page words them, and
    the closed tricks.  Each seat's (``SeatLog``) is this one but where the seat holds an event otherwise."""

    def __init__(self, viewer: int | None, voice: Voice, first: ev.Event | None = None) -> None:
        self.viewer, self.voice = viewer, voice
        self.first = first  # the deal's first event in the session's log: a log that starts elsewhere is another deal
        self.read = 0
        self.logged = -1  # the session log's length when it was last read
        self.seen: list[ev.Event] = []  # the events read, as the viewer holds them
        self.lines: list[str] = []
        self.events: list[dict] = []
        self.makers: list[str | None] = []  # who made each event ("bot", "human", None: ``Table._makers``)
        self.tricks: list[dict] = []
        self._cards: list[list] = []  # the trick being played
        self.settled: ev.Event | None = None  # the deal's last ``settled`` event so far
        self.settled_at = -1  # its place in the deal
        self.to_act: int | None = None  # the seat to act when it was last read (None: nobody, no deal in progress)
        self._last_tricks: list[dict] = []  # ``tricks[-2:]``, the same list until a trick is closed

    def last_tricks(self) -> list[dict]:
        """The deal's last two closed tricks (the one on the table, the one before): the same list while no
        trick is closed (a view holds it read only; a patch finds it unchanged by identity)."""
        if len(self._last_tricks) != min(2, len(self.tricks)) or (self.tricks and self._last_tricks[-1]
                                                                   is not self.tricks[-1]):
            self._last_tricks = self.tricks[-2:]
        return self._last_tricks

    def extend(self, new: list[ev.Event], makers: list[str | None] | None = None) -> None:
        """Take in the deal's events after those read (``events_since`` the viewer's place), and who made each
        (``Table._makers``): the page's event says it as ``by``."""
        if not new:
            return
        at = self.read
        self.read += len(new)
        self.seen += new
        if self.voice.codes and self.viewer is None:
            # CONTRACT's English (``tell``'s sentence of an event with its secret hidden, ``Event.render``) and the
            # event's data: the engine's, made once for each content seen before (``observation.seen``: a card
            # played, a call said, a trick taken... recur over the evening at every table), not rendered again
            for e in new:
                line, data = seen(e, False)
                self.lines.append(line)
                self.events.append(data if data.keys().isdisjoint(UNSENT) else
                                   {name: value for name, value in data.items() if name not in UNSENT})
        else:
            self.lines += tell(new, self.voice.lang, self.viewer, voice=self.voice)
            self.events += [_public_event(e, self.viewer) for e in new]
        self.makers += makers or [None] * len(new)
        for i, by in enumerate(makers or ()):
            if by is not None:  # (a copy: the event's own data is shared by every table that saw the same content)
                self.events[at + i] = {**self.events[at + i], "by": by}
        for e in new:  # the closed tricks: each trick's cards [seat, card, joker] in order, and who took it
            if isinstance(e, ev.Played):
                self._cards.append([e.seat, CARD_WORDS[e.fields["card"]], bool(e.fields.get("joker"))])
            elif isinstance(e, ev.TookTrick):
                self.tricks.append({"cards": self._cards, "winner": e.seat, "number": len(self.tricks) + 1})
                self._cards = []
            elif isinstance(e, ev.Settled):
                self.settled, self.settled_at = e, at
            at += 1


class SeatLog:
    """A seat's log of a deal in one language: the table's (``public``, a ``DealLog``) but where the seat holds
    an event otherwise, its own secret events (a draw, an exchange, a discard: whole for their seat), worded and
    made data for it alone.  The table's sentence and data of every other event are the seat's too: they depend
    only on whether the event's secret is shown (``Event.render``, ``Event.shared_data``).  Until the seat holds
    an event otherwise, its lines and events are the table's lists themselves (nothing made a seat); from then
    on its own, grown by the table's new items while it holds the new events alike.  The closed tricks are the
    table's: an own event differs from the table's copy in its secret fields only, and tricks read the seat and
    the public card; the settlement is the seat's own if it holds that event otherwise."""

    def __init__(self, viewer: int, public: DealLog) -> None:
        self.viewer, self.public = viewer, public
        self.read = 0
        self.own = False  # holds an event of the deal otherwise than the table (then its lists are its own)
        self.owned = 0  # its own events read (while this stays, its lists grow by the table's items alone)
        self._lines: list[str] = public.lines
        self._events: list[dict] = public.events
        self._settled: tuple[int, ev.Event] | None = None  # (place, event): a settlement the seat holds otherwise

    @property
    def lines(self) -> list[str]:
        return self._lines

    @property
    def events(self) -> list[dict]:
        return self._events

    @property
    def tricks(self) -> list[dict]:
        return self.public.tricks

    def last_tricks(self) -> list[dict]:
        return self.public.last_tricks()

    @property
    def settled(self) -> ev.Event | None:
        own, public = self._settled, self.public
        return own[1] if own is not None and own[0] == public.settled_at else public.settled

    def catch_up(self, state: Any) -> None:
        """Read the deal's events the table's log has read since this one's (``state``: the session's): the table's
        lines and events where the seat holds the new events alike (``own_since``), else its own words for its own."""
        public = self.public
        if not own_since(state, self.viewer, self.read):
            if self.own:
                self._lines += public.lines[self.read:public.read]
                self._events += public.events[self.read:public.read]
            self.read = public.read
            return
        if not self.own:
            self.own = True
            self._lines, self._events = public.lines[:self.read], public.events[:self.read]
        self._extend(events_since(state, self.viewer, self.read))

    def _extend(self, new: list[ev.Event]) -> None:
        """Take in the seat's events after those read (``events_since`` its place; the table's log has read them)."""
        public, at = self.public, self.read
        seen, lines, events = public.seen, public.lines, public.events
        self.read += len(new)
        for e in new:
            if e is seen[at]:
                self._lines.append(lines[at])
                self._events.append(events[at])
            else:  # its own secret event
                self.owned += 1
                voice = public.voice
                self._lines += tell([e], voice.lang, self.viewer, voice=voice)
                data, by = _public_event(e, self.viewer), public.makers[at]
                self._events.append(data if by is None else {**data, "by": by})
                if isinstance(e, ev.Settled):
                    self._settled = (at, e)
            at += 1


_DESCRIBED: dict[tuple, dict] = {}
_DESCRIBED_LIMIT = 4096
"""Legal actions as the page offers them, by their fields (``Table._describe``); emptied when it holds this many."""
_ACTION_FIELDS = attrgetter(*(f.name for f in fields(Action)))
"""An action's fields, in order, read in C: equal actions have equal fields (a dataclass's equality), and the tuple
is hashed in C, where the action's own hash and equality are Python functions."""
_DESCRIBED_OBJECTS: dict[int, tuple[Action, dict]] = {}
"""The same by the action object (its id, the object held): the kernel lists the same objects from one decision to
the next for half the actions, and an id is found without hashing the action's fields (a seat to act is offered a
dozen or two actions at every change)."""

_SOURCED: dict[int, tuple[dict, dict]] = {}
"""A described action that may say where it draws from (``Table._own``), by the described dict's id: the same
dict with ``from`` true, made once."""


def _sourced(described: dict) -> dict:
    """``described`` (``Table._describe``) with ``from``: the seat may say where its cards are drawn from (the
    engine's ``names_source``: an exchange, or a call that draws as it is made, where the stock may be drawn from
    anywhere): the page offers the stock's top or bottom beside it."""
    found = _SOURCED.get(id(described))
    if found is None or found[0] is not described:
        if len(_SOURCED) >= _DESCRIBED_LIMIT:
            _SOURCED.clear()
        found = _SOURCED[id(described)] = (described, {**described, "from": True})
    return found[1]


_NO_ACTIONS: list[dict] = []
"""A view's ``legal`` when its seat has nothing to do: one list for every such view (views are read only), so a
patch finds it unchanged by identity."""

UNSENT = ("hands", "ledger")
"""Fields the page's log never reads: a deal's hands (a secret of nobody's) and a settlement's itemised
ledger (the settlement's rows come from the chip events, ``moves``)."""


def _card_words(cards: Sequence[int]) -> list[str]:
    """``cards_str(cards)``, indexed natively (compiled: a hand or a legal action's cards, at every change)."""
    words = CARD_WORDS
    return [words[card] for card in cards]


def _public_event(e, viewer: int | None) -> dict:
    """An event as ``viewer`` may see it, for the page's log: its kind, seat and fields (cards as codes,
    calls as ids), which the page words in its reader's language with the players' names (every narrated
    kind: a sentence of the log would name a seat by its number).  The event's own shared data when it has
    no field the page leaves (most events): one dict for every viewer who sees it alike, made once, read only."""
    data = e.shared_data(viewer)
    if not data.keys().isdisjoint(UNSENT):
        data = {name: value for name, value in data.items() if name not in UNSENT}
    return data


MOVED = (ev.Anted, ev.PaidOut, ev.PaidIn, ev.TookPot, ev.HouseShare)
"""The events that move chips between the stacks and the pot, or to the house (a locked stake stays its owner's)."""


def _chip_moves(log: list, carried: int, players: int) -> dict:
    """Every chip the deal moved, as the kernel's events say: the pot before the deal (``carried``, the
    previous deal's ``settled``), then one row per event, with what each seat and the pot gained (+) or
    gave (-). An ante row is every seat's (``chips`` each); a payment from the pot, or into it, one seat's."""
    rows = []
    for e in log:
        if not isinstance(e, MOVED):
            continue
        f = dict(e.fields)
        chips = f.pop("chips")
        if isinstance(e, ev.Anted):  # every player puts ``chips`` in (``Machine._collect``)
            rows.append({"kind": "ante", "seat": None, "chips": -chips, "pot": chips * players,
                         "reason": f["reason"], "round": f["round"]})
        elif isinstance(e, ev.HouseShare):  # out of the seat's winnings to the house: the pot is untouched
            rows.append({"kind": "house", "seat": e.seat, "chips": -chips, "pot": 0, "percent": f["percent"]})
        else:
            sign = -1 if isinstance(e, ev.PaidIn) else 1
            rows.append({**f, "kind": e.kind, "seat": e.seat, "chips": sign * chips, "pot": -sign * chips})
    return {"carried": carried, "rows": rows}


__all__ = ["RESEAT", "Change", "Deal", "SeatState", "Table", "fingerprint", "new_token"]
