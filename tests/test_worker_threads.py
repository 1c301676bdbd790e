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


_SPY = """
import os, runpy, sys

class FirstNumpyImport:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" and not getattr(self, "seen", False):
            self.seen = True
            print("numpy loads with OPENBLAS_NUM_THREADS=" + str(os.environ.get("OPENBLAS_NUM_THREADS")), flush=True)
        return None

sys.meta_path.insert(0, FirstNumpyImport())
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit:
    pass
"""


@pytest.mark.parametrize("argv", [["design_report.py", "mythwind_innkeeper", "--help"], ["distill_search.py", "--help"],
                                  ["mythic_baths_endgame_search.py", "--help"]],
                         ids=["design_report", "distill_search", "mythic_baths_endgame_search"])
def test_a_script_that_searches_in_its_own_process_loads_numpy_with_one_blas_thread(argv: list[str]) -> None:
    """With ``--jobs 1`` these scripts play (and search over a network) in their own process, so they
    set one BLAS thread before numpy loads, as their spawned workers get; a thread count the user
    set is kept."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / argv[0]
    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_VARS}
    run = subprocess.run([sys.executable, "-c", _SPY, str(script), *argv[1:]], env=env, capture_output=True, text=True, timeout=120)
    assert "numpy loads with OPENBLAS_NUM_THREADS=1\n" in run.stdout, run.stdout + run.stderr
    env["OPENBLAS_NUM_THREADS"] = "2"
    run = subprocess.run([sys.executable, "-c", _SPY, str(script), *argv[1:]], env=env, capture_output=True, text=True, timeout=120)
    assert "numpy loads with OPENBLAS_NUM_THREADS=2\n" in run.stdout, run.stdout + run.stderr


def test_one_blas_thread_here_says_whether_it_came_before_numpy() -> None:
    import subprocess
    import sys

    code = ("import os, sys; from mythzoo.threads import one_blas_thread_here as f; a = f(); import numpy; b = f(); "
            "print(a, b, os.environ['OPENBLAS_NUM_THREADS'])")
    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_VARS}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60).stdout
    assert out.split() == ["True", "False", "1"]
