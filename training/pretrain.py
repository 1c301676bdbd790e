"""Warm start: imitate a teacher policy before PPO (behaviour cloning, with the critic fitted too).

A long game with a reward that arrives in small pieces is slow to learn from scratch; a rule-based
policy already knows the basics. ``collect_demonstrations`` plays many games with the teacher in
every seat (the shared runner: batched, one ``act_batch`` per role per round) and keeps, for the seats of the role
being trained, each decision's observation, mask and action, and the discounted return that
followed it. ``pretrain`` then fits the PPO policy by minibatch gradient steps on the masked
cross-entropy of the teacher's actions, and the value head on those returns (so PPO's first
advantages are not noise from an untrained critic). PPO then improves on the teacher.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from mythzoo.evaluation import Decision, GameRecord, Table, play_games
from mythzoo.evaluation.runner import stack
from mythzoo.policies.base import BasePolicy
from mythzoo.training.games import runner_games


def collect_demonstrations(
    make_env: Callable[[], Any],
    teacher: BasePolicy,
    learner_agents: Sequence[str],
    games: int,
    gamma: float,
    seed: int = 0,
    batch: int = 32,
    actor: BasePolicy | None = None,
) -> dict[str, np.ndarray]:
    """Decisions of ``learner_agents`` seats over ``games`` games: ``obs``, ``masks``, the
    teacher's ``actions`` and ``returns`` (discounted sum of that agent's later rewards).

    With an ``actor`` (DAgger), the actor plays the learner's seats and the teacher only labels
    the states the actor reaches: imitation then also learns to recover from its own mistakes,
    which plain cloning never sees. The games are played by the shared runner
    (:func:`mythzoo.evaluation.play_games`), game ``g`` dealt ``seed + g``."""
    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    learners = set(learner_agents)
    envs = runner_games(make_env, min(batch, games))  # batched games (mythzoo.vector) from a GameMaker
    u = (envs.env if hasattr(envs, "step_games") else envs[0]).unwrapped
    n = len(u.possible_agents)
    tables = [Table(GameRecord(u.env_name, {}, n, seed + g, ["teacher"] * n, [None] * n, digests=None), ["teacher"] * n) for g in range(games)]
    # Per game and learner agent: the row of each decision and the rewards that followed it (the
    # agent's reward since its last action, read at its next decision or at the end).
    trail: list[dict[str, list[tuple[int, float]]]] = [{} for _ in range(games)]

    def decide(_: object, items: list[Decision]) -> list[int]:
        obs, masks = stack(items)
        labels = teacher.act_batch(obs, masks, items[0].agent)
        played = list(labels)
        seats = [k for k, d in enumerate(items) if d.agent in learners]
        if actor is not None and seats:  # the actor plays the learner's seats, the teacher the rest
            for k, b in zip(seats, actor.act_batch(obs[seats], masks[seats], items[seats[0]].agent)):
                played[k] = b
        for d, a in zip(items, labels):
            if d.agent in learners:
                steps = trail[d.game].setdefault(d.agent, [])
                if steps:
                    row, r = steps[-1]
                    steps[-1] = (row, r + d.reward)
                steps.append((len(actions), 0.0))
                obs_rows.append(d.observation.copy())  # on batched games a view of a row that the next step rewrites
                mask_rows.append(d.mask.copy())
                actions.append(int(a))
                returns.append(0.0)
        return played

    def close(g: int, record: GameRecord) -> None:  # the rewards after each learner's last decision
        for agent, steps in trail[g].items():
            row, r = steps[-1]
            steps[-1] = (row, r + record.final_rewards[record.agents.index(agent)])
        for steps in trail[g].values():  # discounted returns, backwards through each agent's decisions
            ret = 0.0
            for row, r in reversed(steps):
                ret = r + gamma * ret
                returns[row] = ret

    play_games(envs, tables, decide=decide, on_end=close)
    return {
        "obs": np.asarray(obs_rows, dtype=np.float32),
        "masks": np.asarray(mask_rows, dtype=bool),
        "actions": np.asarray(actions, dtype=np.int64),
        "returns": np.asarray(returns, dtype=np.float32),
    }


def pretrain(model: Any, data: dict[str, np.ndarray], epochs: int, batch_size: int = 512, lr: float = 1e-3,
             vf_coef: float = 0.5, seed: int = 0) -> dict[str, float]:
    """Fit ``model.policy`` (a sb3-contrib MaskableActorCriticPolicy) to the demonstrations.
    Returns the final epoch's mean loss terms and the greedy agreement with the teacher."""
    policy = model.policy
    n = len(data["actions"])
    if n == 0:
        raise ValueError("no demonstrations to pretrain on (did the teacher's games give the learner any decision?)")
    obs = torch.as_tensor(data["obs"])
    masks = torch.as_tensor(data["masks"])
    actions = torch.as_tensor(data["actions"])
    returns = torch.as_tensor(data["returns"])
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    policy.set_training_mode(True)
    stats: dict[str, float] = {}
    for _ in range(epochs):
        order = rng.permutation(n)
        tot_pi = tot_v = 0.0
        for i in range(0, n, batch_size):
            idx = torch.as_tensor(order[i : i + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs[idx], actions[idx], action_masks=masks[idx])
            pi_loss = -log_prob.mean()
            v_loss = torch.nn.functional.mse_loss(values.flatten(), returns[idx])
            loss = pi_loss + vf_coef * v_loss
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            tot_pi += float(pi_loss.detach()) * len(idx)
            tot_v += float(v_loss.detach()) * len(idx)
        stats = {"bc_loss": tot_pi / n, "value_loss": tot_v / n}
    policy.set_training_mode(False)
    with torch.no_grad():
        dist = policy.get_distribution(obs, action_masks=data["masks"])
        greedy = dist.distribution.probs.argmax(dim=1)
    stats["agreement"] = float((greedy == actions).float().mean())
    stats["decisions"] = float(n)
    return stats


def imitation_steps(policy: Any, optimizer: torch.optim.Optimizer, data: dict[str, np.ndarray], steps: int,
                    batch_size: int, coef: float, rng: np.random.Generator) -> float:
    """``steps`` gradient steps on ``coef`` x the masked cross-entropy of the teacher's actions,
    on random minibatches of ``data``, with PPO's own optimizer. Used between PPO updates
    (``bc_coef``) to keep the learner near the teacher while PPO improves on it. Returns the mean
    cross-entropy."""
    n = len(data["actions"])
    total = 0.0
    policy.set_training_mode(True)
    for _ in range(steps):
        idx = rng.integers(0, n, size=min(batch_size, n))
        _, log_prob, _ = policy.evaluate_actions(torch.as_tensor(data["obs"][idx]), torch.as_tensor(data["actions"][idx]),
                                                 action_masks=data["masks"][idx])
        loss = -coef * log_prob.mean()
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
        optimizer.step()
        total += float(loss.detach()) / coef
    policy.set_training_mode(False)
    return total / max(steps, 1)
