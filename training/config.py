"""Training configuration: one dataclass, loaded from YAML, overridable with ``key=value``."""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

CONFIG_ROOT = Path(__file__).resolve().parent.parent / "configs"


@dataclass
class TrainConfig:
    """Everything a run depends on; the resolved config is written next to the run's logs."""

    env: str = "mythic_baths_v0"  # env name (versioned or not)
    env_kwargs: dict[str, Any] = field(default_factory=lambda: {"num_players": 2})  # passed to env()
    eval_env_kwargs: dict[str, Any] | None = None  # env() arguments for evaluations (None: env_kwargs)
    total_timesteps: int = 1_000_000  # learner decisions to train for
    max_minutes: float | None = None  # stop earlier when this much wall-clock time has passed
    seed: int = 0  # seeds torch, numpy, the games and the opponent draws
    num_envs: int = 64  # games played at once (batched inference)
    num_workers: int = 0  # processes that play the games (0: in the training process; N: split over N, with a pipelined rollout from 2)
    n_steps: int = 128  # learner decisions per game per rollout (rollout = num_envs * n_steps)
    batch_size: int = 1024  # PPO minibatch
    n_epochs: int = 4  # PPO epochs per rollout
    learning_rate: float = 3e-4  # Adam step size
    gamma: float = 0.995  # discount (rewards come at the end of long games)
    gae_lambda: float = 0.95  # GAE lambda
    clip_range: float = 0.2  # PPO clip
    ent_coef: float = 0.01  # entropy bonus
    vf_coef: float = 0.5  # value loss weight
    max_grad_norm: float = 0.5  # gradient clipping
    net_arch: list[int] = field(default_factory=lambda: [256, 256])  # hidden layers of policy and value MLPs
    activation: str = "tanh"  # tanh or relu
    opponent_mix: dict[str, float] = field(default_factory=lambda: {"latest": 0.6, "past": 0.2, "baselines": 0.2})  # opponent categories
    baselines: list[str] = field(default_factory=lambda: ["random", "heuristic"])  # baseline opponents
    opponents: list[str] = field(default_factory=list)  # extra registry refs added to the past pool
    learner_agents: list[str] | None = None  # seats the learner may take (None: every seat of its role)
    roles: list[str] | None = None  # roles to train, one network each (None: every role of the env)
    role_phase_steps: int = 100_000  # with several roles: learner steps of one role before the next takes its turn
    snapshot_every: int = 100_000  # learner steps between snapshots (pool + registry)
    eval_every: int = 200_000  # learner steps between evaluations against the baselines
    eval_games: int = 100  # games per baseline per evaluation (seats rotated)
    registry: str | None = None  # registry directory (None: $MYTHZOO_REGISTRY or ./registry; "none": no registry)
    name: str | None = None  # checkpoint name in the registry (None: <env>-ppo)
    run_dir: str = "runs"  # where run folders (config, TensorBoard logs) go
    resume: str | None = None  # registry ref to continue from (several roles: "invoker=REF hero=REF")
    pretrain_teacher: str | None = None  # warm start: imitate this policy ref (e.g. heuristic) before PPO (None: from scratch)
    pretrain_games: int = 200  # teacher-played games whose decisions are imitated
    pretrain_epochs: int = 5  # passes over those decisions
    pretrain_dagger_rounds: int = 0  # DAgger: rounds of games the learner plays and the teacher labels, each added and refitted
    bc_coef: float = 0.0  # during PPO: weight of the teacher-imitation loss, a gradient step on it after each PPO step (0: off)
    update_precision: str = "float32"  # float32, or bfloat16: the PPO update's matrix products under torch.autocast (faster on CPUs with bf16 units)
    torch_threads: int = 1  # torch threads while games are played (more spin-wait against the games on 2 cores)
    update_threads: int = 2  # torch threads for the PPO update, when no game runs
    progress: bool = True  # show a progress bar


def _cast(value: Any, tp: Any, key: str) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)) and type(None) in args:
        if value is None:
            return None
        tp = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if tp is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if tp in (str, bool) and isinstance(value, tp):
        return value
    if tp is str and isinstance(value, (int, float)) and not isinstance(value, bool):
        # YAML reads 255572601050 (a checkpoint id with no hex letter) as a number, and 0123 as octal.
        raise ValueError(f"config key {key!r}: expected text, got the number {value!r}; put it in quotes")
    if origin is list and isinstance(value, list):
        return [_cast(v, args[0], key) for v in value]
    if origin is dict and isinstance(value, dict):
        return {str(k): _cast(v, args[1], key) if args[1] is not Any else v for k, v in value.items()}
    raise ValueError(f"config key {key!r}: expected {tp}, got {value!r}")


def from_dict(data: dict[str, Any]) -> TrainConfig:
    """Validate keys and types; unknown keys are an error (typos must not pass silently)."""
    hints = typing.get_type_hints(TrainConfig)
    names = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"unknown config keys {unknown}; known: {sorted(names)}")
    cfg = TrainConfig(**{k: _cast(v, hints[k], k) for k, v in data.items()})
    validate(cfg)
    return cfg


def validate(cfg: TrainConfig) -> None:
    """Range checks with messages that say what to change."""
    for key in ("total_timesteps", "num_envs", "n_steps", "batch_size", "n_epochs", "snapshot_every", "eval_every", "torch_threads", "update_threads", "role_phase_steps", "pretrain_games", "pretrain_epochs"):
        if getattr(cfg, key) < 1:
            raise ValueError(f"config {key} must be >= 1, got {getattr(cfg, key)}")
    if cfg.max_minutes is not None and cfg.max_minutes <= 0:
        raise ValueError("config max_minutes must be positive (or null for no limit)")
    if cfg.num_workers < 0:
        raise ValueError(f"config num_workers must be >= 0 (0 plays the games in the training process), got {cfg.num_workers}")
    if cfg.num_workers > cfg.num_envs:
        raise ValueError(f"config num_workers ({cfg.num_workers}) must not exceed num_envs ({cfg.num_envs})")
    if cfg.pretrain_dagger_rounds < 0 or cfg.bc_coef < 0:
        raise ValueError("config pretrain_dagger_rounds and bc_coef must be >= 0")
    if cfg.bc_coef > 0 and not cfg.pretrain_teacher:
        raise ValueError("config bc_coef needs a pretrain_teacher (the demonstrations it keeps the learner close to)")
    if cfg.eval_games < 0:
        raise ValueError("config eval_games must be >= 0")
    if cfg.update_precision not in ("float32", "bfloat16"):
        raise ValueError(f"config update_precision must be float32 or bfloat16, got {cfg.update_precision!r}")
    if cfg.activation not in ("tanh", "relu"):
        raise ValueError(f"config activation must be tanh or relu, got {cfg.activation!r}")
    if not 0 < cfg.gamma <= 1 or not 0 < cfg.gae_lambda <= 1:
        raise ValueError("gamma and gae_lambda must be in (0, 1]")
    if (cfg.num_envs * cfg.n_steps) % cfg.batch_size and cfg.batch_size > cfg.num_envs * cfg.n_steps:
        raise ValueError("batch_size must not exceed num_envs * n_steps")


def _is_text(key: str) -> bool:
    """Whether config ``key`` holds text (``str`` or ``str | None``)."""
    tp = typing.get_type_hints(TrainConfig).get(key)
    return tp is str or set(typing.get_args(tp)) == {str, type(None)}


def load_config(path: str | Path | None = None, overrides: list[str] | None = None, env: str | None = None) -> TrainConfig:
    """Read a YAML config (``configs/<env>/ppo.yaml`` by default), apply ``key=value`` overrides."""
    data: dict[str, Any] = {}
    if path is None and env is not None:
        base = env[:-3] if env.endswith("_v0") else env
        candidate = CONFIG_ROOT / base / "ppo.yaml"
        path = candidate if candidate.exists() else None
    if path is not None:
        p = Path(path)
        if not p.exists():
            alt = CONFIG_ROOT / p
            if alt.exists():
                p = alt
            else:
                raise FileNotFoundError(f"config file {path} not found")
        loaded = yaml.safe_load(p.read_text())
        if loaded is not None and not isinstance(loaded, dict):
            raise ValueError(f"{p}: a config must be a YAML mapping")
        data.update(loaded or {})
    if env is not None:
        data["env"] = env
    for item in overrides or []:
        if "=" not in item:
            raise ValueError(f"override {item!r} must be key=value")
        key, raw = item.split("=", 1)
        key = key.strip()
        if _is_text(key) and raw.strip() not in ("null", "~", ""):
            # Text as typed: YAML would turn a checkpoint id made of digits into a number.
            data[key] = raw.strip()
        else:
            data[key] = yaml.safe_load(raw)
    return from_dict(data)


def to_yaml(cfg: TrainConfig) -> str:
    """The resolved config as YAML."""
    return yaml.safe_dump(dataclasses.asdict(cfg), sort_keys=False)
