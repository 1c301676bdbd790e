"""Retired: ``mythwind_innkeeper_v5`` replaced version 1 (rules, observations or rewards changed); importing this raises."""

from mythzoo.envs.core.errors import RetiredEnvError

raise ImportError(str(RetiredEnvError("mythwind_innkeeper_v1", "mythwind_innkeeper_v5")))
