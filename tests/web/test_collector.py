"""The server keeps the cyclic collector's passes short (issue 32: with 1,000 tables in memory its full passes
took up to 0.66 s, the p99 of every table): survivors are frozen often, and everything is unfrozen and collected
now and then, so cycles that died among frozen objects are freed."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref

from khrap.web.app import keep_collections_short


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_survivors_are_frozen_and_dead_cycles_are_still_collected() -> None:
    async def run() -> tuple[int, bool, int]:
        kept = Cycle()
        task = asyncio.create_task(keep_collections_short(0.01, collect_seconds=0.2))
        await asyncio.sleep(0.05)
        frozen = gc.get_freeze_count()
        dead = Cycle()
        await asyncio.sleep(0.03)  # frozen while alive
        ref = weakref.ref(dead)
        del dead  # a cycle: reference counting alone never frees it
        await asyncio.sleep(0.4)  # an unfreeze and collect has run since
        alive = ref() is not None
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert kept.me is kept
        return frozen, alive, gc.get_freeze_count()

    gc.unfreeze()
    frozen, alive, after = asyncio.run(run())
    assert frozen > 0  # the objects alive then were set out of the collector's walk
    assert not alive  # a cycle that died after being frozen was freed by the periodic full collection
    assert after == 0  # stopping unfreezes everything
