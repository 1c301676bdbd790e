"""Mythwind: the Innkeeper as a plain single-agent Gymnasium env with action masks.

``MythwindInnkeeperGymEnv(**kwargs)`` takes the same game options as ``raw_env`` (``days_per_season``,
``seasons``, ``reward_mode``, ``max_turns``, ``data``, ``render_mode``). Observations are
``Dict(observation=Box(float32, (L,)), action_mask=Box(int8, (n,)))``, the same vector and mask as
the AEC env; ``action_masks()`` returns the mask as bools, as sb3-contrib's ``MaskablePPO``
expects. An illegal action (one the mask rules out) ends the episode with reward -1 and
``info["illegal_action"]`` (``illegal_action="raise"`` raises ``IllegalActionError`` instead).
The episode seed drawn by ``reset(seed=...)`` determines every random draw of the campaign.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from mythzoo.envs.core.errors import IllegalActionError
from mythzoo.envs.mythwind_innkeeper.components import load_data
from mythzoo.envs.mythwind_innkeeper.env import DEFAULT_DAYS_PER_SEASON, DEFAULT_SEASONS, REWARD_MODES
from mythzoo.envs.mythwind_innkeeper.observation import MythwindInnkeeperObserver
from mythzoo.envs.mythwind_innkeeper.render import render_text
from mythzoo.envs.mythwind_innkeeper.rules import MythwindInnkeeperRules


class MythwindInnkeeperGymEnv(gymnasium.Env):
    """One campaign per episode; reward = change of coins per step (or the total at the end)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        days_per_season: int = DEFAULT_DAYS_PER_SEASON,
        seasons: int = DEFAULT_SEASONS,
        render_mode: str | None = None,
        reward_mode: str = "coins",
        max_turns: int | None = None,
        data: str | Path | None = None,
        illegal_action: str = "terminate",
    ):
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.data = load_data(data)
        self.rules = MythwindInnkeeperRules(self.data, days_per_season, seasons)
        if max_turns is not None and (not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1):
            raise ValueError(f"max_turns must be a positive int or None, got {max_turns!r}")
        self.max_turns = self.rules.total_days() if max_turns is None else max_turns
        self.observer = MythwindInnkeeperObserver(self.rules)
        self.reward_mode = reward_mode
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        n, size = self.rules.num_actions, self.observer.size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(n)
        self.state: Any = None
        self._done = True

    def _obs(self) -> dict[str, np.ndarray]:
        mask = bytearray(self.rules.num_actions)
        for a in self.rules.legal_actions(self.state):
            mask[a] = 1
        return {"observation": self.observer.observation(self.state), "action_mask": np.frombuffer(mask, dtype=np.int8).copy()}

    def _info(self) -> dict[str, Any]:
        s, r = self.state, self.rules
        return {"coins": s.coins, "earned": s.earned, "renown": s.renown, "renown_level": r.level(s),
                "seated": s.last_seated, "unseated": s.last_unseated, "day": s.turn, "season": s.season}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new campaign drawn from the env's seeded generator."""
        super().reset(seed=seed)
        self.state = self.rules.initial_state(int(self.np_random.integers(2**63)))
        self._done = False
        return self._obs(), self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions as a bool vector (sb3-contrib ``MaskablePPO``)."""
        if self.state is None:
            raise RuntimeError("reset() must be called before action_masks()")
        m = np.zeros(self.rules.num_actions, dtype=bool)
        m[self.rules.legal_actions(self.state)] = True
        return m

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.state is None or self._done:
            raise RuntimeError("the episode is over (or never started); call reset()")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) and not (
            isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer)):
            raise TypeError(f"action must be an int in 0..{self.rules.num_actions - 1}, got {action!r}")
        a = int(action)
        if not 0 <= a < self.rules.num_actions:
            raise ValueError(f"action {a} is outside Discrete({self.rules.num_actions})")
        s = self.state
        if a not in self.rules.legal_actions(s):
            if self.illegal_action == "raise":
                raise IllegalActionError(f"illegal action {a} ({self.rules.table.label(a)}); legal: {self.rules.legal_actions(s)}")
            self._done = True
            return self._obs(), -1.0, True, False, {**self._info(), "illegal_action": a}
        before = s.coins
        self.rules.apply(s, a, checked=True)
        terminated = bool(s.over)
        truncated = not terminated and s.turn >= self.max_turns
        if self.reward_mode == "coins":
            reward = float(s.coins - before)
        else:
            reward = float(s.coins - self.data.starting_coins) if terminated else 0.0
        self._done = terminated or truncated
        return self._obs(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        if self.state is None:
            raise RuntimeError("reset() must be called before render()")
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = render_text(self.rules, self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text
