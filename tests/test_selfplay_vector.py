"""Self-play plays its games through the batched API (``mythzoo.vector``): transition for transition it
gives what the AEC-env self-play gave (``tests/oracles/selfplay_aec.py``, the code it replaced), for
every game, reward mode, mixed table sizes, team play and truncated games, with opponents that draw
random numbers (so their calls must come in the same order, with the same rows)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3", reason="self-play needs the train extra")

from mythzoo.envs import make  # noqa: E402
from mythzoo.policies.base import BasePolicy, RandomPolicy  # noqa: E402
from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv, game_maker  # noqa: E402
from oracles.selfplay_aec import AECSelfPlayVecEnv  # noqa: E402


class FirstLegal(BasePolicy):
    def act_batch(self, observations, action_masks, agent=None):
        return np.argmax(action_masks, axis=1)


def _pool(seed: int) -> OpponentPool:
    pool = OpponentPool({"baselines": 0.6, "past": 0.4}, seed=seed)
    pool.add("baselines", "random", RandomPolicy(seed))
    pool.add("baselines", "random2", RandomPolicy(seed + 1))
    pool.add("past", "first", FirstLegal())
    return pool


CASES = [
    ("mythic_baths_v1", {"num_players": 2}, None, None),
    ("mythic_baths_v1", {"num_players": 3, "reward_mode": "dense"}, None, None),
    ("mythic_baths_v1", [{"num_players": 2}, {"num_players": 4}, {"num_players": 3}], None, None),
    ("mythic_baths_v1", {"num_players": 2, "max_turns": 25}, None, None),
    ("mythsgate_v2", {"num_heroes": 2}, ["hero_0", "hero_1"], "roles"),
    ("mythsgate_v2", {"num_heroes": 3, "max_rounds": 4}, ["invoker"], "roles"),
    ("mythwind_innkeeper_v5", {"days_per_season": 2, "seasons": 1}, None, None),
]


def _ids(case) -> str:
    name, kw, learners, _ = case
    return f"{name}-{kw}-{learners}".replace(" ", "")


def _pools(kind, seed):
    if kind == "roles":
        return {"invoker": _pool(seed), "hero": _pool(seed + 100)}
    return _pool(seed)


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_batched_self_play_equals_the_aec_self_play_transition_for_transition(case) -> None:
    name, kwargs, learners, pools = case
    n, seed = 5, 9
    new = SelfPlayVecEnv(name, kwargs, n, _pools(pools, 3), learners, seed=seed)
    ref = AECSelfPlayVecEnv(game_maker(name, kwargs), n, _pools(pools, 3), learners, seed=seed)
    np.testing.assert_array_equal(new.reset(), ref.reset())
    rng = np.random.default_rng(0)
    ended = truncated = 0
    for _ in range(250):
        masks = new.action_masks()
        np.testing.assert_array_equal(masks, ref.action_masks())
        assert masks.any(axis=1).all(), "the learner never sees an all-zero mask"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        o_new, r_new, d_new, i_new = new.step(actions)
        o_ref, r_ref, d_ref, i_ref = ref.step(actions)
        np.testing.assert_array_equal(o_new, o_ref)
        np.testing.assert_array_equal(r_new, r_ref)  # float32 of the same double sums: bit for bit
        np.testing.assert_array_equal(d_new, d_ref)
        for a, b in zip(i_new, i_ref):
            assert a.keys() == b.keys()
            if a:
                np.testing.assert_array_equal(a.pop("terminal_observation"), b.pop("terminal_observation"))
                a["episode"].pop("t"), b["episode"].pop("t")
                assert a == b
                ended += 1
                truncated += a["TimeLimit.truncated"]
    assert ended > 0, "the comparison covered finished games"
    if "max_turns" in str(kwargs):
        assert truncated > 0, "the comparison covered games cut by the turn cap"
    assert new.finished_games == ref.finished_games
    assert [p.score for p in (new.pools.values() if isinstance(pools, str) else [new.pool])] == \
           [p.score for p in (ref.pools.values() if isinstance(pools, str) else [ref.pool])]


def test_a_truncated_game_is_reported_as_truncated_with_the_learners_last_observation() -> None:
    vec = SelfPlayVecEnv("mythic_baths_v1", {"num_players": 2, "max_turns": 6}, 3, _pool(0), seed=0)
    vec.reset()
    for _ in range(10):
        _, rewards, dones, infos = vec.step(vec.action_masks().argmax(axis=1))
        for i in np.flatnonzero(dones):
            assert infos[i]["TimeLimit.truncated"] and rewards[i] == 0.0
            env = make("mythic_baths_v1", num_players=2, max_turns=6)
            assert infos[i]["terminal_observation"].shape == env.observation_space("player_0")["observation"].shape
            return
    pytest.fail("no game reached the turn cap")


def test_search_opponents_decide_from_the_live_game() -> None:
    """A policy with ``act_in_env`` gets an AEC env whose state is the game's own (not a copy)."""
    seen = []

    class Spy(FirstLegal):
        def act_in_env(self, env, agent):
            u = env.unwrapped
            assert u.agent_selection == agent and not u.terminations[agent]
            legal = u.rules.legal_actions(u.state_)
            seen.append((agent, legal[-1]))
            return int(legal[-1])

    pool = OpponentPool({"past": 1.0}, seed=0)
    pool.add("past", "spy", Spy())
    vec = SelfPlayVecEnv("mythic_baths_v1", {"num_players": 2}, 2, pool, seed=0)
    vec.reset()
    for _ in range(5):
        vec.step(vec.action_masks().argmax(axis=1))
    assert seen and all(agent.startswith("player_") for agent, _ in seen)
