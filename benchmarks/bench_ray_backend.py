"""Learner steps per second, PPO updates included, on the Ray backend against the process backend,
measured in the same run: ``mythzoo train mythic_baths`` with the shipped config (2 workers, 64
games, 128x128 networks), no registry, no evaluations, no warm start, one snapshot per rollout.

    python benchmarks/bench_ray_backend.py [--rollouts 3] [--repeats 3] [--json out.json] [key=value ...]

Each round trains on the process backend, then on the Ray backend, so that a change in a shared
machine's load hits both sides of that round's ratio alike. One local Ray cluster, started by the
script, is up for the whole run, so both sides run in the same process with the same machine
state (idle, the cluster's services take about 3% of a core); under load, the process backend's
update was measured several times slower in a process with no Ray connection, and the
comparison is of the backends, not of that. The cluster's start and the actors' start are outside
the timed part, as the worker processes' start is on the process side (``steps_per_second`` of the
training summary counts from the first rollout). Printed: every round, the medians, the ratio of
the medians and the median of the rounds' ratios (Ray / process: 1.0 is parity).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
from pathlib import Path

import numpy as np


def bench(backend: str, rollouts: int, seed: int, overrides: list[str]) -> float:
    """One ``train`` run on ``backend``; its learner steps per second."""
    from mythzoo.training.config import load_config
    from mythzoo.training.ppo import train

    cfg = load_config("mythic_baths/ppo.yaml", [f"seed={seed}", "registry=none", "eval_games=0", "pretrain_teacher=null", "progress=false",
                                                f"run_dir={Path(tempfile.gettempdir()) / 'mythzoo-bench-runs'}", f"backend={backend}", *overrides])
    cfg.total_timesteps = rollouts * cfg.num_envs * cfg.n_steps
    cfg.snapshot_every = cfg.num_envs * cfg.n_steps  # one snapshot per rollout: every rollout pays a broadcast
    return float(train(cfg)["steps_per_second"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rollouts", type=int, default=3, help="rollouts (with their PPO updates) per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="rounds (each: process backend, then Ray backend)")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("overrides", nargs="*", help="config overrides for both backends, e.g. num_workers=2")
    args = parser.parse_args()
    import ray

    rows = []
    load = os.getloadavg()[0]
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, logging_level="WARNING")
    for r in range(args.repeats):
        proc = bench("process", args.rollouts, r, args.overrides)
        ray_rate = bench("ray", args.rollouts, r, args.overrides)
        rows.append({"process": proc, "ray": ray_rate, "ratio": ray_rate / proc})
        print(f"round {r}: process {proc:8.1f} steps/s   ray {ray_rate:8.1f} steps/s   ray/process {ray_rate / proc:.3f}", flush=True)
    med = {k: float(np.median([row[k] for row in rows])) for k in ("process", "ray", "ratio")}
    print(f"median: process {med['process']:.1f} steps/s, ray {med['ray']:.1f} steps/s; "
          f"ratio of medians {med['ray'] / med['process']:.3f}, median of ratios {med['ratio']:.3f}")
    ray.shutdown()
    print(f"load average (1 min) at start {load:.2f}, at end {os.getloadavg()[0]:.2f}; cpus {os.cpu_count()}; "
          f"{platform.processor() or platform.machine()}; ray {ray.__version__}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rounds": rows, "median": med, "ray_version": ray.__version__, "overrides": args.overrides,
                                               "load_start": load, "load_end": os.getloadavg()[0]}, indent=2))


if __name__ == "__main__":
    main()
