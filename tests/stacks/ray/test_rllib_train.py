"""RLlib PPO through mythzoo.adapters.rllib: a short run on every game (one module per role) with
no illegal action, rewards in RLlib's episodes, and the greedy trained modules judged by mythzoo's
tournament against random, heuristic and the shipped champion without an illegal move."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import ray
import torch
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from mythzoo.adapters.rllib import ILLEGAL_ACTIONS_METRIC, MythzooMultiAgentEnv, RLlibPolicy, ppo_config
from mythzoo.evaluation import load_policy, tournament
from mythzoo.policies.registry import Registry

ROOT = Path(__file__).resolve().parents[3]
GAMES = {"mythic_baths": {"num_players": 2}, "mythsgate": {"num_heroes": 2}, "mythwind_innkeeper": {}}
ROLES = {"mythic_baths": {"player"}, "mythsgate": {"invoker", "hero"}, "mythwind_innkeeper": {"innkeeper"}}
SMALL = {"train_batch_size": 300, "minibatch_size": 100, "num_epochs": 1}


class UnmaskedModule(ActionMaskingTorchRLModule):
    """The stock masking module with its mask switched off: the control that takes illegal actions."""

    def _mask_action_logits(self, batch, action_mask):
        return batch


@pytest.fixture(scope="module", autouse=True)
def ray_local():
    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield


def learner_weights(algo, module_id: str) -> dict[str, torch.Tensor]:
    state = algo.learner_group.get_state(components=f"learner/rl_module/{module_id}")["learner"]["rl_module"][module_id]
    return {k: torch.as_tensor(v).clone() for k, v in state.items()}


@pytest.fixture(scope="module")
def trained():
    """Each game trained for two PPO iterations of 300 steps; the results kept."""
    out = {}
    for game, kwargs in GAMES.items():
        algo = ppo_config(game, seed=0, **SMALL, **kwargs).build_algo()
        before = {m: learner_weights(algo, m) for m in ROLES[game]}
        results = [algo.train() for _ in range(2)]
        out[game] = (algo, before, results)
    yield out
    for algo, _, _ in out.values():
        algo.stop()


@pytest.mark.parametrize("game", list(GAMES))
def test_ppo_trains_one_module_per_role_without_an_illegal_action(trained, game: str) -> None:
    algo, before, results = trained[game]
    runners = results[-1]["env_runners"]
    assert runners["num_env_steps_sampled_lifetime"] >= 2 * SMALL["train_batch_size"]
    assert runners["num_episodes_lifetime"] >= 1
    assert runners[ILLEGAL_ACTIONS_METRIC] == 0
    assert {m for m in results[-1]["learners"] if m != "__all_modules__"} == ROLES[game]
    for m in ROLES[game]:
        after = learner_weights(algo, m)
        assert any(not torch.equal(before[m][k], after[k]) for k in after), f"module {m} did not learn"


def test_roles_get_modules_of_their_own_sizes(trained) -> None:
    algo, _, _ = trained["mythsgate"]
    env = MythzooMultiAgentEnv({"env": "mythsgate", "num_heroes": 2})
    for role, agent in (("invoker", "invoker"), ("hero", "hero_0")):
        module = algo.get_module(role)
        assert module.observation_space["observations"].shape == env.observation_spaces[agent]["observations"].shape
        assert module.action_space.n == env.action_spaces[agent].n


def test_every_agent_gets_its_game_result_in_rllibs_episodes(trained) -> None:
    """Zero-sum games: each finished episode's per-agent returns are the game's result, including
    for the agent that did not make the last move."""
    for game in ("mythic_baths", "mythsgate"):
        algo, _, _ = trained[game]
        episodes = algo.env_runner.sample(num_episodes=3, explore=True)
        assert len(episodes) == 3
        for ep in episodes:
            assert ep.is_done
            returns = {a: e.get_return() for a, e in ep.agent_episodes.items()}
            if game == "mythic_baths":
                assert set(returns) == {"player_0", "player_1"}
                assert sorted(returns.values()) in ([-1.0, 1.0], [0.0, 0.0])
            else:
                heroes = {r for a, r in returns.items() if a.startswith("hero")}
                assert len(heroes) == 1, "the heroes play one team and share one reward"
                if "invoker" in returns:
                    assert returns["invoker"] == -heroes.pop()


def test_the_unmasked_control_takes_illegal_actions() -> None:
    """Without the mask the same setup takes illegal actions, and the metric counts them."""
    algo = ppo_config("mythic_baths", seed=0, module_class=UnmaskedModule, **SMALL).build_algo()
    try:
        runners = algo.train()["env_runners"]
        assert runners[ILLEGAL_ACTIONS_METRIC] >= 1
        policy = RLlibPolicy.from_algorithm(algo)
        env = MythzooMultiAgentEnv({"env": "mythic_baths"})
        with pytest.raises(ValueError, match="illegal action"):
            for seed in range(20):
                obs, _ = env.reset(seed=seed)
                (agent, o), = obs.items()
                policy.act(o["observations"], o["action_mask"].astype(np.int8), agent)
    finally:
        algo.stop()


def loader_for(policy: RLlibPolicy, registry=None):
    def load(ref, env, _registry, seed):
        return policy if ref == "rllib" else load_policy(ref, env, registry, seed)
    return load


def no_illegal_move(result) -> None:
    assert result.records and all(r.illegal is None for r in result.records)


def test_greedy_module_plays_mythic_baths_against_random_heuristic_and_champion(trained, tmp_path: Path) -> None:
    algo, _, _ = trained["mythic_baths"]
    policy = RLlibPolicy.from_algorithm(algo)
    registry = Registry(tmp_path / "registry")
    champion = registry.import_(ROOT / "checkpoints" / "mythic_baths_v1-ppo-champion.tar")[0].id
    result = tournament("mythic_baths", ["rllib", "random", "heuristic", champion], games=12, num_players=2,
                        loader=loader_for(policy, registry), progress=False)
    no_illegal_move(result)
    rllib = next(s for s in result.stats if s.label == "rllib")
    assert rllib.games == 6  # every other policy, from both seats


def test_greedy_modules_play_mythsgate_each_role(trained) -> None:
    algo, _, _ = trained["mythsgate"]
    policy = RLlibPolicy.from_algorithm(algo)
    assert set(policy.modules) == {"invoker", "hero"}
    result = tournament("mythsgate", ["invoker:rllib", "hero:rllib", "invoker:heuristic", "hero:random"], games=4,
                        loader=loader_for(policy), progress=False)
    no_illegal_move(result)
    assert len(result.records) == 4


def test_greedy_module_plays_the_innkeeper(trained) -> None:
    algo, _, _ = trained["mythwind_innkeeper"]
    result = tournament("mythwind_innkeeper", ["rllib", "heuristic"], games=2,
                        loader=loader_for(RLlibPolicy.from_algorithm(algo)), progress=False)
    no_illegal_move(result)


def test_greedy_policy_is_deterministic_and_batches(trained) -> None:
    algo, _, _ = trained["mythic_baths"]
    policy = RLlibPolicy.from_algorithm(algo)
    env = MythzooMultiAgentEnv({"env": "mythic_baths"})
    rows = []
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        (agent, o), = obs.items()
        rows.append((o["observations"], o["action_mask"].astype(np.int8), agent))
    singles = [policy.act(o, m, a) for o, m, a in rows]
    batch = policy.act_batch(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]), "player_0")
    assert singles == list(batch) == [policy.act(o, m, a) for o, m, a in rows]
    assert all(m[a] for (_, m, _), a in zip(rows, singles))
    with pytest.raises(ValueError, match="no legal action"):
        policy.act(rows[0][0], np.zeros_like(rows[0][1]), "player_0")


def test_games_cut_by_the_round_cap_train() -> None:
    """Truncated games (Mythsgate's round cap) reach RLlib with a last observation for every agent,
    which it needs to bootstrap a truncated agent's value; the sampled episodes say truncated."""
    algo = ppo_config("mythsgate", num_heroes=1, max_rounds=1, seed=0, **SMALL).build_algo()
    try:
        runners = algo.train()["env_runners"]
        assert runners["num_episodes_lifetime"] >= 1 and runners[ILLEGAL_ACTIONS_METRIC] == 0
        episodes = algo.env_runner.sample(num_episodes=4, explore=True)
        assert any(ep.is_truncated for ep in episodes)
        for ep in episodes:
            assert ep.is_done
            if ep.is_truncated:
                assert all(e.is_truncated for e in ep.agent_episodes.values())
    finally:
        algo.stop()
