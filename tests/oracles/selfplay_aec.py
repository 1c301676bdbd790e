"""The self-play VecEnv as it was before it played through ``mythzoo.vector``: every game an AEC env,
stepped and observed one call at a time (tests only: the reference the batched self-play must equal,
transition for transition, in ``tests/test_selfplay_vector.py``)."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from mythzoo.evaluation.outcome import score_from_return
from mythzoo.training.selfplay import OpponentPool


class AECSelfPlayVecEnv(VecEnv):
    """``num_envs`` games of one AEC env; the learner's side of each is one VecEnv slot.

    ``pool`` draws the policy of every other seat: one :class:`OpponentPool` for all seats, or one
    per role (``{"invoker": ..., "hero": ...}``) in an asymmetric game, where each seat is drawn
    from the pool of its role (the learner's teammates from its own role's pool).
    """

    def __init__(
        self,
        make_env: Callable[[], Any],
        num_envs: int,
        pool: OpponentPool | Mapping[str, OpponentPool],
        learner_agents: Sequence[str] | None = None,
        seed: int = 0,
    ):
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.games = [make_env() for _ in range(num_envs)]
        e0 = self.games[0]
        # The games may differ in their seats (a batch mixing table sizes): each game's own agents,
        # and every agent of any game for the role and team maps.
        self.game_agents = [list(g.possible_agents) for g in self.games]
        self.agents = list(dict.fromkeys(a for agents in self.game_agents for a in agents))
        self.learner_agents = list(learner_agents) if learner_agents else list(self.agents)
        bad = [a for a in self.learner_agents if a not in self.agents]
        if bad:
            raise ValueError(f"learner agents {bad} are not agents of this env ({self.agents})")
        self.learner_choices = [[a for a in self.learner_agents if a in agents] for agents in self.game_agents]
        if not all(self.learner_choices):
            raise ValueError(f"learner agents {self.learner_agents}: some games have none of these seats")
        first = self.learner_agents[0]
        owner = {a: g for g in reversed(self.games) for a in g.possible_agents}  # a game that has each agent
        obs_space = owner[first].observation_space(first)["observation"]
        act_space = owner[first].action_space(first)
        for a in self.learner_agents:
            if owner[a].observation_space(a)["observation"].shape != obs_space.shape or owner[a].action_space(a).n != act_space.n:
                raise ValueError("all learner agents must share one observation and action size (one role)")
        super().__init__(num_envs, spaces.Box(-np.inf, np.inf, obs_space.shape, np.float32), act_space)
        self.role = {a: owner[a].unwrapped.agent_role(a) for a in self.agents}
        self.team = {a: owner[a].unwrapped.agent_team(a) for a in self.agents}
        if isinstance(pool, OpponentPool):
            self.pools = {r: pool for r in self.role.values()}
        else:
            # A seat needs a pool when some game gives it to an opponent or a teammate.
            needed = {self.role[a] for a in self.agents if a not in self.learner_agents or len(self.learner_agents) > 1}
            missing = sorted(needed - set(pool))
            if missing:
                raise ValueError(f"no opponent pool for roles {missing}; pools given for {sorted(pool)}")
            self.pools = dict(pool)
        self.pool = self.pools[self.role[first]]  # the learner's own role's pool
        self.rng = np.random.default_rng(seed)
        self.next_seed = int(self.rng.integers(2**31))
        self.learner = [""] * num_envs
        self.seat_policy: list[dict[str, str]] = [{} for _ in range(num_envs)]
        self.lengths = [0] * num_envs
        self.returns = [0.0] * num_envs
        self.starts = [0.0] * num_envs
        self._obs = np.zeros((num_envs, obs_space.shape[0]), dtype=np.float32)
        self._masks = np.zeros((num_envs, act_space.n), dtype=bool)
        self._actions: np.ndarray | None = None
        self.finished_games = 0

    # ---------------------------------------------------------------- games
    def _new_game(self, i: int) -> None:
        env = self.games[i]
        env.reset(seed=self.next_seed)
        self.next_seed += 1
        choices = self.learner_choices[i]
        learner = choices[int(self.rng.integers(len(choices)))]
        self.learner[i] = learner
        self.seat_policy[i] = {a: self.pools[self.role[a]].sample() for a in self.game_agents[i] if a != learner}
        self.lengths[i] = 0
        self.returns[i] = 0.0
        self.starts[i] = time.time()

    def _advance(self, idxs: Sequence[int]) -> list[tuple[int, float, bool, np.ndarray]]:
        """Play opponents (batched) until each game has the learner to move or is over.
        Returns the finished games as (index, learner reward, truncated, learner's last observation)."""
        finished = []
        pending = list(idxs)
        while pending:
            groups: dict[tuple[str, str], list[tuple[int, str, dict[str, np.ndarray]]]] = defaultdict(list)
            still = []
            for i in pending:
                env = self.games[i]
                agent = env.agent_selection
                if env.terminations[agent] or env.truncations[agent]:
                    learner = self.learner[i]
                    obs = env.observe(learner)["observation"]
                    finished.append((i, float(env.cumulative_reward(learner)), bool(env.truncations[agent]), obs))
                    continue
                o = env.observe(agent)
                if agent == self.learner[i]:
                    self._obs[i] = o["observation"]
                    self._masks[i] = o["action_mask"].astype(bool)
                    continue
                groups[(self.role[agent], self.seat_policy[i][agent])].append((i, agent, o))
                still.append(i)
            for (role, key), items in groups.items():
                policy = self.pools[role].policies[key]
                in_env = getattr(policy, "act_in_env", None)
                if callable(in_env):  # a search opponent decides from the game itself
                    actions = [in_env(self.games[i], agent) for i, agent, _ in items]
                else:
                    obs = np.stack([o["observation"] for _, _, o in items])
                    masks = np.stack([o["action_mask"] for _, _, o in items])
                    actions = policy.act_batch(obs, masks, items[0][1])
                for (i, _, _), a in zip(items, actions):
                    self.games[i].step(int(a))
            pending = still
        return finished

    # --------------------------------------------------------------- VecEnv
    def reset(self) -> np.ndarray:
        """Start a new game in every slot and return the learner's first observations."""
        for i in range(self.num_envs):
            self._new_game(i)
        done = self._advance(range(self.num_envs))
        self._restart(done, [{} for _ in range(self.num_envs)])
        return self._obs.copy()

    def _restart(self, finished: list[tuple[int, float, bool, np.ndarray]], infos: list[dict[str, Any]]) -> None:
        # A game can end before the learner ever moves (an opponent's illegal move, a tiny turn cap): start another.
        while finished:
            idxs = [i for i, *_ in finished]
            for i in idxs:
                self._new_game(i)
            finished = self._advance(idxs)

    def step_async(self, actions: np.ndarray) -> None:
        """Store the learner's actions (one per game)."""
        self._actions = np.asarray(actions)

    def step_wait(self):
        """Apply the learner's actions, let opponents reply, end/restart finished games."""
        assert self._actions is not None, "step_async must come first"
        n = self.num_envs
        for i in range(n):
            self.games[i].step(int(self._actions[i]))
            self.lengths[i] += 1
        finished = self._advance(range(n))
        # Rewards paid between the learner's moves (a game's shaped per-step rewards, or an
        # opponent's move that ends the game) accumulate in the env for the learner's agent since
        # its last action: read them for every game, not only for games that ended.
        rewards = np.array([g.cumulative_reward(self.learner[i]) for i, g in enumerate(self.games)], dtype=np.float32)
        dones = np.zeros(n, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(n)]
        for i in range(n):
            self.returns[i] += float(rewards[i])
        for i, reward, truncated, last_obs in finished:
            rewards[i] = reward
            dones[i] = True
            infos[i] = {
                "terminal_observation": last_obs.copy(),
                "TimeLimit.truncated": truncated,
                "episode": {"r": self.returns[i], "l": self.lengths[i], "t": round(time.time() - self.starts[i], 6)},
                "learner_agent": self.learner[i],
                "opponents": dict(self.seat_policy[i]),
            }
            score = score_from_return(self.returns[i])  # the game's return: its sign is the result in every reward mode
            learner_team = self.team[self.learner[i]]
            for role, key in {(self.role[a], k) for a, k in self.seat_policy[i].items() if self.team[a] != learner_team}:
                self.pools[role].record(key, score)
            self.finished_games += 1
        self._restart([f for f in finished], infos)
        self._actions = None
        return self._obs.copy(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game (never all zero)."""
        return self._masks.copy()

    def close(self) -> None:
        """Close every game."""
        for g in self.games:
            g.close()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        """Attributes of the games (SB3 VecEnv API)."""
        return [getattr(self.games[i], attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        """Set an attribute on the games (SB3 VecEnv API)."""
        for i in self._get_indices(indices):
            setattr(self.games[i], attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        """``action_masks`` answers from the batch; other methods are called on the games."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            return [self._masks[i].copy() for i in idx]
        return [getattr(self.games[i], method_name)(*method_args, **method_kwargs) for i in idx]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        """No gymnasium wrappers inside."""
        return [False for _ in self._get_indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """``action_masks`` is provided by the VecEnv itself (MaskablePPO checks for it)."""
        return attr_name == "action_masks" or hasattr(self.games[0], attr_name)

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Reseed the game and seat draws."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            self.next_seed = int(self.rng.integers(2**31))
        return [seed] * self.num_envs

    def get_images(self):
        """No images: the games render as text."""
        return [None] * self.num_envs
