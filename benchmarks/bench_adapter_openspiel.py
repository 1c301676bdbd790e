"""Decisions per second through the OpenSpiel adapter against the raw env, in the same run.

``python benchmarks/bench_adapter_openspiel.py`` (in the OpenSpiel venv: ``make .venvs/openspiel/.installed``
then ``.venvs/openspiel/bin/python benchmarks/bench_adapter_openspiel.py``).

Uniform-random legal play of whole games, for every game at its default size (``--all-sizes``:
every size), each loop doing the same work per decision (the mover's observation, its legal
actions, one step):

- ``env``: the raw env in the adapter's reward mode (``spec.make_raw(**game.env_kwargs())``):
  ``env.last()`` (observation and mask), ``np.flatnonzero(mask)``, ``env.step(a)``;
- ``pyspiel``: the adapter's state with OpenSpiel's Python observer
  (``open_spiel.python.observation.make_observation(game)``, numpy, no copy):
  ``observer.set_from(state, player)``, ``state.legal_actions()``, ``state.apply_action(a)``;
- ``pyspiel+list``: the same with ``state.observation_tensor(player)`` instead of the observer:
  OpenSpiel's C++ path, which sizes the tensor on a fresh state and returns a Python list.

The ratio ``pyspiel / env`` is the adapter's cost per step (target: at least 0.9, the adapter adding
at most 10%); ``pyspiel+list / env`` shows OpenSpiel's own overhead of ``observation_tensor``.

Then ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, ``use_observation_string=True``,
a random-rollout evaluator with one rollout, UCT c = 2) choosing every move of whole default-size
games at ``--budgets`` simulations per move: decisions/s and simulations/s.

Measurements run round-robin ``--repeats`` times for ``--seconds`` each; medians are reported.
Measured, never asserted.
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

try:
    import pyspiel
    from open_spiel.python import observation as os_observation
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError:
    sys.exit("this benchmark needs OpenSpiel: pip install mythzoo[openspiel] (or make .venvs/openspiel/.installed)")

import mythzoo.adapters.openspiel as adapter
from mythzoo.envs import GAMES

Runner = Callable[[float, int], tuple[int, float]]


def env_loop(game: Any) -> Runner:
    """Random play through the raw env, in the reward mode the adapter plays."""
    spec = game._shared.spec
    env = spec.make_raw(**game.env_kwargs())

    def run(seconds: float, seed: int) -> tuple[int, float]:
        rng = np.random.Generator(np.random.PCG64(seed))
        decisions = games = 0
        start = time.perf_counter()
        while True:
            env.reset(seed=seed * 100_003 + games)
            games += 1
            while True:
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    break
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(legal.size)]))
                decisions += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, elapsed

    return run


def pyspiel_loop(game_string: str, list_tensor: bool) -> Runner:
    """Random play through the adapter's pyspiel state (observer or ``observation_tensor``)."""

    def run(seconds: float, seed: int) -> tuple[int, float]:
        game = pyspiel.load_game(game_string.replace(")", f",seed={seed * 100_003})") if "(" in game_string
                                 else f"{game_string}(seed={seed * 100_003})")
        observer = os_observation.make_observation(game)
        rng = np.random.Generator(np.random.PCG64(seed))
        decisions = 0
        start = time.perf_counter()
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                player = state.current_player()
                if list_tensor:
                    state.observation_tensor(player)
                else:
                    observer.set_from(state, player)
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                decisions += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, elapsed

    return run


def ismcts_loop(game_string: str, budget: int) -> Runner:
    """ISMCTS choosing every move; returns (decisions, seconds)."""

    def run(seconds: float, seed: int) -> tuple[int, float]:
        game = pyspiel.load_game(game_string)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=budget,
                               random_state=np.random.RandomState(seed + 1), use_observation_string=True)
        decisions = 0
        start = time.perf_counter()
        state = game.new_initial_state()
        while True:
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(bot.step(state))
            decisions += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, elapsed

    return run


def game_strings(all_sizes: bool) -> list[str]:
    out = []
    for spec in GAMES:
        name = adapter.game_name(spec)
        if not all_sizes or spec.size_argument is None:
            out.append(name)
            continue
        param = "players" if spec.kind == "symmetric" else spec.size_argument
        for size, seats in zip(spec.sizes, spec.seat_counts()):
            out.append(f"{name}({param}={seats if param == 'players' else size})")
    return out


def versions() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "open_spiel": _version("open_spiel"),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Decisions/s through the OpenSpiel adapter against the raw env, and ISMCTS decisions/s.")
    p.add_argument("--seconds", type=float, default=2.0, help="length of one measurement (default 2)")
    p.add_argument("--repeats", type=int, default=5, help="rounds; medians are reported (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the games and the random policy (default 0)")
    p.add_argument("--all-sizes", action="store_true", help="every size of every game (default: the default sizes)")
    p.add_argument("--budgets", type=int, nargs="*", default=[8, 32], help="ISMCTS simulations per move (default 8 32; none: skip)")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = p.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or any(b < 1 for b in args.budgets):
        p.error("--seconds must be > 0, --repeats >= 1 and every budget >= 1")

    runners: dict[str, Runner] = {}
    pairs: list[tuple[str, str, str, str]] = []
    for gs in game_strings(args.all_sizes):
        game = pyspiel.load_game(gs)
        names = (f"{gs} env", f"{gs} pyspiel", f"{gs} pyspiel+list")
        runners[names[0]] = env_loop(game)
        runners[names[1]] = pyspiel_loop(gs, list_tensor=False)
        runners[names[2]] = pyspiel_loop(gs, list_tensor=True)
        pairs.append((gs, *names))
    for gs in game_strings(False):
        for b in args.budgets:
            runners[f"{gs} ismcts {b}"] = ismcts_loop(gs, b)

    rates: dict[str, list[float]] = {k: [] for k in runners}
    for r in range(args.repeats):
        for name, run in runners.items():
            n, secs = run(args.seconds, args.seed + r)
            rates[name].append(n / secs)
        print(f"round {r + 1}/{args.repeats} done", file=sys.stderr, flush=True)

    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"OpenSpiel adapter, {args.repeats} x {args.seconds:g} s, {versions()}")
    print(f"{'game':<52} {'env/s':>9} {'pyspiel/s':>10} {'ratio':>6} {'+list/s':>9} {'ratio':>6}")
    ratios = {}
    for gs, e, ps, pl in pairs:
        # the ratio of medians, and the median of each round's ratio (load hits a round alike)
        round_ratio = statistics.median(a / b for a, b in zip(rates[ps], rates[e]))
        round_ratio_list = statistics.median(a / b for a, b in zip(rates[pl], rates[e]))
        ratios[gs] = {"pyspiel/env": round_ratio, "pyspiel+list/env": round_ratio_list}
        print(f"{gs:<52} {med[e]:>9,.0f} {med[ps]:>10,.0f} {round_ratio:>6.2f} {med[pl]:>9,.0f} {round_ratio_list:>6.2f}")
    if args.budgets:
        print(f"\n{'ISMCTS (1 random rollout per simulation)':<52} {'decisions/s':>12} {'simulations/s':>14}")
        for gs in game_strings(False):
            for b in args.budgets:
                k = f"{gs} ismcts {b}"
                print(f"{gs + f', {b} simulations':<52} {med[k]:>12,.2f} {med[k] * b:>14,.0f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "versions": versions(), "rates": rates, "medians": med, "ratios": ratios}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
