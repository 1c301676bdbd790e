"""The registry's file formats, as typed models: ``spec.json`` (:class:`CheckpointSpec`) and an export's
``manifest.json`` (:class:`ExportManifest`), their validation, and the JSON the registry writes.

Both formats are closed (an unknown key is refused) and every field is checked by type and range
(see :mod:`.fields`) before anything is written or read on. Errors are one-line ``ValueError`` messages
naming the field. Also here: the checks that tie a spec to the world, its arch to the networks
:mod:`mythzoo.policies.neural` serves, its arrays to that arch, its role's agents to an env's sizes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from mythzoo.policies import neural
from mythzoo.policies.base import EnvSpec
from mythzoo.policies.registry.fields import (
    AliasName, CheckpointId, Count, FormatVersion, JsonObject, Name, NonEmptyText, PositiveCount, Sha256, Tag, Text, Timestamp,
)
from mythzoo.policies.registry.records import CheckpointInfo, Rating

__all__ = [
    "EXPORT_FORMAT", "EXPORT_FORMAT_VERSION", "SPEC_FILE", "SPEC_FORMAT", "SPEC_FORMAT_VERSION", "WEIGHTS_FILE",
    "CheckpointSpec", "EvalEntry", "ExportManifest", "ManifestEntry",
    "MAX_JSON_DEPTH", "check_role_sizes", "dump_json", "info_from_spec", "json_value", "parse_json", "validate_arch", "validate_manifest", "validate_rating",
    "validate_spec", "validate_weights",
]

SPEC_FILE = "spec.json"
WEIGHTS_FILE = "weights.safetensors"
SPEC_FORMAT, SPEC_FORMAT_VERSION = "mythzoo-checkpoint", 1
EXPORT_FORMAT, EXPORT_FORMAT_VERSION = "mythzoo-registry-export", 1


# ------------------------------------------------------------------- JSON
MAX_JSON_DEPTH = 64  # nesting the registry's files may have (they need 5); deeper is refused, not recursed into


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and dicts (iteratively: no recursion limit to hit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_JSON_DEPTH:
                return depth
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_json(data: bytes | str, what: str) -> Any:
    """JSON from a file: ``ValueError`` (one line) for malformed text or nesting past :data:`MAX_JSON_DEPTH`,
    never a ``RecursionError``. (NaN/Infinity parse here; the models refuse them, naming the field.)"""
    try:
        value = json.loads(data)
    except RecursionError:
        raise ValueError(f"{what} nests deeper than {MAX_JSON_DEPTH} levels") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"{what} is not UTF-8 text: {e}") from None
    except ValueError as e:
        raise ValueError(f"{what} is not valid JSON: {e}") from None
    if _depth(value) > MAX_JSON_DEPTH:
        raise ValueError(f"{what} nests deeper than {MAX_JSON_DEPTH} levels")
    return value


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
        value = json.loads(json.dumps(obj, allow_nan=False, default=default))
    except RecursionError:
        raise ValueError(f"{what} nests too deeply (more than {MAX_JSON_DEPTH} levels)") from None
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} must be plain JSON data (no NaN/inf): {e}") from e
    if _depth(value) > MAX_JSON_DEPTH:
        raise ValueError(f"{what} nests too deeply (more than {MAX_JSON_DEPTH} levels)")
    return value


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


# ------------------------------------------------------------------ models
class _Closed(BaseModel):
    """A closed JSON object: every key declared, no other allowed."""

    model_config = ConfigDict(extra="forbid", frozen=True)


Arch = Annotated[dict[str, Any], AfterValidator(validate_arch)]


class EnvInfo(_Closed):
    """``spec.env``: the versioned env a checkpoint was trained on."""

    name: NonEmptyText
    signature: NonEmptyText  # EnvSpec.signature: observation features and action labels per role, hashed
    config: JsonObject  # the training env's config (informational)


class TensorInfo(_Closed):
    """``spec.weights.tensors[<array>]``."""

    dtype: NonEmptyText
    shape: list[Count]


class WeightsInfo(_Closed):
    """``spec.weights``: the arrays file, its hash and size, and what arrays it holds."""

    file: Literal["weights.safetensors"]
    sha256: Sha256
    bytes: Count
    tensors: dict[NonEmptyText, TensorInfo]


class CheckpointSpec(_Closed):
    """``spec.json``, format ``mythzoo-checkpoint`` v1: the immutable facts about one checkpoint."""

    format: Literal["mythzoo-checkpoint"]
    format_version: FormatVersion
    id: CheckpointId
    name: Name
    env: EnvInfo
    role: NonEmptyText | None  # the agent-name prefix it plays; null: every agent
    algo: NonEmptyText
    arch: Arch
    steps: Count
    parent: CheckpointId | None
    created: Timestamp
    weights: WeightsInfo
    metrics: JsonObject
    mythzoo_version: NonEmptyText


class FileInfo(_Closed):
    """A file of an exported checkpoint, as the manifest records it."""

    sha256: Sha256
    bytes: Count


class ManifestFiles(_Closed):
    """The two files of an exported checkpoint."""

    spec: FileInfo = Field(alias="spec.json")
    weights: FileInfo = Field(alias="weights.safetensors")


class EvalEntry(_Closed):
    """An evaluation result travelling with an exported checkpoint."""

    name: Text
    created: Timestamp
    results: JsonObject


class ManifestEntry(_Closed):
    """One checkpoint of an export: its registry facts (aliases are informational) and its files."""

    id: CheckpointId
    name: Name
    version: PositiveCount
    tags: list[Tag]
    aliases: list[AliasName]
    ratings: list[Rating]
    evals: list[EvalEntry]
    files: ManifestFiles


class ExportManifest(_Closed):
    """``manifest.json`` of an export file, format ``mythzoo-registry-export`` v1."""

    format: Literal["mythzoo-registry-export"]
    format_version: FormatVersion
    created: Timestamp
    mythzoo_version: NonEmptyText
    root: CheckpointId  # the exported ref's id (the last entry: ancestors come first)
    checkpoints: list[ManifestEntry] = Field(min_length=1)

    @model_validator(mode="after")
    def _ids_are_consistent(self) -> ExportManifest:
        ids = [c.id for c in self.checkpoints]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"checkpoints {twice} are listed more than once")
        if self.root not in ids:
            raise ValueError(f"root {self.root!r} is none of the listed checkpoints")
        return self


# -------------------------------------------------------------- validation
def _where(loc: tuple[int | str, ...]) -> str:
    """``('checkpoints', 0, 'files', 'spec.json')`` -> ``checkpoints[0].files.spec.json``."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def _one_line(error: ValidationError, what: str) -> str:
    """The first problem pydantic found, in one line naming the field (and how many more there are)."""
    problems = error.errors(include_url=False)
    first, where = problems[0], _where(problems[0]["loc"])
    field = f"{what} field {where!r}" if where else what
    kind, message = first["type"], first["msg"]
    if kind == "missing":
        text = f"{field} is missing"
    elif kind in ("extra_forbidden", "unexpected_keyword_argument"):
        text = f"{field} is not part of the format (unknown key)"
    elif kind == "value_error":
        text = f"{field}: {message.removeprefix('Value error, ')}"
    else:
        shown = repr(first.get("input"))
        text = f"{field} is {shown if len(shown) <= 60 else shown[:57] + '...'}: {message[:1].lower()}{message[1:]}"
    more = len(problems) - 1
    return text + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")


_SPEC, _MANIFEST, _RATING = TypeAdapter(CheckpointSpec), TypeAdapter(ExportManifest), TypeAdapter(Rating)


def _validated(adapter: TypeAdapter[Any], data: Any, what: str) -> Any:
    try:
        return adapter.validate_python(data)
    except ValidationError as e:
        raise ValueError(_one_line(e, what)) from e


def validate_spec(spec: Any) -> dict[str, Any]:
    """Check a parsed ``spec.json`` against :class:`CheckpointSpec`; returns it unchanged, or raises ``ValueError``."""
    if not isinstance(spec, dict):
        raise ValueError("spec must be a JSON object")
    if spec.get("format") != SPEC_FORMAT or spec.get("format_version") != SPEC_FORMAT_VERSION:
        raise ValueError(f"spec format is {spec.get('format')!r} v{spec.get('format_version')!r}, expected {SPEC_FORMAT!r} v{SPEC_FORMAT_VERSION}")
    _validated(_SPEC, spec, "spec")
    return spec


def validate_manifest(manifest: Any) -> ExportManifest:
    """A parsed ``manifest.json`` as an :class:`ExportManifest`, or ``ValueError`` naming the first bad field."""
    return _validated(_MANIFEST, manifest, "manifest")


def validate_rating(**fields: Any) -> Rating:
    """A :class:`Rating` from its fields, checked by type and range, or ``ValueError`` naming the bad field."""
    return _validated(_RATING, fields, "rating")


def info_from_spec(spec: Mapping[str, Any], version: int, spec_sha256: str) -> CheckpointInfo:
    """The index entry a validated ``spec`` stands for (tags and aliases left empty)."""
    return CheckpointInfo(
        id=spec["id"], name=spec["name"], version=version, env_name=spec["env"]["name"], env_signature=spec["env"]["signature"],
        role=spec.get("role"), algo=spec["algo"], arch=dict(spec["arch"]), steps=int(spec["steps"]), parent=spec.get("parent"),
        created=spec["created"], weights_sha256=spec["weights"]["sha256"], weights_bytes=int(spec["weights"]["bytes"]),
        spec_sha256=spec_sha256, metrics=dict(spec["metrics"]),
    )
