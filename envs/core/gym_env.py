"""Any solo game as a plain single-agent Gymnasium env with action masks, written once.

:class:`SoloGymEnv` wraps the game's strict ``raw_env`` (one agent) and keeps its spaces:
``Dict(observation=Box(float32, (L,)), action_mask=Box(int8, (n,)))``, the same vector, mask and
bounds as the AEC env (``observation_space`` is the AEC env's own). An illegal action (one the mask
rules out) ends the episode with reward -1 and ``info["illegal_action"]`` set to it
(``illegal_action="raise"`` raises ``IllegalActionError`` instead). ``reset(seed=...)`` seeds
Gymnasium's generator, which draws the game's seed. A game subclasses it to name its ``raw_env``.

Where the mask is, for every library's habit:

- ``obs["action_mask"]`` (int8), as in PettingZoo;
- ``info["action_mask"]`` (int8), as in Gymnasium's own masked envs (Taxi);
- ``env.action_masks()`` (bool), as sb3-contrib's ``MaskablePPO`` expects. ``gymnasium.make``
  puts :class:`ActionMasks` outermost (the env spec's ``additional_wrappers``), so
  ``gymnasium.make(id).action_masks()`` works; under further wrappers use Gymnasium's
  ``env.get_wrapper_attr("action_masks")()`` (what SB3's ``get_action_masks`` does), and on a
  vector env ``envs.call("action_masks")``.

The mask is never all zero. While the episode runs it marks the legal actions. The observation
returned with ``terminated`` or ``truncated`` marks action 0 alone (:data:`DONE_MASK_ACTION`):
``gymnasium.make_vec``'s default autoreset (``AutoresetMode.NEXT_STEP``) takes one more action from
every sub-env after its episode ends and ignores it (that step only resets the sub-env and returns
the first observation of the next episode, reward 0, not terminated), so a masked sampler always
has an action to draw. With ``vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}``
the reset happens in the ending step instead: the step returns the next episode's first observation
(a legal mask), the final one in ``info["final_obs"]``; no action is ever ignored.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np

from mythzoo.envs.core.errors import IllegalActionError

DONE_MASK_ACTION = 0  # the one action a finished episode's mask marks (see the module docstring)


class SoloGymEnv(gymnasium.Env):
    """One game per episode of a solo mythzoo game; rewards are the AEC env's."""

    raw_env_class: ClassVar[type]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(self, render_mode: str | None = None, illegal_action: str = "terminate", **game_kwargs: Any):
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.aec = self.raw_env_class(render_mode=render_mode, **game_kwargs)
        if len(self.aec.possible_agents) != 1:
            raise ValueError(f"{type(self.aec).__name__} has {len(self.aec.possible_agents)} agents; SoloGymEnv needs one")
        self.agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = self.aec.render_mode  # an unknown mode has warned there and is off
        # The most decisions (steps) one episode can take, from the game's spec (as on the AEC env).
        self.max_decisions: int | None = self.aec.max_decisions
        self.metadata = {**type(self).metadata, "max_decisions": self.max_decisions}
        self.illegal_action = illegal_action
        self._n = int(self.action_space.n)
        self._done_mask = np.zeros(self._n, dtype=np.int8)
        self._done_mask[DONE_MASK_ACTION] = 1
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
        """The AEC env's info of the agent (a new dict): the same keys at every step, ``illegal_action``
        -1 unless an illegal action ended the episode. ``reset`` and ``step`` add ``action_mask``."""
        return dict(self.aec.infos[self.agent])

    def _obs_info(self, info: dict[str, Any]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs = self.aec.observe(self.agent)
        if self._done:
            obs["action_mask"] = self._done_mask.copy()
        info["action_mask"] = obs["action_mask"].copy()
        return obs, info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game, its seed drawn from the env's seeded generator."""
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(2**63)))
        self._done = False
        return self._obs_info(self.info())

    def action_masks(self) -> np.ndarray:
        """Legal actions as a bool vector (sb3-contrib ``MaskablePPO``); once the episode is over,
        action 0 alone (the action a vector env's next-step autoreset ignores)."""
        if self.aec.state_ is None:
            raise RuntimeError("reset() must be called before action_masks()")
        if self._done:
            return self._done_mask.astype(bool)
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
            obs, info = self._obs_info({**self.info(), "illegal_action": a})
            return obs, -1.0, True, False, info
        self.aec.step(a)
        terminated = self.aec.terminations[self.agent]
        truncated = self.aec.truncations[self.agent]
        reward = float(self.aec.rewards[self.agent])
        self._done = terminated or truncated
        obs, info = self._obs_info(self.info())
        return obs, reward, terminated, truncated, info

    def render(self) -> str | np.ndarray | None:
        """The AEC env's rendering (``rgb_array``: the board as a uint8 image of one size)."""
        if self.aec.state_ is None:
            raise RuntimeError("reset() must be called before render()")
        return self.aec.render()


class ActionMasks(gymnasium.Wrapper, gymnasium.utils.RecordConstructorArgs):
    """Gives ``action_masks()`` to the outside of a wrapper stack (Gymnasium 1.x wrappers forward no
    attributes). ``gymnasium.make`` applies it last, through the env spec's ``additional_wrappers``."""

    def __init__(self, env: gymnasium.Env):
        gymnasium.utils.RecordConstructorArgs.__init__(self)
        gymnasium.Wrapper.__init__(self, env)

    def action_masks(self) -> np.ndarray:
        """The wrapped env's ``action_masks()``."""
        return self.env.get_wrapper_attr("action_masks")()
