"""The RLlib adapter's cost, measured in one run (run it in the ray stack's venv, `.venvs/ray`):

1. env steps per CPU second through ``MythzooMultiAgentEnv`` against the AEC env (``env.last()`` /
   ``env.step()``), for every game at its default size, both replaying the same recorded games of
   uniform-random legal play (so the loops time the env's work only, no policy);
   the overhead per step is ``adapter time / AEC time - 1`` (target: at most 10%).
2. learner steps/s of RLlib PPO (``mythzoo.adapters.rllib.ppo_config``, new API stack) against
   ``mythzoo train mythic_baths`` (the shipped config, as ``benchmarks/bench_train.py`` runs it),
   both on Mythic Baths, 2 players, dense reward, 128x128 tanh networks, 4 epochs per update.

    .venvs/ray/bin/python benchmarks/bench_adapter_rllib.py [--seconds 2] [--repeats 5]
        [--rllib-iterations 2] [--rllib-runners 0] [--train-repeats 3] [--rollouts 3] [--env-repeats N]
        [--json out.json] [mythzoo config overrides key=value ...]

Measurements run round-robin (each round: AEC then adapter for every game; RLlib then mythzoo
for training) so that a change in the machine's load hits both sides of a round alike. Printed:
every round, the medians and the ratios of the medians.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

GAMES = ("mythic_baths", "mythsgate", "mythwind_innkeeper")


def record_games(game: str, seed: int, games: int) -> list[tuple[int, list[int]]]:
    """``games`` games of uniform-random legal play: (seed, actions) each, replayed by both sides so
    that the timed loops do the env's work and nothing else (no policy, the same states)."""
    from mythzoo.envs import spec

    env = spec(game).make()
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        env.reset(seed=seed + g)
        actions = []
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            actions.append(int(legal[rng.integers(legal.size)]))
            env.step(actions[-1])
        out.append((seed + g, actions))
    return out


def aec_player(game: str, recorded: list[tuple[int, list[int]]]):
    """The recorded games through the AEC env: ``play(seconds) -> (decisions, CPU seconds)``,
    whole games, resets included."""
    from mythzoo.envs import spec

    env = spec(game).make()
    nxt = [0]

    def play(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            game_seed, actions = recorded[nxt[0] % len(recorded)]
            nxt[0] += 1
            env.reset(seed=game_seed)
            i = 0
            for _agent in env.agent_iter():
                _obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                env.step(actions[i])
                i += 1
            steps += i
        return steps, time.process_time() - start

    return play


def adapter_player(game: str, recorded: list[tuple[int, list[int]]]):
    """The same games through RLlib's MultiAgentEnv interface (the adapter)."""
    from mythzoo.adapters.rllib import MythzooMultiAgentEnv

    env = MythzooMultiAgentEnv({"env": game})
    nxt = [0]

    def play(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            game_seed, actions = recorded[nxt[0] % len(recorded)]
            nxt[0] += 1
            obs, _ = env.reset(seed=game_seed)
            for action in actions:
                (agent, _o), = obs.items()
                obs, _, terms, truncs, _ = env.step({agent: action})
            assert terms["__all__"] or truncs["__all__"], "the replayed game did not end"
            steps += len(actions)
        return steps, time.process_time() - start

    return play


def env_round(game: str, seconds: float, seed: int, slices: int = 8) -> tuple[float, float]:
    """AEC and adapter steps per CPU second of one round: ``slices`` alternating turns of
    ``seconds / slices`` each. CPU time of this process (the loops are single-threaded), so that
    other processes on a shared machine do not count; alternating slices, so that what they still
    change (caches, clock speed) hits both sides alike."""
    recorded = record_games(game, seed, 40)
    players = (aec_player(game, recorded), adapter_player(game, recorded))
    totals = [[0, 0.0], [0, 0.0]]
    for _ in range(slices):
        for side, play in enumerate(players):
            steps, spent = play(seconds / slices)
            totals[side][0] += steps
            totals[side][1] += spent
    return totals[0][0] / totals[0][1], totals[1][0] / totals[1][1]


def rllib_steps_per_s(iterations: int, runners: int, seed: int = 0) -> tuple[float, int, float | None]:
    """RLlib PPO on Mythic Baths: agent steps trained per second over ``iterations`` train()
    calls after a first (warm-up) one (every decision trains the shared module); and, with no
    remote env runners, RLlib's sampling alone (steps/s of ``env_runner.sample``, no update)."""
    import torch

    from mythzoo.adapters.rllib import ppo_config

    # One torch thread: RLlib samples and updates in this process, one observation per forward pass
    # while sampling, where a second thread only spin-waits against the game (mythzoo's trainer
    # leaves torch at its update's 2 threads, so set it back every round).
    torch.set_num_threads(1)
    # mythzoo's shipped PPO settings where RLlib has them: one 2,048-step minibatch, 4 epochs.
    config = ppo_config("mythic_baths", num_players=2, reward_mode="dense", seed=seed, hiddens=(128, 128),
                        train_batch_size=2048, minibatch_size=2048, num_epochs=4, num_env_runners=runners)
    config = config.training(gamma=0.995, lambda_=0.95)
    algo = config.build_algo()
    try:
        warm = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]
        start = time.perf_counter()
        for _ in range(iterations):
            result = algo.train()
        seconds = time.perf_counter() - start
        steps = int(result["env_runners"]["num_env_steps_sampled_lifetime"] - warm)
        sampling = None
        if algo.env_runner is not None and runners == 0:
            start = time.perf_counter()
            episodes = algo.env_runner.sample(num_timesteps=2048, explore=True)
            sampling = sum(len(e) for e in episodes) / (time.perf_counter() - start)
    finally:
        algo.stop()
    return steps / seconds, steps, sampling


def mythzoo_steps_per_s(rollouts: int, overrides: list[str]) -> tuple[float, int]:
    """``mythzoo train mythic_baths`` as benchmarks/bench_train.py measures it (``overrides``:
    config keys, e.g. ``num_workers=0``)."""
    from bench_train import bench_mythzoo

    return bench_mythzoo(rollouts, overrides=overrides)


def median(rows: list[dict], key: str) -> float:
    return float(np.median([r[key] for r in rows]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per side, game and round (default 2), in 8 alternating slices")
    ap.add_argument("--repeats", type=int, default=5, help="env rounds (default 5)")
    ap.add_argument("--rllib-iterations", type=int, default=2, help="timed RLlib train() calls per round, after one warm-up (default 2)")
    ap.add_argument("--rllib-runners", type=int, default=0, help="RLlib env runners (0: sample in the main process, the default)")
    ap.add_argument("--rollouts", type=int, default=3, help="mythzoo rollouts per round (64 games x 128 steps each)")
    ap.add_argument("--train-repeats", type=int, default=3, help="training rounds (each: RLlib, then mythzoo); 0 skips training")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--env-repeats", type=int, default=None, help="env rounds (default: --repeats; 0 skips the env part)")
    ap.add_argument("overrides", nargs="*", help="config overrides key=value for the mythzoo side (e.g. num_workers=0)")
    ap.add_argument("--json", help="write every figure here")
    args = ap.parse_intermixed_args()
    env_repeats = args.repeats if args.env_repeats is None else args.env_repeats
    if env_repeats < 0:
        ap.error("--env-repeats must not be negative")
    if args.repeats < 1 or args.seconds <= 0 or args.rllib_iterations < 1 or args.rollouts < 1 or args.train_repeats < 0 or args.rllib_runners < 0:
        ap.error("--repeats, --rllib-iterations, --rollouts must be at least 1, --seconds positive, --train-repeats and --rllib-runners not negative")

    import ray
    import torch

    torch.set_num_threads(1)  # as benchmarks/bench_train.py (mythzoo's trainer sets its own threads per phase)
    print(f"python {platform.python_version()}, numpy {np.__version__}, torch {torch.__version__}, ray {ray.__version__}, {platform.machine()}")

    env_rounds: dict[str, list[dict]] = {g: [] for g in GAMES}
    for r in range(env_repeats):
        for g in GAMES:
            aec, ada = env_round(g, args.seconds, args.seed + 1000 * r)
            env_rounds[g].append({"aec": aec, "adapter": ada, "overhead": aec / ada - 1})
            print(f"round {r + 1}/{env_repeats} {g:20s}: AEC {aec:8.0f} steps/CPU-s, adapter {ada:8.0f} steps/CPU-s, overhead {100 * (aec / ada - 1):+5.1f}%", flush=True)
    env_summary = {}
    for g, rows in env_rounds.items():
        if not rows:
            continue
        aec, ada = median(rows, "aec"), median(rows, "adapter")
        env_summary[g] = {"aec_median": aec, "adapter_median": ada, "overhead_of_medians": aec / ada - 1, "median_overhead": median(rows, "overhead")}
        print(f"{g:20s}: AEC {aec:8.0f}, adapter {ada:8.0f} steps/CPU-s (medians); per-step overhead {100 * (aec / ada - 1):+5.1f}% "
              f"(median of rounds {100 * median(rows, 'overhead'):+5.1f}%; target at most +10%)")

    train_rounds: list[dict] = []
    if args.train_repeats:
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        for r in range(args.train_repeats):
            rl, rl_steps, sampling = rllib_steps_per_s(args.rllib_iterations, args.rllib_runners, args.seed)
            mz, mz_steps = mythzoo_steps_per_s(args.rollouts, args.overrides)
            train_rounds.append({"rllib": rl, "rllib_steps": rl_steps, "rllib_sampling": sampling, "mythzoo": mz, "mythzoo_steps": mz_steps, "ratio": mz / rl})
            sampled = f" (sampling alone {sampling:.0f} steps/s)" if sampling else ""
            print(f"train round {r + 1}/{args.train_repeats}: RLlib PPO {rl:7.0f} steps/s over {rl_steps}{sampled}, mythzoo train {mz:7.0f} steps/s over {mz_steps}, "
                  f"mythzoo/RLlib {mz / rl:5.1f}x", flush=True)
        rl, mz = median(train_rounds, "rllib"), median(train_rounds, "mythzoo")
        print(f"RLlib PPO ({args.rllib_runners} env runners)      : {rl:8.0f} learner steps/s (median)")
        if all(t["rllib_sampling"] for t in train_rounds) and "mythic_baths" in env_summary:
            sampling = median(train_rounds, "rllib_sampling")
            env = env_summary["mythic_baths"]["adapter_median"]
            print(f"RLlib sampling alone           : {sampling:8.0f} steps/s (median); the env through the adapter: {env:.0f} steps/CPU-s, "
                  f"{100 * sampling / env:.1f}% of sampling time")
        print(f"mythzoo train mythic_baths (2p): {mz:8.0f} learner steps/s (median){' ' + ' '.join(args.overrides) if args.overrides else ''}")
        print(f"mythzoo / RLlib                : {mz / rl:8.1f}x (ratio of the medians; median of the rounds' ratios {median(train_rounds, 'ratio'):.1f}x)")
    if args.json:
        Path(args.json).write_text(json.dumps({"env_rounds": env_rounds, "env": env_summary, "train_rounds": train_rounds, "args": vars(args)}, indent=2))


if __name__ == "__main__":
    main()
