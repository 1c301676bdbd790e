"""Mythsgate's design report: balance and economy figures for 1-5 heroes, with 95% intervals.

    python benchmarks/design_report.py mythsgate --games 400          # the kept report
    python benchmarks/design_report.py mythsgate --games 100 --heroes 2  # a quick look while tuning

Every game is seeded (game ``g`` of a cell uses seed ``g``), so the same command prints the same
figures. Pairings per hero count: heuristic against heuristic, random against random, random
Invoker against heuristic heroes, heuristic Invoker against random heroes. The per-game economy
figures (rounds, fights, armour, market trades, books, track advances) are read off the engine
state between steps; the players see only their observations.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo.envs import mythsgate_v2
from mythzoo.envs.mythsgate.rules import INVOKER
from mythzoo.evaluation import mean_interval, wilson_interval
from mythzoo.policies.base import RandomPolicy
from mythzoo.policies.mythsgate_heuristic import MythsgateHeuristic

DOC = Path(__file__).resolve().parents[2] / "docs" / "design" / "mythsgate.md"
START, END = "<!-- report:start -->", "<!-- report:end -->"
PAIRINGS = ("heuristic-heuristic", "random-random", "random-heuristic", "heuristic-random")  # Invoker-heroes
SHORT_ROUNDS = 2  # a game that ends before the Invoker's third turn has completed fewer than 2 rounds
STAT_KEYS = (
    "rounds", "inv_fights", "inv_fights_won", "hero_fights", "hero_fights_won", "encounters", "encounters_won",
    "armour", "market", "books", "track", "gems", "sacrifices",
)


def play(num_heroes: int, pairing: str, seed: int) -> dict[str, Any]:
    """One seeded game; the winner (0 Invoker, 1 League, -1 draw) and its economy figures."""
    env = mythsgate_v2.raw_env(num_heroes=num_heroes)
    heur = MythsgateHeuristic(env, seed=seed)
    inv_kind, hero_kind = pairing.split("-")
    inv = heur if inv_kind == "heuristic" else RandomPolicy(seed * 2 + 1)
    hero = heur if hero_kind == "heuristic" else RandomPolicy(seed * 2 + 2)
    env.reset(seed=seed)
    rules = env.rules
    st: dict[str, Any] = dict.fromkeys(STAT_KEYS, 0)
    in_combat = None
    books_before = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        s = env.state_
        policy = inv if agent == "invoker" else hero
        action = int(policy.act(obs["observation"], obs["action_mask"], agent))
        label = env.action_label(action, agent)
        if agent != "invoker" and label.startswith("market"):
            st["market"] += 1
        if agent == "invoker" and label.startswith("sacrifice("):
            st["sacrifices"] += 1
        env.step(action)
        s = env.state_
        if s.cb_on and in_combat is None:  # a combat has started: who started it, against what, the hero's lives
            in_combat = (s.cb_att, s.cb_enc >= 0, s.cb_hero, s.h_lives[s.cb_hero])
        elif not s.cb_on and in_combat is not None:
            att, enc, h, lives = in_combat
            hero_won = s.h_lives[h] >= lives  # the beaten hero loses a life
            key = "encounters" if enc else ("hero_fights" if att == 1 else "inv_fights")
            st[key] += 1
            st[key + "_won"] += int(hero_won if key != "inv_fights" else not hero_won)
            in_combat = None
        books = sum(len(b) for b in s.h_books)
        st["books"] += max(0, books - books_before)
        books_before = books
    s = env.state_
    st["rounds"] = s.round
    st["armour"] = sum(sum(a) for a in s.h_armour)
    st["track"] = sum(s.tracks)
    st["gems"] = s.gems
    st["winner"] = s.winner if s.over else -1
    return st


def _job(args: tuple[int, str, int]) -> tuple[int, str, dict[str, Any]]:
    k, pairing, seed = args
    return k, pairing, play(k, pairing, seed)


def rate(x: float, n: int) -> str:
    lo, hi = wilson_interval(x, n)
    return f"{x / n:.0%} [{lo:.0%}, {hi:.0%}]" if n else "n/a"


def mean(vals: list[float]) -> str:
    m, lo, hi, _ = mean_interval(vals)
    if math.isnan(lo):
        return f"{m:.2f}"
    return f"{m:.2f} [{lo:.2f}, {hi:.2f}]"


def within(x: float, n: int, lo: float, hi: float) -> bool:
    """The observed rate lies in [lo, hi]."""
    return n > 0 and lo <= x / n <= hi


def report(results: dict[tuple[int, str], list[dict[str, Any]]], heroes: list[int], games: int, cmd: str) -> tuple[str, bool]:
    lines = [f"Command: `{cmd}`", "", f"{games} seeded games per cell (seeds 0..{games - 1}); rates with 95% Wilson intervals, means with 95% t intervals.", ""]
    ok_all = True
    lines += ["### Win rates (Invoker wins / League wins / draws)", "",
              "| heroes | pairing (Invoker-heroes) | Invoker wins | League wins | draws | target | |", "|---|---|---|---|---|---|---|"]
    for k in heroes:
        for p in PAIRINGS:
            r = results.get((k, p))
            if not r:
                continue
            n = len(r)
            iw = sum(g["winner"] == 0 for g in r)
            lw = sum(g["winner"] == 1 for g in r)
            dr = n - iw - lw
            if p == "heuristic-heuristic":
                lo, hi = (0.40, 0.60) if k == 2 else (0.35, 0.65)
                met = within(iw, n, lo, hi)
                target = f"Invoker {lo:.0%}-{hi:.0%}"
            elif p == "random-random":
                met = iw / n <= 0.70 and lw / n <= 0.70
                target = "neither side above 70%"
            elif p == "random-heuristic":
                met = lw > iw and wilson_interval(iw, n)[1] < 0.5
                target = "heuristic League clearly wins"
            else:
                met = iw > lw and wilson_interval(lw, n)[1] < 0.5
                target = "heuristic Invoker clearly wins"
            ok_all &= met
            lines.append(f"| {k} | {p} | {rate(iw, n)} | {rate(lw, n)} | {rate(dr, n)} | {target} | {'met' if met else 'missed'} |")
    lines += ["", "### Game length and economy, heuristic against heuristic (per game)", "",
              "| heroes | rounds (median; mean) | ended before the Invoker's 3rd turn | Invoker fights (won) | hero fights on minions (won) | encounters (won) | armour forged (median; mean) | market trades (median; mean) | books drawn | track advances | sacrifices | gems |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    econ_ok = True
    for k in heroes:
        r = results.get((k, "heuristic-heuristic"))
        if not r:
            continue
        n = len(r)
        col = {key: [g[key] for g in r] for key in STAT_KEYS}
        short = sum(g["rounds"] < SHORT_ROUNDS and g["winner"] >= 0 for g in r)

        def won(key: str) -> str:
            tot = sum(col[key])
            return f"{mean(col[key])} ({sum(col[key + '_won']) / tot:.0%})" if tot else "0"

        med = {key: statistics.median(col[key]) for key in ("rounds", "armour", "market")}
        econ_ok &= med["armour"] >= 1 and med["market"] >= 1
        lines.append(
            f"| {k} | {med['rounds']:g}; {mean(col['rounds'])} | {rate(short, n)} | {won('inv_fights')} | {won('hero_fights')} | {won('encounters')} | "
            f"{med['armour']:g}; {mean(col['armour'])} | {med['market']:g}; {mean(col['market'])} | {mean(col['books'])} | {mean(col['track'])} | {mean(col['sacrifices'])} | {mean(col['gems'])} |")
    ok_all &= econ_ok
    lines += ["", f"Economy target (the median game forges armour and trades at the market, every hero count): {'met' if econ_ok else 'missed'}.",
              "Fights' \"won\" is the share won by the side that started them (encounters: by the hero).",
              "", f"**All design targets: {'met' if ok_all else 'missed'}.**"]
    return "\n".join(lines), ok_all


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="design_report.py mythsgate", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400, help="seeded games per cell (default 400)")
    ap.add_argument("--heroes", type=int, nargs="*", default=[1, 2, 3, 4, 5], help="hero counts (default 1-5)")
    ap.add_argument("--pairings", nargs="*", default=list(PAIRINGS), choices=PAIRINGS)
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--write", action="store_true", help=f"also write the report into {DOC.relative_to(DOC.parents[2])}")
    a = ap.parse_args(argv)
    jobs = [(k, p, g) for k in a.heroes for p in a.pairings for g in range(a.games)]
    results: dict[tuple[int, str], list[dict[str, Any]]] = {}
    t0 = time.time()
    runner: Callable = map
    pool = Pool(a.workers) if a.workers > 1 else None
    if pool is not None:
        runner = lambda f, xs: pool.imap(f, xs, chunksize=8)  # noqa: E731
    done = 0
    for k, p, st in runner(_job, jobs):
        results.setdefault((k, p), []).append(st)
        done += 1
        if done % 50 == 0 or done == len(jobs):
            print(f"\r{done}/{len(jobs)} games, {time.time() - t0:.0f}s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if pool is not None:
        pool.close()
    for key in results:  # imap keeps order, map too: sorted by seed already
        pass
    cmd = "python benchmarks/design_report.py mythsgate " + " ".join(argv)
    text, _ok = report(results, a.heroes, a.games, cmd.strip())
    print(text)
    if a.write:
        doc = DOC.read_text()
        head, rest = doc.split(START, 1)
        _, tail = rest.split(END, 1)
        DOC.write_text(f"{head}{START}\n{text}\n{END}{tail}")
    return 0
