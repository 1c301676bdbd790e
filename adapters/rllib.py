"""mythzoo in RLlib (new API stack): a turn-based ``MultiAgentEnv``, a ready ``PPOConfig`` and a
policy wrapper that lets a trained RLModule play in mythzoo's tournaments.

- :class:`MythzooMultiAgentEnv` wraps any registered mythzoo game. Only the agent to move gets an
  observation, in the form RLlib's stock action-masking module
  (``ray.rllib.examples.rl_modules.classes.action_masking_rlm.ActionMaskingTorchRLModule``)
  reads: ``{"observations": float32 vector, "action_mask": 0/1 vector}`` (the AEC env's int8 mask
  itself, uncopied: the module takes ``log(mask)``, which torch computes in float). Every agent's
  reward of a step is reported at that step, also for agents that did not move (RLlib adds a
  reward earned while another agent moved to that agent's next step); when a game ends every
  agent gets a final observation, its reward and ``terminateds``/``truncateds`` (``"__all__"``
  included).
- :func:`ppo_config` returns a ``PPOConfig`` with the env, one masking module per role (one
  shared module for a symmetric game, ``invoker`` and ``hero`` for Mythsgate), the agent-to-role
  mapping from the game's spec, and small defaults sized for a 2-core machine.
- :class:`RLlibPolicy` makes trained modules a mythzoo policy (``act``/``act_batch``, greedy).

Needs the ``rllib`` extra: ``pip install mythzoo[rllib]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

try:
    import gymnasium as gym
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
except ImportError as e:  # one line, naming the extra
    raise ImportError(f"mythzoo.adapters.rllib needs RLlib and torch ({e.name} is missing): pip install mythzoo[rllib]") from None

from mythzoo.envs import resolve, spec
from mythzoo.envs.core.aec import role_of
from mythzoo.policies.base import BasePolicy, check_mask

__all__ = [
    "ILLEGAL_ACTIONS_METRIC",
    "IllegalActionCounter",
    "MythzooMultiAgentEnv",
    "RLlibPolicy",
    "RoleMapping",
    "agent_roles",
    "model_config",
    "module_spec",
    "ppo_config",
]

OBS_KEY = "observations"  # the keys RLlib's action-masking module reads
MASK_KEY = "action_mask"
ILLEGAL_ACTIONS_METRIC = "mythzoo_illegal_actions"  # logged by IllegalActionCounter (a sum over episodes)


def _env_kwargs(config: Mapping[str, Any]) -> tuple[str, dict[str, Any], int | None, bool]:
    """Split an env_config into (game, env kwargs, seed, strict)."""
    kw = dict(config)
    if "env" not in kw:
        raise ValueError("env_config needs 'env': the mythzoo game's name, e.g. {'env': 'mythic_baths', 'num_players': 2}")
    game = resolve(str(kw.pop("env")))
    seed = kw.pop("seed", None)
    strict = bool(kw.pop("strict", False))
    return game, spec(game).size_kwargs(None, kw), seed, strict


class MythzooMultiAgentEnv(MultiAgentEnv):
    """Any mythzoo game as an RLlib ``MultiAgentEnv``, taking turns.

    ``config`` (RLlib's ``env_config``): ``env`` (the game's name, e.g. ``"mythsgate"``), the
    game's own keyword arguments (``num_heroes=2``, ``reward_mode=...``), and optionally ``seed``
    (the first game's seed when ``reset`` gets none; later games draw theirs from a generator so
    seeded; offset by RLlib's env runner and vector index, so that no two envs play the same
    games) and ``strict`` (``True``: an illegal action raises ``IllegalActionError``; default
    ``False``: PettingZoo's standard rule, the game ends with -1 for the offender). An illegal
    action is noted in the offender's info as ``illegal_action`` and counted in
    :attr:`illegal_actions`; a masking module never takes one.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, config: Mapping[str, Any] | None = None):
        super().__init__()
        game, kwargs, seed, strict = _env_kwargs(config or {})
        if seed is not None:  # RLlib's EnvContext: each env of each env runner plays its own games
            seed = int(seed) + 10_000 * int(getattr(config, "worker_index", 0)) + int(getattr(config, "vector_index", 0))
        self.game = spec(game)
        self.env_kwargs = kwargs
        self.env = self.game.make_raw(**kwargs) if strict else self.game.make(**kwargs)
        u = self.env.unwrapped
        self.possible_agents = list(u.possible_agents)
        # Every seat plays from the first decision to the last: agents never leave mid-game.
        self.agents = list(self.possible_agents)
        self.observation_spaces = {
            a: gym.spaces.Dict({
                OBS_KEY: u.observation_space(a)["observation"],
                MASK_KEY: u.observation_space(a)["action_mask"],
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: gym.spaces.Discrete(int(u.action_space(a).n)) for a in self.possible_agents}
        self._rng = np.random.default_rng(seed)
        self._first_seed = seed
        self._mask: np.ndarray | None = None  # the mask of the agent to move, as last observed
        self.illegal_actions = 0

    # -------------------------------------------------------------- helpers
    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        return {OBS_KEY: obs["observation"], MASK_KEY: obs["action_mask"]}

    def role(self, agent: str) -> str:
        """The role ``agent`` plays (``player``, ``invoker``, ``hero``, ``innkeeper``)."""
        return self.env.unwrapped.agent_role(agent)

    # ------------------------------------------------------------ the API
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game; the observation (and info) of the agent to move only."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        elif self._first_seed is not None:
            seed, self._first_seed = self._first_seed, None
        else:
            seed = int(self._rng.integers(2**31))
        self._first_seed = None
        self.env.reset(seed=int(seed))
        agent = self.env.agent_selection
        obs = self._observe(agent)
        self._mask = obs[MASK_KEY]
        return {agent: obs}, {agent: dict(self.env.infos[agent])}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the action of the agent to move (``action_dict`` holds exactly that agent)."""
        env = self.env
        agent = env.agent_selection
        if len(action_dict) != 1 or agent not in action_dict:
            raise ValueError(f"{self.game.env_name}: expected an action for {agent!r} (the agent to move) only, got {sorted(action_dict)}")
        action = int(action_dict[agent])
        env.step(action)
        rewards = dict(env.rewards)  # this step's reward of every agent, mover or not
        if not (env.terminations[agent] or env.truncations[agent]):
            nxt = env.agent_selection
            o = env.observe(nxt)
            self._mask = o["action_mask"]  # a new array per call: safe to hand on without a copy
            return ({nxt: {OBS_KEY: o["observation"], MASK_KEY: self._mask}}, rewards, {"__all__": False}, {"__all__": False},
                    {nxt: dict(env.infos[nxt])})
        return self._game_over(agent, action, rewards)

    def _game_over(self, agent: str, action: int, rewards: dict[str, float]) -> tuple[dict, dict, dict, dict, dict]:
        """The last step: every agent gets its last observation (RLlib needs one to bootstrap a
        truncated agent's value), its reward and its done flag. Checked here, off the hot path,
        whether the game ended because ``action`` was illegal (only an illegal action ends a game
        on a move its mask forbade)."""
        env = self.env
        terminated = bool(env.terminations[agent])
        truncated = bool(env.truncations[agent]) and not terminated
        illegal = not (0 <= action < self._mask.shape[0] and self._mask[action])
        self._mask = None
        obs = {a: self._observe(a) for a in self.possible_agents}
        infos = {a: dict(env.infos[a]) for a in self.possible_agents}
        if illegal:
            self.illegal_actions += 1
            infos[agent]["illegal_action"] = action
        terms = dict.fromkeys(self.possible_agents, terminated)
        truncs = dict.fromkeys(self.possible_agents, truncated)
        terms["__all__"], truncs["__all__"] = terminated, truncated
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        """The game's text rendering (from the agent to move's seat)."""
        return self.env.unwrapped.render_text()


# ---------------------------------------------------------------------------- PPO configuration
def agent_roles(game: str, **env_kwargs: Any) -> dict[str, str]:
    """``{agent: role}`` for a table of ``game`` made with ``env_kwargs`` (module ids are roles)."""
    s = spec(resolve(game))
    u = s.make(**s.size_kwargs(None, env_kwargs)).unwrapped
    return {a: u.agent_role(a) for a in u.possible_agents}


class RoleMapping:
    """RLlib's ``policy_mapping_fn``: an agent plays with its role's module (picklable, so it
    reaches remote env runners)."""

    def __init__(self, roles: Mapping[str, str]):
        self.roles = dict(roles)

    def __call__(self, agent_id: str, episode: Any = None, **kwargs: Any) -> str:
        return self.roles[agent_id]


class IllegalActionCounter(RLlibCallback):
    """Logs :data:`ILLEGAL_ACTIONS_METRIC` (summed over episodes) in the env runners' results,
    from the ``illegal_action`` info the env puts on the offender's last step; 0 with masks."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kwargs: Any) -> None:
        last = episode.get_infos(-1)
        count = sum(1 for info in last.values() if isinstance(info, dict) and isinstance(info.get("illegal_action"), int)
                    and not isinstance(info["illegal_action"], bool) and info["illegal_action"] >= 0)
        if metrics_logger is not None:
            metrics_logger.log_value(ILLEGAL_ACTIONS_METRIC, count, reduce="sum")


def model_config(hiddens: Sequence[int] = (128, 128)) -> dict[str, Any]:
    """The modules' network: ``hiddens`` tanh layers, separate actor and critic (RLlib's
    ``DefaultModelConfig`` keys)."""
    return {"fcnet_hiddens": list(hiddens), "fcnet_activation": "tanh", "vf_share_layers": False}


def module_spec(game: str, role: str | None = None, *, hiddens: Sequence[int] = (128, 128), module_class: type | None = None,
                **env_kwargs: Any) -> RLModuleSpec:
    """The ``RLModuleSpec`` :func:`ppo_config` uses for ``role`` (default: the game's first role),
    with its observation and action spaces filled in: ``module_spec(...).build()`` makes a module
    that takes a trained one's weights (``set_state``)."""
    env = MythzooMultiAgentEnv({"env": game, **env_kwargs})
    role = role or env.role(env.possible_agents[0])
    agent = next((a for a in env.possible_agents if env.role(a) == role), None)
    if agent is None:
        raise ValueError(f"{env.game.env_name} has no role {role!r}; roles: {', '.join(dict.fromkeys(map(env.role, env.possible_agents)))}")
    return RLModuleSpec(module_class=module_class or ActionMaskingTorchRLModule, observation_space=env.observation_spaces[agent],
                        action_space=env.action_spaces[agent], model_config=model_config(hiddens))


def ppo_config(
    game: str,
    *,
    seed: int | None = None,
    hiddens: Sequence[int] = (128, 128),
    train_batch_size: int = 2000,
    minibatch_size: int = 250,
    num_epochs: int = 4,
    lr: float = 3e-4,
    entropy_coeff: float = 0.01,
    num_env_runners: int = 0,
    module_class: type | None = None,
    **env_kwargs: Any,
) -> PPOConfig:
    """A ready RLlib ``PPOConfig`` for ``game`` with action masking, one module per role.

    ``env_kwargs`` go to the env (``num_players=3``, ``num_heroes=2``, ``reward_mode=...``).
    Module ids are the game's roles: one shared ``player`` module in Mythic Baths, ``invoker``
    and ``hero`` in Mythsgate (every hero plays with the ``hero`` module), ``innkeeper`` in the
    Innkeeper. ``module_class`` (default: RLlib's ``ActionMaskingTorchRLModule``) must read the
    ``observations``/``action_mask`` dict. Defaults suit 2 cores: sampling in the main process
    (``num_env_runners=0``), a local learner, 2,000 steps per update. ``seed`` seeds RLlib and
    the games. :class:`IllegalActionCounter` is attached as a callback. On a small machine call
    ``torch.set_num_threads(1)`` before training: sampling runs one observation per forward pass,
    and a second thread only spin-waits against the game."""
    game = resolve(game)
    s = spec(game)
    roles = agent_roles(game, **env_kwargs)
    module_ids = list(dict.fromkeys(roles.values()))
    env_config: dict[str, Any] = {"env": game, **s.size_kwargs(None, env_kwargs)}
    if seed is not None:
        env_config["seed"] = int(seed)
    cls = module_class or ActionMaskingTorchRLModule
    config = (
        PPOConfig()
        .environment(MythzooMultiAgentEnv, env_config=env_config)
        .multi_agent(policies=set(module_ids), policy_mapping_fn=RoleMapping(roles), policies_to_train=module_ids)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: RLModuleSpec(module_class=cls, model_config=model_config(hiddens)) for m in module_ids}))
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size, num_epochs=num_epochs, lr=lr, entropy_coeff=entropy_coeff)
        .callbacks(IllegalActionCounter)
    )
    if seed is not None:
        config = config.debugging(seed=int(seed))
    return config


# --------------------------------------------------------------------------------- the policy
class RLlibPolicy(BasePolicy):
    """Trained RLlib modules as a mythzoo :class:`~mythzoo.policies.base.Policy`, greedy.

    ``modules``: one RLModule for every agent, or ``{role: RLModule}`` (what
    :meth:`from_algorithm` builds). The module sees ``{"observations", "action_mask"}`` as in
    training and the action is the argmax of its (masked) logits, one forward pass per batch.
    An action outside the mask means the module does not mask: it raises ``ValueError``.
    """

    def __init__(self, modules: RLModule | Mapping[str, RLModule], name: str = "rllib"):
        self.modules = dict(modules) if isinstance(modules, Mapping) else {None: modules}
        self.name = name

    @classmethod
    def from_algorithm(cls, algo: Any, name: str = "rllib") -> RLlibPolicy:
        """The modules of a built or trained RLlib ``Algorithm``, one per module id (role)."""
        ids = list(algo.config.policies) if algo.config.policies else None
        if not ids:
            raise ValueError("the algorithm declares no modules (config.multi_agent(policies=...))")
        return cls({m: algo.get_module(m) for m in ids}, name=name)

    def _module(self, agent: str | None) -> RLModule:
        if None in self.modules:
            return self.modules[None]
        role = None if agent is None else role_of(agent)
        if role not in self.modules:
            raise ValueError(f"no RLlib module for agent {agent!r} (role {role!r}); modules: {sorted(map(str, self.modules))}")
        return self.modules[role]

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, agent: str | None = None) -> np.ndarray:
        """The module's greedy action for every row, in one forward pass."""
        masks = np.asarray(action_masks)
        for m in masks:
            check_mask(m)
        batch = {"obs": {OBS_KEY: torch.as_tensor(np.asarray(observations, dtype=np.float32)),
                         MASK_KEY: torch.as_tensor(masks.astype(np.float32))}}
        with torch.no_grad():
            out = self._module(agent).forward_inference(batch)
        actions = out["action_dist_inputs"].argmax(dim=-1).numpy().astype(np.int64)
        bad = ~masks[np.arange(len(actions)), actions].astype(bool)
        if bad.any():
            raise ValueError(f"{self.name}: the module chose illegal action {int(actions[bad][0])} for {agent}; is it a masking module?")
        return actions
