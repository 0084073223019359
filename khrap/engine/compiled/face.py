"""The stepped face's hot steps, compiled with the kernel: listing a decision's legal actions once,
their words, the pending decision, and applying a listed action.

``Face`` is the class between the kernel (``Machine``) and ``GameState`` (``state.py``), which adds
the checks and reasons of a refused action (``legal``), observations and clones.  It holds no rule:
the listing runs the kernel's own tests (the calls stage's listers, ``playable``, the exchange
limits), and a listed action is applied by the kernel's steps.  Plain Python where nothing is
compiled; one of ``KERNEL_MODULES`` in a compiled build (docs/compiled.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from khrap import words as w
from khrap.engine import legal
from khrap.engine.actions import Action, ActionError, IllegalAction, parse_action
from khrap.engine.blocks import Block, CallsBlock, CardBlock, SubsetBlock, SuitBlock, WordsBlock
from khrap.engine.compiled.machine import OFFERED, ListingMarks, Machine, exchange_actions
from khrap.engine.compiled.sink import _SAID, said_as
from khrap.engine.compiled.table import mypyc_attr
from khrap.engine.compiled.tricks import JOKER_FLAG
from khrap.engine.kinds import CALL, DISCARD, DOUBLE, EXCHANGE, PLAY, TRUMP, Kind
from khrap.engine.observation import SeatViews
from khrap.engine.observation import observation as observation_of
from khrap.engine.pending import Pending
from khrap.engine.refusal import Refusal, register

SETTLED: Final = w.SETTLED

# Actions are immutable: the ones a listing gives are made once and shared.
_CODES: Final = [*range(52), *range(JOKER_FLAG, JOKER_FLAG + 52)]  # a play: a card, plus JOKER_FLAG as the joker
PLAYS: Final[dict[int, Action]] = {c: Action(w.PLAY, cards=(c % JOKER_FLAG,), joker=c >= JOKER_FLAG) for c in _CODES}
PLAY_WORDS: Final[dict[int, str]] = {c: str(action) for c, action in PLAYS.items()}
DISCARDS: Final[list[Action]] = [Action(w.DISCARD, cards=(c,)) for c in range(52)]
TRUMPS: Final[list[Action]] = [Action(w.TRUMP, suit=s) for s in range(4)]
_PLAY_WORD_OF: Final[dict[int, str]] = {id(action): PLAY_WORDS[code] for code, action in PLAYS.items()}
# Pendings by kind, then by seat (immutable, so made once each): a dict of the kind alone, whose hash a str
# keeps, and a list, rather than a (kind, seat) tuple made and hashed at every decision.
_PENDINGS: Final[dict[Kind, list[Pending | None]]] = {}
# Call forms' words are the kernel's memo (``said_as``: the same words in the ``called`` events); an exchange's
# ``Action`` is the playout module's, made once for its cards (``machine.exchange_actions``).
_CALL_WORDS: Final[dict[int, tuple[Action, str]]] = _SAID
_NOTHING: Final[tuple[ListingMarks | None, list[Action]]] = (None, [])

Refuse = Callable[[Any, int, Action], "Refusal | None"]


class Decision:
    """One kind of decision, declared once: how its legal actions are listed, how one is applied, why one
    is refused, its codec (the machine's option as an ``Action``, the listing as CONTRACT.md words) and
    what a seat's observation shows of it (``legal``: the words, or the kind's word alone).

    - ``word``: the kernel word its actions begin with (None: a call's word is its id, ``look`` included);
    - ``by_word``: CONTRACT.md lists its legal actions by ``word`` alone (exchange, discard, trump);
    - ``listing(state)``: every legal action of the seat to act, in the kernel's order, made once;
    - ``apply(state, action)``: a listed (or checked) ``Action`` applied by the kernel's step;
    - ``option(o)``: what ``Machine.legal`` lists for it (an int, a tuple of cards, an ``Action``) as an ``Action``;
    - ``refuse(state, seat, action)``: the first refusal of its table (a ``Refusal``), or None (``legal``);
    - ``block``: its part of the one integer action space (``engine.blocks``, ``engine.action_space``);
    - ``names``: the display name of each word of its own in each language (``{word: {lang: name}}``; a
      call's are the variant's, the card actions' the interfaces' own): what a screen shows for a word it
      does not know.
    """

    kind: Kind
    word: str | None
    by_word: bool
    listing: Callable[[Machine], list[Action]]
    apply: Callable[[Machine, Action], None]
    option: Callable[[Any], Action]
    refuse: Refuse
    block: Block
    names: dict[str, dict[str, str]]

    def __init__(self, kind: Kind, word: str | None, by_word: bool, listing: Callable[[Machine], list[Action]],
                 apply: Callable[[Machine, Action], None], option: Callable[[Any], Action], refuse: Refuse,
                 block: Block, names: dict[str, dict[str, str]] | None = None) -> None:
        self.kind = kind
        self.word = word
        self.by_word = by_word
        self.listing = listing
        self.apply = apply
        self.option = option
        self.refuse = refuse
        self.block = block
        self.names = names if names is not None else {}

    def words(self, found: list[Action]) -> list[str]:
        """The CONTRACT.md words of ``found``, the legal actions ``listing`` gave (the word alone: ``by_word``)."""
        word = self.word
        if self.by_word and word is not None:
            return [word]
        if self.kind is PLAY:
            of = _PLAY_WORD_OF
            words: list[str] = []
            for a in found:
                said = of.get(id(a))
                words.append(said if said is not None else str(a))
            return words
        return [said_as(a) for a in found]

    def __repr__(self) -> str:
        return f"Decision({self.kind.value!r})"


# ------------------------------------------------------------ listing
def _list_calls(state: Machine) -> list[Action]:
    return state.legal()  # the calls stage's listers, then ``look`` while a blind call is open


def _list_plays(state: Machine) -> list[Action]:
    plays = PLAYS
    return [plays[code] for code in state._playable(state.seat)]


def _list_discards(state: Machine) -> list[Action]:
    discards = DISCARDS
    return [discards[c] for c in state.hands[state.seat]]


def _list_exchanges(state: Machine) -> list[Action]:
    return exchange_actions(state._exchanges(state.seat))


def _list_trumps(state: Machine) -> list[Action]:
    return list(TRUMPS)


# ----------------------------------------------------------- applying
# Each kind's ``Action`` given to the kernel's step as the option ``Machine.legal`` lists for it.
def _apply_call(state: Machine, action: Action) -> None:
    state.apply_option(action)


def _apply_play(state: Machine, action: Action) -> None:
    card = action.cards[0]
    state.apply_option(card + JOKER_FLAG if action.joker else card)


def _apply_discard(state: Machine, action: Action) -> None:
    state.apply_option(action.cards[0])


def _apply_exchange(state: Machine, action: Action) -> None:
    state.apply_option(action.cards, action.source)


def _apply_trump(state: Machine, action: Action) -> None:
    state.apply_option(action.suit)


# ------------------------------------------------- the machine's options
def _call_option(option: Any) -> Action:
    return option  # listed as an ``Action`` already


def _play_option(option: Any) -> Action:
    return PLAYS[option]


def _discard_option(option: Any) -> Action:
    return DISCARDS[option]


def _exchange_option(option: Any) -> Action:
    return Action(w.EXCHANGE, cards=tuple(option))


def _trump_option(option: Any) -> Action:
    return TRUMPS[option]


# ------------------------------------------------------------- offers
def offer(kind: Kind, answers: tuple[str, ...], names: dict[str, dict[str, str]], refusal: str,
          rule: Callable[[Machine, int, Action], None]) -> Decision:
    """The entry of a kind of decision a rule offers in a stage of its own (``Derived.offers``): the seat asked
    answers with one of ``answers`` (the first changes nothing: what a player who does not care says);
    ``rule(machine, seat, action)`` is the kind's kernel function, applying the answer (it may end the
    offers: ``machine.queue.clear()``); ``refusal``: the rule's English sentence for an answer that is not
    one of them ({seat}, {answers}), the refusal ``offer_<kind>``.  Registered with the kernel
    (``machine.OFFERED``), which asks it in turn."""
    listed = [Action(word) for word in answers]
    code = f"offer_{kind.value}"
    register(code, refusal)

    def listing(state: Machine) -> list[Action]:
        return listed

    def refuse(state: Any, seat: int, action: Action) -> Refusal | None:
        if action in listed:
            return None
        return Refusal(code, seat=seat, answers=answers)

    OFFERED[kind] = (listing, rule)
    return Decision(kind, None, False, listing, _apply_call, _call_option, refuse, WordsBlock(answers, kind.value),
                    names)


# In the order of the action space's blocks (``engine.action_space``): a kind added later comes last.
DECISIONS: Final[dict[Kind, Decision]] = {
    CALL: Decision(CALL, None, False, _list_calls, _apply_call, _call_option, legal.call_refusal, CallsBlock()),
    DISCARD: Decision(DISCARD, w.DISCARD, True, _list_discards, _apply_discard, _discard_option,
                      legal.discard_refusal, CardBlock(w.DISCARD)),
    PLAY: Decision(PLAY, w.PLAY, False, _list_plays, _apply_play, _play_option, legal.play_refusal,
                   CardBlock(w.PLAY, joker=True)),
    TRUMP: Decision(TRUMP, w.TRUMP, True, _list_trumps, _apply_trump, _trump_option, legal.trump_refusal,
                    SuitBlock(w.TRUMP)),
    EXCHANGE: Decision(EXCHANGE, w.EXCHANGE, True, _list_exchanges, _apply_exchange, _exchange_option,
                       legal.exchange_refusal, SubsetBlock(w.EXCHANGE)),
    # A helper's offer to double before the first lead (``Variant.double``; the rule: ``Payouts._double``).
    DOUBLE: offer(DOUBLE, (w.NO_DOUBLE, w.DOUBLE), {
        w.NO_DOUBLE: {"en": "No double", "ru": "Не удваиваю", "lt": "Nedvigubinu", "fi": "En tuplaa",
                      "hy": "Չեմ կրկնապատկում"},
        w.DOUBLE: {"en": "Double", "ru": "Удваиваю", "lt": "Dvigubinu", "fi": "Tuplaan", "hy": "Կրկնապատկում եմ"},
    }, "seat {seat} is asked whether he doubles the declarer's stake: {answers}", Machine._double),
}
"""The registry of decision kinds (``engine.decisions`` is its public face)."""


def _pending_of(kind: Kind, seat: int) -> Pending:
    """The ``Pending`` of ``kind`` and ``seat``, made once (``_PENDINGS``)."""
    made = _PENDINGS.get(kind)
    if made is None:
        made = _PENDINGS[kind] = []
    while len(made) <= seat:
        made.append(None)
    found = made[seat]
    if found is None:
        found = made[seat] = Pending(kind, seat)
    return found


def refusal(state: Machine, kind: Kind, action: Action) -> str | None:
    """Why the seat to act may not take ``action`` in a decision of ``kind`` now, or None if he may: the
    first refusal of the decision's table (``legal``) that ``action`` does not meet: a ``Refusal``, which is
    the English sentence (typed ``str`` here: the compiled face checks no class of a module it does not compile)."""
    decision = DECISIONS[kind]
    expected = decision.word
    if expected is not None and action.word != expected:
        return Refusal("must_word", seat=state.seat, word=expected)
    return decision.refuse(state, state.seat, action)


def listed(state: Machine) -> list[Action]:
    """Every legal action of the seat to act, in the kernel's order (draws from the top)."""
    kind = state.kind
    if kind is None:
        return []
    return DECISIONS[kind].listing(state)


@mypyc_attr(allow_interpreted_subclasses=True)  # copies and pickles: see table.py
class Face(Machine):
    """The kernel with the stepped face's hot steps (``GameState`` adds the rest)."""

    # The last listing: (the marks of the state it was made in, its actions); applying one of these very objects
    # is not checked again.  Every apply and deal forgets it.
    last_legal: tuple[ListingMarks | None, list[Action]]
    _words: tuple[Any, list[str]]  # (the listing, its words): legal_words made once per listing
    seat_views: SeatViews | None  # the observations' views of the deal

    def start_deal(self) -> None:
        """Ante, shuffle and deal the next deal (or redeal), then run to the first decision."""
        self.last_legal = _NOTHING
        super().start_deal()

    @property
    def pending(self) -> Pending | None:
        kind = self.kind
        return None if kind is None else _pending_of(kind, self.seat)

    def observation(self, seat: int) -> dict:
        """What ``seat`` may see now (see the observation module)."""
        kind = self.kind
        if kind is not None and self.seat == seat and self.phase != SETTLED:
            found = self._listing()
            return observation_of(self, seat, self._words_of(DECISIONS[kind], found))
        return observation_of(self, seat, None)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, with draws from the top only for exchanges.

        Listed once per decision (``last_legal``, forgotten at every ``apply`` and deal); each call gives
        a new list of the same (immutable) ``Action`` objects."""
        if self.kind is None:
            return []
        return list(self._listing())

    def _listing(self) -> list[Action]:
        """The pending decision's legal actions, listed once per decision (kept in ``last_legal``)."""
        hand = self.hands[self.seat]
        kind, seat, events = self.kind, self.seat, len(self.log)
        marks, found = self.last_legal
        if marks is None or not marks.same(kind, seat, events, hand):
            found = listed(self)
            self.last_legal = (ListingMarks(kind, seat, events, hand), found)
        return found

    def legal_words(self) -> list[str]:
        """The legal actions as CONTRACT.md lists them (exchange, discard, trump by word alone)."""
        kind = self.kind
        if kind is None:
            return []
        decision = DECISIONS[kind]
        if decision.by_word and decision.word is not None:
            return [decision.word]
        return self._words_of(decision, self._listing())

    def listed(self, text: str) -> Action | None:
        """The pending decision's listed action whose words are ``text`` exactly (as ``legal_words`` offers them),
        or None.  Its words are the listing's, made once (``_words``): found without writing the action again.  A
        decision offered by its word alone (``by_word``) lists no action of those words, unless its first is that
        word (an exchange of no card: ``exchange``)."""
        kind = self.kind
        if kind is None:
            return None
        decision = DECISIONS[kind]
        found = self._listing()
        word = decision.word
        if decision.by_word and word is not None:
            return found[0] if found and text == word and said_as(found[0]) == text else None
        made = self._words
        if made[0] is not found:
            made = self._words = (found, decision.words(found))
        for at, said in enumerate(made[1]):
            if said == text:
                return found[at]
        return None

    def _words_of(self, decision: Decision, found: list[Action]) -> list[str]:
        """A new list of the words of ``found``, the pending decision's listing (made once per listing)."""
        word = decision.word
        if decision.by_word and word is not None:
            return [word]
        made = self._words
        if made[0] is not found:
            made = self._words = (found, decision.words(found))
        return list(made[1])

    def _checked(self, action: Any, seat: int | None) -> Action:
        """``action`` (an ``Action`` or its words) parsed and checked for the pending decision, or
        IllegalAction with the reason."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ActionError as err:
                raise IllegalAction(str(err)) from None
        kind = self.kind
        if kind is None:
            raise IllegalAction(Refusal("settled"))
        if seat is not None and seat != self.seat:
            raise IllegalAction(Refusal("not_turn", seat=seat, to_act=self.seat))
        marks, found = self.last_legal
        if not (marks is not None and marks.of(kind, self.seat) and any(action is a for a in found)):
            reason = refusal(self, kind, action)
            if reason:
                raise IllegalAction(reason)
        return action

    def apply(self, action: Any, seat: Any = None) -> None:
        """Apply ``action`` for ``seat`` (default: the seat to act), or raise IllegalAction.

        An ``Action`` object that ``legal_actions`` gave for this very decision is applied without being
        checked again (an identity test); any other (text, or an equal but other object) is parsed and
        checked against the refusal tables."""
        kind = self.kind
        marks, found = self.last_legal
        checked: Action | None = None
        if seat is None and marks is not None and marks.of(kind, self.seat):
            for listed_action in found:
                if listed_action is action:
                    checked = listed_action
                    break
        if checked is None:
            checked = self._checked(action, seat)
        self.last_legal = _NOTHING
        if kind is not None:
            DECISIONS[kind].apply(self, checked)
