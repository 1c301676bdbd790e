"""Decisions per second of the batched API against the same game through ``env()``:
``python benchmarks/bench_vector.py``.

Both play uniform-random legal moves with the same per-decision choice
(``legal = np.flatnonzero(mask); legal[rng.integers(legal.size)]``), resets included:

- ``env()``: the loop of ``benchmarks/bench_envs.py`` (``agent_iter``, ``last``, ``step``);
- ``vector``: ``mythzoo.vector.make(game, --num-envs N, ...)``, one ``step`` for all N games, each
  game's action chosen from its row of the mask.

Measurements are interleaved round-robin ``--repeats`` times; the medians and the ratio of the
medians are printed (target: the batched API at least 2x ``env()``). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_envs import aec_loop, versions  # noqa: E402

from mythzoo import vector  # noqa: E402
from mythzoo.envs import spec  # noqa: E402

TARGET_RATIO = 2.0
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("mythic_baths", {"num_players": 2}), ("mythic_baths", {"num_players": 4}),
    ("mythsgate", {"num_heroes": 2}), ("mythsgate", {"num_heroes": 5}), ("mythwind_innkeeper", {}),
]


def vector_loop(game: str, kwargs: dict[str, Any], num_envs: int) -> Callable[[float, int], tuple[int, float]]:
    """A runner: steps ``num_envs`` games together for at least ``seconds``; returns (decisions, seconds)."""
    games = vector.make(game, num_envs, **kwargs)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = np.random.Generator(np.random.PCG64(seed))
        decisions = 0
        start = time.perf_counter()
        batch = games.reset(seed=seed * 100_003)
        masks = [batch.action_masks[r] for r in games.roles]
        actions = np.zeros(num_envs, dtype=np.int64)
        while True:
            for i, role in enumerate(batch.role.tolist()):
                legal = np.flatnonzero(masks[role][i])
                actions[i] = legal[rng.integers(legal.size)]
            batch = games.step(actions)
            decisions += num_envs
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, elapsed

    return run


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table and the ratios, optionally write JSON."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=2.0, help="length of one measurement (default 2)")
    p.add_argument("--repeats", type=int, default=3, help="rounds; the median is reported (default 3)")
    p.add_argument("--num-envs", type=int, default=64, help="games per batch (default 64)")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.num_envs < 1:
        p.error("--seconds must be > 0, --repeats and --num-envs >= 1")
    runs: dict[str, Callable[[float, int], tuple[int, float]]] = {}
    for game, kw in CONFIGS:
        args_text = ", ".join(f"{k}={v!r}" for k, v in kw.items())
        name = spec(game).env_name
        runs[f"{name}.env({args_text})"] = aec_loop(lambda game=game, kw=kw: spec(game).make(**kw))
        runs[f"vector {name}({args_text}), {args.num_envs} games"] = vector_loop(game, kw, args.num_envs)
    rates: dict[str, list[float]] = {k: [] for k in runs}
    for r in range(args.repeats):
        for k, run in runs.items():
            n, sec = run(args.seconds, r)
            rates[k].append(n / sec)
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"decisions per second, median of {args.repeats} rounds of {args.seconds:g} s")
    print(f"{'measurement':<62} {'median':>10}")
    for k, v in med.items():
        print(f"{k:<62} {v:>10,.0f}")
    print(f"\nbatched API / env() (target >= {TARGET_RATIO:g}x):")
    keys = list(runs)
    ratios = {}
    for j in range(0, len(keys), 2):
        ratio = med[keys[j + 1]] / med[keys[j]]
        ratios[keys[j]] = ratio
        print(f"  {keys[j]:<58} {ratio:5.2f}x  {'met' if ratio >= TARGET_RATIO else 'missed'}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rates": rates, "medians": med, "ratios": ratios, "num_envs": args.num_envs,
                                               "seconds": args.seconds, "repeats": args.repeats, "versions": versions()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
