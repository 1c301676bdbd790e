"""Self-play games per second, through the batched API against the AEC envs it replaced:
``python benchmarks/bench_selfplay.py``.

``training/selfplay.py: SelfPlayVecEnv`` plays its games through ``mythzoo.vector`` (each mover's
observation and mask written into its row, opponents' rows gathered once per policy);
``tests/oracles/selfplay_aec.py: AECSelfPlayVecEnv`` is the code it replaced (every game an AEC env,
``step`` and ``observe`` per decision, opponents' observations stacked), kept as the reference the
batched one equals transition for transition (``tests/test_selfplay_vector.py``). Both play the same
seeded games: the learner's seat takes the first legal action, every other seat a uniform-random
legal one (``RandomPolicy``), no network, so the figure is the games' own cost, which a training
worker pays. Learner steps per second, rounds interleaved, medians and the ratio of the medians.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from oracles.selfplay_aec import AECSelfPlayVecEnv  # noqa: E402

from mythzoo.policies.base import RandomPolicy  # noqa: E402
from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv, game_maker  # noqa: E402

CONFIGS: list[tuple[str, Any, list[str] | None, bool]] = [
    ("mythic_baths_v1", {"num_players": 2, "reward_mode": "dense"}, None, False),
    ("mythic_baths_v1", [{"num_players": 2}, {"num_players": 2}, {"num_players": 3}, {"num_players": 4}], None, False),
    ("mythsgate_v2", {"num_heroes": 2}, ["invoker"], True),
    ("mythwind_innkeeper_v5", {}, None, False),
]


def _pools(by_role: bool) -> Any:
    def one() -> OpponentPool:
        pool = OpponentPool({"baselines": 1.0}, seed=0)
        pool.add("baselines", "random", RandomPolicy(0))
        return pool
    return {"invoker": one(), "hero": one()} if by_role else one()


def run(vec: Any, seconds: float) -> float:
    """Learner steps per second over at least ``seconds`` (the learner plays its first legal action)."""
    vec.reset()
    steps = 0
    start = time.perf_counter()
    while True:
        vec.step(vec.action_masks().argmax(axis=1))
        steps += vec.num_envs
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    ap.add_argument("--repeats", type=int, default=3, help="interleaved rounds")
    ap.add_argument("--num-envs", type=int, default=32, help="games per VecEnv (a training worker's block: 64 games over 2 workers)")
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {}
    print(f"| config | AEC envs (learner steps/s) | mythzoo.vector | ratio |\n|---|---:|---:|---:|")
    for name, kwargs, learners, by_role in CONFIGS:
        vec = SelfPlayVecEnv(name, kwargs, args.num_envs, _pools(by_role), learners, seed=0)
        ref = AECSelfPlayVecEnv(game_maker(name, kwargs), args.num_envs, _pools(by_role), learners, seed=0)
        a, b = [], []
        for _ in range(args.repeats):
            a.append(run(ref, args.seconds))
            b.append(run(vec, args.seconds))
        ma, mb = statistics.median(a), statistics.median(b)
        label = f"{name} {json.dumps(kwargs)}" + (f" learner {learners}" if learners else "")
        out[label] = {"aec": a, "vector": b, "ratio": mb / ma}
        print(f"| `{label}` | {ma:,.0f} | {mb:,.0f} | {mb / ma:.2f}x |", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
