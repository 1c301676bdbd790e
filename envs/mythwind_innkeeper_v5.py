"""Mythwind: the Innkeeper, version 5: ``env()`` (standard wrapper behaviour), ``raw_env`` (raises on
illegal actions) and ``MythwindInnkeeperGymEnv`` (a plain Gymnasium env with action masks)."""

from mythzoo.envs.mythwind_innkeeper.env import env, raw_env
from mythzoo.envs.mythwind_innkeeper.gym_env import MythwindInnkeeperGymEnv

__all__ = ["env", "raw_env", "MythwindInnkeeperGymEnv"]
