"""Self-play games in worker processes: the same games as in-process, opponents that reach the workers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from mythzoo.envs import mythic_baths_v0
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
    par = SubprocSelfPlayVecEnv("mythic_baths_v0", {"num_players": 2}, 5, _pool(), num_workers=2, seed=4)
    try:
        seq = [SelfPlayVecEnv(lambda: mythic_baths_v0.env(num_players=2), n, _pool(), seed=4 + WORKER_SEED_STRIDE * w) for w, n in enumerate(sizes)]
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
    par = SubprocSelfPlayVecEnv("mythic_baths_v0", {"num_players": 2}, 4, pool, num_workers=2, seed=0)
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
        SubprocSelfPlayVecEnv("mythic_baths_v0", {"num_players": 2}, 4, _pool(), num_workers=0)
    with pytest.raises(ValueError, match="at least num_workers"):
        SubprocSelfPlayVecEnv("mythic_baths_v0", {"num_players": 2}, 2, _pool(), num_workers=3)
    with pytest.raises(ValueError, match="num_workers"):
        from_dict({"num_workers": -1})
    with pytest.raises(ValueError, match="num_workers"):
        from_dict({"num_workers": 8, "num_envs": 4})


def test_short_training_run_with_worker_processes(tmp_path: Path) -> None:
    from mythzoo.policies.registry import Registry
    from mythzoo.training.ppo import train

    cfg = from_dict({
        "total_timesteps": 256, "num_envs": 4, "num_workers": 2, "n_steps": 64, "batch_size": 128, "n_epochs": 1,
        "net_arch": [16, 16], "snapshot_every": 128, "eval_every": 256, "eval_games": 2,
        "registry": str(tmp_path / "registry"), "run_dir": str(tmp_path / "runs"), "progress": False, "name": "par",
    })
    summary = train(cfg)
    assert summary["steps"] >= 256 and summary["games_finished"] >= 0
    assert len(Registry(tmp_path / "registry").list("par")) >= 2
