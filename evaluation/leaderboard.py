"""Leaderboards: every game's reference entries on one scale, kept as data so new entries can join.

A *board* is one game at one table size: Mythic Baths at 2, 3 and 4 players, Mythsgate with 2
heroes (the invoker's entries against the heroes' entries) and the solo Innkeeper. Its *entries*
are random, the heuristic, the search baseline at three budgets and every shipped champion; each
board keeps every game it played (seat labels, final rewards, scores, seeds), so the figures are
recomputed from the games, and an entry added later plays only its own games (the same seeds
scheme) and is re-rated with all the stored ones.

The schedule is keyed by the entries' labels, not their positions, so a game's seeds never change
when an entry joins:

- symmetric: every ``players``-subset of the entries (a *lineup*) is dealt ``deals`` times, each
  deal played in every cyclic seat rotation; the deal is ``derive_seed(seed, TAG_DEAL, key, c)``
  with ``key`` the CRC-32 of the lineup's labels;
- roles (Mythsgate): every pairing of one entry per role plays the same ``deals`` deals
  (``derive_seed(seed, TAG_DEAL, c)``);
- solo: every entry plays the same ``deals`` campaigns (``derive_seed(seed, TAG_DEAL, c)``).

Seat policies are seeded ``seat_seeds(seed, players, key, c, r)``. The figures:

- symmetric: OpenSkill Plackett-Luce over every game (ranks by final reward), ``random`` pinned at
  mu 25 as ``mythzoo eval`` does; the cross-play matrix: in the games where both sat, the share in
  which the row finished ahead of the column (a tie counts one half);
- roles: each pairing's side win rates with Wilson intervals, and one OpenSkill rating per entry,
  each game a two-team match (the invoker entry against the hero entry), ``invoker:random`` pinned;
- solo: mean score (coins) with its 95% t interval and the paired difference to the heuristic.

Seconds per decision are measured apart from the games, over the same fixed positions for every
entry of a board (:func:`time_entries`). Torch-free: checkpoints are served by numpy.
"""

from __future__ import annotations

import itertools
import json
import math
import platform
import time
import zlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo.evaluation.outcome import outcome
from mythzoo.evaluation.ratings import ANCHOR_MU, ANCHOR_SIGMA, MODEL_MU, MODEL_SIGMA, rate_games
from mythzoo.evaluation.schedules import TAG_DEAL, ScheduledGame, derive_seed, seat_seeds
from mythzoo.evaluation.stats import mean_interval, wilson_interval

LEADERBOARD_FORMAT = "mythzoo-leaderboard/1"
TAG_POSITION = 0x7105
# The search entries: budgets (simulations per decision) and rollout policy; why these is in docs/leaderboard.md.
SEARCH_BUDGETS = (2, 8, 32)
SEARCH_ROLLOUT = "random"
TIMING_POSITIONS = 24
ROOT = Path(__file__).resolve().parents[1]  # the package folder: docs/ and checkpoints/ live beside the code


class LeaderboardError(ValueError):
    """A board file that is missing, corrupt or not the kind expected; an entry that cannot join."""


@dataclass(frozen=True)
class BoardSpec:
    """One board: a game (its versioned env name) at one table size (every seat counted)."""

    key: str
    env: str
    players: int
    title: str
    deals: int  # the default: deals per lineup (symmetric), per pairing (roles), campaigns (solo)


# The default deals keep a regeneration of every board within about 40 minutes on 2 cores (docs/leaderboard.md).
BOARDS: tuple[BoardSpec, ...] = (
    BoardSpec("mythic_baths-2p", "mythic_baths_v1", 2, "Mythic Baths, 2 players", 3),
    BoardSpec("mythic_baths-3p", "mythic_baths_v1", 3, "Mythic Baths, 3 players", 1),
    BoardSpec("mythic_baths-4p", "mythic_baths_v1", 4, "Mythic Baths, 4 players", 1),
    BoardSpec("mythsgate-2heroes", "mythsgate_v2", 3, "Mythsgate, the invoker against 2 heroes", 2),
    BoardSpec("innkeeper", "mythwind_innkeeper_v5", 1, "Mythwind: the Innkeeper (solo)", 100),
)


def boards_for(env_name: str) -> list[BoardSpec]:
    """The boards of the versioned env ``env_name`` (none for an env without one)."""
    return [b for b in BOARDS if b.env == env_name]


@dataclass
class Entry:
    """One entry of a board: its label, the ref it plays as, its role (team games) and where it came from."""

    label: str
    ref: str  # as given (a search name, a baseline, a code ref, a registry ref)
    played_as: str  # what the games loaded: a checkpoint's id for a checkpoint
    role: str | None = None
    source: str = ""  # "baseline", "search", "checkpoints/<file>", or "added"
    seconds_per_decision: float | None = None
    timed_positions: int = 0


@dataclass
class BoardGame:
    """One game of a board: enough to re-rate it and to replay its deal."""

    index: int
    unit: str  # the lineup, pairing or entry it belongs to (labels joined by " | ")
    labels: list[str]  # entry label per seat
    seed: int  # the env's reset seed (the deal)
    policy_seeds: list[int]
    final_rewards: list[float]
    scores: list[float] | None
    truncated: bool
    decisions: int


@dataclass
class Board:
    """A board's entries and games; :meth:`summary` computes what the page shows."""

    key: str
    env: str
    kind: str  # symmetric, roles or solo
    players: int
    env_kwargs: dict[str, Any]
    roles: list[str]
    seat_roles: list[str]
    deals: int
    seed: int
    entries: list[Entry] = field(default_factory=list)
    games: list[BoardGame] = field(default_factory=list)
    seconds: float = 0.0

    def entry(self, label: str) -> Entry:
        """The entry labelled ``label`` (KeyError if none)."""
        for e in self.entries:
            if e.label == label:
                return e
        raise KeyError(label)

    def labels(self, role: str | None = None) -> list[str]:
        """The entries' labels (of ``role`` only, when given)."""
        return [e.label for e in self.entries if role is None or e.role == role]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: the board's set-up, entries, every game, and the summary."""
        return {"key": self.key, "env": self.env, "kind": self.kind, "players": self.players, "env_kwargs": self.env_kwargs,
                "roles": self.roles, "seat_roles": self.seat_roles, "deals": self.deals, "seed": self.seed,
                "seconds": round(self.seconds, 1), "entries": [asdict(e) for e in self.entries],
                "games": [asdict(g) for g in self.games], "summary": self.summary()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Board:
        """The board of :meth:`to_dict`'s data (the summary is recomputed, not read)."""
        entries = [Entry(**e) for e in d["entries"]]
        games = [BoardGame(**g) for g in d["games"]]
        fields = {k: d[k] for k in ("key", "env", "kind", "players", "env_kwargs", "roles", "seat_roles", "deals", "seed")}
        return cls(**fields, entries=entries, games=games, seconds=float(d.get("seconds", 0.0)))

    def summary(self) -> dict[str, Any]:
        """The figures of the board's kind, computed from its games."""
        if self.kind == "symmetric":
            return summarise_symmetric(self)
        if self.kind == "roles":
            return summarise_roles(self)
        return summarise_solo(self)


# ------------------------------------------------------------------------------- schedules
def unit_key(labels: Sequence[str]) -> int:
    """The schedule key of a lineup or pairing: CRC-32 of its labels (stable when entries join)."""
    return zlib.crc32("\x1f".join(labels).encode())


def plan(board: Board, new: Sequence[str] = ()) -> list[tuple[str, list[str], int, list[int]]]:
    """The games to play as ``(unit, label per seat, deal seed, policy seeds)``: all of the board's
    (``new`` empty) or only those with an entry of ``new`` in them."""
    n, seed, out = board.players, board.seed, []
    fresh = set(new)

    def wanted(labels: Sequence[str]) -> bool:
        return not fresh or bool(fresh & set(labels))

    if board.kind == "symmetric":
        for lineup in itertools.combinations(board.labels(), n):
            if not wanted(lineup):
                continue
            key = unit_key(lineup)
            for c in range(board.deals):
                deal = derive_seed(seed, TAG_DEAL, key, c)
                for r in range(n):
                    out.append((" | ".join(lineup), [lineup[(s + r) % n] for s in range(n)], deal, seat_seeds(seed, n, key, c, r)))
    elif board.kind == "roles":
        for pairing in itertools.product(*[board.labels(role) for role in board.roles]):
            if not wanted(pairing):
                continue
            key = unit_key(pairing)
            by_role = dict(zip(board.roles, pairing))
            for c in range(board.deals):
                out.append((" | ".join(pairing), [by_role[r] for r in board.seat_roles], derive_seed(seed, TAG_DEAL, c),
                            seat_seeds(seed, n, key, c)))
    else:
        for label in board.labels():
            if not wanted([label]):
                continue
            key = unit_key([label])
            for c in range(board.deals):
                out.append((label, [label], derive_seed(seed, TAG_DEAL, c), seat_seeds(seed, 1, key, c)))
    return out


def play_board(board: Board, new: Sequence[str] = (), registry: Any = None, workers: int = 1, progress: bool = True) -> list[BoardGame]:
    """Play the board's games (or only ``new``'s) over the worker pool; the games, in schedule order,
    indexed after the stored ones. ``registry``: the path the checkpoints are loaded from."""
    from mythzoo.evaluation.loading import load_policy, registry_key
    from mythzoo.evaluation.play import _play_task
    from mythzoo.evaluation.pool import chunk_size, run_tasks

    planned = plan(board, new)
    if not planned:
        return []
    labels = board.labels()
    refs = [e.played_as for e in board.entries]
    at = {lab: i for i, lab in enumerate(labels)}
    first = max((g.index for g in board.games), default=-1) + 1
    games = [ScheduledGame(first + i, tuple(at[lab] for lab in seat_labels), deal, seeds)
             for i, (_, seat_labels, deal, seeds) in enumerate(planned)]
    workers = max(1, min(workers, len(games)))
    chunk = chunk_size(len(games), workers)
    tasks = [(board.env, board.env_kwargs, refs, labels, registry_key(registry), load_policy, games[a:a + chunk])
             for a in range(0, len(games), chunk)]
    records = run_tasks(_play_task, tasks, workers, total=len(games), desc=f"leaderboard {board.key}", progress=progress)
    records.sort(key=lambda r: r.index)
    out = []
    for (unit, _, _, _), rec in zip(planned, records):
        out.append(BoardGame(rec.index, unit, list(rec.labels or []), int(rec.seed), [int(s) for s in rec.policy_seeds],
                             [float(x) for x in rec.final_rewards], None if rec.scores is None else [float(x) for x in rec.scores],
                             bool(rec.truncated), int(rec.decisions)))
    return out


# ---------------------------------------------------------------------------------- timing
def positions(board: Board, role: str | None, count: int = TIMING_POSITIONS) -> list[Any]:
    """``count`` fixed positions (live envs) where an agent of ``role`` (any, when None) is to move with
    a choice to make: uniform-random play from seeded deals, 4 to about 60 decisions in."""
    from mythzoo.envs import make

    out = []
    for i in range(count * 3):  # a game that ends first is skipped
        if len(out) == count:
            break
        env = make(board.env, **board.env_kwargs)
        env.reset(seed=derive_seed(board.seed, TAG_POSITION, i))
        rng = np.random.default_rng(derive_seed(board.seed, TAG_POSITION, i, 1))
        steps = 4 + (i * 7) % 57
        while env.agents:
            agent = env.agent_selection
            _, _, term, trunc, _ = env.last(observe=False)
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            if steps <= 0 and len(legal) > 1 and (role is None or env.unwrapped.agent_role(agent) == role):
                out.append(env)
                break
            env.step(int(rng.choice(legal)))
            steps -= 1
    return out


def time_entries(board: Board, labels: Sequence[str], registry: Any = None, count: int = TIMING_POSITIONS,
                 progress: bool = True) -> None:
    """Measure each entry of ``labels``: its mean seconds per decision over the board's fixed
    positions (the same for every entry of a role), in this process, one decision at a time, set on
    the entry."""
    import sys

    from mythzoo.evaluation.loading import load_policy
    from mythzoo.progress import progress_bar

    by_role: dict[str | None, list[Any]] = {}
    with progress_bar(len(labels), f"timing {board.key}", "entry", file=sys.stderr, disable=not progress) as bar:
        for label in labels:
            entry = board.entry(label)
            envs = by_role.get(entry.role)
            if envs is None:
                envs = by_role[entry.role] = positions(board, entry.role, count)
            policy = load_policy(entry.played_as, envs[0], registry, 0)
            in_env = getattr(policy, "act_in_env", None)
            total = 0.0
            for env in envs:
                agent = env.agent_selection
                obs = env.observe(agent)
                start = time.perf_counter()
                if callable(in_env):
                    in_env(env, agent)
                else:
                    policy.act(obs["observation"], obs["action_mask"], agent)
                total += time.perf_counter() - start
            entry.seconds_per_decision = total / len(envs) if envs else None
            entry.timed_positions = len(envs)
            bar.update(1)


# -------------------------------------------------------------------------------- summaries
def _ci(lo_hi: tuple[float, float]) -> list[float]:
    return [float(lo_hi[0]), float(lo_hi[1])]


def _none(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def summarise_symmetric(board: Board) -> dict[str, Any]:
    """Per entry: seats, win share (shared wins count 1/k) with its Wilson interval, mean score, the
    OpenSkill rating (``random`` pinned when on the board); the row-ahead-of-column matrix."""
    labels = board.labels()
    k = len(labels)
    at = {lab: i for i, lab in enumerate(labels)}
    seats, wins = [0] * k, [0.0] * k
    scores: list[list[float]] = [[] for _ in range(k)]
    ahead = [[0.0] * k for _ in range(k)]
    met = [[0] * k for _ in range(k)]
    for g in board.games:
        result = outcome(g.final_rewards, draws=False)
        shares, ranks = result.seat_shares(), result.seat_ranks()
        for s, lab in enumerate(g.labels):
            p = at[lab]
            seats[p] += 1
            wins[p] += shares[s]
            if g.scores is not None:
                scores[p].append(g.scores[s])
            for t, other in enumerate(g.labels):
                q = at[other]
                if q != p:
                    met[p][q] += 1
                    ahead[p][q] += 1.0 if ranks[s] < ranks[t] else 0.5 if ranks[s] == ranks[t] else 0.0
    anchor = "random" if "random" in at else None
    ratings = rate_games([(g.labels, g.final_rewards) for g in board.games], labels, anchor)
    entries = []
    for p, lab in enumerate(labels):
        mu, sigma = ratings[lab]
        entries.append({"label": lab, "games": seats[p], "wins": wins[p], "win_rate": wins[p] / seats[p] if seats[p] else None,
                        "win_ci95": _ci(wilson_interval(wins[p], seats[p])),
                        "mean_score": float(np.mean(scores[p])) if scores[p] else None,
                        "mu": mu, "sigma": sigma, "mu_minus_2sigma": mu - 2 * sigma, "mu_plus_2sigma": mu + 2 * sigma,
                        "anchor": lab == anchor})
    matrix = [[ahead[p][q] / met[p][q] if p != q and met[p][q] else None for q in range(k)] for p in range(k)]
    return {"rating": {"model": "openskill.PlackettLuce", "mu0": MODEL_MU, "sigma0": MODEL_SIGMA, "anchor": anchor,
                       "anchor_mu": ANCHOR_MU, "anchor_sigma": ANCHOR_SIGMA},
            "entries": entries, "cross_play": {"labels": labels, "ahead": matrix, "games": met},
            "chance": 1.0 / board.players}


def rate_teams(games: Sequence[tuple[str, str, tuple[int, int]]], labels: Sequence[str], anchor: str | None) -> dict[str, tuple[float, float]]:
    """OpenSkill Plackett-Luce ratings of two-team matches ``(label of team A, label of team B, (rank
    A, rank B))`` in order (a draw: equal ranks), ``anchor`` pinned at (``ANCHOR_MU``, ``ANCHOR_SIGMA``)."""
    from mythzoo.extras import import_optional

    model = import_optional("openskill.models", "OpenSkill ratings").PlackettLuce(mu=MODEL_MU, sigma=MODEL_SIGMA)
    ratings = {lab: (MODEL_MU, MODEL_SIGMA) for lab in labels}
    if anchor is not None:
        ratings[anchor] = (ANCHOR_MU, ANCHOR_SIGMA)
    for a, b, ranks in games:
        new = model.rate([[model.rating(mu=ratings[a][0], sigma=ratings[a][1])], [model.rating(mu=ratings[b][0], sigma=ratings[b][1])]],
                         ranks=[float(ranks[0]), float(ranks[1])])
        ratings[a] = (new[0][0].mu, new[0][0].sigma)
        ratings[b] = (new[1][0].mu, new[1][0].sigma)
        if anchor is not None:
            ratings[anchor] = (ANCHOR_MU, ANCHOR_SIGMA)
    return ratings


def summarise_roles(board: Board) -> dict[str, Any]:
    """The side win-rate matrix (first role's entries by rows, second role's by columns; draws apart),
    each entry's wins over every pairing, and one rating per entry (two-team OpenSkill matches)."""
    first, second = board.roles[0], board.roles[1]
    rows, cols = board.labels(first), board.labels(second)
    cells: dict[tuple[str, str], list[float]] = {(r, c): [0, 0.0, 0.0, 0] for r in rows for c in cols}  # games, wins A, wins B, draws
    matches = []
    for g in board.games:
        res = outcome(g.final_rewards, board.seat_roles, order=board.roles)
        by_role = {role: lab for role, lab in zip(board.seat_roles, g.labels)}
        a, b = by_role[first], by_role[second]
        cell = cells[(a, b)]
        cell[0] += 1
        cell[1] += res.shares[0]
        cell[2] += res.shares[1]
        cell[3] += res.draw
        matches.append((a, b, (res.ranks[0], res.ranks[1])))
    anchor = f"{first}:random" if f"{first}:random" in rows else None
    ratings = rate_teams(matches, board.labels(), anchor)
    matrix = []
    for r in rows:
        line = []
        for c in cols:
            n, wa, wb, d = cells[(r, c)]
            line.append({"games": int(n), first: wa / n if n else None, f"{first}_ci95": _ci(wilson_interval(wa, n)),
                         second: wb / n if n else None, f"{second}_ci95": _ci(wilson_interval(wb, n)), "draws": int(d)})
        matrix.append(line)
    entries = []
    for e in board.entries:
        mine = [(cells[(e.label, c)][0], cells[(e.label, c)][1]) for c in cols] if e.role == first \
            else [(cells[(r, e.label)][0], cells[(r, e.label)][2]) for r in rows]
        n, w = sum(x for x, _ in mine), sum(y for _, y in mine)
        mu, sigma = ratings[e.label]
        entries.append({"label": e.label, "role": e.role, "games": int(n), "wins": w, "win_rate": w / n if n else None,
                        "win_ci95": _ci(wilson_interval(w, n)), "mu": mu, "sigma": sigma, "mu_minus_2sigma": mu - 2 * sigma,
                        "mu_plus_2sigma": mu + 2 * sigma, "anchor": e.label == anchor})
    return {"rating": {"model": "openskill.PlackettLuce, each game a two-team match (one entry per role; a draw ties)",
                       "mu0": MODEL_MU, "sigma0": MODEL_SIGMA, "anchor": anchor, "anchor_mu": ANCHOR_MU, "anchor_sigma": ANCHOR_SIGMA},
            "entries": entries, "sides": {"rows": rows, "columns": cols, "row_role": first, "column_role": second, "cells": matrix}}


def summarise_solo(board: Board) -> dict[str, Any]:
    """Per entry: mean score (coins) with its 95% t interval, and the difference to the heuristic
    paired by campaign (the same deal)."""
    by_entry: dict[str, dict[int, float]] = {lab: {} for lab in board.labels()}
    for g in board.games:
        by_entry[g.labels[0]][g.seed] = float(g.scores[0] if g.scores is not None else g.final_rewards[0])
    base = by_entry.get("heuristic")
    entries = []
    for lab, scores in by_entry.items():
        m, lo, hi, sd = mean_interval(list(scores.values()))
        diff: dict[str, Any] | None = None
        if base is not None and lab != "heuristic":
            common = sorted(set(scores) & set(base))
            dm, dlo, dhi, _ = mean_interval([scores[s] - base[s] for s in common])
            diff = {"against": "heuristic", "campaigns": len(common), "mean": _none(dm), "ci95": [_none(dlo), _none(dhi)]}
        entries.append({"label": lab, "campaigns": len(scores), "mean_score": _none(m), "score_ci95": [_none(lo), _none(hi)],
                        "sd_score": _none(sd), "diff_vs_heuristic": diff})
    return {"score": "env.scores() at the campaign's end (coins)", "interval": "95% Student t; differences paired by campaign",
            "entries": entries}


# --------------------------------------------------------------------------------- the file
def versions() -> dict[str, str]:
    """The versions the figures were made with, and the machine's kind."""
    from importlib import metadata

    from mythzoo import __version__

    out = {"mythzoo": __version__, "python": platform.python_version(), "numpy": np.__version__}
    for lib in ("openskill", "scipy"):
        try:
            out[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            pass
    out["machine"] = f"{platform.system()} {platform.machine()}"
    return out


def to_json(boards: Sequence[Board], meta: dict[str, Any]) -> str:
    """The board file: format, meta (commands, seeds, search set-up, versions) and every board."""
    data = {"format": LEADERBOARD_FORMAT, **meta, "boards": [b.to_dict() for b in boards]}
    return json.dumps(data, indent=1) + "\n"


def _read_json(path: str | Path, what: str) -> Any:
    """The JSON in ``path`` (a ``what``: "board file", ...); :class:`LeaderboardError` (one line) when it
    is missing, unreadable or not JSON."""
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise LeaderboardError(f"no {what} at {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise LeaderboardError(f"cannot read the {what} {path}: {getattr(e, 'strerror', None) or e}") from None
    except json.JSONDecodeError as e:
        raise LeaderboardError(f"the {what} {path} is not valid JSON ({e.msg}, line {e.lineno})") from None


def load_board_file(path: str | Path) -> tuple[dict[str, Any], list[Board]]:
    """``(meta, boards)`` of a board file; :class:`LeaderboardError` (one line) when it is missing or corrupt."""
    data = _read_json(path, "board file")
    if not isinstance(data, dict) or data.get("format") != LEADERBOARD_FORMAT:
        raise LeaderboardError(f"{path} is not a mythzoo leaderboard file (format {LEADERBOARD_FORMAT!r})")
    try:
        boards = [Board.from_dict(b) for b in data["boards"]]
        for b in boards:
            known = set(b.labels())
            if len(known) != len(b.entries) or any(set(g.labels) - known or len(g.labels) != b.players for g in b.games):
                raise ValueError("games name entries that are not on the board")
            b.summary()  # every figure must be computable
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError) as e:
        raise LeaderboardError(f"the board file {path} is corrupt ({type(e).__name__}: {' '.join(str(e).split())})") from None
    meta = {k: v for k, v in data.items() if k not in ("format", "boards")}
    return meta, boards


# ----------------------------------------------------------------------------- building boards
def board_spec(key: str) -> BoardSpec:
    """The spec of board ``key`` (KeyError if none)."""
    for b in BOARDS:
        if b.key == key:
            return b
    raise KeyError(key)


def new_board(spec: BoardSpec, seed: int, deals: int | None = None) -> Board:
    """An empty board of ``spec`` (no entries yet): the env's kind, roles and seat roles."""
    from mythzoo.envs import make
    from mythzoo.envs import spec as game_spec

    game = game_spec(spec.env)
    kw = game.size_kwargs(spec.players)
    u = make(spec.env, **kw).unwrapped
    roles = list(u.roles()) if game.kind != "symmetric" else []
    seat_roles = [u.agent_role(a) for a in u.possible_agents] if game.kind == "roles" else []
    return Board(spec.key, spec.env, game.kind, spec.players, kw, roles, seat_roles, deals or spec.deals, seed)


def standard_entries(board: Board, budgets: Sequence[int], rollout: str, champions: Sequence[tuple[str, Any]]) -> list[Entry]:
    """random, heuristic, ``mcts:B`` per budget and each champion ``(source file, CheckpointInfo)`` of
    the board's env (of each role, in a team game), labelled by role in a team game."""
    suffix = "" if rollout == "random" else f":{rollout}"
    base = [("random", "baseline"), ("heuristic", "baseline")] + [(f"mcts:{b}{suffix}", "search") for b in budgets]
    roles: list[str | None] = list(board.roles) if board.kind == "roles" else [None]
    out = []
    for role in roles:
        prefix = f"{role}:" if role else ""
        out += [Entry(prefix + ref, ref, ref, role, source) for ref, source in base]
        for source, info in champions:
            if info.env_name == board.env and (role is None or info.role == role):
                out.append(Entry(prefix + info.id, info.id, info.id, role, source))
    return out


# --------------------------------------------------------------------------------- the page
def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _pct_ci(x: float | None, ci: Sequence[float]) -> str:
    return "-" if x is None else f"{100 * x:.0f}% [{100 * ci[0]:.0f}-{100 * ci[1]:.0f}]"


def _seconds(s: float | None) -> str:
    if s is None:
        return "-"
    return f"{s * 1000:.2f} ms" if s < 0.1 else f"{s:.2f} s"


def _num(x: float | None, fmt: str = "{:.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def _md_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]


def _source(e: Entry) -> str:
    return {"baseline": "baseline", "search": "search"}.get(e.source, f"`{e.source}`" if e.source.startswith("checkpoints/") else e.source)


def _name(e: Entry) -> str:
    shown = f"`{e.label}`"
    if e.ref != e.played_as:
        shown += f" (`{e.played_as}`)"
    return shown


def render_board(board: Board) -> list[str]:
    """The markdown section of one board."""
    s = board.summary()
    spec = next((b for b in BOARDS if b.key == board.key), None)
    title = spec.title if spec else board.key
    truncated = sum(g.truncated for g in board.games)
    lines = [f"## {title}", ""]
    what = {"symmetric": f"every {board.players}-entry lineup, {board.deals} deal{'s' if board.deals > 1 else ''} each, every deal "
                         f"played in all {board.players} seat rotations",
            "roles": f"every pairing of one {board.roles[0] if board.roles else ''} entry with one {board.roles[1] if len(board.roles) > 1 else ''} "
                     f"entry, on the same {board.deals} deals",
            "solo": f"every entry on the same {board.deals} campaigns"}[board.kind]
    lines += [f"`{board.env}` {json.dumps(board.env_kwargs)}: {len(board.games)} games ({what}); {truncated} hit the turn cap; "
              f"{board.seconds:.0f} s of play.", ""]
    entries = {e.label: e for e in board.entries}
    if board.kind == "symmetric":
        rows = sorted(s["entries"], key=lambda r: -r["mu"])
        order = [r["label"] for r in rows]
        lines += _md_table(["#", "entry", "source", "seats", "win share [95% CI]", "mu", "mu ± 2 sigma", "mean score", "s/decision"], [
            [i + 1, _name(entries[r["label"]]) + (" (anchor)" if r["anchor"] else ""), _source(entries[r["label"]]), r["games"],
             _pct_ci(r["win_rate"], r["win_ci95"]), f"{r['mu']:.1f}", f"{r['mu_minus_2sigma']:.1f} to {r['mu_plus_2sigma']:.1f}",
             _num(r["mean_score"]), _seconds(entries[r["label"]].seconds_per_decision)]
            for i, r in enumerate(rows)])
        cp = s["cross_play"]
        at = {lab: i for i, lab in enumerate(cp["labels"])}
        lines += ["", f"Cross-play (row finishes ahead of column, in the games where both sat; a tie counts one half; "
                      f"{_pct(0.5)} is even; columns numbered as the rows):", ""]
        lines += _md_table(["row vs column"] + [f"#{j + 1}" for j in range(len(order))], [
            [f"#{i + 1} `{a}`"] + ["-" if a == b or cp["ahead"][at[a]][at[b]] is None else
                                   f"{100 * cp['ahead'][at[a]][at[b]]:.0f}% ({cp['games'][at[a]][at[b]]})" for b in order]
            for i, a in enumerate(order)])
    elif board.kind == "roles":
        rows = sorted(s["entries"], key=lambda r: -r["mu"])
        lines += _md_table(["#", "entry", "role", "source", "games", "wins [95% CI]", "mu", "mu ± 2 sigma", "s/decision"], [
            [i + 1, _name(entries[r["label"]]) + (" (anchor)" if r["anchor"] else ""), r["role"], _source(entries[r["label"]]), r["games"],
             _pct_ci(r["win_rate"], r["win_ci95"]), f"{r['mu']:.1f}", f"{r['mu_minus_2sigma']:.1f} to {r['mu_plus_2sigma']:.1f}",
             _seconds(entries[r["label"]].seconds_per_decision)]
            for i, r in enumerate(rows)])
        sides = s["sides"]
        a, b = sides["row_role"], sides["column_role"]
        for role in (a, b):
            lines += ["", f"The {role} side's win rate [95% Wilson interval], {a} entries by rows, {b} entries by columns "
                          "(draws, e.g. the turn cap, are no win for either side):", ""]
            lines += _md_table([f"{a} \\ {b}"] + [f"`{c.split(':', 1)[1]}`" for c in sides["columns"]], [
                [f"`{r.split(':', 1)[1]}`"] + [_pct_ci(cell[role], cell[f"{role}_ci95"]) for cell in line]
                for r, line in zip(sides["rows"], sides["cells"])])
    else:
        rows = sorted(s["entries"], key=lambda r: -(r["mean_score"] if r["mean_score"] is not None else -math.inf))
        lines += _md_table(["#", "entry", "source", "campaigns", "mean coins [95% CI]", "paired diff vs heuristic [95% CI]", "s/decision"], [
            [i + 1, _name(entries[r["label"]]), _source(entries[r["label"]]), r["campaigns"],
             f"{_num(r['mean_score'])} [{_num(r['score_ci95'][0])}, {_num(r['score_ci95'][1])}]",
             "-" if r["diff_vs_heuristic"] is None else
             f"{_num(r['diff_vs_heuristic']['mean'], '{:+.1f}')} [{_num(r['diff_vs_heuristic']['ci95'][0], '{:+.1f}')}, "
             f"{_num(r['diff_vs_heuristic']['ci95'][1], '{:+.1f}')}]",
             _seconds(entries[r["label"]].seconds_per_decision)]
            for i, r in enumerate(rows)])
    return lines + [""]


EXPLOIT_FORMAT = "mythzoo-exploitability/1"


def load_exploitability(path: str | Path) -> list[dict[str, Any]]:
    """The entries of an exploitability file (``mythzoo exploit --json``); :class:`LeaderboardError`
    (one line) when it is missing, not one, or an entry lacks a figure the page shows."""
    data = _read_json(path, "exploitability file")
    if not isinstance(data, dict) or data.get("format") != EXPLOIT_FORMAT or not isinstance(data.get("entries"), list):
        raise LeaderboardError(f"{path} is not a mythzoo exploitability file (format {EXPLOIT_FORMAT!r})")
    try:
        for e in data["entries"]:
            render_exploitability([e])  # every figure must be there and of its type
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise LeaderboardError(f"the exploitability file {path} is corrupt ({type(e).__name__}: {' '.join(str(e).split())})") from None
    return list(data["entries"])


def render_exploitability(entries: Sequence[dict[str, Any]]) -> list[str]:
    """The page's exploitability section: per policy and table, what a fresh exploiter trained
    against it alone won, beside the heuristic in the same seat and chance."""
    if not entries:
        return []
    lines = ["## Exploitability", "",
             "How much a policy can be beaten by someone who knows it: `mythzoo exploit` trains a fresh masked-PPO learner "
             "against the policy alone for a fixed wall-clock budget (every other seat is the policy; in Mythsgate the learner "
             "takes the other role), then plays new games against it. Its win rate with the 95% Wilson interval is a "
             "lower bound on a best response's; the heuristic in the same seat gives the scale. Method and figures: "
             "`docs/exploitability.md`.", ""]
    rows = []
    for e in entries:
        t, x, b = e["target"], e["exploiter"], e["baseline"]
        target = f"`{t['role']}:{t['label']}`" if t["role"] else f"`{t['label']}`"
        rows.append([e["env"], e["num_players"], target, f"`{t['played_as']}`",
                     f"{x['role'] or 'any seat'}, {float(x['minutes']):g} min, {int(x['steps']):,} steps",
                     int(e["games"]), _pct_ci(float(e["win_rate"]), [float(v) for v in e["win_ci95"]]),
                     _pct_ci(float(b["win_rate"]), [float(v) for v in b["win_ci95"]]),
                     _pct(float(e["chance"])) if e["chance"] is not None else "-"])
    lines += _md_table(["env", "players", "policy", "played as", "exploiter", "games", "exploiter wins [95% CI]",
                        "heuristic wins [95% CI]", "chance"], rows)
    lines += ["", "Made by:", "", "```"] + [str(e["command"]) for e in entries] + ["```", ""]
    return lines


def render_page(boards: Sequence[Board], meta: dict[str, Any], exploitability: Sequence[dict[str, Any]] | None = None) -> str:
    """The markdown page of ``boards`` (everything it shows is in the board file, :func:`to_json`),
    and the exploitability section when ``exploitability`` entries are given."""
    search = meta.get("search", {})
    budgets = ", ".join(f"`mcts:{b}`" for b in search.get("budgets", []))
    lines = ["# Leaderboard", "",
             "<!-- generated by `mythzoo leaderboard` from the board file beside it (same name, .json); do not edit by hand -->", "",
             "Every game's reference entries on one scale: uniform random, the rule-based heuristic, "
             + (f"the search baseline (`docs/search.md`) at {budgets} with {search.get('rollout', 'random')} rollouts" if budgets
                else "no search entries") + ", and every shipped champion (`checkpoints/`, each imported into a temporary registry "
             "and named by its checkpoint id). The method, the choices and how to add your own policy are at the end.", "",
             "Made by:", "", "```"] + [str(c) for c in meta.get("commands", [])] + ["```", ""]
    notes = meta.get("notes") or []
    lines += [str(n) for n in notes] + ([""] if notes else [])
    lines += [f"Seed {meta.get('seed')}; seconds per decision: the mean over {meta.get('timing', {}).get('positions', '?')} fixed positions "
              "per board (and role), one decision at a time in one process, on "
              f"{meta.get('timing', {}).get('machine', 'this machine')}; versions: "
              + ", ".join(f"{k} {v}" for k, v in meta.get("versions", {}).items()) + ".", ""]
    for board in boards:
        lines += render_board(board)
    lines += render_exploitability(exploitability or [])
    lines += METHOD.replace("{choices}", _choices(boards, meta)).splitlines()
    return "\n".join(lines).rstrip() + "\n"


def _choices(boards: Sequence[Board], meta: dict[str, Any]) -> str:
    """The search paragraph: the budgets, what they cost here (from the boards' timings) and why."""
    search = meta.get("search", {})
    budgets = search.get("budgets", [])
    costs = []
    for b in boards:
        if b.key in ("mythic_baths-2p", "mythsgate-2heroes", "innkeeper"):
            per = [e.seconds_per_decision / int(e.label.rsplit("mcts:", 1)[1].split(":")[0]) for e in b.entries
                   if e.source == "search" and e.seconds_per_decision]
            if per:
                costs.append(f"{b.key} {1000 * float(np.mean(per)):.1f} ms")
    deals = ", ".join(f"{spec.key} {spec.deals}" for spec in BOARDS)
    took = meta.get("seconds")
    took_text = (f" This page's regeneration took {took / 60:.0f} minutes on {meta.get('workers', '?')} worker processes "
                 "(on cores shared with other work)." if took else "")
    text = (f"**Search budgets**: {', '.join(map(str, budgets)) or 'none'} simulations per decision with "
            f"{search.get('rollout', 'random')} rollouts. Search is what a leaderboard costs: a decision costs about the budget "
            f"times one simulation ({'; '.join(costs) or 'not measured'} per simulation here, from the seconds per decision "
            "below), and an entry of a 3- or 4-player board makes about 4,000 decisions per deal of its lineups, so the sum of "
            "the budgets sets the time. The budgets and the default deals (per lineup, per pairing, or campaigns: "
            f"{deals}) were chosen so that a regeneration of every board takes at most about 40 minutes on 2 cores, from a "
            "measured 20-game run of the Mythic Baths 2-player board (175 core-seconds with `mcts:2/8/32`); "
            "the 3- and 4-player boards play 2.5-3x its decisions per deal, hence one deal each.{took} Heuristic rollouts were "
            "measured and not chosen: per simulation they cost about 3x (Mythic Baths), 10x (Mythsgate) and 90x (Innkeeper) a "
            "random rollout (`docs/benchmarks.md`), and in Mythic Baths `mcts:4:heuristic` (about the cost of `mcts:16`) was no "
            "stronger than `mcts:16` (12 games with the heuristic and random: 1 and 2 wins of 6 seats). At these budgets "
            "search is weak (it needs more simulations than this time allows to beat the heuristics): it marks the low end "
            "of the scale, between random and the heuristic.")
    return text.replace("{took}", took_text)


METHOD = """## Method

**Symmetric boards** (Mythic Baths): every lineup of `players` entries is dealt the board's deals, and each
deal is played in every cyclic seat rotation, so every entry sits in every seat equally often against
the same cards. Ratings: OpenSkill Plackett-Luce over every game, ranked by final reward (ties share a
rank), `random` pinned at mu 25 (sigma 1) as `mythzoo eval` does; mu ± 2 sigma is the interval. Win
share: the seats an entry won (a win shared by k seats counts 1/k) with its 95% Wilson interval;
chance is 1/players. The cross-play cell is how often the row finished ahead of the column in the
games where both sat (the count of such seats in brackets).

**Mythsgate** (roles): every pairing of one invoker entry with one heroes entry (one policy plays
both heroes) plays the same deals. The side win-rate matrices give each side's wins with Wilson
intervals; the rest are draws. The rating puts every entry of both roles on one scale: each game is a
two-team OpenSkill match, the invoker entry against the heroes entry (a draw ties), with
`invoker:random` pinned at mu 25. A rating mixes skill with the role's advantage: compare entries of
one role with each other; across roles, the difference of two ratings says which side of that
pairing is expected to win.

**The Innkeeper** (solo): every entry plays the same campaigns; its mean coins (the env's score at the
campaign's end) with the 95% Student-t interval, and the difference to the heuristic paired by
campaign.

**Seeds**: the games' seeds come from the board seed and the labels of the lineup or pairing (the
CRC-32 of the labels joined), never from positions, so the stored games stay as they are when an entry
joins and the new entry plays exactly the games the schedule gives it. The board file keeps every
game's seat labels, deal seed, seat seeds, final rewards and scores.

**Seconds per decision**: measured apart from the games, on the board's fixed positions (uniform-random
play from seeded deals, 4 to 60 decisions in, a choice to make for the role), the same positions for
every entry, one decision at a time; shared cores make these figures noisy (within a factor of about 2).
In Mythic Baths those positions come before any endgame, so an entry that searches only there
(`rollouts:W:REF`) is timed as its base; its endgame decisions cost more (`docs/search.md`: about
0.1 s at 2 players and 0.2 s at 3 and 4, at 16 worlds). In the Innkeeper `rollouts:W:REF` searches
every day's Operate and worker choices, and the positions at one are timed with their search.

{choices}

## Add your own entry

    mythzoo leaderboard mythic_baths --add my_agent@latest --registry registry --players 2
    mythzoo leaderboard mythsgate --add hero:py:my_agents:make_hero
    mythzoo leaderboard innkeeper --add mcts:64 --out runs/leaderboard.md

The entry (a checkpoint ref with `--registry`, a `py:module:factory` code ref, or a search name; in
Mythsgate `ROLE:REF`) plays every game the schedule gives it against the stored entries, with the same
seeds scheme, and the board is re-rated with all its stored games (OpenSkill rates in game order and the
new games come last, so the stored entries' ratings move a little too; their games do not change). The page and its board file (same
name, `.json`) go to `--out` (default `leaderboard.md` in the current folder), never over the shipped
docs unless `--out` names them; `--board FILE` reads another board file (default: the shipped
`docs/leaderboard.json`), so entries can be added one after another. An entry already on the board, a
ref that does not load, an unknown game, a bad `--players` or a missing or corrupt board file is
refused with one line (exit 2) and nothing is written.

## Regenerating

    nice -n 10 mythzoo leaderboard --all --out docs/leaderboard.md

`--games N` sets the deals of every multi-player board and `--campaigns N` the Innkeeper's (default:
each board's own, above), `--workers` the processes (default: one per core), `--seed` the board seed;
`mythzoo leaderboard GAME --out FILE` regenerates one game's boards only, and
`mythzoo leaderboard --render --out docs/leaderboard.md` rewrites the page from its board file (after
a change of the page's text; no game is played). The files are written after each board, so a run
stopped early keeps the boards it finished."""
