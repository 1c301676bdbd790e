"""Mythsgate, version 2: ``env()`` (standard wrapper behaviour) and ``raw_env`` (raises on illegal actions)."""

from mythzoo.envs.mythsgate.env import env, raw_env

__all__ = ["env", "raw_env"]
