"""Everything that acts in an env and everything that holds a learned one: the policy interface and
the random policy (``base``), baselines by name (``baselines``), one rule-based heuristic per game
(``<game>_heuristic``; the larger ones are packages split by concern), numpy network policies served
without torch (``neural``), policy refs such as ``heuristic`` or ``name@latest`` (``refs``) and the
checkpoint registry with its command line (``registry``, ``registry_cli``). Policies may import
``mythzoo.envs`` (they read only what an agent sees: observation, mask, the env's public layouts)
and the command line's argument helpers (``mythzoo.cli``); never ``mythzoo.training``, torch or
Stable-Baselines3.
"""
