"""Mythsgate, the Great Invoker against 1-5 heroes: the rules engine (``rules``), the map, character
and card data and their loader (``data/*.json``, ``gamedata``), one action table per role
(``actions``), the observation encoding per role (``observation``), the PettingZoo env (``env``,
exported as ``mythzoo.envs.mythsgate_v2``), the ansi renderer (``render``) and the game's declaration
(``spec``). It imports ``mythzoo.envs.core`` and itself only: never another game,
``mythzoo.policies`` or ``mythzoo.training`` (the spec names its heuristic as a string).
"""
