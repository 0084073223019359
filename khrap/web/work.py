"""Work on a stranger's rule file, off the event loop: in a worker process with a time and a memory
limit, its results cached by content.

Checking a house-rule file and rendering a rule sheet take from milliseconds to seconds and are the
only work a request can make large; done on the event loop they would stall every table.  Here they
run in one worker process (spawned, so no lock or socket of the server is inherited) whose address
space is capped (``MEMORY_BYTES``) and whose every job is stopped after ``SECONDS`` of CPU time (a
profiling timer in the worker: the same file is stopped at the same point whatever the machine's load;
the server kills and replaces a worker that does not answer at all).
A job that fails says so in one sentence; the server stays responsive throughout.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import logging
import multiprocessing
import signal
from collections import OrderedDict
from typing import Any

SECONDS = 20.0
"""CPU time one job may take in the worker (a built-in's sheet takes well under a second)."""
MEMORY_BYTES = 1536 * 1024 * 1024
"""Address space of the worker process (the interpreter and khrap take about 150 MiB of it)."""
CACHED = 512
"""Results kept per kind of job (the most recently used)."""


class WorkFailed(Exception):
    """A job that did not finish in time or memory: one sentence."""


class _Timeout(BaseException):
    pass


def _limit() -> None:
    """In the worker, once: cap its memory; SIGPROF (the CPU-time timer) stops a job that runs too long."""
    import resource

    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))

    def alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    signal.signal(signal.SIGPROF, alarm)


def _timed(seconds: float, function: Any, *args: Any) -> tuple[str, Any]:
    """Run one job in the worker under the CPU-time limit: ("ok", result) or ("failed", sentence)."""
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return "ok", function(*args)
    except _Timeout:
        return "failed", f"the work took more than {seconds:g} s of processor time and was stopped"
    except MemoryError:
        return "failed", f"the work needed more than {MEMORY_BYTES // 2**20} MiB and was stopped"
    except RecursionError:
        return "failed", "the work nested too deep and was stopped"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def check_text(text: str, lang: str = "en") -> dict:
    """A house-rule file checked in the loader's upload mode: ``{"ok": True, "rules": ..., "title": ...,
    "players": [min, max], "base_stake": n, "min_stack": n or None}`` or ``{"ok": False, "errors": [...]}``
    (``min_stack``: the base stakes a player needs to be dealt in, which the create page's chips each start at)."""
    from khrap.web.app import check_upload

    variant, errors = check_upload(text, lang)
    if variant is None:
        return {"ok": False, "errors": errors}
    return {"ok": True, "rules": variant.model_dump(mode="json"), "title": variant.name,
            "players": [variant.players.min, variant.players.max], "base_stake": variant.base_stake,
            "min_stack": variant.min_stack}


def render_sheet(setup: dict, lang: str) -> str:
    from khrap.web.app import _sheet_of

    return _sheet_of(setup, lang)


class Worker:
    """One worker process for untrusted work, and the results cached by content."""

    def __init__(self, seconds: float = SECONDS) -> None:
        self.seconds = seconds
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.cache: dict[str, OrderedDict[str, Any]] = {}
        self.lock = asyncio.Lock()  # made here, bound to the server's loop when first used

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self.pool is None:
            self.pool = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_limit)
        return self.pool

    def _kill(self) -> None:
        """A worker that does not answer: killed, and the next job starts a new one."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        for process in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._kill()

    async def run(self, kind: str, function: Any, *args: Any) -> Any:
        """``function(*args)`` in the worker, or its cached result for the same ``kind`` and arguments;
        WorkFailed with a sentence when it runs out of time or memory."""
        key = hashlib.sha256(json.dumps([kind, args], sort_keys=True, default=str).encode(
            "utf-8", "surrogatepass")).hexdigest()
        cache = self.cache.setdefault(kind, OrderedDict())
        if key not in cache:
            async with self.lock:  # one job at a time: the worker is one process
                if key not in cache:
                    status, result = await self._job(function, args)
                    if status != "ok":  # not cached: the client's rate limit bounds the retries
                        raise WorkFailed(result)
                    cache[key] = result
                    while len(cache) > CACHED:
                        cache.popitem(last=False)
        cache.move_to_end(key)
        return cache[key]

    async def _job(self, function: Any, args: tuple) -> tuple[str, Any]:
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._pool(), _timed, self.seconds, function, *args)
            # the worker stops the job itself after ``seconds`` of CPU; this is for a worker that is gone or
            # stuck where a signal cannot reach (a long call in C), with room for its start and a busy machine
            return await asyncio.wait_for(future, self.seconds * 6 + 60)
        except (TimeoutError, concurrent.futures.process.BrokenProcessPool) as err:
            logging.getLogger("khrap.web").error("the worker did not answer (%s): replaced", type(err).__name__)
            self._kill()
            raise WorkFailed("the work could not be done now; try again") from None  # not cached


__all__ = ["CACHED", "MEMORY_BYTES", "SECONDS", "WorkFailed", "Worker", "check_text", "render_sheet"]
