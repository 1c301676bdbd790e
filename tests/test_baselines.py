"""Baseline policies: random is uniform over legal actions; the heuristic beats random clearly."""

from __future__ import annotations

import numpy as np
import pytest

from mythzoo import envs
from mythzoo.envs import mythic_baths_v1
from mythzoo.policies.base import EnvSpec, RandomPolicy
from mythzoo.policies.baselines import make_baseline
from mythzoo.evaluation import wilson_interval


def _play(env, policies: dict[str, object]) -> list[int]:
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = policies[agent].act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action] == 1, "a baseline chose an illegal action"
        env.step(action)
    return env.unwrapped.rules.winners(env.unwrapped.state_)


def test_heuristic_beats_random_in_two_player_games_with_seats_alternated() -> None:
    env = mythic_baths_v1.env(num_players=2)
    heuristic, rnd = make_baseline("heuristic", env, seed=0), make_baseline("random", env, seed=1)
    games, wins = 40, 0.0
    for g in range(games):
        env.reset(seed=1000 + g)
        seat = g % 2
        winners = _play(env, {f"player_{seat}": heuristic, f"player_{1 - seat}": rnd})
        wins += (seat in winners) / len(winners)
    low, _ = wilson_interval(wins, games)
    # The benchmark measures 99.9% over 1,000 games; 40 games must put the lower 95% bound far above 50%.
    assert low > 0.75, (wins, games)


@pytest.mark.parametrize("num_players", [3, 5])
def test_heuristic_plays_legal_complete_games_at_every_player_count(num_players: int) -> None:
    env = mythic_baths_v1.env(num_players=num_players)
    policies = {a: make_baseline("heuristic", env, seed=i) for i, a in enumerate(env.possible_agents)}
    env.reset(seed=3)
    _play(env, policies)
    assert env.unwrapped.state_.over, "heuristic self-play ends by the rules, not the turn cap"


def test_random_policy_is_uniform_over_legal_actions() -> None:
    mask = np.zeros(20, dtype=np.int8)
    mask[[2, 5, 11]] = 1
    pol = RandomPolicy(0)
    draws = [pol.act(np.zeros(3, np.float32), mask) for _ in range(6000)]
    assert set(draws) == {2, 5, 11}
    for a in (2, 5, 11):
        assert abs(draws.count(a) / 6000 - 1 / 3) < 0.03
    batch = pol.act_batch(np.zeros((3000, 3), np.float32), np.tile(mask, (3000, 1)))
    assert set(batch.tolist()) == {2, 5, 11}
    assert all(abs(np.mean(batch == a) - 1 / 3) < 0.04 for a in (2, 5, 11))


def test_policies_refuse_an_all_zero_mask() -> None:
    env = mythic_baths_v1.env(num_players=2)
    obs = np.zeros(env.observation_space("player_0")["observation"].shape, np.float32)
    mask = np.zeros(env.action_space("player_0").n, np.int8)
    for name in ("random", "heuristic"):
        with pytest.raises(ValueError, match="no legal action"):
            make_baseline(name, env, seed=0).act(obs, mask)


def test_unknown_baseline_is_a_clear_error() -> None:
    env = mythic_baths_v1.env(num_players=2)
    with pytest.raises(KeyError, match="unknown baseline"):
        make_baseline("genius", env)
    assert EnvSpec.from_env(env).env_name == "mythic_baths_v1"


@pytest.mark.parametrize("game", [spec.env_name for spec in envs.GAMES])
def test_the_heuristic_is_the_one_the_game_spec_declares(game: str) -> None:
    spec = envs.spec(game)
    env = spec.make()
    assert type(make_baseline("heuristic", env, seed=0)) is spec.heuristic_class()


def test_an_env_without_a_game_spec_has_no_heuristic() -> None:
    import toy_asymmetric

    class Unregistered(toy_asymmetric.raw_env):  # (the toy itself is registered by tests/conftest.py)
        env_name = "unregistered_toy_v0"

    with pytest.raises(KeyError, match="no heuristic policy for 'unregistered_toy_v0'; available for"):
        make_baseline("heuristic", Unregistered())
    assert isinstance(make_baseline("random", Unregistered(), seed=0), RandomPolicy)
