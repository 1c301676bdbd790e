"""``mythzoo train <env> [--config FILE] [key=value ...]``: masked PPO self-play."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_train_parser(subparsers: Any) -> None:
    """Register the ``train`` subcommand."""
    from mythzoo.training.config import field_help

    p = subparsers.add_parser(
        "train",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="config keys (in a YAML config or as key=value):\n" + field_help(),
        help="train a masked-PPO agent by self-play against past selves and baselines",
        description="Masked PPO self-play. Hyperparameters come from configs/<env>/ppo.yaml unless --config is given; "
        "any key can be overridden as key=value (every key is listed below).",
    )
    p.add_argument("env", help="env name, e.g. mythic_baths")
    p.add_argument("--config", help="YAML config (a path, or relative to configs/, e.g. mythic_baths/quick.yaml)")
    p.add_argument("--registry", help="registry directory (default $MYTHZOO_REGISTRY or ./registry)")
    p.add_argument("--resume", help="registry ref to continue from (e.g. mythic_baths_v1-ppo@latest); several roles: 'invoker=REF hero=REF'")
    p.add_argument("--backend", choices=("process", "ray"), help="who plays the games with num_workers >= 1: worker processes (default) or Ray actors")
    p.add_argument("--ray-address", help="with --backend ray: the Ray cluster to join (e.g. auto, or ray://HEAD:10001); default: a local Ray cluster for the run")
    p.add_argument("--dry-run", action="store_true", help="print the resolved config (and the file it came from) and exit")
    p.add_argument("overrides", nargs="*", help="key=value overrides, e.g. total_timesteps=50000 seed=3")
    p.set_defaults(func=run_train)


# What `mythzoo train` imports: the config reader, then the trainer (torch, SB3, sb3-contrib, TensorBoard's writer).
CONFIG_MODULES = ("yaml",)
TRAIN_MODULES = ("yaml", "torch", "stable_baselines3", "sb3_contrib", "tensorboard")


def config_source(config: str | None, env_name: str) -> str:
    """The file ``load_config`` reads for ``--config`` (or the env's shipped ppo.yaml), as text."""
    from pathlib import Path

    from mythzoo.training.config import CONFIG_ROOT, default_config_path

    if config is None:
        path = default_config_path(env_name)
        return str(path) if path is not None else "none (no shipped configs/<game>/ppo.yaml: the defaults)"
    p = Path(config)
    return str(p.resolve() if p.exists() else (CONFIG_ROOT / p).resolve())


def run_train(args: argparse.Namespace) -> int:
    """Resolve the config, train, print the summary."""
    from mythzoo import envs as mz_envs
    from mythzoo.extras import require

    # Every library training needs, checked before any work, so one message lists all that are missing.
    require(CONFIG_MODULES if args.dry_run else TRAIN_MODULES, "mythzoo train" + (" --dry-run" if args.dry_run else ""))
    from mythzoo.training.config import load_config, to_yaml

    try:
        env_name = mz_envs.resolve(args.env)
        overrides = list(args.overrides)
        if args.registry:
            overrides.append(f"registry={args.registry}")
        if args.resume:
            overrides.append(f"resume={args.resume}")
        if args.backend:
            overrides.append(f"backend={args.backend}")
        if args.ray_address:
            overrides.append(f"ray_address={args.ray_address}")
        cfg = load_config(args.config, overrides, env=env_name)
        if cfg.backend == "ray" and not args.dry_run:
            from mythzoo.training.ray_backend import require_ray

            require_ray()  # a missing extra: one line naming it, before anything starts
    except (KeyError, ValueError, OSError, ImportError) as e:
        print(f"mythzoo train: {e.args[0] if isinstance(e, KeyError) and e.args else e}", file=sys.stderr)
        return 2
    source = config_source(args.config, env_name)
    if args.dry_run:
        print(f"# config: {source}")
        print(to_yaml(cfg))
        return 0
    print(f"mythzoo train: {env_name}, config {source}", file=sys.stderr, flush=True)
    from mythzoo.policies.registry import RegistryError
    from mythzoo.training.ppo import TrainingInterrupted, train

    try:
        summary = train(cfg)
    except TrainingInterrupted as e:  # Ctrl-C: the learners were saved; say where and how to go on
        print(f"\nmythzoo train: {e.message}", file=sys.stderr)
        return 130
    except RegistryError as e:  # a --resume or opponent ref that names no checkpoint: refused before the run starts
        print(f"mythzoo train: {e}", file=sys.stderr)
        return 2
    except Exception as e:
        if cfg.backend == "ray":
            from mythzoo.training.ray_backend import RayBackendError

            if isinstance(e, RayBackendError):  # no cluster to join, actors that cannot start or keep dying
                print(f"mythzoo train: {e}", file=sys.stderr)
                return 1
        raise
    print(json.dumps({k: v for k, v in summary.items() if k != "history"}, indent=2, default=str))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Standalone entry (tests call this)."""
    from mythzoo.cli import dispatch

    parser = argparse.ArgumentParser(prog="mythzoo")
    add_train_parser(parser.add_subparsers(dest="command", metavar="COMMAND"))
    return dispatch(parser, argv)
