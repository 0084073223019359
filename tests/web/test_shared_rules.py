"""Tables of the same rules and players share one ``Rules`` (and its compiled program), and one table's play
changes nothing of another's (issue 32: an idle table's memory; ``engine.rules.shared_rules``).

The expected values are the rules themselves: a table made after another played a deal is the table made
before it, view for view, and plays the same deal to the same chips."""

from __future__ import annotations

import gc
import random

from khrap.engine.rules import shared_rules
from khrap.session import Session
from khrap.variant.catalog import builtin
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds


def _table(name: str = "khrap", players: int = 4, base_stake: int = 1) -> Table:
    """A table of people only, its seeds, its first dealer and its session's seed fixed."""
    return Table.create(builtin(name), name=name, source=None, players=players, stacks=100, base_stake=base_stake,
                        bots={}, deals=3, seed_source=fixed_seeds("shared"), session_seed=11, dealer=0)


def _seen(table: Table) -> list:
    """What every seat and a spectator may see, and what the seat to act may do."""
    views = [table.view(seat, "en") for seat in (*range(table.players), None)]
    for view in views:
        view["table"] = {k: v for k, v in view["table"].items() if k != "id"}  # (each table's own, at random)
    return [views, table.session.legal_words(), table.session.stacks, table.session.pot]


def _play_deal(table: Table, rng: random.Random) -> list[str]:
    """One deal played to its settlement with ``rng``'s choices among the legal words; the actions made."""
    table.start_deal()
    made = []
    while table.in_deal:
        seat = table.session.to_act
        words = [w for w in table.session.legal_words() if w not in ("exchange", "discard", "trump")]
        made.append(table.apply(seat, rng.choice(words) if words else table.bot_action(seat, "easy")))
    return made


def test_tables_of_the_same_rules_and_players_share_one_rules() -> None:
    a, b = _table(), _table()
    assert a.session.rules is b.session.rules
    assert a.session.state.program is b.session.state.program
    assert a.session.state is not b.session.state and a.session.state.hands is not b.session.state.hands
    # Other players, or other rules (the base stake is a rule), are other Rules.
    assert _table(players=3).session.rules is not a.session.rules
    assert _table(base_stake=2).session.rules is not a.session.rules
    # A session of an equal variant, another object, shares them too (the key is the content, not the object).
    assert Session(builtin("khrap").model_copy(deep=True), 4).rules is Session("khrap", 4).rules


def test_one_tables_play_changes_nothing_of_another() -> None:
    before = _table()
    seen_before = _seen(before)
    played = _table()
    actions = _play_deal(played, random.Random(5))
    assert len(actions) > 4 and played.session.rules is before.session.rules
    # The table made before the other's deal, and one made after it, see and may do what they saw before it.
    after = _table()
    assert _seen(before) == seen_before
    assert _seen(after) == seen_before
    # And each plays the same deal to the same chips as the first did.
    for table in (before, after):
        assert _play_deal(table, random.Random(5)) == actions
        assert table.session.stacks == played.session.stacks and table.session.pot == played.session.pot
        assert _seen(table) == _seen(played)


def test_the_shared_rules_are_kept_for_the_newest_pairs_only(monkeypatch) -> None:
    from khrap.engine import rules as module

    monkeypatch.setattr(module, "SHARED_LIMIT", 2)
    monkeypatch.setattr(module, "_SHARED", type(module._SHARED)())
    khrap = builtin("khrap")
    three, four = shared_rules(khrap, 3), shared_rules(khrap, 4)
    assert shared_rules(khrap, 3) is three  # asked for again: the newest now
    five = shared_rules(khrap, 5)  # the third pair: the least recently asked for (four players) goes
    assert list(module._SHARED.values()) == [three, five]
    assert shared_rules(khrap, 4) is not four and shared_rules(khrap, 5) is five


def test_making_a_table_leaves_no_cyclic_garbage() -> None:
    """``khrap serve`` keeps the cyclic collector off between its hourly passes (``keep_collections_short``), so
    what making a table drops in cycles stays in memory: a throwaway session made for the deck left some 590
    objects a table (107 KB of the 180 KB an idle table cost).  Five tables, and their "play again" tables."""
    _table()  # (the rules shared, their variant validated: made once)
    gc.collect()
    gc.disable()
    try:
        tables = [_table() for _ in range(5)]
        tables += [table.again() for table in tables]
        left = gc.collect()
    finally:
        gc.enable()
    assert len(tables) == 10 and left < 10  # (a few for whatever else the process did meanwhile; 0 when alone)
