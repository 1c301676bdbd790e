"""The main suite on another Python: what the ``py313`` stack runs, and a part of it for ``py312``.

Those venvs hold mythzoo with the ``tools`` extra and the test tools but no torch (the only CPU
build of torch our set-up installs is for Python 3.11; elsewhere pip would fetch a CUDA build of
several GB), so every test that needs torch or Stable-Baselines3 skips itself there and the rest
(the envs, rules, conformance suite, golden games and fingerprints, baselines, evaluation, the
registry, play, the adapters' padding, the docs) must pass, on the stack's own interpreter.

Python 3.12 lies between the 3.11 of the main venv and 3.13, so its stack runs :data:`PY312_PART`
only (the parts that meet the interpreter most: every env through the conformance suite, the
golden games, the registry's archives, the env versions, play), which keeps CI short.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
# What the py312 stack runs: the conformance suite less its long random simulations, and more.
PY312_PART = ("conformance", "--ignore", "conformance/test_simulation.py", "test_golden.py", "test_registry.py",
              "test_registry_validation.py", "test_env_versions.py", "test_play.py")


def run_main_suite(expected_version: str, part: tuple[str, ...] = ()) -> None:
    """Run ``tests/`` (not slow, no stacks), or the ``part`` of it named relative to ``tests/`` (paths
    and pytest options), with this interpreter; fail with pytest's output."""
    assert sys.version.startswith(expected_version + "."), f"this venv runs Python {sys.version.split()[0]}, not {expected_version}"
    env = {k: v for k, v in os.environ.items() if k != "MYTHZOO_STACK"}  # the main suite, without tests/stacks
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", "2", "-m", "not slow", "-p", "no:cacheprovider"]
    cmd += [a if a.startswith("-") else str(TESTS / a) for a in part] if part else [str(TESTS)]
    done = subprocess.run(cmd, cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=1500)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    print(f"Python {expected_version}: {summary}")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in summary, summary
