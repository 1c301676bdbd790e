"""Env steps/s through the role padder, TorchRL's and Tianshou's wrappers, against the raw env.

``python benchmarks/bench_adapter_padding.py`` (the padder alone: the main venv is enough);
``.venvs/torch_stacks/bin/python benchmarks/bench_adapter_padding.py`` adds TorchRL and Tianshou.

Per game (default sizes), uniform-random legal play of whole games, every loop the same apart from
where it reads the mask, a fresh ``reset(seed=...)`` per game, the time including resets:

* ``raw``: the mythzoo env (``mythzoo.envs.make(name)``), the AEC loop of ``bench_envs.py``;
* ``padded dict`` / ``padded flat``: the same loop through ``pad_roles(env, form=...)`` (the flat
  form reads the mask from ``infos[agent]["action_mask"]``);
* ``torchrl stock`` / ``torchrl mythzoo``: ``env.rand_action`` then ``env.step`` through
  ``torchrl.envs.PettingZooWrapper`` and ``mythzoo.adapters.torchrl.PettingZooWrapper`` (AEC,
  ``use_mask=True``, one group per agent), reset when a game ends;
* ``tianshou``: ``tianshou.env.PettingZooEnv(pad_roles(env))``, a random legal action from its
  ``obs["mask"]``.

A step is one decision (no dead steps counted); time is this process's CPU time
(``time.process_time``, torch held to one thread), so that other load on a shared machine counts less. The measurements run round-robin ``--repeats``
times for ``--seconds`` each; the median is reported, with each wrapper's ratio to ``raw`` (medians,
and the median of each round's ratio). Targets: the padder at least 0.9x of raw (adds at most 10%);
mythzoo's TorchRL wrapper at least 0.9x of TorchRL's own. Measured, never asserted.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import warnings

import numpy as np

from mythzoo.adapters.padding import pad_roles
from mythzoo.envs import GAMES, make

# The CPU time of this process: on a shared machine other processes' load counts far less than in
# wall time (torch is held to one thread, so its CPU time is one core's).
CLOCK = time.process_time
TARGET = 0.9  # a wrapper keeps at least this share of its reference's steps/s (adds at most 10% a step)
Runner = Callable[[float, int], tuple[int, float]]


def aec_loop(make_env: Callable[[], Any], mask_in_infos: bool = False) -> Runner:
    """Whole games of uniform-random legal play for at least ``seconds``: (decisions, seconds)."""
    env = make_env()

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = np.random.Generator(np.random.PCG64(seed))
        decisions, game = 0, 0
        start = CLOCK()
        while True:
            env.reset(seed=seed * 100_003 + game)
            game += 1
            for _agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                if term or trunc:
                    action = None
                else:
                    legal = np.flatnonzero(info["action_mask"] if mask_in_infos else obs["action_mask"])
                    action = int(legal[rng.integers(legal.size)])
                    decisions += 1
                env.step(action)
            elapsed = CLOCK() - start
            if elapsed >= seconds:
                return decisions, elapsed

    return run


def torchrl_loop(wrapper: Any, make_env: Callable[[], Any]) -> Runner:
    """``rand_action`` + ``step`` through a TorchRL PettingZooWrapper class, reset at a game's end."""
    import torch
    from torchrl.envs.utils import step_mdp

    env = wrapper(env=make_env(), use_mask=True)

    def run(seconds: float, seed: int) -> tuple[int, float]:
        torch.manual_seed(seed)
        decisions, game = 0, 0
        start = CLOCK()
        while True:
            td = env.reset(seed=seed * 100_003 + game)
            game += 1
            while True:
                td = env.step(env.rand_action(td))
                decisions += 1
                if bool(td["next", "done"]):
                    break
                td = step_mdp(td)
            elapsed = CLOCK() - start
            if elapsed >= seconds:
                return decisions, elapsed

    return run


def tianshou_loop(make_env: Callable[[], Any]) -> Runner:
    """``tianshou.env.PettingZooEnv`` over the padded env: a random legal action from ``obs["mask"]``."""
    from tianshou.env import PettingZooEnv

    env = PettingZooEnv(pad_roles(make_env()))

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = np.random.Generator(np.random.PCG64(seed))
        decisions, game = 0, 0
        start = CLOCK()
        while True:
            obs, _ = env.reset(seed=seed * 100_003 + game)
            game += 1
            while True:
                legal = np.flatnonzero(obs["mask"])
                obs, _, term, trunc, _ = env.step(int(legal[rng.integers(legal.size)]))
                decisions += 1
                if term or trunc:
                    break
            elapsed = CLOCK() - start
            if elapsed >= seconds:
                return decisions, elapsed

    return run


def benchmarks(libraries: bool) -> tuple[dict[str, Runner], list[str]]:
    """Every measurement by name (``<game>: <wrapper>``), and the libraries left out (not installed)."""
    runs: dict[str, Runner] = {}
    missing = []
    torchrl = tianshou = None
    if libraries:
        try:
            from torchrl.envs import PettingZooWrapper as stock

            from mythzoo.adapters.torchrl import PettingZooWrapper as ours

            torchrl = (stock, ours)
        except ImportError:
            missing.append("torchrl")
        try:
            import tianshou  # noqa: F401

            tianshou = True
        except ImportError:
            missing.append("tianshou")
    for spec in GAMES:
        name = spec.name

        def mk(name: str = name) -> Any:
            return make(name)

        runs[f"{name}: raw"] = aec_loop(mk)
        runs[f"{name}: padded dict"] = aec_loop(lambda mk=mk: pad_roles(mk(), form="dict"))
        runs[f"{name}: padded flat"] = aec_loop(lambda mk=mk: pad_roles(mk(), form="flat"), mask_in_infos=True)
        if torchrl:
            runs[f"{name}: torchrl stock"] = torchrl_loop(torchrl[0], mk)
            runs[f"{name}: torchrl mythzoo"] = torchrl_loop(torchrl[1], mk)
        if tianshou:
            runs[f"{name}: tianshou"] = tianshou_loop(mk)
    return runs, missing


# (measurement, reference) pairs whose ratio is reported, per game.
PAIRS = (("padded dict", "raw"), ("padded flat", "raw"), ("torchrl stock", "raw"), ("torchrl mythzoo", "raw"),
         ("torchrl mythzoo", "torchrl stock"), ("tianshou", "raw"))
TARGETED = {("padded dict", "raw"), ("padded flat", "raw"), ("torchrl mythzoo", "torchrl stock")}


def main(argv: list[str] | None = None) -> int:
    """Run every measurement, print the table and the ratios, optionally write JSON."""
    p = argparse.ArgumentParser(description="Env steps/s through the role padder and the TorchRL/Tianshou wrappers, against the raw env.")
    p.add_argument("--seconds", type=float, default=1.0, help="length of one measurement in seconds (default 1)")
    p.add_argument("--repeats", type=int, default=5, help="rounds; the median is reported (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the games and the random policy (default 0)")
    p.add_argument("--only", action="append", default=None, metavar="GAME", help="only this game (repeatable)")
    p.add_argument("--no-libraries", action="store_true", help="the padder only, even where TorchRL/Tianshou are installed")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        p.error("--seconds must be > 0 and --repeats >= 1")
    known = {s.name for s in GAMES}
    for g in args.only or ():
        if g not in known:
            p.error(f"--only {g!r}: not a game ({', '.join(sorted(known))})")

    warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")  # its version notice, once per wrapper
    runs, missing = benchmarks(not args.no_libraries)
    if args.only:
        runs = {n: r for n, r in runs.items() if n.split(":")[0] in args.only}
    if not args.no_libraries and len(missing) < 2:
        import torch

        torch.set_num_threads(1)  # TorchRL's ops are tiny; more threads would only add CPU time

    print(f"Python {platform.python_version()}, numpy {np.__version__}; {args.repeats} x {args.seconds:g} s CPU time per measurement, median reported")
    if missing:
        print(f"not installed, not measured: {', '.join(missing)}")
    for run in runs.values():  # warm-up: imports, first allocations, caches
        run(min(0.2, args.seconds), args.seed)
    rates: dict[str, list[float]] = {n: [] for n in runs}
    for rep in range(args.repeats):  # round-robin: slow drift of the machine's load hits every measurement alike
        for n, run in runs.items():
            decisions, seconds = run(args.seconds, args.seed + rep)
            rates[n].append(decisions / seconds)

    results = {n: {"median": statistics.median(r), "min": min(r), "max": max(r), "runs": r} for n, r in rates.items()}
    width = max(len(n) for n in results)
    print(f"\n{'measurement'.ljust(width)}  {'steps/s':>10}  {'min':>10}  {'max':>10}")
    for n, r in results.items():
        print(f"{n.ljust(width)}  {r['median']:>10,.0f}  {r['min']:>10,.0f}  {r['max']:>10,.0f}")
    ratios = {}
    print()
    for spec in GAMES:
        for what, ref in PAIRS:
            a, b = f"{spec.name}: {what}", f"{spec.name}: {ref}"
            if a not in rates or b not in rates:
                continue
            of_medians = results[a]["median"] / results[b]["median"]
            per_round = statistics.median(x / y for x, y in zip(rates[a], rates[b]))
            ratios[f"{a} / {ref}"] = {"of_medians": of_medians, "per_round": per_round}
            note = f" (target {TARGET}x or more)" if (what, ref) in TARGETED else " (the library's own overhead)"
            print(f"ratio {a} / {ref}: {of_medians:.3f}x of the medians, {per_round:.3f}x median per round{note}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seconds": args.seconds, "repeats": args.repeats, "seed": args.seed, "results": results,
                       "ratios": ratios, "target": TARGET, "not_installed": missing}, f, indent=2)
            f.write("\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
