"""Retired: ``mythwind_innkeeper_v5`` replaced version 3 (rules, observations or rewards changed); importing this raises."""

from mythzoo.envs.core.errors import RetiredEnvError

raise ImportError(str(RetiredEnvError("mythwind_innkeeper_v3", "mythwind_innkeeper_v5")))
