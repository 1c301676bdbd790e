"""How far is the Innkeeper heuristic from better play? Its Operate choices re-decided by paired rollouts.

Issue 16 asks for an Innkeeper champion at 1.10x the heuristic's coins. Cloning the heuristic and
refining it by PPO lands below it (``docs/results.md``), which leaves the question open whether
there is 10% to find. This script answers it with search: the heuristic plays every campaign twice
on the same seed, once as it is and once with its Operate choice (the character's action of the
day, 24 a campaign) re-decided by a one-step rollout improvement:

- draw ``--worlds`` worlds consistent with what the innkeeper knows (``rules.resample_hidden``:
  the future weather, bag and deck draws redrawn);
- in each world, play every legal Operate action and then the heuristic to the campaign's end;
- switch from the heuristic's choice to another only when that action's worth, paired world by
  world (common random numbers), beats it by more than two standard errors (the largest such gain
  wins); otherwise keep the heuristic's choice.

Rollouts run on the rules engine (``clone``/``apply``); the campaign itself is played through the
env, so both runs of a seed see the same draws until their choices differ. Prints each campaign's
worth both ways and the paired difference with its 95% Student-t interval.

    python benchmarks/innkeeper_search_headroom.py --campaigns 40 --worlds 16 --jobs 2

(about 100 s a campaign on one core at 16 worlds).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from multiprocessing import Pool
from typing import Any

import numpy as np


class RolloutImprovedHeuristic:
    """The heuristic, with its Operate choices re-decided by ``worlds`` paired rollouts per action."""

    def __init__(self, env: Any, worlds: int, seed: int):
        from mythzoo.policies.mythwind_innkeeper_heuristic import MythwindInnkeeperHeuristic

        if worlds < 2:
            raise ValueError(f"worlds must be at least 2 (a paired standard error needs two), got {worlds}")
        self.env, self.u, self.worlds = env, env.unwrapped, worlds
        self.heuristic = MythwindInnkeeperHeuristic(env, seed=seed)
        self.rollout_heuristic = MythwindInnkeeperHeuristic(env, seed=seed + 1)
        self.rng = np.random.default_rng(seed + 999)
        o, n = self.heuristic.o, self.heuristic.n
        self.operate = set(range(o["operate"], o["operate"] + n["operate"]))
        self.n_actions = self.u.action_space(self.u.possible_agents[0]).n
        self.asked = self.changed = 0
        self.changes: list[str] = []  # "day D: heuristic's choice -> the choice made"

    def _rollout(self, s: Any) -> int:
        """The worth at the end of ``s`` played on by the heuristic."""
        rules, h = self.u.rules, self.rollout_heuristic
        while not rules.is_over(s):
            legal = rules.legal_actions(s)
            if len(legal) == 1:
                a = legal[0]
            else:
                mask = np.zeros(self.n_actions, dtype=np.int8)
                mask[legal] = 1
                a = int(h.act(self.u.observer.observation(s, 0), mask))
            rules.apply(s, a, checked=True)
        return rules.worth(s)

    def _improve(self, legal: list[int], choice: int) -> int:
        rules, s0 = self.u.rules, self.u.state_
        worlds = [rules.resample_hidden(s0, 0, int(x)) for x in self.rng.integers(0, 2**62, size=self.worlds)]
        worth = {}
        for a in legal:
            out = []
            for w in worlds:
                s = rules.clone(w)
                rules.apply(s, a, checked=True)
                out.append(self._rollout(s))
            worth[a] = np.array(out, dtype=float)
        best, best_gain = choice, 0.0
        for a in legal:
            if a == choice:
                continue
            d = worth[a] - worth[choice]
            mean, se = float(d.mean()), float(d.std(ddof=1)) / math.sqrt(self.worlds)
            if mean > 2 * se and mean > best_gain:
                best, best_gain = a, mean
        return best

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        choice = self.heuristic.act(observation, action_mask, agent)
        legal = [int(x) for x in np.flatnonzero(action_mask)]
        if len(legal) > 1 and self.operate.intersection(legal):
            self.asked += 1
            better = self._improve(legal, choice)
            if better != choice:
                self.changed += 1
                self.changes.append(f"day {self.u.state_.turn}: {self.u.action_label(choice)} -> {self.u.action_label(better)}")
            return better
        return choice


def play(seed: int, worlds: int, env_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """One campaign both ways on ``seed``: the heuristic's worth and the rollout-improved one's
    (``env_kwargs``: a shorter campaign, for the tests)."""
    from mythzoo.envs import make
    from mythzoo.policies.mythwind_innkeeper_heuristic import MythwindInnkeeperHeuristic

    env = make("mythwind_innkeeper", **(env_kwargs or {}))
    row: dict[str, Any] = {"seed": seed}
    t0 = time.perf_counter()
    for mode in ("heuristic", "improved"):
        env.reset(seed=seed)
        policy = MythwindInnkeeperHeuristic(env, seed=seed) if mode == "heuristic" else RolloutImprovedHeuristic(env, worlds, seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(policy.act(obs["observation"], obs["action_mask"], agent))
        row[mode] = int(env.unwrapped.rules.worth(env.unwrapped.state_))
        if mode == "improved":
            row["operate_decisions"], row["changed"], row["changes"] = policy.asked, policy.changed, policy.changes
    row["seconds"] = round(time.perf_counter() - t0, 1)
    return row


def _play_star(args: tuple[int, int]) -> dict[str, Any]:
    return play(*args)


def t_interval(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95% Student-t interval."""
    from scipy import stats

    m = float(x.mean())
    if len(x) < 2:
        return m, float("nan"), float("nan")
    h = float(stats.t.ppf(0.975, len(x) - 1)) * float(x.std(ddof=1)) / math.sqrt(len(x))
    return m, m - h, m + h


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--campaigns", type=int, default=40, help="campaigns (seeds --seed ...)")
    ap.add_argument("--seed", type=int, default=0, help="first campaign seed")
    ap.add_argument("--worlds", type=int, default=16, help="sampled worlds per Operate decision (at least 2)")
    ap.add_argument("--jobs", type=int, default=1, help="processes")
    ap.add_argument("--json", default=None, help="write the per-campaign rows here")
    args = ap.parse_args(argv)
    if args.campaigns < 1 or args.worlds < 2 or args.jobs < 1:
        print("error: --campaigns and --jobs must be at least 1, --worlds at least 2", file=sys.stderr)
        return 2
    work = [(s, args.worlds) for s in range(args.seed, args.seed + args.campaigns)]
    rows = []
    with Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for row in pool.imap(_play_star, work):
            rows.append(row)
            print(f"seed {row['seed']}: heuristic {row['heuristic']}, improved {row['improved']} "
                  f"({row['changed']} of {row['operate_decisions']} Operate choices changed), {row['seconds']} s", flush=True)
    h = np.array([r["heuristic"] for r in rows], dtype=float)
    imp = np.array([r["improved"] for r in rows], dtype=float)
    dm, dlo, dhi = t_interval(imp - h)
    hm, im = float(h.mean()), float(imp.mean())
    changed = float(np.mean([r["changed"] for r in rows]))
    kinds: dict[str, int] = {}
    for r in rows:
        for c in r["changes"]:
            kind = c.split(": ", 1)[1]
            kinds[kind] = kinds.get(kind, 0) + 1
    print(f"\n{len(rows)} campaigns, {args.worlds} worlds per Operate decision")
    print(f"heuristic {hm:.1f}, rollout-improved {im:.1f} mean worth; Operate choices changed per campaign {changed:.2f}")
    print(f"improved minus heuristic, paired: {dm:+.1f} [{dlo:+.1f}, {dhi:+.1f}]; ratio {im / hm:.3f}x")
    print("choices changed (heuristic's -> search's, times): " + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])) or "none"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"worlds": args.worlds, "rows": rows}, f, indent=1)
    return 0


class _Serial:
    """``Pool``'s ``imap`` in this process (``--jobs 1``)."""

    def __enter__(self) -> "_Serial":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def imap(self, fn: Any, work: list) -> Any:
        return map(fn, work)


if __name__ == "__main__":
    raise SystemExit(main())
