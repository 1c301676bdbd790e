"""What every kind of tournament result shares: JSON output, lookup by label, the registry hand-off."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from mythzoo.evaluation.loading import is_object_ref, open_registry
from mythzoo.evaluation.records import HUMAN

RESULT_FORMAT = "mythzoo-eval/1"


def nan_none(x: float | None) -> float | None:
    """``x``, or None for nan (strict JSON has no NaN)."""
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


class Result:
    """Methods shared by the result dataclasses (each has ``env``, ``stats``, ``records``,
    ``registry_notes`` and its own ``to_dict``)."""

    env: str
    stats: list[Any]
    records: list[Any]
    registry_notes: list[str]

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.records)

    def by_label(self) -> dict[str, Any]:
        """The per-policy statistics keyed by policy label."""
        return {s.label: s for s in self.stats}

    def to_dict(self, include_records: bool = True) -> dict[str, Any]:
        raise NotImplementedError

    def _finish_dict(self, d: dict[str, Any], include_records: bool) -> dict[str, Any]:
        if self.registry_notes:
            d["registry"] = self.registry_notes
        if include_records:
            d["records"] = [r.to_dict() for r in self.records]
        return d

    def to_json(self, path: str | Path, include_records: bool = True) -> None:
        """Write :meth:`to_dict` to ``path``."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_dict(include_records), indent=1) + "\n")

    def record_in(self, registry: Any) -> list[str]:
        """Store what the evaluation says of each checkpoint in ``registry`` (a Registry or its path;
        baselines, code refs, policy objects and a person are skipped); returns one note per checkpoint."""
        from mythzoo.policies.refs import is_registry_ref

        checkpoints = [s for s in self.stats if is_registry_ref(s.ref) and not is_object_ref(s.ref) and s.ref != HUMAN]
        if not checkpoints:  # nothing to record: the registry need not even exist
            return []
        reg = open_registry(registry)
        summary = self.to_dict(include_records=False)
        return [self._record_policy(reg, s, summary) for s in checkpoints]

    def _record_policy(self, reg: Any, s: Any, summary: dict[str, Any]) -> str:
        """Team and solo games: ``record_eval(id, summary, name="eval <env> <role or solo>")``, no rating."""
        what = getattr(s, "role", None) or "solo"
        reg.record_eval(s.played_as, {**summary, "policy": s.label}, name=f"eval {self.env} {what}")
        return f"{s.label} ({s.played_as}): eval result recorded"
