"""Sessions, records and replays: the Python API of khrap (see docs/api.md).

    from khrap.session import Session
    game = Session("khrap", players=4, seed=7)
    game.start_deal()
    game.legal_words()          # ['khrap', 'pass', ...] for the seat to act
    game.apply("khrap")
    restored = Session.from_record(game.to_record())
"""

from khrap.engine import Action, IllegalAction
from khrap.session.core import Session, complete_deck
from khrap.session.record import RecordError, load_record, replay_record, save_record
from khrap.variant.catalog import load_variant

__all__ = [
    "Action",
    "IllegalAction",
    "RecordError",
    "Session",
    "complete_deck",
    "load_record",
    "load_variant",
    "replay_record",
    "save_record",
]
