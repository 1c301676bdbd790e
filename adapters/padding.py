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
  the agent is to move; the zero masks of agents not to move are read-only). SuperSuit's observation
  wrappers need a ``Box`` and leave infos alone, so the mask is never stacked, normalised or delayed
  with the observation.

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

    Build it with :func:`pad_roles`. ``observation_size`` and ``num_actions`` are the common sizes,
    ``own_observation_size(agent)`` and ``own_action_count(agent)`` how much of each is the agent's
    own; ``form`` is ``"dict"`` or ``"flat"``. Everything else (``agents``, rewards, ``roles()``,
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
        # Flat form: per agent, the env's info its idle padded info (zero mask) was made from, and that info.
        self._idle_source: dict[str, dict[str, Any]] = {}
        self._idle_infos: dict[str, dict[str, Any]] = {}
        self._zero_mask = np.zeros(self.num_actions, dtype=np.int8)
        self._zero_mask.flags.writeable = False
        # Zero templates copied for a padded observation or mask (faster than np.zeros and a fill).
        self._obs_zeros = np.zeros(self.observation_size, dtype=np.float32)
        self._mask_zeros = np.zeros(self.num_actions, dtype=np.int8)
        self.metadata = dict(env.metadata)
        if not self._flat and not any(self._pad_obs.values()) and not any(self._pad_mask.values()):
            # Every agent already has the common sizes: the dict form is the env itself, call for call.
            self.observe, self.last, self.step = env.observe, env.last, env.step  # type: ignore[method-assign]

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
            self._build_infos(self._live_mask(self.env.agent_selection))
        return self._infos  # type: ignore[return-value]

    def _live_mask(self, agent: str) -> np.ndarray:
        """``agent``'s padded mask from its legal actions (all zero unless it is to move)."""
        mask = bytearray(self.num_actions)  # bytes set in Python, then viewed as int8: no numpy per-element calls
        for a in self.env.legal_actions(agent):
            mask[a] = 1
        return np.frombuffer(mask, dtype=np.int8)

    def _build_infos(self, selected_mask: np.ndarray) -> None:
        """The flat form's infos: the agent to move gets ``selected_mask``, every other agent zeros.

        An agent not to move keeps its padded info from step to step while the env's info for it
        is the same object (the env replaces an info to change it); its zero mask is one read-only
        array, so nothing a consumer does can make a padded or illegal id look legal."""
        env = self.env
        sel = env.agent_selection
        source, idle, zero = self._idle_source, self._idle_infos, self._zero_mask
        infos = {}
        for a, info in env.infos.items():
            if a == sel:
                infos[a] = {**info, "action_mask": selected_mask}
            elif source.get(a) is info:
                infos[a] = idle[a]
            else:
                source[a] = info
                infos[a] = idle[a] = {**info, "action_mask": zero}
        self._infos = infos

    # ------------------------------------------------------------ observe
    # observe() and last() pad inline rather than through helpers: they run at least once a step.
    def _padded_mask(self, agent: str, mask: np.ndarray) -> np.ndarray:
        if not self._pad_mask[agent]:
            return mask
        out = self._mask_zeros.copy()
        out[: mask.shape[0]] = mask
        return out

    def observe(self, agent: str) -> Any:
        """``agent``'s padded observation (dict form: with its padded mask)."""
        env = self.env
        o = env.observe(agent)
        obs = o["observation"]
        if self._pad_obs[agent]:
            padded = self._obs_zeros.copy()
            padded[: obs.shape[0]] = obs
            obs = padded
        if self._flat:
            if self._infos is None and agent == env.agent_selection:
                # The mask just computed is the one the infos need: no second pass over the legal actions.
                self._build_infos(self._padded_mask(agent, o["action_mask"]))
            return obs
        if self._pad_mask[agent]:
            mask = o["action_mask"]
            padded_mask = self._mask_zeros.copy()
            padded_mask[: mask.shape[0]] = mask
            return {"observation": obs, "action_mask": padded_mask}
        return {"observation": obs, "action_mask": o["action_mask"]} if self._pad_obs[agent] else o

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, accumulated reward, termination, truncation and info of ``agent_selection``."""
        env = self.env
        agent = env.agent_selection
        if self._flat:
            if not observe:
                return None, env._cumulative_rewards[agent], env.terminations[agent], env.truncations[agent], self.infos[agent]
            o = env.observe(agent)  # the flat form's observe, inlined
            obs = o["observation"]
            if self._pad_obs[agent]:
                padded = self._obs_zeros.copy()
                padded[: obs.shape[0]] = obs
                obs = padded
            infos = self._infos
            if infos is None:
                mask = o["action_mask"]
                if self._pad_mask[agent]:
                    padded_mask = self._mask_zeros.copy()
                    padded_mask[: mask.shape[0]] = mask
                    mask = padded_mask
                self._build_infos(mask)
                infos = self._infos
            return obs, env._cumulative_rewards[agent], env.terminations[agent], env.truncations[agent], infos[agent]  # type: ignore[index]
        obs = None
        if observe:  # the dict form's observe, inlined: last() runs every step
            o = env.observe(agent)
            obs = o["observation"]
            if self._pad_obs[agent]:
                padded = self._obs_zeros.copy()
                padded[: obs.shape[0]] = obs
                obs = padded
            if self._pad_mask[agent]:
                mask = o["action_mask"]
                padded_mask = self._mask_zeros.copy()
                padded_mask[: mask.shape[0]] = mask
                obs = {"observation": obs, "action_mask": padded_mask}
            else:
                obs = {"observation": obs, "action_mask": o["action_mask"]} if self._pad_obs[agent] else o
        return obs, env._cumulative_rewards[agent], env.terminations[agent], env.truncations[agent], env.infos[agent]

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """The wrapped env's agent iterator (the same agents, read without a wrapper in between)."""
        return self.env.agent_iter(max_iter)

    # --------------------------------------------------------- lifecycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (the wrapped env's ``reset``)."""
        self._infos = None
        self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> None:
        """Step the agent to move; a padded id is an illegal action, as the env treats any."""
        self._infos = None
        env = self.env
        if type(action) is int and 0 <= action < self._n_own[env.agent_selection]:
            env.step(action)  # the common case: one of the agent's own ids, checked by the env
            return
        agent = env.agent_selection
        if action is not None and not (env.terminations.get(agent, True) or env.truncations.get(agent, True)):
            a = _as_int(action)
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
