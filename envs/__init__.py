"""mythzoo environments.

``from mythzoo.envs import mythic_baths_v0`` then ``mythic_baths_v0.env(num_players=3)``.
Importing this package also registers every env with PettingZoo's registry, so
``pettingzoo.make("aec", "mythzoo/mythic_baths-v0")`` works, and the solo game with Gymnasium's:
``gymnasium.make("mythzoo/MythwindInnkeeper-v0")``.
"""

from __future__ import annotations

from typing import Any

from mythzoo.envs import mythic_baths_v0, mythsgate_v0, mythwind_innkeeper_v0
from mythzoo.envs.core.errors import IllegalActionError

# env name -> (module, PettingZoo id, what it is)
ENVS: dict[str, tuple[Any, str, str]] = {
    "mythic_baths_v0": (mythic_baths_v0, "mythzoo/mythic_baths-v0", "Mythic Baths: 2-5 player competitive card game"),
    "mythsgate_v0": (mythsgate_v0, "mythzoo/mythsgate-v0", "Mythsgate: the Great Invoker against 1-5 heroes of the Atari League"),
    "mythwind_innkeeper_v0": (mythwind_innkeeper_v0, "mythzoo/mythwind_innkeeper-v0", "Mythwind: the Innkeeper, a solo inn-management campaign"),
}
ALIASES = {"mythic_baths": "mythic_baths_v0", "mythsgate": "mythsgate_v0", "mythwind_innkeeper": "mythwind_innkeeper_v0", "innkeeper": "mythwind_innkeeper_v0"}
# Gymnasium ids of the single-agent envs -> "module:class" of their gymnasium.Env.
GYMNASIUM_ENVS = {"mythzoo/MythwindInnkeeper-v0": "mythzoo.envs.mythwind_innkeeper.gym_env:MythwindInnkeeperGymEnv"}


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


def _register_with_gymnasium() -> None:
    import gymnasium

    for gym_id, entry_point in GYMNASIUM_ENVS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point=entry_point)


_register_with_pettingzoo()
_register_with_gymnasium()

__all__ = ["ENVS", "GYMNASIUM_ENVS", "IllegalActionError", "make", "mythic_baths_v0", "mythsgate_v0", "mythwind_innkeeper_v0", "resolve"]
