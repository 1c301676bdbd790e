"""What bounds ``mythzoo train``'s learner steps per second on this machine: the CPU work of one
learner step, split into the games (worker processes: rules, observer, opponents), the learner's
forward passes while the games play, and the PPO update; and the rate every core busy with that
work would give. The tutorial setup of ``bench_train.py`` is measured in the same run for the ratio.

    python benchmarks/bench_train_bound.py [--rollouts 4] [--repeats 2] [--games-seconds 2] [--json out.json] [key=value ...]

Per round: the tutorial, then ``mythzoo train mythic_baths`` (the shipped config, no registry,
evaluations or warm start, as in ``bench_train.py``) over ``--rollouts`` rollouts, the first left out
as warm-up, then its games alone for ``--games-seconds``. Each rollout's collection and update are timed on the wall clock and in CPU seconds:
the training process from ``time.process_time()`` (all its threads), each worker from
``/proc/<pid>/stat`` (Linux). Printed per learner step: the wall time and the CPU time of each part,
the cores' use (CPU seconds over cores x wall seconds), and four ceilings in learner steps/s:

* every core busy with today's work per step (``cores / CPU seconds per step``);
* the same with the games free (only the learner's forward passes and the update);
* the same with the update free (only the games and the forward passes);
* the same with the opponents' choices and the pipes free: the games measured alone (random
  opponents, no network, one process: today's engine, observer and self-play bookkeeping) in place
  of the workers' CPU.

A ceiling divided by the tutorial's rate is the most that ratio can reach while that work per step
stands: a target above it needs less work per step, not better scheduling.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import time

import numpy as np
import torch

from bench_train import bench_mythzoo, bench_tutorial

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) a live process has used, from /proc; 0.0 where unreadable."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime: fields 14 and 15 of stat
    except (OSError, IndexError, ValueError):
        return 0.0


def _workers_cpu() -> float:
    return sum(_cpu_of(p.pid) for p in mp.active_children())


class _Meter:
    """Wall and CPU seconds of each rollout's collection and update, patched onto the PPO class."""

    def __init__(self) -> None:
        self.rows: list[dict[str, float]] = []

    def install(self):
        from mythzoo.training.ppo import ImitationRegularizedPPO

        meter, collect, train = self, ImitationRegularizedPPO.collect_rollouts, ImitationRegularizedPPO.train

        def timed_collect(model, env, callback, rollout_buffer, n_rollout_steps, use_masking=True):
            w0, c0, k0 = time.perf_counter(), time.process_time(), _workers_cpu()
            out = collect(model, env, callback, rollout_buffer, n_rollout_steps, use_masking)
            meter.rows.append({"steps": n_rollout_steps * env.num_envs, "collect_wall": time.perf_counter() - w0,
                               "collect_main_cpu": time.process_time() - c0, "collect_workers_cpu": _workers_cpu() - k0})
            return out

        def timed_train(model):
            w0, c0, k0 = time.perf_counter(), time.process_time(), _workers_cpu()
            train(model)
            if meter.rows:
                meter.rows[-1].update(update_wall=time.perf_counter() - w0, update_main_cpu=time.process_time() - c0,
                                      update_workers_cpu=_workers_cpu() - k0)

        ImitationRegularizedPPO.collect_rollouts, ImitationRegularizedPPO.train = timed_collect, timed_train
        return lambda: setattr(ImitationRegularizedPPO, "collect_rollouts", collect) or setattr(ImitationRegularizedPPO, "train", train)


def measure(rollouts: int, overrides: list[str]) -> dict[str, float]:
    """One mythzoo run's per-step figures (microseconds), its first rollout left out."""
    meter = _Meter()
    undo = meter.install()
    try:
        rate, _ = bench_mythzoo(rollouts, overrides=overrides)
    finally:
        undo()
    rows = [r for r in meter.rows[1:] if "update_wall" in r] or [r for r in meter.rows if "update_wall" in r]
    steps = sum(r["steps"] for r in rows)
    us = {k: 1e6 * sum(r[k] for r in rows) / steps for k in rows[0] if k != "steps"}
    us["rate"] = rate
    return us


def games_alone_us(seconds: float, overrides: list[str]) -> float:
    """CPU microseconds per learner step of the shipped config's games alone, in this process: one
    worker's block of games (``num_envs // num_workers``), the learner taking its first legal action
    and every other seat a uniform-random one (no network, no pipes): today's engine and observer,
    with the self-play bookkeeping, and nothing else."""
    from mythzoo.policies.base import RandomPolicy
    from mythzoo.training.config import load_config
    from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv

    cfg = load_config("mythic_baths/ppo.yaml", list(overrides))
    pool = OpponentPool({"baselines": 1.0}, seed=0)
    pool.add("baselines", "random", RandomPolicy(0))
    vec = SelfPlayVecEnv(cfg.env, cfg.env_kwargs, max(1, cfg.num_envs // max(1, cfg.num_workers)), pool, seed=0)
    vec.reset()
    steps, c0, w0 = 0, time.process_time(), time.perf_counter()
    while time.perf_counter() - w0 < seconds:
        vec.step(vec.action_masks().argmax(axis=1))
        steps += vec.num_envs
    us = 1e6 * (time.process_time() - c0) / steps
    vec.close()
    return us


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=4, help="mythzoo rollouts per round, the first one warm-up (64 games x 128 steps each)")
    ap.add_argument("--tutorial-steps", type=int, default=4096, help="tutorial timesteps per round")
    ap.add_argument("--repeats", type=int, default=2, help="rounds (each: the tutorial, then mythzoo, then its games alone)")
    ap.add_argument("--games-seconds", type=float, default=2.0, help="seconds of the games-alone measurement per round")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("overrides", nargs="*", help="config overrides key=value for the mythzoo side")
    args = ap.parse_intermixed_args(argv)
    if args.repeats < 1 or args.rollouts < 2 or args.tutorial_steps < 1:
        ap.error("--repeats and --tutorial-steps must be at least 1, --rollouts at least 2 (the first is warm-up)")
    if not os.path.exists(f"/proc/{os.getpid()}/stat"):
        ap.error("this benchmark reads worker CPU time from /proc (Linux only)")
    torch.set_num_threads(1)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    print(f"python {platform.python_version()}, numpy {np.__version__}, torch {torch.__version__}, {platform.machine()}, {cores} cores")
    rounds = []
    for r in range(args.repeats):
        tut = bench_tutorial(args.tutorial_steps)
        us = measure(args.rollouts, args.overrides)
        us["tutorial"] = tut
        us["games_alone"] = games_alone_us(args.games_seconds, args.overrides)
        rounds.append(us)
        print(f"round {r + 1}/{args.repeats}: tutorial {tut:6.0f} steps/s, mythzoo {us['rate']:6.0f} steps/s", flush=True)
    med = {k: float(np.median([x[k] for x in rounds])) for k in rounds[0]}
    wall = med["collect_wall"] + med["update_wall"]
    games = med["collect_workers_cpu"] + med["update_workers_cpu"]
    forward, update = med["collect_main_cpu"], med["update_main_cpu"]
    cpu = games + forward + update
    use = cpu / (cores * wall)
    ceilings = {"today's work": 1e6 * cores / cpu, "games free": 1e6 * cores / (forward + update),
                "update free": 1e6 * cores / (games + forward),
                "opponents and pipes free": 1e6 * cores / (med["games_alone"] + forward + update)}
    tut = med["tutorial"]
    print(f"\nper learner step (medians of {args.repeats} rounds, microseconds):")
    print(f"  wall: collection {med['collect_wall']:7.1f}, update {med['update_wall']:7.1f}, total {wall:7.1f} ({1e6 / wall:,.0f} steps/s)")
    print(f"  CPU:  games (workers) {games:7.1f}, learner forward passes and rollout bookkeeping {forward:7.1f}, PPO update {update:7.1f}, total {cpu:7.1f}")
    print(f"  cores' use: {100 * use:.0f}% of {cores} cores x wall time")
    print(f"  the games alone (random opponents, no network, no pipes, in one process): {med['games_alone']:7.1f} CPU")
    print(f"tutorial setup: {tut:,.0f} learner steps/s (median)")
    for name, rate in ceilings.items():
        print(f"ceiling, {name:24s}: {rate:8,.0f} learner steps/s = {rate / tut:5.2f}x the tutorial")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rounds": rounds, "medians": med, "cores": cores, "cores_use": use, "ceilings": ceilings,
                       "overrides": args.overrides, "rollouts": args.rollouts}, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
