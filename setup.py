"""The package list, found from the folder tree: the repository root is the ``mythzoo`` package.

Every folder with an ``__init__.py`` below the root (``envs/``, ``envs/<game>/``, ``policies/``,
``training/``, ``configs/``, ...) becomes ``mythzoo.<folder>``; a new game folder needs no edit
here or in pyproject.toml. The package data (each game's ``data/*.json``, the ``configs/``
presets) is declared by pattern in pyproject.toml, and so is everything else.
"""

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

# Folders that are not part of the library even if one gains an __init__.py.
NOT_SHIPPED = ["tests", "tests.*", "benchmarks", "benchmarks.*", "docs", "docs.*", "build", "build.*", "dist", "dist.*"]


class BuildPy(build_py):
    """Builds every module of the root package but this file (it would be ``mythzoo.setup``)."""

    def find_package_modules(self, package, package_dir):
        modules = super().find_package_modules(package, package_dir)
        return [m for m in modules if not (package == "mythzoo" and m[1] == "setup")]


# The build backend runs this file as __main__; an editable install can also import it as
# mythzoo.setup, which then does nothing.
if __name__ == "__main__":
    setup(
        packages=["mythzoo", *(f"mythzoo.{name}" for name in find_packages(".", exclude=NOT_SHIPPED))],
        cmdclass={"build_py": BuildPy},
    )
