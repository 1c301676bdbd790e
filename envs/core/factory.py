"""The two faces of every game, made the same way: ``raw_env`` and ``env()``.

``raw_env`` is the game's :class:`~mythzoo.envs.core.aec.MythzooAECEnv` subclass: an illegal
action raises ``IllegalActionError`` and changes nothing. ``env()`` is PettingZoo's standard
behaviour (an illegal action ends the game with -1 for the offender), built into the class through
its ``_strict`` argument instead of three wrapper layers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

E = TypeVar("E")


def standard_env(raw_env: type[E]) -> Callable[..., E]:
    """The ``env(**kwargs)`` factory of ``raw_env``: the same arguments, PettingZoo's standard behaviour."""

    @functools.wraps(raw_env, assigned=("__module__",), updated=())
    def env(**kwargs: Any) -> E:
        kwargs["_strict"] = False
        return raw_env(**kwargs)

    env.__doc__ = (
        f"{raw_env.__name__} with PettingZoo's standard wrapper behaviour built in: an illegal action ends the "
        "game with -1 for the offender; out-of-range actions and steps before reset raise."
    )
    env.__qualname__ = env.__name__ = "env"
    return env
