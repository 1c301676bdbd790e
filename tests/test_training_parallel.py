"""Self-play games in worker processes: the same games as in-process, opponents that reach the workers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from mythzoo.envs import mythic_baths_v1
from mythzoo.policies.base import BasePolicy, RandomPolicy
from mythzoo.training.config import from_dict
from mythzoo.training.parallel import WORKER_SEED_STRIDE, SubprocSelfPlayVecEnv
from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv


def _pool() -> OpponentPool:
    pool = OpponentPool({"baselines": 1.0}, seed=0)
    pool.add("baselines", "random", RandomPolicy(0))
    return pool


class FirstLegal(BasePolicy):
    """Always the lowest legal action: recognisable in the games it plays."""

    def act_batch(self, observations, action_masks, agent=None):
        return np.argmax(action_masks, axis=1)


def test_workers_play_the_same_games_as_in_process_vecenvs_with_their_seeds() -> None:
    sizes = [3, 2]  # 5 games over 2 workers: blocks of 3 and 2
    par = SubprocSelfPlayVecEnv("mythic_baths_v1", {"num_players": 2}, 5, _pool(), num_workers=2, seed=4)
    try:
        seq = [SelfPlayVecEnv("mythic_baths_v1", {"num_players": 2}, n, _pool(), seed=4 + WORKER_SEED_STRIDE * w) for w, n in enumerate(sizes)]
        obs_p = par.reset()
        obs_s = np.concatenate([v.reset() for v in seq])
        np.testing.assert_array_equal(obs_p, obs_s)
        rng = np.random.default_rng(0)
        dones_seen = 0
        for _ in range(300):
            masks = par.action_masks()
            np.testing.assert_array_equal(masks, np.concatenate([v.action_masks() for v in seq]))
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            o_p, r_p, d_p, i_p = par.step(actions)
            outs = [v.step(actions[a:b]) for v, a, b in zip(seq, (0, 3), (3, 5))]
            np.testing.assert_array_equal(o_p, np.concatenate([o[0] for o in outs]))
            np.testing.assert_array_equal(r_p, np.concatenate([o[1] for o in outs]))
            np.testing.assert_array_equal(d_p, np.concatenate([o[2] for o in outs]))
            assert [i.get("learner_agent") for i in i_p] == [i.get("learner_agent") for o in outs for i in o[3]]
            dones_seen += int(d_p.sum())
        assert dones_seen > 0, "the comparison covered finished games"
        assert par.finished_games == sum(v.finished_games for v in seq)
    finally:
        par.close()


def test_opponents_added_after_start_reach_the_workers() -> None:
    pool = OpponentPool({"baselines": 0.0, "latest": 1.0}, seed=0)
    pool.add("baselines", "random", RandomPolicy(0))
    par = SubprocSelfPlayVecEnv("mythic_baths_v1", {"num_players": 2}, 4, pool, num_workers=2, seed=0)
    try:
        par.reset()
        par.pool.add("latest", "latest", FirstLegal())  # the next games draw only from `latest`
        rng = np.random.default_rng(0)
        opponents = []
        for _ in range(2000):
            masks = par.action_masks()
            _, _, dones, infos = par.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            opponents += [set(infos[i]["opponents"].values()) for i in np.flatnonzero(dones)]
            if len(opponents) >= 12:
                break
        later = opponents[4:]  # the first game in each slot started before the add
        assert later and all(o == {"latest"} for o in later), opponents
        assert pool.games["latest"] >= len(later), "the main pool counts the workers' games"
    finally:
        par.close()


def test_worker_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="num_workers"):
        SubprocSelfPlayVecEnv("mythic_baths_v1", {"num_players": 2}, 4, _pool(), num_workers=0)
    with pytest.raises(ValueError, match="at least num_workers"):
        SubprocSelfPlayVecEnv("mythic_baths_v1", {"num_players": 2}, 2, _pool(), num_workers=3)
    with pytest.raises(ValueError, match="num_workers"):
        from_dict({"num_workers": -1})
    with pytest.raises(ValueError, match="num_workers"):
        from_dict({"num_workers": 8, "num_envs": 4})


@pytest.mark.parametrize("env, env_kwargs", [("mythic_baths_v1", {"num_players": 2}), ("mythsgate_v2", {"num_heroes": 2})])
def test_short_training_run_with_worker_processes(tmp_path: Path, env: str, env_kwargs: dict) -> None:
    # Two workers: the rollouts are pipelined; in Mythsgate, one learner per role takes turns.
    from mythzoo.policies.registry import Registry
    from mythzoo.training.ppo import train

    cfg = from_dict({
        "env": env, "env_kwargs": env_kwargs, "total_timesteps": 256, "num_envs": 4, "num_workers": 2, "n_steps": 64, "batch_size": 128, "n_epochs": 1,
        "net_arch": [16, 16], "snapshot_every": 128, "eval_every": 256, "eval_games": 2, "role_phase_steps": 128,
        "registry": str(tmp_path / "registry"), "run_dir": str(tmp_path / "runs"), "progress": False, "name": "par",
    })
    summary = train(cfg)
    roles = summary["roles"] or {"": summary}
    assert all(r["steps"] >= 256 for r in roles.values()), roles
    registry = Registry(tmp_path / "registry")
    names = [r["name"] for r in roles.values()]
    assert all(len(registry.list(name)) >= 2 for name in names), names


# ---------------------------------------------------------------- pipelined rollouts
def _ppo_on_workers(seed: int = 3, **env_kwargs):
    """A small MaskablePPO (this project's subclass) on 2 workers, with deterministic actions, so
    that the pipelined and SB3's sequential collection can be compared row for row."""
    import torch

    from mythzoo.training.ppo import ImitationRegularizedPPO

    par = SubprocSelfPlayVecEnv("mythic_baths_v1", {"num_players": 2, "reward_mode": "dense", **env_kwargs}, 5, _pool(), num_workers=2, seed=seed)
    model = ImitationRegularizedPPO("MlpPolicy", par, n_steps=200, batch_size=500, n_epochs=1, seed=0, device="cpu",
                                    policy_kwargs={"net_arch": [32, 32]})
    forward = model.policy.forward
    model.policy.forward = lambda obs, deterministic=False, action_masks=None: forward(obs, True, action_masks)
    torch.manual_seed(0)
    return model, par


def _collect(model, par) -> None:
    from stable_baselines3.common.callbacks import BaseCallback

    class Nothing(BaseCallback):
        def _on_step(self) -> bool:
            return True

    _, cb = model._setup_learn(model.n_steps, Nothing())  # resets the games, as learn() does
    assert model.collect_rollouts(par, cb, model.rollout_buffer, model.n_steps)


@pytest.mark.slow  # two full SB3 rollouts side by side: about 45 s each on 2 cores
@pytest.mark.parametrize("env_kwargs", [{}, {"max_turns": 8}], ids=["games-end", "turn-cap-truncates"])
def test_pipelined_rollout_stores_what_sb3s_sequential_rollout_stores(env_kwargs: dict) -> None:
    # The pipelined rollout chooses one worker's moves while the other plays: same buffer as SB3's
    # loop, including the rewards of truncated games, which bootstrap with the last value.
    fields = ("observations", "actions", "rewards", "episode_starts", "action_masks")
    floats = ("values", "log_probs", "advantages", "returns")
    buffers = []
    for pipeline in (True, False):
        model, par = _ppo_on_workers(**env_kwargs)
        model.pipeline = pipeline
        try:
            _collect(model, par)
            assert not any(par._in_flight), "nothing is left in flight after a rollout"
            buffers.append({k: getattr(model.rollout_buffer, k).copy() for k in fields + floats})
            buffers[-1]["last_obs"] = model._last_obs.copy()
        finally:
            par.close()
    piped, seq = buffers
    assert seq["episode_starts"][1:].any(), "the rollout covered finished games"
    for k in fields + ("last_obs",):
        np.testing.assert_array_equal(piped[k], seq[k], err_msg=k)
    for k in floats:  # a forward pass over a block instead of all games: equal up to float rounding
        np.testing.assert_allclose(piped[k], seq[k], rtol=1e-5, atol=1e-5, err_msg=k)


def test_pipelined_rollout_stopped_by_a_callback_leaves_the_workers_idle() -> None:
    from stable_baselines3.common.callbacks import BaseCallback

    model, par = _ppo_on_workers()

    class StopAtFive(BaseCallback):
        def _on_step(self) -> bool:
            return self.n_calls < 5

    try:
        _, cb = model._setup_learn(model.n_steps, StopAtFive())
        assert model.collect_rollouts(par, cb, model.rollout_buffer, model.n_steps) is False
        assert model.num_timesteps == 5 * par.num_envs
        assert not any(par._in_flight), "the moves sent ahead were received"
        # The model's last observations are the games' current ones: a new step plays from them.
        masks = par.action_masks()
        assert masks.any(axis=1).all()
        obs, *_ = par.step(np.argmax(masks, axis=1))
        assert obs.shape == model._last_obs.shape
    finally:
        par.close()


def test_a_group_cannot_be_sent_twice_or_received_idle() -> None:
    par = SubprocSelfPlayVecEnv("mythic_baths_v1", {"num_players": 2}, 4, _pool(), num_workers=2, seed=0)
    try:
        par.reset()
        with pytest.raises(RuntimeError, match="no step in flight"):
            par.recv_group(0)
        sl = par.group_slice(0)
        par.send_group(0, np.argmax(par.action_masks()[sl], axis=1))
        with pytest.raises(RuntimeError, match="still playing"):
            par.send_group(0, np.argmax(par.action_masks()[sl], axis=1))
        par.drain()
        assert not any(par._in_flight)
    finally:
        par.close()


# ---------------------------------------------------------------- mixed table sizes
def test_games_cycle_through_the_env_kwargs_variants_and_the_learner_takes_every_seat() -> None:
    variants = [{"num_players": 2}, {"num_players": 3}, {"num_players": 4}]
    vec = SelfPlayVecEnv("mythic_baths_v1", variants, 6, _pool(), seed=1)
    assert [len(a) for a in vec.game_agents] == [2, 3, 4, 2, 3, 4]
    assert vec.learner_agents == ["player_0", "player_1", "player_2", "player_3"]
    vec.reset()
    rng = np.random.default_rng(0)
    seats: dict[int, set[str]] = {3: set(), 4: set()}
    for _ in range(3000):
        masks = vec.action_masks()
        assert masks.any(axis=1).all(), "the learner never sees an all-zero mask"
        _, _, dones, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        for i in np.flatnonzero(dones):
            players = len(vec.game_agents[i])
            assert len(infos[i]["opponents"]) == players - 1  # every other seat of that table has an opponent
            assert infos[i]["learner_agent"] in vec.game_agents[i]
            if players in seats:
                seats[players].add(infos[i]["learner_agent"])
    assert seats[4] == {"player_0", "player_1", "player_2", "player_3"}, seats
    assert seats[3] == {"player_0", "player_1", "player_2"}, seats


def test_workers_play_mixed_tables_as_in_process_vecenvs_do() -> None:
    variants = [{"num_players": 2}, {"num_players": 4}]
    par = SubprocSelfPlayVecEnv("mythic_baths_v1", variants, 4, _pool(), num_workers=2, seed=4)
    try:
        seq = [SelfPlayVecEnv("mythic_baths_v1", variants, 2, _pool(), seed=4 + WORKER_SEED_STRIDE * w) for w in range(2)]
        np.testing.assert_array_equal(par.reset(), np.concatenate([v.reset() for v in seq]))
        assert par.get_attr("num_agents") == [2, 4, 2, 4]
        rng = np.random.default_rng(0)
        for _ in range(200):
            masks = par.action_masks()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            o_p, r_p, d_p, _ = par.step(actions)
            outs = [v.step(actions[2 * w:2 * w + 2]) for w, v in enumerate(seq)]
            np.testing.assert_array_equal(o_p, np.concatenate([o[0] for o in outs]))
            np.testing.assert_array_equal(r_p, np.concatenate([o[1] for o in outs]))
    finally:
        par.close()


def test_training_on_mixed_table_sizes(tmp_path: Path) -> None:
    from mythzoo.training.ppo import train

    base = {"env": "mythic_baths_v1", "total_timesteps": 256, "num_envs": 4, "num_workers": 2, "n_steps": 64, "batch_size": 128,
            "n_epochs": 1, "net_arch": [16, 16], "snapshot_every": 256, "eval_every": 256, "eval_games": 2,
            "registry": "none", "run_dir": str(tmp_path / "runs"), "progress": False}
    # Trained at 3 and 4 players, judged at 2 (eval_env_kwargs): the evaluation seats the learner at its table.
    summary = train(from_dict({**base, "eval_every": 128, "eval_games": 4, "env_kwargs_variants": [{"num_players": 3}, {"num_players": 4}],
                               "eval_env_kwargs": {"num_players": 2}}))
    assert summary["steps"] >= 256
    assert summary["history"] and all(0.0 <= row["win_rate_vs_random"] <= 1.0 for row in summary["history"]), summary["history"]
    with pytest.raises(ValueError, match="at least one variant"):
        from_dict({**base, "env_kwargs_variants": []})



def test_variants_that_change_the_layout_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No shipped env changes its layout with its arguments (one declared shape per game), so a
    # variant that would is simulated: the spec read off a 3-player table gets another signature.
    import dataclasses

    from mythzoo.training import ppo

    real = ppo.EnvSpec.from_env

    def from_env(env):
        spec = real(env)
        return dataclasses.replace(spec, signature="changed") if len(env.possible_agents) == 3 else spec

    monkeypatch.setattr(ppo.EnvSpec, "from_env", staticmethod(from_env))
    cfg = from_dict({"env": "mythic_baths_v1", "total_timesteps": 64, "num_envs": 2, "n_steps": 32, "batch_size": 64, "net_arch": [8],
                     "registry": "none", "run_dir": str(tmp_path / "runs"), "progress": False,
                     "env_kwargs_variants": [{"num_players": 2}, {"num_players": 3}]})
    with pytest.raises(ValueError, match="changes the observation layout or action table"):
        ppo.train(cfg)
    assert not (tmp_path / "runs").exists(), "a refused run leaves nothing"


def test_the_training_bound_benchmark_splits_a_step_into_games_forward_passes_and_update(tmp_path, capsys) -> None:
    """``benchmarks/bench_train_bound.py`` (a tiny config: two worker processes, three rollouts) meters
    the workers' and the learner's CPU per learner step, and its ceilings follow from those parts:
    freeing the games or the update can only raise the rate every core would give."""
    import json
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_train_bound

    out = tmp_path / "bound.json"
    argv = ["--rollouts", "3", "--repeats", "1", "--tutorial-steps", "64", "--games-seconds", "0.2", "--json", str(out),
            "num_envs=4", "n_steps=64", "batch_size=64", "n_epochs=1"]
    assert bench_train_bound.main(argv) == 0
    fig = json.loads(out.read_text())
    med, ceil, cores = fig["medians"], fig["ceilings"], fig["cores"]
    assert med["collect_workers_cpu"] > 0 and med["collect_main_cpu"] > 0 and med["update_main_cpu"] > 0
    cpu = med["collect_workers_cpu"] + med["update_workers_cpu"] + med["collect_main_cpu"] + med["update_main_cpu"]
    assert ceil["today's work"] == pytest.approx(1e6 * cores / cpu)
    assert ceil["today's work"] < min(ceil["games free"], ceil["update free"])
    assert med["games_alone"] > 0
    forward, update = med["collect_main_cpu"], med["update_main_cpu"]
    assert ceil["opponents and pipes free"] == pytest.approx(1e6 * cores / (med["games_alone"] + forward + update))
    assert "ceiling, games free" in capsys.readouterr().out
