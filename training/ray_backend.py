"""Self-play games played by Ray actors: the rollout workers of ``backend: ray``.

:class:`RaySelfPlayVecEnv` is :class:`~mythzoo.training.parallel.SubprocSelfPlayVecEnv` with its
worker processes replaced by Ray actors (:class:`RolloutWorker`), so the games can be played on
other machines of a Ray cluster while the learner (inference and the PPO update) stays in the
training process. Everything else is shared with the process backend: the split of the games into
``num_workers`` blocks, worker ``w`` seeded ``seed + 7919 * w``, the opponent pools of the workers
drawing the seats and the main pools keeping the statistics, and the pipelined rollout
(:func:`~mythzoo.training.parallel.collect_rollouts_pipelined`, which receives the blocks in worker
order). So a seeded run plays the same games and stores the same rollouts on either backend.

Transport: Ray places the actors, restarts them and holds the snapshots; the per-step traffic
(the learner's moves, the block's observations back; resets; the order of pool additions) runs on
one authenticated socket per actor (:meth:`RolloutWorker.open_channel`), as the process backend's
pipes, because Ray's task path costs about 1 ms of CPU per call, paid twice per step on a 2-core
machine. Each opponent-pool addition (a snapshot) is put in Ray's object store once (``ray.put``)
and every actor reads it from there. A network opponent travels as its arrays, its
``arch`` and its random generator's state, and is rebuilt as the same numpy policy in the actor;
other policies (the baselines) go through Ray's in-memory serialization between the processes of
this run. Nothing is ever read back from a file with pickle.

Faults: each actor is created with ``max_restarts``. When one dies, the step it had in flight is
not redone: its block's games are cut there (reported to the learner as time-limit truncations,
bootstrapped from the value of the observation the learner last saw in each game), the restarted
actor gets the whole opponent pool again, is reseeded (``seed + 7919 * w + 104729 * restarts``)
and starts fresh games, and training goes on. Snapshots are registered by the learner, so a dead
actor never loses one.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mythzoo.policies.base import BasePolicy
from mythzoo.threads import BLAS_THREAD_VARS
from mythzoo.training.parallel import WORKER_SEED_STRIDE, SubprocSelfPlayVecEnv
from mythzoo.training.selfplay import EnvKwargs, OpponentPool

try:
    import ray
    from ray.exceptions import ActorDiedError, GetTimeoutError, RayActorError, RayTaskError
except ImportError:  # the extra is missing: require_ray() says which one to install
    ray = None

RESTART_SEED_STRIDE = 104729
EXTRA_HINT = "the Ray backend needs Ray: pip install mythzoo[ray]"
ACTOR_START_TIMEOUT_S = 120.0  # actors that cannot be placed (too few CPUs in the cluster) fail after this
RESTART_TIMEOUT_S = 120.0


class RayBackendError(RuntimeError):
    """The Ray backend cannot go on (no cluster to join, actors that cannot be placed or keep dying)."""


class WorkerRestarted(RuntimeError):
    """A call reached a restarted rollout actor before the learner gave it its pool and games back."""


def require_ray() -> Any:
    """The ``ray`` module; ``ImportError`` with a one-line message naming the extra when it is missing."""
    if ray is None:
        raise ImportError(EXTRA_HINT)
    return ray


# ------------------------------------------------------------------ cluster
_started_here = False


def connect(address: str | None, num_cpus: int | None = None) -> bool:
    """Join the Ray cluster at ``address``, or start a local one (``address=None``); a no-op when
    this process is already connected. Returns whether this call started the connection (the
    caller then ends it with :func:`disconnect`). ``num_cpus``: logical CPUs of a local cluster."""
    global _started_here
    require_ray()
    if ray.is_initialized():
        return False
    if address is not None:
        _probe(address)
    kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": "WARNING", "log_to_driver": True}
    if address is None:
        kwargs["num_cpus"] = num_cpus
    try:
        ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = f"the Ray cluster at {address!r}" if address else "a local Ray cluster"
        raise RayBackendError(f"cannot connect to {where}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    _started_here = True
    return True


def _probe(address: str, timeout_s: float = 5.0) -> None:
    """Fail fast when nothing answers at a ``host:port`` address (Ray itself retries for minutes)."""
    import socket

    hostport = address.split("://", 1)[-1]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto", "local" and the like: Ray resolves them itself, and fails fast when it cannot
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except OSError as e:
        raise RayBackendError(f"no Ray cluster answers at {address!r} ({e.strerror or e}); start one with `ray start --head` "
                              "or check the address") from None


def disconnect() -> None:
    """End the Ray connection if :func:`connect` started it (a local cluster stops with it)."""
    global _started_here
    if _started_here and ray is not None and ray.is_initialized():
        ray.shutdown()
    _started_here = False


# ---------------------------------------------------------------- policies
def encode_policy(policy: BasePolicy) -> dict[str, Any]:
    """A pool member as plain data for the object store: a numpy MLP as its arrays, ``arch``,
    sampling mode and generator state (rebuilt exactly by :func:`decode_policy`); any other
    policy as itself (Ray serializes it in memory, as the process backend's pipes do)."""
    from mythzoo.policies.neural import MLPPolicy

    if type(policy) is MLPPolicy:
        weights: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(policy._layers):  # stored transposed (in, out): back to (out, in)
            weights[f"layers.{i}.weight"] = np.ascontiguousarray(w.T)
            weights[f"layers.{i}.bias"] = b
        return {
            "kind": "mlp",
            "weights": weights,
            "arch": dict(policy.arch),
            "deterministic": bool(policy.deterministic),
            "rng_state": policy.rng.bit_generator.state,
            "name": policy.__dict__.get("name"),
        }
    return {"kind": "object", "policy": policy}


def decode_policy(data: Mapping[str, Any]) -> BasePolicy:
    """The policy :func:`encode_policy` describes."""
    if data["kind"] == "object":
        return data["policy"]
    if data["kind"] != "mlp":
        raise ValueError(f"unknown policy encoding {data['kind']!r}")
    from mythzoo.policies.neural import MLPPolicy

    policy = MLPPolicy(data["weights"], data["arch"], deterministic=data["deterministic"], seed=0, name=data["name"])
    policy.rng.bit_generator.state = data["rng_state"]
    return policy


# ------------------------------------------------------------------- actor
class RolloutWorker:
    """One block of self-play games (a :class:`SelfPlayVecEnv`) and its opponent pools, in a Ray actor.

    Its first call is :meth:`load_pool` (the members so far); then :meth:`open_channel`, on which
    the learner sends steps, resets and (with :meth:`stage`) each later addition."""

    def __init__(self, env_name: str, env_kwargs: EnvKwargs, num_envs: int, mixes: dict[str | None, dict[str, float]],
                 learner_agents: list[str] | None, seed: int):
        import torch

        torch.set_num_threads(1)  # the actor never runs torch; keep its thread pool from competing with the games
        from mythzoo.training.selfplay import SelfPlayVecEnv

        self.mixes, self.seed = mixes, seed
        self.pools = self._build_pools([])  # empty until load_pool (the actor's first call)
        self.fresh = True  # no pool yet: a new actor, or one Ray has just restarted
        self._staged: dict[str, BasePolicy] = {}
        self._staged_cv = threading.Condition()
        self._fail_next_step = False
        pool = self.pools[None] if None in self.pools else self.pools
        self.vec = SelfPlayVecEnv(env_name, env_kwargs, num_envs, pool, learner_agents, seed=seed)
        self.step_seconds = 0.0  # time spent playing, for the cost model (benchmarks/ray_cost_model.py)

    def _build_pools(self, members: list[tuple[str | None, str, str, Any]]) -> dict[str | None, OpponentPool]:
        pools = {role: OpponentPool(mix, seed=self.seed + k) for k, (role, mix) in enumerate(self.mixes.items())}
        datas = ray.get([ref for *_, ref in members]) if members else []
        for (role, category, key, _), data in zip(members, datas):
            pools[role].add(category, key, decode_policy(data))
        return pools

    def step(self, actions: np.ndarray) -> tuple[Any, ...]:
        """Play the learner's actions and the opponents' replies: (obs, rewards, dones, infos, masks, finished)."""
        self._check_loaded()
        t0 = time.perf_counter()
        self.vec.step_async(actions)
        if self._fail_next_step:
            os._exit(1)  # fault injection: the process dies in the middle of a step
        obs, rewards, dones, infos = self.vec.step_wait()
        self.step_seconds += time.perf_counter() - t0
        return obs, rewards, dones, infos, self.vec._masks.copy(), self.vec.finished_games

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """New games in every slot: (obs, masks)."""
        self._check_loaded()
        obs = self.vec.reset()
        return obs, self.vec._masks.copy()

    def load_pool(self, members: list[tuple[str | None, str, str, Any]]) -> None:
        """Replace the opponent pools by ``members`` (a restarted actor catching up with the learner's pool)."""
        pools = self._build_pools(members)
        for role, pool in pools.items():  # in place: the games hold these pool objects
            target = self.pools[role]
            target.members, target.policies = pool.members, pool.policies
        self.fresh = False

    def _check_loaded(self) -> None:
        # After a restart, calls the learner sent before it noticed reach an actor without pool or games.
        if self.fresh:
            raise WorkerRestarted("this rollout actor was restarted and has no opponent pool yet")

    def fail_next_step(self) -> None:
        """Fault injection (tests, drills): the actor's process exits in the middle of its next step."""
        self._fail_next_step = True
    def reseed(self, seed: int) -> None:
        """Reseed the game and seat draws (the next ``reset`` starts games from ``seed``)."""
        self.vec.seed(seed)
        for k, pool in enumerate(self.pools.values()):
            pool.rng = np.random.default_rng(seed + k)

    def open_channel(self, authkey: bytes) -> tuple[str, int]:
        """Serve steps and pool additions on a socket of this actor's own; returns its address.

        The per-step traffic bypasses Ray's task path (about 1 ms of CPU per call on a small
        machine): a direct, authenticated connection per actor, as the process backend's pipes.
        Messages arrive in the learner's order; a snapshot's arrays still come from the object
        store (:meth:`stage`), the channel only says when to add it."""
        from multiprocessing.connection import Listener

        listener = Listener((ray.util.get_node_ip_address(), 0), authkey=authkey)
        threading.Thread(target=self._serve, args=(listener,), daemon=True, name="mythzoo-rollout-channel").start()
        return listener.address

    def _serve(self, listener: Any) -> None:
        try:
            conn = listener.accept()
        finally:
            listener.close()
        _no_delay(conn)
        while True:
            try:
                cmd, data = conn.recv()
            except (EOFError, OSError):  # the learner closed the channel, or went away
                return
            try:
                if cmd == "step":
                    conn.send(("ok", self.step(data)))
                elif cmd == "reset":
                    conn.send(("ok", self.reset()))
                elif cmd == "get_attr":
                    conn.send(("ok", self.get_attr(data)))
                elif cmd == "add":
                    role, category, key, token = data
                    self.pools[role].add(category, key, self._take_staged(token))
            except (EOFError, OSError):
                return
            except Exception as e:  # noqa: BLE001 - the learner raises it; this thread must keep answering
                import traceback

                conn.send(("error", f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))

    def stage(self, token: str, data: Mapping[str, Any]) -> None:
        """Hold a pool addition (``data`` from the object store) until the channel's ``add`` names it."""
        with self._staged_cv:
            self._staged[token] = decode_policy(data)
            self._staged_cv.notify_all()

    def _take_staged(self, token: str, timeout_s: float = 120.0) -> BasePolicy:
        with self._staged_cv:
            if not self._staged_cv.wait_for(lambda: token in self._staged, timeout=timeout_s):
                raise RuntimeError(f"pool addition {token!r} never arrived from the object store")
            return self._staged.pop(token)

    def get_attr(self, name: str) -> list[Any]:
        """An attribute of every game."""
        self._check_loaded()
        return self.vec.get_attr(name)

    def stats(self) -> dict[str, Any]:
        """Where this actor runs and how long it has played."""
        return {"node_id": ray.get_runtime_context().get_node_id(), "pid": os.getpid(), "step_seconds": self.step_seconds}

    def ping(self) -> bool:
        """Answers once the actor is up (after a restart too)."""
        return True


def _no_delay(conn: Any) -> None:
    """TCP_NODELAY on a connection's socket: a step's small messages must not wait for Nagle's
    algorithm to fill a packet (tens of milliseconds with delayed ACKs)."""
    import socket

    sock = socket.socket(fileno=os.dup(conn.fileno()))
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    finally:
        sock.close()


class _ActorLink:
    """A :class:`RolloutWorker` actor behind the pipe interface ``SubprocSelfPlayVecEnv`` talks to
    (``send((command, data))``, ``recv()``), with the recovery from a dead actor.

    Replies come back in the order of the commands, as through a pipe; ``add`` has no reply."""

    def __init__(self, owner: RaySelfPlayVecEnv, index: int, actor: Any, size: int, seed: int):
        self.owner, self.index, self.actor, self.size, self.seed = owner, index, actor, size, seed
        self.pending: list[tuple[str, Any, Any]] = []  # (command, data, ObjectRef), oldest first
        self.unchecked: list[Any] = []  # the refs of adds, checked at the next reply
        self.last_obs: np.ndarray | None = None  # the observations the learner last saw in this block
        self.finished_before = 0  # games finished by earlier lives of this actor
        self.restarts = 0
        self.conn: Any = None  # the actor's step channel (RolloutWorker.open_channel)
        self.broken = False  # a send on the channel failed: the next reply recovers
        self.tokens = 0

    def connect(self) -> None:
        """Open the actor's step channel (at the start, and after each restart)."""
        from multiprocessing.connection import Client

        authkey = os.urandom(32)
        address = ray.get(self.actor.open_channel.remote(authkey), timeout=ACTOR_START_TIMEOUT_S)
        self.conn = Client(tuple(address), authkey=authkey)
        _no_delay(self.conn)
        self.broken = False

    def _channel_send(self, message: tuple[str, Any]) -> None:
        if self.broken:
            return
        try:
            self.conn.send(message)
        except OSError:  # the actor is gone: its reply's wait finds out and recovers
            self.broken = True

    def send(self, message: tuple[str, Any]) -> None:
        cmd, data = message
        if cmd in ("step", "reset", "get_attr"):  # everything that touches the games: one ordered channel
            self._channel_send((cmd, data))
            self.pending.append((cmd, data, None))
        elif cmd == "add":
            role, category, key, ref = data
            self.tokens += 1
            token = f"{key}#{self.tokens}"
            self.unchecked.append(self.actor.stage.remote(token, ref))  # the arrays, from the object store
            self._channel_send(("add", (role, category, key, token)))  # when to add them, in step order
        elif cmd == "close":
            self.pending.append((cmd, data, None))
        else:
            raise ValueError(f"unknown worker command {cmd!r}")

    def recv(self) -> Any:
        cmd, data, ref = self.pending.pop(0)
        if cmd == "close":
            return None
        try:
            if self.unchecked:
                ray.get(self.unchecked)
                self.unchecked = []
            if self.broken:
                return self._recover(cmd, data)
            tag, reply = self.conn.recv()
            if tag == "error":
                raise RayBackendError(f"rollout actor {self.index} failed: {reply}")
        except (EOFError, OSError):  # the step channel closed: the actor died
            return self._recover(cmd, data)
        except RayActorError:  # a staged snapshot's call failed: the actor died
            return self._recover(cmd, data)
        return self._note(cmd, reply)

    def _note(self, cmd: str, reply: Any) -> Any:
        if cmd == "reset":
            self.last_obs = reply[0]
        elif cmd == "step":
            self.last_obs = reply[0]
            reply = (*reply[:5], self.finished_before + reply[5])
        return reply

    def _recover(self, cmd: str, data: Any) -> Any:
        """The actor died: wait for Ray to restart it, give it the pool, start fresh games, and answer
        ``cmd`` (a step in flight: its games cut as truncations; a reset or get_attr: redone)."""
        self.restarts += 1
        self.owner.restarts += 1
        # Replies still queued behind the failed one were lost with the actor: they are redone below.
        later, self.pending, self.unchecked = self.pending, [], []
        if self.conn is not None:
            self.conn.close()
        self.broken = True
        deadline = time.time() + RESTART_TIMEOUT_S
        while True:
            try:
                ray.get(self.actor.ping.remote(), timeout=10)
                break
            except ActorDiedError as e:  # for good: its restarts are used up
                raise RayBackendError(f"rollout actor {self.index} died and has no restart left (ray_max_restarts: {self.owner.max_restarts}): "
                                      f"{str(e).splitlines()[0]}") from None
            except (RayActorError, GetTimeoutError) as e:  # restarting, or out of reach for a moment
                if time.time() > deadline:
                    raise RayBackendError(f"rollout actor {self.index} died and did not come back within {RESTART_TIMEOUT_S:.0f} s "
                                          f"(restarts allowed: {self.owner.max_restarts}): {str(e).splitlines()[0]}") from None
                time.sleep(0.2)
        self.finished_before = self.owner.finished_games_of(self.index)
        seed = self.seed + RESTART_SEED_STRIDE * self.restarts
        calls = [self.actor.load_pool.remote(self.owner.members()), self.actor.reseed.remote(seed), self.actor.reset.remote()]
        try:
            obs, masks = ray.get(calls)[-1]
        except (RayActorError, RayTaskError) as e:
            if isinstance(e, RayTaskError) and not isinstance(e.cause, WorkerRestarted):
                raise
            self.pending = later
            return self._recover(cmd, data)  # it died again while catching up: the next restart
        self.connect()
        for c, d, _ in later:
            self.send((c, d))
        if cmd == "reset":
            self.last_obs = obs
            return obs, masks
        if cmd == "get_attr":
            return ray.get(self.actor.get_attr.remote(data))
        # A step in flight: the games it was playing are gone. Cut them as time-limit truncations, so
        # that the learner bootstraps from the value of the observation it last saw in each.
        seen = self.last_obs if self.last_obs is not None else obs
        infos = [{"terminal_observation": seen[i].copy(), "TimeLimit.truncated": True, "actor_restarted": True} for i in range(self.size)]
        self.last_obs = obs
        return obs, np.zeros(self.size, dtype=np.float32), np.ones(self.size, dtype=bool), infos, masks, self.finished_before

    def kill(self) -> None:
        if self.conn is not None:
            self.conn.close()
        try:
            ray.kill(self.actor, no_restart=True)
        except Exception:  # already gone  # noqa: BLE001
            pass


class RaySelfPlayVecEnv(SubprocSelfPlayVecEnv):
    """``num_envs`` self-play games played by ``num_workers`` Ray actors, as one SB3 VecEnv.

    The same interface, games and seeding as :class:`SubprocSelfPlayVecEnv` (so
    ``collect_rollouts_pipelined`` drives it the same way). Connect to Ray first
    (:func:`connect`); actors are spread over the cluster's nodes (``SPREAD``), one CPU each.
    ``max_restarts``: how often Ray restarts each actor that dies."""

    def __init__(
        self,
        env_name: str,
        env_kwargs: EnvKwargs,
        num_envs: int,
        pool: OpponentPool | Mapping[str, OpponentPool],
        num_workers: int,
        learner_agents: Sequence[str] | None = None,
        seed: int = 0,
        max_restarts: int = 3,
        num_cpus_per_worker: float = 1.0,
    ):
        require_ray()
        if not ray.is_initialized():
            raise RayBackendError("RaySelfPlayVecEnv needs a Ray connection: call mythzoo.training.ray_backend.connect() first")
        self.max_restarts = max_restarts
        self.num_cpus_per_worker = num_cpus_per_worker
        self.restarts = 0
        self.links: list[_ActorLink] = []
        # (role, key) -> (role, category, key, ObjectRef): the pool as the actors must hold it, in order of first addition.
        self._members: dict[tuple[str | None, str], tuple[str | None, str, str, Any]] = {}
        super().__init__(env_name, env_kwargs, num_envs, pool, num_workers, learner_agents, seed)

    # ---------------------------------------------------------- the actors
    def _start(self, ctx: Any, sizes: list[int], env_name: str, env_kwargs: EnvKwargs, mixes: dict[str | None, dict[str, float]],
               members: list[tuple[str | None, str, str, BasePolicy]], learner_agents: Sequence[str] | None, seed: int) -> None:
        for role, category, key, policy in members:
            self._members[(role, key)] = (role, category, key, ray.put(encode_policy(policy)))
        worker_cls = ray.remote(RolloutWorker).options(
            num_cpus=self.num_cpus_per_worker,
            max_restarts=self.max_restarts,
            max_task_retries=0,  # a step in flight is not replayed: its games are cut (see _ActorLink._recover)
            scheduling_strategy="SPREAD",
            runtime_env={"env_vars": {k: "1" for k in BLAS_THREAD_VARS}},
        )
        for w, size in enumerate(sizes):
            worker_seed = seed + WORKER_SEED_STRIDE * w
            # The pool follows in a call of its own: Ray re-runs the constructor on a restart, and
            # constructor arguments naming objects in the store would have to outlive the run.
            actor = worker_cls.remote(env_name, env_kwargs, size, mixes, learner_agents=list(learner_agents) if learner_agents else None,
                                      seed=worker_seed)
            link = _ActorLink(self, w, actor, size, worker_seed)
            link.unchecked.append(actor.load_pool.remote(self.members()))
            self.links.append(link)
        self.remotes = self.links  # the pipe interface SubprocSelfPlayVecEnv talks to
        self.processes = []
        ready = [link.actor.ping.remote() for link in self.links]
        try:
            ray.get(ready, timeout=ACTOR_START_TIMEOUT_S)
            for link in self.links:
                link.connect()
        except GetTimeoutError:
            free = ray.available_resources().get("CPU", 0.0)
            for link in self.links:
                link.kill()
            raise RayBackendError(f"{len(sizes)} rollout actors ({self.num_cpus_per_worker:g} CPU each) could not all start within "
                                  f"{ACTOR_START_TIMEOUT_S:.0f} s; the cluster has {free:g} CPUs free") from None

    def members(self) -> list[tuple[str | None, str, str, Any]]:
        """The opponent pool as the actors hold it: ``(role, category, key, ObjectRef)`` in order of addition."""
        return list(self._members.values())

    def _broadcast(self, message: tuple[str, Any]) -> None:
        cmd, data = message
        if cmd == "add":
            role, category, key, policy = data
            ref = ray.put(encode_policy(policy))  # once, for every actor: each reads it from the object store
            self._members[(role, key)] = (role, category, key, ref)
            message = ("add", (role, category, key, ref))
        for link in self.links:
            link.send(message)

    def finished_games_of(self, w: int) -> int:
        """Games finished so far in worker ``w``'s block (all lives of its actor)."""
        return self._worker_finished[w]

    def worker_stats(self) -> list[dict[str, Any]]:
        """Each actor's node id, process id and seconds spent playing (in worker order)."""
        self.drain()
        return ray.get([link.actor.stats.remote() for link in self.links])

    def close(self) -> None:
        """Stop the actors."""
        if self.closed:
            return
        try:
            self.drain()
        except Exception:  # closing after a failure: the actors go anyway  # noqa: BLE001
            pass
        for link in self.links:
            link.kill()
        self.closed = True


def local_cluster_cpus(num_actors: int, num_cpus_per_worker: float = 1.0) -> int:
    """Logical CPUs for a local cluster: the machine's, or enough for every rollout actor of the run
    (actors reserve a CPU each; on a small machine several may share a core, as worker processes do)."""
    return max(os.cpu_count() or 1, math.ceil(num_actors * num_cpus_per_worker))
