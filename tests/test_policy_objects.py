"""Bring your own policy: policy objects and ``py:module:factory`` refs wherever a ref goes.

Objects (anything with ``act``/``act_batch``) play in ``tournament``, ``play_game``, ``mythzoo
play``'s ``play`` and the self-play opponent pool; their games replay. On the command line a
``py:`` ref imports and calls user code, with one-line errors; a registry ref never runs code.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import make
from mythzoo.evaluation import play_game, replay, tournament
from mythzoo.evaluation.loading import name_policies
from mythzoo.policies.refs import PolicyRefError, load_policy

ROOT = Path(__file__).resolve().parents[1]
MYTHZOO = [sys.executable, "-m", "mythzoo"]


class FirstLegal:
    """Always the lowest legal action id; counts its calls (a policy "trained elsewhere")."""

    name = "first-legal"

    def __init__(self) -> None:
        self.calls = 0
        self.reseeds: list[int] = []

    def act(self, observation, action_mask, agent=None) -> int:
        self.calls += 1
        return int(np.flatnonzero(action_mask)[0])

    def act_batch(self, observations, action_masks, agent=None) -> np.ndarray:
        self.calls += len(action_masks)
        return np.asarray(action_masks).argmax(axis=1).astype(np.int64)

    def reseed(self, seed: int) -> None:
        self.reseeds.append(seed)


class Sampler:
    """A sampling policy with its own generator, reseeded per game (so any worker count gives the same games)."""

    name = "sampler"

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reseed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed + 1)

    def act(self, observation, action_mask, agent=None) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(legal.size)])

    def act_batch(self, observations, action_masks, agent=None) -> np.ndarray:
        return np.array([self.act(o, m) for o, m in zip(observations, action_masks)], dtype=np.int64)


# ------------------------------------------------------------------ evaluation takes objects
def test_tournament_takes_objects_and_refs_and_labels_rows_by_name() -> None:
    mine = FirstLegal()
    result = tournament("mythic_baths", [mine, "random", "heuristic"], 12, num_players=2, progress=False)
    assert result.labels == ["first-legal", "random", "heuristic"]
    assert set(result.by_label()) == {"first-legal", "random", "heuristic"}
    assert mine.calls > 0 and mine.reseeds, "the object itself played, reseeded before its games"
    assert result.anchor == "random"
    assert "first-legal" in result.table()
    seat_refs = {r for rec in result.records for r in rec.refs}
    assert "<object:first-legal>" in seat_refs  # records say an object played, never a registry name
    for record in result.records[:3]:
        assert replay(record, render=False).finished  # a game an object played replays from its record


def test_tournament_takes_a_mapping_name_to_policy_or_ref() -> None:
    result = tournament("mythic_baths", {"mine": FirstLegal(), "baseline": "random"}, 8, num_players=2, progress=False)
    assert result.labels == ["mine", "baseline"]
    assert result.anchor == "baseline"  # the auto anchor follows the ref, whatever its label
    assert result.by_label()["mine"].games == result.by_label()["baseline"].games > 0
    assert result.by_label()["baseline"].ref == "random"


def test_two_objects_with_one_name_stay_apart() -> None:
    a, b = FirstLegal(), FirstLegal()
    named = name_policies([a, b, "random"])
    assert named.labels == ["first-legal", "first-legal#2", "random"]
    assert len(set(named.refs)) == 3 and named.objects[named.refs[0]] is a and named.objects[named.refs[1]] is b


def test_object_tournaments_are_the_same_for_any_worker_count() -> None:
    one = tournament("mythic_baths", {"s": Sampler(), "r": "random"}, 8, num_players=2, workers=1, progress=False)
    two = tournament("mythic_baths", {"s": Sampler(), "r": "random"}, 8, num_players=2, workers=2, progress=False)
    assert [r.actions for r in one.records] == [r.actions for r in two.records]


def test_an_object_that_cannot_be_pickled_is_refused_for_worker_processes() -> None:
    mine = FirstLegal()
    mine.unpicklable = lambda: None  # a lambda attribute: no pickle
    with pytest.raises(ValueError, match="cannot be sent to worker processes"):
        tournament("mythic_baths", [mine, "random"], 8, num_players=2, workers=2, progress=False)


def test_role_game_takes_objects_by_role_and_solo_game_plain() -> None:
    mine = FirstLegal()
    result = tournament("mythsgate", {"hero:mine": mine, "invoker:heuristic": "heuristic"}, 2, progress=False)
    stats = result.by_label()
    assert stats["hero:mine"].role == "hero" and stats["invoker:heuristic"].role == "invoker"
    assert mine.calls > 0
    with pytest.raises(ValueError, match="ROLE:REF"):  # no role given for the object
        tournament("mythsgate", [FirstLegal(), "invoker:heuristic"], 2, progress=False)
    solo = tournament("mythwind_innkeeper", [FirstLegal(), "heuristic"], 1, progress=False)
    assert solo.labels == ["first-legal", "heuristic"]


def test_play_game_and_play_take_objects() -> None:
    from mythzoo.training.play_cli import play

    record = play_game("mythic_baths", 2, [FirstLegal(), "random"], seed=3)
    assert record.finished and record.labels == ["first-legal", "random"]
    out = __import__("io").StringIO()
    mine = FirstLegal()
    record = play("mythic_baths", [mine], seat=0, seed=5, input_fn=lambda _: "1", out=out)
    assert record.finished and mine.calls > 0
    assert "player_1 (first-legal) plays" in out.getvalue()


def test_tournament_with_a_registry_records_nothing_for_objects_and_code_refs(tmp_path: Path, monkeypatch) -> None:
    from mythzoo.policies.registry import Registry

    module = tmp_path / "byo_policies.py"
    module.write_text("from test_policy_objects import FirstLegal\ndef make():\n    return FirstLegal()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry(tmp_path / "registry")
    result = tournament("mythic_baths", [FirstLegal(), "py:byo_policies:make", "random"], 6, num_players=2, registry=reg, progress=False)
    assert result.registry_notes == []
    assert reg.list() == []


# ------------------------------------------------------------------ the self-play pool
def test_opponent_pool_plays_a_user_object_and_refuses_what_cannot_act() -> None:
    pytest.importorskip("stable_baselines3", reason="the self-play pool needs the train extra")
    from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv

    mine = FirstLegal()
    pool = OpponentPool({"past": 1.0})
    pool.add("past", "mine", mine)
    with pytest.raises(TypeError, match="act_batch"):
        pool.add("past", "nothing", object())
    vec = SelfPlayVecEnv("mythic_baths", {"num_players": 3}, 4, pool, seed=0)
    vec.reset()
    for _ in range(20):
        masks = vec.action_masks()
        vec.step_async(masks.argmax(axis=1))
        vec.step_wait()
    assert mine.calls > 0


def test_train_takes_user_opponents(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="training needs the train extra")
    from mythzoo.training.config import from_dict
    from mythzoo.training.ppo import train

    mine = FirstLegal()
    cfg = from_dict({"env": "mythic_baths_v1", "total_timesteps": 256, "num_envs": 4, "n_steps": 32, "batch_size": 64, "n_epochs": 1,
                     "net_arch": [16, 16], "snapshot_every": 10_000, "eval_every": 10_000, "eval_games": 0, "registry": "none",
                     "run_dir": str(tmp_path / "runs"), "progress": False, "opponent_mix": {"past": 1.0}, "baselines": []})
    summary = train(cfg, opponents={"mine": mine})
    assert summary["steps"] >= 256
    assert mine.calls > 0  # every opponent seat was the user's policy (the mix is all "past")


# ------------------------------------------------------------------ py:module:factory refs
FACTORIES = textwrap.dedent('''
    import numpy as np

    class Lowest:
        name = "lowest"
        def __init__(self, spec=None, seed=None):
            self.spec, self.seed = spec, seed
        def act(self, observation, action_mask, agent=None):
            return int(np.flatnonzero(action_mask)[0])
        def act_batch(self, observations, action_masks, agent=None):
            return np.asarray(action_masks).argmax(axis=1)

    def with_spec(env_spec):
        return Lowest(env_spec)

    def with_spec_and_seed(env_spec, seed=None):
        return Lowest(env_spec, seed)

    def no_args():
        return Lowest()

    READY = Lowest()

    def not_a_policy(env_spec):
        return 42

    def fails():
        raise RuntimeError("weights file missing")

    NUMBER = 7
''')


@pytest.fixture
def factories(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / "byo_factories.py").write_text(FACTORIES)
    (tmp_path / "byo_broken.py").write_text("import a_module_that_is_not_there\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_code_ref_calls_the_factory_as_documented(factories: Path) -> None:
    env = make("mythic_baths", num_players=3)
    p = load_policy("py:byo_factories:with_spec", env)
    assert p.spec.env_name == "mythic_baths_v1" and p.spec.obs_sizes["player_0"] == 628 and p.spec.config["num_players"] == 3
    assert load_policy("py:byo_factories:with_spec_and_seed", env, seed=9).seed == 9
    assert load_policy("py:byo_factories:no_args", env).spec is None
    assert load_policy("py:byo_factories:READY", env) is sys.modules["byo_factories"].READY
    cls = load_policy("py:byo_factories:Lowest", env, seed=4)  # a class is a factory too
    assert cls.spec.env_name == "mythic_baths_v1" and cls.seed == 4


@pytest.mark.parametrize(("ref", "message"), [
    ("py:byo_nowhere:make", "no module named 'byo_nowhere'"),
    ("py:byo_factories:missing", "has no attribute 'missing'"),
    ("py:byo_factories:not_a_policy", "returned an object of type int, which is not a policy"),
    ("py:byo_factories:NUMBER", "neither a policy"),
    ("py:byo_factories:fails", "raised RuntimeError: weights file missing"),
    ("py:byo_broken:make", "importing byo_broken failed: ModuleNotFoundError"),
    ("py:byo_factories", "expected py:<module>:<factory>"),
])
def test_code_ref_errors_are_one_line(factories: Path, ref: str, message: str) -> None:
    with pytest.raises(PolicyRefError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        load_policy(ref, make("mythic_baths", num_players=2))
    assert "\n" not in str(e.value)


def _cli(args: list[str], cwd: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run(MYTHZOO + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_cli_evaluates_a_code_ref(factories: Path, tmp_path: Path) -> None:
    done = _cli(["eval", "mythic_baths", "py:byo_factories:with_spec", "random", "--games", "4", "--players", "2", "--workers", "1",
                 "--quiet", "--registry", str(tmp_path / "nothing")], tmp_path, pythonpath=factories)
    assert done.returncode == 0, done.stderr
    assert "py:byo_factories:with_spec" in done.stdout


@pytest.mark.parametrize("ref", ["py:byo_nowhere:make", "py:byo_factories:missing", "py:byo_factories:not_a_policy", "py:byo_factories:fails"])
def test_cli_code_ref_errors_are_one_line_without_traceback(factories: Path, tmp_path: Path, ref: str) -> None:
    done = _cli(["eval", "mythic_baths", ref, "random", "--games", "2", "--players", "2", "--quiet"], tmp_path, pythonpath=factories)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mythzoo eval: error: cannot load policy: " + ref), done.stderr


# ------------------------------------------------------------------ a registry never runs code
EVIL = "import pathlib\npathlib.Path({marker!r}).write_text('imported')\ndef make(*a, **k):\n    raise SystemExit('ran')\n"


def test_a_registry_entry_that_names_a_module_is_never_imported(tmp_path: Path, monkeypatch) -> None:
    from mythzoo.policies.base import EnvSpec
    from mythzoo.policies.neural import init_mlp_weights
    from mythzoo.policies.registry import Registry

    marker = tmp_path / "imported.txt"
    (tmp_path / "byo_evil.py").write_text(EVIL.format(marker=str(marker)))
    monkeypatch.syspath_prepend(str(tmp_path))
    env = make("mythic_baths", num_players=2)
    reg = Registry(tmp_path / "registry")
    weights, arch = init_mlp_weights(628, 132, hidden=(8,), seed=0)
    # Every free-text field of the entry names the module: its name, tags, metrics and alias.
    info = reg.register("byo_evil", weights, arch, env_spec=EnvSpec.from_env(env), algo="py:byo_evil:make", steps=1,
                        tags=["py:byo_evil:make"], metrics={"factory": "py:byo_evil:make", "module": "byo_evil"})
    reg.set_alias("byo_evil", "make", info.version)
    for ref in ("byo_evil", "byo_evil@latest", "byo_evil@make", "byo_evil:1", info.id, info.id[:6]):
        policy = load_policy(ref, env, registry=reg)
        assert policy.checkpoint_id == info.id
    result = tournament("mythic_baths", ["byo_evil@make", "random"], 4, num_players=2, registry=reg, progress=False)
    assert result.by_label()["byo_evil@make"].played_as == info.id
    with pytest.raises(ValueError):  # the registry itself takes no code ref
        reg.load_policy("py:byo_evil:make", env)
    with pytest.raises(ValueError):  # and no checkpoint can be named like one
        reg.register("py:byo_evil", weights, arch, env_spec=EnvSpec.from_env(env), algo="x", steps=1)
    assert not marker.exists() and "byo_evil" not in sys.modules
