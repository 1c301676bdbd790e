"""Baseline policies by name: ``random`` for every env, ``heuristic`` per env."""

from __future__ import annotations

import importlib
from typing import Any

from mythzoo.policies.base import BasePolicy, EnvSpec, RandomPolicy

# env name -> "module:class" of that env's rule-based heuristic, imported when first asked for.
# The class takes (env, seed).
HEURISTICS: dict[str, str] = {
    "mythic_baths_v0": "mythzoo.policies.mythic_baths_heuristic:MythicBathsHeuristic",
    "mythwind_innkeeper_v0": "mythzoo.policies.mythwind_innkeeper_heuristic:MythwindInnkeeperHeuristic",
    "mythsgate_v0": "mythzoo.policies.mythsgate_heuristic:MythsgateHeuristic",
}
BASELINE_NAMES = ("random", "heuristic")


def make_baseline(name: str, env: Any, seed: int | None = None) -> BasePolicy:
    """A baseline policy for ``env`` (any mythzoo env instance): ``random`` or ``heuristic``."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "heuristic":
        env_name = EnvSpec.from_env(env).env_name
        if env_name not in HEURISTICS:
            raise KeyError(f"no heuristic policy for {env_name!r}; available for {sorted(HEURISTICS)}")
        module, cls = HEURISTICS[env_name].split(":")
        return getattr(importlib.import_module(module), cls)(env, seed)
    raise KeyError(f"unknown baseline {name!r}; baselines are {BASELINE_NAMES}")
