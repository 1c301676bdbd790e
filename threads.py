"""Worker processes get one BLAS thread each.

mythzoo's worker processes (tournaments, self-play games) run one per core and make small numpy
matrix products (the networks of opponents, a search's rollouts). OpenBLAS's own threads cost more
than they give there (64 rows through the Mythic Baths champion: 0.5 ms on one thread, 4.4 ms on
two on a 2-core machine), and they spin against the games. BLAS reads its thread count once, when
it loads, so it is set in the environment the spawned workers start with.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import sys
from collections.abc import Iterator
from typing import Any
from contextlib import contextmanager

__all__ = ["BLAS_THREAD_VARS", "one_blas_thread_here", "one_blas_thread_in_workers", "one_blas_thread_pool"]

BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread_here() -> bool:
    """This process loads BLAS with one thread, unless the environment already says how many: for a
    script whose own process searches (``--jobs 1``). It must run before numpy is first imported;
    the return says whether it did (False: numpy was loaded already, and keeps its threads)."""
    for var in BLAS_THREAD_VARS:
        os.environ.setdefault(var, "1")
    return "numpy" not in sys.modules


@contextmanager
def one_blas_thread_in_workers() -> Iterator[None]:
    """Processes started inside this block load BLAS with one thread; the environment is restored after."""
    saved = {k: os.environ.get(k) for k in BLAS_THREAD_VARS}
    os.environ.update({k: "1" for k in BLAS_THREAD_VARS})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def one_blas_thread_pool(processes: int, initializer: Any = None, initargs: tuple = ()) -> multiprocessing.pool.Pool:
    """A ``multiprocessing`` pool whose workers are spawned (not forked: a forked child keeps the
    BLAS its parent loaded, threads and all) inside :func:`one_blas_thread_in_workers`. The
    functions it runs must be importable by the children (module level, not a test's closure)."""
    with one_blas_thread_in_workers():
        return multiprocessing.get_context("spawn").Pool(processes, initializer, initargs)
