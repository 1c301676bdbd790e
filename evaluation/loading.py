"""Policies for the seats of a game, by ref: loading, pinning, role refs, reuse between games.

A ref is loaded through :func:`mythzoo.policies.refs.load_policy` (``random``, ``heuristic`` or a
checkpoint in a registry). A registry given by path is opened once per process. Before the first
game of a tournament each ref is loaded once (a bad ref fails at once) and a checkpoint is pinned
to its id. In a team game every ref is ``ROLE:REF`` and a checkpoint only plays its own role.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo.policies.baselines import BASELINE_NAMES
from mythzoo.policies.refs import is_baseline

BASELINES = BASELINE_NAMES
Loader = Callable[[str, Any, Any, "int | None"], Any]  # (ref, env, registry, seed) -> policy

_REGISTRIES: dict[str, Any] = {}


def open_registry(registry: Any) -> Any:
    """A registry object from a path (opened once per process, never created), or ``registry`` itself."""
    if registry is None or not isinstance(registry, (str, Path)):
        return registry
    key = str(registry)
    if key not in _REGISTRIES:
        from mythzoo.policies.refs import open_registry as open_path

        _REGISTRIES[key] = open_path(key)
    return _REGISTRIES[key]


def load_policy(ref: str, env: Any, registry: Any = None, seed: int | None = None) -> Any:
    """The policy ``ref`` names for ``env`` (``registry``: a Registry or its path; a baseline opens none)."""
    from mythzoo.policies.refs import load_policy as load

    return load(ref, env, registry=None if is_baseline(ref) else open_registry(registry), seed=seed)


def registry_key(registry: Any) -> Any:
    """What travels to worker processes: a path stays a path (each worker opens it)."""
    return str(registry) if isinstance(registry, Path) else registry


# ------------------------------------------------------------------ reuse between games
def _reseedable(policy: Any) -> bool:
    """A policy that can be reused across games: it offers ``reseed(seed)``, or is the stateless RandomPolicy."""
    from mythzoo.policies.base import RandomPolicy

    return callable(getattr(policy, "reseed", None)) or type(policy) is RandomPolicy


def _reseed(policy: Any, seed: int) -> None:
    if callable(getattr(policy, "reseed", None)):
        policy.reseed(seed)
    else:  # RandomPolicy: a fresh generator, exactly as RandomPolicy(seed) makes it
        policy.rng = np.random.default_rng(seed)


_POLICY_CACHE: dict[tuple[Any, ...], Any] = {}


def seat_policy(loader: Loader, ref: str, seat: int, env: Any, env_key: str, registry: Any, seed: int) -> Any:
    """The policy of ``seat`` for one game, seeded with ``seed``: loaded once per process and reseeded
    (after its ``reset()``) when it can be, else loaded afresh."""
    key = (getattr(loader, "__module__", ""), getattr(loader, "__qualname__", repr(loader)), ref, seat, env_key, str(registry))
    policy = _POLICY_CACHE.get(key)
    if policy is None:
        policy = loader(ref, env, registry, seed)
        if _reseedable(policy):
            _POLICY_CACHE[key] = policy
        return policy
    if callable(getattr(policy, "reset", None)):  # reused: clear per-game state, then the game's seed
        policy.reset()
    _reseed(policy, seed)
    return policy


# ------------------------------------------------------------------------- checking refs
def check_refs(env: Any, refs: Sequence[str], registry: Any = None, loader: Loader | None = None) -> list[str]:
    """Load each ref once for ``env`` so a bad ref fails here, before any game (its error propagates).
    Returns the refs pinned: a checkpoint's id (``policy.checkpoint_id``) in place of a moving
    ``name@alias`` or ``name``, so every game plays the same weights; other refs unchanged."""
    load = loader or load_policy
    pinned = {}
    for ref in dict.fromkeys(refs):
        policy = load(ref, env, registry, 0)
        pinned[ref] = str(getattr(policy, "checkpoint_id", None) or ref)
    return [pinned[r] for r in refs]


def split_role_ref(ref: str, roles: Sequence[str]) -> tuple[str | None, str]:
    """``("hero", "random")`` for ``"hero:random"`` when ``hero`` is one of ``roles``, else ``(None, ref)``
    (``toy:3`` stays a checkpoint ref unless ``toy`` is a role: write ``hero:toy:3``)."""
    head, sep, rest = ref.partition(":")
    if sep and head in roles and rest:
        return head, rest
    return None, ref


def parse_role_refs(env: Any, refs: Sequence[str]) -> list[tuple[str, str]]:
    """``(role, ref)`` for every ``ROLE:REF`` of a team game; ValueError for a ref without a
    known role prefix, or a role that gets no policy."""
    roles = env.unwrapped.roles()
    name = env.unwrapped.env_name
    example = " ".join(f"{r}:random" for r in roles)
    out = []
    for ref in refs:
        role, rest = split_role_ref(ref, list(roles))
        if role is None:
            head, sep, _ = ref.partition(":")
            why = f"{head!r} is not a role" if sep and head not in roles else "no role given"
            raise ValueError(f"{name} is an asymmetric game with roles {', '.join(roles)}: give every policy as ROLE:REF "
                             f"(e.g. {example}); {ref!r}: {why}")
        out.append((role, rest))
    missing = [r for r in roles if all(role != r for role, _ in out)]
    if missing:
        raise ValueError(f"{name}: no policy for role{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
                         f"every role needs at least one, e.g. {missing[0]}:random")
    return out


def checkpoint_role(policy: Any, registry: Any = None) -> str | None:
    """The role a loaded checkpoint policy was trained for (``None``: any role, or not a checkpoint)."""
    role = getattr(policy, "role", None)
    if isinstance(role, str) and role:
        return role
    cid = getattr(policy, "checkpoint_id", None)
    if cid is None:
        return None
    from mythzoo.policies.refs import open_registry as open_default

    reg = open_registry(registry) or open_default(None)
    return reg.resolve(str(cid)).role


def check_role_refs(env: Any, role_refs: Sequence[tuple[str, str]], registry: Any = None, loader: Loader | None = None) -> list[str]:
    """:func:`check_refs` for ``(role, ref)`` pairs: load each once and refuse (ValueError) a checkpoint
    trained for another role than the seats it is given. Returns the pinned refs."""
    load = loader or load_policy
    roles = env.unwrapped.roles()
    pinned = {}
    for role, ref in dict.fromkeys(role_refs):
        policy = load(ref, env, registry, 0)
        cid = getattr(policy, "checkpoint_id", None)
        trained = checkpoint_role(policy, registry)
        if trained is not None and not all(a.startswith(trained) for a in roles[role]):
            raise ValueError(f"checkpoint {ref!r} ({cid}) was trained for role {trained!r}; it cannot play the {role} "
                             f"seats ({', '.join(roles[role])}): give it as {trained}:{ref}")
        pinned[(role, ref)] = str(cid or ref)
    return [pinned[rr] for rr in role_refs]
