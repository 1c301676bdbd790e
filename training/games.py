"""The games a training run plays, made by name and env arguments (torch-free: the evaluation uses it).

:class:`GameMaker` makes AEC envs (cycling through env-argument variants, a batch mixing table
sizes) or one batch of games through ``mythzoo.vector``; :func:`runner_games` gives the shared game
runner what to play on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

EnvKwargs = Mapping[str, Any] | Sequence[Mapping[str, Any]]


class GameMaker:
    """Makes the games of one env: ``maker()`` is a new AEC env, ``maker.batched(n)`` ``n`` games
    through the batched API (:class:`mythzoo.vector.VectorGames`, ``autoreset=False``: what the
    shared game runner plays). With several ``env_kwargs`` variants, AEC envs cycle through them
    (env ``k`` made with ``variants[k % len]``); batched games need one variant."""

    def __init__(self, env_name: str, env_kwargs: EnvKwargs):
        self.env_name = env_name
        self.variants = [dict(env_kwargs)] if isinstance(env_kwargs, Mapping) else [dict(k) for k in env_kwargs]
        if not self.variants:
            raise ValueError("env_kwargs: an empty list of variants")
        self.made = 0

    def __call__(self) -> Any:
        from mythzoo import envs as mz_envs

        kwargs = self.variants[self.made % len(self.variants)]
        self.made += 1
        return mz_envs.make(self.env_name, **kwargs)

    def batched(self, num_envs: int) -> Any:
        """``num_envs`` games of the (single) variant, as one ``VectorGames``."""
        from mythzoo.vector import VectorGames

        if len(self.variants) != 1:
            raise ValueError(f"batched games need one set of env arguments, not {len(self.variants)} variants")
        return VectorGames(self.env_name, num_envs, autoreset=False, **self.variants[0])


def game_maker(env_name: str, env_kwargs: EnvKwargs) -> GameMaker:
    """A :class:`GameMaker`: a function that makes the games of ``env_name`` (one dict of env
    arguments, or a list of them: the games then cycle through the list, so one batch mixes, for
    example, 2-, 3- and 4-player tables; config ``env_kwargs_variants``)."""
    return GameMaker(env_name, env_kwargs)


def runner_games(make_env: Callable[[], Any], count: int) -> Any:
    """What the shared game runner plays ``count`` games at a time on: batched games when
    ``make_env`` is a single-variant :class:`GameMaker`, else ``count`` AEC envs from it."""
    if isinstance(make_env, GameMaker) and len(make_env.variants) == 1:
        return make_env.batched(count)
    return [make_env() for _ in range(count)]
