"""A command whose extra is not installed says which extra to install, in one line, exit code 1.

Each case runs ``mythzoo`` in a subprocess where the optional libraries are blocked
(``sys.modules[name] = None``: ``import name`` then raises ``ModuleNotFoundError``, as it does when
the library is not installed), so the main venv's own installs are not touched.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mythzoo.extras import EXTRA_OF, MissingExtraError, import_optional, missing_modules, require
from mythzoo.training.train_cli import TRAIN_MODULES

# Blocking one training library shows the message for it alone only where the others are installed.
HAS_TRAIN = not missing_modules(TRAIN_MODULES)

ROOT = Path(__file__).resolve().parents[1]
CHAMPION = ROOT / "checkpoints" / "mythic_baths_v1-ppo-champion.tar"

RUN_BLOCKED = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
from mythzoo.cli import main
sys.exit(main(sys.argv[2:]))
"""


def run_blocked(blocked: list[str], args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN_BLOCKED, ",".join(blocked), *args], cwd=cwd, capture_output=True, text=True, timeout=300)


CASES = [
    # (blocked modules, command, what the message names, the extra)
    (["yaml"], ["train", "mythic_baths", "--dry-run"], "pyyaml", "train"),
    (["yaml"], ["train", "mythic_baths"], "pyyaml", "train"),
    (["torch"], ["train", "mythic_baths"], "torch", "train"),
    (["stable_baselines3", "sb3_contrib"], ["train", "mythic_baths"], "stable-baselines3, sb3-contrib", "train"),
    (["tensorboard"], ["train", "mythic_baths"], "tensorboard", "train"),
    (["openskill"], ["eval", "mythic_baths", "random", "heuristic", "--games", "2", "--quiet"], "openskill", "tools"),
    (["scipy"], ["eval", "mythwind_innkeeper", "random", "heuristic", "--games", "2", "--quiet"], "scipy", "tools"),
    (["matplotlib"], ["eval", "mythsgate", "invoker:random", "hero:random", "--games", "2", "--quiet", "--plot", "x.png"], "matplotlib", "tools"),
    (["safetensors"], ["eval", "mythic_baths", "random", "some_checkpoint@best", "--games", "2", "--quiet"], "safetensors", "tools"),
    (["safetensors"], ["registry", "import", str(CHAMPION), "--registry", "reg"], "safetensors", "tools"),
]


@pytest.mark.parametrize(("blocked", "args", "names", "extra"), CASES, ids=[" ".join(c[1][:2]) + " without " + "+".join(c[0]) for c in CASES])
def test_a_command_without_its_extra_names_the_extra(tmp_path: Path, blocked: list[str], args: list[str], names: str, extra: str) -> None:
    if args[0] == "train" and "--dry-run" not in args and not HAS_TRAIN:
        pytest.skip("the train extra is not installed here: the message would name every training library")
    done = run_blocked(blocked, args, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"mythzoo {args[0]}: error: ")
    assert f"needs {names}, which" in lines[0] and f"pip install 'mythzoo[{extra}]'" in lines[0]
    assert not (tmp_path / "runs").exists() and not (tmp_path / "x.png").exists()  # nothing was started


def test_a_command_with_its_libraries_runs(tmp_path: Path) -> None:
    """The control: the same subprocess with nothing blocked does not print the message."""
    done = run_blocked([], ["train", "mythic_baths", "--dry-run"], tmp_path)
    assert done.returncode == 0 and "needs" not in done.stderr
    done = run_blocked(["torch", "stable_baselines3"], ["eval", "mythic_baths", "random", "heuristic", "--games", "2", "--quiet"], tmp_path)
    assert done.returncode == 0, done.stderr  # evaluation needs no training library


def test_an_unknown_missing_module_keeps_its_traceback(tmp_path: Path) -> None:
    """Only mythzoo's optional libraries get the message: anything else is a real error."""
    script = RUN_BLOCKED.replace("from mythzoo.cli import main", "import mythzoo.training.eval_cli as e\n"
                                 "def boom(args):\n    import a_module_no_extra_brings\n"
                                 "e.cmd_replay.__code__ = boom.__code__\nfrom mythzoo.cli import main")
    done = subprocess.run([sys.executable, "-c", script, "", "replay", "x.json"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" in done.stderr and "a_module_no_extra_brings" in done.stderr


def test_the_extras_functions() -> None:
    assert missing_modules(["json", "a_module_that_is_not_there"]) == ["a_module_that_is_not_there"]
    with pytest.raises(MissingExtraError, match=r"plots needs matplotlib, which is not installed: pip install 'mythzoo\[tools\]'"):
        sys.modules["matplotlib"], saved = None, sys.modules.get("matplotlib")
        try:
            import_optional("matplotlib", "plots")
        finally:
            if saved is None:
                del sys.modules["matplotlib"]
            else:
                sys.modules["matplotlib"] = saved
    with pytest.raises(ModuleNotFoundError) as e:  # a module of no extra: the plain error
        import_optional("a_module_that_is_not_there", "x")
    assert not isinstance(e.value, MissingExtraError)
    require(["json"], "nothing")
    assert set(EXTRA_OF.values()) == {"tools", "train"}


def test_every_optional_library_belongs_to_the_extra_that_declares_it() -> None:
    """EXTRA_OF agrees with pyproject.toml: each library's distribution is listed in its extra."""
    import tomllib

    from mythzoo.extras import DISTRIBUTION_OF

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for module, extra in EXTRA_OF.items():
        dist = DISTRIBUTION_OF.get(module, module)
        declared = [req.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower() for req in extras[extra]]
        assert dist.replace("_", "-") in declared, (module, extra, declared)


def test_extras_imports_nothing_but_the_standard_library() -> None:
    """Every layer may use mythzoo.extras, so it may import nothing of mythzoo nor any optional library."""
    import ast

    tree = ast.parse((ROOT / "extras.py").read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
