"""OpenSpiel's ISMCTS bot against mythzoo's search, head to head at the same budget, in one run.

``python benchmarks/bench_search_openspiel.py`` runs in the OpenSpiel venv
(``make .venvs/openspiel/.installed``, then ``.venvs/openspiel/bin/python benchmarks/bench_search_openspiel.py``).

Both bots get ``--budget`` simulations per decision (mythzoo's ``--mythzoo-budget`` if given, to
compare at equal time) and random rollouts, each with its library's
own defaults otherwise:

- ``openspiel``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` through mythzoo's OpenSpiel
  adapter (``use_observation_string=True``, ``RandomRolloutEvaluator(n_rollouts=1)``, UCT c = 2,
  the adapter's ``resample_from_infostate`` drawing each world);
- ``mythzoo``: ``mythzoo.policies.search.SearchPolicy`` (``mcts:N``, single-observer ISMCTS over
  ``resample_hidden``; docs/search.md), acting on the raw env set to the same game
  (``env.set_state``: the env's public JSON state, its game the adapter's ``state.env_state()``).

The games are played on the adapter's pyspiel state. A decision with one legal action is taken
without asking either bot (both would take it). The two-sided games (Mythic Baths at 2 players,
Mythsgate at 2 heroes: the Invoker against the League) are played in pairs on one deal with the
bots' seats swapped; the solo Innkeeper plays each campaign once with each bot on the same seed
(paired). Reported: each bot's wins (a draw counts half) with a Wilson interval, or its mean
coins and the paired difference; the CPU seconds per decision of each bot (its own ``step`` or
``act_in_env`` calls alone). ``--jobs`` splits the games over processes; the figures do not
depend on it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
from multiprocessing import Pool
from typing import Any

import numpy as np

try:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError:
    sys.exit("this benchmark needs OpenSpiel: pip install mythzoo[openspiel] (or make .venvs/openspiel/.installed)")

import mythzoo.adapters.openspiel  # noqa: F401  (registers the mythzoo_* games)
from mythzoo.envs import spec as game_spec
from mythzoo.evaluation.stats import wilson_interval
from mythzoo.policies.search import SearchPolicy

BOTS = ("openspiel", "mythzoo")
# game string -> (short env name, OpenSpiel players); the Innkeeper campaign is one short season
GAMES = {
    "mythzoo_mythic_baths(players=2)": "mythic_baths",
    "mythzoo_mythsgate(num_heroes=2)": "mythsgate",
    "mythzoo_mythwind_innkeeper(seasons=4)": "mythwind_innkeeper",
}


def _bots(game: Any, env: Any, budget: int, ours: int, seed: int) -> dict[str, Any]:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    os_bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=budget,
                              random_state=np.random.RandomState(seed + 1), use_observation_string=True)
    return {"openspiel": os_bot, "mythzoo": SearchPolicy(env, seed + 2, budget=ours)}


def play(task: tuple[str, int, int, int, tuple[str, ...]]) -> dict[str, Any]:
    """One game: ``bot_of_player`` names the bot of each OpenSpiel player. Returns the returns,
    and per bot its decisions and CPU seconds."""
    game_string, budget, ours, seed, bot_of_player = task
    name, params = game_string.split("(")
    kw = dict(kv.split("=") for kv in params.rstrip(")").split(","))
    game = pyspiel.load_game(name, {**{k: int(v) for k, v in kw.items()}, "seed": seed})
    env = game_spec(GAMES[game_string]).make_raw(**game.env_kwargs())
    env.reset(seed=seed)
    bots = _bots(game, env, budget, ours, seed)
    state = game.new_initial_state()
    assert state.env_seed() == seed
    decisions = {b: 0 for b in BOTS}
    cpu = {b: 0.0 for b in BOTS}
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        who = bot_of_player[state.current_player()]
        start = time.process_time()
        if who == "openspiel":
            action = bots["openspiel"].step(state)
        else:
            agent = state.agent_to_move()
            full = env.get_state()  # the env's public state, its game replaced by the adapter's
            full["game"], full["aec"]["agent_selection"] = state.env_state(), agent
            env.set_state(full)
            action = bots["mythzoo"].act_in_env(env, agent)
        cpu[who] += time.process_time() - start
        decisions[who] += 1
        state.apply_action(int(action))
    return {"returns": state.returns(), "bots": list(bot_of_player), "decisions": decisions, "cpu": cpu}


def summarize(game_string: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    decisions = {b: sum(r["decisions"][b] for r in results) for b in BOTS}
    cpu = {b: sum(r["cpu"][b] for r in results) for b in BOTS}
    out: dict[str, Any] = {"game": game_string, "games": len(results),
                           "cpu_s_per_decision": {b: cpu[b] / max(1, decisions[b]) for b in BOTS}, "decisions": decisions}
    if GAMES[game_string] == "mythwind_innkeeper":
        coins = {b: [r["returns"][0] for r in results if r["bots"][0] == b] for b in BOTS}
        diff = [a - b for a, b in zip(coins["mythzoo"], coins["openspiel"])]
        sd = statistics.stdev(diff) if len(diff) > 1 else 0.0
        half = 1.96 * sd / math.sqrt(max(1, len(diff)))
        out["mean_coins"] = {b: statistics.fmean(coins[b]) for b in BOTS}
        out["mythzoo_minus_openspiel"] = [statistics.fmean(diff), statistics.fmean(diff) - half, statistics.fmean(diff) + half]
        return out
    score = {b: 0.0 for b in BOTS}
    for r in results:
        a, b = r["returns"]
        for p, bot in enumerate(r["bots"]):
            mine, theirs = (a, b) if p == 0 else (b, a)
            score[bot] += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    n = len(results)
    out["wins"] = {b: score[b] for b in BOTS}
    out["mythzoo_win_rate"] = [score["mythzoo"] / n, *wilson_interval(score["mythzoo"], n)]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="OpenSpiel's ISMCTS against mythzoo's search at the same budget, head to head.")
    p.add_argument("--budget", type=int, default=16, help="simulations per decision for both bots (default 16)")
    p.add_argument("--mythzoo-budget", type=int, help="mythzoo's simulations per decision, if not --budget (to compare at equal time)")
    p.add_argument("--games", type=int, default=20, help="games per game (pairs for the two-sided games; default 20)")
    p.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    p.add_argument("--only", choices=sorted(set(GAMES.values())), help="one game alone")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = p.parse_args(argv)
    ours = args.budget if args.mythzoo_budget is None else args.mythzoo_budget
    if args.budget < 1 or ours < 1 or args.games < 2 or args.jobs < 1:
        p.error("--budget and --mythzoo-budget must be >= 1, --games >= 2 and --jobs >= 1")
    tasks: list[tuple[str, int, int, int, tuple[str, ...]]] = []
    for gs, short in GAMES.items():
        if args.only and short != args.only:
            continue
        for k in range(args.games // 2):
            seed = args.seed + k
            if short == "mythwind_innkeeper":
                tasks += [(gs, args.budget, ours, seed, ("openspiel",)), (gs, args.budget, ours, seed, ("mythzoo",))]
            else:
                tasks += [(gs, args.budget, ours, seed, ("openspiel", "mythzoo")), (gs, args.budget, ours, seed, ("mythzoo", "openspiel"))]
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        results = pool.map(play, tasks, chunksize=1)
    wall = time.perf_counter() - start
    rows = [summarize(gs, [r for t, r in zip(tasks, results) if t[0] == gs]) for gs in GAMES if any(t[0] == gs for t in tasks)]
    print(f"OpenSpiel ISMCTS {args.budget} and mythzoo mcts:{ours} simulations per decision, random rollouts; {wall:.0f} s on {args.jobs} processes")
    print("| game | games | mythzoo's search | OpenSpiel ISMCTS | mythzoo s/decision | OpenSpiel s/decision | OpenSpiel / mythzoo time |")
    print("|---|---:|---|---|---:|---:|---:|")
    for row in rows:
        t = row["cpu_s_per_decision"]
        ratio = t["openspiel"] / t["mythzoo"] if t["mythzoo"] else float("nan")
        if "mean_coins" in row:
            d, lo, hi = row["mythzoo_minus_openspiel"]
            mine = f"{row['mean_coins']['mythzoo']:.1f} coins (paired {d:+.1f} [{lo:+.1f}, {hi:+.1f}])"
            theirs = f"{row['mean_coins']['openspiel']:.1f} coins"
        else:
            rate, lo, hi = row["mythzoo_win_rate"]
            mine = f"{100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
            theirs = f"{100 * (1 - rate):.1f}%"
        print(f"| {row['game']} | {row['games']} | {mine} | {theirs} | {t['mythzoo']:.4f} | {t['openspiel']:.4f} | {ratio:.1f}x |")
    if args.json:
        from importlib.metadata import version

        with open(args.json, "w") as f:
            json.dump({"budget": args.budget, "mythzoo_budget": ours, "seed": args.seed, "wall_s": wall, "rows": rows,
                       "versions": {"python": platform.python_version(), "open_spiel": version("open_spiel"),
                                    "numpy": np.__version__, "cpu_count": os.cpu_count()}}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
