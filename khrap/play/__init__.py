"""The terminal game (`khrap play`): a session against bots, saved and resumed."""

from khrap.play.game import Game, Table, run

__all__ = ["Game", "Table", "run"]
