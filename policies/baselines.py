"""Baseline policies by name: ``random`` for every env, ``heuristic`` per env, and the search
baseline ``mcts:N`` / ``mcts:N:heuristic`` (alias ``ismcts:``) for every env
(:mod:`mythzoo.policies.search`).

The heuristic of an env is the rule-based policy its :class:`~mythzoo.envs.core.spec.GameSpec`
declares (``spec.heuristic``, built as ``cls(env, seed)``), imported when first asked for.
"""

from __future__ import annotations

from typing import Any

from mythzoo.policies.base import BasePolicy, EnvSpec, RandomPolicy

# The names that mean a baseline wherever a policy is named (refs, the registry, evaluation);
# no checkpoint may take them.
BASELINE_NAMES = ("random", "heuristic")


def is_baseline_name(name: str) -> bool:
    """True for ``random``, ``heuristic`` and any ``mcts``/``ismcts`` name (well formed or not:
    a malformed one is refused by :func:`make_baseline` with a one-line error)."""
    from mythzoo.policies.search import is_search_ref

    return isinstance(name, str) and (name.strip() in BASELINE_NAMES or is_search_ref(name))


def make_baseline(name: str, env: Any, seed: int | None = None) -> BasePolicy:
    """A baseline policy for ``env`` (any mythzoo env instance): ``random``, ``heuristic``, or the
    search ``mcts:N[:random|heuristic]`` (``ismcts:`` alike; ``SearchRefError``, a ``ValueError``,
    for a malformed one)."""
    from mythzoo.policies.search import SearchPolicy, is_search_ref, parse_search_ref

    if is_search_ref(name):
        budget, rollout = parse_search_ref(name)
        return SearchPolicy(env, seed, budget=budget, rollout=rollout)
    if name == "random":
        return RandomPolicy(seed)
    if name == "heuristic":
        from mythzoo import envs  # not at import time: the registry imports this module and needs no env

        env_name = EnvSpec.from_env(env).env_name
        if env_name not in envs.SPECS:
            raise KeyError(f"no heuristic policy for {env_name!r}; available for {sorted(envs.SPECS)}")
        return envs.spec(env_name).heuristic_class()(env, seed)
    raise KeyError(f"unknown baseline {name!r}; baselines are random, heuristic, mcts:N and mcts:N:heuristic")
