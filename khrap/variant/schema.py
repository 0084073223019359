"""The variant schema: every rule of a Khrap-family game as data.

Each field is one rule concept.  The kernel (``khrap.engine``) reads these
fields and nothing else; the rulebook prints a sentence for each.  Defaults are
those of classic Khrap where it has the concept, otherwise "off".

Amounts of chips are written as ``{base: N}`` (N base stakes) or ``{pots: N}``
(N times the pot at the moment the amount is set), or both (summed).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, field_validator

from khrap.cards import CardError, card_str, parse_card, parse_rank, parse_suit, rank_str, suit_str
from khrap.variant.said import Said

# --------------------------------------------------------------------------- limits
# Every bound on a value a file may give, stated once here and listed in
# docs/variant-reference.md ("Limits").  They are wide for any table (a built-in
# uses a small part of each) and narrow enough that every deal of a variant that
# validates ends within a bounded number of decisions (checks.deal_bound) and
# that checking a file takes time linear in its size.
MAX_STAKE = 1_000_000
"""Chips in one base stake (``base_stake``)."""
MAX_UNITS = 1_000
"""Base stakes in one amount, ante or extra ante."""
MAX_POTS = 100
"""Multiples of the pot in one amount."""
MAX_ROUNDS = 10
"""Bidding rounds per deal (``all_pass.rounds``)."""
MAX_CARDS = 52
"""Any count of cards or tricks (draws, discards, trumps held, tricks to take)."""
MAX_ITEMS = 64
"""Entries of any list or mapping (calls, stages, penalties, cards held, ranks...)."""
MAX_ID_CHARS = 64
"""Characters of an id (a call, stage or instant win) or a language code."""
MAX_NAME_CHARS = 200
"""Characters of a display name (and of a variant name or path in a record)."""
MAX_TEXT_CHARS = 4_000
"""Characters of a description."""
MAX_TERMS = 32
"""Entries of ``terms:`` in one language."""
MAX_TERM_CHARS = 40
"""Characters of a word in ``terms:`` (a general word is at least 2: a word put in place of each
letter would multiply a sheet's size)."""
MAX_CHIPS = 10**12
"""Largest stack or pot a scenario or record may start from (either sign for a stack)."""
MAX_DEALS = 100_000_000
"""Most deals one command plays (``simulate``/``analyze --deals``, ``play --deals``)."""
MAX_WORKERS = 256
"""Most worker processes (``--workers``)."""

LIMITS_TEXT = {
    "base_stake": MAX_STAKE, "amounts and antes (base stakes)": MAX_UNITS, "amounts (pots)": MAX_POTS,
    "all_pass.rounds": MAX_ROUNDS, "card and trick counts": MAX_CARDS, "entries of a list or mapping": MAX_ITEMS,
    "characters of an id or language code": MAX_ID_CHARS, "characters of a name": MAX_NAME_CHARS,
    "characters of a description": MAX_TEXT_CHARS, "`terms:` entries per language": MAX_TERMS,
    "characters of a word in `terms:`": MAX_TERM_CHARS, "starting stack or pot (scenario, record)": MAX_CHIPS,
    "deals per command": MAX_DEALS, "worker processes": MAX_WORKERS,
}
"""The limits above by what they bound, for the reference page."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, populate_by_name=True)


Id = Annotated[str, StringConstraints(max_length=MAX_ID_CHARS)]
Name = dict[Id, Annotated[str, StringConstraints(max_length=MAX_NAME_CHARS)]]
"""A display name per language code; ``en`` is the fallback for every other language."""
Localized = dict[Id, Annotated[str, StringConstraints(max_length=MAX_TEXT_CHARS)]]
"""Text per language code; ``en`` is the fallback for every other language."""
TermWord = Annotated[str, StringConstraints(min_length=2, max_length=MAX_TERM_CHARS)]
"""A word of ``terms:``: a general word of the sheets or the game's own word put in its place."""

Status = Literal["declarer", "helper", "out"]
ActiveStatus = Literal["declarer", "helper"]


def _rank_word(value: object) -> str:
    if isinstance(value, (dict, list)) or value is None or isinstance(value, bool):
        kinds: dict[type, Said] = {dict: Said("a mapping"), list: Said("a list")}
        got = kinds.get(type(value)) or (str(value).lower() if value is not None else "null")
        raise ValueError(Said("must be a rank (2-9, 10 or T, J, Q, K, A), e.g. A; got %(value)s", value=got))
    try:
        return rank_str(parse_rank(str(value)))
    except CardError:  # (khrap.cards imports nothing of ours: its sentence, word for word, as a Said)
        raise ValueError(Said("%(value)s is not a rank: write 2-9, 10 (or T), J, Q, K or A, e.g. 10 or Ace",
                              value=repr(str(value).strip()))) from None


def _suit_word(value: object) -> object:
    """A suit as players write it (S, s, ♠, spades) as its letter; anything else is left to the Literal."""
    if not isinstance(value, str) or value.strip().lower() == "trump":
        return value.strip().lower() if isinstance(value, str) else value
    try:
        return suit_str(parse_suit(value))
    except CardError:
        return value


Rank = Annotated[str, BeforeValidator(_rank_word)]
"""A rank as players write it (2-9, T or 10, J, Q, K, A, Ace, ten; any case), stored as its canonical letter."""


class CardPattern(Model):
    """A card named by rank and suit, where the suit may be ``trump``."""

    rank: Rank = Field(description="Rank: 2-9, T (or 10), J, Q, K, A.")
    suit: Annotated[Literal["S", "H", "D", "C", "trump"], BeforeValidator(_suit_word)] = Field(
        "trump", description="A suit (S, H, D, C, or ♠ ♥ ♦ ♣), or `trump` for the current trump suit."
    )


class Amount(Model):
    """Chips: ``base`` base stakes plus ``pots`` times the pot."""

    base: int = Field(0, ge=0, le=MAX_UNITS, description="Number of base stakes.")
    pots: int = Field(0, ge=0, le=MAX_POTS, description="Multiples of the pot (at the moment the amount is set).")


RankList = Annotated[list[str], Field(min_length=1, max_length=13)]


class DeckByPlayers(Model):
    up_to: int = Field(ge=2, le=12, description="This deck is used for at most this many players.")
    ranks: RankList = Field(description="Ranks of the deck, each in all four suits.")

    @field_validator("ranks", mode="before")
    @classmethod
    def _ranks(cls, value: object) -> list[str]:
        return _rank_list(value)


def _rank_list(value: object) -> list[str]:
    words = value.split() if isinstance(value, str) else value
    if not isinstance(words, list):
        raise ValueError(Said("ranks must be a list such as [6, 7, 8, 9, T, J, Q, K, A]"))
    ranks = [_rank_word(w) for w in words]
    twice = next((r for i, r in enumerate(ranks) if r in ranks[:i]), None)
    if twice is not None:
        raise ValueError(Said("rank %(rank)s is listed twice: each rank once", rank=twice))
    return ranks


class Deck(Model):
    """One deck of ranks × four suits, or a deck chosen by the number of players."""

    ranks: list[str] | None = Field(None, max_length=13, description="Ranks of the deck, each in all four suits.")
    by_players: list[DeckByPlayers] | None = Field(
        None, max_length=MAX_ITEMS,
        description="Decks by player count: the first entry whose `up_to` covers the players."
    )

    @field_validator("ranks", mode="before")
    @classmethod
    def _ranks(cls, value: object) -> list[str] | None:
        return None if value is None else _rank_list(value)


class Players(Model):
    min: int = Field(2, ge=2, le=12, description="Fewest players.")
    max: int = Field(5, ge=2, le=12, description="Most players.")


class Ante(Model):
    amount: int = Field(1, ge=0, le=MAX_UNITS, description="Base stakes each player puts in the pot before a deal.")
    when: Literal["every_deal", "empty_pot"] = Field(
        "every_deal", description="Ante before every deal, or only when the pot is empty."
    )


class TableRules(Model):
    """How a session runs around the deals: rules the players keep, printed on the sheet, not played by the engine."""

    first_dealer: Literal["by_lot", "lowest_card"] = Field(
        "by_lot", description="How the first dealer is chosen: by lot, or whoever draws the lowest card."
    )
    join: Literal["empty_pot", "any_time"] = Field(
        "empty_pot",
        description="When a player may join or leave: only between deals while the pot is empty, or between any deals.",
    )
    session_end: Literal["empty_pot", "share_pot"] = Field(
        "empty_pot",
        description="When a session may end: only after a deal that leaves the pot empty, or at any time, "
        "the pot then shared equally (what does not divide stays on the score sheet for the next session).",
    )


class Trump(Model):
    source: Literal["turned", "named"] = Field(
        "turned",
        description="`turned`: the card after the deal is turned and its suit is trump; "
        "`named`: the declarer names trump in a `name_trump` stage.",
    )


class AllPass(Model):
    """What happens when a calls stage ends with no declarer."""

    rounds: int = Field(3, ge=1, le=MAX_ROUNDS, description="Bidding rounds per deal, the first included.")
    turn_up: bool = Field(True, description="Each new round turns the next stock card as the new trump.")
    round_ante: int = Field(
        0, ge=0, le=MAX_UNITS, description="Extra base stakes each player adds before each new round."
    )
    last_ante: int = Field(
        1, ge=0, le=MAX_UNITS, description="Extra base stakes each player adds after the last round passes."
    )
    redeal_ante: Literal["skip", "normal"] = Field(
        "skip",
        description="`skip`: the redeal does not ante (the extra stake was its ante); `normal`: it antes as usual.",
    )


class StatusRule(Model):
    tricks: int = Field(ge=0, le=MAX_CARDS, description="Tricks a player of this status must take.")
    stake: Amount = Field(
        default_factory=Amount, description="What the status is worth: paid on failure by `pay: stake`."
    )
    locked: bool = Field(
        False, description="The stake leaves the stack when the status is taken and is held until settlement."
    )


def _default_statuses() -> dict[ActiveStatus, StatusRule]:
    return {
        "declarer": StatusRule(tricks=2, stake=Amount(base=2)),
        "helper": StatusRule(tricks=1, stake=Amount(base=1)),
    }


class PotBound(Model):
    """A bound on the pot: ``base`` base stakes, times the players at the table when ``per_player``."""

    base: int = Field(ge=0, le=MAX_UNITS, description="Base stakes (per player when `per_player`).")
    per_player: bool = Field(False, description="The bound is `base` base stakes for each player at the table.")


class Requires(Model):
    """When a call may be made."""

    declarer: Literal["any", "exists", "absent"] = Field(
        "any", description="Only if a declarer exists, only while there is none, or either."
    )
    dealer: bool = Field(False, description="Only the dealer may make it.")
    blind: bool = Field(False, description="Only before the caller has looked at his cards; making it does not look.")
    holds: list[CardPattern] = Field(
        default_factory=list, max_length=MAX_CARDS, description="Cards the caller must hold."
    )
    min_trumps: int | None = Field(None, ge=0, le=MAX_CARDS, description="The caller holds at least this many trumps.")
    max_trumps: int | None = Field(None, ge=0, le=MAX_CARDS, description="The caller holds at most this many trumps.")
    turned_rank: Rank | None = Field(None, description="The current turned trump card has this rank.")
    max_pot: PotBound | None = Field(
        None, description="Only while the pot holds at most this many chips, e.g. `{base: 3, per_player: true}`: "
        "3 base stakes per player at the table."
    )


class Exchanges(Model):
    """How the caller takes part in the exchange stage."""

    takes_part: bool = Field(True, description="He has an exchange turn (false when the call drew already).")
    min_discard: int = Field(0, ge=0, le=MAX_CARDS, description="Fewest cards he must exchange.")
    max_discard: int | None = Field(
        None, ge=0, le=MAX_CARDS, description="Most cards he may exchange (default: the stage's limit)."
    )
    draw_extra: int = Field(0, ge=0, le=MAX_CARDS, description="Cards drawn beyond those discarded.")
    then_discard: int = Field(0, ge=0, le=MAX_CARDS, description="Cards he then discards (after drawing extra).")


class Effects(Model):
    """What a call does at once (or at the caller's exchange turn)."""

    status: Status = Field(description="The status the call gives.")
    override: bool = Field(False, description="Takes the declarer's place if there is one.")
    forces_others: bool = Field(False, description="Every other player still holding cards becomes a helper.")
    ends_stage: bool = Field(False, description="The current calls stage ends at once.")
    skip_stages: list[Id] = Field(
        default_factory=list, max_length=MAX_ITEMS, description="Stages of this deal that are skipped afterwards."
    )
    when: Literal["now", "exchange"] = Field(
        "now", description="`exchange`: the card effects happen at the caller's turn in the exchange order."
    )
    keep: list[CardPattern] = Field(
        default_factory=list, max_length=MAX_CARDS, description="Cards shown and kept when the hand is thrown."
    )
    discard_hand: bool = Field(False, description="The caller throws his hand (all but `keep`).")
    take_turned: Literal["no", "yes", "optional", "swap"] = Field(
        "no",
        description="Take the current turned trump card: always, as an option (`CALL trump`), "
        "or in exchange for the card at a named hand position (`CALL N`).",
    )
    draw: int = Field(0, ge=0, le=MAX_CARDS, description="Cards drawn from the stock.")
    then_discard: int = Field(0, ge=0, le=MAX_CARDS, description="Cards the caller then owes as `discard` actions.")


class Call(Model):
    """An announcement: who may say it, what it does, what it obliges."""

    name: Name = Field(description="Display name per language.", max_length=MAX_ITEMS)
    description: Localized = Field(default_factory=dict, description="One line per language.", max_length=MAX_ITEMS)
    enabled: bool = Field(True, description="False removes the call from every stage.")
    requires: Requires = Field(default_factory=Requires)
    effects: Effects
    exchange: Exchanges = Field(default_factory=Exchanges)


class StageBase(Model):
    id: Id = Field(description="Stage id, unique in the variant.")
    name: Localized = Field(
        default_factory=dict, description="What the players call this step, per language (e.g. frap's `Buying`)."
    )


class CallsStage(StageBase):
    kind: Literal["calls"] = Field(
        description="The kind of stage: `calls`, `exchange`, `name_trump`, `instant_wins` or `play`."
    )
    phase: Literal["bidding", "offers"] = Field("bidding", description="The phase name shown while it runs.")
    speakers: Literal["all", "others", "out"] = Field(
        "all", description="Who is asked: everyone, everyone but the declarer, or those whose status is out."
    )
    start: Literal["dealer_left", "declarer_left"] = Field(
        "dealer_left", description="Who is asked first; then clockwise, each once."
    )
    calls: list[Id] = Field(min_length=1, max_length=MAX_ITEMS, description="Call ids that may be said in this stage.")
    out_hands: Literal["keep", "on_call", "at_end"] = Field(
        "keep",
        description="When out players' cards go to the discard pile: never here, as they go out, "
        "or at the end of the stage (when a declarer exists).",
    )


class ExchangeGroup(Model):
    statuses: list[ActiveStatus] = Field(default_factory=list, max_length=2, description="Players of these statuses.")
    calls: list[Id] = Field(
        default_factory=list, max_length=MAX_ITEMS, description="Players whose own call is one of these."
    )


class ExchangeStage(StageBase):
    kind: Literal["exchange"]
    order: list[ExchangeGroup] = Field(
        default_factory=lambda: [ExchangeGroup(statuses=["declarer", "helper"])], max_length=MAX_ITEMS,
        description="Groups in turn; within a group clockwise from the declarer, declarer first.",
    )
    order_by_call: dict[Id, Annotated[list[ExchangeGroup], Field(max_length=MAX_ITEMS)]] = Field(
        default_factory=dict, max_length=MAX_ITEMS, description="Another order when the declarer's call is the key."
    )
    max_discard: int | None = Field(
        None, ge=0, le=MAX_CARDS, description="Most cards a player may exchange (default: hand size)."
    )


class NameTrumpStage(StageBase):
    kind: Literal["name_trump"]


class InstantWinsStage(StageBase):
    kind: Literal["instant_wins"]


class PlayStage(StageBase):
    kind: Literal["play"]


Stage = Annotated[
    CallsStage | ExchangeStage | NameTrumpStage | InstantWinsStage | PlayStage, Field(discriminator="kind")
]


class InstantWin(Model):
    """A hand that wins the pot at once, checked after the exchange."""

    name: Name = Field(description="Display name per language.", max_length=MAX_ITEMS)
    description: Localized = Field(default_factory=dict, description="One line per language.", max_length=MAX_ITEMS)
    enabled: bool = Field(True, description="False removes the instant win (e.g. in a file that extends one with it).")
    rank: Rank = Field(description="The rank held.")
    count: int = Field(ge=1, le=4, description="How many cards of that rank.")
    payers: Literal["active", "all"] = Field(
        "active", description="Who pays his status stake into the pot: other active players, or passers too."
    )
    next_ante: Literal["skip_if_pot", "normal"] = Field(
        "skip_if_pot", description="The next deal skips its ante when the payments left chips in the pot."
    )


class FirstLead(Model):
    calls: list[Id] = Field(
        default_factory=list, max_length=MAX_ITEMS,
        description="The first player clockwise from the declarer whose call is one of these leads.",
    )
    suit: Literal["trump", "S", "H", "D", "C"] | None = Field(
        None,
        description="The first lead of a deal must be a card of this suit (the trump suit, or a named suit) "
        "if the leader holds one; null: any card.",
    )


class Play(Model):
    follow_suit: bool = Field(True, description="A player must follow the led suit.")
    trump_if_void: bool = Field(True, description="Void in the led suit, he must play a trump.")
    must_beat: bool = Field(False, description="Following suit, he must beat the best card of that suit if he can.")
    must_overtrump: bool = Field(False, description="Trumping, he must beat the best trump on the trick if he can.")
    first_lead: FirstLead = Field(default_factory=FirstLead, description="Who leads to the first trick.")
    lone_declarer_takes_all: bool = Field(True, description="A declarer with no partner left is credited every trick.")


class Joker(Model):
    card: Annotated[str, StringConstraints(max_length=MAX_ID_CHARS)] = Field(
        description="The card that is the joker, e.g. 7S (or 7♠)."
    )
    led_demands: Literal["none", "trump"] = Field(
        "none", description="What a joker led as the joker asks the others to play."
    )

    @field_validator("card", mode="before")
    @classmethod
    def _card(cls, value: object) -> str:
        try:
            return card_str(parse_card(str(value)))
        except CardError:  # (the sentence of khrap.cards, word for word, as a Said)
            raise ValueError(Said("%(value)s is not a card: write rank then suit, e.g. TS, 10♠, 7s or AH",
                                  value=repr(str(value).strip()))) from None


class TrickShare(Model):
    divisor: int | None = Field(
        None, ge=1, le=MAX_UNITS, description="Each trick pays ⌊P / divisor⌋ (default: the hand size)."
    )
    statuses: list[ActiveStatus] = Field(
        default_factory=lambda: list[ActiveStatus](["declarer", "helper"]), max_length=2,
        description="Who is paid for tricks."
    )
    fulfilled_only: bool = Field(False, description="Only players who met their obligation are paid.")


class Penalty(Model):
    """Paid into the pot by a failed player; the first rule that matches applies."""

    status: ActiveStatus | None = Field(None, description="Applies to this status only.")
    calls: list[Id] = Field(
        default_factory=list, max_length=MAX_ITEMS, description="Applies to players whose call is one of these."
    )
    tricks: int | None = Field(None, ge=0, le=MAX_CARDS, description="Applies when he took exactly this many tricks.")
    held: list[CardPattern] = Field(
        default_factory=list, max_length=MAX_CARDS, description="Applies when he held these when play began."
    )
    pay: Amount | Literal["stake"] = Field(
        "stake", description="`stake`: his status stake; or an amount, pots counted on P."
    )


class HouseShare(Model):
    """A commission: of each player's win (what a settlement or an instant win pays him from the pot), the
    house takes ``percent`` % of the part above ``above`` base stakes, rounded down, from his stack; those
    chips leave the table (the kernel counts them in ``house``)."""

    percent: int = Field(ge=1, le=100, description="Percent of the taxed part of a win (rounded down).")
    above: int = Field(
        0, ge=0, le=MAX_UNITS,
        description="Base stakes of each win left untaxed (the table's stake): only the part above them is taxed.",
    )
    spare_penalized: bool = Field(True, description="A player who paid a penalty in the deal pays no commission.")


class Settlement(Model):
    trick_share: TrickShare = Field(
        default_factory=TrickShare, description="What each trick taken is paid from the pot."
    )
    declarer_prize: list[Literal["rest", "half", "none"]] = Field(
        default_factory=list, max_length=MAX_ROUNDS,
        description="By bidding round: a declarer who met his obligation takes the rest of the pot or half of P.",
    )
    penalties: list[Penalty] = Field(default_factory=lambda: [Penalty()], max_length=MAX_ITEMS)
    pot_after: Literal["redistribute", "carry"] = Field(
        "redistribute",
        description="`redistribute`: the pot is divided at once among those who did not fail, by tricks; "
        "`carry`: it stays for the next deal.",
    )
    remainder: Literal["pot", "most_tricks"] = Field(
        "pot", description="What rounding leaves: stays in the pot, or goes to the player with the most tricks."
    )
    house: HouseShare | None = Field(
        None, description="A commission the house takes from each player's win of a settlement; null: none."
    )


class Variant(Model):
    """A complete game: deck, players, calls, stages, play and settlement."""

    name: Name = Field(description="Display name per language.", max_length=MAX_ITEMS)
    description: Localized = Field(default_factory=dict, description="A line or two per language.",
                                   max_length=MAX_ITEMS)
    players: Players = Field(default_factory=Players, description="How many may play.")
    hand_size: int = Field(4, ge=1, le=13, description="Cards per hand, and tricks per deal.")
    deck: Deck
    base_stake: int = Field(1, ge=1, le=MAX_STAKE, description="Chips in one base stake.")
    ante: Ante = Field(default_factory=Ante, description="What each player puts in the pot before a deal.")
    trump: Trump = Field(default_factory=Trump, description="How the trump suit is chosen.")
    all_pass: AllPass = Field(default_factory=AllPass)
    statuses: dict[ActiveStatus, StatusRule] = Field(
        default_factory=_default_statuses, max_length=2,
        description="What the declarer and a helper must take, and what they stake."
    )
    overridden_becomes: Literal["helper", "out"] = Field(
        "helper", description="What an overridden declarer becomes (he keeps his cards as a helper)."
    )
    calls: dict[Id, Call] = Field(max_length=MAX_ITEMS)
    stages: list[Stage] = Field(
        max_length=MAX_ITEMS, description="The steps of a deal after the deal itself, in order."
    )
    draw_from: Literal["top", "anywhere"] = Field(
        "top", description="Where draws come from: the top, or anywhere the player names (`from top|bottom|N`)."
    )
    play: Play = Field(default_factory=Play, description="How the tricks are played.")
    joker: Joker | None = Field(None, description="A card that may be played as the joker.")
    instant_wins: dict[Id, InstantWin] = Field(default_factory=dict, max_length=MAX_ITEMS)
    double: bool = Field(
        False,
        description="After the exchange and any instant win, before the first lead, each player in the hand but "
        "the declarer, clockwise from the declarer's left, may double, once per deal (the first double ends the "
        "offers): the declarer's stake is added to what the declarer and the doubler each pay if he fails. "
        "Only a penalty that pays the status stake (`pay: stake`) charges it.",
    )
    settlement: Settlement = Field(default_factory=Settlement, description="Who pays and who is paid after the tricks.")
    next_dealer: Literal["left", "declarer"] = Field(
        "left", description="The next dealer: the player on the dealer's left, or the deal's final declarer."
    )
    allow_debt: bool = Field(
        True, description="Stacks may go negative; if false no stack ever goes below zero (`short_payment` says how)."
    )
    short_payment: Literal["refused", "capped"] = Field(
        "refused",
        description="Without debts (`allow_debt: false`): `refused`: a call is offered only if every stack it may "
        "charge (the caller's, forced helpers', an overridden declarer's) covers the most it can cost; `capped`: "
        "every call is offered and a payment larger than what the player has (stack and locked chips) is cut to "
        "what he has. Either way a payment nobody chose (an instant win's) is capped.",
    )
    min_stack: int | None = Field(
        None, ge=0, le=MAX_UNITS,
        description="Base stakes a player must hold to be dealt a deal (null: no minimum); without debts every "
        "player must also be able to pay each ante in full. If one cannot, the session ends.",
    )
    table: TableRules = Field(
        default_factory=TableRules, description="How a session runs: first dealer, joining, ending."
    )
    notes: list[Localized] = Field(
        default_factory=list,
        description="Table rules the engine does not play (who deals first, snacks, a cap): text per language, "
        "printed in their own box on the sheet and listed by `khrap diff`.",
    )
    terms: dict[Id, Annotated[dict[TermWord, TermWord], Field(max_length=MAX_TERMS)]] = Field(
        default_factory=dict, max_length=MAX_ITEMS,
        description="The game's own words for the roles, per language: each general word "
        "(or, for an inflected language, its stem) and the word put in its place, e.g. "
        "`{ru: {храпящ: фрапующ, помогающ: вистующ}}`. Its rule sheet, game log, terminal, table page and analysis "
        "report say them, each put in once (one pass, longest first: a word put in is never replaced again).",
    )
