"""mythzoo: mythic tabletop games as research-grade PettingZoo environments.

The repository root is the ``mythzoo`` package (see ``[tool.setuptools] package-dir``):
``envs/`` is ``mythzoo.envs``, ``training/`` is ``mythzoo.training``, ``policies/`` is
``mythzoo.policies``.
"""

__version__ = "0.1.0"
