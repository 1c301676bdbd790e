"""Retired: ``mythsgate_v2`` replaced version 1 (rules, observations or rewards changed); importing this raises."""

from mythzoo.envs.core.errors import RetiredEnvError

raise ImportError(str(RetiredEnvError("mythsgate_v1", "mythsgate_v2")))
