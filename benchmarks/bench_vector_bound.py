"""What bounds a batched API over the Python engines: ``python benchmarks/bench_vector_bound.py``.

Each configuration's games are recorded once (uniform-random legal play, ``--games`` seeded games),
then replayed, action for action, by three loops, so that all three do the same decisions:

- ``env()``: the AEC loop of ``bench_envs.py`` (``agent_iter``, ``last``, ``step``), the
  observation and mask built for every decision;
- ``rules``: the bare engine, ``rules.legal_actions`` and ``rules.apply`` per decision (what any
  env, batched or not, must run to know the mask and to move);
- ``rules + observer``: the same with ``observer.encode`` of the mover's view into one preallocated
  row per decision (what a batched API must also run to hand out observations).

Printed per configuration: microseconds per decision of each loop, the observer's share (the
difference of the last two), what ``env()`` adds on top (the AEC layer: dicts, agent selection,
the mask array), and the **ceiling** of a batched API that keeps the per-game Python engine and
observer: ``env() time / (rules + observer time)``, the speed-up it would reach if its own batching
cost nothing. The 2x target of issue 18 is above that ceiling wherever the ceiling is below 2.
Medians of ``--repeats`` interleaved rounds. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo.envs import spec

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("mythic_baths", {"num_players": 2}), ("mythic_baths", {"num_players": 4}),
    ("mythsgate", {"num_heroes": 2}), ("mythsgate", {"num_heroes": 5}), ("mythwind_innkeeper", {}),
]


def record(game: str, kwargs: dict[str, Any], games: int) -> list[tuple[int, list[int]]]:
    """``games`` seeded games of uniform-random legal play: (seed, actions) each."""
    env = spec(game).make(**kwargs)
    rng = np.random.default_rng(0)
    out = []
    for seed in range(games):
        env.reset(seed=seed)
        actions = []
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            a = int(legal[rng.integers(legal.size)])
            actions.append(a)
            env.step(a)
        out.append((seed, actions))
    return out


def time_env(game: str, kwargs: dict[str, Any], games: list[tuple[int, list[int]]]) -> float:
    """Seconds per decision of the AEC loop replaying ``games``."""
    env = spec(game).make(**kwargs)
    n = 0
    start = time.perf_counter()
    for seed, actions in games:
        env.reset(seed=seed)
        it = iter(actions)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(next(it))
            n += 1
    return (time.perf_counter() - start) / n


def time_rules(game: str, kwargs: dict[str, Any], games: list[tuple[int, list[int]]], observe: bool) -> float:
    """Seconds per decision of the bare engine replaying ``games`` (and encoding the mover's view)."""
    raw = spec(game).make_raw(**kwargs)
    raw.reset(seed=0)
    rules, observer = raw.rules, raw.observer
    rows = {seat: np.zeros(raw.observation_space(a)["observation"].shape[0], dtype=np.float32) for seat, a in enumerate(raw.possible_agents)}
    n = 0
    start = time.perf_counter()
    for seed, actions in games:
        s = rules.initial_state(seed)
        for a in actions:
            seat = rules.current_player(s)
            legal = rules.legal_actions(s)
            if observe:
                observer.encode(s, seat, rows[seat])
            assert a in legal
            rules.apply(s, a, checked=True)
            n += 1
    return (time.perf_counter() - start) / n


def main(argv: list[str] | None = None) -> int:
    """Record, replay, print the table and the ceilings; optionally write JSON."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=20, help="recorded games per configuration (default 20)")
    p.add_argument("--repeats", type=int, default=3, help="rounds; the median is reported (default 3)")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = p.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        p.error("--games and --repeats must be >= 1")
    rows = []
    print(f"microseconds per decision, median of {args.repeats} rounds over {args.games} recorded games per configuration")
    print(f"{'configuration':<36} {'env()':>8} {'rules':>8} {'+observer':>10} {'observer':>9} {'AEC layer':>10} {'ceiling':>8}")
    for game, kw in CONFIGS:
        games = record(game, kw, args.games)
        t: dict[str, list[float]] = {"env": [], "rules": [], "rules_obs": []}
        for _ in range(args.repeats):
            t["env"].append(time_env(game, kw, games))
            t["rules"].append(time_rules(game, kw, games, observe=False))
            t["rules_obs"].append(time_rules(game, kw, games, observe=True))
        m = {k: statistics.median(v) * 1e6 for k, v in t.items()}
        ceiling = m["env"] / m["rules_obs"]
        name = f"{spec(game).env_name} " + " ".join(f"{k}={v}" for k, v in kw.items())
        rows.append({"configuration": name, "env_us": m["env"], "rules_us": m["rules"], "rules_observer_us": m["rules_obs"],
                     "observer_us": m["rules_obs"] - m["rules"], "aec_layer_us": m["env"] - m["rules_obs"], "ceiling": ceiling})
        print(f"{name:<36} {m['env']:>8.1f} {m['rules']:>8.1f} {m['rules_obs']:>10.1f} {m['rules_obs'] - m['rules']:>9.1f} "
              f"{m['env'] - m['rules_obs']:>10.1f} {ceiling:>7.2f}x")
    print("\nceiling: env() time / (rules + observer time), what a batched API over the per-game Python engine and")
    print("observer reaches at most, if its own batching cost nothing (target of issue 18: 2x)")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "games": args.games, "repeats": args.repeats}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
