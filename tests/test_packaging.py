"""A built wheel ships every package, each game's data files, the training presets and py.typed,
and installed (not editable) in a fresh venv it trains with the presets it carries.

The package list and the package data are found from the folder tree (setup.py, pyproject.toml),
so this builds a real wheel from a copy of the source tree and reads what it holds. The metadata
tests check the declared dependency ranges against what is installed (the versions tested).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

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
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    src, out = tmp / "src", tmp / "out"
    shutil.copytree(ROOT, src, ignore=NOT_SOURCE)
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--disable-pip-version-check", "-q", "-w", str(out), str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = out.glob("mythzoo-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> set[str]:
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


@pytest.mark.slow
def test_wheel_ships_the_viewers_page(wheel_names: set[str]) -> None:
    page = {f"mythzoo/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / "viewer" / "static").iterdir()}
    assert "mythzoo/viewer/static/index.html" in page and page <= wheel_names, sorted(page - wheel_names)
    for spec in GAMES:
        assert f"mythzoo/envs/{spec.name}/view.py" in wheel_names, spec.name


@pytest.mark.slow
def test_wheel_ships_py_typed_and_the_license(wheel_names: set[str]) -> None:
    assert "mythzoo/py.typed" in wheel_names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel_names), sorted(n for n in wheel_names if "dist-info" in n)


# ------------------------------------------------------------------ installed from the wheel
@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A fresh venv with the wheel installed non-editable: ``(its python, its site-packages)``.

    Its dependencies are this interpreter's (the tested torch==2.13.0, SB3, ...), seen through a
    ``.pth`` path line, as ``--system-site-packages`` would show a base interpreter's: no other
    torch is ever installed. A path line only extends ``sys.path`` (the ``.pth`` files there are not
    run), so the editable mythzoo of this venv stays invisible and the wheel's copy is imported."""
    tmp = tmp_path_factory.mktemp("venv")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True,
                               text=True, check=True).stdout.strip())
    (site / "mythzoo_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    cmd = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "--disable-pip-version-check", "-q", str(wheel)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return python, site


def _run(python: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), *args], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_installed_wheel_is_what_imports_and_carries_its_files(installed: tuple[Path, Path], tmp_path: Path) -> None:
    python, site = installed
    done = _run(python, ["-c", "import mythzoo, mythzoo.training.config as c; print(mythzoo.__file__); print(c.CONFIG_ROOT)"], tmp_path)
    assert done.returncode == 0, done.stderr
    package, configs = (Path(line) for line in done.stdout.split())
    assert package == site / "mythzoo" / "__init__.py"  # the wheel's copy, not the source tree
    assert configs == site / "mythzoo" / "configs"
    assert (site / "mythzoo" / "py.typed").exists()
    assert sorted(p.relative_to(configs).as_posix() for p in configs.glob("*/*.yaml")) == \
        sorted(p.relative_to(ROOT / "configs").as_posix() for p in (ROOT / "configs").glob("*/*.yaml"))


def _dry_run(python: Path, args: list[str], cwd: Path) -> tuple[Path, dict]:
    done = _run(python, ["-m", "mythzoo", "train", *args, "--dry-run"], cwd)
    assert done.returncode == 0, done.stderr
    first, _, rest = done.stdout.partition("\n")
    assert first.startswith("# config: "), done.stdout
    return Path(first.removeprefix("# config: ")), yaml.safe_load(rest)


@pytest.mark.slow
def test_installed_cli_trains_with_the_packaged_presets(installed: tuple[Path, Path], tmp_path: Path) -> None:
    """`mythzoo train mythic_baths` reads the wheel's configs/mythic_baths/ppo.yaml (not the
    dataclass defaults), `--config mythic_baths/quick.yaml` is found, and a short run trains."""
    from mythzoo.training.config import TrainConfig

    python, site = installed
    source, resolved = _dry_run(python, ["mythic_baths"], tmp_path)
    assert source == site / "mythzoo" / "configs" / "mythic_baths" / "ppo.yaml"
    preset = yaml.safe_load((ROOT / "configs" / "mythic_baths" / "ppo.yaml").read_text())
    assert {k: resolved[k] for k in preset} == preset
    defaults = TrainConfig(env="mythic_baths_v1")
    assert resolved["total_timesteps"] != defaults.total_timesteps and resolved["num_workers"] != defaults.num_workers

    source, resolved = _dry_run(python, ["mythic_baths", "--config", "mythic_baths/quick.yaml"], tmp_path)
    assert source == site / "mythzoo" / "configs" / "mythic_baths" / "quick.yaml"
    quick = yaml.safe_load((ROOT / "configs" / "mythic_baths" / "quick.yaml").read_text())
    assert {k: resolved[k] for k in quick} == quick

    # A real run from the installed package: the preset with only its length and cost overridden.
    short = ["total_timesteps=256", "num_envs=4", "n_steps=32", "batch_size=64", "num_workers=0", "pretrain_teacher=null",
             "eval_games=0", "registry=none", f"run_dir={tmp_path / 'runs'}", "progress=false"]
    done = _run(python, ["-m", "mythzoo", "train", "mythic_baths", *short], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    (written,) = (tmp_path / "runs").glob("*/config.yaml")
    used = yaml.safe_load(written.read_text())
    for key in ("env_kwargs", "eval_env_kwargs", "net_arch", "gamma", "learning_rate", "opponent_mix", "baselines", "snapshot_every"):
        assert used[key] == preset[key], key


@pytest.mark.slow
def test_installed_console_script_runs(installed: tuple[Path, Path], tmp_path: Path) -> None:
    python, _ = installed
    done = subprocess.run([str(python.parent / "mythzoo"), "envs"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "mythic_baths_v1" in done.stdout, done.stderr


# ------------------------------------------------------------------ metadata
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _requirements(extra: str | None) -> list[Requirement]:
    reqs = PYPROJECT["dependencies"] if extra is None else PYPROJECT["optional-dependencies"][extra]
    return [Requirement(r) for r in reqs if not r.startswith("mythzoo")]


@pytest.mark.parametrize("extra", [None, "tools", "train", "dev"])
def test_installed_versions_lie_in_the_declared_ranges(extra: str | None) -> None:
    """What this venv holds is what is tested: every declared range must admit it."""
    if extra == "train" and importlib.util.find_spec("torch") is None:
        pytest.skip("a venv without the train extra (the torch-free suite on another Python)")
    for req in _requirements(extra):
        version = importlib.metadata.version(req.name)
        assert req.specifier.contains(version, prereleases=True), f"{req.name} {version} is outside {req}"


def test_library_ranges_admit_other_torch_builds_and_bound_sb3_to_the_tested_series() -> None:
    pytest.importorskip("stable_baselines3", reason="the tested SB3 series is read from an installed SB3")
    train = {r.name: r.specifier for r in _requirements("train")}
    assert "2.13.0" in train["torch"] and "2.8.0" in train["torch"] and "2.13.0+cu128" in train["torch"]  # not a pin
    for name in ("stable-baselines3", "sb3-contrib"):
        tested = importlib.metadata.version(name)
        series = ".".join(tested.split(".")[:2])
        assert tested in train[name] and f"{series}.99" in train[name]
        nxt = f"{series.split('.')[0]}.{int(series.split('.')[1]) + 1}.0"
        assert nxt not in train[name], f"{name}: the next minor release ({nxt}) is untested and must be outside {train[name]}"


def test_the_makefile_installs_exactly_the_pinned_torch() -> None:
    """make's every pip call is constrained by constraints.txt, which pins torch==2.13.0, and the
    declared range admits it (so the pin, not the range, picks the build)."""
    pytest.importorskip("torch", reason="checks the venv make builds, which has torch")
    makefile = (ROOT / "Makefile").read_text()
    pip_install = re.search(r"^PIP_INSTALL := (.*)$", makefile, re.M)
    assert pip_install and "-c constraints.txt" in pip_install.group(1)
    assert all("$(PIP_INSTALL)" in line for line in makefile.splitlines() if re.search(r"\bpip install\b", line) and "PIP_INSTALL :=" not in line
               and "-c constraints.txt" not in line)
    pins = [Requirement(line) for line in (ROOT / "constraints.txt").read_text().splitlines() if line.strip() and not line.startswith("#")]
    (torch_pin,) = [r for r in pins if r.name == "torch"]
    assert str(torch_pin.specifier) == "==2.13.0"
    assert importlib.metadata.version("torch").split("+")[0] == "2.13.0"
    torch_range = {r.name: r.specifier for r in _requirements("train")}["torch"]
    assert torch_range.contains("2.13.0")


def test_classifiers_name_the_tested_pythons_and_the_license_file_exists() -> None:
    classifiers = PYPROJECT["classifiers"]
    versions = sorted(c.rsplit(" ", 1)[1] for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert versions == ["3.11", "3.12", "3.13"]
    assert f"{sys.version_info.major}.{sys.version_info.minor}" in versions
    assert PYPROJECT["requires-python"] == ">=3.11"
    assert PYPROJECT["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "the mythzoo authors" in (ROOT / "LICENSE").read_text()
    assert (ROOT / "py.typed").exists()


def test_the_changelog_has_this_version_and_an_unreleased_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in text
    assert re.search(rf"^## \[{re.escape(PYPROJECT['version'])}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.M)
