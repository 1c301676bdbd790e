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
- ``pyspiel+list``: the same with ``state.observation_tensor(player)`` (a Python list) instead of
  the observer;
- ``pyspiel+cpp``: ``pyspiel.State.observation_tensor(state, player)`` and
  ``pyspiel.State.legal_actions(state)``, the C++ methods, which is what C++ code calling a Python
  game pays: the tensor sized on a fresh state, copied into a new list, four Python hooks per
  ``LegalActions``.

The ratio ``pyspiel / env`` (of CPU-time rates, round by round) is the adapter's cost per step
(target: at least 0.9, the adapter adding at most 10%); the other two show what a list and
OpenSpiel's C++ path add.

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

Runner = Callable[[float, int], tuple[int, float, float]]


def env_loop(game: Any) -> Runner:
    """Random play through the raw env, in the reward mode the adapter plays."""
    spec = game._shared.spec
    env = spec.make_raw(**game.env_kwargs())

    def run(seconds: float, seed: int) -> tuple[int, float, float]:
        rng = np.random.Generator(np.random.PCG64(seed))
        decisions = games = 0
        start, cpu = time.perf_counter(), time.process_time()
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
                return decisions, elapsed, time.process_time() - cpu

    return run


def pyspiel_loop(game_string: str, path: str) -> Runner:
    """Random play through the adapter's pyspiel state: ``path`` is ``observer`` (OpenSpiel's
    Python observer), ``list`` (``state.observation_tensor``) or ``cpp`` (pyspiel.State's C++
    ``observation_tensor`` and ``legal_actions``, what C++ callers of a Python game go through)."""
    cpp_obs, cpp_legal = pyspiel.State.observation_tensor, pyspiel.State.legal_actions

    def run(seconds: float, seed: int) -> tuple[int, float, float]:
        game = pyspiel.load_game(game_string.replace(")", f",seed={seed * 100_003})") if "(" in game_string
                                 else f"{game_string}(seed={seed * 100_003})")
        observer = os_observation.make_observation(game)
        rng = np.random.Generator(np.random.PCG64(seed))
        decisions = 0
        start, cpu = time.perf_counter(), time.process_time()
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                player = state.current_player()
                if path == "observer":
                    observer.set_from(state, player)
                    legal = state.legal_actions()
                elif path == "list":
                    state.observation_tensor(player)
                    legal = state.legal_actions()
                else:
                    cpp_obs(state, player)
                    legal = cpp_legal(state)
                state.apply_action(legal[rng.integers(len(legal))])
                decisions += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, elapsed, time.process_time() - cpu

    return run


def ismcts_loop(game_string: str, budget: int) -> Runner:
    """ISMCTS choosing every move; returns (decisions, wall seconds, CPU seconds)."""

    def run(seconds: float, seed: int) -> tuple[int, float, float]:
        game = pyspiel.load_game(game_string)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=budget,
                               random_state=np.random.RandomState(seed + 1), use_observation_string=True)
        decisions = 0
        start, cpu = time.perf_counter(), time.process_time()
        state = game.new_initial_state()
        while True:
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(bot.step(state))
            decisions += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, elapsed, time.process_time() - cpu

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
    pairs: list[tuple[str, str, str, str, str]] = []
    for gs in game_strings(args.all_sizes):
        game = pyspiel.load_game(gs)
        names = (f"{gs} env", f"{gs} pyspiel", f"{gs} pyspiel+list", f"{gs} pyspiel+cpp")
        runners[names[0]] = env_loop(game)
        runners[names[1]] = pyspiel_loop(gs, "observer")
        runners[names[2]] = pyspiel_loop(gs, "list")
        runners[names[3]] = pyspiel_loop(gs, "cpp")
        pairs.append((gs, *names))
    for gs in game_strings(False):
        for b in args.budgets:
            runners[f"{gs} ismcts {b}"] = ismcts_loop(gs, b)

    # Decisions per second of wall time and of the process's CPU time (on a loaded machine the
    # CPU-time rates, and the ratios from them, move less).
    wall: dict[str, list[float]] = {k: [] for k in runners}
    cpu: dict[str, list[float]] = {k: [] for k in runners}
    for r in range(args.repeats):
        for name, run in runners.items():
            n, secs, cpu_secs = run(args.seconds, args.seed + r)
            wall[name].append(n / secs)
            cpu[name].append(n / max(cpu_secs, 1e-9))
        print(f"round {r + 1}/{args.repeats} done", file=sys.stderr, flush=True)

    med = {k: statistics.median(v) for k, v in wall.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"OpenSpiel adapter, {args.repeats} x {args.seconds:g} s, {versions()}")
    print("decisions/s of wall time (median); ratios: the median over rounds of each round's ratio, of CPU-time rates")
    print(f"{'game':<30} {'env/s':>9} {'pyspiel/s':>10} {'ratio':>6} {'+list/s':>9} {'ratio':>6} {'+cpp/s':>9} {'ratio':>6}")
    ratios = {}
    for gs, e, ps, pl, pc in pairs:
        r = {key: statistics.median(a / b for a, b in zip(cpu[k], cpu[e])) for key, k in (("pyspiel", ps), ("list", pl), ("cpp", pc))}
        r["pyspiel (wall)"] = statistics.median(a / b for a, b in zip(wall[ps], wall[e]))
        ratios[gs] = r
        print(f"{gs:<30} {med[e]:>9,.0f} {med[ps]:>10,.0f} {r['pyspiel']:>6.2f} {med[pl]:>9,.0f} {r['list']:>6.2f} {med[pc]:>9,.0f} {r['cpp']:>6.2f}")
    if args.budgets:
        print(f"\n{'ISMCTS (1 random rollout per simulation)':<52} {'decisions/s':>12} {'simulations/s':>14} {'CPU dec/s':>10}")
        for gs in game_strings(False):
            for b in args.budgets:
                k = f"{gs} ismcts {b}"
                print(f"{gs + f', {b} simulations':<52} {med[k]:>12,.2f} {med[k] * b:>14,.0f} {med_cpu[k]:>10,.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "versions": versions(), "wall": wall, "cpu": cpu, "medians": med,
                       "medians_cpu": med_cpu, "ratios": ratios}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
