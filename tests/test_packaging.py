"""A built wheel ships every package, each game's data files and the training presets.

The package list and the package data are found from the folder tree (setup.py, pyproject.toml),
so this builds a real wheel from a copy of the source tree and reads what it holds.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from mythzoo.envs import GAMES  # the shipped games (the tests' toy games are registered too, in SPECS)

ROOT = Path(__file__).resolve().parents[1]
# What a source checkout holds besides the library (environments, outputs, caches, history).
_ANYWHERE = shutil.ignore_patterns("__pycache__", "*.egg-info", ".pytest_cache")
_AT_ROOT = {".git", ".venv", ".venvs", "build", "dist", "runs", "registry", "checkpoints"}  # policies/registry is source


def NOT_SOURCE(folder: str, names: list[str]) -> set[str]:
    """``copytree``'s ignore: caches anywhere, outputs and environments only at the root."""
    skip = set(_ANYWHERE(folder, names))
    if Path(folder) == ROOT:
        skip |= _AT_ROOT & set(names)
    return skip


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    tmp = tmp_path_factory.mktemp("wheel")
    src, out = tmp / "src", tmp / "out"
    shutil.copytree(ROOT, src, ignore=NOT_SOURCE)
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--disable-pip-version-check", "-q", "-w", str(out), str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("mythzoo-*.whl")
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


@pytest.mark.slow
def test_wheel_ships_each_games_data_files(wheel_names: set[str]) -> None:
    for spec in GAMES:
        assert spec.data_files, spec.name
        for rel in spec.data_files:
            assert f"mythzoo/envs/{spec.name}/{rel}" in wheel_names, (spec.name, rel)
    on_disk = {f"mythzoo/{p.relative_to(ROOT).as_posix()}" for p in ROOT.glob("envs/*/data/*.json")}
    assert on_disk and on_disk <= wheel_names, sorted(on_disk - wheel_names)


@pytest.mark.slow
def test_wheel_ships_the_training_presets_as_a_package(wheel_names: set[str]) -> None:
    presets = {f"mythzoo/{p.relative_to(ROOT).as_posix()}" for p in ROOT.glob("configs/**/*.yaml")}
    assert presets and presets <= wheel_names, sorted(presets - wheel_names)
    assert "mythzoo/configs/__init__.py" in wheel_names


@pytest.mark.slow
def test_wheel_holds_every_package_of_the_tree_and_nothing_else(wheel_names: set[str]) -> None:
    tops = [d for d in ROOT.iterdir() if (d / "__init__.py").exists() and d.name not in ("tests", "benchmarks", "docs")]
    packages = {f"mythzoo/{p.relative_to(ROOT).as_posix()}" for top in tops for p in top.rglob("__init__.py")}
    assert packages and packages <= wheel_names, sorted(packages - wheel_names)
    for spec in GAMES:
        assert f"mythzoo/envs/{spec.name}/__init__.py" in wheel_names
        assert spec.module.replace(".", "/") + ".py" in wheel_names
    assert not {n for n in wheel_names if n.startswith(("mythzoo/tests/", "mythzoo/benchmarks/", "mythzoo/docs/"))}
    assert "mythzoo/setup.py" not in wheel_names
