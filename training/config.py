"""Training configuration: one typed model, loaded from YAML, overridable with ``key=value``.

:class:`TrainConfig` is a strict pydantic model: every key has a type and a one-line
description (``mythzoo train --help`` lists them), unknown keys are refused, and nothing is
coerced except an integer where a float belongs. A number where text belongs (YAML reads the
checkpoint id ``255572601050`` as a number) is refused with a message that says to quote it.
The shipped presets live in the ``mythzoo.configs`` package (``configs/<game>/*.yaml``).
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator


def _config_root() -> Path:
    """The folder of the shipped configs: the ``mythzoo.configs`` package (``configs/``)."""
    return Path(str(resources.files("mythzoo.configs")))


CONFIG_ROOT = _config_root()


class ConfigError(ValueError):
    """A config that cannot be used; the message says which key and what to change."""


def _refuse_number(value: Any) -> Any:
    # YAML reads 255572601050 (a checkpoint id with no hex letter) as a number, and 0123 as octal.
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise ValueError(f"expected text, got the number {value!r}; put it in quotes")
    return value


# Text that refuses a number with a message saying to quote it.
Text = Annotated[str, BeforeValidator(_refuse_number)]


class TrainConfig(BaseModel):
    """Everything a run depends on; the resolved config is written next to the run's logs."""

    model_config = ConfigDict(strict=True, extra="forbid", validate_assignment=True)

    env: Text = Field("mythic_baths_v1", description="env name (versioned or not)")
    env_kwargs: dict[str, Any] = Field(default_factory=lambda: {"num_players": 2}, description="passed to env()")
    env_kwargs_variants: list[dict[str, Any]] | None = Field(None, description="training games cycle through these updates of env_kwargs (e.g. [{num_players: 2}, {num_players: 3}, {num_players: 4}]: one network trained at every table size; every variant must keep the observation layout and action table); None: every game uses env_kwargs")
    eval_env_kwargs: dict[str, Any] | None = Field(None, description="env() arguments for evaluations (None: env_kwargs)")
    total_timesteps: int = Field(1_000_000, description="learner decisions to train for (10**12 or more with max_minutes: the clock alone ends the run, and the bar counts its seconds)")
    max_minutes: float | None = Field(None, description="stop earlier when this much wall-clock time has passed")
    seed: int = Field(0, description="seeds torch, numpy, the games and the opponent draws")
    num_envs: int = Field(64, description="games played at once (batched inference)")
    num_workers: int = Field(0, description="processes that play the games (0: in the training process; N: split over N, with a pipelined rollout from 2)")
    backend: Text = Field("process", description="who plays the games with num_workers >= 1: process (worker processes on this machine) or ray (Ray actors, on a local or an existing Ray cluster)")
    ray_address: Text | None = Field(None, description='backend ray: the cluster to join (e.g. "auto" or "ray://head:10001"; None: start a local Ray cluster for the run)')
    ray_max_restarts: int = Field(3, description="backend ray: how often Ray restarts each rollout actor that dies (its games are cut and restarted, training goes on)")
    n_steps: int = Field(128, description="learner decisions per game per rollout (rollout = num_envs * n_steps)")
    batch_size: int = Field(1024, description="PPO minibatch")
    n_epochs: int = Field(4, description="PPO epochs per rollout")
    learning_rate: float = Field(3e-4, description="Adam step size")
    learning_rate_final: float | None = Field(None, description="anneal the step size linearly from learning_rate to this by the end of the run (of total_timesteps, or of max_minutes by the clock, whichever ends it sooner); None: constant")
    gamma: float = Field(0.995, description="discount (rewards come at the end of long games)")
    gae_lambda: float = Field(0.95, description="GAE lambda")
    clip_range: float = Field(0.2, description="PPO clip")
    ent_coef: float = Field(0.01, description="entropy bonus")
    vf_coef: float = Field(0.5, description="value loss weight")
    max_grad_norm: float = Field(0.5, description="gradient clipping")
    net_arch: list[int] = Field(default_factory=lambda: [256, 256], description="hidden layers of policy and value MLPs")
    activation: Text = Field("tanh", description="tanh or relu")
    opponent_mix: dict[str, float] = Field(default_factory=lambda: {"latest": 0.6, "past": 0.2, "baselines": 0.2}, description="opponent categories (latest, past, baselines) and their shares of the games")
    baselines: list[Text] = Field(default_factory=lambda: ["random", "heuristic"], description="baseline opponents: random, heuristic, mcts:N or mcts:N:heuristic (the search, N simulations per decision)")
    opponents: list[Text] = Field(default_factory=list, description="extra registry refs added to the past pool (ROLE:REF: to that role's pool alone)")
    learner_agents: list[Text] | None = Field(None, description="seats the learner may take (None: every seat of its role)")
    roles: list[Text] | None = Field(None, description="roles to train, one network each (None: every role of the env)")
    role_phase_steps: int = Field(100_000, description="with several roles: learner steps of one role before the next takes its turn")
    snapshot_every: int = Field(100_000, description="learner steps between snapshots (pool + registry)")
    eval_every: int = Field(200_000, description="learner steps between evaluations against the baselines")
    eval_games: int = Field(100, description="games per baseline per evaluation (seats rotated)")
    registry: Text | None = Field(None, description='registry directory (None: $MYTHZOO_REGISTRY or ./registry; "none": no registry)')
    name: Text | None = Field(None, description="checkpoint name in the registry (None: <env>-ppo)")
    run_dir: Text = Field("runs", description="where run folders (config, TensorBoard logs) go")
    resume: Text | None = Field(None, description='registry ref to continue from (several roles: "invoker=REF hero=REF")')
    pretrain_teacher: Text | None = Field(None, description="warm start: imitate this policy ref (e.g. heuristic) before PPO (None: from scratch)")
    pretrain_games: int = Field(200, description="teacher-played games whose decisions are imitated")
    pretrain_epochs: int = Field(5, description="passes over those decisions")
    pretrain_dagger_rounds: int = Field(0, description="DAgger: rounds of games the learner plays and the teacher labels, each added and refitted")
    bc_coef: float = Field(0.0, description="during PPO: weight of the teacher-imitation loss, a gradient step on it after each PPO step (0: off)")
    update_precision: Text = Field("float32", description="float32, or bfloat16: the PPO update's matrix products under torch.autocast (faster on CPUs with bf16 units)")
    torch_threads: int = Field(1, description="torch threads while games are played (more spin-wait against the games on 2 cores)")
    update_threads: int = Field(2, description="torch threads for the PPO update, when no game runs")
    progress: bool = Field(True, description="show a progress bar")

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as e:
            raise ConfigError(_describe(e)) from None

    def __setattr__(self, name: str, value: Any) -> None:
        try:
            super().__setattr__(name, value)
        except ValidationError as e:
            raise ConfigError(_describe(e)) from None

    @model_validator(mode="after")
    def _check_ranges(self) -> TrainConfig:
        validate(self)
        return self


def validate(cfg: TrainConfig) -> None:
    """Range checks with messages that say what to change (run on every construction)."""
    if cfg.env_kwargs_variants is not None and not cfg.env_kwargs_variants:
        raise ValueError("config env_kwargs_variants must list at least one variant of env_kwargs, or be null")
    for key in ("total_timesteps", "num_envs", "n_steps", "batch_size", "n_epochs", "snapshot_every", "eval_every", "torch_threads", "update_threads", "role_phase_steps", "pretrain_games", "pretrain_epochs"):
        if getattr(cfg, key) < 1:
            raise ValueError(f"config {key} must be >= 1, got {getattr(cfg, key)}")
    if cfg.learning_rate <= 0 or (cfg.learning_rate_final is not None and cfg.learning_rate_final <= 0):
        raise ValueError("config learning_rate and learning_rate_final must be positive (learning_rate_final null: constant)")
    if cfg.max_minutes is not None and cfg.max_minutes <= 0:
        raise ValueError("config max_minutes must be positive (or null for no limit)")
    if cfg.num_workers < 0:
        raise ValueError(f"config num_workers must be >= 0 (0 plays the games in the training process), got {cfg.num_workers}")
    if cfg.num_workers > cfg.num_envs:
        raise ValueError(f"config num_workers ({cfg.num_workers}) must not exceed num_envs ({cfg.num_envs})")
    if cfg.backend not in ("process", "ray"):
        raise ValueError(f"config backend must be process or ray, got {cfg.backend!r}")
    if cfg.backend == "ray" and cfg.num_workers < 1:
        raise ValueError("config backend ray needs num_workers >= 1 (the Ray actors that play the games)")
    if cfg.ray_address is not None and cfg.backend != "ray":
        raise ValueError("config ray_address is only used with backend ray")
    if cfg.ray_max_restarts < 0:
        raise ValueError(f"config ray_max_restarts must be >= 0, got {cfg.ray_max_restarts}")
    if cfg.pretrain_dagger_rounds < 0 or cfg.bc_coef < 0:
        raise ValueError("config pretrain_dagger_rounds and bc_coef must be >= 0")
    if cfg.bc_coef > 0 and not cfg.pretrain_teacher:
        raise ValueError("config bc_coef needs a pretrain_teacher (the demonstrations it keeps the learner close to)")
    if cfg.eval_games < 0:
        raise ValueError("config eval_games must be >= 0")
    from mythzoo.policies.baselines import BASELINE_NAMES
    from mythzoo.policies.search import is_search_ref, parse_search_ref

    for name in cfg.baselines:
        if is_search_ref(name):
            try:
                parse_search_ref(name)
            except ValueError as e:
                raise ValueError(f"config baselines: {e}") from None
        elif name not in BASELINE_NAMES:
            raise ValueError(f"config baselines: unknown baseline {name!r}; use random, heuristic, mcts:N or mcts:N:heuristic")
    if cfg.update_precision not in ("float32", "bfloat16"):
        raise ValueError(f"config update_precision must be float32 or bfloat16, got {cfg.update_precision!r}")
    if cfg.activation not in ("tanh", "relu"):
        raise ValueError(f"config activation must be tanh or relu, got {cfg.activation!r}")
    if not 0 < cfg.gamma <= 1 or not 0 < cfg.gae_lambda <= 1:
        raise ValueError("gamma and gae_lambda must be in (0, 1]")
    if (cfg.num_envs * cfg.n_steps) % cfg.batch_size and cfg.batch_size > cfg.num_envs * cfg.n_steps:
        raise ValueError("batch_size must not exceed num_envs * n_steps")


# ------------------------------------------------------------------ messages
def _type_name(tp: Any) -> str:
    """``int``, ``list[int]``, ``float | None``, ``text``: the type of a key as a reader says it."""
    if typing.get_origin(tp) is Annotated:
        tp = typing.get_args(tp)[0]
    if tp is str:
        return "text"
    if tp is Any:
        return "any value"
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return " | ".join("null" if a is type(None) else _type_name(a) for a in args)
    if origin is not None:
        return f"{origin.__name__}[{', '.join(_type_name(a) for a in args)}]"
    return getattr(tp, "__name__", str(tp))


_EXPECTED = {"int_type": "int", "float_type": "float", "string_type": "text", "bool_type": "bool", "list_type": "list", "dict_type": "dict"}


def _unknown_keys_message(unknown: list[str]) -> str:
    known = list(TrainConfig.model_fields)
    hints = [f"{m[0]!r} for {k!r}" for k in unknown if (m := difflib.get_close_matches(k, known, n=1))]
    hint = f" (did you mean {', '.join(hints)}?)" if hints else ""
    return f"unknown config keys {unknown}{hint}; known: {sorted(known)}"


def _describe(error: ValidationError) -> str:
    """One line for every problem pydantic found, each naming its key."""
    unknown: list[str] = []
    lines: list[str] = []
    for e in error.errors(include_url=False):
        loc, kind = e["loc"], e["type"]
        if kind in ("extra_forbidden", "no_such_attribute"):
            unknown.append(str(loc[0]))
            continue
        reason = str(e.get("ctx", {}).get("error", e["msg"])) if kind == "value_error" else None
        if not loc:  # a range check of the whole config (validate())
            lines.append(reason or e["msg"])
            continue
        key = str(loc[0])
        where = f"config key {key!r}" + (f" (item {'/'.join(map(str, loc[1:]))})" if len(loc) > 1 else "")
        if reason is not None:
            lines.append(f"{where}: {reason}")
        elif kind in _EXPECTED:
            field = TrainConfig.model_fields.get(key)
            expected = _type_name(field.annotation) if field is not None and len(loc) == 1 else _EXPECTED[kind]
            lines.append(f"{where}: expected {expected}, got {e['input']!r}")
        else:
            lines.append(f"{where}: {e['msg']}, got {e['input']!r}")
    if unknown:
        lines.insert(0, _unknown_keys_message(unknown))
    return "; ".join(dict.fromkeys(lines))


# ------------------------------------------------------------------ public functions
def from_dict(data: dict[str, Any]) -> TrainConfig:
    """Validate keys and types; unknown keys are an error (typos must not pass silently).

    Raises :class:`ConfigError` (a ``ValueError``) with a one-line message naming every bad key."""
    try:
        return TrainConfig.model_validate(data)
    except ValidationError as e:
        raise ConfigError(_describe(e)) from None


def field_help() -> str:
    """Every key with its type, default and description, one per line (``mythzoo train --help``)."""
    rows = []
    for key, field in TrainConfig.model_fields.items():
        default = field.get_default(call_default_factory=True)
        rows.append(f"  {key} ({_type_name(field.annotation)}, default {default!r}): {field.description}")
    return "\n".join(rows)


def _is_text(key: str) -> bool:
    """Whether config ``key`` holds text (``str`` or ``str | None``)."""
    field = TrainConfig.model_fields.get(key)
    return field is not None and _type_name(field.annotation) in ("text", "text | null")


def default_config_path(env: str) -> Path | None:
    """``configs/<game>/ppo.yaml`` for env ``env`` (versioned or not), if there is one."""
    base = re.sub(r"_v\d+$", "", env)
    candidate = CONFIG_ROOT / base / "ppo.yaml"
    return candidate if candidate.exists() else None


def load_config(path: str | Path | None = None, overrides: list[str] | None = None, env: str | None = None) -> TrainConfig:
    """Read a YAML config (``configs/<env>/ppo.yaml`` by default), apply ``key=value`` overrides."""
    import yaml

    data: dict[str, Any] = {}
    if path is None and env is not None:
        path = default_config_path(env)
    if path is not None:
        p = Path(path)
        if not p.exists():
            alt = CONFIG_ROOT / p
            if alt.exists():
                p = alt
            else:
                raise FileNotFoundError(f"config file {path} not found")
        loaded = _safe_yaml(p.read_text(), str(p))
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
            data[key] = _safe_yaml(raw, f"override {item!r}")
    return from_dict(data)


def _safe_yaml(text: str, where: str) -> Any:
    """``yaml.safe_load(text)``, or a one-line :class:`ConfigError` naming ``where`` and the line:
    malformed YAML, and any tag that builds an object (``!!python/...``: plain values only)."""
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.constructor.ConstructorError as e:
        mark = e.problem_mark
        line = f" (line {mark.line + 1})" if mark is not None else ""
        raise ConfigError(f"{where}{line}: {' '.join(str(e.problem).split())}; a config holds plain YAML values only") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e)
        raise ConfigError(f"{where}: not valid YAML{line}: {' '.join(str(problem).split())}") from None
    except RecursionError:
        raise ConfigError(f"{where}: nested too deeply") from None


def to_dict(cfg: TrainConfig) -> dict[str, Any]:
    """The config as plain data (what ``to_yaml`` writes and checkpoints record)."""
    return cfg.model_dump()


def to_yaml(cfg: TrainConfig) -> str:
    """The resolved config as YAML."""
    import yaml

    return yaml.safe_dump(to_dict(cfg), sort_keys=False)
