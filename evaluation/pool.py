"""The one worker pool: chunks of games on spawned processes, with a progress bar.

Every task is a picklable tuple for a top-level function that returns a list (of games); the
results come back in completion order, so callers sort them (a game's result never depends on
which worker played it). ``spawn`` gives clean workers on every platform (no fork of a threaded
parent). A worker that cannot start, or dies, stops the whole pool with :class:`WorkerError` (the
usual cause: a script that calls ``tournament(..., workers > 1)`` without an
``if __name__ == "__main__":`` guard, which every spawned worker re-imports); it is never respawned.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from mythzoo.threads import one_blas_thread_in_workers


class WorkerError(RuntimeError):
    """A worker process could not start or died: the pool is stopped, the games not yet done are dropped."""


WORKER_ERROR = ("a worker process could not start or died, so the pool was stopped; if this runs from a script, put the call "
                "under `if __name__ == \"__main__\":` (each spawned worker imports the script), or use workers=1")

GAMES_PER_WORKER = 20  # starting a worker costs about a second: not for a few games


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def default_workers(games: int | None = None) -> int:
    """One worker per available core; with ``games``, no more than one per ``GAMES_PER_WORKER`` games."""
    cores = available_cores()
    return cores if games is None else max(1, min(cores, games // GAMES_PER_WORKER))


def chunk_size(games: int, workers: int) -> int:
    """Games per task: about four tasks per worker, at most 25 games each."""
    return max(1, min(25, games // (4 * workers) or 1))


def run_tasks(
    fn: Callable[[Any], list[Any]],
    tasks: Sequence[Any],
    workers: int,
    *,
    total: int,
    desc: str,
    progress: bool = True,
) -> list[Any]:
    """``fn(task)`` for every task, on ``workers`` processes (in this one for 1), concatenated in
    completion order; a bar counts ``total`` items on stderr unless ``progress`` is false."""
    from mythzoo.progress import progress_bar

    out: list[Any] = []
    with progress_bar(total, desc, "game", file=sys.stderr, disable=not progress) as bar:
        if workers == 1:
            for task in tasks:
                done = fn(task)
                out += done
                bar.update(len(done))
        else:
            # concurrent.futures, not multiprocessing.Pool: a worker that exits (one that fails while
            # starting included) breaks the executor at once, where a Pool would start it again forever.
            ctx = multiprocessing.get_context("spawn")
            with one_blas_thread_in_workers(), ProcessPoolExecutor(workers, mp_context=ctx) as pool:
                futures = [pool.submit(fn, task) for task in tasks]
                try:
                    for future in as_completed(futures):
                        done = future.result()
                        out += done
                        bar.update(len(done))
                except BrokenProcessPool:
                    raise WorkerError(WORKER_ERROR) from None
                finally:
                    for future in futures:
                        future.cancel()
    return out
