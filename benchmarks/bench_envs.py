"""Decisions per second of uniform-random legal play: ``python benchmarks/bench_envs.py``.

Every PettingZoo env runs the same loop::

    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        action = None if term or trunc else int(legal[rng.integers(legal.size)])
        env.step(action)

with ``rng`` a seeded ``numpy.random.Generator`` and a fresh ``reset(seed=...)`` per game. Measured,
for every game in ``mythzoo.envs.SPECS`` and every size its spec allows: the env
(``mythic_baths_v1.env(num_players=2)``, ..., ``mythwind_innkeeper_v5.env()``) and its bare rules
engine (``rules.legal_actions`` / ``rules.apply`` until the game is over or the env's turn cap,
no observations); and PettingZoo's ``connect_four_v3.env()`` as the reference. ``--only mythsgate``
(repeatable) limits the run to the measurements whose name contains the text (Connect Four always
runs); the whole run takes about (2 x sizes + 1) x repeats x seconds. A decision is one non-``None`` action; the time
includes resets. Each measurement runs for ``--seconds``; the measurements are interleaved
round-robin ``--repeats`` times and the median is reported, with the ratio of Mythic Baths
``env()`` of every game to Connect Four (of the medians, and the median of each round's ratio). The figures are measured, never asserted: nothing fails on a slow run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pettingzoo

from mythzoo.envs import SPECS, GameSpec

TARGET_RATIO = 2.5


def aec_loop(make_env: Callable[[], Any]) -> Callable[[float, int], tuple[int, float]]:
    """A runner: plays whole games of a fresh env for at least ``seconds``; returns (decisions, seconds)."""
    env = make_env()

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = np.random.Generator(np.random.PCG64(seed))
        decisions = 0
        game = 0
        start = time.perf_counter()
        while True:
            env.reset(seed=seed * 100_003 + game)
            game += 1
            for agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                if term or trunc:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(legal.size)])
                    decisions += 1
                env.step(action)
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, elapsed

    return run


def engine_loop(spec: GameSpec, env_kwargs: dict[str, Any]) -> Callable[[float, int], tuple[int, float]]:
    """A runner for the bare rules engine: ``legal_actions`` / ``apply`` until the game is over
    (or reaches the env's turn cap, where the env would truncate it)."""
    raw = spec.make_raw(**env_kwargs)
    rules, cap = raw.rules, raw.max_turns

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = np.random.Generator(np.random.PCG64(seed))
        decisions = 0
        game = 0
        start = time.perf_counter()
        while True:
            s = rules.initial_state(seed * 100_003 + game)
            game += 1
            while not rules.is_over(s) and (cap is None or rules.turns_played(s) < cap):
                legal = rules.legal_actions(s)
                rules.apply(s, legal[rng.integers(len(legal))])
                decisions += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, elapsed

    return run


def sizes(spec: GameSpec) -> list[tuple[int, dict[str, Any]]]:
    """(seats, env kwargs) for every size the spec allows (one entry for a fixed-size game)."""
    if spec.size_argument is None:
        return [(spec.default_seats(), {})]
    return [(n + spec.seat_offset, {spec.size_argument: n}) for n in spec.sizes]


def benchmarks() -> dict[str, Callable[[float, int], tuple[int, float]]]:
    """Every measurement by name: each game's env and engine at each size, then Connect Four."""
    from pettingzoo.classic import connect_four_v3

    envs: dict[str, Callable[[float, int], tuple[int, float]]] = {}
    engines: dict[str, Callable[[float, int], tuple[int, float]]] = {}
    for spec in SPECS.values():
        for seats, kw in sizes(spec):
            args = ", ".join(f"{k}={v!r}" for k, v in kw.items())
            envs[f"{spec.env_name}.env({args})"] = aec_loop(lambda spec=spec, kw=kw: spec.make(**kw))
            engines[f"{spec.name} engine, {seats} player{'s' if seats != 1 else ''}"] = engine_loop(spec, kw)
    return {**envs, **engines, "connect_four_v3.env()": aec_loop(connect_four_v3.env)}


def versions() -> dict[str, Any]:
    """What the figures depend on."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "pettingzoo": pettingzoo.__version__,
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    """Run every measurement, print a table and the ratio, optionally write JSON."""
    p = argparse.ArgumentParser(description="Decisions per second of uniform-random legal play.")
    p.add_argument("--seconds", type=float, default=2.0, help="length of one measurement in seconds (default 2)")
    p.add_argument("--repeats", type=int, default=5, help="measurements per benchmark; the median is reported (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the games and the random policy (default 0)")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    p.add_argument("--only", action="append", default=None, metavar="TEXT", help="only the benchmarks whose name contains TEXT (repeatable)")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        p.error("--seconds must be > 0 and --repeats >= 1")

    info = versions()
    print(f"Python {info['python']} ({info['implementation']}), numpy {info['numpy']}, pettingzoo {info['pettingzoo']}")
    print(f"{info['platform']}, {info['cpu_count']} CPUs; {args.repeats} x {args.seconds:g} s per benchmark, median reported", flush=True)

    runs = {n: r for n, r in benchmarks().items() if not args.only or n.startswith("connect_four") or any(t in n for t in args.only)}
    for run in runs.values():  # warm-up: imports, first allocations, caches
        run(min(0.2, args.seconds), args.seed)
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for rep in range(args.repeats):  # round-robin, so slow drift of the machine hits every benchmark alike
        for name, run in runs.items():
            decisions, seconds = run(args.seconds, args.seed + rep)
            rates[name].append(decisions / seconds)

    results = {name: {"median": statistics.median(r), "min": min(r), "max": max(r), "runs": r} for name, r in rates.items()}
    width = max(len(n) for n in results)
    print()
    print(f"{'benchmark'.ljust(width)}  {'decisions/s':>12}  {'min':>10}  {'max':>10}")
    for name, r in results.items():
        print(f"{name.ljust(width)}  {r['median']:>12,.0f}  {r['min']:>10,.0f}  {r['max']:>10,.0f}")
    c4 = results["connect_four_v3.env()"]["median"]
    ratios, paired = {}, {}
    for n in results:
        if ".env(" in n and not n.startswith("connect_four"):
            key = f"{n} / connect_four_v3.env()"
            ratios[key] = results[n]["median"] / c4
            # a round measures both within seconds, so its ratio shrugs off slow drift in the load of the machine
            paired[key] = statistics.median(a / b for a, b in zip(rates[n], rates["connect_four_v3.env()"]))
    print()
    for name, ratio in ratios.items():
        print(f"ratio {name}: {ratio:.2f}x of the medians, {paired[name]:.2f}x median per round (target {TARGET_RATIO}x or more)")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"versions": info, "seconds": args.seconds, "repeats": args.repeats, "seed": args.seed,
                       "results": results, "ratios": ratios, "paired_ratios": paired, "target_ratio": TARGET_RATIO}, f, indent=2)
            f.write("\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
