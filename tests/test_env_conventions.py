"""The Gymnasium face of the solo game, as Gymnasium, its vector envs and SB3 use it.

``gymnasium.make`` reaches ``action_masks()``; the mask is also in ``obs`` and ``info``; the
spaces are the AEC env's; ``gymnasium.make_vec`` with either autoreset mode never hands a masked
sampler an all-zero mask; SB3's ``make_vec_env`` (which asks for ``render_mode="rgb_array"``)
builds it and a short ``MaskablePPO`` run takes no illegal action.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import mythzoo.envs
from mythzoo.envs import mythwind_innkeeper_v5
from mythzoo.envs.core.gym_env import DONE_MASK_ACTION

GYM_ID = mythzoo.envs.spec("mythwind_innkeeper").gymnasium_id
SHORT = {"days_per_season": 1, "seasons": 2}  # a short campaign: many episodes in a test


def test_gymnasium_make_reaches_action_masks_and_puts_the_mask_where_gymnasium_users_look():
    env = gymnasium.make(GYM_ID)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        masks = env.action_masks()
        assert masks.dtype == bool and masks.any()
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        legal = np.flatnonzero(masks)
        assert np.array_equal(legal, env.unwrapped.aec.legal_actions())
        obs, _, term, trunc, info = env.step(int(rng.choice(legal)))
        if term or trunc:
            obs, info = env.reset()


def test_gymnasium_face_spaces_are_the_aec_envs():
    env = gymnasium.make(GYM_ID, **SHORT)
    aec = mythwind_innkeeper_v5.raw_env(**SHORT)
    assert env.observation_space == aec.observation_space("innkeeper")
    assert env.action_space == aec.action_space("innkeeper")
    box = env.observation_space["observation"]
    assert np.array_equal(box.low, aec.observation_space("innkeeper")["observation"].low)
    assert np.array_equal(box.high, aec.observation_space("innkeeper")["observation"].high)
    obs, _ = env.reset(seed=1)
    aec.reset(seed=int(np.random.Generator(np.random.PCG64(1)).integers(2**63)))  # the seed the gym env draws
    assert np.array_equal(obs["observation"], aec.observe("innkeeper")["observation"])
    assert env.observation_space.contains(obs)


def _masked_sample(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What a masked sampler does: one legal id per row (it fails on an all-zero row)."""
    assert masks.any(axis=1).all(), f"an all-zero mask: rows {np.flatnonzero(~masks.any(axis=1))}"
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_make_vec_with_a_masked_sampler_never_sees_an_all_zero_mask(mode):
    from gymnasium.vector import AutoresetMode

    autoreset = AutoresetMode.NEXT_STEP if mode == "next_step" else AutoresetMode.SAME_STEP
    envs = gymnasium.make_vec(GYM_ID, num_envs=3, vectorization_mode="sync", vector_kwargs={"autoreset_mode": autoreset}, **SHORT)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes, ignored = 0, 0
    ended = np.zeros(3, dtype=bool)
    for _ in range(1500):
        masks = obs["action_mask"].astype(bool)
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        assert np.array_equal(np.stack(envs.call("action_masks")), masks)
        actions = _masked_sample(masks, rng)
        obs, reward, term, trunc, info = envs.step(actions)
        assert (info["illegal_action"] == -1).all(), "a masked sampler took an illegal action"
        if mode == "next_step":
            # The step after an episode's end only resets that sub-env: reward 0, not done, a legal mask.
            ignored += int(ended.sum())
            assert not (term | trunc)[ended].any() and (reward[ended] == 0).all()
            done_rows = term | trunc
            assert (obs["action_mask"][done_rows].sum(axis=1) == 1).all()
            assert (obs["action_mask"][done_rows, DONE_MASK_ACTION] == 1).all()
        else:
            assert "final_obs" in info or not (term | trunc).any()
        ended = term | trunc
        episodes += int(ended.sum())
    assert episodes >= 10, f"only {episodes} episodes: the test plays too few"
    if mode == "next_step":
        assert ignored > 0
    envs.close()


def test_unknown_render_mode_warns_and_falls_back():
    with pytest.warns(UserWarning, match="render_mode"):
        env = mythwind_innkeeper_v5.MythwindInnkeeperGymEnv(render_mode="no_such_mode")
    env.reset(seed=0)
    assert env.render_mode is None and env.render() is None


def test_rgb_array_through_gymnasium_make_has_one_frame_shape():
    env = gymnasium.make(GYM_ID, render_mode="rgb_array", **SHORT)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    shapes = set()
    for _ in range(60):
        frame = env.render()
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        shapes.add(frame.shape)
        obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            obs, _ = env.reset()
    assert len(shapes) == 1


def test_sb3_make_vec_env_and_a_short_maskable_ppo_run_take_no_illegal_action():
    pytest.importorskip("stable_baselines3")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_util import make_vec_env

    # illegal_action="raise": one illegal action anywhere in the run fails the test.
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # make_vec_env passes render_mode="rgb_array": no fallback warning
        vec = make_vec_env(GYM_ID, n_envs=2, seed=0, env_kwargs={**SHORT, "illegal_action": "raise"})
    assert vec.get_attr("render_mode") == ["rgb_array", "rgb_array"]
    assert is_masking_supported(vec)
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (2, vec.action_space.n) and masks.any(axis=1).all()
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs = vec.reset()
    for _ in range(50):  # the trained policy, greedy with masks, acts legally
        action, _ = model.predict(obs, action_masks=get_action_masks(vec), deterministic=True)
        obs, _, _, infos = vec.step(action)
        assert all(i["illegal_action"] == -1 for i in infos)
    vec.close()
