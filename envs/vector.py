"""Many games of one env stepped together into preallocated arrays (EnvPool / Pgx style).

    from mythzoo.vector import make
    games = make("mythic_baths", num_envs=256, num_players=2)
    batch = games.reset(seed=0)
    while ...:
        actions = my_policy(batch.observations, batch.action_masks, batch.seat)   # one action per game
        batch = games.step(actions)

A :class:`VectorGames` holds ``num_envs`` games of one env: one rules object, one observer and ``N``
plain-data states (a step is a function of a state, as in Pgx). Every call writes into the same
arrays, which :class:`Batch` exposes (views, overwritten by the next call: copy what you keep):

- ``seat[i]``: the seat to move in game ``i`` (``-1`` for a finished game when ``autoreset=False``);
  ``role[i]``: its role's index in ``roles``.
- ``observations[role]`` float32 ``[N, L_role]`` and ``action_masks[role]`` int8 ``[N, A_role]``, one
  pair per role (Mythsgate's invoker and heroes have different sizes; the symmetric games and the
  solo game have one role). Row ``i`` of game ``i``'s moving role holds the mover's observation and
  mask; the rows of the other roles for that game are all zero. A game that must act always has at
  least one legal action in its mask.
- ``rewards`` float32 ``[N, num_seats]``: what this step paid every seat of every game (the AEC env's
  ``rewards`` after the same step: 0 mid-game unless the reward is shaped, the final rewards on the
  step that ends the game). An AEC agent's ``last()`` reward is the sum of these since its last move.
- ``terminations`` / ``truncations`` bool ``[N]``: game ``i`` ended on this step (by its rules, or by
  ``max_turns``).
- ``cumulative_rewards`` float64 ``[N, num_seats]``: each seat's reward since its own last move in
  game ``i`` (what the AEC env's ``last()`` returns for it when it is next to move, summed in the
  same double precision; zero for every seat when a game starts).

Finished games (``autoreset=True``, the default) start again **in the same step**: on the step
where ``terminations[i]`` or ``truncations[i]`` is set, ``rewards[i]`` holds the finished game's
final rewards, and ``seat``, ``observations`` and ``action_masks`` already show the new game's first
decision (SB3's ``VecEnv`` convention). The finished game's final observations are not delivered; a
caller that needs them (bootstrapping a truncated game) uses ``autoreset=False``, reads
:meth:`VectorGames.observe` and then calls :meth:`VectorGames.reset_done`. Seeds: ``reset(seed)``
starts game ``i`` with ``seed + i``; the ``k``-th automatic reset of slot ``i`` (k = 1, 2, ...) uses
``seed + i + k * N``; so each game is the AEC env's game for that seed, decision for decision
(``tests/test_vector.py`` checks it against N separate envs, for every env and table size).

The solo game (the Innkeeper) is also a Gymnasium ``VectorEnv`` with action masks:
:func:`make_gymnasium` (:class:`SoloVectorEnv`).

Actions: one int per game (any integer array-like of length ``N``); a finished game with
``autoreset=False`` takes ``-1``. Every action is checked before any is applied: an out-of-range
or illegal action raises ``IllegalActionError`` naming the game, and no game moves.

Callers that schedule games themselves (self-play: the learner's games wait while opponents move
in others) use :meth:`VectorGames.step_games` (some games, one action each) and
:meth:`VectorGames.start_game` (one slot, its own seed); ``cumulative_rewards`` then tells each
seat what it earned since its last move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mythzoo.envs.core.errors import IllegalActionError

__all__ = ["Batch", "SoloVectorEnv", "VectorGames", "make", "make_gymnasium"]


class Batch(NamedTuple):
    """The arrays one :meth:`VectorGames.reset` or :meth:`VectorGames.step` wrote (views, see the module doc)."""

    seat: np.ndarray
    role: np.ndarray
    observations: dict[str, np.ndarray]
    action_masks: dict[str, np.ndarray]
    rewards: np.ndarray
    terminations: np.ndarray
    truncations: np.ndarray
    cumulative_rewards: np.ndarray


class VectorGames:
    """``num_envs`` games of the env ``env`` (any name :func:`mythzoo.envs.make` takes), stepped together.

    ``env_kwargs`` are the env's own arguments (``num_players``, ``num_heroes``, ``max_turns``,
    ``reward_mode``...), the same for every game."""

    def __init__(self, env: str, num_envs: int, *, autoreset: bool = True, **env_kwargs: Any):
        from mythzoo.envs import spec

        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        self.spec = spec(env)
        # One raw env per game for its rules, observer and reward hooks (its own AEC state is unused):
        # the observers and rules keep caches of what their game showed last (decks, token rows), which
        # one object shared by N games would miss at every call.
        self._envs = [self.spec.make_raw(**env_kwargs) for _ in range(num_envs)]
        self.env = self._envs[0]
        self.env_name = self.env.metadata["name"]
        self.env_kwargs = dict(env_kwargs)
        self.num_envs = num_envs
        self.autoreset = bool(autoreset)
        self.rules = self.env.rules
        self.observer = self.env.observer
        self.possible_agents: list[str] = list(self.env.possible_agents)
        self.num_seats = len(self.possible_agents)
        roles: list[str] = []
        for agent in self.possible_agents:
            role = self.env.agent_role(agent)
            if role not in roles:
                roles.append(role)
        self.roles: tuple[str, ...] = tuple(roles)
        self.seat_role = np.array([roles.index(self.env.agent_role(a)) for a in self.possible_agents], dtype=np.int64)
        first = {r: self.possible_agents[list(self.seat_role).index(k)] for k, r in enumerate(roles)}
        self.observation_sizes = {r: int(self.env.observation_space(a)["observation"].shape[0]) for r, a in first.items()}
        self.action_sizes = {r: int(self.env.action_space(a).n) for r, a in first.items()}
        n = num_envs
        self._obs = {r: np.zeros((n, self.observation_sizes[r]), dtype=np.float32) for r in roles}
        self._mask = {r: np.zeros((n, self.action_sizes[r]), dtype=np.int8) for r in roles}
        self._obs_by_seat = [self._obs[roles[k]] for k in self.seat_role]
        self._mask_by_seat = [self._mask[roles[k]] for k in self.seat_role]
        self._seat_role = [int(k) for k in self.seat_role]
        self._mask_sizes = [self._mask_by_seat[k].shape[1] for k in range(self.num_seats)]
        self._mask_bytes = [memoryview(m).cast("B") for m in self._mask_by_seat]  # each role's masks as one byte buffer
        self._seat = np.full(n, -1, dtype=np.int64)
        self._mover = [-1] * n  # ``_seat`` as Python ints: the per-game loops read these, not numpy scalars
        self._role = np.full(n, -1, dtype=np.int64)
        self._rewards = np.zeros((n, self.num_seats), dtype=np.float32)
        self._term = np.zeros(n, dtype=bool)
        self._trunc = np.zeros(n, dtype=bool)
        self._cum = np.zeros((n, self.num_seats), dtype=np.float64)
        self._cum_rows = [[0.0] * self.num_seats for _ in range(n)]  # ``_cum`` as Python floats, written in bulk
        self._cum_stale = [False] * n  # an automatic reset left the finished game's sums for one step
        self._paid_last: list[int] = []  # rows of ``rewards`` the last call set
        self._ended_last: list[int] = []  # rows of ``terminations``/``truncations`` the last call set
        self.states: list[Any] = [None] * n
        self._legal: list[list[int]] = [[] for _ in range(n)]
        self._pot: list[list[float] | None] = [None] * n
        self._seed: int | None = None
        self._resets = [0] * n  # games started in each slot since reset()
        self.batch = Batch(self._seat, self._role, self._obs, self._mask, self._rewards, self._term, self._trunc, self._cum)

    # ------------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None) -> Batch:
        """Start every game: game ``i`` with ``seed + i`` (``None``: unseeded games)."""
        if seed is not None and (not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0):
            raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
        self._seed = None if seed is None else int(seed)
        self._rewards[:] = 0.0
        self._term[:] = False
        self._trunc[:] = False
        for i in range(self.num_envs):
            self._resets[i] = 0
            self._start(i)
        return self.batch

    def reset_done(self) -> Batch:
        """``autoreset=False``: start a new game in every finished slot (seeds as the automatic resets)."""
        for i in range(self.num_envs):
            if self._mover[i] < 0:
                self._start(i)
        return self.batch

    def start_game(self, i: int, seed: int | None) -> None:
        """Start a new game in slot ``i`` (finished or not) with ``seed``; the other slots are untouched."""
        if type(i) is not int or not 0 <= i < self.num_envs:
            raise ValueError(f"game index must be an int in 0..{self.num_envs - 1}, got {i!r}")
        if seed is not None and (not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0):
            raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
        self._begin(i, None if seed is None else int(seed))

    def _game_seed(self, i: int) -> int | None:
        return None if self._seed is None else self._seed + i + self._resets[i] * self.num_envs

    def _start(self, i: int, keep_sums: bool = False) -> None:
        self._begin(i, self._game_seed(i), keep_sums)
        self._resets[i] += 1

    def _begin(self, i: int, seed: int | None, keep_sums: bool = False) -> None:
        env = self._envs[i]
        s = env.rules.initial_state(seed)
        if keep_sums:
            self._cum_stale[i] = True
        else:
            self._cum[i] = 0.0
            self._cum_rows[i] = [0.0] * self.num_seats
            self._cum_stale[i] = False
        self.states[i] = s
        if env.shaped:
            self._pot[i] = list(env._potential(s))
        self._show(i, s)

    def _show(self, i: int, s: Any, bulk: bool = False) -> None:
        """Write game ``i``'s mover, observation and mask (its previous mover's rows cleared).
        ``bulk``: the caller writes ``seat`` and ``role`` for many games at once afterwards."""
        env = self._envs[i]
        rules = env.rules
        seat = rules.current_player(s)
        old = self._mover[i]
        if old >= 0 and (seat < 0 or self._seat_role[seat] != self._seat_role[old]):
            self._mask_by_seat[old][i] = 0  # the mover's role changed: its old rows go back to zero
            self._obs_by_seat[old][i] = 0.0
        self._mover[i] = seat
        if not bulk:
            self._seat[i] = seat
            self._role[i] = self._seat_role[seat] if seat >= 0 else -1
        if seat < 0:
            self._legal[i] = []
            return
        legal = rules.legal_actions(s)
        self._legal[i] = legal
        size = self._mask_sizes[seat]
        mask = bytearray(size)  # bytes set in Python, one copy into the row's bytes
        for a in legal:
            mask[a] = 1
        self._mask_bytes[seat][i * size:(i + 1) * size] = mask
        env.observer.encode(s, seat, self._obs_by_seat[seat][i])

    # ------------------------------------------------------------------ stepping
    def step(self, actions: Sequence[int] | np.ndarray) -> Batch:
        """Play one action in every game (``-1`` for a finished game); see the module doc for what is written."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers (one per game), got an array of shape {acts.shape} and dtype {acts.dtype}")
        todo = acts.tolist()
        for i, a in enumerate(todo):  # check every action before any is applied
            if self._mover[i] < 0:
                if a != -1:
                    raise IllegalActionError(f"game {i} is over (autoreset=False): its action must be -1, got {a}; reset_done() starts it again")
            else:
                self._check(i, a)
        self._play([i for i, a in enumerate(todo) if a >= 0], [a for a in todo if a >= 0])
        return self.batch

    def step_games(self, indices: Sequence[int], actions: Sequence[int]) -> Batch:
        """Play one action in each of the games ``indices`` (each must have a seat to move); the other
        games wait. ``rewards``, ``terminations`` and ``truncations`` then describe this call: zero
        for the games that waited. Checked as :meth:`step` (nothing moves on a bad action)."""
        idx, todo = list(indices), [int(a) for a in actions]
        if len(idx) != len(todo):
            raise ValueError(f"step_games: {len(idx)} game indices but {len(todo)} actions")
        if len(set(idx)) != len(idx):
            raise ValueError("step_games: a game index is given twice")
        mover, legal, n = self._mover, self._legal, self.num_envs
        for i, a in zip(idx, todo):
            if type(i) is not int or not 0 <= i < n:
                raise ValueError(f"game index must be an int in 0..{n - 1}, got {i!r}")
            if mover[i] < 0:
                raise IllegalActionError(f"game {i} is over: it has no seat to move; start_game() or reset_done() starts it again")
            if a not in legal[i]:
                self._check(i, a)
        self._play(idx, todo)
        return self.batch

    def _step_trusted(self, indices: list[int], actions: list[int]) -> Batch:
        """:meth:`step_games` for callers whose indices are distinct ints of live games (self-play's
        own bookkeeping); each action is still checked against its game's legal actions."""
        legal = self._legal
        for i, a in zip(indices, actions):
            if a not in legal[i]:
                self._check(i, a)
        self._play(indices, actions)
        return self.batch

    def _check(self, i: int, a: int) -> None:
        if a not in self._legal[i]:
            agent = self.possible_agents[self._mover[i]]
            label = self.env.action_label(a, agent) if 0 <= a < self.action_sizes[self.roles[self._role[i]]] else "out of range"
            raise IllegalActionError(f"game {i}: {agent} cannot play action {a} ({label}); legal: {self._legal[i]}")

    def _play(self, indices: list[int], actions: list[int]) -> None:
        """Apply checked actions; the AEC env's reward arithmetic (in doubles), then the next decision.
        Sums and rewards are kept in Python lists and written to the arrays once per call."""
        envs, cum_rows, mover = self._envs, self._cum_rows, self._mover
        shaped, max_turns = self.env.shaped, self.env.max_turns
        paid: list[int] = []  # games whose step paid rewards, and what
        paid_rows: list[list[float]] = []
        zeroed: list[int] = []  # games whose mover's sum went back to zero (and paid nothing)
        ended: list[tuple[int, bool]] = []  # (game, by the turn cap)
        for i, a in zip(indices, actions):
            s = self.states[i]
            env = envs[i]
            rules = env.rules
            if self._cum_stale[i]:  # the previous game's sums, kept one step by an automatic reset
                cum_rows[i] = [0.0] * self.num_seats
                self._cum_stale[i] = False
                zeroed.append(i)
            row = cum_rows[i]
            if row[mover[i]]:
                row[mover[i]] = 0.0  # the mover's sum starts again (the AEC env's step)
                if not zeroed or zeroed[-1] != i:
                    zeroed.append(i)
            rules.apply(s, a, checked=True)
            step_rewards: list[float] | None = None
            if shaped:
                pot = env._potential(s)
                old = self._pot[i]
                step_rewards = [p - o for p, o in zip(pot, old)]
                self._pot[i] = list(pot)
            over = truncated = False
            if rules.current_player(s) < 0:
                final = env._final_rewards(s)
                step_rewards = [r + float(f) for r, f in zip(step_rewards, final)] if step_rewards else [float(f) for f in final]
                over = True
            elif max_turns is not None and rules.turns_played(s) >= max_turns:
                truncated = True
            if step_rewards is not None:
                for k, r in enumerate(step_rewards):
                    row[k] += r
                paid.append(i)
                paid_rows.append(step_rewards)
            if not (over or truncated):
                self._show(i, s, bulk=True)
                continue
            ended.append((i, truncated))
        # The arrays: rewards, sums and ends of this call (the sums before any automatic reset). Only
        # the rows the last call and this one touched are written (a fancy write costs microseconds).
        rewards, cum, seat_arr, role_arr, seat_role = self._rewards, self._cum, self._seat, self._role, self._seat_role
        if len(self._paid_last) > 4:
            rewards[:] = 0.0
        else:
            for i in self._paid_last:
                rewards[i] = 0.0
        for i in self._ended_last:
            self._term[i] = self._trunc[i] = False
        if len(paid) > 8:
            rewards[paid] = paid_rows
            cum[paid] = [cum_rows[i] for i in paid]
        else:
            for i, r in zip(paid, paid_rows):
                rewards[i] = r
                cum[i] = cum_rows[i]
        for i in zeroed:
            cum[i] = cum_rows[i]
        for i in indices:
            m = mover[i]
            seat_arr[i] = m
            role_arr[i] = seat_role[m] if m >= 0 else -1
        self._paid_last = paid
        self._ended_last = [i for i, _ in ended]
        for i, truncated in ended:
            (self._trunc if truncated else self._term)[i] = True
            if self.autoreset:
                self._start(i, keep_sums=True)
            else:
                self._clear(i)

    def _clear(self, i: int) -> None:
        old = self._mover[i]
        if old >= 0:
            self._mask_by_seat[old][i] = 0
            self._obs_by_seat[old][i] = 0.0
        self._mover[i] = -1
        self._seat[i] = -1
        self._role[i] = -1
        self._legal[i] = []

    # ------------------------------------------------------------------ one game
    def game_env(self, i: int) -> Any:
        """Game ``i`` as a raw AEC env (its state is game ``i``'s, shared, not copied), for code that
        decides from a live env (the search policies' ``act_in_env``). Read it; step only through
        this object, or the batch's rows go stale."""
        env = self._envs[i]
        if self.states[i] is None:  # no game started yet: the env as made
            return env
        env.state_ = self.states[i]
        env._start_episode()
        if self._mover[i] < 0:  # a finished game: every agent done, as the AEC env leaves it
            over = env.rules.current_player(env.state_) < 0
            for a in env.agents:
                env.terminations[a], env.truncations[a] = over, not over
        if env.shaped:
            env._pot = list(self._pot[i])
        return env

    def mover(self, i: int) -> int:
        """The seat to move in game ``i`` as a Python int (``-1``: finished); what ``batch.seat[i]`` holds."""
        return self._mover[i]

    def observe(self, i: int, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation of game ``i`` now (a new array; any seat, mover or not, finished or not)."""
        return self._envs[i].observer.observation(self.states[i], seat)

    def get_state(self, i: int) -> dict[str, Any]:
        """Game ``i``'s state as the rules' plain JSON data (what ``env.get_state()["game"]`` holds)."""
        return self.rules.to_json(self.states[i])

    def scores(self, i: int) -> list[int]:
        """Every seat's current score in game ``i``."""
        return list(self.rules.scores(self.states[i]))

    def action_label(self, i: int, action: int) -> str:
        """The label of ``action`` for the seat to move in game ``i``."""
        return self.env.action_label(action, self.possible_agents[max(self._mover[i], 0)])


def make(env: str, num_envs: int, *, autoreset: bool = True, **env_kwargs: Any) -> VectorGames:
    """``num_envs`` games of ``env`` (e.g. ``make("mythic_baths", 256, num_players=2)``): see :class:`VectorGames`."""
    return VectorGames(env, num_envs, autoreset=autoreset, **env_kwargs)


try:  # Gymnasium >= 1.1 names its autoreset modes; 1.0 had only the next-step one
    from gymnasium.vector import AutoresetMode as _AutoresetMode

    _SAME_STEP: Any = _AutoresetMode.SAME_STEP
except ImportError:  # pragma: no cover - gymnasium 1.0
    _SAME_STEP = "SameStep"


def _vector_env_base() -> type:
    import gymnasium

    return gymnasium.vector.VectorEnv


class SoloVectorEnv(_vector_env_base()):  # type: ignore[misc]
    """A solo game's ``num_envs`` campaigns as a Gymnasium ``VectorEnv`` with action masks.

    Observations are ``{"observation": float32[N, L], "action_mask": int8[N, A]}`` (the single env's
    ``Dict`` space, batched); ``action_masks()`` gives the masks as bool ``[N, A]``. Rewards are the
    AEC env's. Autoreset is Gymnasium's ``SAME_STEP`` mode: the step that ends a campaign returns the
    next campaign's first observation (a legal mask, so no action is ever ignored), and
    ``infos["final_obs"]`` holds the final observations, with ``infos["_final_obs"]`` marking the
    campaigns that ended. ``reset(seed=s)`` starts campaign ``i`` with seed ``s + i``; its k-th
    restart uses ``s + i + k * N`` (``None``: unseeded). ``infos["action_mask"]`` is the mask too."""

    def __init__(self, env: str, num_envs: int, **env_kwargs: Any):
        from gymnasium.vector.utils import batch_space

        self.games = VectorGames(env, num_envs, autoreset=False, **env_kwargs)
        if self.games.num_seats != 1:
            raise ValueError(f"{self.games.env_name} has {self.games.num_seats} seats; SoloVectorEnv is for solo games (use mythzoo.vector.make)")
        aec = self.games.env
        agent = aec.possible_agents[0]
        self.num_envs = num_envs
        self.metadata = {"autoreset_mode": _SAME_STEP, "render_modes": [], "max_decisions": aec.max_decisions}
        self.render_mode = None
        self.single_observation_space = aec.observation_space(agent)
        self.single_action_space = aec.action_space(agent)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._role = self.games.roles[0]

    def _observations(self) -> dict[str, np.ndarray]:
        b = self.games.batch
        return {"observation": b.observations[self._role].copy(), "action_mask": b.action_masks[self._role].copy()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every campaign (campaign ``i`` with ``seed + i``)."""
        self.games.reset(seed=seed)
        obs = self._observations()
        return obs, {"action_mask": obs["action_mask"].copy()}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per campaign; ended campaigns restart in the same step (see the class doc)."""
        b = self.games.step(actions)
        rewards = b.rewards[:, 0].astype(np.float64)
        terminations, truncations = b.terminations.copy(), b.truncations.copy()
        infos: dict[str, Any] = {}
        ended = terminations | truncations
        if ended.any():
            final = np.zeros((self.num_envs, self.games.observation_sizes[self._role]), dtype=np.float32)
            for i in np.flatnonzero(ended):
                final[i] = self.games.observe(int(i), 0)
            done_mask = np.zeros((self.num_envs, self.games.action_sizes[self._role]), dtype=np.int8)
            infos["final_obs"] = {"observation": final, "action_mask": done_mask}
            infos["_final_obs"] = ended.copy()
            self.games.reset_done()
        obs = self._observations()
        infos["action_mask"] = obs["action_mask"].copy()
        return obs, rewards, terminations, truncations, infos

    def action_masks(self) -> np.ndarray:
        """Legal actions of every campaign as bool ``[N, A]`` (never all zero)."""
        return self.games.batch.action_masks[self._role].astype(bool)


def make_gymnasium(env: str, num_envs: int, **env_kwargs: Any) -> SoloVectorEnv:
    """A solo game's ``num_envs`` campaigns as a Gymnasium ``VectorEnv`` (see :class:`SoloVectorEnv`)."""
    return SoloVectorEnv(env, num_envs, **env_kwargs)
