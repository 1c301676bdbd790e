"""Retired: ``mythsgate_v2`` replaced version 0 (rules, observations or rewards changed); importing this raises."""

from mythzoo.envs.core.errors import RetiredEnvError

raise ImportError(str(RetiredEnvError("mythsgate_v0", "mythsgate_v2")))
