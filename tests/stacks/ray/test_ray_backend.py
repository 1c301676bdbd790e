"""The Ray training backend: the same games and rollouts as the process backend, opponents through
the object store, a dead rollout actor restarted while training goes on, and the CLI's flags."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")

from mythzoo.envs import mythic_baths_v1
from mythzoo.policies.base import BasePolicy, RandomPolicy
from mythzoo.policies.neural import MLPPolicy, init_mlp_weights
from mythzoo.policies.registry import Registry
from mythzoo.training import ray_backend
from mythzoo.training.config import ConfigError, from_dict
from mythzoo.training.parallel import SubprocSelfPlayVecEnv
from mythzoo.training.ppo import train
from mythzoo.training.ray_backend import RaySelfPlayVecEnv, decode_policy, encode_policy
from mythzoo.training.selfplay import OpponentPool

ENV = "mythic_baths_v1"
KW = {"num_players": 2}


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One local Ray cluster for the module (training joins the running connection)."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield
    ray.shutdown()


def _pool() -> OpponentPool:
    pool = OpponentPool({"baselines": 1.0, "latest": 1.0}, seed=0)
    pool.add("baselines", "random", RandomPolicy(0))
    return pool


def _tiny(**over) -> dict:
    cfg = {"env": ENV, "env_kwargs": KW, "num_envs": 4, "num_workers": 2, "n_steps": 16, "batch_size": 32, "n_epochs": 1,
           "net_arch": [16], "total_timesteps": 256, "snapshot_every": 64, "eval_every": 10_000, "eval_games": 0,
           "progress": False, "update_threads": 1, "opponent_mix": {"latest": 0.5, "baselines": 0.5}}
    cfg.update(over)
    return cfg


@pytest.mark.parametrize("env_kwargs", [KW, [{"num_players": 2}, {"num_players": 4}, {"num_players": 3}]], ids=["one-table", "mixed-tables"])
def test_ray_and_process_backends_play_the_same_games_for_a_seed(env_kwargs) -> None:
    """Same seed and worker count: the first observations, then every step's results, are equal
    (also when the games mix table sizes, config ``env_kwargs_variants``)."""
    proc = SubprocSelfPlayVecEnv(ENV, env_kwargs, 5, _pool(), num_workers=2, seed=4)
    rvec = RaySelfPlayVecEnv(ENV, env_kwargs, 5, _pool(), num_workers=2, seed=4)
    try:
        np.testing.assert_array_equal(rvec.reset(), proc.reset())
        weights, arch = init_mlp_weights(mythic_baths_v1.env(**KW).observation_space("player_0")["observation"].shape[0],
                                         proc.action_space.n, hidden=[8], seed=1)
        for vec in (proc, rvec):  # a network opponent, added after the start, sampling with its own generator
            vec.pool.add("latest", "latest", MLPPolicy(weights, arch, deterministic=False, seed=5))
        rng = np.random.default_rng(0)
        dones = 0
        for _ in range(150):
            masks = proc.action_masks()
            np.testing.assert_array_equal(rvec.action_masks(), masks)
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            o_p, r_p, d_p, i_p = proc.step(actions)
            o_r, r_r, d_r, i_r = rvec.step(actions)
            np.testing.assert_array_equal(o_r, o_p)
            np.testing.assert_array_equal(r_r, r_p)
            np.testing.assert_array_equal(d_r, d_p)
            assert [i.get("opponents") for i in i_r] == [i.get("opponents") for i in i_p]
            dones += int(d_p.sum())
        assert dones > 0, "the comparison covered finished games"
        assert rvec.finished_games == proc.finished_games
        assert rvec.pool.games == proc.pool.games, "the main pools keep the same statistics"
    finally:
        proc.close()
        rvec.close()


def test_a_network_opponent_travels_as_arrays_and_acts_the_same() -> None:
    weights, arch = init_mlp_weights(12, 5, hidden=[7], seed=3)
    policy = MLPPolicy(weights, arch, deterministic=False, seed=9)
    policy.act_batch(np.ones((3, 12), np.float32), np.ones((3, 5), bool))  # its generator has moved on
    data = encode_policy(policy)
    assert data["kind"] == "mlp" and all(isinstance(v, np.ndarray) for v in data["weights"].values())
    copy = decode_policy(ray.get(ray.put(data)))
    obs = np.random.default_rng(0).normal(size=(50, 12)).astype(np.float32)
    masks = np.random.default_rng(1).random((50, 5)) < 0.7
    masks[:, 0] = True
    np.testing.assert_array_equal(copy.act_batch(obs, masks), policy.act_batch(obs, masks))
    assert encode_policy(RandomPolicy(0))["kind"] == "object"


def test_same_seed_trains_the_same_weights_on_either_backend(tmp_path: Path) -> None:
    """A whole seeded run (pipelined rollouts, updates, snapshots into the registry) is the same run on both backends."""
    finals = {}
    for backend in ("process", "ray"):
        reg = tmp_path / backend
        summary = train(from_dict(_tiny(backend=backend, seed=3, registry=str(reg), run_dir=str(tmp_path / "runs"))))
        assert summary["backend"] == backend and summary["steps"] == 256
        registry = Registry(str(reg))
        finals[backend] = registry.load_weights(summary["checkpoint"])
        assert len(registry.list()) == 5  # 4 snapshots (every 64 steps) and the final one
    assert finals["ray"].keys() == finals["process"].keys()
    for key, value in finals["process"].items():
        np.testing.assert_array_equal(finals["ray"][key], value, err_msg=key)


def test_an_actor_dying_mid_step_is_restarted_and_its_games_start_again() -> None:
    pool = OpponentPool({"baselines": 0.0, "latest": 1.0}, seed=0)
    pool.add("baselines", "random", RandomPolicy(0))
    vec = RaySelfPlayVecEnv(ENV, KW, 4, pool, num_workers=2, seed=0, max_restarts=2)
    try:
        obs = vec.reset()
        weights, arch = init_mlp_weights(obs.shape[1], vec.action_space.n, hidden=[8], seed=1)
        vec.pool.add("latest", "latest", MLPPolicy(weights, arch, seed=2))  # must reach the restarted actor too
        pid = vec.worker_stats()[0]["pid"]
        rng = np.random.default_rng(0)
        for _ in range(3):
            obs, *_ = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()]))
        ray.get(vec.links[0].actor.fail_next_step.remote())
        vec.send_group(0, np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()[vec.group_slice(0)]]))
        new_obs, rewards, dones, infos, masks = vec.recv_group(0)
        assert vec.restarts == 1 and vec.worker_stats()[0]["pid"] != pid
        assert dones.all() and not rewards.any()
        assert all(i["TimeLimit.truncated"] and i["actor_restarted"] for i in infos)
        np.testing.assert_array_equal(np.stack([i["terminal_observation"] for i in infos]), obs[vec.group_slice(0)])
        assert masks.any(axis=1).all()
        vec.send_group(1, np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()[vec.group_slice(1)]]))
        vec.recv_group(1)
        opponents = []
        for _ in range(3000):  # the restarted actor plays on, with the opponent added before its death
            _, _, d, inf = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()]))
            opponents += [set(inf[i]["opponents"].values()) for i in np.flatnonzero(d[vec.group_slice(0)])]
            if len(opponents) >= 4:
                break
        assert opponents and all(o == {"latest"} for o in opponents), opponents
        # Killed between calls: the next step reaches the restarted actor (or finds it dead), and is answered.
        pid1 = vec.worker_stats()[1]["pid"]
        ray.kill(vec.links[1].actor, no_restart=False)
        _wait_gone(pid1)
        _, _, d, inf = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()]))
        assert vec.restarts == 2
        _, _, d, inf = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()]))
    finally:
        vec.close()


def _wait_gone(pid: int, timeout_s: float = 30.0) -> None:
    """Until the (local) process ``pid`` has exited: ``ray.kill`` returns before it has."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} still runs")


def test_an_actor_without_restarts_left_stops_training_with_a_clear_error() -> None:
    vec = RaySelfPlayVecEnv(ENV, KW, 1, _pool(), num_workers=1, seed=0, max_restarts=0)
    try:
        vec.reset()
        pid = vec.worker_stats()[0]["pid"]
        ray.kill(vec.links[0].actor, no_restart=False)
        _wait_gone(pid)
        with pytest.raises(ray_backend.RayBackendError, match="no restart left"):
            vec.step(np.array([int(np.flatnonzero(vec.action_masks()[0])[0])]))
    finally:
        vec.close()


def test_training_goes_on_when_an_actor_dies_and_keeps_every_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    original = RaySelfPlayVecEnv.recv_group

    def recv_and_kill_once(self, w):
        calls["n"] += 1
        if calls["n"] == 100 and w == 1:  # in the second rollout, after two snapshots were registered
            ray.kill(self.links[w].actor, no_restart=False)
        return original(self, w)

    monkeypatch.setattr(RaySelfPlayVecEnv, "recv_group", recv_and_kill_once)
    reg = tmp_path / "reg"
    summary = train(from_dict(_tiny(backend="ray", registry=str(reg), run_dir=str(tmp_path / "runs"), total_timesteps=384)))
    assert summary["steps"] == 384 and summary["actor_restarts"] == 1
    registry = Registry(str(reg))
    entries = registry.list()
    assert [e.steps for e in entries] == [64, 128, 192, 256, 320, 384, 384]
    assert registry.verify().ok
    env = mythic_baths_v1.env(**KW)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    for e in entries:  # every snapshot, from before and after the fault, loads and plays
        action = registry.load_policy(e.id, env).act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action]


def test_cli_trains_on_ray_and_reports_the_backend(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from mythzoo.training.train_cli import main

    rc = main(["train", "mythic_baths", "--backend", "ray", "--registry", "none", "total_timesteps=128", "num_envs=4", "num_workers=2",
               "n_steps=16", "batch_size=32", "n_epochs=1", "net_arch=[16]", "eval_games=0", "progress=false", f"run_dir={tmp_path}",
               "pretrain_teacher=null", "bc_coef=0.0"])
    assert rc == 0
    out = capsys.readouterr().out
    summary = json.loads(out[out.index("{"):])
    assert summary["backend"] == "ray" and summary["steps"] == 128 and summary["actor_restarts"] == 0


def test_bad_backend_settings_are_refused_with_one_line() -> None:
    with pytest.raises(ConfigError, match="backend must be process or ray"):
        from_dict({"backend": "mpi"})
    with pytest.raises(ConfigError, match="needs num_workers >= 1"):
        from_dict({"backend": "ray", "num_workers": 0})
    with pytest.raises(ConfigError, match="only used with backend ray"):
        from_dict({"ray_address": "auto"})


def test_missing_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    from mythzoo.training.train_cli import main

    monkeypatch.setattr(ray_backend, "ray", None)
    with pytest.raises(ImportError, match=r"pip install mythzoo\[ray\]"):
        ray_backend.require_ray()
    assert main(["train", "mythic_baths", "--backend", "ray", "--registry", "none"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "mythzoo train: the Ray backend needs Ray: pip install mythzoo[ray]"
