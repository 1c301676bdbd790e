"""What a checkpoint is, on paper: the ``spec.json`` format, its validation, and the JSON the registry writes.

Also the checks that tie a spec to the world: its arch to the networks :mod:`mythzoo.policies.neural`
serves, its arrays to that arch, its role's agents to an env's observation and action sizes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from mythzoo.policies import neural
from mythzoo.policies.base import EnvSpec
from mythzoo.policies.registry.records import CheckpointInfo
from mythzoo.policies.registry.refs import ID_RE, SHA_RE, check_name

__all__ = [
    "SPEC_FILE", "SPEC_FORMAT", "SPEC_FORMAT_VERSION", "WEIGHTS_FILE",
    "check_role_sizes", "dump_json", "info_from_spec", "json_value", "validate_arch", "validate_spec", "validate_weights",
]

SPEC_FILE = "spec.json"
WEIGHTS_FILE = "weights.safetensors"
SPEC_FORMAT, SPEC_FORMAT_VERSION = "mythzoo-checkpoint", 1


# ------------------------------------------------------------------- JSON
def dump_json(obj: Any) -> bytes:
    """``obj`` as the registry writes JSON files: keys sorted, 2-space indent, a final newline."""
    try:
        return (json.dumps(obj, indent=2, sort_keys=True, allow_nan=False) + "\n").encode()
    except (TypeError, ValueError) as e:
        raise ValueError(f"not plain JSON data (no NaN/inf, only dicts, lists, str, numbers, bool, null): {e}") from e


def json_value(obj: Any, what: str) -> Any:
    """``obj`` round-tripped through strict JSON (numpy scalars become plain numbers)."""
    def default(o: Any) -> Any:
        if isinstance(o, np.generic):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
        raise TypeError(f"{type(o).__name__} is not JSON serializable")

    try:
        return json.loads(json.dumps(obj, allow_nan=False, default=default))
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} must be plain JSON data (no NaN/inf): {e}") from e


# ------------------------------------------------------------ arch, weights
def validate_arch(arch: Mapping[str, Any]) -> dict[str, Any]:
    """A normalized copy of ``arch`` if :mod:`~mythzoo.policies.neural` serves its type, else ``ValueError``."""
    kind = arch.get("type") if isinstance(arch, Mapping) else None
    if kind not in neural.ARCH_VALIDATORS:
        raise ValueError(f"unknown arch type {kind!r}; the registry serves {sorted(neural.ARCH_VALIDATORS)}")
    return neural.ARCH_VALIDATORS[kind](arch)


def validate_weights(tensors: Mapping[str, np.ndarray], arch: Mapping[str, Any]) -> None:
    """``ValueError`` unless ``tensors`` are exactly the arrays a validated ``arch`` needs."""
    neural.WEIGHT_VALIDATORS[arch["type"]](tensors, arch)


def check_role_sizes(spec: EnvSpec, role: str | None, arch: Mapping[str, Any], error: type[Exception] = ValueError, what: str = "") -> None:
    """The agents ``role`` plays in ``spec`` must have the arch's observation and action sizes."""
    agents = [a for a in spec.agents if role is None or a.startswith(role)]
    if not agents:
        raise error(f"{what}role {role!r} matches none of {spec.env_name}'s agents {list(spec.agents)}")
    for a in agents:
        if spec.obs_sizes[a] != arch["obs_size"] or spec.action_sizes[a] != arch["action_size"]:
            raise error(
                f"{what}network takes {arch['obs_size']} observations and gives {arch['action_size']} actions, but "
                f"{spec.env_name}'s agent {a} has {spec.obs_sizes[a]} observations and {spec.action_sizes[a]} actions"
            )


# -------------------------------------------------------------- spec.json
def validate_spec(spec: Any) -> dict[str, Any]:
    """Check a parsed ``spec.json`` against its schema; returns it, or raises ``ValueError``."""
    if not isinstance(spec, dict):
        raise ValueError("spec must be a JSON object")
    if spec.get("format") != SPEC_FORMAT or spec.get("format_version") != SPEC_FORMAT_VERSION:
        raise ValueError(f"spec format is {spec.get('format')!r} v{spec.get('format_version')!r}, expected {SPEC_FORMAT!r} v{SPEC_FORMAT_VERSION}")

    def need(key: str, types: type | tuple[type, ...], obj: dict[str, Any] = spec, where: str = "") -> Any:
        value = obj.get(key)
        if isinstance(value, bool) or not isinstance(value, types):  # no spec field is a bool
            raise ValueError(f"spec field {where}{key!r} is {value!r}; expected {types}")
        return value

    if not ID_RE.match(need("id", str)):
        raise ValueError(f"spec id {spec['id']!r} is not 12 hex digits")
    check_name(need("name", str))
    env = need("env", dict)
    need("name", str, env, "env.")
    need("signature", str, env, "env.")
    if spec.get("role") is not None:
        need("role", str)
    need("algo", str)
    validate_arch(need("arch", dict))
    if need("steps", int) < 0:
        raise ValueError("spec steps must be >= 0")
    parent = spec.get("parent")
    if parent is not None and (not isinstance(parent, str) or not ID_RE.match(parent)):
        raise ValueError(f"spec parent {parent!r} is not a checkpoint id")
    need("created", str)
    weights = need("weights", dict)
    if weights.get("file") != WEIGHTS_FILE or not SHA_RE.match(str(weights.get("sha256"))) or not isinstance(weights.get("bytes"), int):
        raise ValueError(f"spec weights must name {WEIGHTS_FILE!r} with its sha256 and byte count")
    need("metrics", dict)
    return spec


def info_from_spec(spec: Mapping[str, Any], version: int, spec_sha256: str) -> CheckpointInfo:
    """The index entry a validated ``spec`` stands for (tags and aliases left empty)."""
    return CheckpointInfo(
        id=spec["id"], name=spec["name"], version=version, env_name=spec["env"]["name"], env_signature=spec["env"]["signature"],
        role=spec.get("role"), algo=spec["algo"], arch=dict(spec["arch"]), steps=int(spec["steps"]), parent=spec.get("parent"),
        created=spec["created"], weights_sha256=spec["weights"]["sha256"], weights_bytes=int(spec["weights"]["bytes"]),
        spec_sha256=spec_sha256, metrics=dict(spec["metrics"]),
    )
