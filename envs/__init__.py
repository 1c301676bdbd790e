"""mythzoo environments: one folder per game, each declaring a :class:`GameSpec`.

``from mythzoo.envs import mythic_baths_v1`` then ``mythic_baths_v1.env(num_players=3)``.
Importing this package also registers every env with PettingZoo's registry, so
``pettingzoo.make("aec", "mythzoo/mythic_baths-v1")`` works, and the solo game with Gymnasium's:
``gymnasium.make("mythzoo/MythwindInnkeeper-v5")``.

What lives here: ``core/`` (what every game shares: the AEC env, the rules base, observation
layouts, action tables, the spec), one folder per game (rules, data, observation, env, render,
spec) and one versioned module per game (``<game>_v<N>.py``). Nothing here imports torch,
training or evaluation. A new game is one folder plus one line in :data:`GAMES`.
"""

from __future__ import annotations

import re
from typing import Any

from mythzoo.envs import mythic_baths_v1, mythsgate_v2, mythwind_innkeeper_v5
from mythzoo.envs.core.errors import IllegalActionError, RetiredEnvError
from mythzoo.envs.core.spec import GameSpec
from mythzoo.envs.mythic_baths.spec import SPEC as MYTHIC_BATHS
from mythzoo.envs.mythsgate.spec import SPEC as MYTHSGATE
from mythzoo.envs.mythwind_innkeeper.spec import SPEC as MYTHWIND_INNKEEPER

# Every game mythzoo ships: one line each.
GAMES: tuple[GameSpec, ...] = (MYTHIC_BATHS, MYTHSGATE, MYTHWIND_INNKEEPER)

# versioned env name -> spec, and every accepted name (versioned, unversioned, aliases) -> versioned name.
SPECS: dict[str, GameSpec] = {}
ALIASES: dict[str, str] = {}
# env name -> (module, PettingZoo id, what it is): the older view of SPECS, kept in step with it.
ENVS: dict[str, tuple[Any, str, str]] = {}
# Gymnasium ids of the single-agent envs -> "module:class" of their gymnasium.Env.
GYMNASIUM_ENVS: dict[str, str] = {}


def register(spec: GameSpec) -> None:
    """Make a game known to every mythzoo tool, PettingZoo's registry and (solo games) Gymnasium's.

    Registering the same spec again is a no-op; another spec under a taken name is an error."""
    old = SPECS.get(spec.env_name)
    if old is not None:
        if old == spec:
            return
        raise ValueError(f"an env named {spec.env_name!r} is already registered")
    SPECS[spec.env_name] = spec
    ALIASES[spec.env_name] = spec.env_name
    # The unversioned name and the aliases follow the newest version.
    for name in (spec.name, *spec.aliases):
        current = ALIASES.get(name)
        if current is None or SPECS[current].version <= spec.version:
            ALIASES[name] = spec.env_name
    ENVS[spec.env_name] = (_LazyModule(spec), spec.pettingzoo_id, spec.title)
    _register_with_pettingzoo(spec)
    if spec.gymnasium_id is not None:
        GYMNASIUM_ENVS[spec.gymnasium_id] = str(spec.gymnasium_entry_point)
        _register_with_gymnasium(spec)


def unregister(env_name: str) -> None:
    """Forget a registered game (tests register toy games and remove them again)."""
    spec = SPECS.pop(env_name)
    ENVS.pop(env_name, None)
    for name in [k for k, v in ALIASES.items() if v == env_name]:
        del ALIASES[name]
    if spec.gymnasium_id is not None:
        GYMNASIUM_ENVS.pop(spec.gymnasium_id, None)


def resolve(name: str) -> str:
    """The versioned env name for ``name`` (``mythic_baths`` -> ``mythic_baths_v1``).

    An older version of a known game raises :class:`RetiredEnvError` naming the current one; any
    other unknown name a ``KeyError`` listing the envs."""
    key = ALIASES.get(name, name)
    if key not in SPECS:
        replacement = retired(name)
        if replacement is not None:
            raise RetiredEnvError(name, replacement)
        raise KeyError(f"unknown env {name!r}; available: {sorted(SPECS)}")
    return key


def retired(name: str) -> str | None:
    """The current versioned name if ``name`` is an older version of a known game (``mythic_baths_v1``
    -> ``mythic_baths_v1``), else ``None``."""
    match = re.fullmatch(r"(?P<game>.+)_v(?P<version>\d+)", name)
    if match is None or match["game"] not in ALIASES:
        return None
    current = SPECS[ALIASES[match["game"]]]
    return current.env_name if int(match["version"]) < current.version else None


def spec(name: str) -> GameSpec:
    """The :class:`GameSpec` of env ``name`` (versioned or not)."""
    return SPECS[resolve(name)]


def make(name: str, **kwargs: Any) -> Any:
    """``env(**kwargs)`` of the env called ``name`` (versioned or not)."""
    return spec(name).make(**kwargs)


class _LazyModule:
    """Stands for a game's env module in :data:`ENVS` (``.env``, ``.raw_env``, ``__name__``)."""

    def __init__(self, spec: GameSpec):
        self._spec = spec
        self.__name__ = spec.module

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._spec.env_module(), attr)


def _register_with_pettingzoo(spec: GameSpec) -> None:
    try:
        from pettingzoo import register as pz_register
        from pettingzoo.env_registry.registration import aec_registry
    except ImportError:  # older PettingZoo without a registry: the modules still work directly
        return
    if spec.pettingzoo_id not in aec_registry:
        pz_register("aec", spec.pettingzoo_id, entry_point=f"{spec.module}:env")


def _register_with_gymnasium(spec: GameSpec) -> None:
    import gymnasium

    if spec.gymnasium_id not in gymnasium.registry:
        # ActionMasks outermost: gymnasium.make(id).action_masks() reaches the env's masks
        # (Gymnasium 1.x wrappers forward no attributes).
        masks = gymnasium.envs.registration.WrapperSpec("ActionMasks", "mythzoo.envs.core.gym_env:ActionMasks", {})
        gymnasium.register(id=spec.gymnasium_id, entry_point=spec.gymnasium_entry_point, additional_wrappers=(masks,))


for _spec in GAMES:
    register(_spec)

__all__ = [
    "ALIASES", "ENVS", "GAMES", "GYMNASIUM_ENVS", "SPECS", "GameSpec", "IllegalActionError", "RetiredEnvError", "make",
    "mythic_baths_v1", "mythsgate_v2", "mythwind_innkeeper_v5", "register", "resolve", "retired", "spec", "unregister",
]
