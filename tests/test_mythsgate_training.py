"""Training on Mythsgate end to end: a network per role, team credit, checkpoints that play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from mythzoo.envs import mythsgate_v2
from mythzoo.policies.base import RandomPolicy
from mythzoo.training.config import from_dict
from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv
from selfplay_spy import watch_moves


def _pools() -> dict[str, OpponentPool]:
    pools = {}
    for k, role in enumerate(("invoker", "hero")):
        pools[role] = OpponentPool({"baselines": 1.0}, seed=k)
        pools[role].add("baselines", "random", RandomPolicy(k))
    return pools


def test_hero_learner_gets_the_teams_result_when_the_invoker_ends_the_game() -> None:
    """The League shares one reward: a hero learner gets +1/-1 even when the game ends on the
    invoker's move or a teammate's, and its teammates are drawn from the hero pool."""
    vec = SelfPlayVecEnv("mythsgate_v2", {"num_heroes": 2}, 6, _pools(), learner_agents=["hero_0", "hero_1"], seed=0)
    ended_by: dict[int, str] = {}

    def on_move(i, mover, rewards, ended):
        if ended:
            ended_by[i] = mover

    watch_moves(vec, on_move)
    vec.reset()
    rng = np.random.default_rng(0)
    by_other, finished = 0, 0
    while finished < 30:
        masks = vec.action_masks()
        assert masks.any(axis=1).all()
        _, rewards, dones, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        for i in np.flatnonzero(dones):
            finished += 1
            info = infos[i]
            assert set(info["opponents"]) == {"invoker", "hero_0", "hero_1"} - {info["learner_agent"]}
            if info["TimeLimit.truncated"]:
                continue
            assert rewards[i] in (1.0, -1.0), "a decided game pays the learner's side +1 or -1"
            by_other += ended_by[i] != info["learner_agent"]
    assert by_other > 0


def test_short_run_trains_both_roles_and_the_checkpoints_play(tmp_path: Path) -> None:
    from mythzoo.policies.registry import Registry
    from mythzoo.policies.refs import load_policy
    from mythzoo.training.ppo import train

    cfg = from_dict({
        "env": "mythsgate_v2", "env_kwargs": {"num_heroes": 2}, "total_timesteps": 256, "role_phase_steps": 128,
        "num_envs": 4, "n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": [16, 16],
        "baselines": ["random", "heuristic"], "snapshot_every": 128, "eval_every": 256, "eval_games": 4,
        "registry": str(tmp_path / "reg"), "run_dir": str(tmp_path / "runs"), "progress": False, "name": "mg",
    })
    summary = train(cfg)
    assert set(summary["roles"]) == {"invoker", "hero"}
    reg = Registry(tmp_path / "reg")
    env = mythsgate_v2.env(num_heroes=2)
    policies = {role: load_policy(f"mg-{role}@latest", env, registry=reg, seed=0) for role in ("invoker", "hero")}
    assert {role: reg.resolve(f"mg-{role}@latest").role for role in policies} == {"invoker": "invoker", "hero": "hero"}
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        policy = policies[env.unwrapped.agent_role(agent)]
        env.step(None if term or trunc else policy.act(obs["observation"], obs["action_mask"], agent))
    assert not env.agents


def test_the_heroes_are_one_team_and_share_every_final_reward() -> None:
    """Rulebook: the heroes of the Atari League win or lose together against the Great Invoker.
    The env declares them one team, and every decided game pays them all the same reward."""
    env = mythsgate_v2.env(num_heroes=3)
    u = env.unwrapped
    assert {a: u.agent_team(a) for a in env.possible_agents} == {"invoker": "invoker", "hero_0": "hero", "hero_1": "hero", "hero_2": "hero"}
    rng = np.random.default_rng(0)
    for seed in range(12):
        env.reset(seed=seed)
        finals = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                finals[agent] = reward
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        heroes = {finals[a] for a in finals if a != "invoker"}
        assert len(heroes) == 1 and heroes != {finals["invoker"]} or finals["invoker"] == 0.0, finals


class _Recorder(RandomPolicy):
    """Random, and remembers every seat it was asked to play."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.seats: set[str] = set()

    def act_batch(self, observations, action_masks, agent=None):
        self.seats.add(agent)
        return super().act_batch(observations, action_masks, agent)


def test_evaluating_a_hero_learner_plays_it_in_every_hero_seat_and_counts_a_league_win_as_one() -> None:
    from mythzoo.training.batch_eval import evaluate_vs

    learner, opponent = _Recorder(1), _Recorder(2)
    res = evaluate_vs(lambda: mythsgate_v2.env(num_heroes=2), learner, opponent, 40, seed=3, learner_agents=["hero_0", "hero_1"])
    assert learner.seats <= {"hero_0", "hero_1"} and opponent.seats == {"invoker"}, (learner.seats, opponent.seats)
    returns = np.array([res["returns"][g] for g in range(40)])
    assert (returns > 0).any(), "the League won some games"
    assert res["win_rate"] == pytest.approx((returns > 0).mean()), "a League win is the learner's whole win, not shared with its teammate"
