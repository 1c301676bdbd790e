"""One way to name any opponent: a ref string turned into a policy for an env.

``random`` and ``heuristic`` are the baselines (:func:`mythzoo.policies.baselines.make_baseline`);
every other ref names a checkpoint in a :class:`~mythzoo.policies.registry.Registry`:
``<name>@<alias>``, ``<name>:<version>``, ``<name>`` (latest) or a checkpoint id (prefix).
Evaluation and training take refs, so an opponent is a string on the command line.
"""

from __future__ import annotations

import os
from typing import Any

from mythzoo.policies.base import Policy
from mythzoo.policies.baselines import BASELINE_NAMES, make_baseline
from mythzoo.policies.registry import Registry, RegistryError, default_registry_path

__all__ = ["is_baseline", "load_policy", "open_registry"]


def is_baseline(ref: str) -> bool:
    """True for refs served without a registry (``random``, ``heuristic``)."""
    return isinstance(ref, str) and ref.strip() in BASELINE_NAMES


def open_registry(registry: Registry | str | os.PathLike[str] | None = None) -> Registry:
    """``registry`` itself, the registry at that path, or the default one; refuses a missing one."""
    if isinstance(registry, Registry):
        return registry
    path = registry if registry is not None else default_registry_path()
    return Registry(path, create=False)


def load_policy(
    ref: str,
    env: Any,
    registry: Registry | str | os.PathLike[str] | None = None,
    seed: int | None = None,
    *,
    deterministic: bool = True,
) -> Policy:
    """The policy ``ref`` names, ready to act in ``env``.

    Baselines need no registry. A checkpoint is looked up in ``registry`` (a Registry or a path;
    default ``$MYTHZOO_REGISTRY`` or ``./registry``), its files' sha256 verified, and it is refused
    (``EnvMismatchError``) unless it was made for ``env``'s name and observation/action signature.
    ``seed`` seeds the policy's own generator (baselines; sampling networks when not deterministic).
    """
    if is_baseline(ref):
        return make_baseline(ref.strip(), env, seed)
    try:
        reg = open_registry(registry)
    except RegistryError as e:
        raise RegistryError(f"cannot load {ref!r}: {e}") from None
    return reg.load_policy(ref, env, seed=seed, deterministic=deterministic)
