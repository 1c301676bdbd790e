"""Mythwind: the Innkeeper against PettingZoo's and Gymnasium's API checks, plus the env's promises.

PettingZoo's ``api_test``/``seed_test``/``render_test`` for ``env()`` and ``raw_env``; Gymnasium's
``check_env`` for ``MythwindInnkeeperGymEnv`` (constructed directly, not registered here); deepcopy,
pickle and get_state/set_state round trips mid-campaign; rewards (coins per step, terminal mode,
returns equal to the net coin total); infos; feature names and action labels; ``action_masks()``.
"""

from __future__ import annotations

import copy
import json
import pickle
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from mythzoo.envs import IllegalActionError
from mythzoo.envs import mythwind_innkeeper_v0 as inn
from mythzoo.envs.mythwind_innkeeper.gym_env import MythwindInnkeeperGymEnv

N_ACTIONS = 247


def play(env, seed: int, policy_seed: int = 0, stop_after: int | None = None) -> dict:
    """Seeded random play; returns the trajectory, summed rewards and the final last()."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    traj, total, final, n = [], 0.0, None, 0
    for agent in env.agent_iter(100_000):
        obs, reward, term, trunc, info = env.last()
        total += reward
        if term or trunc:
            final = (reward, term, trunc, dict(info))
            env.step(None)
            continue
        if stop_after is not None and n >= stop_after:
            break
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        traj.append((a, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        env.step(a)
        n += 1
    return {"traj": traj, "return": total, "final": final}


# ------------------------------------------------------------------ PettingZoo's own tests
@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_pettingzoo_api_test(face: str) -> None:
    api_test(getattr(inn, face)(days_per_season=3, seasons=2), num_cycles=2000)


@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_pettingzoo_seed_test(face: str) -> None:
    seed_test(lambda: getattr(inn, face)(days_per_season=2, seasons=2), num_cycles=300)


def test_pettingzoo_render_test(capsys) -> None:
    render_test(
        lambda render_mode=None: inn.env(days_per_season=2, seasons=1, render_mode=render_mode),
        custom_tests={"ansi": lambda text: isinstance(text, str) and text.startswith("Mythwind: the Innkeeper")},
    )
    assert "Mythwind: the Innkeeper" in capsys.readouterr().out


# ----------------------------------------------------------------------- Gymnasium
def test_gymnasium_check_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(MythwindInnkeeperGymEnv(days_per_season=2, seasons=2), skip_render_check=True)
        check_env(MythwindInnkeeperGymEnv(render_mode="ansi"))


def test_gym_env_plays_to_the_end_with_action_masks_and_matches_the_aec_env() -> None:
    g = MythwindInnkeeperGymEnv()
    obs, info = g.reset(seed=3)
    rng = np.random.default_rng(0)
    total, steps, done = 0.0, 0, False
    while not done:
        m = g.action_masks()
        assert m.dtype == bool and np.array_equal(m, obs["action_mask"].astype(bool)) and m.any()
        obs, r, term, trunc, info = g.step(int(rng.choice(np.flatnonzero(m))))
        total += r
        steps += 1
        done = term or trunc
    assert term and not trunc
    assert total == info["coins"] - 10
    assert info["day"] == 24
    with pytest.raises(RuntimeError, match="reset"):
        g.step(0)


def test_gym_env_illegal_action_terminates_or_raises() -> None:
    g = MythwindInnkeeperGymEnv()
    obs, _ = g.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, r, term, trunc, info = g.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, bad)
    g2 = MythwindInnkeeperGymEnv(illegal_action="raise")
    g2.reset(seed=0)
    with pytest.raises(IllegalActionError):
        g2.step(bad)


def test_gym_env_terminal_reward_mode_and_truncation() -> None:
    g = MythwindInnkeeperGymEnv(reward_mode="terminal", days_per_season=2, seasons=2)
    obs, _ = g.reset(seed=1)
    rng = np.random.default_rng(1)
    rewards = []
    while True:
        obs, r, term, trunc, info = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        rewards.append(r)
        if term or trunc:
            break
    assert all(x == 0 for x in rewards[:-1]) and rewards[-1] == info["coins"] - 10
    t = MythwindInnkeeperGymEnv(max_turns=2)
    obs, _ = t.reset(seed=1)
    while True:
        obs, r, term, trunc, info = t.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            break
    assert trunc and not term and info["day"] == 2


# ----------------------------------------------------------------------- spaces, names, labels
def test_sizes_and_feature_names() -> None:
    e = inn.env()
    e.reset(seed=0)
    obs = e.observe("innkeeper")
    space = e.observation_space("innkeeper")
    assert e.possible_agents == ["innkeeper"]
    assert e.action_space("innkeeper").n == N_ACTIONS == obs["action_mask"].shape[0]
    names = e.observation_features()
    assert len(names) == space["observation"].shape[0] == obs["observation"].shape[0]
    assert len(set(names)) == len(names)
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    for a in range(N_ACTIONS):
        name, arg = e.action_table().decode(a)
        assert e.action_table().encode(name, arg) == a and e.action_label(a)
    assert "| ids |" in e.action_table().markdown() and "(total)" in e.observation_layout().markdown()


# ----------------------------------------------------------------------- seeding and state
def test_same_seed_same_campaign_and_different_seeds_differ() -> None:
    a, b = play(inn.env(), 5), play(inn.env(), 5)
    assert a["traj"] == b["traj"] and a["return"] == b["return"]
    e1, e2 = inn.env(), inn.env()
    e1.reset(seed=1)
    e2.reset(seed=2)
    assert e1.get_state()["game"] != e2.get_state()["game"]


def test_reset_without_seed_draws_fresh_campaigns() -> None:
    games = set()
    for _ in range(4):
        e = inn.env()
        e.reset()
        games.add(json.dumps(e.get_state()["game"]["rng"], sort_keys=True))
    assert len(games) == 4


@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_deepcopy_pickle_and_get_set_state_continue_identically(face: str) -> None:
    e = getattr(inn, face)()
    play(e, 7, stop_after=40)
    copies = [copy.deepcopy(e), pickle.loads(pickle.dumps(e))]
    loaded = getattr(inn, face)()
    loaded.set_state(json.loads(json.dumps(e.get_state())))
    copies.append(loaded)
    assert loaded.get_state() == e.get_state()
    rng_seed = 11
    ref_rng = np.random.default_rng(rng_seed)
    rngs = [np.random.default_rng(rng_seed) for _ in copies]
    for _ in range(150):
        if not e.agents:
            break
        obs, *_, = e.last()
        if e.terminations["innkeeper"]:
            e.step(None)
            for c in copies:
                c.step(None)
            continue
        a = int(ref_rng.choice(np.flatnonzero(obs["action_mask"])))
        for c, r in zip(copies, rngs):
            co = c.last()[0]
            assert np.array_equal(co["observation"], obs["observation"]) and np.array_equal(co["action_mask"], obs["action_mask"])
            assert int(r.choice(np.flatnonzero(co["action_mask"]))) == a
            c.step(a)
        e.step(a)
    for c in copies:
        assert c.get_state() == e.get_state()


def test_resample_hidden_keeps_the_observation_and_redraws_only_the_generator() -> None:
    e = inn.env()
    play(e, 2, stop_after=15)
    st = e.get_state()
    r1, r2 = e.resample_hidden("innkeeper", 1), e.resample_hidden("innkeeper", 1)
    assert r1 == r2
    assert r1["game"]["rng"] != st["game"]["rng"]
    assert {k: v for k, v in r1["game"].items() if k != "rng"} == {k: v for k, v in st["game"].items() if k != "rng"}
    f = inn.env()
    f.set_state(r1)
    assert np.array_equal(f.observe("innkeeper")["observation"], e.observe("innkeeper")["observation"])


# ----------------------------------------------------------------------- rewards and infos
def test_coins_reward_mode_return_is_the_net_coin_total_and_infos_carry_renown() -> None:
    e = inn.env()
    out = play(e, 4)
    s = e.unwrapped.state_
    assert out["return"] == s.coins - 10
    reward, term, trunc, info = out["final"]
    assert term and not trunc
    assert {"coins", "earned", "renown", "renown_level", "seated", "unseated", "day", "season"} <= set(info)
    assert info["coins"] == s.coins and info["day"] == 24


def test_terminal_reward_mode_pays_only_at_the_end() -> None:
    e = inn.env(reward_mode="terminal")
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    rewards = []
    for _ in e.agent_iter(100_000):
        obs, r, term, trunc, info = e.last()
        rewards.append(r)
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(x == 0 for x in rewards[:-1])
    assert rewards[-1] == e.unwrapped.state_.coins - 10


def test_env_illegal_action_ends_with_minus_one_and_raw_env_raises() -> None:
    e = inn.env()
    e.reset(seed=0)
    bad = int(np.flatnonzero(e.observe("innkeeper")["action_mask"] == 0)[0])
    e.step(bad)
    assert e.terminations["innkeeper"] and e.rewards["innkeeper"] == -1.0
    r = inn.raw_env()
    r.reset(seed=0)
    before = r.get_state()
    with pytest.raises(IllegalActionError):
        r.step(bad)
    assert r.get_state() == before


def test_render_draws_the_grid_guests_coins_and_renown() -> None:
    e = inn.env(render_mode="ansi")
    play(e, 0, stop_after=12)
    text = e.render()
    assert text.startswith("Mythwind: the Innkeeper")
    assert "Coins" in text and "Renown" in text and "== Inn ==" in text
    grid = [ln for ln in text.splitlines() if ln.startswith("|")]
    assert len(grid) == 5 and all(ln.count("|") == 6 for ln in grid)


def test_gymnasium_make_by_id_and_maskable_ppo_can_use_it() -> None:
    """``gymnasium.make("mythzoo/MythwindInnkeeper-v0")`` after ``import mythzoo.envs``; sb3-contrib's
    MaskablePPO finds ``action_masks`` through the wrappers gymnasium adds."""
    import gymnasium

    import mythzoo.envs  # noqa: F401  (registers the id)

    env = gymnasium.make("mythzoo/MythwindInnkeeper-v0", days_per_season=2, seasons=1)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    sb3 = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    vec = DummyVecEnv([lambda: gymnasium.make("mythzoo/MythwindInnkeeper-v0", days_per_season=2, seasons=1)])
    assert is_masking_supported(vec)
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (1, env.action_space.n) and masks.any()
    model = sb3.MaskablePPO("MultiInputPolicy", vec, n_steps=32, batch_size=32, seed=0, device="cpu")
    model.learn(64)
