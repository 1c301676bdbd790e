"""A game state's plain-data fields to JSON and back, the same way for every game.

A game's ``State`` is a dataclass; ``STATE_FIELDS`` lists the fields that are the game (derived
caches are left out), and ``rng`` is its numpy Generator, stored as PCG64 state.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from mythzoo.envs.core.rng import rng_from_json, rng_to_json


def fields_to_json(s: Any, fields: Sequence[str]) -> dict[str, Any]:
    """``fields`` of ``s`` (deep-copied) plus ``rng`` as JSON data."""
    d = {name: copy.deepcopy(getattr(s, name)) for name in fields}
    d["rng"] = rng_to_json(s.rng)
    return d


def fields_from_json(d: Any, fields: Sequence[str]) -> dict[str, Any]:
    """Constructor arguments for a game's ``State`` from :func:`fields_to_json` data.

    Checks the shape only (a dict with exactly ``fields`` and ``rng``); the game validates the
    values. ``ValueError`` names what is wrong."""
    if not isinstance(d, dict):
        raise ValueError("game state must be a dict")
    missing = [k for k in (*fields, "rng") if k not in d]
    if missing:
        raise ValueError(f"game state is missing fields: {missing}")
    extra = [k for k in d if k not in fields and k != "rng"]
    if extra:
        raise ValueError(f"game state has unknown fields: {extra}")
    kw = {name: copy.deepcopy(d[name]) for name in fields}
    kw["rng"] = rng_from_json(d["rng"])
    return kw
