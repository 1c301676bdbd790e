"""Retired: ``mythic_baths_v1`` replaced version 0 (rules, observations or rewards changed); importing this raises."""

from mythzoo.envs.core.errors import RetiredEnvError

raise ImportError(str(RetiredEnvError("mythic_baths_v0", "mythic_baths_v1")))
