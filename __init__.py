"""mythzoo: mythic tabletop games as research-grade PettingZoo environments.

The repository root is the ``mythzoo`` package (``pyproject.toml`` maps it, ``setup.py`` finds
every sub-package in the folder tree): ``envs/`` is ``mythzoo.envs``, ``policies/`` is
``mythzoo.policies``, ``training/`` is ``mythzoo.training``, ``configs/`` is ``mythzoo.configs``,
and ``cli.py`` is the ``mythzoo`` command line. The layers, each importing only those before it:
``envs`` (the games), ``policies`` (what acts in them, the registry), the evaluation modules of
``training`` (no torch), then training itself; the command line imports each lazily, when its
subcommand runs. ``benchmarks/``, ``docs/`` and ``tests/`` are not part of the package.
"""

__version__ = "0.1.0"
