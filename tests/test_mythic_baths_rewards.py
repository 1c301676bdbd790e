"""Reward modes: what an agent accumulates over a whole game in each of Mythic Baths' modes.

(That every mode is zero-sum, reaches every agent and, unless shaped, pays only at the end is
checked for every game by ``tests/conformance/test_rewards.py``.)
"""

from __future__ import annotations

import numpy as np
import pytest

from mythzoo.envs import mythic_baths_v1


@pytest.mark.parametrize("mode", ["zero_sum", "score", "dense"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_game_totals_match_the_documented_reward_mode(mode: str, num_players: int) -> None:
    env = mythic_baths_v1.env(num_players=num_players, reward_mode=mode)
    rng = np.random.default_rng(0)
    n = num_players
    enders = set()
    for game in range(4):
        env.reset(seed=game)
        total = dict.fromkeys(env.possible_agents, 0.0)
        mid_game_rewards = 0
        last_mover = None
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            total[agent] += reward
            if reward and not (term or trunc):
                mid_game_rewards += 1
            if not (term or trunc):
                last_mover = agent
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        enders.add(last_mover)
        state = env.unwrapped.state_
        vp = env.unwrapped.rules.scores(state)
        winners = env.unwrapped.rules.winners(state)
        margin = [(vp[p] - (sum(vp) - vp[p]) / (n - 1)) / 100 for p in range(n)]
        result = [((1 / len(winners) if p in winners else 0.0) - 1 / n) * n / (n - 1) for p in range(n)]
        expected = {"zero_sum": result, "score": margin, "dense": [m + r for m, r in zip(margin, result)]}[mode]
        assert [total[f"player_{p}"] for p in range(n)] == pytest.approx(expected, abs=1e-9)
        if mode == "zero_sum" and len(winners) == 1:
            assert total[f"player_{winners[0]}"] == pytest.approx(1.0)
            assert min(total.values()) == pytest.approx(-1.0 / (n - 1))
        if mode == "dense":
            assert mid_game_rewards > 0, "the dense mode pays during the game"
        else:
            assert mid_game_rewards == 0, f"{mode} pays only at the end"
    assert len(enders) >= 2 or n == 2, f"all games ended by the same agent {enders}; vary the seeds"
