"""mythzoo environments.

``from mythzoo.envs import mythic_baths_v0`` then ``mythic_baths_v0.env(num_players=3)``.
Importing this package also registers every env with PettingZoo's registry, so
``pettingzoo.make("aec", "mythzoo/mythic_baths-v0")`` works.
"""

from __future__ import annotations

from typing import Any

from mythzoo.envs import mythic_baths_v0
from mythzoo.envs.core.errors import IllegalActionError

# env name -> (module, PettingZoo id, what it is)
ENVS: dict[str, tuple[Any, str, str]] = {
    "mythic_baths_v0": (mythic_baths_v0, "mythzoo/mythic_baths-v0", "Mythic Baths: 2-5 player competitive card game"),
}
ALIASES = {"mythic_baths": "mythic_baths_v0"}


def resolve(name: str) -> str:
    """The versioned env name for ``name`` (``mythic_baths`` -> ``mythic_baths_v0``)."""
    key = ALIASES.get(name, name)
    if key not in ENVS:
        raise KeyError(f"unknown env {name!r}; available: {sorted(ENVS)}")
    return key


def make(name: str, **kwargs: Any) -> Any:
    """``env(**kwargs)`` of the env called ``name`` (versioned or not)."""
    return ENVS[resolve(name)][0].env(**kwargs)


def _register_with_pettingzoo() -> None:
    try:
        from pettingzoo import register
        from pettingzoo.env_registry.registration import aec_registry
    except ImportError:  # older PettingZoo without a registry: the modules still work directly
        return
    for module, pz_id, _ in ENVS.values():
        if pz_id not in aec_registry:
            register("aec", pz_id, entry_point=f"{module.__name__}:env")


_register_with_pettingzoo()

__all__ = ["ENVS", "IllegalActionError", "make", "mythic_baths_v0", "resolve"]
