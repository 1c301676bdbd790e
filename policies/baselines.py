"""Baseline policies by name: ``random`` for every env, ``heuristic`` per env.

The heuristic of an env is the rule-based policy its :class:`~mythzoo.envs.core.spec.GameSpec`
declares (``spec.heuristic``, built as ``cls(env, seed)``), imported when first asked for.
"""

from __future__ import annotations

from typing import Any

from mythzoo.policies.base import BasePolicy, EnvSpec, RandomPolicy

# The names that mean a baseline wherever a policy is named (refs, the registry, evaluation);
# no checkpoint may take them.
BASELINE_NAMES = ("random", "heuristic")


def make_baseline(name: str, env: Any, seed: int | None = None) -> BasePolicy:
    """A baseline policy for ``env`` (any mythzoo env instance): ``random`` or ``heuristic``."""
    if name == "random":
        return RandomPolicy(seed)
    if name == "heuristic":
        from mythzoo import envs  # not at import time: the registry imports this module and needs no env

        env_name = EnvSpec.from_env(env).env_name
        if env_name not in envs.SPECS:
            raise KeyError(f"no heuristic policy for {env_name!r}; available for {sorted(envs.SPECS)}")
        return envs.spec(env_name).heuristic_class()(env, seed)
    raise KeyError(f"unknown baseline {name!r}; baselines are {BASELINE_NAMES}")
