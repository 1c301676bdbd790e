"""The shared core serves asymmetric games: per-role sizes and self-play training restricted to one
role (what Mythsgate builds on). The toy (``tests/toy_asymmetric.py``) is registered by
``tests/conftest.py``, so the conformance suite checks its API, spaces and state like any game's."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3", reason="self-play training needs the train extra")

from mythzoo.policies.base import EnvSpec, RandomPolicy  # noqa: E402
from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv  # noqa: E402
from toy_asymmetric import ToyEnv  # noqa: E402


def test_asymmetric_env_has_per_role_sizes_that_policies_read() -> None:
    """(PettingZoo's API test, state round trips and resampling of this toy run in tests/conformance/.)"""
    env = ToyEnv()
    assert env.observation_space("hider")["observation"].shape == (2,)
    assert env.observation_space("seeker_0")["observation"].shape == (4,)
    spec = EnvSpec.from_env(env)
    assert spec.obs_sizes == {"hider": 2, "seeker_0": 4}


def test_self_play_vecenv_trains_one_role_against_the_other() -> None:
    pool = OpponentPool({"baselines": 1.0}, seed=0)
    pool.add("baselines", "random", RandomPolicy(0))
    vec = SelfPlayVecEnv("toy_hide_seek_v0", {}, 8, pool, learner_agents=["seeker_0"], seed=0)
    assert vec.observation_space.shape == (4,)
    obs = vec.reset()
    assert obs.shape == (8, 4) and (obs[:, 3] == 1).all(), "the hider has always moved before the seeker acts"
    # Always guessing the hinted box wins about 2/3 + 1/9 of games against a random hider.
    wins = games = 0
    for _ in range(300):
        actions = obs[:, :3].argmax(axis=1)
        obs, rewards, dones, infos = vec.step(actions)
        games += int(dones.sum())
        wins += int((rewards[dones] > 0).sum())
        assert all(info["learner_agent"] == "seeker_0" for info in np.array(infos)[dones])
    assert games == 8 * 300 and abs(wins / games - 7 / 9) < 0.05


def test_train_gives_each_role_its_own_network_and_the_roles_take_turns(tmp_path, monkeypatch) -> None:

    pytest = __import__("pytest")
    pytest.importorskip("sb3_contrib")
    from mythzoo.policies.registry import Registry
    from mythzoo.training import ppo
    from mythzoo.training.config import from_dict

    # toy_hide_seek_v0 is registered by tests/conftest.py
    order: list[str] = []
    orig = ppo.SelfPlayCallback._on_training_start

    def spy(self):
        order.append(self.role)
        orig(self)

    monkeypatch.setattr(ppo.SelfPlayCallback, "_on_training_start", spy)
    cfg = from_dict({
        "env": "toy_hide_seek_v0", "env_kwargs": {}, "total_timesteps": 256, "role_phase_steps": 128,
        "num_envs": 4, "n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": [8], "baselines": ["random"],
        "snapshot_every": 128, "eval_every": 256, "eval_games": 6, "registry": str(tmp_path / "reg"),
        "run_dir": str(tmp_path / "runs"), "progress": False, "name": "toy",
    })
    summary = ppo.train(cfg)
    assert order == ["hider", "seeker", "hider", "seeker"], "roles alternate in turns of role_phase_steps"
    assert set(summary["roles"]) == {"hider", "seeker"}
    reg = Registry(tmp_path / "reg")
    hider, seeker = reg.resolve("toy-hider@latest"), reg.resolve("toy-seeker@latest")
    assert (hider.role, hider.arch["obs_size"]) == ("hider", 2) and (seeker.role, seeker.arch["obs_size"]) == ("seeker", 4)
    assert summary["roles"]["hider"]["steps"] >= 256 and summary["roles"]["seeker"]["steps"] >= 256
    assert "win_rate_vs_random" in summary["roles"]["seeker"]["final_eval"]


def test_each_role_resumes_from_its_own_checkpoint(tmp_path, monkeypatch) -> None:

    pytest = __import__("pytest")
    pytest.importorskip("sb3_contrib")
    from mythzoo.policies.registry import Registry
    from mythzoo.training import ppo
    from mythzoo.training.config import from_dict

    # toy_hide_seek_v0 is registered by tests/conftest.py
    base = {
        "env": "toy_hide_seek_v0", "env_kwargs": {}, "total_timesteps": 128, "role_phase_steps": 128,
        "num_envs": 4, "n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": [8], "baselines": ["random"],
        "snapshot_every": 128, "eval_every": 10_000, "eval_games": 0, "registry": str(tmp_path / "reg"),
        "run_dir": str(tmp_path / "runs"), "progress": False, "name": "toy",
    }
    first = ppo.train(from_dict(base))
    hider_id = first["roles"]["hider"]["checkpoint"]
    reg = Registry(tmp_path / "reg")
    saved = reg.resolve(hider_id).steps
    # The hider continues from its checkpoint; the seeker, not named, starts fresh.
    second = ppo.train(from_dict({**base, "total_timesteps": saved + 128, "resume": f"hider={hider_id}"}))
    assert second["roles"]["hider"]["steps"] >= saved + 128
    def lineage(ckpt):
        out = []
        while ckpt is not None:
            out.append(ckpt)
            ckpt = reg.resolve(ckpt).parent
        return out

    assert hider_id in lineage(second["roles"]["hider"]["checkpoint"])
    first_ids = {c.id for c in reg.list("toy-seeker")} - set(lineage(second["roles"]["seeker"]["checkpoint"]))
    assert first["roles"]["seeker"]["checkpoint"] in first_ids, "the seeker started fresh: its lineage holds no first-run checkpoint"
    with pytest.raises(ValueError, match="ROLE=REF"):
        ppo.train(from_dict({**base, "resume": hider_id}))
    with pytest.raises(ValueError, match="trained for role 'hider'"):
        ppo.train(from_dict({**base, "resume": f"seeker={hider_id}"}))
