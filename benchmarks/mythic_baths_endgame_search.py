"""How much does the Mythic Baths champion gain from search in the endgame? Paired rollouts, measured.

Issue 16 asks for a two-player Mythic Baths champion that wins 85% against the heuristic; the
network alone plateaus near 82% (``docs/results.md``). Most of its losses are close (a few VP, or
the tie-break), and they are decided in the last turns, where a game has few moves left and
rollouts are cheap. This script measures what search there is worth: every seeded game is played
twice against the heuristic, once by the network alone and once by the network with its choices in
the endgame re-decided by a one-step rollout improvement:

- the endgame: some player is at most ``--window`` treatments (default 2) from the number that
  begins the last round (8 guests at 2 and 3 players, 7 at 4, 6 at 5), or the last round has begun;
- draw ``--worlds`` worlds consistent with what the seat knows (``rules.resample_hidden``: the
  hands, the decks below the public top guest);
- in each world play every legal action and then the network in every seat to the end (the
  network as its own opponent model: the heuristic's moves are not used);
- switch from the network's choice to another only when that action's win share, paired world by
  world (common random numbers), beats it by more than two standard errors (the largest such gain
  wins); otherwise keep the network's choice.

Seats rotate (each seed is played from every seat), both runs of a seed see the same deal, and the
figures depend only on the seeds. Prints the win rate both ways with Wilson intervals and the
paired difference with its Student-t interval.

    python benchmarks/mythic_baths_endgame_search.py --games 100 --seed 100000 --worlds 16 --jobs 2

(``--players 3`` or ``4`` for the larger tables; each seed is then played from every seat.
``--more-worlds M`` gives a close call ``M`` more worlds, as ``rollouts:W+M:REF`` does. ``--json``
keeps each seed's row as it ends, and a run over the same file with the same setting reads those
seeds back and plays only the rest, so a long run can stop and go on.
``--from-json A.json B.json`` prints the summary of runs on disjoint seeds together, playing nothing.
``--paired A.json --against B.json`` compares two settings' search game by game over the seeds both
sides hold, playing nothing: for example window 3 with and without more worlds for close calls.)

(at 16 worlds about 5 s a seed on one core at two players, both ways, and 20 s at four; about 0.1 s per
endgame decision at two players, 0.2 s at three and four.)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from mythzoo.threads import one_blas_thread_here  # noqa: E402  (loads no numpy)

# One BLAS thread a process, set before numpy loads (mythzoo/threads.py says why): about 5x faster here.
one_blas_thread_here()

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from innkeeper_search_headroom import _Serial, t_interval  # noqa: E402

from mythzoo.policies.rollouts import EndgameRollouts  # noqa: E402  (the policy rollouts:W:REF names)

ROOT = Path(__file__).resolve().parents[1]
CHAMPION = ROOT / "checkpoints" / "mythic_baths_v1-ppo-champion.tar"


def _network(env: Any, checkpoint: Path) -> Any:
    """The checkpoint archive's policy (imported into a temporary registry, hashes checked)."""
    from mythzoo.policies.refs import load_policy
    from mythzoo.policies.registry import Registry

    with tempfile.TemporaryDirectory(prefix="mythzoo-endgame-") as tmp:
        reg = Registry(tmp)
        info = reg.import_(checkpoint)[0]
        return load_policy(info.id, env, registry=reg)


def play(seed: int, worlds: int, window: int, checkpoint: str, players: int = 2, more_worlds: int = 0) -> dict[str, Any]:
    """Seed ``seed`` from each seat, the network alone and with endgame rollouts: win shares."""
    from mythzoo.envs import make
    from mythzoo.policies.mythic_baths_heuristic import MythicBathsHeuristic

    env = make("mythic_baths", num_players=players)
    env.reset(seed=seed)
    net = _network(env, Path(checkpoint))
    row: dict[str, Any] = {"seed": seed, "network": [], "search": [], "asked": 0, "changed": 0, "extended": 0}
    t0 = time.perf_counter()
    u = env.unwrapped
    for mode in ("network", "search"):
        for seat in range(len(env.possible_agents)):
            env.reset(seed=seed)
            me = env.possible_agents[seat]
            heuristic = MythicBathsHeuristic(env, seed)
            searcher = EndgameRollouts(env, net, worlds, window, seed + 7, more_worlds=more_worlds) if mode == "search" else None
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                o, m = obs["observation"], obs["action_mask"]
                if agent != me:
                    env.step(heuristic.act(o, m, agent))
                else:
                    env.step(searcher.act(o, m, agent) if searcher else net.act(o, m))
            over = u.rules.is_over(u.state_)
            w = u.rules.winners(u.state_) if over else []
            row[mode].append(1.0 / len(w) if seat in w else 0.0)
            if searcher:
                row["asked"] += searcher.asked
                row["changed"] += searcher.changed
                row["extended"] += searcher.extended
    row["seconds"] = round(time.perf_counter() - t0, 1)
    return row


def _play_star(args: tuple) -> dict[str, Any]:
    return play(*args)


def summary(rows: list[dict[str, Any]], players: int, worlds: int, window: int, more_worlds: int = 0) -> list[str]:
    """The report's lines for per-seed ``rows``: both win rates with Wilson intervals, the paired difference."""
    from mythzoo.evaluation.stats import wilson_interval

    net = np.array([x for r in rows for x in r["network"]])
    srch = np.array([x for r in rows for x in r["search"]])
    n = len(net)
    lo_n, hi_n = wilson_interval(float(net.sum()), n)
    lo_s, hi_s = wilson_interval(float(srch.sum()), n)
    dm, dlo, dhi = t_interval(srch - net)
    more = f" (+{more_worlds} for a close call)" if more_worlds else ""
    return [f"{n} games each way ({len(rows)} seeds, every seat), {players} players, {worlds} worlds per endgame decision{more}, window {window}",
            f"network alone: {net.mean():.3f} [{lo_n:.3f}, {hi_n:.3f}] against the heuristic",
            f"with endgame search: {srch.mean():.3f} [{lo_s:.3f}, {hi_s:.3f}]",
            f"search minus network, paired: {dm:+.3f} [{dlo:+.3f}, {dhi:+.3f}]; games better / worse: "
            f"{int((srch > net).sum())} / {int((srch < net).sum())}; endgame choices changed per game "
            f"{sum(r['changed'] for r in rows) / n:.2f} of {sum(r['asked'] for r in rows) / n:.1f}"]


def _setting(run: dict[str, Any]) -> tuple:
    """What a run's games depend on besides the seed: (players, worlds, window, more worlds); files
    written before ``--more-worlds`` existed hold none (0)."""
    return run.get("players"), run.get("worlds"), run.get("window"), run.get("more_worlds", 0)


def _write_json(path: str, setting: tuple, rows: list[dict[str, Any]]) -> None:
    """The run's file, replaced whole (a stop mid-write leaves the previous one), rows in seed order."""
    players, worlds, window, more_worlds = setting
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump({"players": players, "worlds": worlds, "window": window, "more_worlds": more_worlds,
                   "rows": sorted(rows, key=lambda r: r["seed"])}, f, indent=1)
    os.replace(tmp, path)


def _read_runs(paths: list[str]) -> list[dict[str, Any]] | None:
    """The ``--json`` files' contents, or None after a one-line error naming the file that fails."""
    runs = []
    for path in paths:
        try:
            run = json.loads(Path(path).read_text())
            if not isinstance(run, dict) or not isinstance(run.get("rows"), list):
                raise ValueError("not a --json file of this script (no rows)")
            runs.append(run)
        except (OSError, ValueError) as e:
            print(f"error: cannot read {path}: {' '.join(str(e).split())}", file=sys.stderr)
            return None
    return runs


def _pool(paths: list[str]) -> tuple[tuple, list[dict[str, Any]]] | None:
    """The rows of ``--json`` files run with one setting on disjoint seeds, pooled, with that setting;
    None after a one-line error."""
    runs = _read_runs(paths)
    if runs is None:
        return None
    setting = {_setting(r) for r in runs}
    if len(setting) != 1:
        print(f"error: the files were run with different players, worlds, more worlds or window: {sorted(setting, key=str)}", file=sys.stderr)
        return None
    rows = [row for r in runs for row in r["rows"]]
    seeds = [row["seed"] for row in rows]
    if len(set(seeds)) != len(seeds):
        print("error: a seed is in more than one file (each game would count twice)", file=sys.stderr)
        return None
    return setting.pop(), sorted(rows, key=lambda r: r["seed"])


def _from_json(paths: list[str]) -> int:
    """Print the summary of runs written by ``--json`` together (one table size, worlds and window; no seed twice)."""
    pooled = _pool(paths)
    if pooled is None:
        return 2
    setting, rows = pooled
    print("\n".join(summary(rows, *setting)))
    return 0


def _setting_words(setting: tuple) -> str:
    players, worlds, window, more_worlds = setting
    return f"{worlds}{f'+{more_worlds}' if more_worlds else ''} worlds, window {window}"


def paired(paths_a: list[str], paths_b: list[str]) -> int:
    """Compare the search of two settings' ``--json`` runs (A: ``paths_a`` pooled, B: ``paths_b``)
    game by game over the seeds both hold: both win rates (Wilson intervals) and A minus B with its
    Student-t interval. The network-alone games of a seed must be the same on both sides (the same
    checkpoint and deals), else the pairing means nothing."""
    from mythzoo.evaluation.stats import wilson_interval

    pooled = [_pool(paths_a), _pool(paths_b)]
    if None in pooled:
        return 2
    (setting_a, rows_a), (setting_b, rows_b) = pooled
    settings = [setting_a, setting_b]
    if setting_a[0] != setting_b[0]:
        print(f"error: the files were run at different table sizes ({setting_a[0]} and {setting_b[0]} players)", file=sys.stderr)
        return 2
    by_seed = {r["seed"]: r for r in rows_b}
    pairs = [(r, by_seed[r["seed"]]) for r in rows_a if r["seed"] in by_seed]
    if not pairs:
        print("error: the two sides hold no seed in common", file=sys.stderr)
        return 2
    differ = [ra["seed"] for ra, rb in pairs if ra["network"] != rb["network"]]
    if differ:
        print(f"error: the network-alone games of seed {differ[0]} differ between the files (another checkpoint?)", file=sys.stderr)
        return 2
    wins_a = np.array([x for ra, _ in pairs for x in ra["search"]])
    wins_b = np.array([x for _, rb in pairs for x in rb["search"]])
    n = len(wins_a)
    seeds = [ra["seed"] for ra, _ in pairs]
    print(f"{n} games ({len(pairs)} seeds, {min(seeds)}-{max(seeds)}, every seat), {settings[0][0]} players; "
          f"network alone {np.mean([x for ra, _ in pairs for x in ra['network']]):.3f}")
    for name, wins, rows, setting in (("A", wins_a, [ra for ra, _ in pairs], settings[0]), ("B", wins_b, [rb for _, rb in pairs], settings[1])):
        lo, hi = wilson_interval(float(wins.sum()), n)
        print(f"{name} ({_setting_words(setting)}): {wins.mean():.3f} [{lo:.3f}, {hi:.3f}]; endgame choices changed "
              f"per game {sum(r['changed'] for r in rows) / n:.2f} of {sum(r['asked'] for r in rows) / n:.1f}")
    dm, dlo, dhi = t_interval(wins_a - wins_b)
    print(f"A minus B, paired: {dm:+.3f} [{dlo:+.3f}, {dhi:+.3f}]; games A better / worse: "
          f"{int((wins_a > wins_b).sum())} / {int((wins_a < wins_b).sum())}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="seeds, each played from both seats (so twice this many games each way)")
    ap.add_argument("--seed", type=int, default=100000, help="first seed")
    ap.add_argument("--worlds", type=int, default=16, help="sampled worlds per endgame decision (at least 2)")
    ap.add_argument("--window", type=int, default=2, help="the endgame begins this many treatments before the last round")
    ap.add_argument("--more-worlds", type=int, default=0,
                    help="worlds added to a close call (some action ahead of the network's choice, none past two "
                         "standard errors), as rollouts:W+M:REF does; default 0")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5), help="players at the table (the network takes one seat)")
    ap.add_argument("--checkpoint", default=str(CHAMPION), help="a registry export of a mythic_baths_v1 policy")
    ap.add_argument("--jobs", type=int, default=1, help="processes")
    ap.add_argument("--json", default=None,
                    help="keep the per-seed rows here, written as each seed ends; seeds already in the file (same "
                         "setting) are read back, not played again")
    ap.add_argument("--from-json", nargs="+", default=None, metavar="FILE",
                    help="play nothing: print the summary of these --json files together (disjoint seeds, one setting)")
    ap.add_argument("--paired", nargs="+", default=None, metavar="FILE",
                    help="play nothing: compare the search of these --json files (one setting, pooled) with that of "
                         "the --against files, game by game over the seeds both hold")
    ap.add_argument("--against", nargs="+", default=None, metavar="FILE", help="the other side of --paired")
    args = ap.parse_args(argv)
    if args.from_json and args.paired:
        print("error: --from-json and --paired do not go together", file=sys.stderr)
        return 2
    if args.from_json:
        return _from_json(args.from_json)
    if bool(args.paired) != bool(args.against):
        print("error: --paired and --against go together", file=sys.stderr)
        return 2
    if args.paired:
        return paired(args.paired, args.against)
    if args.games < 1 or args.worlds < 2 or args.jobs < 1 or args.window < 0 or args.more_worlds < 0:
        print("error: --games and --jobs must be at least 1, --worlds at least 2, --window and --more-worlds at least 0", file=sys.stderr)
        return 2
    if not Path(args.checkpoint).is_file():
        print(f"error: no checkpoint archive at {args.checkpoint}", file=sys.stderr)
        return 2
    setting = (args.players, args.worlds, args.window, args.more_worlds)
    kept: list[dict[str, Any]] = []  # the --json file's rows, every seed (those outside this run's range stay in it)
    if args.json and Path(args.json).exists():
        try:
            run = json.loads(Path(args.json).read_text())
            kept = list(run["rows"])
            known = {int(r["seed"]) for r in kept}
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"error: cannot read {args.json}: {' '.join(str(e).split())}", file=sys.stderr)
            return 2
        if _setting(run) != setting:
            print(f"error: {args.json} holds a run with players, worlds, window, more worlds {_setting(run)}, "
                  f"not {setting}: name another --json file", file=sys.stderr)
            return 2
        if len(known) != len(kept):
            print(f"error: {args.json} holds a seed twice", file=sys.stderr)
            return 2
    seeds = range(args.seed, args.seed + args.games)
    done = {int(r["seed"]) for r in kept}
    rows = [r for r in kept if r["seed"] in seeds]
    if rows:
        print(f"{len(rows)} of {args.games} seeds read back from {args.json}", flush=True)
    work = [(s, args.worlds, args.window, args.checkpoint, args.players, args.more_worlds) for s in seeds if s not in done]
    with Pool(args.jobs) if args.jobs > 1 and work else _Serial() as pool:
        for row in pool.imap(_play_star, work):
            rows.append(row)
            kept.append(row)
            if args.json:
                _write_json(args.json, setting, kept)
            print(f"seed {row['seed']}: network {row['network']}, with endgame search {row['search']} "
                  f"({row['changed']} of {row['asked']} endgame choices changed), {row['seconds']} s", flush=True)
    print()
    print("\n".join(summary(sorted(rows, key=lambda r: r["seed"]), *setting)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
