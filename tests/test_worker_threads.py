"""Worker processes (tournaments, self-play) start with one BLAS thread; the parent's environment is left as it was."""

from __future__ import annotations

import os

import pytest

from mythzoo.evaluation.pool import run_tasks
from mythzoo.threads import BLAS_THREAD_VARS, one_blas_thread_in_workers, one_blas_thread_pool


def _blas_vars(task: int) -> list[tuple[int, dict[str, str | None]]]:
    return [(task, {k: os.environ.get(k) for k in BLAS_THREAD_VARS})]


def test_the_block_sets_one_thread_and_restores_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    with one_blas_thread_in_workers():
        assert all(os.environ[k] == "1" for k in BLAS_THREAD_VARS)
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4" and "MKL_NUM_THREADS" not in os.environ


def test_tournament_workers_start_with_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    out = run_tasks(_blas_vars, [0, 1, 2], workers=2, total=3, desc="probe", progress=False)
    assert sorted(t for t, _ in out) == [0, 1, 2]
    assert all(v == {k: "1" for k in BLAS_THREAD_VARS} for _, v in out)
    assert os.environ["OPENBLAS_NUM_THREADS"] == "2"


def test_a_benchmark_s_pool_spawns_its_workers_with_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The design reports' pool: spawned, not forked (a fork keeps the parent's BLAS threads), one BLAS
    thread in every worker, the parent's environment as it was."""
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    pool = one_blas_thread_pool(2)
    try:
        out = [r for rs in pool.map(_blas_vars, [0, 1, 2]) for r in rs]
        pids = set(pool.map(_pid, range(4)))
    finally:
        pool.close()
        pool.join()
    assert sorted(t for t, _ in out) == [0, 1, 2]
    assert all(v == {k: "1" for k in BLAS_THREAD_VARS} for _, v in out)
    assert os.getpid() not in pids and os.environ["OPENBLAS_NUM_THREADS"] == "2"


def _pid(_: int) -> int:
    return os.getpid()
