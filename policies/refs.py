"""One way to name any opponent: a ref string (or a policy object) turned into a policy for an env.

Every place that takes an opponent (evaluation, ``mythzoo play``, training's opponent pool)
resolves it here, with :func:`load_policy`. What it accepts:

- a **policy object**: anything with ``act`` and ``act_batch`` (the
  :class:`~mythzoo.policies.base.Policy` protocol), used as it is;
- ``random``, ``heuristic`` and the search ``mcts:N`` / ``mcts:N:heuristic`` (alias ``ismcts:``):
  the baselines (:func:`mythzoo.policies.baselines.make_baseline`);
- ``rollouts:W:<ref>``: the policy ``<ref>`` names, with its choices at the game's search points
  (Mythic Baths' endgame, the Innkeeper's daily Operate and worker choices) re-decided by paired rollouts over
  ``W`` sampled worlds (:mod:`mythzoo.policies.rollouts`);
- ``py:<module>:<attribute>``: **user code, named explicitly** (a *code ref*). ``<module>`` is
  imported (it must be importable: installed, or on ``PYTHONPATH``) and ``<attribute>`` read from
  it. A policy object there is used as it is; a callable is a factory, called as
  ``factory(env_spec)`` when it takes a positional argument (``env_spec``: the env's
  :class:`~mythzoo.policies.base.EnvSpec`: name, agents, observation and action sizes per agent,
  config), else ``factory()``; in both cases with ``seed=`` too when it has a ``seed`` parameter.
  What it returns must be a policy object;
- every other ref names a checkpoint in a :class:`~mythzoo.policies.registry.Registry`:
  ``<name>@<alias>``, ``<name>:<version>``, ``<name>`` (latest) or a checkpoint id (prefix).

A registry ref never resolves to code: a checkpoint is weights and a closed JSON spec, served by a
numpy network (:mod:`mythzoo.policies.neural`); nothing a registry holds is ever imported or
called. Only text the user typed with the ``py:`` prefix runs code, and registry names cannot
contain ``:``, so no registry ref is ever a code ref.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
from typing import Any

from mythzoo.policies.base import EnvSpec, Policy
from mythzoo.policies.baselines import is_baseline_name, make_baseline
from mythzoo.policies.registry import Registry, RegistryError, default_registry_path
from mythzoo.policies.rollouts import EndgameRollouts, is_rollouts_ref, parse_rollouts_ref

__all__ = [
    "CODE_PREFIX", "PolicyRefError", "is_baseline", "is_code_ref", "is_policy", "is_registry_ref", "is_rollouts_ref",
    "load_code_ref", "load_policy", "open_registry", "uses_registry",
]

CODE_PREFIX = "py:"
# py:<dotted module>:<attribute>; the attribute may be dotted too (a class's factory method).
_CODE_RE = re.compile(r"^py:([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$")


class PolicyRefError(ValueError):
    """A ref that does not give a policy: bad ``py:`` syntax, a module or attribute that is not there,
    a factory that fails or returns something without ``act``/``act_batch``. One line, naming it."""


def is_policy(obj: Any) -> bool:
    """True for an object that can play: it has callable ``act`` and ``act_batch`` (the Policy protocol)."""
    return not isinstance(obj, (str, bytes)) and callable(getattr(obj, "act", None)) and callable(getattr(obj, "act_batch", None))


def is_baseline(ref: Any) -> bool:
    """True for refs served without a registry (``random``, ``heuristic``, ``mcts:...``)."""
    return isinstance(ref, str) and is_baseline_name(ref)


def is_code_ref(ref: Any) -> bool:
    """True for text that names user code (starts with ``py:``; :func:`load_code_ref` checks its form)."""
    return isinstance(ref, str) and ref.strip().startswith(CODE_PREFIX)


def is_registry_ref(ref: Any) -> bool:
    """True for a ref that names a checkpoint: text that is neither a baseline, a code ref nor a ``rollouts:`` ref."""
    return isinstance(ref, str) and not is_baseline(ref) and not is_code_ref(ref) and not is_rollouts_ref(ref)


def uses_registry(ref: Any) -> bool:
    """True for a ref whose policy comes from a registry: a checkpoint ref, or a ``rollouts:`` ref over one."""
    if is_rollouts_ref(ref):
        try:
            return uses_registry(parse_rollouts_ref(ref).base)
        except ValueError:
            return False
    return is_registry_ref(ref)


def open_registry(registry: Registry | str | os.PathLike[str] | None = None) -> Registry:
    """``registry`` itself, the registry at that path, or the default one; refuses a missing one."""
    if isinstance(registry, Registry):
        return registry
    path = registry if registry is not None else default_registry_path()
    return Registry(path, create=False)


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _accepts_positional(fn: Any) -> bool | None:
    """Whether ``fn`` takes a positional argument (None: no signature to read)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
    return any(p.kind in kinds for p in params)


def _accepts_seed(fn: Any) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def load_code_ref(ref: str, env: Any, seed: int | None = None) -> Policy:
    """The policy a ``py:<module>:<attribute>`` ref names for ``env`` (see the module docstring).

    Raises :class:`PolicyRefError` (one line) for a malformed ref, a module that is not found or
    fails to import, a missing attribute, a factory that raises, or a result without
    ``act``/``act_batch``."""
    text = ref.strip()
    m = _CODE_RE.match(text)
    if m is None:
        raise PolicyRefError(f"bad code ref {ref!r}: expected py:<module>:<factory>, e.g. py:my_package.policies:make_policy")
    module_name, attr = m.groups()
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and module_name.startswith(e.name) and module_name[len(e.name):][:1] in ("", "."):
            raise PolicyRefError(f"{text}: no module named {e.name!r} (is it installed, or on PYTHONPATH?)") from None
        raise PolicyRefError(f"{text}: importing {module_name} failed: {_one_line(e)}") from None
    except Exception as e:  # the user's module failed while importing
        raise PolicyRefError(f"{text}: importing {module_name} failed: {_one_line(e)}") from None
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise PolicyRefError(f"{text}: {module_name} has no attribute {attr!r}")
        target = getattr(target, part)
    if is_policy(target) and not inspect.isclass(target):
        return target
    if not callable(target):
        raise PolicyRefError(f"{text}: {module_name}.{attr} is a {type(target).__name__}, neither a policy (act/act_batch) "
                             "nor a factory that returns one")
    args = (EnvSpec.from_env(env),) if _accepts_positional(target) else ()
    kwargs = {"seed": seed} if _accepts_seed(target) else {}
    try:
        policy = target(*args, **kwargs)
    except Exception as e:
        raise PolicyRefError(f"{text}: {module_name}.{attr}({'env_spec' if args else ''}) raised {_one_line(e)}") from None
    if not is_policy(policy):
        raise PolicyRefError(f"{text}: {module_name}.{attr} returned an object of type {type(policy).__name__}, which is not a policy "
                             "(it needs act(observation, action_mask, agent) and act_batch(observations, action_masks, agent))")
    return policy


def load_policy(
    ref: Any,
    env: Any,
    registry: Registry | str | os.PathLike[str] | None = None,
    seed: int | None = None,
    *,
    deterministic: bool = True,
) -> Policy:
    """The policy ``ref`` names, ready to act in ``env``: the one resolution of refs in mythzoo.

    A policy object is returned as it is; baselines and code refs need no registry. A checkpoint
    is looked up in ``registry`` (a Registry or a path; default ``$MYTHZOO_REGISTRY`` or
    ``./registry``), its files' sha256 verified, and it is refused (``EnvMismatchError``) unless it
    was made for ``env``'s name and observation/action signature. ``seed`` seeds the policy's own
    generator (baselines; sampling networks when not deterministic; a code ref's factory when it
    takes ``seed``).
    """
    if is_policy(ref):
        return ref
    if not isinstance(ref, str):
        raise PolicyRefError(f"a policy must be a ref string or an object with act and act_batch, got a {type(ref).__name__}")
    if is_baseline(ref):
        return make_baseline(ref.strip(), env, seed)
    if is_code_ref(ref):
        return load_code_ref(ref, env, seed)
    if is_rollouts_ref(ref):
        parsed = parse_rollouts_ref(ref)
        base = load_policy(parsed.base, env, registry, seed, deterministic=deterministic)
        return EndgameRollouts(env, base, parsed.worlds, parsed.window, seed=seed, base_name=parsed.base, more_worlds=parsed.more)
    try:
        reg = open_registry(registry)
    except RegistryError as e:
        raise RegistryError(f"cannot load {ref!r}: {e}") from None
    return reg.load_policy(ref, env, seed=seed, deterministic=deterministic)
