"""The Ray backend's cost model, measured: what a rollout, an update and a snapshot cost, and from
that the learner steps per second predicted at more workers (docs/distributed.md).

    python benchmarks/ray_cost_model.py [--steps 300] [--rollouts 3] [--json out.json]

Measured with the shipped Mythic Baths config (``configs/mythic_baths/ppo.yaml``: 32 games per
worker, 128 steps per rollout, 128x128 networks, its opponent mix), on a local Ray cluster:

1. ``t_block``: one actor playing one step of its 32 games (the learner's moves, then the
   opponents' replies), timed inside the actor, with the actor alone on a core; ``t_rt``: what a
   step call costs on top of that, seen from the learner (transport, scheduling, Ray's bookkeeping);
   ``t_drv``: the learner process's own CPU time per call.
2. ``t_inf``: the learner's forward pass over one block of 32 games (1 torch thread, as in rollouts).
3. ``t_upd``: the PPO update per learner step, and the whole snapshot (export, pool, broadcast),
   from an instrumented short training run on the Ray backend with 2 workers.
4. ``t_bcast(N)``: one snapshot put in the object store and added to N actors, acknowledged.

Model (pipelined rollout, W workers of G games, S = W * G * n_steps steps per rollout):
rollout step = max(actor cycle = t_block + t_rt + t_inf, learner cycle = W * (t_inf + t_drv));
rollout = n_steps * rollout step; update = S * t_upd (the actors wait during it);
learner steps/s = S / (rollout + update + t_bcast(W) * S / snapshot_every).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np

N_STEPS = 128
GAMES = 32


def measure_update(rollouts: int) -> dict[str, float]:
    """A short Ray-backend run (2 workers, the shipped config), its phases timed."""
    from mythzoo.training import ppo, ray_backend
    from mythzoo.training.config import load_config

    spans: dict[str, list[float]] = {"collect": [], "update": [], "snapshot": [], "broadcast": []}
    stats: list[dict] = []

    def timed(cls, name, key):
        original = getattr(cls, name)

        def wrapper(*args, **kwargs):
            t = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                spans[key].append(time.perf_counter() - t)

        setattr(cls, name, wrapper)
        return original

    saved = [(ppo.ImitationRegularizedPPO, "collect_rollouts", timed(ppo.ImitationRegularizedPPO, "collect_rollouts", "collect")),
             (ppo.ImitationRegularizedPPO, "train", timed(ppo.ImitationRegularizedPPO, "train", "update")),
             (ppo.SelfPlayCallback, "snapshot", timed(ppo.SelfPlayCallback, "snapshot", "snapshot")),
             (ray_backend.RaySelfPlayVecEnv, "_broadcast", timed(ray_backend.RaySelfPlayVecEnv, "_broadcast", "broadcast"))]
    close = ray_backend.RaySelfPlayVecEnv.close

    def close_with_stats(self):
        if not self.closed:
            stats.extend(self.worker_stats())
        close(self)

    ray_backend.RaySelfPlayVecEnv.close = close_with_stats
    try:
        cfg = load_config("mythic_baths/ppo.yaml", ["registry=none", "eval_games=0", "pretrain_teacher=null", "progress=false", "backend=ray",
                                                    f"run_dir={Path(tempfile.gettempdir()) / 'mythzoo-bench-runs'}"])
        steps = cfg.num_envs * cfg.n_steps
        cfg.total_timesteps = rollouts * steps
        cfg.snapshot_every = steps
        summary = ppo.train(cfg)
    finally:
        for cls, name, original in saved:
            setattr(cls, name, original)
        ray_backend.RaySelfPlayVecEnv.close = close
    # A snapshot is two pool additions (the new `latest`, and the same weights as a past self).
    per_snapshot_broadcast = float(np.median(spans["broadcast"])) * 2
    return {
        "steps_per_rollout": steps,
        "collect_s": float(np.median(spans["collect"])),
        "update_s": float(np.median(spans["update"])),
        "t_upd": float(np.median(spans["update"])) / steps,
        "snapshot_s": float(np.median(spans["snapshot"])),
        "broadcast_s": per_snapshot_broadcast,
        "actor_play_s_per_step_shared": float(np.mean([s["step_seconds"] for s in stats])) / (rollouts * cfg.n_steps),
        "measured_steps_per_s": float(summary["steps_per_second"]),
    }


def measure_actor(steps: int) -> dict[str, float]:
    """One actor's step of 32 games, inside and seen from the learner; the learner's inference; the broadcast."""
    import torch

    from mythzoo import envs as mz_envs
    from mythzoo.policies.baselines import make_baseline
    from mythzoo.policies.neural import MLPPolicy, init_mlp_weights
    from mythzoo.training.config import load_config
    from mythzoo.training.masked_policy import LeanMaskablePolicy
    from mythzoo.training.ray_backend import RaySelfPlayVecEnv
    from mythzoo.training.selfplay import OpponentPool

    cfg = load_config("mythic_baths/ppo.yaml", [])
    probe = mz_envs.make(cfg.env, **cfg.env_kwargs)
    obs_size = probe.observation_space(probe.possible_agents[0])["observation"].shape[0]
    n_actions = probe.action_space(probe.possible_agents[0]).n
    weights, arch = init_mlp_weights(obs_size, n_actions, hidden=cfg.net_arch, activation=cfg.activation, seed=0)

    def pool() -> OpponentPool:
        p = OpponentPool(cfg.opponent_mix, seed=0)
        for base in cfg.baselines:
            p.add("baselines", f"baseline:{base}", make_baseline(base, probe, seed=0))
        p.add("latest", "latest", MLPPolicy(weights, arch, deterministic=False, seed=0))
        return p

    rng = np.random.default_rng(0)
    vec = RaySelfPlayVecEnv(cfg.env, cfg.env_kwargs, GAMES, pool(), num_workers=1, seed=0)
    try:
        vec.reset()
        for _ in range(20):  # warm up
            vec.step(np.argmax(vec.action_masks() * rng.random(vec.action_masks().shape), axis=1))
        before = vec.worker_stats()[0]["step_seconds"]
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(steps):
            m = vec.action_masks()
            vec.step(np.argmax(m * rng.random(m.shape), axis=1))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        inside = vec.worker_stats()[0]["step_seconds"] - before
        obs = vec.reset()
        masks = vec.action_masks()
    finally:
        vec.close()
    t_block, t_call = inside / steps, wall / steps

    torch.set_num_threads(1)
    import gymnasium

    policy = LeanMaskablePolicy(gymnasium.spaces.Box(-np.inf, np.inf, (obs_size,), np.float32), gymnasium.spaces.Discrete(n_actions),
                                lambda _: 3e-4, net_arch={"pi": cfg.net_arch, "vf": cfg.net_arch}, activation_fn=torch.nn.Tanh)
    policy.set_training_mode(False)
    x = torch.as_tensor(obs)
    with torch.no_grad():
        for _ in range(50):
            policy(x, action_masks=masks)
        t = time.perf_counter()
        for _ in range(500):
            policy(x, action_masks=masks)
        t_inf = (time.perf_counter() - t) / 500

    # Broadcast: one snapshot (two pool additions) to N actors, until every actor has it.
    bcast = {}
    for n in (1, 2):
        vec = RaySelfPlayVecEnv(cfg.env, cfg.env_kwargs, n, pool(), num_workers=n, seed=0)
        try:
            vec.reset()
            times = []
            for k in range(10):
                t = time.perf_counter()
                snap = MLPPolicy(weights, arch, deterministic=False, seed=k)
                vec.pool.add("latest", "latest", snap)
                vec.pool.add("past", f"self@{k}", snap)
                vec.get_attr("agent_selection")  # a reply from every actor: each has decoded both
                times.append(time.perf_counter() - t)
            bcast[n] = float(np.median(times))
        finally:
            vec.close()
    return {"t_block": t_block, "t_rt": t_call - t_block, "t_drv": cpu / steps, "t_inf": t_inf,
            "t_bcast_1": bcast[1], "t_bcast_2": bcast[2], "weights_bytes": int(sum(w.nbytes for w in weights.values()))}


def predict(m: dict[str, float], workers: int, snapshot_every: int, cores_shared: int | None = None) -> dict[str, float]:
    """Learner steps/s at ``workers`` workers of 32 games (each actor on its own core, the learner on its own)."""
    steps = workers * GAMES * N_STEPS
    actor_cycle = m["t_block"] + m["t_rt"] + m["t_inf"]
    learner_cycle = workers * (m["t_inf"] + m["t_drv"])
    step = max(actor_cycle, learner_cycle)
    if cores_shared:  # everyone on `cores_shared` cores: the CPU work of a step spread over them
        step = max(step, workers * (m["t_block"] + m["t_inf"] + m["t_drv"]) / cores_shared)
    rollout = N_STEPS * step
    update = steps * m["t_upd"]
    bcast = m["bcast_a"] + m["bcast_b"] * workers
    total = rollout + update + bcast * steps / snapshot_every
    return {"workers": workers, "games": workers * GAMES, "rollout_s": rollout, "update_s": update, "broadcast_s": bcast,
            "learner_bound_rollout": learner_cycle >= actor_cycle, "steps_per_s": steps / total}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=300, help="actor step calls timed")
    parser.add_argument("--rollouts", type=int, default=3, help="rollouts of the instrumented training run")
    parser.add_argument("--json", help="write the measurements and predictions here")
    args = parser.parse_args()
    import ray

    load = os.getloadavg()[0]
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, logging_level="WARNING")
    try:
        m = measure_actor(args.steps)
        m.update(measure_update(args.rollouts))
    finally:
        ray.shutdown()
    m["bcast_b"] = max(m["t_bcast_2"] - m["t_bcast_1"], 0.0)
    m["bcast_a"] = m["t_bcast_1"] - m["bcast_b"]
    us = 1e6
    print(f"load average at start {load:.2f}, at end {os.getloadavg()[0]:.2f}; cpus {os.cpu_count()}; ray {ray.__version__}")
    print(f"t_block  actor plays one step of 32 games:        {m['t_block'] * 1e3:8.3f} ms  ({m['t_block'] / GAMES * us:.1f} us per game step)")
    print(f"t_rt     a step call's cost beyond that:           {m['t_rt'] * 1e3:8.3f} ms")
    print(f"t_drv    learner CPU per step call:                {m['t_drv'] * 1e3:8.3f} ms")
    print(f"t_inf    learner forward pass, 32 games:           {m['t_inf'] * 1e3:8.3f} ms")
    print(f"t_upd    PPO update per learner step:              {m['t_upd'] * us:8.1f} us  ({m['update_s']:.2f} s per {m['steps_per_rollout']}-step rollout)")
    print(f"snapshot (export, pools, broadcast) at 2 workers:  {m['snapshot_s'] * 1e3:8.1f} ms, of which broadcast {m['broadcast_s'] * 1e3:.1f} ms")
    print(f"t_bcast  one snapshot to N actors, acknowledged:   {m['t_bcast_1'] * 1e3:8.1f} ms (N=1), {m['t_bcast_2'] * 1e3:.1f} ms (N=2); "
          f"{m['weights_bytes'] / 1e6:.2f} MB of weights")
    print(f"measured at 2 workers on {os.cpu_count()} shared cores: {m['measured_steps_per_s']:.0f} learner steps/s "
          f"(collect {m['collect_s']:.2f} s + update {m['update_s']:.2f} s per rollout)")
    rows = [predict(m, 2, 8192, cores_shared=os.cpu_count())]
    print(f"model, 2 workers on these {os.cpu_count()} shared cores: {rows[0]['steps_per_s']:.0f} learner steps/s")
    print("predicted, one core per actor, snapshot every 200k steps (ppo.yaml):")
    print("  workers  games  rollout_s  update_s  bcast_ms  learner-bound rollout  learner steps/s")
    for w in (2, 8, 32, 128):
        p = predict(m, w, 200_000)
        rows.append(p)
        print(f"  {w:7d}  {p['games']:5d}  {p['rollout_s']:9.2f}  {p['update_s']:8.2f}  {p['broadcast_s'] * 1e3:8.1f}  "
              f"{'yes' if p['learner_bound_rollout'] else 'no':>21}  {p['steps_per_s']:15.0f}")
    w_star = (m["t_block"] + m["t_rt"] + m["t_inf"]) / (m["t_inf"] + m["t_drv"])
    cap = 1.0 / ((m["t_inf"] + m["t_drv"]) / GAMES + m["t_upd"])
    print(f"the learner's inference paces the rollout from about {w_star:.1f} workers on; "
          f"with the serial update, learner steps/s tend to {cap:.0f} (1 / (per-step inference + update))")
    if args.json:
        Path(args.json).write_text(json.dumps({"measured": m, "predicted": rows, "learner_bound_from_workers": w_star, "cap_steps_per_s": cap}, indent=2))


if __name__ == "__main__":
    main()
