"""Pressing Ctrl-C at a running ``mythzoo train``, as a terminal does: SIGINT to the whole process
group, once training is stepping. Shared by the process-backend and Ray-backend tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping

import pytest


def ctrl_c_while_training(args: list[str], env: Mapping[str, str] | None = None, timeout: float = 180) -> tuple[int, str, int]:
    """Run ``python -m mythzoo train ARGS`` in a process group of its own, wait for its first
    progress line (PPO stepping), send SIGINT to the group and wait for the run to end. Returns
    (exit code, all it wrote to stderr, the process group's id)."""
    proc = subprocess.Popen([sys.executable, "-m", "mythzoo", "train", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    assert proc.stderr is not None
    seen: list[str] = []
    try:
        for line in proc.stderr:
            seen.append(line)
            if " step" in line and "train " in line:
                break
        else:
            pytest.fail("training ended before it printed progress:\n" + "".join(seen))
        os.killpg(proc.pid, signal.SIGINT)
        _, rest = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return proc.returncode, "".join(seen) + rest, proc.pid


def group_ends(pgid: int, seconds: float) -> bool:
    """Whether every process of group ``pgid`` is gone within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
