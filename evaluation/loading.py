"""Policies for the seats of a game, by ref or as objects: loading, naming, pinning, role refs, reuse.

A ref is loaded through :func:`mythzoo.policies.refs.load_policy` (``random``, ``heuristic``, a
``py:module:factory`` code ref, or a checkpoint in a registry). A registry given by path is opened
once per process. Before the first game of a tournament each ref is loaded once (a bad ref fails at
once) and a checkpoint is pinned to its id. In a team game every ref is ``ROLE:REF`` and a
checkpoint only plays its own role.

Policy objects (anything with ``act``/``act_batch``) go wherever a ref goes: :func:`name_policies`
gives each one a label (its key in a mapping, else its ``name``) and a ref of its own,
``<object:LABEL>``, which only an :class:`ObjectLoader` resolves (never a registry), so records
and results name it and replays need nothing more.
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import numpy as np

from mythzoo.policies.base import Policy
from mythzoo.policies.baselines import BASELINE_NAMES
from mythzoo.policies.refs import PolicyRefError, is_policy, is_registry_ref, uses_registry
from mythzoo.policies.rollouts import is_rollouts_ref, parse_rollouts_ref

BASELINES = BASELINE_NAMES
Loader = Callable[[str, Any, Any, "int | None"], Any]  # (ref, env, registry, seed) -> policy
# What every function that plays takes as "the policies": refs and policy objects, in a list or by name.
PolicyLike = Union[str, Policy]
Policies = Union[Sequence[PolicyLike], Mapping[str, PolicyLike]]

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


def load_policy(ref: Any, env: Any, registry: Any = None, seed: int | None = None) -> Any:
    """The policy ``ref`` names for ``env`` (``registry``: a Registry or its path; only a checkpoint
    ref, or a ``rollouts:`` ref over one, opens one). A policy object is returned as it is."""
    from mythzoo.policies.refs import load_policy as load

    return load(ref, env, registry=open_registry(registry) if uses_registry(ref) else None, seed=seed)


# ------------------------------------------------------------------ policy objects by name
_OBJECT_REF = re.compile(r"^<object:(.+)>$")


def object_ref(label: str) -> str:
    """The ref a policy object plays under (``<object:LABEL>``): no registry ref or code ref looks like it."""
    return f"<object:{label}>"


def is_object_ref(ref: Any) -> bool:
    """True for the ref of a policy object (:func:`object_ref`)."""
    return isinstance(ref, str) and _OBJECT_REF.match(ref) is not None


def policy_name(policy: Any) -> str:
    """The label of a policy object given without one: its ``name`` (text), else its class name."""
    name = getattr(policy, "name", None)
    return name.strip() if isinstance(name, str) and name.strip() else type(policy).__name__


@dataclass
class ObjectLoader:
    """A loader that serves the named policy objects of one call (by their ``<object:...>`` refs) and
    everything else through ``base``. Picklable when the objects are (worker processes get a copy)."""

    objects: dict[str, Any]
    base: Loader | None = None

    def __call__(self, ref: str, env: Any, registry: Any = None, seed: int | None = None) -> Any:
        policy = self.objects.get(ref)
        if policy is not None:
            return policy
        if is_object_ref(ref):
            raise PolicyRefError(f"{ref} names no policy object of this call")
        return (self.base or load_policy)(ref, env, registry, seed)


@dataclass
class NamedPolicies:
    """Policies given as refs and objects, made uniform: one ref and one label per entry, the
    objects by their refs, and the loader that serves both."""

    refs: list[str]
    labels: list[str]
    objects: dict[str, Any] = field(default_factory=dict)
    base: Loader | None = None

    @property
    def loader(self) -> Loader:
        """``base`` (or :func:`load_policy`), with the objects in front when there are any."""
        if not self.objects:
            return self.base or load_policy
        return ObjectLoader(dict(self.objects), self.base)

    def check_picklable(self) -> None:
        """Refuse (ValueError, one line) objects that cannot travel to worker processes."""
        for ref, policy in self.objects.items():
            try:
                pickle.dumps(policy)
            except Exception as e:
                label = _OBJECT_REF.match(ref).group(1) if _OBJECT_REF.match(ref) else ref
                raise ValueError(f"policy {label!r} cannot be sent to worker processes ({type(e).__name__}: {e}); "
                                 "play with workers=1, or name it by a py:module:factory ref that each worker imports") from None


def name_policies(policies: Policies, roles: Sequence[str] = (), base: Loader | None = None) -> NamedPolicies:
    """Refs, labels and objects for ``policies``: a sequence of refs and policy objects, or a mapping
    label -> ref or object.

    A ref in a sequence is its own label (a repeated one becomes ``REF#2``, ...); an object's label
    is its ``name`` (or class name). In a mapping the key is the label. In a team game (``roles``
    given) a label may start with a role (``hero:mine``): the entry then plays that role (an object
    given in a sequence takes the role from its ``role`` attribute, if it has one)."""
    from mythzoo.evaluation.schedules import unique_labels

    if isinstance(policies, Mapping):
        items = list(policies.items())
        for key, _ in items:
            if not isinstance(key, str) or not key.strip():
                raise ValueError(f"policy names must be non-empty text, got {key!r}")
    else:
        if isinstance(policies, (str, bytes)) or is_policy(policies):
            raise ValueError("give the policies as a list (or a mapping name -> policy), not one policy")
        items = []
        for p in policies:
            if isinstance(p, str):
                items.append((p, p))
            elif is_policy(p):
                name = policy_name(p)
                role = getattr(p, "role", None)
                items.append((f"{role}:{name}" if isinstance(role, str) and role in roles and not name.startswith(f"{role}:") else name, p))
            else:
                raise PolicyRefError(f"a policy must be a ref string or an object with act and act_batch, got a {type(p).__name__}")
    labels = unique_labels([k for k, _ in items])
    refs, objects = [], {}
    for (key, value), label in zip(items, labels):
        role, name = split_role_ref(label, list(roles)) if roles else (None, label)
        if isinstance(value, str):
            ref = value.strip()
            if role is not None and split_role_ref(ref, list(roles))[0] is None:
                ref = f"{role}:{ref}"
        elif is_policy(value):
            ref = object_ref(name)
            if ref in objects and objects[ref] is not value:  # two objects, one name: keep them apart
                ref = object_ref(label)
            objects[ref] = value
            if role is not None:
                ref = f"{role}:{ref}"
        else:
            raise PolicyRefError(f"policy {key!r}: expected a ref string or an object with act and act_batch, got a {type(value).__name__}")
        refs.append(ref)
    return NamedPolicies(refs, labels, objects, base)


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
    if isinstance(loader, ObjectLoader) and ref in loader.objects:  # the caller's own object, as it is
        policy = loader.objects[ref]
        if callable(getattr(policy, "reset", None)):
            policy.reset()
        if callable(getattr(policy, "reseed", None)):
            policy.reseed(seed)
        return policy
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
        pinned[ref] = _pin(ref, policy)
    return [pinned[r] for r in refs]


def _pin(ref: str, policy: Any) -> str:
    """A checkpoint ref's id (inside a ``rollouts:`` ref too); any other ref (an object, a baseline,
    a code ref) as it is."""
    if is_rollouts_ref(ref) and hasattr(policy, "base"):
        parsed = parse_rollouts_ref(ref)
        return parsed.with_base(_pin(parsed.base, policy.base))
    if not is_registry_ref(ref) or is_object_ref(ref):
        return ref
    return str(getattr(policy, "checkpoint_id", None) or ref)


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
        checkpoint = is_registry_ref(ref) and not is_object_ref(ref)
        cid = getattr(policy, "checkpoint_id", None)
        trained = checkpoint_role(policy, registry) if checkpoint else getattr(policy, "role", None)
        if isinstance(trained, str) and trained and not all(a.startswith(trained) for a in roles[role]):
            what = f"checkpoint {ref!r} ({cid})" if checkpoint else f"policy {ref!r}"
            raise ValueError(f"{what} was trained for role {trained!r}; it cannot play the {role} "
                             f"seats ({', '.join(roles[role])}): give it as {trained}:{ref if checkpoint else '...'}")
        pinned[(role, ref)] = _pin(ref, policy)
    return [pinned[rr] for rr in role_refs]
