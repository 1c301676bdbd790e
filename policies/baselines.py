"""Baseline policies by name: ``random`` for every env, ``heuristic`` per env."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mythzoo.policies.base import BasePolicy, EnvSpec, RandomPolicy

# env name -> factory(env, seed) for that env's rule-based heuristic; games register theirs here.
HEURISTICS: dict[str, Callable[[Any, int | None], BasePolicy]] = {}
BASELINE_NAMES = ("random", "heuristic")


def make_baseline(name: str, env: Any, seed: int | None = None) -> BasePolicy:
    """A baseline policy for ``env`` (any mythzoo env instance): ``random`` or ``heuristic``."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "heuristic":
        env_name = EnvSpec.from_env(env).env_name
        if env_name not in HEURISTICS:
            raise KeyError(f"no heuristic policy for {env_name!r}; available for {sorted(HEURISTICS)}")
        return HEURISTICS[env_name](env, seed)
    raise KeyError(f"unknown baseline {name!r}; baselines are {BASELINE_NAMES}")
