"""The one interface for anything that acts in a mythzoo env.

A policy maps (observation, action mask) to a legal action. ``act_batch`` acts for many games
at once (training calls it with hundreds of rows per step), so a network policy runs one
forward pass per call instead of one per game. Policies see only what the env gives an agent:
the observation vector and the int8 mask, plus the env's public spec (``EnvSpec``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import hashlib
import json

import numpy as np


@dataclass(frozen=True)
class EnvSpec:
    """What a policy may know about an env: its name, sizes per agent, and feature/action names."""

    env_name: str
    agents: tuple[str, ...]
    obs_sizes: dict[str, int]
    action_sizes: dict[str, int]
    config: dict[str, Any]
    signature: str  # sha256 over env name, observation feature names and action labels of every agent

    @classmethod
    def from_env(cls, env: Any) -> EnvSpec:
        """Read the spec off a mythzoo env (wrapped or raw)."""
        u = env.unwrapped
        agents = tuple(u.possible_agents)
        action_sizes = {a: int(u.action_space(a).n) for a in agents}
        return cls(
            env_name=u.env_name,
            agents=agents,
            obs_sizes={a: int(u.observation_space(a)["observation"].shape[0]) for a in agents},
            action_sizes=action_sizes,
            config=dict(u.config),
            signature=env_signature(u),
        )


def env_signature(env: Any) -> str:
    """A hash of what a trained network depends on: the env name and version, and per role the
    observation layout (feature names) and action table (labels). Player count is not part of it:
    one network plays every player count of an env whose layouts do not depend on it."""
    u = env.unwrapped
    roles: dict[str, Any] = {}
    for a in u.possible_agents:
        layout = (tuple(u.observation_features(a)), tuple(u.action_label(i, a) for i in range(int(u.action_space(a).n))))
        roles.setdefault(layout, a)
    payload = {"env": u.env_name, "roles": [[list(f), list(l)] for f, l in roles]}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


@runtime_checkable
class Policy(Protocol):
    """Anything that acts: a legal action for one observation, or one per row of a batch."""

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """A legal action for one observation."""

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, agent: str | None = None) -> np.ndarray:
        """One legal action per row, in one call (network policies: one forward pass)."""


def check_mask(action_mask: np.ndarray) -> None:
    """Refuse an all-zero mask: no legal action means the caller asked the wrong agent."""
    if not action_mask.any():
        raise ValueError("action mask has no legal action (is this agent to move?)")


def live_env_agent(name: str, env: Any, observation: np.ndarray, action_mask: np.ndarray, agent: str | None) -> str:
    """The agent to move in ``env``, once the (observation, mask) a caller passed are shown to be that
    agent's in ``env`` now. A search policy decides from the live game it was built with (it clones the
    state, not the observation), so a caller that passes anything else gets an error, not a wrong move."""
    u = env.unwrapped
    if u.state_ is None or not u.agents:
        raise RuntimeError(f"{name} decides from the game it plays: its env has no game under way")
    agent = agent if agent is not None else u.agent_selection
    if agent != u.agent_selection:
        raise RuntimeError(f"{name} was asked for {agent!r}, but {u.agent_selection!r} is to move in its env")
    mask = np.asarray(action_mask)
    if mask.shape != (u.action_space(agent).n,) or np.flatnonzero(mask).tolist() != list(u.rules.legal_actions(u.state_)) \
            or not np.array_equal(np.asarray(observation, dtype=np.float32), u.observer.observation(u.state_, u._seat[agent])):
        raise RuntimeError(f"{name} decides from the game it plays: this observation is not its env's "
                           "(play it through mythzoo's game loops, which pass the live env)")
    return agent


class BasePolicy:
    """Implements ``act`` through ``act_batch`` (or the reverse); subclasses override one."""

    name = "policy"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """One legal action."""
        return int(self.act_batch(observation[None], action_mask[None], agent)[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, agent: str | None = None) -> np.ndarray:
        """One legal action per row (default: loops over ``act``; network policies override)."""
        return np.array([self.act(o, m, agent) for o, m in zip(observations, action_masks)], dtype=np.int64)


class RandomPolicy(BasePolicy):
    """Uniform over legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """A uniformly random legal action."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            check_mask(action_mask)
        return int(legal[self.rng.integers(legal.size)])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, agent: str | None = None) -> np.ndarray:
        """Vectorized: Gumbel-max over the mask picks a uniform legal action per row."""
        masks = np.asarray(action_masks, dtype=bool)
        if not masks.any(axis=1).all():
            raise ValueError("a row of action_masks has no legal action")
        noise = self.rng.random(masks.shape)
        noise[~masks] = -1.0
        return noise.argmax(axis=1).astype(np.int64)
