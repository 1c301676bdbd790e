"""What is one step of renown worth to the Innkeeper heuristic, day by day? Measured by rollouts.

The heuristic values a renown step at ``RENOWN_VALUE`` coins. Renown brings more guests, but the
season's upkeep damages more at a higher level (level II rolls a villager die, level III a villager
and a sprite die) and refills the bag with harder guests (level III: no level I guests at all).
This script measures what a step is worth at each point of a season:

- play heuristic campaigns; at the first decision of each chosen day of a season (``--days``,
  0 = a season's first day; the last season is left out: no upkeep follows it), take the state;
- draw ``--worlds`` worlds consistent with what the innkeeper knows (``rules.resample_hidden``);
- in each world set the renown one step lower than it is and play both on with the heuristic to
  the campaign's end (the same worlds both ways: common random numbers);
- print, per day of the season and per renown slot, the mean worth of that one step down, paired,
  with its 95% Student-t interval over the states.

A positive figure means a step of renown *lost* there is worth coins: the heuristic's own
continuation does better from one step lower. ``UPKEEP_LEVEL_STEP`` in
``policies/mythwind_innkeeper_heuristic/reading.py`` comes from this table.

    python benchmarks/innkeeper_renown_worth.py --campaigns 60 --days 3,5 --worlds 6 --jobs 2

(about 30 s a campaign on one core at 6 worlds and two days a season.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from innkeeper_search_headroom import RolloutImprovedHeuristic, _Serial, t_interval  # noqa: E402


def measure(seed: int, worlds: int, days: tuple[int, ...], env_kwargs: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One heuristic campaign on ``seed``; at the chosen days, the worth of one renown step down
    (``env_kwargs``: a shorter campaign, for the tests). Rows: seed, turn, day of the season,
    renown slot, the paired differences (one per world)."""
    from mythzoo.envs import make
    from mythzoo.policies.mythwind_innkeeper_heuristic import MythwindInnkeeperHeuristic

    env = make("mythwind_innkeeper", **(env_kwargs or {}))
    env.reset(seed=seed)
    u = env.unwrapped
    rules = u.rules
    heuristic = MythwindInnkeeperHeuristic(env, seed=seed)
    playout = RolloutImprovedHeuristic(env, 2, seed)  # its _rollout: the heuristic to the campaign's end
    rng = np.random.default_rng(seed + 999)
    per_season = rules.days_per_season
    rows: list[dict[str, Any]] = []
    seen: set[int] = set()
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        s0 = u.state_
        turn = int(s0.turn)
        if (turn not in seen and turn % per_season in days and turn // per_season < rules.num_seasons - 1
                and s0.renown > 0):
            seen.add(turn)
            diffs = []
            for w in rng.integers(0, 2**62, size=worlds):
                world = rules.resample_hidden(s0, 0, int(w))
                lower = rules.clone(world)
                lower.renown -= 1
                diffs.append(playout._rollout(lower) - playout._rollout(rules.clone(world)))
            rows.append({"seed": seed, "turn": turn, "day": turn % per_season, "renown": int(s0.renown), "step_down": diffs})
        env.step(heuristic.act(obs["observation"], obs["action_mask"], agent))
    return rows


def _measure_star(args: tuple[int, int, tuple[int, ...]]) -> list[dict[str, Any]]:
    return measure(*args)


def table(rows: list[dict[str, Any]], track: int) -> str:
    """Markdown: per day of the season (rows) and renown slot (columns), the mean worth of one step
    down over the states measured there, its interval and the number of states."""
    days = sorted({r["day"] for r in rows})
    slots = list(range(1, track))
    lines = ["| day of the season | " + " | ".join(f"slot {k}" for k in slots) + " |",
             "|---|" + "---|" * len(slots)]
    for d in days:
        cells = []
        for k in slots:
            x = np.array([float(np.mean(r["step_down"])) for r in rows if r["day"] == d and r["renown"] == k])
            if len(x) == 0:
                cells.append("-")
            elif len(x) == 1:
                cells.append(f"{x[0]:+.1f} (1)")
            else:
                m, lo, hi = t_interval(x)
                cells.append(f"{m:+.1f} [{lo:+.1f}, {hi:+.1f}] ({len(x)})")
        lines.append(f"| {d} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--campaigns", type=int, default=60, help="campaigns (seeds --seed ...)")
    ap.add_argument("--seed", type=int, default=3000, help="first campaign seed")
    ap.add_argument("--days", default="3,5", help="days of each season to measure (0 = the first), comma-separated")
    ap.add_argument("--worlds", type=int, default=6, help="sampled worlds per state (at least 1)")
    ap.add_argument("--jobs", type=int, default=1, help="processes")
    ap.add_argument("--json", default=None, help="write the per-state rows here")
    args = ap.parse_args(argv)
    try:
        days = tuple(sorted({int(x) for x in args.days.split(",")}))
    except ValueError:
        days = ()
    if args.campaigns < 1 or args.worlds < 1 or args.jobs < 1 or not days or min(days) < 0:
        print("error: --campaigns, --worlds and --jobs must be at least 1, --days comma-separated days from 0",
              file=sys.stderr)
        return 2
    from mythzoo.envs import make

    rules = make("mythwind_innkeeper").unwrapped.rules
    if max(days) >= rules.days_per_season:
        print(f"error: --days: a season has days 0 to {rules.days_per_season - 1}", file=sys.stderr)
        return 2
    work = [(s, args.worlds, days) for s in range(args.seed, args.seed + args.campaigns)]
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    with Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for i, got in enumerate(pool.imap(_measure_star, work), 1):
            rows += got
            print(f"\r{i}/{len(work)} campaigns, {len(rows)} states, {time.perf_counter() - t0:.0f} s", end="",
                  file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"Command: `python benchmarks/innkeeper_renown_worth.py --campaigns {args.campaigns} --seed {args.seed} "
          f"--days {','.join(map(str, days))} --worlds {args.worlds}`\n")
    print(f"Worth in coins of one renown step down (the heuristic playing on from one slot lower, paired over "
          f"{args.worlds} worlds per state), by day of the season and the renown slot it was at "
          f"(levels by slot: {', '.join(map(str, rules.levels))}); mean [95% interval] (states):\n")
    print(table(rows, rules.track_len))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"worlds": args.worlds, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
