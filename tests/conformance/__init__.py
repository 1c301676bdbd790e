"""The conformance suite: every check that holds for any mythzoo game, parametrized over every registered
:class:`~mythzoo.envs.core.spec.GameSpec` (``mythzoo.envs.SPECS``, the toy games of ``tests/conftest.py``
included) and, where it matters, every seat count. What a game adds beyond its spec lives in one entry
of ``games.py``; its oracle in ``tests/oracles/<name>.py``."""
