"""The command line under attack: output paths checked before playing, computed results never
lost, plots at 100% and 0% win rates, the documented script that must not respawn its workers
forever, and one-line errors (no traceback) for bad registries, bad configs and unknown refs
(issue 15, "The command line")."""

from __future__ import annotations

import errno
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mythzoo.evaluation import load_records, replay, wilson_interval
from mythzoo.extras import missing_modules
from mythzoo.training import eval_cli, play_cli
from mythzoo.training.train_cli import CONFIG_MODULES, TRAIN_MODULES

ROOT = Path(__file__).resolve().parents[2]
HAS_TRAIN = not missing_modules(TRAIN_MODULES)
HAS_YAML = not missing_modules(CONFIG_MODULES)
EVAL = ["eval", "mythic_baths", "heuristic", "random", "--games", "2", "--players", "2", "--workers", "1", "--quiet"]


def one_error_line(err: str, command: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"mythzoo {command}: ") and "Traceback" not in err, err
    return lines[0]


def mythzoo(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mythzoo", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def never(prompt: str) -> str:
    raise AssertionError("the game must not start")


# ------------------------------------------------------------------------- Wilson and --plot
def test_wilson_interval_holds_the_point_estimate() -> None:
    """lo <= p <= hi for every w/n up to n = 400 (halves too: shared wins); exactly 1 at p = 1, 0 at p = 0.
    Before, 6/6 and 100/100 gave an upper bound a hair below 1 and 0/11 a lower bound a hair above 0."""
    for n in range(1, 401):
        for twice in range(0, 2 * n + 1):
            w = twice / 2
            lo, hi = wilson_interval(w, n)
            assert 0.0 <= lo <= w / n <= hi <= 1.0, (w, n, lo, hi)
        assert wilson_interval(n, n)[1] == 1.0 and wilson_interval(0, n)[0] == 0.0
    assert wilson_interval(100, 100) == (pytest.approx(0.963005, abs=1e-6), 1.0)


def test_eval_plot_at_100_and_0_percent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The heuristic wins all 6 games against random (6/6 was one of the broken counts): the plot is written."""
    out, plot = tmp_path / "e.json", tmp_path / "e.png"
    assert eval_cli.main(EVAL[:4] + ["--games", "6"] + EVAL[6:] + ["--json", str(out), "--plot", str(plot)]) == 0
    stats = {p["label"]: p for p in json.loads(out.read_text())["policies"]}
    assert stats["heuristic"]["win_rate"] == 1.0 and stats["random"]["win_rate"] == 0.0
    assert stats["heuristic"]["win_ci95"][1] == 1.0 and stats["random"]["win_ci95"][0] == 0.0
    assert plot.stat().st_size > 1000


# ----------------------------------------------------------------------- output paths first
def _unwritable(tmp_path: Path) -> list[tuple[str, Path]]:
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    cases = [("under a file", a_file / "out.x"), ("a folder", tmp_path), ("deep under a file", a_file / "a" / "b" / "out.x")]
    if Path("/proc/self").is_dir():  # refuses new files even to root
        cases.append(("a read-only place", Path("/proc/mythzoo_no/out.x")))
    return cases


@pytest.mark.parametrize("option", ["--json", "--plot"])
def test_eval_checks_its_output_paths_before_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str) -> None:
    for what, path in _unwritable(tmp_path):
        before = sorted(tmp_path.rglob("*"))
        assert eval_cli.main(EVAL + [option, str(path)]) == 2, what
        captured = capsys.readouterr()
        line = one_error_line(captured.err, "eval")
        assert option in line, line
        assert "mythzoo eval:" not in captured.out  # no game was played (the header comes before the games)
        assert sorted(tmp_path.rglob("*")) == before  # nothing made, nothing left (the probe file removed)


def test_eval_refuses_the_same_file_for_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "same")
    assert eval_cli.main(EVAL + ["--json", path, "--plot", path]) == 2
    assert "same file" in one_error_line(capsys.readouterr().err, "eval")


def test_eval_keeps_the_results_when_the_json_cannot_be_written_after_the_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)

    def disk_full(path: str, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(eval_cli, "write_text_atomic", disk_full)
    assert eval_cli.main(EVAL + ["--json", "out/e.json", "--no-records"]) == 1
    line = one_error_line(capsys.readouterr().err, "eval")
    assert "No space left on device" in line
    saved = Path(re.search(r"the results are saved in (\S+)", line).group(1))
    assert saved.parent == tmp_path and saved.name.startswith("mythzoo_eval_mythic_baths_v1_seed0")
    data = json.loads(saved.read_text())
    assert data["games"] == 2 and len(data["records"]) == 2  # every record, although --no-records was asked
    assert all(replay(r, render=False).bound for r in load_records(saved))


def test_eval_keeps_the_json_when_the_plot_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from mythzoo.evaluation.results.symmetric import TournamentResult

    def broken(self: object, path: str) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(TournamentResult, "plot", broken)
    out = tmp_path / "e.json"
    assert eval_cli.main(EVAL + ["--json", str(out), "--plot", str(tmp_path / "e.png")]) == 1
    line = one_error_line(capsys.readouterr().err, "eval")
    assert "--plot" in line and f"the results are in {out}" in line
    assert json.loads(out.read_text())["games"] == 2


def test_play_checks_its_save_path_before_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for what, path in _unwritable(tmp_path):
        assert play_cli.main(["play", "mythic_baths", "--vs", "random", "--seed", "1", "--save", str(path)], input_fn=never) == 2, what
        assert "--save" in one_error_line(capsys.readouterr().err, "play")


def test_play_keeps_the_record_when_saving_fails_after_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from mythzoo.evaluation import GameRecord

    def disk_full(self: GameRecord, path: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(GameRecord, "save", disk_full)
    lines = iter(["1"] * 5)

    def person(prompt: str) -> str:
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    assert play_cli.main(["play", "mythic_baths", "--vs", "random", "--seed", "1", "--save", "g.json"], input_fn=person) == 1
    line = one_error_line(capsys.readouterr().err, "play")
    saved = Path(re.search(r"it is saved in (\S+)", line).group(1))
    (record,) = load_records(saved)
    assert record.decisions >= 5 and not record.finished  # the person stopped (end of input) after five moves
    assert replay(record, render=False).decisions == record.decisions


# ------------------------------------------------------------------- the documented script
def _snippet() -> str:
    text = (ROOT / "docs" / "evaluation.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "tournament(" in b)
    assert 'if __name__ == "__main__":' in block
    return block


def test_the_tournament_snippet_runs_as_a_script(tmp_path: Path) -> None:
    """docs/evaluation.md's snippet, saved as a script, finishes (fewer games; the same 4 workers)."""
    script = tmp_path / "evaluate.py"
    script.write_text(_snippet().replace("games=100", "games=8"))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "eval.json").exists() and (tmp_path / "eval.png").exists()


def test_a_worker_that_cannot_start_stops_the_pool(tmp_path: Path) -> None:
    """The snippet without its guard: every spawned worker fails as it starts. The pool stops at once
    with a message that says what to do (before, it respawned them forever)."""
    body = _snippet().replace("games=100", "games=8")
    unguarded = re.sub(r'if __name__ == "__main__":.*\n', "", body)
    unguarded = "\n".join(line[4:] if line.startswith("    ") else line for line in unguarded.splitlines())
    script = tmp_path / "unguarded.py"
    script.write_text(unguarded)
    start = time.monotonic()
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert done.returncode != 0
    assert time.monotonic() - start < 200
    # Python's resource tracker may warn of the dead workers' semaphores after mythzoo's last line (a
    # race): its warning is a line naming resource_tracker and the indented source line under it.
    lines, in_warning = [], False
    for line in done.stderr.strip().splitlines():
        in_warning = "resource_tracker" in line or (in_warning and line.startswith(" "))
        if not in_warning:
            lines.append(line)
    last = lines[-1]
    assert last.startswith("mythzoo.evaluation.pool.WorkerError: a worker process could not start") and "__main__" in last
    assert not (tmp_path / "eval.json").exists()


# -------------------------------------------------------------------------------- registries
def test_eval_with_a_missing_or_broken_registry_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "index.sqlite").write_text("not a database")
    for registry in ["/nonexistent", str(tmp_path / "a_file"), str(broken)]:
        (tmp_path / "a_file").write_text("x")
        assert eval_cli.main(["eval", "mythic_baths", "random", "mine@best", "--games", "2", "--quiet", "--registry", registry]) == 2
        assert "cannot load policy" in one_error_line(capsys.readouterr().err, "eval")
    # The baselines need no registry: one given that does not exist is not opened (nothing to record).
    assert eval_cli.main(EVAL + ["--registry", "/nonexistent"]) == 0
    assert not Path("/nonexistent").exists()


# ------------------------------------------------------------------------------------ train
@pytest.mark.skipif(not HAS_YAML, reason="the train extra's YAML reader is not installed")
@pytest.mark.parametrize(("name", "text", "says"), [
    ("malformed", "total_timesteps: [1, 2\n", "not valid YAML (line 2"),
    ("a python tag", 'seed: !!python/object/apply:os.system ["touch pwned"]\n', "plain YAML values only"),
    ("not a mapping", "- 1\n- 2\n", "a YAML mapping"),
    ("too deep", "[" * 5000 + "]" * 5000 + "\n", ""),
], ids=lambda x: x if isinstance(x, str) and len(x) < 20 else None)
@pytest.mark.parametrize("dry_run", [True, False], ids=["dry-run", "run"])
def test_train_with_a_bad_config_is_one_error_line(tmp_path: Path, name: str, text: str, says: str, dry_run: bool) -> None:
    if not dry_run and not HAS_TRAIN:
        pytest.skip("the train extra is not installed")
    (tmp_path / "c.yaml").write_text(text)
    done = mythzoo(["train", "mythic_baths", "--config", "c.yaml"] + (["--dry-run"] if dry_run else []), tmp_path)
    assert done.returncode == 2, done.stderr
    assert says in one_error_line(done.stderr, "train")
    assert not (tmp_path / "runs").exists() and not (tmp_path / "pwned").exists()


@pytest.mark.skipif(not HAS_YAML, reason="the train extra's YAML reader is not installed")
def test_train_with_a_malformed_override_is_one_error_line(tmp_path: Path) -> None:
    done = mythzoo(["train", "mythic_baths", "--dry-run", "learning_rate=[1"], tmp_path)
    assert done.returncode == 2 and "override 'learning_rate=[1': not valid YAML" in one_error_line(done.stderr, "train")


@pytest.mark.skipif(not HAS_TRAIN, reason="the train extra is not installed")
def test_train_resume_of_an_unknown_ref_is_refused_at_once_and_leaves_nothing(tmp_path: Path) -> None:
    from mythzoo.policies.registry import Registry

    Registry(tmp_path / "reg")  # an empty registry
    for registry, says in [("reg", "no checkpoint named 'nope'"), ("missing", "no registry at missing")]:
        done = mythzoo(["train", "mythic_baths", "--resume", "nope", "--registry", registry], tmp_path)
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 2 and lines[0].startswith("mythzoo train: mythic_baths_v1, config") and "Traceback" not in done.stderr
        assert says in lines[1], lines[1]
        assert not (tmp_path / "runs").exists() and not (tmp_path / "missing").exists()


def _core_only_path(tmp_path: Path) -> Path | None:
    """A folder holding only mythzoo and its required libraries (links to them), or None if one
    cannot be found as a folder or a module file."""
    folder = tmp_path / "core"
    folder.mkdir()
    names = ["numpy", "gymnasium", "pettingzoo", "tqdm", "pydantic", "pydantic_core", "typing_extensions", "annotated_types",
             "typing_inspection", "cloudpickle", "farama_notifications"]
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            return None
        origin = Path(spec.origin)
        src = origin.parent if origin.name == "__init__.py" or spec.submodule_search_locations else origin
        (folder / src.name).symlink_to(src)
        libs = src.parent / f"{name}.libs"  # a wheel's bundled shared libraries
        if libs.is_dir():
            (folder / libs.name).symlink_to(libs)
    (folder / "mythzoo").symlink_to(ROOT)
    return folder


def test_train_without_the_training_extra_names_the_extra(tmp_path: Path) -> None:
    """A real core-only install (no site-packages at all, only the required libraries): one line
    naming every missing library and `pip install 'mythzoo[train]'`, exit 1, nothing started."""
    core = _core_only_path(tmp_path)
    if core is None:
        pytest.skip("a required library is not importable from a folder here")
    env = {**os.environ, "PYTHONPATH": str(core)}
    code = "import sys; from mythzoo.cli import main; sys.exit(main(sys.argv[1:]))"
    check = subprocess.run([sys.executable, "-S", "-c", "import yaml"], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert check.returncode != 0  # the extra's libraries really are out of reach
    for args, what in [(["train", "mythic_baths"], "mythzoo train needs pyyaml, torch, stable-baselines3, sb3-contrib, tensorboard"),
                       (["train", "mythic_baths", "--dry-run"], "mythzoo train --dry-run needs pyyaml")]:
        done = subprocess.run([sys.executable, "-S", "-c", code, *args], env=env, capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert done.returncode == 1, done.stderr
        line = one_error_line(done.stderr, "train")
        assert what in line and "pip install 'mythzoo[train]'" in line
        assert not (tmp_path / "runs").exists()
    helped = subprocess.run([sys.executable, "-S", "-c", code, "train", "--help"], env=env, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert helped.returncode == 0 and "total_timesteps" in helped.stdout
