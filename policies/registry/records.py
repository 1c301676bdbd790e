"""What the registry hands out: plain, frozen records of index rows, and the registry's clock.

Records read back from the index are built as they are; :class:`Rating` is also part of the
export format, and is validated (by pydantic, through its typed fields) when one arrives from
outside: an archive's manifest, or :meth:`Registry.record_rating`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from pydantic import ConfigDict, with_config

from mythzoo.policies.registry.fields import Count, FiniteFloat, NonEmptyText, NonNegativeFloat, PositiveCount, Timestamp

__all__ = ["Alias", "CheckpointInfo", "EvalRecord", "Rating", "VerifyReport", "utc_now"]


def utc_now() -> str:
    """The current UTC time as the registry writes it: ``2025-01-02T03:04:05.678Z``."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class CheckpointInfo:
    """One checkpoint's index entry (tags and aliases as they were when it was read)."""

    id: str
    name: str
    version: int
    env_name: str
    env_signature: str
    role: str | None
    algo: str
    arch: dict[str, Any]
    steps: int
    parent: str | None
    created: str
    weights_sha256: str
    weights_bytes: int
    spec_sha256: str
    metrics: dict[str, Any]
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return hash(self.id)

    @property
    def ref(self) -> str:
        """``name:version``, the ref that names this checkpoint forever."""
        return f"{self.name}:{self.version}"


@with_config(ConfigDict(extra="forbid"))
@dataclass(frozen=True)
class Rating:
    """A skill rating of a checkpoint for one env and player count (e.g. OpenSkill's)."""

    env_name: NonEmptyText
    num_players: PositiveCount
    mu: FiniteFloat
    sigma: NonNegativeFloat
    ordinal: FiniteFloat
    games: Count
    updated: Timestamp


@dataclass(frozen=True)
class EvalRecord:
    """One recorded evaluation result (free-form JSON)."""

    id: int
    name: str
    created: str
    results: dict[str, Any]


@dataclass(frozen=True)
class Alias:
    """A moving name for one checkpoint of ``name``."""

    name: str
    alias: str
    checkpoint_id: str
    version: int
    updated: str


@dataclass
class VerifyReport:
    """What :meth:`Registry.verify` found: errors fail verification; leftovers are harmless garbage."""

    checked: int = 0
    errors: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)
    cleaned: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every checked file matched its hash and the index agreed with the folders."""
        return not self.errors
