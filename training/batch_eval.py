"""Fast evaluation for training: many games in lockstep, one ``act_batch`` per policy per round."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mythzoo.policies.base import BasePolicy


def evaluate_vs(
    make_env: Callable[[], Any],
    learner: BasePolicy,
    opponent: BasePolicy,
    games: int,
    seed: int = 0,
    learner_agents: Sequence[str] | None = None,
    batch: int = 64,
) -> dict[str, Any]:
    """The learner in one seat (and its teammates' seats, in a team game), ``opponent`` in every
    other; the learner's seat rotates through ``learner_agents`` (every seat by default) equally.
    Returns win rate (a win shared by k sides counts 1/k; sides are the env's teams, every agent
    on its own in a free-for-all), mean reward (the learner's return over the whole game), the
    number of games, and every game's return in game order (``returns``)."""
    wins = 0.0
    total_reward = 0.0
    played = 0
    game_returns: dict[int, float] = {}
    envs = [make_env() for _ in range(min(batch, games))]
    u = envs[0].unwrapped
    seats = list(learner_agents) if learner_agents else list(envs[0].possible_agents)
    team = {a: u.agent_team(a) for a in envs[0].possible_agents}
    role = {a: u.agent_role(a) for a in envs[0].possible_agents}
    for start in range(0, games, len(envs)):
        live = []
        learner_of = {}
        returns: dict[int, float] = {}  # the learner's rewards over the game (per-step rewards included)
        for j, env in enumerate(envs[: min(len(envs), games - start)]):
            g = start + j
            env.reset(seed=seed + g)
            learner_of[j] = seats[g % len(seats)]
            returns[j] = 0.0
            live.append(j)
        while live:
            groups: dict[tuple[bool, str], list[tuple[int, str, dict]]] = {}
            still = []
            for j in live:
                env = envs[j]
                agent = env.agent_selection
                if env.terminations[agent] or env.truncations[agent]:
                    me = learner_of[j]
                    r = float(env._cumulative_rewards[me])
                    total_reward += returns[j] + r
                    game_returns[start + j] = returns[j] + r
                    side = {team[a]: v for a, v in env._cumulative_rewards.items()}  # teammates share a reward
                    best = max(side.values())
                    if r == best and r > min(side.values()):
                        wins += 1.0 / sum(1 for v in side.values() if v == best)
                    played += 1
                    continue
                if agent == learner_of[j]:  # what the env paid the learner since its last move
                    returns[j] += float(env._cumulative_rewards[agent])
                mine = team[agent] == team[learner_of[j]]
                groups.setdefault((mine, role[agent]), []).append((j, agent, env.observe(agent)))
                still.append(j)
            for (is_learner, _), items in groups.items():
                policy = learner if is_learner else opponent
                obs = np.stack([o["observation"] for _, _, o in items])
                masks = np.stack([o["action_mask"] for _, _, o in items])
                for (j, _, _), a in zip(items, policy.act_batch(obs, masks, items[0][1])):
                    envs[j].step(int(a))
            live = still
    return {"win_rate": wins / max(played, 1), "mean_reward": total_reward / max(played, 1), "games": played,
            "returns": [game_returns[g] for g in sorted(game_returns)]}
