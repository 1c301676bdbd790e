"""Each folder imports only what its package docstring allows (the layers of mythzoo).

envs import nothing from policies or training; a game folder imports only envs/core and itself;
policies import nothing from training; nothing below training imports torch or Stable-Baselines3,
and neither do the evaluation modules, checked both in the source and by importing them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from mythzoo.envs import GAMES  # the shipped games (the tests' toy games are registered too, in SPECS)

ROOT = Path(__file__).resolve().parents[1]
TRAINING_ONLY = ("torch", "stable_baselines3", "sb3_contrib", "tensorboard")
# The torch-free commands that live in training/ (they judge and play policies; they train nothing).
TORCH_FREE_TRAINING = ("batch_eval", "eval_cli", "explain", "games", "leaderboard_cli", "play_cli")


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function (relative imports resolved)."""
    package = "mythzoo." + ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names}
    return out


def _files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def _offending(paths: list[Path], forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    bad = {}
    for p in paths:
        hits = sorted(m for m in _imports(p) if any(m == f or m.startswith(f + ".") for f in forbidden))
        if hits:
            bad[str(p.relative_to(ROOT))] = hits
    return bad


def test_envs_import_nothing_from_policies_or_training() -> None:
    assert not _offending(_files("envs"), ("mythzoo.policies", "mythzoo.training", "mythzoo.cli", *TRAINING_ONLY))


def test_core_imports_no_game_and_a_game_no_other_game() -> None:
    games = [spec.name for spec in GAMES]
    assert not _offending(_files("envs/core"), tuple(f"mythzoo.envs.{g}" for g in games))
    for game in games:
        others = tuple(f"mythzoo.envs.{g}" for g in games if g != game)
        assert not _offending(_files(f"envs/{game}"), others), game


def test_policies_import_nothing_from_training_nor_torch() -> None:
    assert not _offending(_files("policies"), ("mythzoo.training", *TRAINING_ONLY))


def test_evaluation_imports_nothing_from_training_nor_torch() -> None:
    assert not _offending(_files("evaluation"), ("mythzoo.training", "mythzoo.cli", *TRAINING_ONLY))


STACK_LIBRARIES = ("ray", "pyspiel", "open_spiel", "torchrl", "tensordict", "tianshou", "supersuit")


def test_adapters_import_nothing_from_training() -> None:
    assert not _offending(_files("adapters"), ("mythzoo.training", "mythzoo.cli"))


def test_importing_the_adapters_package_loads_no_stack_library() -> None:
    code = f"import sys, mythzoo.adapters\nprint(sorted(m for m in sys.modules if m.split('.')[0] in {STACK_LIBRARIES + TRAINING_ONLY!r}))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout


def test_torch_free_commands_do_not_import_torch_in_their_source() -> None:
    paths = [ROOT / "training" / f"{m}.py" for m in TORCH_FREE_TRAINING]
    training = tuple(f"mythzoo.training.{m.stem}" for m in _files("training") if m.stem not in (*TORCH_FREE_TRAINING, "__init__"))
    assert not _offending(paths, (*TRAINING_ONLY, *training))


@pytest.mark.parametrize("modules", [
    ["mythzoo.envs", *sorted({spec.module for spec in GAMES})],
    ["mythzoo.policies.baselines", "mythzoo.policies.refs", "mythzoo.policies.registry", "mythzoo.policies.neural",
     *sorted({spec.heuristic.split(":")[0] for spec in GAMES})],
    ["mythzoo.evaluation", *("mythzoo." + ".".join(p.relative_to(ROOT).with_suffix("").parts) for p in _files("evaluation") if p.stem != "__init__"),
     *(f"mythzoo.training.{m}" for m in TORCH_FREE_TRAINING)],
], ids=["envs", "policies", "evaluation"])
def test_importing_a_layer_loads_no_torch(modules: list[str]) -> None:
    code = "import sys\n" + "".join(f"import {m}\n" for m in modules) + (
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {TRAINING_ONLY!r})\nprint(bad)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout
