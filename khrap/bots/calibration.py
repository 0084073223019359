"""The heuristic's fitted constants, per variant, read from a data file (``calibration.yaml``).

``benchmarks/calibrate.py`` writes the file from logged self-play outcomes; the
bots only read it.  An entry is found for a variant by its fingerprint (a hash
of the resolved rules), else by a built-in it derives from (the same deck,
hand size and stages: a house rule keeps its parent's constants), else the
defaults below.  No variant is named in this module: entries are data.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from pathlib import Path

import yaml

from khrap.variant.schema import Variant

PATH = Path(__file__).with_name("calibration.yaml")


@dataclass(frozen=True)
class Constants:
    """The value model's free constants (see docs/bots.md, "Calibration")."""

    sharpen: float = 1.25  # a card's trick chance p counts as p ** sharpen (certain winners stay certain)
    undecided: float = 0.6  # the share of a seat's cards counted against us while it may still play
    contest: float = 0.25  # a helper's extra worth per chip of pot: a declarer left alone takes it all
    alone: float = 1.0  # how far a declarer trusts his estimate that every seat that may join him passes
    declarer: float = 0.0  # the sharpening of a declaring call's chances (0: ``sharpen``)
    helper: float = 0.0  # the sharpening of a helper call's chances (0: ``sharpen``)
    caution: float = 1.0  # a declaring call's sharpening times this: a margin tuned by duplicate matches
    pot_share: float = -1.0  # a seat's worth per chip left in the pot at a deal's end (the search's); < 0: 1/n
    # The search's evidence from the calls (``SearchBot.likelihood``): a deal's weight for a seat that took on
    # an obligation is exp(called_slope * (x + called_margin)), x its hand's expected tricks less the obligation;
    # for a seat that passed, exp(passed_slope * (x + passed_margin)), x less the least obligation.  Fitted by
    # ``calibrate.py --bidding-only`` as the log ratio of the callers' real hands to the hands sampled for them.
    # The search's fewest effective samples to override the heuristic (``SearchBot._pick``): a call's gains are
    # skewed (a rare failure pays a pot) and few samples often miss the failure; set from duplicate matches.
    min_effective: float = 15.0
    # The search's gate (``SearchBot.choose``): a call whose value by the heuristic's own estimate leads every other
    # call by more than this many chips is not searched (0: every call is).  Set from the search's overrides as
    # a function of that lead, logged over many decisions (docs/solver.md, "The gate, and the normal bot's hand
    # model compiled").
    call_gate: float = 0.0
    # The same for the card play: a card decision with more than this many cards in the seat's hand is not
    # searched (0: every one is).  The first tricks cost the search most (the solver plays every card left) and
    # are where it overrides the heuristic least: set from the overrides and their estimated gains, logged by
    # kind of decision (docs/solver.md, "The normal bot's decisions and the copy compiled; the first trick's
    # cards gated").
    play_gate: float = 0.0  # (read as a float, as every constant)
    # The same for a discard (a card put away after a draw): one with more than this many cards in the seat's hand
    # stands as the heuristic chooses it (0: every one is searched).  Set from the overrides by kind of decision
    # (docs/solver.md, "Same choices, fewer instructions; the gates from the logged decisions").
    discard_gate: float = 0.0
    # The search's early stop at an exchange (``SearchBot._sample``): once a rival of the heuristic's exchange clears
    # this many times the bar it must clear to be chosen (``critical`` standard errors, on at least
    # ``min_effective`` effective samples), the sampling stops and the rival is chosen as at the end (0: an exchange
    # samples to its budget or until the race drops every rival).  Set from every exchange of many deals, recorded
    # sample by sample, and a duplicate match (docs/solver.md, "The exchange's early stop").
    exchange_stop: float = 0.0
    # The same stop at a call (any decision before the card play but an exchange: ``SearchBot._sample``): a call's
    # gains are skewed (a rare failure pays a pot), so its factor is set higher, from every searched call of many
    # deals recorded sample by sample, the rule replayed on them (docs/solver.md, "The calls' stop").  0: none.
    call_stop: float = 0.0
    # The race's start (``SearchBot._race``): from this many samples on, a rival of the heuristic's choice that
    # cannot win is dropped (0: ``search.RACE_FROM``); and after this many a decision whose work left cannot reach
    # ``min_effective`` samples stops (0: ``search.PACE_FROM``).  Set from the recorded samples, as the stops.
    race_from: float = 0.0
    pace_from: float = 0.0
    called_slope: float = 2.0
    called_margin: float = 0.5
    passed_slope: float = -0.5
    passed_margin: float = 0.5

    def exponent(self, status: str | None = None) -> float:
        """The sharpening for the chances of a call giving ``status`` (None: the play's)."""
        own = getattr(self, status, 0.0) if status in ("declarer", "helper") else 0.0
        return (own or self.sharpen) * (self.caution if status == "declarer" else 1.0)

    @classmethod
    def from_data(cls, data: dict) -> Constants:
        names = {f.name for f in fields(cls)}
        return cls(**{k: float(v) for k, v in data.items() if k in names})

    def data(self) -> dict:
        return {k: round(v, 4) for k, v in asdict(self).items()}


DEFAULTS = Constants()


def fingerprint(variant: Variant) -> str:
    """A short hash of the resolved rules: any rule change gives another fingerprint."""
    return hashlib.sha256(variant.model_dump_json().encode()).hexdigest()[:16]


def family(variant: Variant) -> str:
    """What a house rule shares with the variant it extends: deck, hand size and stages."""
    shape = {"deck": variant.deck.model_dump(mode="json"), "hand": variant.hand_size,
             "stages": [(s.id, s.kind) for s in variant.stages]}
    return hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()[:16]


@lru_cache(maxsize=4)
def _entries(path: str) -> tuple[dict, ...]:
    file = Path(path)
    if not file.exists():
        return ()
    data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    return tuple(data.get("variants", []))


def constants_for(variant: Variant, path: Path | None = None) -> Constants:
    """The fitted constants for ``variant`` (its own entry, its parent's, or the defaults)."""
    entries = _entries(str(path or PATH))
    own = fingerprint(variant)
    for entry in entries:
        if entry.get("fingerprint") == own:
            return Constants.from_data(entry.get("constants", {}))
    kin = family(variant)
    for entry in entries:
        if entry.get("family") == kin:
            return Constants.from_data(entry.get("constants", {}))
    return DEFAULTS
