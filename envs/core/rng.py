"""Seeded randomness that survives JSON: every game draws only from its own Generator."""

from __future__ import annotations

from typing import Any

import numpy as np


def make_rng(seed: int | None) -> np.random.Generator:
    """A PCG64 generator; ``None`` draws fresh OS entropy."""
    return np.random.Generator(np.random.PCG64(seed))


def rng_to_json(rng: np.random.Generator) -> dict[str, Any]:
    """The generator's full state as plain JSON (ints and strings)."""
    st = rng.bit_generator.state
    return {"bit_generator": st["bit_generator"], "state": {k: int(v) for k, v in st["state"].items()}, "has_uint32": int(st["has_uint32"]), "uinteger": int(st["uinteger"])}


def rng_from_json(data: Any) -> np.random.Generator:
    """Rebuild a generator from :func:`rng_to_json` output; raises ``ValueError`` if malformed."""
    try:
        if data["bit_generator"] != "PCG64":
            raise ValueError(f"unsupported bit generator {data['bit_generator']!r}")
        bg = np.random.PCG64()
        bg.state = {
            "bit_generator": "PCG64",
            "state": {"state": int(data["state"]["state"]), "inc": int(data["state"]["inc"])},
            "has_uint32": int(data["has_uint32"]),
            "uinteger": int(data["uinteger"]),
        }
    except (KeyError, TypeError) as e:
        raise ValueError(f"malformed rng state: {e!r}") from e
    return np.random.Generator(bg)


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state, about 3x cheaper than ``copy.deepcopy``
    (a fixed seed skips the OS entropy read; the state is overwritten at once)."""
    bg = np.random.PCG64(0)
    bg.state = rng.bit_generator.state
    return np.random.Generator(bg)
