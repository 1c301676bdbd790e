"""Role padding: one observation space and one action space for every agent of a mythzoo env.

Some libraries take one space for all agents (Tianshou's ``PettingZooEnv``, SuperSuit's
vectorisers, AgileRL-style loops). Mythsgate's ``invoker`` and heroes have different observation
and action sizes, so :func:`pad_roles` pads all three together, per agent:

* the observation vector with zeros up to the largest observation of any role;
* the action space up to the largest action count (``Discrete(n_max)``);
* the action mask with zeros, so that a padded action is never legal.

Stepping a padded id (one past the agent's own actions) is an illegal action, treated exactly as the
env treats any illegal action: ``raw_env`` raises :class:`~mythzoo.envs.core.errors.IllegalActionError`
and changes nothing; ``env()`` ends the game with -1 for the offender and records the id in
``infos[agent]["illegal_action"]``. A padded id is never mapped to another action.

Two forms:

* ``form="dict"`` (default): ``Dict(observation=Box(float32, (L,)), action_mask=Box(int8, (n,)))``,
  the env's own form at padded sizes (Tianshou, TorchRL).
* ``form="flat"``: the observation is the ``Box`` alone, and the mask travels in
  ``infos[agent]["action_mask"]`` (from ``reset`` on, for every agent at every step: all zero unless
  the agent is to move). SuperSuit's observation wrappers need a ``Box`` and leave infos alone, so the
  mask is never stacked, normalised or delayed with the observation.

For a game whose agents already share sizes (Mythic Baths, the Innkeeper) nothing is padded: the
dict form hands the env's observations through unchanged.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from mythzoo.envs.core.aec import MythzooAECEnv
from mythzoo.envs.core.errors import IllegalActionError

Form = Literal["dict", "flat"]
FORMS: tuple[str, ...] = ("dict", "flat")
__all__ = ["FORMS", "PaddedRolesEnv", "pad_roles"]


def pad_roles(env: MythzooAECEnv, form: Form = "dict") -> PaddedRolesEnv:
    """``env`` with every agent's observation, mask and action space padded to common sizes.

    ``env`` is a mythzoo AEC env (``mythzoo.envs.make(...)`` or a game's ``env()``/``raw_env()``);
    ``form`` is ``"dict"`` (the mask in the observation) or ``"flat"`` (a ``Box`` observation, the
    mask in ``infos[agent]["action_mask"]``). See the module docstring.
    """
    return PaddedRolesEnv(env, form=form)


def _padded_bounds(boxes: list[spaces.Box], size: int) -> tuple[np.ndarray, np.ndarray]:
    """Bounds that hold every role's observation at ``size``: padded entries are 0, so a role's
    bounds there are [0, 0]; the common bounds are the elementwise union over roles."""
    low = np.full(size, np.inf, dtype=np.float32)
    high = np.full(size, -np.inf, dtype=np.float32)
    for box in boxes:
        lo = np.zeros(size, dtype=np.float32)
        hi = np.zeros(size, dtype=np.float32)
        n = box.shape[0]
        lo[:n], hi[:n] = box.low, box.high
        np.minimum(low, lo, out=low)
        np.maximum(high, hi, out=high)
    return low, high


class PaddedRolesEnv(BaseWrapper):
    """A mythzoo AEC env whose agents all share one observation space and one action space.

    Build it with :func:`pad_roles`. Everything else (``agents``, rewards, ``roles()``,
    ``get_state``, ``state()``, ...) is the wrapped env's; ``unwrapped`` is the mythzoo env.
    """

    def __init__(self, env: MythzooAECEnv, form: Form = "dict"):
        if not isinstance(env, MythzooAECEnv):
            raise TypeError(f"pad_roles needs a mythzoo AEC env (mythzoo.envs.make(...)), got {type(env).__name__}")
        if form not in FORMS:
            raise ValueError(f"form must be one of {FORMS}, got {form!r}")
        super().__init__(env)
        self.form: Form = form
        self._flat = form == "flat"
        agents = list(env.possible_agents)
        obs_boxes = {a: env.observation_space(a)["observation"] for a in agents}
        self._obs_len = {a: int(obs_boxes[a].shape[0]) for a in agents}
        self._n_own = {a: int(env.action_space(a).n) for a in agents}
        self.observation_size = max(self._obs_len.values())
        self.num_actions = max(self._n_own.values())
        low, high = _padded_bounds(list(obs_boxes.values()), self.observation_size)
        obs_box = spaces.Box(low=low, high=high, shape=(self.observation_size,), dtype=np.float32)
        mask_box = spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=np.int8)
        # One space object shared by every agent: libraries compare agents' spaces for equality.
        obs_space: spaces.Space = obs_box if self._flat else spaces.Dict({"observation": obs_box, "action_mask": mask_box})
        act_space = spaces.Discrete(self.num_actions)
        self.observation_spaces = {a: obs_space for a in agents}
        self.action_spaces = {a: act_space for a in agents}
        self._pad_obs = {a: self._obs_len[a] < self.observation_size for a in agents}
        self._pad_mask = {a: self._n_own[a] < self.num_actions for a in agents}
        self._infos: dict[str, dict[str, Any]] | None = None  # flat form: built once per env change
        self.metadata = dict(env.metadata)

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """The common observation space (the same object for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(num_actions)``, the largest action count of any role."""
        return self.action_spaces[agent]

    def own_action_count(self, agent: str) -> int:
        """How many of the padded ids are ``agent``'s own actions (ids from there on are padding)."""
        return self._n_own[agent]

    def own_observation_size(self, agent: str) -> int:
        """How many entries of the padded observation are ``agent``'s own (the rest are 0)."""
        return self._obs_len[agent]

    # ------------------------------------------------------- the hot state
    # Properties, not BaseWrapper's __getattr__ forwarding: these are read every step.
    @property
    def agent_selection(self) -> str:
        return self.env.agent_selection

    @property
    def agents(self) -> list[str]:
        return self.env.agents

    @property
    def possible_agents(self) -> list[str]:
        return self.env.possible_agents

    @property
    def rewards(self) -> dict[str, float]:
        return self.env.rewards

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards

    @property
    def terminations(self) -> dict[str, bool]:
        return self.env.terminations

    @property
    def truncations(self) -> dict[str, bool]:
        return self.env.truncations

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """The env's infos; in the flat form each also holds the agent's padded ``action_mask``."""
        if not self._flat:
            return self.env.infos
        if self._infos is None:
            env = self.env
            sel = env.agent_selection
            n = self.num_actions
            self._infos = {a: {**info, "action_mask": self._live_mask(sel) if a == sel else np.zeros(n, dtype=np.int8)} for a, info in env.infos.items()}
        return self._infos

    # ------------------------------------------------------------ observe
    def _pad_observation(self, agent: str, obs: np.ndarray) -> np.ndarray:
        if not self._pad_obs[agent]:
            return obs
        out = np.zeros(self.observation_size, dtype=np.float32)
        out[: obs.shape[0]] = obs
        return out

    def _pad_action_mask(self, agent: str, mask: np.ndarray) -> np.ndarray:
        if not self._pad_mask[agent]:
            return mask
        out = np.zeros(self.num_actions, dtype=np.int8)
        out[: mask.shape[0]] = mask
        return out

    def _live_mask(self, agent: str) -> np.ndarray:
        """``agent``'s padded mask from its legal actions (all zero unless it is to move)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        legal = self.env.legal_actions(agent)
        if legal:
            mask[legal] = 1
        return mask

    def observe(self, agent: str) -> Any:
        """``agent``'s padded observation (dict form: with its padded mask)."""
        o = self.env.observe(agent)
        obs = self._pad_observation(agent, o["observation"])
        if self._flat:
            return obs
        if not (self._pad_obs[agent] or self._pad_mask[agent]):
            return o
        return {"observation": obs, "action_mask": self._pad_action_mask(agent, o["action_mask"])}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, accumulated reward, termination, truncation and info of ``agent_selection``."""
        env = self.env
        agent = env.agent_selection
        return (
            self.observe(agent) if observe else None,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            self.infos[agent],
        )

    # --------------------------------------------------------- lifecycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (the wrapped env's ``reset``)."""
        self._infos = None
        self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> None:
        """Step the agent to move; a padded id is an illegal action, as the env treats any."""
        self._infos = None
        env = self.env
        agent = env.agent_selection
        if action is not None and not (env.terminations.get(agent, True) or env.truncations.get(agent, True)):
            a = action if type(action) is int else _as_int(action)
            if a is not None:
                if not 0 <= a < self.num_actions:
                    raise ValueError(f"action {a} is outside the padded action space Discrete({self.num_actions})")
                if a >= self._n_own[agent]:
                    self._step_padded_id(agent, a)
                    return
                action = a
        env.step(action)

    def _step_padded_id(self, agent: str, action: int) -> None:
        env = self.env
        if env.strict:
            raise IllegalActionError(
                f"{agent}: illegal action {action} (a padding id: {agent}'s own actions are 0..{self._n_own[agent] - 1}); legal: {env.legal_actions(agent)}"
            )
        # The env's own illegal-action ending (env(): -1 for the offender, the id in its info), so a
        # padded id ends the game exactly as an illegal id of the agent's own would.
        env._end_illegal(agent, action)

    def set_state(self, state: dict[str, Any]) -> None:
        """The wrapped env's ``set_state`` (validated there)."""
        self._infos = None
        self.env.set_state(state)

    def __str__(self) -> str:
        return f"PaddedRolesEnv<{self.env!s}, form={self.form}>"


def _as_int(action: Any) -> int | None:
    """An integer action as an int; ``None`` for anything else (the env then raises its own error)."""
    if isinstance(action, bool):
        return None
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return None
