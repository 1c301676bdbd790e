"""Any solo game as a plain single-agent Gymnasium env with action masks, written once.

:class:`SoloGymEnv` wraps the game's strict ``raw_env`` (one agent) and keeps its spaces:
``Dict(observation=Box(float32, (L,)), action_mask=Box(int8, (n,)))``, the same vector, mask and
bounds as the AEC env. ``action_masks()`` returns the mask as bools, as sb3-contrib's
``MaskablePPO`` expects. An illegal action (one the mask rules out) ends the episode with reward
-1 and ``info["illegal_action"]`` (``illegal_action="raise"`` raises ``IllegalActionError``
instead). ``reset(seed=...)`` seeds Gymnasium's generator, which draws the game's seed.
A game subclasses it to name its ``raw_env`` and, optionally, what ``info`` holds.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np

from mythzoo.envs.core.errors import IllegalActionError


class SoloGymEnv(gymnasium.Env):
    """One game per episode of a solo mythzoo game; rewards are the AEC env's."""

    raw_env_class: ClassVar[type]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, render_mode: str | None = None, illegal_action: str = "terminate", **game_kwargs: Any):
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.aec = self.raw_env_class(render_mode=render_mode, **game_kwargs)
        if len(self.aec.possible_agents) != 1:
            raise ValueError(f"{type(self.aec).__name__} has {len(self.aec.possible_agents)} agents; SoloGymEnv needs one")
        self.agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self._n = int(self.action_space.n)
        self._done = True

    @property
    def rules(self) -> Any:
        """The game's rules engine (as on the AEC env)."""
        return self.aec.rules

    @property
    def state(self) -> Any:
        """The live game state, ``None`` before ``reset``."""
        return self.aec.state_

    def info(self) -> dict[str, Any]:
        """What ``reset`` and ``step`` return as info: the AEC env's info of the agent (a new dict;
        the same keys at every step, ``illegal_action`` -1 unless an illegal action ended the episode)."""
        return dict(self.aec.infos[self.agent])

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game, its seed drawn from the env's seeded generator."""
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(2**63)))
        self._done = False
        return self.aec.observe(self.agent), self.info()

    def action_masks(self) -> np.ndarray:
        """Legal actions as a bool vector (sb3-contrib ``MaskablePPO``)."""
        if self.aec.state_ is None:
            raise RuntimeError("reset() must be called before action_masks()")
        m = np.zeros(self._n, dtype=bool)
        m[self.aec.rules.legal_actions(self.aec.state_)] = True
        return m

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Apply ``action``; the reward is what the AEC env pays the agent for it."""
        if self.aec.state_ is None or self._done:
            raise RuntimeError("the episode is over (or never started); call reset()")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) and not (
            isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer)
        ):
            raise TypeError(f"action must be an int in 0..{self._n - 1}, got {action!r}")
        a = int(action)
        if not 0 <= a < self._n:
            raise ValueError(f"action {a} is outside Discrete({self._n})")
        rules, s = self.aec.rules, self.aec.state_
        if a not in rules.legal_actions(s):
            if self.illegal_action == "raise":
                raise IllegalActionError(f"illegal action {a} ({self.aec.action_label(a)}); legal: {rules.legal_actions(s)}")
            self._done = True
            return self.aec.observe(self.agent), -1.0, True, False, {**self.info(), "illegal_action": a}
        self.aec.step(a)
        terminated = self.aec.terminations[self.agent]
        truncated = self.aec.truncations[self.agent]
        reward = float(self.aec.rewards[self.agent])
        self._done = terminated or truncated
        return self.aec.observe(self.agent), reward, terminated, truncated, self.info()

    def render(self) -> str | None:
        """The AEC env's rendering."""
        if self.aec.state_ is None:
            raise RuntimeError("reset() must be called before render()")
        return self.aec.render()
