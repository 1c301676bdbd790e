"""The typed fields the registry's formats are built from (pydantic v2 annotations).

Every scalar is strict: no bool where an int or a number belongs, no text where a number belongs,
no number where text belongs. Integers fit SQLite's INTEGER (int64); numbers are finite; ids,
hashes, names, aliases, tags and timestamps follow the registry's rules (:mod:`.refs`); free JSON
(metrics, env config, eval results) holds only JSON values, with finite numbers.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from mythzoo.policies.registry.refs import SHA_RE, check_alias, check_name, check_tag, is_checkpoint_id

__all__ = [
    "INT64_MAX", "AliasName", "CheckpointId", "Count", "FiniteFloat", "FormatVersion", "JsonObject", "Name", "NonEmptyText",
    "NonNegativeFloat", "PositiveCount", "Sha256", "Tag", "Text", "Timestamp", "check_json",
]

INT64_MAX = 2**63 - 1  # SQLite's INTEGER is a signed 64-bit number


def _checkpoint_id(value: str) -> str:
    if not is_checkpoint_id(value):
        raise ValueError(f"{value!r} is not a checkpoint id (12 lowercase hex digits)")
    return value


def _sha256(value: str) -> str:
    if not SHA_RE.match(value):
        raise ValueError(f"{value!r} is not a sha256 (64 lowercase hex digits)")
    return value


def _timestamp(value: str) -> str:
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not an ISO 8601 time (such as 2025-05-01T12:00:00.000Z)") from None
    return value


def _json_problem(value: Any, path: str) -> str | None:
    """What makes ``value`` other than plain JSON with finite numbers (``None``: nothing)."""
    where = path or "the value"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{where} is {value!r}: numbers must be finite (no NaN/inf)"
    if value is None or isinstance(value, (str, int)):  # bool is an int
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{where} has the key {key!r}: JSON keys are text"
            problem = _json_problem(item, f"{path}.{key}" if path else key)
            if problem:
                return problem
        return None
    if isinstance(value, list):
        return next((p for i, item in enumerate(value) if (p := _json_problem(item, f"{path}[{i}]"))), None)
    return f"{where} is a {type(value).__name__}, not a JSON value"


def check_json(value: Any) -> Any:
    """``value`` if it is plain JSON (dicts with text keys, lists, text, numbers, bool, null) with finite numbers."""
    problem = _json_problem(value, "")
    if problem:
        raise ValueError(problem)
    return value


Text = Annotated[str, Field(strict=True)]
NonEmptyText = Annotated[str, Field(strict=True, min_length=1)]
Count = Annotated[int, Field(strict=True, ge=0, le=INT64_MAX)]
PositiveCount = Annotated[int, Field(strict=True, ge=1, le=INT64_MAX)]
FiniteFloat = Annotated[float, Field(strict=True, allow_inf_nan=False)]  # an int is taken as a float, a bool is not
NonNegativeFloat = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0)]
FormatVersion = Annotated[int, Field(strict=True, ge=1, le=1)]  # the only version of each format so far
CheckpointId = Annotated[str, Field(strict=True), AfterValidator(_checkpoint_id)]
Sha256 = Annotated[str, Field(strict=True), AfterValidator(_sha256)]
Timestamp = Annotated[str, Field(strict=True), AfterValidator(_timestamp)]
Name = Annotated[str, Field(strict=True), AfterValidator(check_name)]
AliasName = Annotated[str, Field(strict=True), AfterValidator(check_alias)]
Tag = Annotated[str, Field(strict=True), AfterValidator(check_tag)]
JsonObject = Annotated[dict[str, Any], AfterValidator(check_json)]
