"""Running a spec's chunks on this machine: in this process, or on a pool of worker processes."""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from khrap.sim.runner import ChunkResult, Progress, SimSpec, play_chunk


def default_workers() -> int:
    """Every core of this machine."""
    return os.cpu_count() or 1


def _context() -> multiprocessing.context.BaseContext:
    # forkserver: workers fork from a clean server with khrap already imported (no threads copied);
    # spawn where there is no forkserver.
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["khrap.sim.runner"])
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
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=_context())
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
        futures = [self._pool.submit(play_chunk, spec, index, keep_records) for index, _ in chunks]
        for future in as_completed(futures):
            results.append(future.result())
            if progress:
                progress(results[-1].deals)
        return results, min(self.workers, len(chunks))


__all__ = ["LocalWorkers", "default_workers"]
