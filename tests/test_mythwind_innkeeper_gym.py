"""The Gymnasium face of Mythwind: the Innkeeper is the AEC env, step for step.

``MythwindInnkeeperGymEnv`` is the core ``SoloGymEnv`` over the strict ``raw_env``: over seeded
campaigns (both reward modes, short and truncated campaigns) it gives the same observations,
masks, rewards, terminations, truncations and infos as an AEC env started from the seed the gym
env draws, and its spaces are the AEC env's. The rewards keep their meaning: the change of worth (coins plus the inn's sale value)
per step, or the net total once at the end.
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils import seeding

from mythzoo.envs import mythwind_innkeeper_v5 as inn
from mythzoo.envs.core.gym_env import DONE_MASK_ACTION
from mythzoo.envs.mythwind_innkeeper.gym_env import MythwindInnkeeperGymEnv

CONFIGS = [{}, {"reward_mode": "terminal"}, {"days_per_season": 2, "seasons": 3}, {"max_turns": 3}, {"reward_mode": "terminal", "max_turns": 5}]


def _aec_seed(seed: int) -> int:
    """The game seed ``SoloGymEnv.reset(seed=seed)`` draws."""
    rng, _ = seeding.np_random(seed)
    return int(rng.integers(2**63))


@pytest.mark.parametrize("kwargs", CONFIGS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()) or "default")
def test_gym_env_equals_the_aec_env_over_seeded_campaigns(kwargs: dict) -> None:
    g = MythwindInnkeeperGymEnv(**kwargs)
    a = inn.raw_env(**kwargs)
    assert g.observation_space == a.observation_space("innkeeper") and g.action_space == a.action_space("innkeeper")
    assert np.all(g.observation_space["observation"].low == -np.inf)
    steps = 0
    for seed in range(6):
        obs, info = g.reset(seed=seed)
        a.reset(seed=_aec_seed(seed))
        rng = np.random.default_rng(seed)
        coins, total = 10, 0.0
        while True:
            ao, _, aterm, atrunc, ainfo = a.last()
            assert obs["observation"].tobytes() == ao["observation"].tobytes()
            assert obs["action_mask"].tobytes() == ao["action_mask"].tobytes()
            assert np.array_equal(g.action_masks(), ao["action_mask"].astype(bool))
            assert {k: v for k, v in info.items() if k != "action_mask"} == ainfo
            assert np.array_equal(info["action_mask"], obs["action_mask"])
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, term, trunc, info = g.step(action)
            a.step(action)
            _, areward, aterm, atrunc, _ = a.last()
            assert (reward, term, trunc) == (areward, aterm, atrunc)
            # What the rewards mean (as the Gymnasium env always paid them).
            if kwargs.get("reward_mode", "coins") == "coins":
                assert reward == info["worth"] - coins
            else:
                assert reward == (info["worth"] - 10 if term else 0.0)
            coins, total = info["worth"], total + reward
            steps += 1
            if term or trunc:
                break
        assert term != trunc
        ao = a.last()[0]  # the final observation: the AEC agent that is done has an all-zero mask; the
        # Gymnasium face marks action 0 alone, the action a vector env's next-step autoreset ignores
        assert obs["observation"].tobytes() == ao["observation"].tobytes() and not ao["action_mask"].any()
        assert np.flatnonzero(obs["action_mask"]).tolist() == [DONE_MASK_ACTION] == np.flatnonzero(g.action_masks()).tolist()
        if term:
            assert total == info["worth"] - 10 and info["day"] == a.rules.total_days()
        else:
            assert info["day"] == kwargs["max_turns"]
        with pytest.raises(RuntimeError, match="reset"):
            g.step(action)
    assert steps > 60


def test_illegal_action_ends_the_episode_and_leaves_the_game_as_it_was() -> None:
    g = MythwindInnkeeperGymEnv()
    obs, info = g.reset(seed=4)
    before = g.aec.get_state()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, term, trunc, info2 = g.step(bad)
    mask2 = info2.pop("action_mask")
    info.pop("action_mask")
    assert (reward, term, trunc, info2) == (-1.0, True, False, {**info, "illegal_action": bad})
    assert np.flatnonzero(mask2).tolist() == [DONE_MASK_ACTION] == np.flatnonzero(obs2["action_mask"]).tolist()
    assert obs2["observation"].tobytes() == obs["observation"].tobytes() and g.aec.get_state() == before


def test_constructor_arguments_keep_their_order_and_defaults() -> None:
    g = MythwindInnkeeperGymEnv(3, 2, None, "terminal", 4)
    assert (g.rules.days_per_season, g.rules.num_seasons, g.aec.reward_mode, g.aec.max_turns) == (3, 2, "terminal", 4)
    d = MythwindInnkeeperGymEnv()
    assert (d.rules.days_per_season, d.rules.num_seasons, d.aec.reward_mode, d.aec.max_turns, d.illegal_action) == (6, 4, "coins", 24, "terminate")
