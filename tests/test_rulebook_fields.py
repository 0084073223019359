"""Every field of the variant schema shows in the rule sheet: change the field, and the sheet changes.

The fields are enumerated from the schema itself (khrap.rulebook.reference.schema_fields), so a new
field fails `test_every_field_is_covered` until it has a mutation here (and a sentence in the
templates) or is listed in NOT_IN_TEXT with the reason it does not change the rules text.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from khrap.rulebook.reference import schema_fields
from khrap.rulebook.sheet import render_rules
from khrap.variant.catalog import builtin
from khrap.variant.checks import semantic_issues
from khrap.variant.schema import Variant

NOT_IN_TEXT = {
    "stages[].id": "a stage's id only names it for skip_stages; the sheet numbers the steps instead",
    "statuses": "its keys are fixed (declarer, helper); what they hold is covered by statuses.*.*",
    "instant_wins.*.description": "free text that does not change play; the sheet words the rule from its fields",
}

Path = tuple[Any, ...]
MERRY_KEEPS_NONE = {("calls", "merry", "effects", "keep"): [], ("calls", "merry", "effects", "draw"): 5}
# field path -> (built-in variant to start from, where in it, the new value[, other changes]).  The other
# changes, made before and after, keep the changed variant valid (a draw that must still make a hand...).
MUTATIONS: dict[str, tuple] = {
    "name": ("khrap", ("name",), {"en": "Changed", "ru": "Изменено"}),
    "description": ("khrap", ("description",), {"en": "Changed.", "ru": "Изменено."}),
    "players.min": ("khrap", ("players", "min"), 3),
    "players.max": ("khrap", ("players", "max"), 4),
    "hand_size": ("snore", ("hand_size",), 4, {("calls", "cut", "effects", "draw"): 5}),
    "deck.ranks": ("khrap", ("deck", "ranks"), ["5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]),
    "deck.by_players": ("frap", ("deck", "by_players"), "drop-first"),
    "deck.by_players[].up_to": ("frap", ("deck", "by_players", 0, "up_to"), 3),
    "deck.by_players[].ranks": ("frap", ("deck", "by_players", 0, "ranks"), ["8", "9", "T", "J", "Q", "K", "A"]),
    "base_stake": ("khrap", ("base_stake",), 2),
    "ante.amount": ("khrap", ("ante", "amount"), 2),
    "ante.when": ("khrap", ("ante", "when"), "empty_pot"),
    "trump.source": ("snore", ("trump", "source"), "turned", {("stages",): "snore-without-name-trump"}),
    "all_pass.rounds": ("khrap", ("all_pass", "rounds"), 2),
    "all_pass.turn_up": ("khrap", ("all_pass", "turn_up"), False),
    "all_pass.round_ante": ("khrap", ("all_pass", "round_ante"), 1),
    "all_pass.last_ante": ("khrap", ("all_pass", "last_ante"), 2),
    "all_pass.redeal_ante": ("khrap", ("all_pass", "redeal_ante"), "normal"),
    "statuses.*.tricks": ("khrap", ("statuses", "declarer", "tricks"), 3),
    "statuses.*.stake.base": ("khrap", ("statuses", "declarer", "stake", "base"), 3),
    "statuses.*.stake.pots": ("khrap", ("statuses", "declarer", "stake", "pots"), 1),
    "statuses.*.locked": ("khrap", ("statuses", "declarer", "locked"), True),
    "overridden_becomes": ("khrap", ("overridden_becomes",), "out"),
    "calls": ("khrap", ("calls",), "drop-sad"),
    "calls.*.name": ("khrap", ("calls", "khrap", "name"), {"en": "Snort", "ru": "Фырк"}),
    "calls.*.description": ("khrap", ("calls", "khrap", "description"), {"en": "Changed.", "ru": "Изменено."}),
    "calls.*.enabled": ("khrap", ("calls", "sad", "enabled"), False),
    "calls.*.requires.declarer": ("khrap", ("calls", "help", "requires", "declarer"), "any"),
    "calls.*.requires.dealer": ("khrap", ("calls", "help", "requires", "dealer"), True),
    "calls.*.requires.blind": ("khrap", ("calls", "help", "requires", "blind"), True),
    # merry keeps no card there: a kept card must be one it requires
    "calls.*.requires.holds": ("khrap", ("calls", "merry", "requires", "holds"), [], MERRY_KEEPS_NONE),
    "calls.*.requires.holds[].rank": ("khrap", ("calls", "merry", "requires", "holds", 0, "rank"), "K",
                                      MERRY_KEEPS_NONE),
    "calls.*.requires.holds[].suit": ("khrap", ("calls", "merry", "requires", "holds", 0, "suit"), "H",
                                      MERRY_KEEPS_NONE),
    "calls.*.requires.min_trumps": ("khrap", ("calls", "help", "requires", "min_trumps"), 1),
    "calls.*.requires.max_trumps": ("khrap", ("calls", "help", "requires", "max_trumps"), 3),
    "calls.*.requires.turned_rank": ("khrap", ("calls", "wrap", "requires", "turned_rank"), "K"),
    "calls.*.effects.status": ("khrap", ("calls", "help", "effects", "status"), "out"),
    "calls.*.effects.override": ("khrap", ("calls", "merry", "effects", "override"), False,
                                 {("calls", "merry", "requires", "declarer"): "absent"}),
    "calls.*.effects.forces_others": ("khrap", ("calls", "khrap", "effects", "forces_others"), True),
    "calls.*.effects.ends_stage": ("khrap", ("calls", "khrap", "effects", "ends_stage"), True),
    "calls.*.effects.skip_stages": ("khrap", ("calls", "helicopter", "effects", "skip_stages"), ["fives"]),
    "calls.*.effects.when": ("khrap", ("calls", "take-five", "effects", "when"), "exchange"),
    "calls.*.effects.keep": ("khrap", ("calls", "merry", "effects", "keep"), [],
                             {("calls", "merry", "effects", "draw"): 5}),
    # merry requires the card it keeps, changed the same way
    "calls.*.effects.keep[].rank": ("khrap", ("calls", "merry", "effects", "keep", 0, "rank"), "K",
                                    {("calls", "merry", "requires", "holds"): [{"rank": "K", "suit": "trump"}]}),
    "calls.*.effects.keep[].suit": ("khrap", ("calls", "merry", "effects", "keep", 0, "suit"), "H",
                                    {("calls", "merry", "requires", "holds"): [{"rank": "A", "suit": "H"}]}),
    # passers keep their hands: take-five without throwing it would leave a thrown hand empty
    "calls.*.effects.discard_hand": ("khrap", ("calls", "take-five", "effects", "discard_hand"), False,
                                     {("calls", "take-five", "effects", "draw"): 1,
                                      ("stages", 0, "out_hands"): "keep"}),
    "calls.*.effects.take_turned": ("khrap", ("calls", "take-five", "effects", "take_turned"), "optional"),
    "calls.*.effects.draw": ("khrap", ("calls", "take-five", "effects", "draw"), 6,
                             {("calls", "take-five", "effects", "then_discard"): 2}),
    "calls.*.effects.then_discard": ("khrap", ("calls", "take-five", "effects", "then_discard"), 2,
                                     {("calls", "take-five", "effects", "draw"): 6}),
    "calls.*.exchange.takes_part": ("khrap", ("calls", "khrap", "exchange", "takes_part"), False),
    # the helicopter must not skip the exchange that a khrap's reserved draws wait for
    "calls.*.exchange.min_discard": ("khrap", ("calls", "khrap", "exchange", "min_discard"), 1,
                                     {("calls", "helicopter", "effects", "skip_stages"): ["fives"]}),
    "calls.*.exchange.max_discard": ("khrap", ("calls", "khrap", "exchange", "max_discard"), 2),
    "calls.*.exchange.draw_extra": ("khrap", ("calls", "khrap", "exchange", "draw_extra"), 1,
                                    {("calls", "khrap", "exchange", "then_discard"): 1}),
    "calls.*.exchange.then_discard": ("khrap", ("calls", "khrap", "exchange", "then_discard"), 1,
                                      {("calls", "khrap", "exchange", "draw_extra"): 1}),
    "stages": ("khrap", ("stages",), "drop-instant-wins"),
    "stages[].kind": ("snore", ("stages", 4, "kind"), "instant_wins", {("trump", "source"): "turned"}),
    "stages[].phase": ("khrap", ("stages", 1, "phase"), "bidding"),
    "stages[].speakers": ("khrap", ("stages", 1, "speakers"), "others"),
    "stages[].start": ("khrap", ("stages", 1, "start"), "dealer_left"),
    "stages[].calls": ("khrap", ("stages", 0, "calls"), ["khrap", "help", "merry", "wrap", "helicopter", "pass"]),
    "stages[].out_hands": ("khrap", ("stages", 1, "out_hands"), "at_end"),
    "stages[].order": ("khrap", ("stages", 2, "order"), [{"statuses": ["declarer"]}, {"statuses": ["helper"]}]),
    "stages[].order[].statuses": ("khrap", ("stages", 2, "order", 0, "statuses"), ["declarer"]),
    "stages[].order[].calls": ("khrap", ("stages", 2, "order", 0, "calls"), ["take-five"]),
    "stages[].order_by_call": ("khrap-shoot", ("stages", 3, "order_by_call"), {}),
    "stages[].order_by_call.*[].statuses": ("khrap-shoot", ("stages", 3, "order_by_call", "shoot", 0, "statuses"),
                                            ["declarer", "helper"]),
    "stages[].order_by_call.*[].calls": ("khrap-shoot", ("stages", 3, "order_by_call", "shoot", 0, "calls"), ["five"]),
    "stages[].max_discard": ("khrap", ("stages", 2, "max_discard"), 3),
    "draw_from": ("khrap", ("draw_from",), "anywhere"),
    "play.follow_suit": ("khrap", ("play", "follow_suit"), False),
    "play.trump_if_void": ("khrap", ("play", "trump_if_void"), False),
    "play.must_beat": ("khrap", ("play", "must_beat"), True),
    "play.must_overtrump": ("khrap", ("play", "must_overtrump"), True),
    "play.first_lead.calls": ("khrap", ("play", "first_lead", "calls"), []),
    "play.lone_declarer_takes_all": ("khrap", ("play", "lone_declarer_takes_all"), False),
    "joker": ("khrap", ("joker",), {"card": "7S", "led_demands": "none"}),
    "joker.card": ("student-snore", ("joker", "card"), "6S"),
    "joker.led_demands": ("student-snore", ("joker", "led_demands"), "trump"),
    "instant_wins": ("khrap", ("instant_wins",), {}),
    "instant_wins.*.name": ("khrap", ("instant_wins", "four-aces", "name"), {"en": "Quads", "ru": "Каре"}),
    "instant_wins.*.enabled": ("khrap", ("instant_wins", "four-aces", "enabled"), False),
    "instant_wins.*.rank": ("khrap", ("instant_wins", "four-aces", "rank"), "K"),
    "instant_wins.*.count": ("khrap", ("instant_wins", "four-aces", "count"), 3),
    "instant_wins.*.payers": ("khrap", ("instant_wins", "four-aces", "payers"), "all"),
    "instant_wins.*.next_ante": ("khrap", ("instant_wins", "four-aces", "next_ante"), "normal"),
    "settlement.trick_share.divisor": ("khrap", ("settlement", "trick_share", "divisor"), 5),
    "settlement.trick_share.statuses": ("khrap", ("settlement", "trick_share", "statuses"), ["helper"]),
    "settlement.trick_share.fulfilled_only": ("khrap", ("settlement", "trick_share", "fulfilled_only"), True),
    "settlement.declarer_prize": ("khrap", ("settlement", "declarer_prize"), ["rest"]),
    "settlement.penalties": ("khrap", ("settlement", "penalties"), []),
    "settlement.penalties[].status": ("khrap", ("settlement", "penalties", 0, "status"), "declarer"),
    "settlement.penalties[].calls": ("khrap", ("settlement", "penalties", 0, "calls"), ["khrap"]),
    "settlement.penalties[].tricks": ("khrap", ("settlement", "penalties", 0, "tricks"), 0),
    "settlement.penalties[].held": ("frap", ("settlement", "penalties", 0, "held"), []),
    "settlement.penalties[].held[].rank": ("frap", ("settlement", "penalties", 0, "held", 0, "rank"), "K"),
    "settlement.penalties[].held[].suit": ("frap", ("settlement", "penalties", 0, "held", 0, "suit"), "S"),
    "settlement.penalties[].pay": ("khrap", ("settlement", "penalties", 0, "pay"), {"base": 3, "pots": 0}),
    "settlement.penalties[].pay.base": ("frap", ("settlement", "penalties", 0, "pay", "base"), 1),
    "settlement.penalties[].pay.pots": ("frap", ("settlement", "penalties", 0, "pay", "pots"), 5),
    "settlement.pot_after": ("khrap", ("settlement", "pot_after"), "carry"),
    "settlement.remainder": ("khrap", ("settlement", "remainder"), "most_tricks"),
    "next_dealer": ("khrap", ("next_dealer",), "declarer"),
    "allow_debt": ("khrap", ("allow_debt",), False),
    # issue 16: a step's own name, the table's session rules and the notes box
    "stages[].name": ("frap", ("stages", 2, "name"), {"en": "Purchase", "ru": "Закупка"}),
    "table.first_dealer": ("khrap", ("table", "first_dealer"), "lowest_card"),
    "table.join": ("khrap", ("table", "join"), "any_time"),
    "table.session_end": ("khrap", ("table", "session_end"), "share_pot"),
    "notes": ("khrap", ("notes",), [{"en": "The loser fetches the snacks.", "ru": "Проигравший несёт закуску."}]),
    "terms": ("khrap", ("terms",), {"en": {"declarer": "khrapper"}, "ru": {"храпящ": "заявивш"}}),
}


def _holds_only_fields(path: str) -> bool:
    """A field whose value is a single model: its meaning is in its own fields, each tested."""
    doc = next(d for d in schema_fields() if d.path == path)
    return doc.composite and not doc.collection and path not in MUTATIONS


def _special(data: dict, how: str) -> Any:
    if how == "drop-sad":
        del data["calls"]["sad"]
        for stage in data["stages"]:
            if "calls" in stage and "sad" in stage["calls"]:
                stage["calls"].remove("sad")
    elif how == "drop-instant-wins":
        data["stages"] = [s for s in data["stages"] if s["kind"] != "instant_wins"]
    elif how == "snore-without-name-trump":
        return [s for s in data["stages"] if s["kind"] != "name_trump"]
    else:  # pragma: no cover
        raise AssertionError(how)
    return None


def _set(data: dict, where: Path, value: Any) -> None:
    target = data
    for step in where[:-1]:
        target = target[step]
    if value == "drop-first":
        value = target[where[-1]][1:]
    elif isinstance(value, str) and value.endswith("-without-name-trump"):
        value = _special(data, value)
    target[where[-1]] = value


def mutated(path: str) -> tuple[Variant, Variant]:
    """The variant before and after the field at ``path`` changes (the changed one must be valid)."""
    name, where, value, *rest = MUTATIONS[path]
    data = builtin(name).model_dump(mode="json")
    for other, other_value in (rest[0] if rest else {}).items():
        _set(data, other, other_value)
    changed = copy.deepcopy(data)
    if isinstance(value, str) and value.startswith("drop-") and value != "drop-first":
        _special(changed, value)
    else:
        _set(changed, where, value)
        assert changed != data, f"{path}: the mutation sets the value it already has"
    variant = Variant.model_validate(changed)
    issues = semantic_issues(variant)
    assert not issues, f"{path}: the changed variant is not valid: {issues[0]}"
    return Variant.model_validate(data), variant


def _pattern(path: str) -> re.Pattern[str]:
    parts = []
    for part in path.split("."):
        name = re.escape(part.replace("[]", ""))
        parts.append(name if name != r"\*" else r"[^/]+")
        parts += [r"\d+"] * part.count("[]")
    return re.compile("/".join(p for p in parts if p))


def test_every_field_is_covered() -> None:
    missing = [
        d.path for d in schema_fields()
        if d.path not in MUTATIONS and d.path not in NOT_IN_TEXT and not _holds_only_fields(d.path)
    ]
    assert not missing, (
        "schema fields with no sentence test; add a mutation to MUTATIONS (and a sentence to "
        "khrap/rulebook/templates/sentences.j2) or list the field in NOT_IN_TEXT with the reason: " + ", ".join(missing)
    )


def test_listed_fields_exist() -> None:
    paths = {d.path for d in schema_fields()}
    assert not (set(MUTATIONS) | set(NOT_IN_TEXT)) - paths


@pytest.mark.parametrize("path", sorted(MUTATIONS))
def test_mutation_points_at_its_field(path: str) -> None:
    where = "/".join(str(step) for step in MUTATIONS[path][1])
    assert _pattern(path).fullmatch(where), f"{path}: the mutation changes {where}"


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("path", sorted(MUTATIONS))
def test_changing_a_field_changes_the_sheet(path: str, lang: str) -> None:
    before, after = mutated(path)
    old = render_rules(before, "txt", lang, example=False)
    new = render_rules(after, "txt", lang, example=False)
    assert old != new, f"changing {path} does not change the {lang} rule sheet"


def test_house_rules_made_of_several_changes_render() -> None:
    """Random combinations of the changes above: each valid one renders in every format, example included."""
    import random

    from khrap.rulebook.render import FORMATS

    rng = random.Random(7)
    by_base: dict[str, list[str]] = {}
    for path, (base, *_rest) in MUTATIONS.items():
        by_base.setdefault(base, []).append(path)
    rendered = 0
    for _ in range(60):
        base = rng.choice(sorted(by_base))
        data = builtin(base).model_dump(mode="json")
        for path in rng.sample(by_base[base], min(3, len(by_base[base]))):
            _, where, value, *rest = MUTATIONS[path]
            try:
                for other, other_value in (rest[0] if rest else {}).items():
                    _set(data, other, other_value)
                if isinstance(value, str) and value.startswith("drop-") and value != "drop-first":
                    _special(data, value)
                else:
                    _set(data, where, value)
            except (KeyError, IndexError, TypeError):
                continue
        try:
            variant = Variant.model_validate(data)
        except ValueError:
            continue
        if semantic_issues(variant):
            continue
        for fmt in FORMATS:
            assert render_rules(variant, fmt, rng.choice(["en", "ru"]))
        rendered += 1
    assert rendered >= 10
