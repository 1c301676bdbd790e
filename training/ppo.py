"""Masked PPO self-play against a pool of past selves and baselines, for any mythzoo env.

Read top to bottom: config -> seeds -> games and opponent pool -> MaskablePPO -> a callback that
snapshots into the registry, refreshes the opponent pool and evaluates against the baselines
-> final snapshot and evaluation. ``mythzoo train <env>`` calls :func:`train`.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from mythzoo import envs as mz_envs
from mythzoo.policies.base import BasePolicy, EnvSpec
from mythzoo.progress import progress_bar
from mythzoo.policies.baselines import make_baseline
from mythzoo.training.batch_eval import evaluate_vs
from mythzoo.training.config import TrainConfig, to_dict, to_yaml
from mythzoo.training.masked_policy import LeanMaskablePolicy
from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv, game_maker

ALGO = "maskable_ppo"
SB3_PREFIX = "train.sb3."


# ------------------------------------------------------------------ weights
def export_policy(model: MaskablePPO) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The acting network in the registry's framework-free format (``layers.{i}.weight/bias``),
    plus the full SB3 policy state (prefixed ``train.sb3.``: training state that acting ignores)
    so training can resume from it."""
    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)] + [policy.action_net]
    weights = {}
    for i, lin in enumerate(linears):
        weights[f"layers.{i}.weight"] = lin.weight.detach().cpu().numpy().copy()
        weights[f"layers.{i}.bias"] = lin.bias.detach().cpu().numpy().copy()
    for k, v in policy.state_dict().items():
        weights[f"{SB3_PREFIX}{k}"] = v.detach().cpu().numpy().copy()
    act = policy.mlp_extractor.policy_net[1] if len(policy.mlp_extractor.policy_net) > 1 else None
    arch = {
        "type": "mlp",
        "obs_size": int(linears[0].in_features),
        "action_size": int(linears[-1].out_features),
        "hidden": [int(lin.out_features) for lin in linears[:-1]],
        "activation": "relu" if isinstance(act, torch.nn.ReLU) else "tanh",
    }
    return weights, arch


def policy_from_weights(weights: dict[str, np.ndarray], arch: dict[str, Any], deterministic: bool, seed: int | None) -> BasePolicy:
    """A numpy policy from exported weights (no torch at acting time)."""
    from mythzoo.policies.neural import build_policy

    return build_policy(weights, arch, deterministic=deterministic, seed=seed)


def load_sb3_state(model: MaskablePPO, weights: dict[str, np.ndarray]) -> None:
    """Restore the SB3 policy (actor and critic) from exported weights."""
    state = {k[len(SB3_PREFIX):]: torch.as_tensor(v) for k, v in weights.items() if k.startswith(SB3_PREFIX)}
    if not state:
        raise ValueError(f"this checkpoint holds no SB3 training state ({SB3_PREFIX}* tensors); it can be played, not resumed")
    model.policy.load_state_dict(state)


# ----------------------------------------------------------------- callback

# Config keys that name places on the training machine (directories, a cluster address): a
# checkpoint travels to other machines, so its recorded config leaves them out.
LOCAL_CONFIG_KEYS = ("registry", "run_dir", "ray_address")
# A step budget no run reaches: with max_minutes the clock alone ends the run, and the progress bar
# counts seconds of it (a bar out of 10^12 steps would say nothing).
UNBOUNDED_STEPS = 10**12


def portable_config(cfg: Any) -> dict[str, Any]:
    """The run's config as a checkpoint records it: every key but :data:`LOCAL_CONFIG_KEYS`."""
    return {k: v for k, v in to_dict(cfg).items() if k not in LOCAL_CONFIG_KEYS}

class SelfPlayCallback(BaseCallback):
    """One role's snapshots (registry + opponent pool), evaluations against baselines, progress bar.

    ``learner_agents``: the seats this role's learner plays (evaluations rotate through them);
    ``deadline``: the run's wall-clock end (shared by all roles), or None.
    """

    def __init__(self, cfg: TrainConfig, make_env, pool: OpponentPool, spec: EnvSpec, registry, name: str, parent: str | None,
                 run_dir: Path, role: str, learner_agents: list[str], deadline: float | None, solo: bool = False):
        super().__init__()
        self.cfg, self.make_env, self.pool, self.spec = cfg, make_env, pool, spec
        self.registry, self.name, self.parent, self.run_dir = registry, name, parent, run_dir
        self.role, self.learner_agents, self.deadline, self.solo = role, learner_agents, deadline, solo
        self.next_snapshot = cfg.snapshot_every
        self.next_eval = cfg.eval_every
        self.best_score = -np.inf
        self.history: list[dict[str, Any]] = []
        self.bar: Any = None
        self.bar_total = cfg.total_timesteps  # train() sets the count the last learn() call really ends at
        self.snapshots = 0
        self.out_of_time = False

    def _on_training_start(self) -> None:
        # Called at every learn() call: once per phase when roles take turns.
        if self.cfg.progress and self.bar is None:
            desc = f"train {self.cfg.env}" + (f" [{self.role}]" if self.role else "")
            if self._timed():
                self.bar = progress_bar(round(60 * self.cfg.max_minutes), desc, "s", initial=self._seconds())
            else:
                self.bar = progress_bar(self.bar_total, desc, "step", initial=self.num_timesteps)
        self._refresh_latest()

    def _timed(self) -> bool:
        """Whether the clock alone bounds the run (its bar counts seconds, not steps)."""
        return self.deadline is not None and self.cfg.total_timesteps >= UNBOUNDED_STEPS

    def _seconds(self) -> int:
        """Seconds of the max_minutes budget spent."""
        return max(0, min(round(60 * self.cfg.max_minutes - (self.deadline - time.time())), round(60 * self.cfg.max_minutes)))

    def _on_step(self) -> bool:
        if self.bar is not None:  # follow the model's own count (the pipelined rollout adds to it directly)
            if self._timed():
                spent = self._seconds()
                if spent > self.bar.n:  # once a second: the steps so far beside the clock
                    self.bar.set_postfix({"steps": f"{self.num_timesteps:,}"}, refresh=False)
                    self.bar.update(spent - self.bar.n)
            else:
                self.bar.update(self.num_timesteps - self.bar.n)
        if self.num_timesteps >= self.next_snapshot:
            self.next_snapshot += self.cfg.snapshot_every
            self.snapshot()
        if self.num_timesteps >= self.next_eval and self.cfg.eval_games:
            self.next_eval += self.cfg.eval_every
            self.evaluate()
        if self.deadline is not None and time.time() >= self.deadline:
            self.out_of_time = True
            return False  # the wall-clock budget is spent: stop after this step
        return True

    def _on_rollout_start(self) -> None:
        torch.set_num_threads(self.cfg.torch_threads)  # games and inference share the cores

    def _on_rollout_end(self) -> None:
        torch.set_num_threads(self.cfg.update_threads)  # the update runs alone: use the cores

    def close(self) -> None:
        """Close the progress bar."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def _refresh_latest(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        weights, arch = export_policy(self.model)
        self.pool.add("latest", "latest", policy_from_weights(weights, arch, deterministic=False, seed=self.cfg.seed + self.snapshots))
        return weights, arch

    def snapshot(self) -> str | None:
        """Freeze the learner as the new ``latest`` opponent, keep the old one as a past self, register it."""
        weights, arch = self._refresh_latest()
        self.snapshots += 1
        key = f"self@{self.num_timesteps}"
        self.pool.add("past", key, policy_from_weights(weights, arch, deterministic=False, seed=self.cfg.seed + 1000 + self.snapshots))
        if self.registry is None:
            return None
        info = self.registry.register(
            self.name, weights, arch, env_spec=self.spec, algo=ALGO, steps=int(self.num_timesteps), role=self.role or None,
            parent=self.parent, tags=[f"run:{self.run_dir.name}"] + ([f"role:{self.role}"] if self.role else []),
            metrics={"config": portable_config(self.cfg), "role": self.role, "agents": self.learner_agents},
        )
        self.parent = info.id  # `latest` follows automatically (the highest version of the name)
        return info.id

    def evaluate(self) -> dict[str, Any]:
        """Win rates against each baseline (seats rotated; a solo game: the mean return), logged and
        stored; ``best`` moves on improvement."""
        weights, arch = export_policy(self.model)
        learner = policy_from_weights(weights, arch, deterministic=True, seed=0)
        env = self.make_env()
        row: dict[str, Any] = {"steps": int(self.num_timesteps), "time": time.time()}
        if self.role:
            row["role"] = self.role
        seed = 10_000 + len(self.history) * 1000
        # The learner's seats at the evaluation's table (training may mix table sizes: env_kwargs_variants).
        seats = [a for a in self.learner_agents if a in env.possible_agents]
        if self.solo:
            res = evaluate_vs(self.make_env, learner, learner, self.cfg.eval_games, seed=seed, learner_agents=seats)
            row["mean_reward"] = res["mean_reward"]
            self.logger.record("eval/mean_reward", res["mean_reward"])
            score = res["mean_reward"]
        else:
            for base in self.cfg.baselines:
                opp = make_baseline(base, env, seed=self.cfg.seed + 7)
                res = evaluate_vs(self.make_env, learner, opp, self.cfg.eval_games, seed=seed, learner_agents=seats)
                row[f"win_rate_vs_{base}"] = res["win_rate"]
                self.logger.record(f"eval/win_rate_vs_{base}", res["win_rate"])
            score = float(np.mean([row[f"win_rate_vs_{b}"] for b in self.cfg.baselines]))
        self.history.append(row)
        with open(self.run_dir / "eval.jsonl", "a") as f:
            f.write(json.dumps(row) + "\n")
        if self.registry is not None:
            ckpt = self.snapshot()
            if ckpt is not None:
                self.registry.record_eval(ckpt, row)
                if score > self.best_score:
                    self.registry.set_alias(self.name, "best", ckpt)
        if self.bar is not None:
            self.bar.set_postfix({k.replace("win_rate_vs_", "vs "): f"{v:.2f}" for k, v in row.items() if k.startswith(("win_rate", "mean_reward"))})
        self.best_score = max(self.best_score, score)
        return row


class ImitationRegularizedPPO(MaskablePPO):
    """MaskablePPO that, with ``demos`` set, follows each update with as many gradient steps on
    ``bc_coef`` x the teacher-imitation loss as the update took (``cfg.bc_coef``)."""

    demos: dict[str, np.ndarray] | None = None
    bc_coef: float = 0.0
    update_bf16: bool = False  # cfg.update_precision == "bfloat16": the update's products in bfloat16
    pipeline: bool = True  # with several worker processes, collect with training/parallel.py's pipelined rollout

    def collect_rollouts(self, env, callback, rollout_buffer, n_rollout_steps: int, use_masking: bool = True) -> bool:
        # Games in several worker processes: overlap the learner's inference with their play.
        if self.pipeline and use_masking and getattr(env, "num_groups", 1) > 1:
            from mythzoo.training.parallel import collect_rollouts_pipelined

            return collect_rollouts_pipelined(self, env, callback, rollout_buffer, n_rollout_steps)
        return super().collect_rollouts(env, callback, rollout_buffer, n_rollout_steps, use_masking)

    def train(self) -> None:
        # Parameters, Adam state and the collected log-probabilities stay float32; autocast only
        # runs the update's matrix products in bfloat16 (log-softmax and losses stay float32).
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.update_bf16):
            super().train()
        if self.demos is None or self.bc_coef <= 0:
            return
        from mythzoo.training.pretrain import imitation_steps

        steps = self.n_epochs * max(1, self.rollout_buffer.buffer_size * self.n_envs // self.batch_size)
        rng = np.random.default_rng(self.num_timesteps)
        ce = imitation_steps(self.policy, self.policy.optimizer, self.demos, steps, self.batch_size, self.bc_coef, rng)
        self.logger.record("train/imitation_loss", ce)


def warm_start(cfg: TrainConfig, model: MaskablePPO, make_env, probe, registry, learner_agents: list[str], run_dir: Path, role: str) -> dict[str, Any]:
    """Imitate ``cfg.pretrain_teacher`` in the learner's seats before PPO (see training/pretrain.py):
    cloning on teacher-played games, then ``pretrain_dagger_rounds`` DAgger rounds. Returns the
    stats and the aggregated demonstrations (kept for ``bc_coef``)."""
    from mythzoo.policies.refs import load_policy
    from mythzoo.training.pretrain import collect_demonstrations, pretrain

    teacher = load_policy(cfg.pretrain_teacher, probe, registry=registry, seed=cfg.seed)
    t0 = time.time()
    data = collect_demonstrations(make_env, teacher, learner_agents, cfg.pretrain_games, cfg.gamma, seed=cfg.seed + 777_777)
    stats = pretrain(model, data, cfg.pretrain_epochs, seed=cfg.seed)
    log = [{"teacher": cfg.pretrain_teacher, "round": 0, **stats}]
    for r in range(1, cfg.pretrain_dagger_rounds + 1):
        more = teacher_labels(cfg, model, make_env, teacher, learner_agents, seed=cfg.seed + 777_777 + 100_003 * r, actor_seed=cfg.seed + r)
        data = {k: np.concatenate([data[k], more[k]]) for k in data}
        stats = pretrain(model, data, cfg.pretrain_epochs, seed=cfg.seed + r)
        log.append({"teacher": cfg.pretrain_teacher, "round": r, **stats})
        if cfg.progress:
            print(f"  DAgger round {r}: {int(stats['decisions'])} decisions, agreement {stats['agreement']:.3f}", flush=True)
    stats["seconds"] = round(time.time() - t0, 1)
    stats["role"] = role
    with open(run_dir / "pretrain.jsonl", "a") as f:
        for row in log:
            f.write(json.dumps({**row, "role": role}) + "\n")
    if cfg.progress:
        print(f"warm start{' [' + role + ']' if role else ''}: imitated {cfg.pretrain_teacher} on {int(stats['decisions'])} decisions, "
              f"agreement {stats['agreement']:.2f}, {stats['seconds']} s", flush=True)
    return {"stats": stats, "data": data}


def teacher_labels(cfg: TrainConfig, model: MaskablePPO, make_env, teacher: BasePolicy, learner_agents: list[str], seed: int,
                   actor_seed: int) -> dict[str, np.ndarray]:
    """``pretrain_games`` games played by the current learner (sampling), every state of its seats
    labelled with the teacher's choice: one DAgger round's data."""
    from mythzoo.training.pretrain import collect_demonstrations

    weights, arch = export_policy(model)
    actor = policy_from_weights(weights, arch, deterministic=False, seed=actor_seed)
    return collect_demonstrations(make_env, teacher, learner_agents, cfg.pretrain_games, cfg.gamma, seed=seed, actor=actor)


def resume_refs(resume: str | None, roles: list[str], multi: bool) -> dict[str, str]:
    """Which checkpoint each role continues from: ``REF`` for a one-role game, ``ROLE=REF`` pairs
    (comma or space separated) for a game with several roles; roles not named start fresh."""
    if not resume:
        return {}
    if not multi:
        return {roles[0]: resume}
    out: dict[str, str] = {}
    for item in resume.replace(",", " ").split():
        role, sep, ref = item.partition("=")
        if not sep or not ref or role not in roles:
            raise ValueError(f"resume {resume!r}: in a game with roles {roles}, give ROLE=REF pairs, e.g. {roles[0]}=<ref>")
        out[role] = ref
    return out


def learn_end(start: int, total: int, phase: int, rollout: int) -> int:
    """The step count a role's learner ends at: SB3 rounds each ``learn()`` call up to whole
    rollouts of ``rollout`` (n_steps x num_envs) steps, and turns of ``phase`` steps repeat until
    ``total`` is reached."""
    t = start
    while t < total:
        steps = min(phase, total - t)
        t += -(-steps // rollout) * rollout
    return t


class AnnealedLearningRate:
    """SB3's learning-rate schedule for ``learning_rate_final``: linear from ``start`` to ``final``
    over the run. The run's share done is the larger of its learner's steps over ``total_steps``
    and the clock over ``minutes`` (a clock-bound run's step budget is never reached, and SB3's
    own ``progress_remaining`` counts only the current ``learn`` call)."""

    def __init__(self, start: float, final: float, total_steps: int, minutes: float | None, started: float):
        self.start, self.final, self.total_steps, self.minutes, self.started = start, final, total_steps, minutes, started
        self.model: Any = None  # set once the model exists (SB3 asks for the rate while building it)

    def done(self) -> float:
        """Share of the run done, 0 to 1."""
        share = self.model.num_timesteps / self.total_steps if self.model is not None else 0.0
        if self.minutes:
            share = max(share, (time.time() - self.started) / (60 * self.minutes))
        return min(1.0, max(0.0, share))

    def __call__(self, progress_remaining: float) -> float:
        return self.start + (self.final - self.start) * self.done()


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C during training, after the learners were saved: ``checkpoints`` (role -> registry
    id, or None without a registry) and the ``resume_command`` that continues the run."""

    def __init__(self, message: str, checkpoints: dict[str, str | None], resume_command: str | None):
        super().__init__(message)
        self.message, self.checkpoints, self.resume_command = message, checkpoints, resume_command


def _interrupted(cfg: TrainConfig, env_name: str, run_dir: Path, learners: dict[str, Any], multi: bool) -> TrainingInterrupted:
    """Snapshot every learner into the registry (as the periodic snapshots do) and say how to go on."""
    import shlex

    ids = {role: cb.snapshot() for role, (_, cb, _) in learners.items()}
    for _, cb, _ in learners.values():
        cb.close()
    if any(i is None for i in ids.values()):
        return TrainingInterrupted("interrupted: no registry (registry=none), so nothing was saved to resume from", ids, None)
    ref = " ".join(f"{r}={i}" for r, i in ids.items()) if multi else next(iter(ids.values()))
    # The run's own config.yaml holds every setting (registry included); --resume continues to its total.
    command = f"mythzoo train {env_name} --config {shlex.quote(str(run_dir / 'config.yaml'))} --resume {shlex.quote(str(ref))}"
    saved = ", ".join(f"{r} {i}" if multi else str(i) for r, i in ids.items())
    return TrainingInterrupted(f"interrupted: saved {saved} in {cfg.registry}\nresume with: {command}", ids, command)


# -------------------------------------------------------------------- train
def train(cfg: TrainConfig, opponents: Any = None) -> dict[str, Any]:
    """Run one training job; returns a summary (run dir, checkpoint ids, evaluations).

    ``opponents``: more members of the ``past`` opponent pool besides ``cfg.opponents``: policy
    objects (anything with ``act_batch``, e.g. a policy trained by another library) or refs, in a
    list or a mapping label -> policy (``{"hero:mine": policy}`` for one role of an asymmetric
    game; without a role an opponent joins every role whose observation size it fits). They must be
    picklable when ``cfg.num_workers`` > 0.

    One policy per role: a symmetric game (every seat the same role) trains one network in
    self-play; an asymmetric game (``invoker`` against ``hero`` seats) trains one network per
    role, the roles taking turns of ``role_phase_steps`` learner steps, each against the other
    roles' latest and past snapshots and baselines; a solo game trains its one agent plainly.
    """
    env_name = mz_envs.resolve(cfg.env)
    cfg.env = env_name
    run_name = f"{env_name}__ppo__{cfg.seed}__{int(time.time())}"
    run_dir = Path(cfg.run_dir) / run_name  # made once every ref below has been checked: a refused run leaves nothing

    # Every RNG seeded: Python, numpy, torch, the games (through the VecEnv), the opponent draws.
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)

    # The training games' env arguments: one dict, or one per variant (a batch mixing table sizes).
    train_kwargs: Any = cfg.env_kwargs if cfg.env_kwargs_variants is None else \
        [{**cfg.env_kwargs, **variant} for variant in cfg.env_kwargs_variants]
    make_env = game_maker(env_name, train_kwargs)
    # Warm start and teacher labels play whole tables of one size: the first variant's.
    make_demo_env = game_maker(env_name, train_kwargs if cfg.env_kwargs_variants is None else train_kwargs[0])

    # Evaluations may use other env arguments than training (e.g. train on a shaped reward, judge on
    # the official win/loss one).
    make_eval_env = game_maker(env_name, cfg.eval_env_kwargs if cfg.eval_env_kwargs is not None else cfg.env_kwargs)

    probe = make_env()
    spec = EnvSpec.from_env(probe)
    roles = probe.unwrapped.roles()  # role -> its agents
    for _ in range(1, len(cfg.env_kwargs_variants or ())):  # every variant: the same network fits, its seats join the roles
        other = make_env()
        if EnvSpec.from_env(other).signature != spec.signature:
            raise ValueError(f"env_kwargs_variants: {other.unwrapped.config} changes the observation layout or action table of {env_name}; one network cannot train on both")
        for role, agents in other.unwrapped.roles().items():
            roles[role] = list(dict.fromkeys([*roles.get(role, []), *agents]))
        other.close()
    solo = len(probe.possible_agents) == 1
    train_roles = list(cfg.roles) if cfg.roles else list(roles)
    unknown = [r for r in train_roles if r not in roles]
    if unknown:
        raise ValueError(f"roles {unknown} are not roles of {env_name}; its roles are {sorted(roles)}")
    multi = len(roles) > 1
    resume = resume_refs(cfg.resume, list(roles), multi)
    registry = None
    if resume and cfg.registry == "none":
        raise ValueError("resume needs a registry (registry=none was given)")
    if resume:  # checked before anything is made: a ref that names no checkpoint is refused at once
        from mythzoo.policies.registry import Registry

        existing = Registry(cfg.registry, create=False)
        for ref in resume.values():
            existing.resolve(ref)
    if cfg.registry != "none":  # "none": train without a registry (benchmarks, tests)
        from mythzoo.policies.registry import Registry

        registry = Registry(cfg.registry)
    base_name = cfg.name or f"{env_name}-ppo"

    # One opponent pool per role: the seats of a role are drawn from its pool.
    pools = {role: OpponentPool(cfg.opponent_mix, seed=cfg.seed + k) for k, role in enumerate(roles)}
    for pool in pools.values() if not solo else ():  # a solo game has no seat to fill
        for base in cfg.baselines:
            pool.add("baselines", f"baseline:{base}", make_baseline(base, probe, seed=cfg.seed))
    for ref in cfg.opponents:
        from mythzoo.evaluation.loading import split_role_ref
        from mythzoo.policies.refs import load_policy

        only, bare = split_role_ref(ref, list(roles)) if multi else (None, ref)  # ROLE:REF joins that role's pool alone
        policy = load_policy(bare, probe, registry=registry, seed=cfg.seed)
        size = getattr(policy, "obs_size", None)
        for role, agents in roles.items():  # a checkpoint joins the pool of the role it fits
            if (only is None or only == role) and (size is None or size == spec.obs_sizes[agents[0]]):
                pools[role].add("past", f"ref:{ref}", policy)
    if opponents:
        from mythzoo.evaluation.loading import name_policies, split_role_ref

        named = name_policies(opponents, list(roles) if multi else ())
        if cfg.num_workers:
            named.check_picklable()  # each worker process gets a copy of the pool
        for ref, label in zip(named.refs, named.labels):
            only, bare = split_role_ref(ref, list(roles)) if multi else (None, ref)
            policy = named.loader(bare, probe, registry, cfg.seed)
            size = getattr(policy, "obs_size", None)
            for role, agents in roles.items():
                if (only is None or only == role) and (size is None or size == spec.obs_sizes[agents[0]]):
                    pools[role].add("past", f"user:{label}", policy)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(to_yaml(cfg))
    if cfg.progress:
        import shlex
        import sys

        print(f"run directory: {run_dir}\nTensorBoard:   tensorboard --logdir {shlex.quote(str(run_dir))}", file=sys.stderr, flush=True)
    started = time.time()
    deadline = started + 60 * cfg.max_minutes if cfg.max_minutes else None
    activation = torch.nn.Tanh if cfg.activation == "tanh" else torch.nn.ReLU

    learners: dict[str, tuple[MaskablePPO, SelfPlayCallback, Any]] = {}
    started_ray = False  # backend ray: whether this run started the Ray connection (and so ends it)
    try:
        for role in train_roles:
            learner_agents = [a for a in (cfg.learner_agents or roles[role]) if a in roles[role]]
            if not learner_agents:
                raise ValueError(f"learner_agents {cfg.learner_agents} has no seat of role {role!r} ({roles[role]})")
            pool_arg = pools if multi else pools[role]
            if cfg.num_workers and cfg.backend == "ray":
                from mythzoo.training import ray_backend

                if ray_backend.connect(cfg.ray_address, num_cpus=ray_backend.local_cluster_cpus(cfg.num_workers * len(train_roles))):
                    started_ray = True
                vec_env = ray_backend.RaySelfPlayVecEnv(env_name, train_kwargs, cfg.num_envs, pool_arg, cfg.num_workers, learner_agents,
                                                        seed=cfg.seed, max_restarts=cfg.ray_max_restarts)
                pool = vec_env.pool  # its adds (new snapshots) reach the actors through the object store
            elif cfg.num_workers:
                from mythzoo.training.parallel import SubprocSelfPlayVecEnv

                vec_env = SubprocSelfPlayVecEnv(env_name, train_kwargs, cfg.num_envs, pool_arg, cfg.num_workers, learner_agents, seed=cfg.seed)
                pool = vec_env.pool  # its adds (new snapshots) reach the workers too
            else:
                vec_env = SelfPlayVecEnv(env_name, train_kwargs, cfg.num_envs, pool_arg, learner_agents, seed=cfg.seed)
                pool = pools[role]
            lr = cfg.learning_rate if cfg.learning_rate_final is None else \
                AnnealedLearningRate(cfg.learning_rate, cfg.learning_rate_final, cfg.total_timesteps, cfg.max_minutes, started)
            model = ImitationRegularizedPPO(
                LeanMaskablePolicy,  # MaskablePPO's "MlpPolicy", with a leaner forward pass for rollouts
                vec_env,
                learning_rate=lr,
                n_steps=cfg.n_steps,
                batch_size=cfg.batch_size,
                n_epochs=cfg.n_epochs,
                gamma=cfg.gamma,
                gae_lambda=cfg.gae_lambda,
                clip_range=cfg.clip_range,
                ent_coef=cfg.ent_coef,
                vf_coef=cfg.vf_coef,
                max_grad_norm=cfg.max_grad_norm,
                policy_kwargs={"net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)}, "activation_fn": activation},
                tensorboard_log=str(run_dir),
                seed=cfg.seed,
                device="cpu",
                verbose=0,
            )
            model.update_bf16 = cfg.update_precision == "bfloat16"
            if isinstance(lr, AnnealedLearningRate):
                lr.model = model
            parent = None
            if role in resume:
                if registry is None:
                    raise ValueError("resume needs a registry (registry=none was given)")
                info = registry.resolve(resume[role])
                if info.env_signature != spec.signature:
                    raise ValueError(f"checkpoint {info.id} was trained on another env layout ({info.env_signature} != {spec.signature})")
                if multi and info.role not in (None, role):
                    raise ValueError(f"checkpoint {info.id} was trained for role {info.role!r}, not {role!r}")
                load_sb3_state(model, registry.load_weights(info.id))
                model.num_timesteps = int(info.steps)
                parent = info.id
            if cfg.pretrain_teacher and role not in resume:
                warmed = warm_start(cfg, model, make_demo_env, probe, registry, learner_agents, run_dir, role)
                if cfg.bc_coef > 0:
                    model.demos, model.bc_coef = warmed["data"], cfg.bc_coef
            elif cfg.pretrain_teacher and cfg.bc_coef > 0:
                # Resumed: no refit, but the imitation term still needs demonstrations: the teacher
                # labels the states the resumed learner reaches (as in a DAgger round).
                from mythzoo.policies.refs import load_policy

                teacher = load_policy(cfg.pretrain_teacher, probe, registry=registry, seed=cfg.seed)
                model.demos = teacher_labels(cfg, model, make_demo_env, teacher, learner_agents, seed=cfg.seed + 555_555, actor_seed=cfg.seed)
                model.bc_coef = cfg.bc_coef
            name = f"{base_name}-{role}" if multi else base_name
            callback = SelfPlayCallback(cfg, make_eval_env, pool, spec, registry, name, parent, run_dir,
                                        role=role if multi else "", learner_agents=learner_agents, deadline=deadline, solo=solo)
            if role in resume:  # the next snapshot and evaluation come a full interval after the saved step count
                callback.next_snapshot = model.num_timesteps + cfg.snapshot_every
                callback.next_eval = model.num_timesteps + cfg.eval_every
            if not any(pool.members.values()):
                # The learner's own role's pool has no member yet (no baselines, no past selves: an
                # exploiter's teammates are itself): its latest self joins before the first games are dealt.
                weights, arch = export_policy(model)
                pool.add("latest", "latest", policy_from_weights(weights, arch, deterministic=False, seed=cfg.seed))
            learners[role] = (model, callback, vec_env)

        # Roles take turns (one turn covers everything when a single role is trained).
        phase = cfg.role_phase_steps if len(learners) > 1 else cfg.total_timesteps
        start = time.time()
        start_steps = {role: m.num_timesteps for role, (m, _, _) in learners.items()}
        for role, (m, cb, _) in learners.items():  # the bar's total: where the last rounded-up learn() ends
            cb.bar_total = learn_end(m.num_timesteps, cfg.total_timesteps, phase, cfg.n_steps * cfg.num_envs)
        first = True
        try:
            while True:
                active = [r for r, (m, cb, _) in learners.items() if m.num_timesteps < cfg.total_timesteps and not cb.out_of_time]
                if not active:
                    break
                for role in active:
                    model, callback, _ = learners[role]
                    steps = min(phase, cfg.total_timesteps - model.num_timesteps)
                    model.learn(total_timesteps=steps, callback=callback, reset_num_timesteps=first and role not in resume,
                                tb_log_name=f"tb_{role}" if multi else "tb")
                first = False
        except KeyboardInterrupt as e:
            if isinstance(e, TrainingInterrupted):
                raise
            raise _interrupted(cfg, env_name, run_dir, learners, multi) from None
        elapsed = time.time() - start

        per_role: dict[str, Any] = {}
        for role, (model, callback, vec_env) in learners.items():
            final = callback.evaluate() if cfg.eval_games else {}
            final_id = callback.snapshot() if not cfg.eval_games else callback.parent
            callback.close()
            per_role[role] = {
                "checkpoint": final_id,
                "name": callback.name,
                "steps": int(model.num_timesteps),
                "steps_per_second": round((model.num_timesteps - start_steps[role]) / max(elapsed, 1e-9), 1),
                "final_eval": final,
                "history": callback.history,
                "games_finished": vec_env.finished_games,
            }
            if cfg.backend == "ray" and cfg.num_workers:
                per_role[role]["actor_restarts"] = vec_env.restarts
        head = per_role[train_roles[0]]
        summary = {
            "run_dir": str(run_dir),
            "backend": cfg.backend if cfg.num_workers else "in-process",
            **head,
            "steps": sum(r["steps"] for r in per_role.values()),
            "seconds": round(elapsed, 1),
            "steps_per_second": round(sum(r["steps"] - start_steps[k] for k, r in per_role.items()) / max(elapsed, 1e-9), 1),
            "roles": per_role if multi else None,
        }
        (run_dir / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    finally:
        for _, callback, vec_env in learners.values():
            callback.close()
            vec_env.close()  # stops worker processes (or Ray actors) even when training fails
        if started_ray:
            from mythzoo.training.ray_backend import disconnect

            disconnect()
    return summary
