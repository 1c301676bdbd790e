"""Mythwind: the Innkeeper as a plain single-agent Gymnasium env with action masks.

``MythwindInnkeeperGymEnv(**kwargs)`` takes the same game options as ``raw_env`` (``days_per_season``,
``seasons``, ``reward_mode``, ``max_turns``, ``data``, ``render_mode``) and is the core
:class:`~mythzoo.envs.core.gym_env.SoloGymEnv` over it: the same observation vector, mask and
spaces as the AEC env, ``action_masks()`` as sb3-contrib's ``MaskablePPO`` expects, and the AEC
env's rewards (the change of worth, coins plus the inn's sale value, per step, or the net total at the end). An illegal action (one
the mask rules out) ends the episode with reward -1 and ``info["illegal_action"]``
(``illegal_action="raise"`` raises ``IllegalActionError`` instead). The episode seed drawn by
``reset(seed=...)`` determines every random draw of the campaign. Where the mask is (``obs``,
``info``, ``action_masks()`` through ``gymnasium.make``), why it is never all zero and how
``gymnasium.make_vec`` autoresets: ``envs/core/gym_env.py`` and ``docs/envs/mythwind_innkeeper.md``.
"""

from __future__ import annotations

from pathlib import Path

from mythzoo.envs.core.gym_env import SoloGymEnv
from mythzoo.envs.mythwind_innkeeper.env import DEFAULT_DAYS_PER_SEASON, DEFAULT_SEASONS, raw_env


class MythwindInnkeeperGymEnv(SoloGymEnv):
    """One campaign per episode; reward = change of worth per step (or the total at the end).

    ``info`` carries ``coins``, ``worth``, ``earned``, ``renown``, ``renown_level``, ``seated``, ``unseated``,
    ``day``, ``season`` and ``illegal_action``, as the AEC env's ``infos["innkeeper"]`` does.
    """

    raw_env_class = raw_env

    def __init__(
        self,
        days_per_season: int = DEFAULT_DAYS_PER_SEASON,
        seasons: int = DEFAULT_SEASONS,
        render_mode: str | None = None,
        reward_mode: str = "coins",
        max_turns: int | None = None,
        data: str | Path | None = None,
        illegal_action: str = "terminate",
    ):
        super().__init__(
            render_mode=render_mode, illegal_action=illegal_action, days_per_season=days_per_season, seasons=seasons,
            reward_mode=reward_mode, max_turns=max_turns, data=data,
        )
