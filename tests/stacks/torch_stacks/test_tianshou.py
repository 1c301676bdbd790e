"""Tianshou's PettingZooEnv on every mythzoo game, Mythsgate through the role padder.

A collect with masked random players on every game and table size, on ``raw_env`` so that any
illegal or padded action would raise; every stored action is legal by the stored mask; a padded id
sent through Tianshou ends the game as an illegal action; and Tianshou's own refusal of Mythsgate
unpadded (one space for all agents).
"""

from __future__ import annotations

import numpy as np
import pytest
from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from mythzoo.adapters.padding import pad_roles
from mythzoo.envs import GAMES, make

TABLES = [(s, size) for s in GAMES for size in (s.sizes or (None,))]


@pytest.mark.parametrize(("game", "size"), TABLES, ids=[f"{s.name}-{n}" for s, n in TABLES])
def test_collect_with_masked_random_players(game, size) -> None:
    kwargs = {} if size is None else {game.size_argument: size}

    def tianshou_env() -> PettingZooEnv:
        return PettingZooEnv(pad_roles(game.make_raw(**kwargs)))  # raw_env: an illegal action raises

    env = tianshou_env()
    players = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=players, env=env)
    envs = DummyVectorEnv([tianshou_env])
    envs.seed(size or 0)
    buffer = VectorReplayBuffer(20000, len(envs))
    stats = Collector[CollectStats](algorithm, envs, buffer).collect(n_episode=1, reset_before_collect=True)
    assert stats.n_collected_episodes == 1 and stats.n_collected_steps == len(buffer) > 0
    data = buffer.sample(0)[0]
    assert data.obs.mask[np.arange(len(data)), data.act].all()  # every action taken was legal
    assert set(np.unique(data.obs.agent_id)) == set(env.agents)
    assert data.obs.obs.shape[1] == env.observation_space["observation"].shape[0]
    assert data.terminated.any() or data.truncated.any()


def test_padded_id_through_tianshou_is_an_illegal_action() -> None:
    env = PettingZooEnv(pad_roles(make("mythsgate", num_heroes=2)))
    obs, _ = env.reset(seed=0)
    while obs["agent_id"] != "invoker":
        obs, *_ = env.step(int(np.flatnonzero(obs["mask"])[0]))
    assert not any(obs["mask"][222:]) and len(obs["mask"]) == 230
    obs, rewards, term, trunc, info = env.step(225)
    assert term and rewards[env.agent_idx["invoker"]] == -1.0 and info["illegal_action"] == 225


def test_tianshou_refuses_mythsgate_unpadded() -> None:
    with pytest.raises(AssertionError, match="must be identical"):
        PettingZooEnv(make("mythsgate"))
