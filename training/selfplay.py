"""Many self-play games in one process, as one SB3 VecEnv, with batched opponents.

The learner plays one seat per game (drawn each game from ``learner_agents``); every other seat
is played by an opponent sampled from an :class:`OpponentPool`. After the learner's actions are
applied, opponents move until the learner is to move again in every game, with ONE ``act_batch``
call per opponent policy per round over all games where that policy is to move.

Credit: a game can end on an opponent's move. The learner's reward is then read from the env's
accumulated rewards for the learner's agent, so it always reaches the learner (PettingZoo's own
SB3 tutorial lost it: PettingZoo issue #1147). The learner never sees an all-zero mask: it is
only asked to act when it is the agent to move in a live game. A finished game counts for the
opponents' weighting by the sign of the learner's return
(``mythzoo.evaluation.outcome.score_from_return``).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from mythzoo.evaluation.outcome import score_from_return
from mythzoo.policies.base import Policy
from mythzoo.training.games import EnvKwargs, GameMaker, game_maker, runner_games  # noqa: F401  (re-exported: callers import them from here)


class OpponentPool:
    """Opponents by key, and the mix they are drawn from.

    Categories: ``latest`` (the learner, frozen at its last snapshot), ``past`` (earlier
    snapshots and registry checkpoints), ``baselines`` (random, heuristic). ``mix`` gives each
    category's probability; categories without members are skipped and the rest renormalized.
    Within ``past`` and ``baselines`` the draw is weighted toward the opponents the learner still
    loses to (prioritized fictitious self-play): a baseline it has mastered fades to a trickle
    (``pfsp_floor``) instead of wasting a fixed share of the games.

    A member is any policy object (the :class:`~mythzoo.policies.base.Policy` protocol: the pool
    calls only ``act_batch``), a policy trained elsewhere as well as mythzoo's own; with worker
    processes (``num_workers``) it must be picklable, as each worker gets a copy.
    """

    def __init__(self, mix: dict[str, float], seed: int = 0, pfsp_floor: float = 0.1):
        unknown = set(mix) - {"latest", "past", "baselines"}
        if unknown:
            raise ValueError(f"unknown opponent categories {sorted(unknown)}; use latest, past, baselines")
        if any(p < 0 for p in mix.values()) or sum(mix.values()) <= 0:
            raise ValueError(f"opponent mix must be non-negative and not all zero: {mix}")
        self.mix = dict(mix)
        self.members: dict[str, list[str]] = {"latest": [], "past": [], "baselines": []}
        self.policies: dict[str, Policy] = {}
        self.rng = np.random.default_rng(seed)
        self.pfsp_floor = pfsp_floor
        # Learner results against each opponent (exponential moving average of its score in [0, 1]).
        self.score: dict[str, float] = {}
        self.games: dict[str, int] = defaultdict(int)

    def add(self, category: str, key: str, policy: Policy) -> None:
        """Add or replace an opponent (``category``: latest, past or baselines)."""
        if category not in self.members:
            raise ValueError(f"unknown opponent category {category!r}; use latest, past, baselines")
        if not callable(getattr(policy, "act_batch", None)):
            raise TypeError(f"opponent {key!r} is a {type(policy).__name__} without act_batch(observations, action_masks, agent)")
        if key not in self.members[category]:
            self.members[category].append(key)
        self.policies[key] = policy

    def sample(self) -> str:
        """Draw an opponent key according to the mix (and PFSP weights within ``past`` and ``baselines``)."""
        cats = [c for c, p in self.mix.items() if p > 0 and self.members[c]]
        if not cats:
            cats = [c for c in self.members if self.members[c]]
            if not cats:
                raise RuntimeError("the opponent pool is empty")
            probs = np.full(len(cats), 1.0 / len(cats))
        else:
            probs = np.array([self.mix[c] for c in cats], dtype=np.float64)
            probs /= probs.sum()
        cat = cats[int(self.rng.choice(len(cats), p=probs))]
        keys = self.members[cat]
        if cat != "latest" and len(keys) > 1:
            w = np.array([1.0 - self.score.get(k, 0.5) + self.pfsp_floor for k in keys])
            return keys[int(self.rng.choice(len(keys), p=w / w.sum()))]
        return keys[int(self.rng.integers(len(keys)))]

    def record(self, key: str, learner_score: float, alpha: float = 0.05) -> None:
        """Update the learner's running score against ``key`` (1 win, 0.5 draw, 0 loss)."""
        self.games[key] += 1
        old = self.score.get(key, 0.5)
        self.score[key] = old + alpha * (learner_score - old)


class SelfPlayVecEnv(VecEnv):
    """``num_envs`` self-play games of one env; the learner's side of each is one VecEnv slot.

    The games are played through the batched API (:mod:`mythzoo.vector`): one
    :class:`~mythzoo.vector.VectorGames` per entry of ``env_kwargs`` (one dict, or a list of them:
    slot ``k`` then plays ``env_kwargs[k % len]``, so one batch can mix table sizes), whose rules
    write each mover's observation and mask into its row; opponents read their rows in one gather
    per policy. ``pool`` draws the policy of every other seat: one :class:`OpponentPool` for all
    seats, or one per role (``{"invoker": ..., "hero": ...}``) in an asymmetric game, where each
    seat is drawn from the pool of its role (the learner's teammates from its own role's pool).
    Game ``k`` started in the batch is dealt seed ``s + k`` (``s`` drawn from ``seed``), the same
    deal the AEC env gives that seed.
    """

    def __init__(
        self,
        env_name: str,
        env_kwargs: EnvKwargs,
        num_envs: int,
        pool: OpponentPool | Mapping[str, OpponentPool],
        learner_agents: Sequence[str] | None = None,
        seed: int = 0,
    ):
        from mythzoo.vector import VectorGames

        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        variants = [dict(env_kwargs)] if isinstance(env_kwargs, Mapping) else [dict(k) for k in env_kwargs]
        if not variants:
            raise ValueError("env_kwargs: an empty list of variants")
        nv = len(variants)
        counts = [len(range(v, num_envs, nv)) for v in range(nv)]
        # Slot i plays game i // nv of table i % nv (the tables with a game at all).
        self.tables = [VectorGames(env_name, c, autoreset=False, **variants[v]) for v, c in enumerate(counts) if c > 0]
        self.slot = [(i % nv, i // nv) for i in range(num_envs)]
        self._table_slots = [list(range(v, num_envs, nv)) for v in range(len(self.tables))]  # table v's games, in order
        # The games may differ in their seats (a batch mixing table sizes): each game's own agents,
        # and every agent of any game for the role and team maps.
        self.game_agents = [list(self.tables[v].possible_agents) for v, _ in self.slot]
        self.agents = list(dict.fromkeys(a for agents in self.game_agents for a in agents))
        self.learner_agents = list(learner_agents) if learner_agents else list(self.agents)
        bad = [a for a in self.learner_agents if a not in self.agents]
        if bad:
            raise ValueError(f"learner agents {bad} are not agents of this env ({self.agents})")
        self.learner_choices = [[a for a in self.learner_agents if a in agents] for agents in self.game_agents]
        if not all(self.learner_choices):
            raise ValueError(f"learner agents {self.learner_agents}: some games have none of these seats")
        first = self.learner_agents[0]
        owner = {a: t.env for t in reversed(self.tables) for a in t.possible_agents}  # a game that has each agent
        obs_space = owner[first].observation_space(first)["observation"]
        act_space = owner[first].action_space(first)
        for a in self.learner_agents:
            if owner[a].observation_space(a)["observation"].shape != obs_space.shape or owner[a].action_space(a).n != act_space.n:
                raise ValueError("all learner agents must share one observation and action size (one role)")
        self.role = {a: owner[a].agent_role(a) for a in self.agents}
        self.team = {a: owner[a].agent_team(a) for a in self.agents}
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
        super().__init__(num_envs, spaces.Box(-np.inf, np.inf, obs_space.shape, np.float32), act_space)
        self.rng = np.random.default_rng(seed)
        self.next_seed = int(self.rng.integers(2**31))
        self.learner = [""] * num_envs
        self.learner_seat = [0] * num_envs
        self.seat_policy: list[dict[str, str]] = [{} for _ in range(num_envs)]
        self.lengths = [0] * num_envs
        self.returns = [0.0] * num_envs
        self.starts = [0.0] * num_envs
        self.truncated = [False] * num_envs  # how each slot's last game ended
        self._obs = np.zeros((num_envs, obs_space.shape[0]), dtype=np.float32)
        self._masks = np.zeros((num_envs, act_space.n), dtype=bool)
        self._actions: np.ndarray | None = None
        self.finished_games = 0

    # ---------------------------------------------------------------- games
    def _new_game(self, i: int) -> None:
        v, j = self.slot[i]
        table = self.tables[v]
        table.start_game(j, self.next_seed)
        self.next_seed += 1
        choices = self.learner_choices[i]
        learner = choices[int(self.rng.integers(len(choices)))]
        self.learner[i] = learner
        self.learner_seat[i] = table.possible_agents.index(learner)
        self.seat_policy[i] = {a: self.pools[self.role[a]].sample() for a in self.game_agents[i] if a != learner}
        self.lengths[i] = 0
        self.returns[i] = 0.0
        self.starts[i] = time.time()
        self.truncated[i] = False

    def _play(self, idxs: Sequence[int], actions: Sequence[int]) -> None:
        """One action in each game of ``idxs``, through each table's ``step_games`` (one call per table)."""
        if len(self.tables) == 1:
            slot, table = self.slot, self.tables[0]
            batch = table._step_trusted([slot[i][1] for i in idxs], [int(a) for a in actions])
            if table._ended_last:  # a Python list: no numpy call per step when no game ended
                for i in idxs:
                    if batch.truncations[slot[i][1]]:
                        self.truncated[i] = True
            return
        by_table: dict[int, tuple[list[int], list[int], list[int]]] = {}
        for i, a in zip(idxs, actions):
            v, j = self.slot[i]
            slots, js, acts = by_table.setdefault(v, ([], [], []))
            slots.append(i)
            js.append(j)
            acts.append(int(a))
        for v, (slots, js, acts) in by_table.items():
            batch = self.tables[v]._step_trusted(js, acts)
            if self.tables[v]._ended_last:
                for i, j in zip(slots, js):
                    if batch.truncations[j]:
                        self.truncated[i] = True

    def _advance(self, idxs: Sequence[int]) -> list[tuple[int, float, bool, np.ndarray]]:
        """Play opponents (batched) until each game has the learner to move or is over.
        Returns the finished games as (index, learner reward, truncated, learner's last observation).
        The learner's rows are read in bulk afterwards (:meth:`_read_learner_rows`)."""
        finished = []
        pending = list(idxs)
        tables, slot, learner_seat, role_of = self.tables, self.slot, self.learner_seat, self.role
        while pending:
            groups: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
            still = []
            for i in pending:
                v, j = slot[i]
                table = tables[v]
                seat = table._mover[j]
                if seat < 0:  # the game is over
                    ls = learner_seat[i]
                    finished.append((i, table._cum_rows[j][ls], self.truncated[i], table.observe(j, ls)))
                    continue
                if seat == learner_seat[i]:
                    continue
                agent = table.possible_agents[seat]
                groups[(role_of[agent], self.seat_policy[i][agent])].append((i, agent))
                still.append(i)
            for (role, key), items in groups.items():
                policy = self.pools[role].policies[key]
                in_env = getattr(policy, "act_in_env", None)
                if callable(in_env):  # a search opponent decides from the game itself
                    actions = [in_env(tables[slot[i][0]].game_env(slot[i][1]), agent) for i, agent in items]
                else:
                    obs, masks = self._gather(role, [i for i, _ in items])
                    actions = policy.act_batch(obs, masks, items[0][1])
                self._play([i for i, _ in items], actions)
            pending = still
        return finished

    def _read_learner_rows(self) -> None:
        """Every game has the learner to move: its observation and mask rows, one gather per table."""
        role = self.role[self.learner_agents[0]]
        for v, table in enumerate(self.tables):
            b = table.batch
            if len(self.tables) == 1:
                self._obs[:] = b.observations[role]
                self._masks[:] = b.action_masks[role]
            else:
                slots = self._table_slots[v]
                self._obs[slots] = b.observations[role]
                self._masks[slots] = b.action_masks[role]

    def _gather(self, role: str, idxs: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The movers' observation and mask rows of ``role`` for the games ``idxs`` (new arrays)."""
        if len(self.tables) == 1:
            js = [self.slot[i][1] for i in idxs]
            b = self.tables[0].batch
            return b.observations[role][js], b.action_masks[role][js]
        rows = [(self.tables[self.slot[i][0]].batch, self.slot[i][1]) for i in idxs]
        return np.stack([b.observations[role][j] for b, j in rows]), np.stack([b.action_masks[role][j] for b, j in rows])

    # --------------------------------------------------------------- VecEnv
    def reset(self) -> np.ndarray:
        """Start a new game in every slot and return the learner's first observations."""
        for i in range(self.num_envs):
            self._new_game(i)
        done = self._advance(range(self.num_envs))
        self._restart(done, [{} for _ in range(self.num_envs)])
        self._read_learner_rows()
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
        self._play(range(n), self._actions.tolist())
        for i in range(n):
            self.lengths[i] += 1
        finished = self._advance(range(n))
        # Rewards paid between the learner's moves (a game's shaped per-step rewards, or an
        # opponent's move that ends the game) accumulate for the learner's seat since its last
        # action (the AEC env's cumulative reward): read them for every game, not only for games that ended.
        tables, seat = self.tables, self.learner_seat
        rewards = np.array([tables[v]._cum_rows[j][seat[i]] for i, (v, j) in enumerate(self.slot)], dtype=np.float32)
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
        self._read_learner_rows()
        self._actions = None
        return self._obs.copy(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game (never all zero)."""
        return self._masks.copy()

    def close(self) -> None:
        """Nothing to release: the games are plain data."""

    def game_env(self, i: int) -> Any:
        """Slot ``i``'s game as a raw AEC env (see :meth:`mythzoo.vector.VectorGames.game_env`)."""
        v, j = self.slot[i]
        return self.tables[v].game_env(j)

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        """Attributes of the games' envs (SB3 VecEnv API)."""
        return [getattr(self.game_env(i), attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        """Games are rows of a batch: their attributes cannot be set one by one."""
        raise NotImplementedError(f"SelfPlayVecEnv cannot set {attr_name!r} on its games (they are played through mythzoo.vector)")

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        """``action_masks`` answers from the batch; other methods are called on the games' envs (read only)."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            return [self._masks[i].copy() for i in idx]
        return [getattr(self.game_env(i), method_name)(*method_args, **method_kwargs) for i in idx]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        """No gymnasium wrappers inside."""
        return [False for _ in self._get_indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """``action_masks`` is provided by the VecEnv itself (MaskablePPO checks for it)."""
        return attr_name == "action_masks" or hasattr(self.tables[0].env, attr_name)

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Reseed the game and seat draws."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            self.next_seed = int(self.rng.integers(2**31))
        return [seed] * self.num_envs

    def get_images(self):
        """No images: the games render as text."""
        return [None] * self.num_envs
