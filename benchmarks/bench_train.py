"""Learner timesteps per second, PPO updates included: ``mythzoo train`` on Mythic Baths (2 players)
against PettingZoo's SB3 action-mask tutorial setup on connect_four_v3 (one env, one forward pass
per step, MaskablePPO defaults), measured in the same run.

    python benchmarks/bench_train.py [--rollouts 3] [--repeats 5] [--json out.json] [key=value ...]

Each round measures the tutorial, then mythzoo, so that a change in the machine's speed (a shared
host's load) hits both sides of that round's ratio alike. Printed: every round, the medians, the
ratio of the medians and the median of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

import numpy as np
import torch


def bench_tutorial(steps: int, seed: int = 0) -> float:
    """The tutorial's code path: SB3ActionMaskWrapper + ActionMasker + MaskablePPO(MaskableActorCriticPolicy)."""
    import gymnasium
    import pettingzoo.utils
    from pettingzoo.classic import connect_four_v3
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    # The tutorial's wrapper; gymnasium>=1.0's ActionMasker also wants it to be a gymnasium.Env.
    class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
        def reset(self, seed=None, options=None):
            super().reset(seed, options)
            self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
            self.action_space = super().action_space(self.possible_agents[0])
            return self.observe(self.agent_selection), {}

        def step(self, action):
            current_agent = self.agent_selection
            super().step(action)
            next_agent = self.agent_selection
            return (
                self.observe(next_agent),
                self._cumulative_rewards[current_agent],
                self.terminations[current_agent],
                self.truncations[current_agent],
                self.infos[current_agent],
            )

        def observe(self, agent):
            return super().observe(agent)["observation"]

        def action_mask(self):
            return super().observe(self.agent_selection)["action_mask"]

    env = SB3ActionMaskWrapper(connect_four_v3.env())
    env.reset(seed=seed)
    env = ActionMasker(env, lambda e: e.action_mask())
    model = MaskablePPO(MaskableActorCriticPolicy, env, verbose=0, seed=seed, device="cpu")
    t = time.perf_counter()
    model.learn(total_timesteps=steps)
    return model.num_timesteps / (time.perf_counter() - t)


def bench_mythzoo(rollouts: int, seed: int = 0, overrides: list[str] | None = None) -> tuple[float, int]:
    """``mythzoo train mythic_baths`` with the shipped config, no registry, no evaluations and no
    warm start (a one-off minute of imitation before PPO, not part of the steady rate)."""
    from mythzoo.training.config import load_config
    from mythzoo.training.ppo import train

    cfg = load_config("mythic_baths/ppo.yaml", [f"seed={seed}", "registry=none", "eval_games=0", "pretrain_teacher=null", "progress=false", f"run_dir={Path(tempfile.gettempdir()) / 'mythzoo-bench-runs'}", *(overrides or [])])
    cfg.total_timesteps = rollouts * cfg.num_envs * cfg.n_steps
    cfg.snapshot_every = cfg.num_envs * cfg.n_steps  # one snapshot per rollout, as in real training
    summary = train(cfg)
    return summary["steps_per_second"], summary["steps"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=3, help="mythzoo rollouts per round (64 games x 128 steps each)")
    ap.add_argument("--tutorial-steps", type=int, default=4096, help="tutorial timesteps per round (2 of its 2048-step rollouts)")
    ap.add_argument("--repeats", type=int, default=5, help="rounds (each: the tutorial, then mythzoo)")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("overrides", nargs="*", help="config overrides key=value for the mythzoo side (e.g. n_epochs=2), to measure a trade-off")
    args = ap.parse_intermixed_args()
    if args.repeats < 1 or args.rollouts < 1 or args.tutorial_steps < 1:
        ap.error("--repeats, --rollouts and --tutorial-steps must be at least 1")
    torch.set_num_threads(1)
    print(f"python {platform.python_version()}, numpy {np.__version__}, torch {torch.__version__}, {platform.machine()}")
    label = "mythzoo train mythic_baths (2p)" + (" " + " ".join(args.overrides) if args.overrides else "")
    rounds = []
    for r in range(args.repeats):
        tut = bench_tutorial(args.tutorial_steps)
        ours, steps = bench_mythzoo(args.rollouts, overrides=args.overrides)
        rounds.append({"tutorial_steps_per_s": tut, "mythzoo_steps_per_s": ours, "ratio": ours / tut, "mythzoo_steps": steps})
        print(f"round {r + 1}/{args.repeats}: tutorial {tut:6.0f} steps/s, mythzoo {ours:6.0f} steps/s over {steps} steps, ratio {ours / tut:5.2f}x", flush=True)
    tut_med = float(np.median([x["tutorial_steps_per_s"] for x in rounds]))
    ours_med = float(np.median([x["mythzoo_steps_per_s"] for x in rounds]))
    ratio_med = float(np.median([x["ratio"] for x in rounds]))
    print(f"tutorial connect_four_v3 MaskablePPO : {tut_med:8.0f} learner steps/s (median)")
    print(f"{label:36s}: {ours_med:8.0f} learner steps/s (median)")
    print(f"ratio of the medians                : {ours_med / tut_med:8.2f}x (target 5x)")
    print(f"median of the rounds' ratios        : {ratio_med:8.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rounds": rounds, "tutorial_median": tut_med, "mythzoo_median": ours_med, "ratio_of_medians": ours_med / tut_med,
                       "median_ratio": ratio_med, "overrides": args.overrides, "rollouts": args.rollouts}, f, indent=2)


if __name__ == "__main__":
    main()
