"""Running a spec's chunks on this machine: in this process, or on a pool of worker processes."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, as_completed, wait
from typing import TypeVar

from khrap.sim.runner import ChunkResult, Progress, SimSpec, play_chunk

T = TypeVar("T")


def default_workers() -> int:
    """Every core of this machine."""
    return os.cpu_count() or 1


def process_context() -> multiprocessing.context.BaseContext:
    """How worker processes start: forked from this process on Linux while it runs no other thread, else forked
    from a clean server with khrap's simulation already imported (no threads copied), or spawned where there is
    no forkserver.

    A fork copies this process as it is: a worker starts with every module it has imported and everything it has
    worked out (the variants' rules, the bots' constants), and no other process starts beside the workers.  From
    the fork server, each worker imported again what its task named and the command's own script (``khrap.cli``),
    and the server and its resource tracker were two processes more: an analysis on two workers spent 3.8 G
    instructions more over its process tree than on one, where forked workers spend 0.5 G more (docs/simulate.md,
    issue 29).  A fork copies only the thread that forks, so that a lock another thread holds would stay held in
    the worker: a process running other threads (a progress bar, a server, a test runner's) uses the fork
    server."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["khrap.sim.runner", "khrap.sim.paired"])
        return ctx
    return multiprocessing.get_context("spawn")


def _ready(_: int) -> int:
    return os.getpid()


class LocalWorkers:
    """``workers`` processes of this machine (1: this process), started once and reused for several runs.

    Use it as a context manager; ``startup`` is the time it took to start the processes.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or default_workers())
        self.startup = 0.0
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        if self.workers > 1 and self._pool is None:
            started = time.perf_counter()
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=process_context())
            list(self._pool.map(_ready, range(self.workers)))  # start every process before the clock runs
            self.startup = time.perf_counter() - started

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> LocalWorkers:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, spec: SimSpec, keep_records: bool = False,
            progress: Progress | None = None) -> tuple[list[ChunkResult], int]:
        """Every chunk's result (in the order they finished) and the number of processes that played them."""
        chunks = spec.chunks()
        results: list[ChunkResult] = []
        if self.workers == 1 or len(chunks) == 1:
            for index, _ in chunks:
                results.append(play_chunk(spec, index, keep_records))
                if progress:
                    progress(results[-1].deals)
            return results, 1
        self.start()
        indexes = [index for index, _ in chunks]
        size = batch_size(len(chunks), self.workers)
        futures = [self._pool.submit(play_chunks, spec, indexes[i:i + size], keep_records)
                   for i in range(0, len(indexes), size)]
        for future in as_completed(futures):
            for result in future.result():
                results.append(result)
                if progress:
                    progress(result.deals)
        return results, min(self.workers, len(chunks))


    def stream(self, spec: SimSpec, keep_records: bool = False,
               progress: Progress | None = None) -> tuple[Iterator[ChunkResult], int]:
        """Every chunk's result as it finishes (an iterator), and the number of processes that play them.
        At most two tasks a process are in flight, and a finished one is let go once read: what a run
        holds does not grow with its number of deals (``runner.merge`` folds each result in as it comes)."""
        chunks = spec.chunks()
        if self.workers == 1 or len(chunks) == 1:
            def here() -> Iterator[ChunkResult]:
                for index, _ in chunks:
                    result = play_chunk(spec, index, keep_records)
                    if progress:
                        progress(result.deals)
                    yield result
            return here(), 1
        self.start()
        indexes = [index for index, _ in chunks]
        size = batch_size(len(chunks), self.workers)
        batches = iter([indexes[i:i + size] for i in range(0, len(indexes), size)])

        def there() -> Iterator[ChunkResult]:
            running = set()
            for batch in itertools.islice(batches, 2 * self.workers):
                running.add(self._pool.submit(play_chunks, spec, batch, keep_records))
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    batch = next(batches, None)
                    if batch is not None:
                        running.add(self._pool.submit(play_chunks, spec, batch, keep_records))
                    for result in future.result():
                        if progress:
                            progress(result.deals)
                        yield result

        return there(), min(self.workers, len(chunks))

    def map_tasks(self, fn: Callable[..., T], tasks: Sequence[tuple]) -> Iterator[T]:
        """``fn(*task)`` for every task, here or on the processes, yielded as they finish (at most two a
        process in flight)."""
        if self.workers == 1 or len(tasks) == 1:
            for task in tasks:
                yield fn(*task)
            return
        self.start()
        # at most two tasks a process in flight, each let go once read (a run's memory does not grow with it)
        waiting = iter(tasks)
        running = {self._pool.submit(fn, *task) for task in itertools.islice(waiting, 2 * self.workers)}
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                task = next(waiting, None)
                if task is not None:
                    running.add(self._pool.submit(fn, *task))
                yield future.result()


def batch_size(chunks: int, workers: int) -> int:
    """Chunks per task: about ``BATCHES_PER_WORKER`` tasks a worker, so that a task's round trip (the spec
    sent, the statistics sent back) is paid a few times per worker, not once per chunk of 100 deals,
    while the progress bar still moves and a slow task does not leave the other workers idle long."""
    return max(1, chunks // (workers * BATCHES_PER_WORKER))


BATCHES_PER_WORKER = 8


def play_chunks(spec: SimSpec, indexes: list[int], keep_records: bool = False) -> list[ChunkResult]:
    """Several chunks in one task, each exactly as ``play_chunk`` plays it alone."""
    return [play_chunk(spec, index, keep_records) for index in indexes]


__all__ = ["LocalWorkers", "batch_size", "default_workers", "play_chunks", "process_context"]
