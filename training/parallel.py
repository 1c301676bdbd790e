"""Self-play games spread over worker processes: one :class:`SelfPlayVecEnv` per worker.

On a machine with several cores the games (rules, observations, opponents' batched inference)
are the larger part of a rollout, and one Python process plays them on one core. This VecEnv
splits the ``num_envs`` games into ``num_workers`` contiguous blocks, each played by a
:class:`SelfPlayVecEnv` in its own process, while the learner's inference and the PPO update
stay in the main process. Worker ``w`` is seeded ``seed + 7919 * w``, so a run is reproducible
for a given ``num_workers`` (and worker 0 of a one-worker split plays exactly the in-process games).
With two workers or more, :func:`collect_rollouts_pipelined` chooses one block's next moves while
the other blocks play, so that the workers never wait for the learner's whole forward pass.

Opponents: the main process keeps the :class:`OpponentPool`; every ``add`` (a new ``latest``
snapshot, a past self) is sent to each worker, whose own pool draws the seats of its games
(PFSP statistics are kept per worker, from its own games). Messages carry arrays and policy
objects between processes of this run only; nothing is ever read back from a file with pickle.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from mythzoo.policies.base import BasePolicy
from mythzoo.threads import one_blas_thread_in_workers
from mythzoo.training.selfplay import EnvKwargs, OpponentPool, SelfPlayVecEnv

WORKER_SEED_STRIDE = 7919


def _worker(remote: Any, env_name: str, env_kwargs: EnvKwargs, num_envs: int, mixes: dict[str | None, dict[str, float]],
            members: list[tuple[str | None, str, str, BasePolicy]], learner_agents: list[str] | None, seed: int) -> None:
    """A worker's loop: build its games, then answer commands until ``close``."""
    import torch

    torch.set_num_threads(1)  # the worker never runs torch; keep its thread pool from competing
    pools = {role: OpponentPool(mix, seed=seed + k) for k, (role, mix) in enumerate(mixes.items())}
    for role, category, key, policy in members:
        pools[role].add(category, key, policy)
    pool = pools[None] if None in pools else pools  # one pool for every seat, or one per role
    vec = SelfPlayVecEnv(env_name, env_kwargs, num_envs, pool, learner_agents, seed=seed)
    try:
        while True:
            cmd, data = remote.recv()
            if cmd == "step":
                vec.step_async(data)
                obs, rewards, dones, infos = vec.step_wait()
                remote.send((obs, rewards, dones, infos, vec._masks.copy(), vec.finished_games))
            elif cmd == "reset":
                obs = vec.reset()
                remote.send((obs, vec._masks.copy()))
            elif cmd == "add":
                role, category, key, policy = data
                pools[role].add(category, key, policy)
            elif cmd == "get_attr":
                remote.send(vec.get_attr(data))
            elif cmd == "close":
                vec.close()
                remote.send(None)
                return
            else:
                raise ValueError(f"unknown worker command {cmd!r}")
    except (EOFError, KeyboardInterrupt):  # the main process went away
        return


class _BroadcastPool(OpponentPool):
    """A pool of the main process: each ``add`` is also sent to every worker."""

    def __init__(self, inner: OpponentPool, role: str | None, send: Any):
        self.__dict__.update(inner.__dict__)  # the same members and statistics as ``inner``
        self._role = role
        self._send = send

    def add(self, category: str, key: str, policy: BasePolicy) -> None:
        super().add(category, key, policy)
        self._send(("add", (self._role, category, key, policy)))


class SubprocSelfPlayVecEnv(VecEnv):
    """``num_envs`` self-play games played by ``num_workers`` processes, as one SB3 VecEnv."""

    def __init__(
        self,
        env_name: str,
        env_kwargs: EnvKwargs,
        num_envs: int,
        pool: OpponentPool | Mapping[str, OpponentPool],
        num_workers: int,
        learner_agents: Sequence[str] | None = None,
        seed: int = 0,
        start_method: str = "spawn",
    ):
        if num_workers < 1:
            raise ValueError(f"num_workers must be at least 1, got {num_workers}")
        if num_envs < num_workers:
            raise ValueError(f"num_envs ({num_envs}) must be at least num_workers ({num_workers}): each worker plays at least one game")
        probe = SelfPlayVecEnv(env_name, env_kwargs, 1 if isinstance(env_kwargs, Mapping) else len(env_kwargs), pool, learner_agents, seed=seed)  # validates the learner agents; one game per variant
        obs_space, act_space = probe.observation_space, probe.action_space
        probe_role, self._role, self._team = probe.role[probe.learner_agents[0]], probe.role, probe.team
        probe.close()
        sizes = [num_envs // num_workers + (1 if w < num_envs % num_workers else 0) for w in range(num_workers)]
        self.slices = np.cumsum([0] + sizes)
        ctx = mp.get_context(start_method)
        self.remotes, self.processes = [], []
        pools: dict[str | None, OpponentPool] = {None: pool} if isinstance(pool, OpponentPool) else dict(pool)
        mixes = {role: dict(p.mix) for role, p in pools.items()}
        members = [(role, c, k, p.policies[k]) for role, p in pools.items() for c, keys in p.members.items() for k in keys]
        # Workers run small numpy matrix products (opponents' networks): one BLAS thread each.
        with one_blas_thread_in_workers():
            self._start(ctx, sizes, env_name, env_kwargs, mixes, members, learner_agents, seed)
        broadcast = {role: _BroadcastPool(p, role, self._broadcast) for role, p in pools.items()}
        # What training sees: the pool(s) whose adds reach the workers, shaped as given.
        self.pools: OpponentPool | dict[str, OpponentPool] = broadcast[None] if None in broadcast else broadcast
        self.pool = broadcast[None] if None in broadcast else broadcast[probe_role]
        self._record_pools = broadcast
        self._masks = np.zeros((num_envs, act_space.n), dtype=bool)
        self._worker_finished = [0] * num_workers
        self._in_flight = [False] * num_workers
        self.closed = False
        super().__init__(num_envs, spaces.Box(-np.inf, np.inf, obs_space.shape, np.float32), act_space)

    def _start(self, ctx: Any, sizes: list[int], env_name: str, env_kwargs: EnvKwargs, mixes: dict[str | None, dict[str, float]],
               members: list[tuple[str | None, str, str, BasePolicy]], learner_agents: Sequence[str] | None, seed: int) -> None:
        for w, size in enumerate(sizes):
            parent, child = ctx.Pipe()
            args = (child, env_name, env_kwargs, size, mixes, members,
                    list(learner_agents) if learner_agents else None, seed + WORKER_SEED_STRIDE * w)
            proc = ctx.Process(target=_worker, args=args, daemon=True, name=f"mythzoo-selfplay-{w}")
            proc.start()
            child.close()
            self.remotes.append(parent)
            self.processes.append(proc)

    def _broadcast(self, message: tuple[str, Any]) -> None:
        for remote in self.remotes:
            remote.send(message)

    @property
    def finished_games(self) -> int:
        """Games finished in all workers."""
        return sum(self._worker_finished)

    def reset(self) -> np.ndarray:
        """Start a new game in every slot of every worker."""
        self.drain()
        self._broadcast(("reset", None))
        obs = []
        for w, remote in enumerate(self.remotes):
            o, m = remote.recv()
            obs.append(o)
            self._masks[self.slices[w]:self.slices[w + 1]] = m
        return np.concatenate(obs)

    # ------------------------------------------------------------ groups
    # Each worker's block of games is a group that can be stepped on its own: the pipelined
    # rollout (``collect_rollouts_pipelined``) chooses one group's next moves while the others play.
    @property
    def num_groups(self) -> int:
        """The number of game blocks (one per worker)."""
        return len(self.remotes)

    def group_slice(self, w: int) -> slice:
        """The VecEnv slots of worker ``w``'s games."""
        return slice(int(self.slices[w]), int(self.slices[w + 1]))

    def send_group(self, w: int, actions: np.ndarray) -> None:
        """Send worker ``w`` the learner's actions for its games (its result comes from :meth:`recv_group`)."""
        if self._in_flight[w]:
            raise RuntimeError(f"worker {w} is still playing its last step: receive it before sending another")
        self.remotes[w].send(("step", np.asarray(actions)))
        self._in_flight[w] = True

    def recv_group(self, w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]], np.ndarray]:
        """Worker ``w``'s observations, rewards, ends, infos and learner masks after its step."""
        if not self._in_flight[w]:
            raise RuntimeError(f"worker {w} has no step in flight")
        o, r, d, infos, m, finished = self.remotes[w].recv()
        self._in_flight[w] = False
        self._masks[self.group_slice(w)] = m
        self._worker_finished[w] = finished
        for info in infos:  # the main pools keep statistics too (the workers' pools draw the seats)
            if "opponents" in info:
                ret = info["episode"]["r"]
                team = self._team[info["learner_agent"]]
                for role, key in {(self._role[a], k) for a, k in info["opponents"].items() if self._team[a] != team}:
                    self._record_pools[None if None in self._record_pools else role].record(key, 1.0 if ret > 0 else 0.5 if ret == 0 else 0.0)
        return o, r, d, infos, m

    def drain(self) -> None:
        """Receive (and drop) every step still in flight, so that the workers are idle."""
        for w in range(self.num_groups):
            if self._in_flight[w]:
                self.recv_group(w)

    # --------------------------------------------------------------- VecEnv
    def step_async(self, actions: np.ndarray) -> None:
        """Send each worker the learner's actions for its games."""
        actions = np.asarray(actions)
        for w in range(self.num_groups):
            self.send_group(w, actions[self.group_slice(w)])

    def step_wait(self):
        """Gather every worker's observations, rewards, ends and infos, in slot order."""
        obs, rewards, dones, infos = [], [], [], []
        for w in range(self.num_groups):
            o, r, d, inf, _ = self.recv_group(w)
            obs.append(o)
            rewards.append(r)
            dones.append(d)
            infos.extend(inf)
        return np.concatenate(obs), np.concatenate(rewards), np.concatenate(dones), infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game (never all zero)."""
        return self._masks.copy()

    def close(self) -> None:
        """Stop the workers."""
        if self.closed:
            return
        for w, remote in enumerate(self.remotes):
            try:
                if self._in_flight[w]:
                    remote.recv()
                remote.send(("close", None))
                remote.recv()
            except (EOFError, OSError):  # the worker is gone (Ctrl-C reaches the whole process group): nothing to stop
                pass
        for proc in self.processes:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        self.closed = True

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        """Attributes of the games, fetched from the workers."""
        self.drain()
        self._broadcast(("get_attr", attr_name))
        values = [v for remote in self.remotes for v in remote.recv()]
        return [values[i] for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        """Not supported: the games live in other processes."""
        raise NotImplementedError("SubprocSelfPlayVecEnv cannot set attributes of games in worker processes")

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        """``action_masks`` answers from the batch; the games' other methods are out of reach."""
        if method_name == "action_masks":
            return [self._masks[i].copy() for i in self._get_indices(indices)]
        raise NotImplementedError(f"SubprocSelfPlayVecEnv cannot call {method_name!r} on games in worker processes")

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        """No gymnasium wrappers inside."""
        return [False for _ in self._get_indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        """``action_masks`` is provided by the VecEnv itself (MaskablePPO checks for it)."""
        return attr_name == "action_masks"

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Worker seeds are fixed at construction (``seed + 7919 * worker``)."""
        return [None] * self.num_envs

    def get_images(self):
        """No images: the games render as text."""
        return [None] * self.num_envs

    def __del__(self) -> None:
        if hasattr(self, "closed"):  # a half-built instance has no workers to stop
            self.close()


def collect_rollouts_pipelined(model: Any, env: SubprocSelfPlayVecEnv, callback: Any, rollout_buffer: Any, n_rollout_steps: int) -> bool:
    """``MaskablePPO.collect_rollouts`` with the learner's inference overlapped with the games.

    SB3 steps all games, then runs one forward pass over all of them: the workers wait during
    the pass and the main process waits while they play. Here, as soon as one worker's block of
    games has stepped, the learner chooses that block's next moves and sends them, while the other
    blocks are still playing; each core stays busy. What is stored is what SB3 stores (the same
    buffer rows, timeout bootstrap, episode statistics and callbacks); only the order in which
    the blocks' random draws are made differs, so with deterministic actions the two are equal
    (tested). The moves of a rollout's last step are not sent ahead: the next rollout's first
    moves come from the updated policy, as in SB3.
    """
    import torch
    from stable_baselines3.common.utils import obs_as_tensor

    policy = model.policy
    policy.set_training_mode(False)
    rollout_buffer.reset()
    callback.on_rollout_start()
    n, device = env.num_envs, model.device
    groups = [env.group_slice(w) for w in range(env.num_groups)]

    def new_step() -> dict[str, Any]:
        return {"actions": np.zeros(n, dtype=np.int64), "values": torch.zeros(n), "log_probs": torch.zeros(n)}

    def act(w: int, obs: np.ndarray, masks: np.ndarray, step: dict[str, Any]) -> None:
        sl = groups[w]
        with torch.no_grad():
            actions, values, log_probs = policy(obs_as_tensor(obs[sl], device), action_masks=masks[sl])
        step["actions"][sl] = actions.cpu().numpy()
        step["values"][sl] = values.flatten()
        step["log_probs"][sl] = log_probs
        env.send_group(w, step["actions"][sl])

    obs, masks, starts = model._last_obs, env.action_masks(), model._last_episode_starts
    cur = new_step()
    for w in range(len(groups)):
        act(w, obs, masks, cur)
    for n_steps in range(n_rollout_steps):
        last = n_steps == n_rollout_steps - 1
        nxt = new_step()
        new_obs, new_masks = np.empty_like(obs), np.empty_like(masks)
        rewards, dones = np.zeros(n, dtype=np.float32), np.zeros(n, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(n)]
        for w, sl in enumerate(groups):
            o, r, d, inf, m = env.recv_group(w)
            new_obs[sl], new_masks[sl], rewards[sl], dones[sl], infos[sl] = o, m, r, d, inf
            if not last:
                act(w, new_obs, new_masks, nxt)  # this block plays its next step while the others finish
        model.num_timesteps += n
        callback.update_locals({"new_obs": new_obs, "rewards": rewards, "dones": dones, "infos": infos, "actions": cur["actions"]})
        if not callback.on_step():
            # Stopped (e.g. out of time): the moves already sent ahead are played but not stored.
            if not last:
                for w, sl in enumerate(groups):
                    o, _, d, _, _ = env.recv_group(w)
                    new_obs[sl], dones[sl] = o, d
            model._last_obs, model._last_episode_starts = new_obs, dones
            return False
        model._update_info_buffer(infos, dones)
        # Timeouts bootstrap with the value of the last observation (SB3 issue #633), as in SB3.
        for idx in np.flatnonzero(dones):
            if infos[idx].get("terminal_observation") is not None and infos[idx].get("TimeLimit.truncated", False):
                terminal_obs = policy.obs_to_tensor(infos[idx]["terminal_observation"])[0]
                with torch.no_grad():
                    terminal_value = policy.predict_values(terminal_obs)[0]
                rewards[idx] += model.gamma * terminal_value  # float32 arithmetic, as SB3 does it
        rollout_buffer.add(obs, cur["actions"].reshape(-1, 1), rewards, starts, cur["values"], cur["log_probs"], action_masks=masks)
        obs, masks, starts, cur = new_obs, new_masks, dones, nxt
    model._last_obs, model._last_episode_starts = obs, starts
    with torch.no_grad():
        values = policy.predict_values(obs_as_tensor(obs, device))
    rollout_buffer.compute_returns_and_advantage(last_values=values, dones=dones)
    callback.on_rollout_end()
    return True
