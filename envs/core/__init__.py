"""What every game shares: the AEC env base (``aec``: reset, step, rewards, get/set state), the rules
interface a game's engine implements, named action tables (``actions``), observation layouts in one
flat buffer (``observer``), seeded JSON-safe randomness (``rng``), state serialisation
(``serialize``), ansi-rendering helpers (``render``), shared errors (``errors``) and the declaration
of a game (``spec``: :class:`GameSpec`). It imports only numpy, gymnasium, pettingzoo and itself:
never a game folder, ``mythzoo.policies`` or ``mythzoo.training``.
"""
