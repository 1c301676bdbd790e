"""Mythwind: the Innkeeper, a solo inn-management campaign: the rules engine (``rules``), the Town
Charter data and its loader (``data/town_charter.json``, ``components``), the action table
(``actions``), the observation encoding (``observation``), the PettingZoo env (``env``, exported as
``mythzoo.envs.mythwind_innkeeper_v5``), a plain Gymnasium env with action masks (``gym_env``), the
ansi renderer (``render``) and the game's declaration (``spec``). It imports ``mythzoo.envs.core``
and itself only: never another game, ``mythzoo.policies`` or ``mythzoo.training`` (the spec names its
heuristic as a string).
"""
