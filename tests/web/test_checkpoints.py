"""The write-ahead log is copied into the database file by a thread of its own, never by the commit of an
action (a checkpoint waits for the disk: at 1,000 tables one took a second and every table waited, issue 32)."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

from khrap.variant.catalog import builtin
from khrap.web.store import Store
from khrap.web.table import Table


def test_the_log_reaches_the_file_through_the_checkpoint_thread_not_the_commits(tmp_path: Path) -> None:
    path = tmp_path / "khrap.sqlite"
    store = Store(path)
    store.checkpoint_apart(every=0.05)
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0  # no commit checkpoints
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1, bots={},
                         deals=2)
    store.add(table)
    time.sleep(0.5)  # some passes of the thread
    shutil.copy(path, tmp_path / "file-only.sqlite")  # the file without its log
    copy = sqlite3.connect(tmp_path / "file-only.sqlite")
    try:
        assert copy.execute("SELECT id FROM tables").fetchall() == [(table.id,)]  # copied into the file
    finally:
        copy.close()
    store.close()
    assert store._checkpoints is None  # the thread stopped with the store
