"""The one worker pool: chunks of games on spawned processes, with a progress bar.

Every task is a picklable tuple for a top-level function that returns a list (of games); the
results come back in completion order, so callers sort them (a game's result never depends on
which worker played it). ``spawn`` gives clean workers on every platform (no fork of a threaded
parent).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

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
    from tqdm import tqdm

    out: list[Any] = []
    with tqdm(total=total, unit="game", desc=desc, dynamic_ncols=True, disable=not progress, file=sys.stderr) as bar:
        if workers == 1:
            for task in tasks:
                done = fn(task)
                out += done
                bar.update(len(done))
        else:
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(workers) as pool:
                for done in pool.imap_unordered(fn, tasks):
                    out += done
                    bar.update(len(done))
    return out
