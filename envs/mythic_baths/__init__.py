"""Mythic Baths, a 2-5 player competitive card game: the rules engine (``rules``), the card data and
its loader (``data/reconstructed.json``, ``cards``), the action table (``actions``), the observation
encoding (``observation``), the PettingZoo env (``env``, exported as ``mythzoo.envs.mythic_baths_v1``),
the ansi renderer (``render``) and the game's declaration (``spec``). It imports ``mythzoo.envs.core``
and itself only: never another game, ``mythzoo.policies`` or ``mythzoo.training`` (the spec names its
heuristic as a string).
"""
