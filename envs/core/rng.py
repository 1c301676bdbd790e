"""Seeded randomness that survives JSON: every game draws only from its own Generator."""

from __future__ import annotations

from typing import Any

import numpy as np

from mythzoo.envs.core.validate import check_int


def make_rng(seed: int | None) -> np.random.Generator:
    """A PCG64 generator; ``None`` draws fresh OS entropy."""
    return np.random.Generator(np.random.PCG64(seed))


def rng_to_json(rng: np.random.Generator) -> dict[str, Any]:
    """The generator's full state as plain JSON (ints and strings)."""
    st = rng.bit_generator.state
    return {"bit_generator": st["bit_generator"], "state": {k: int(v) for k, v in st["state"].items()}, "has_uint32": int(st["has_uint32"]), "uinteger": int(st["uinteger"])}


U128 = 2**128 - 1
U32 = 2**32 - 1


def rng_from_json(data: Any) -> np.random.Generator:
    """Rebuild a generator from :func:`rng_to_json` output; ``ValueError`` naming the field if
    malformed. Every field is checked exactly (:func:`~mythzoo.envs.core.validate.check_int`): a
    negative, too large, float or boolean value is refused, never truncated or wrapped."""
    if not isinstance(data, dict):
        raise ValueError(f"malformed rng state: must be a dict, got {type(data).__name__}")
    if set(data) != {"bit_generator", "state", "has_uint32", "uinteger"}:
        raise ValueError(f"malformed rng state: keys must be bit_generator, state, has_uint32, uinteger; got {sorted(map(str, data))}")
    if data["bit_generator"] != "PCG64":
        raise ValueError(f"unsupported bit generator {data['bit_generator']!r}")
    inner = data["state"]
    if not isinstance(inner, dict) or set(inner) != {"state", "inc"}:
        raise ValueError("malformed rng state: rng['state'] must be a dict with exactly 'state' and 'inc'")
    check_int(inner["state"], 0, U128, "rng.state.state")
    check_int(inner["inc"], 0, U128, "rng.state.inc")
    if inner["inc"] % 2 == 0:  # PCG64 increments are odd; numpy never writes an even one
        raise ValueError(f"invalid game state: rng.state.inc must be odd, got {inner['inc']!r}")
    check_int(data["has_uint32"], 0, 1, "rng.has_uint32")
    check_int(data["uinteger"], 0, U32, "rng.uinteger")
    bg = np.random.PCG64()
    bg.state = {
        "bit_generator": "PCG64",
        "state": {"state": inner["state"], "inc": inner["inc"]},
        "has_uint32": data["has_uint32"],
        "uinteger": data["uinteger"],
    }
    return np.random.Generator(bg)


# A SeedSequence made once: PCG64 built from it skips both the OS entropy read and building a
# new SeedSequence (the state it seeds is overwritten at once), 30% of copy_rng's cost.
_THROWAWAY_SEED = np.random.SeedSequence(0)


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state (the bit generator's ``state`` copied into a
    fresh PCG64), about 4x cheaper than ``copy.deepcopy``."""
    bg = np.random.PCG64(_THROWAWAY_SEED)
    bg.state = rng.bit_generator.state
    return np.random.Generator(bg)
