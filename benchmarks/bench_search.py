"""Search baseline benchmark: clone cost, decisions/s per budget, and strength (``mcts:50``).

Prints, per game:

1. the cost of one ``rules.clone`` of a mid-game state, with the RNG copied by its state
   (``copy_rng``, today) and by ``copy.deepcopy`` (before), measured in the same run;
2. the search's decisions/s at each budget (random rollouts; heuristic rollouts at the smallest
   budget), over the same mid-game positions as the heuristic's decisions/s, its peer: the ratio
   says how many heuristic decisions one search decision costs;
3. the win rate of ``mcts:50`` against the heuristic and against random (seats or roles alternated;
   a shared win counts 1/k), and for the solo Innkeeper the mean final worth of ``mcts:50``, the
   heuristic and random over the same campaigns.

    nice -n 10 python benchmarks/bench_search.py --games 12
    nice -n 10 python benchmarks/bench_search.py --only clone,speed      # the quick parts
"""

from __future__ import annotations

import argparse
import copy
import time
from typing import Any

import numpy as np

GAMES = [("mythic_baths", {"num_players": 2}), ("mythsgate", {"num_heroes": 2}), ("innkeeper", {})]


def positions(name: str, kw: dict[str, Any], count: int) -> list[Any]:
    """``count`` mid-game envs (random play from seeds 0.., 10 to 40 decisions in), a live agent to move."""
    from mythzoo.envs import make

    out = []
    for seed in range(count):
        env = make(name, **kw)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(10 + 30 * seed // max(count - 1, 1)):
            legal = env.legal_actions()
            if len(env.legal_actions()) == 0:
                break
            env.step(int(rng.choice(legal)))
        if env.legal_actions():
            out.append(env)
    return out


def per_call(fn: Any, seconds: float = 0.5) -> float:
    """Seconds per call of ``fn`` (repeated for about ``seconds``)."""
    fn()
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        fn()
        n += 1
    return (time.perf_counter() - t0) / n


def bench_clone(name: str, kw: dict[str, Any]) -> None:
    import mythzoo.envs.core.rules_base as rules_base

    env = positions(name, kw, 2)[-1]
    u = env.unwrapped
    s = u.rules.clone(u.state_)
    now = per_call(lambda: u.rules.clone(s))
    saved = rules_base.copy_rng
    rules_base.copy_rng = copy.deepcopy  # the clone as it was: the Generator deep-copied
    try:
        before = per_call(lambda: u.rules.clone(s))
    finally:
        rules_base.copy_rng = saved
    whole = per_call(lambda: copy.deepcopy(s))
    print(f"{u.env_name:24s} clone {now * 1e6:6.1f} us (RNG by state)  {before * 1e6:6.1f} us (RNG deep-copied)  "
          f"ratio {before / now:4.2f}x  | deepcopy of the whole state {whole * 1e6:6.1f} us")


def bench_speed(name: str, kw: dict[str, Any], budgets: list[int], count: int) -> None:
    from mythzoo.policies.baselines import make_baseline
    from mythzoo.policies.search import SearchPolicy

    envs = positions(name, kw, count)
    u0 = envs[0].unwrapped
    heuristic = make_baseline("heuristic", envs[0], seed=0)

    def heuristic_all() -> None:
        for env in envs:
            o = env.observe(env.agent_selection)
            heuristic.act(o["observation"], o["action_mask"], env.agent_selection)

    h_dps = len(envs) / per_call(heuristic_all, 1.0)
    print(f"{u0.env_name:24s} heuristic {h_dps:10.1f} decisions/s  (peer, {len(envs)} positions)")
    runs = [(b, "random") for b in budgets] + [(budgets[0], "heuristic")]
    for budget, rollout in runs:
        search = SearchPolicy(envs[0], 0, budget=budget, rollout=rollout)
        t0 = time.perf_counter()
        for env in envs:
            search.act_in_env(env, env.agent_selection)
        dps = len(envs) / (time.perf_counter() - t0)
        label = f"mcts:{budget}" + (":heuristic" if rollout == "heuristic" else "")
        print(f"{u0.env_name:24s} {label:16s} {dps:8.2f} decisions/s  ({1 / dps:6.3f} s each; heuristic/search {h_dps / dps:8.0f}x)")


def bench_strength(name: str, kw: dict[str, Any], games: int, budget: int) -> None:
    from mythzoo.envs import make
    from mythzoo.evaluation import wilson_interval
    from mythzoo.evaluation.records import GameRecord
    from mythzoo.evaluation.runner import play_one
    from mythzoo.policies.baselines import make_baseline

    env = make(name, **kw)
    u = env.unwrapped
    agents = list(u.possible_agents)
    team = [u.agent_team(a) for a in agents]
    ref = f"mcts:{budget}"
    t0 = time.perf_counter()
    if len(agents) == 1:
        worth: dict[str, list[float]] = {}
        for opp in (ref, "heuristic", "random"):
            for g in range(games):
                rec = play_one(env, [make_baseline(opp, env, seed=g)], GameRecord(u.env_name, {}, 1, 5000 + g, [opp], [g], digests=None))
                worth.setdefault(opp, []).append(float(rec.scores[0]))
        line = "  ".join(f"{k} {np.mean(v):6.1f} +- {np.std(v) / np.sqrt(len(v)):4.1f}" for k, v in worth.items())
        print(f"{u.env_name:24s} mean final worth over {games} campaigns (seeds 5000..): {line}  "
              f"ratio {ref}/heuristic {np.mean(worth[ref]) / np.mean(worth['heuristic']):4.2f}  ({time.perf_counter() - t0:.0f} s)")
        return
    sides = sorted(set(team), key=team.index)
    for opp in ("heuristic", "random"):
        wins = 0.0
        for g in range(games):
            mine = sides[g % len(sides)] if u.team_roles else agents[g % len(agents)]
            pols = [make_baseline(ref if team[i] == mine else opp, env, seed=1000 * g + i) for i in range(len(agents))]
            rec = play_one(env, pols, GameRecord(u.env_name, {}, len(agents), 7000 + g, ["x"] * len(agents), [None] * len(agents), digests=None))
            shares = rec.outcome(team).seat_shares()
            wins += shares[team.index(mine)]
        low, high = wilson_interval(wins, games)
        print(f"{u.env_name:24s} {ref} vs {opp:9s}: win rate {wins / games:5.1%} [{low:4.0%}, {high:4.0%}] over {games} games "
              f"(seats/roles alternated; {time.perf_counter() - t0:.0f} s)")
        t0 = time.perf_counter()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=24, help="games per pairing for the win rates (default %(default)s)")
    ap.add_argument("--budgets", default="10,50,200", help="simulations per decision to time (default %(default)s)")
    ap.add_argument("--positions", type=int, default=4, help="mid-game positions timed per game (default %(default)s)")
    ap.add_argument("--strength-budget", type=int, default=50, help="the search's budget in the win rates (default %(default)s)")
    ap.add_argument("--only", default="clone,speed,strength", help="parts to run, comma-separated (default %(default)s)")
    ap.add_argument("--envs", default=",".join(n for n, _ in GAMES), help="games (default %(default)s)")
    args = ap.parse_args()
    parts = set(args.only.split(","))
    budgets = [int(b) for b in args.budgets.split(",")]
    chosen = [(n, kw) for n, kw in GAMES if n in args.envs.split(",")]
    if "clone" in parts:
        for name, kw in chosen:
            bench_clone(name, kw)
    if "speed" in parts:
        for name, kw in chosen:
            bench_speed(name, kw, budgets, args.positions)
    if "strength" in parts:
        for name, kw in chosen:
            bench_strength(name, kw, args.games, args.strength_budget)


if __name__ == "__main__":
    main()
