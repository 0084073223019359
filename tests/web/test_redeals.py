"""A deal of many all-pass redeals at a web table: the decks are made from the deal's seed a few at a time
(``DEAL_DECKS`` when it begins, more as redeals use them), so every deck it deals is the seed's next one, and
the table restored from the store mid-deal stands exactly where it stood."""

from __future__ import annotations

from pathlib import Path

from khrap.cards import cards_str
from khrap.fairness import deck_from_seed
from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import DEAL_DECKS, Table
from tests.web.conftest import fixed_seeds


def test_a_deal_of_many_redeals_deals_the_seeds_decks_and_restores(tmp_path: Path) -> None:
    store = Store(tmp_path / "tables.sqlite")
    host = Host(store, takeover_seconds=1e12)
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1, bots={},
                         deals=1, seed_source=fixed_seeds("redeals"))
    host.add(table)
    table.start_deal()
    store.started(table)
    dealt = table.session.state.decks_dealt
    while len(dealt) < 3 * DEAL_DECKS + 4:  # everybody passes: the deal is dealt again with the seed's next deck
        legal = [str(a) for a in table.session.legal_actions()]
        assert "pass" in legal and table.in_deal
        host.apply(table, table.session.to_act, "pass", "human")
    seed = table.current.seed
    assert [cards_str(d) for d in dealt] == \
        [cards_str(deck_from_seed(table._canonical, seed, i)) for i in range(len(dealt))]
    again = store.load(table.id)
    assert again.step == table.step and again.session.to_act == table.session.to_act
    for seat in range(4):
        assert again.view(seat)["obs"] == table.view(seat)["obs"]  # the same hands, turn and table
    assert [str(a) for a in again.session.legal_actions()] == [str(a) for a in table.session.legal_actions()]
