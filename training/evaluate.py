"""Evaluation for every mythzoo env: single games, seat-balanced tournaments, ratings, replays.

Everything here sees a game only through the env API (``reset``/``agent_iter``/``last``/``step``,
``action_label``, ``render_text``, optional ``scores()``) and policies only through ``act()``;
nothing is specific to one game. The method (seat rotation, win counting, Wilson intervals,
OpenSkill Plackett-Luce with an anchor, the JSON format, replays) is in ``docs/evaluation.md``.

- :func:`play_game` plays one game and returns a :class:`GameRecord`: env name and kwargs, the
  env seed and every policy's seed, the ref per seat, every action, final rewards and scores.
- :func:`tournament` plays a seat-balanced schedule (:func:`seatings`) over worker processes
  (results identical for any ``workers``) and returns a :class:`TournamentResult` with per-policy
  statistics, a cross-play matrix, OpenSkill ratings; ``table()``, ``to_json()``, ``plot()``.
- :func:`replay` / :func:`iter_replay` re-play a record from its seed and actions, refusing an
  illegal action or a result that differs from the record.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations, combinations_with_replacement
from pathlib import Path
from typing import Any, TextIO

import numpy as np

RECORD_FORMAT = "mythzoo-game/1"
RESULT_FORMAT = "mythzoo-eval/1"
BASELINES = ("random", "heuristic")
HUMAN = "human"

# OpenSkill scale: the model's defaults (mu 25, sigma 25/3); the anchor is pinned at ANCHOR_MU with a
# small ANCHOR_SIGMA (it is a known reference point, not a player whose skill is being estimated).
MODEL_MU = 25.0
MODEL_SIGMA = 25.0 / 3.0
ANCHOR_MU = 25.0
ANCHOR_SIGMA = 1.0

_TAG_DEAL = 0xDEA1
_TAG_POLICY = 0x5EED


class ReplayError(ValueError):
    """A record that does not replay: an illegal action, a wrong length, or a different result."""


class StopGame(Exception):
    """Raised by a policy (e.g. a person who types ``q``) to stop a game; the record is kept, unfinished."""


# ---------------------------------------------------------------------------------- seeds
def derive_seed(seed: int, *keys: int) -> int:
    """A 32-bit seed from ``seed`` and integer keys (NumPy ``SeedSequence``: independent streams)."""
    if seed < 0:
        raise ValueError(f"seeds must be non-negative, got {seed}")
    return int(np.random.SeedSequence([int(seed), *[int(k) for k in keys]]).generate_state(1)[0])


# ------------------------------------------------------------------------------ policies
def _open_registry(registry: Any) -> Any:
    """A registry object from a path (opened once per process, never created), or ``registry`` itself."""
    if registry is None or not isinstance(registry, (str, Path)):
        return registry
    key = str(registry)
    if key not in _REGISTRIES:
        from mythzoo.policies.refs import open_registry

        _REGISTRIES[key] = open_registry(key)
    return _REGISTRIES[key]


_REGISTRIES: dict[str, Any] = {}


def _load_policy(ref: str, env: Any, registry: Any = None, seed: int | None = None) -> Any:
    """The policy named by ``ref`` for ``env``: through ``policies.refs.load_policy`` when it exists,
    else the baselines (``random``, ``heuristic``) directly. ``registry``: a Registry or its path."""
    refs = importlib.import_module("mythzoo.policies.refs") if importlib.util.find_spec("mythzoo.policies.refs") else None
    if refs is not None and hasattr(refs, "load_policy"):
        baseline = ref.strip() in BASELINES  # needs no registry: do not open one
        return refs.load_policy(ref, env, registry=None if baseline else _open_registry(registry), seed=seed)
    if ref in BASELINES:
        from mythzoo.policies.baselines import make_baseline

        return make_baseline(ref, env, seed)
    raise ValueError(f"cannot load policy {ref!r}: only {BASELINES} are available until mythzoo.policies.refs exists")


def _reseedable(policy: Any) -> bool:
    """A policy that can be reused across games: it offers ``reseed(seed)``, or is the stateless RandomPolicy."""
    from mythzoo.policies.base import RandomPolicy

    return callable(getattr(policy, "reseed", None)) or type(policy) is RandomPolicy


def _reseed(policy: Any, seed: int) -> None:
    if callable(getattr(policy, "reseed", None)):
        policy.reseed(seed)
    else:  # RandomPolicy: a fresh generator, exactly as RandomPolicy(seed) makes it
        policy.rng = np.random.default_rng(seed)


# ------------------------------------------------------------------------------- records
@dataclass
class GameRecord:
    """One game, enough to replay it exactly: env, kwargs, seeds, refs per seat, every action, results."""

    env: str
    env_kwargs: dict[str, Any]
    num_players: int
    seed: int | None  # the env's reset seed: every random draw of the game
    refs: list[str]  # the policy ref per seat ("human" for a person)
    policy_seeds: list[int | None]  # each seat's policy RNG seed
    actions: list[int] = field(default_factory=list)  # every decision, in order
    final_rewards: list[float] | None = None  # per seat; None while unfinished
    scores: list[float] | None = None  # per seat (VP) when the env has scores(); None otherwise
    terminated: bool = False  # ended by the rules (or by an illegal action)
    truncated: bool = False  # ended by the turn cap
    finished: bool = False  # False: stopped early (a person quit); replays up to its last action
    labels: list[str] | None = None  # display names per seat (refs made unique); defaults to refs
    agents: list[str] = field(default_factory=list)
    env_config: dict[str, Any] = field(default_factory=dict)  # env.unwrapped.config, checked on replay
    illegal: dict[str, int] | None = None  # {"seat", "decision", "action"} if an illegal action ended the game
    index: int = 0  # position in a tournament
    format: str = RECORD_FORMAT

    def __post_init__(self) -> None:
        if self.labels is None:
            self.labels = list(self.refs)

    @property
    def decisions(self) -> int:
        """Number of actions taken."""
        return len(self.actions)

    def win_shares(self) -> list[float]:
        """Each seat's share of the win: 1/k for each of the k seats with the top final reward."""
        if not self.final_rewards:
            return [0.0] * self.num_players
        best = max(self.final_rewards)
        top = [r == best for r in self.final_rewards]
        return [1.0 / sum(top) if t else 0.0 for t in top]

    def ranks(self) -> list[int]:
        """Competition ranks from the final rewards (1 = best; tied seats share a rank)."""
        rw = self.final_rewards or [0.0] * self.num_players
        return [1 + sum(o > r for o in rw) for r in rw]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict` (refuses another format)."""
        if not isinstance(d, dict) or d.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise ValueError(f"not a {RECORD_FORMAT} game record")
        names = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in d.items() if k in names})

    def save(self, path: str | Path) -> None:
        """Write the record as JSON."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_dict()) + "\n")


def load_records(path: str | Path) -> list[GameRecord]:
    """Every game record in a JSON file: one record, a list of them, or an eval result's ``records``."""
    data = json.loads(Path(path).read_text())
    if isinstance(data, dict) and "records" in data:
        data = data["records"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ValueError(f"{path}: no game records")
    return [GameRecord.from_dict(d) for d in data]


# ---------------------------------------------------------------------------------- games
def make_env(env_name: str, env_kwargs: dict[str, Any] | None = None) -> Any:
    """``mythzoo.envs.make(env_name, **env_kwargs)`` (the standard-wrapper face)."""
    from mythzoo.envs import make

    return make(env_name, **dict(env_kwargs or {}))


def _env_kwargs(num_players: int | None, env_kwargs: dict[str, Any] | None) -> dict[str, Any]:
    kw = dict(env_kwargs or {})
    if num_players is not None:
        kw["num_players"] = int(num_players)
    return kw


def run_game(
    env: Any,
    policies: Sequence[Any],
    record: GameRecord,
    on_action: Callable[[str, int, int], None] | None = None,
) -> GameRecord:
    """Play ``record``'s game on ``env`` with one policy per seat (through ``act()``), filling
    ``record`` with the actions and results. A policy may raise :class:`StopGame` to stop early;
    ``on_action(agent, seat, action)`` sees every decision after it is chosen."""
    u = env.unwrapped
    env.reset(seed=record.seed)
    agents = list(u.possible_agents)
    seat_of = {a: i for i, a in enumerate(agents)}
    record.agents, record.env_config = agents, dict(getattr(u, "config", {}) or {})
    final: dict[str, float] = {}
    try:
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                final[agent] = float(reward)
                record.terminated |= bool(term)
                record.truncated |= bool(trunc)
                env.step(None)
                continue
            seat = seat_of[agent]
            mask = obs["action_mask"]
            action = int(policies[seat].act(obs["observation"], mask, agent))
            if 0 <= action < len(mask) and not mask[action]:
                record.illegal = {"seat": seat, "decision": len(record.actions), "action": action}
            record.actions.append(action)
            if on_action is not None:
                on_action(agent, seat, action)
            env.step(action)
    except StopGame:
        return record
    record.final_rewards = [final.get(a, 0.0) for a in agents]
    if callable(getattr(u, "scores", None)):
        sc = u.scores()
        record.scores = [float(sc[a]) for a in agents] if isinstance(sc, dict) else [float(x) for x in sc]
    record.finished = True
    return record


def play_game(
    env_name: str,
    num_players: int | None,
    policy_refs_by_seat: Sequence[str],
    seed: int,
    *,
    env_kwargs: dict[str, Any] | None = None,
    registry: Any = None,
    policy_seeds: Sequence[int] | None = None,
    labels: Sequence[str] | None = None,
    loader: Callable[..., Any] | None = None,
    index: int = 0,
) -> GameRecord:
    """Play one game of ``env_name`` with the policy ``policy_refs_by_seat[i]`` in seat ``i``.

    The env is reset with ``seed``; seat ``i``'s policy gets its own RNG seeded with
    ``policy_seeds[i]`` (default: derived from ``seed`` and ``i``), so the game replays exactly.
    ``loader(ref, env, registry, seed)`` builds a policy (default: refs, then baselines).
    """
    from mythzoo.envs import resolve

    env_name = resolve(env_name)
    kw = _env_kwargs(num_players, env_kwargs)
    env = make_env(env_name, kw)
    n = len(env.unwrapped.possible_agents)
    if len(policy_refs_by_seat) != n:
        raise ValueError(f"{env_name} has {n} seats, got {len(policy_refs_by_seat)} policy refs")
    seeds = list(policy_seeds) if policy_seeds is not None else [derive_seed(seed, _TAG_POLICY, s) for s in range(n)]
    load = loader or _load_policy
    policies = [load(ref, env, registry, s) for ref, s in zip(policy_refs_by_seat, seeds)]
    record = GameRecord(env_name, kw, n, int(seed), list(policy_refs_by_seat), seeds, labels=list(labels) if labels else None, index=index)
    return run_game(env, policies, record)


# ------------------------------------------------------------------------------- replays
@dataclass
class ReplayStep:
    """One frame of a replay: the position before ``action`` (or the final position: ``action`` None)."""

    decision: int
    agent: str | None
    action: int | None
    label: str | None
    text: str | None  # the ansi rendering (None when rendering is off)
    final_rewards: list[float] | None = None
    scores: list[float] | None = None


def _close(a: Sequence[float] | None, b: Sequence[float] | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return len(a) == len(b) and all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) for x, y in zip(a, b))


def iter_replay(record: GameRecord, render: bool = True, seat: int | None = None) -> Iterator[ReplayStep]:
    """Re-play ``record`` from its seed and actions, yielding a frame before each action and one at
    the end. Raises :class:`ReplayError` on an illegal action (unless the record says the game ended
    by it), on a record longer or shorter than the game, or on final rewards/scores that differ.
    ``seat``: whose view to render (default: the player to move)."""
    env = make_env(record.env, record.env_kwargs)
    u = env.unwrapped
    config = dict(getattr(u, "config", {}) or {})
    if record.env_config and config != record.env_config:
        raise ReplayError(f"the env's config {config} differs from the record's {record.env_config}")
    env.reset(seed=record.seed)
    agents = list(u.possible_agents)
    seat_of = {a: i for i, a in enumerate(agents)}
    final: dict[str, float] = {}
    k = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = float(reward)
            env.step(None)
            continue
        if k >= len(record.actions):
            if record.finished:
                raise ReplayError(f"the record ends after {k} decisions but the game goes on ({agent} to move)")
            yield ReplayStep(k, agent, None, None, u.render_text(seat) if render else None)
            return
        action = record.actions[k]
        mask = obs["action_mask"]
        if not isinstance(action, int) or not 0 <= action < len(mask):
            raise ReplayError(f"decision {k}: action {action!r} is outside {agent}'s action space")
        if not mask[action]:
            ill = record.illegal or {}
            if not (ill.get("decision") == k and ill.get("action") == action and ill.get("seat") == seat_of[agent]):
                raise ReplayError(f"decision {k}: action {action} ({u.action_label(action)}) is not legal for {agent}")
        yield ReplayStep(k, agent, action, u.action_label(action), u.render_text(seat) if render else None)
        env.step(action)
        k += 1
    if k < len(record.actions):
        raise ReplayError(f"the game ended after {k} decisions but the record has {len(record.actions)} actions")
    rewards = [final.get(a, 0.0) for a in agents]
    scores = None
    if callable(getattr(u, "scores", None)):
        sc = u.scores()
        scores = [float(sc[a]) for a in agents] if isinstance(sc, dict) else [float(x) for x in sc]
    if record.finished:
        if not _close(rewards, record.final_rewards):
            raise ReplayError(f"final rewards {rewards} differ from the record's {record.final_rewards}")
        if record.scores is not None and not _close(scores, record.scores):
            raise ReplayError(f"scores {scores} differ from the record's {record.scores}")
    yield ReplayStep(k, None, None, None, u.render_text(seat if seat is not None else 0) if render else None, rewards, scores)


@dataclass
class ReplayResult:
    """What a successful replay found."""

    decisions: int
    final_rewards: list[float] | None
    scores: list[float] | None
    finished: bool


def replay(
    record: GameRecord,
    render: bool = True,
    out: TextIO | None = None,
    step_delay: float = 0.0,
    seat: int | None = None,
) -> ReplayResult:
    """Re-play ``record`` (see :func:`iter_replay`), printing the ansi rendering turn by turn to
    ``out`` (stdout) when ``render``; raises :class:`ReplayError` if it does not match."""
    out = out or sys.stdout
    labels = record.labels or record.refs
    last: ReplayStep | None = None
    for step in iter_replay(record, render=render, seat=seat):
        last = step
        if not render:
            continue
        out.write(step.text + "\n")
        if step.action is not None:
            who = labels[record.agents.index(step.agent)] if step.agent in record.agents else "?"
            out.write(f"-> decision {step.decision + 1}/{len(record.actions)}: {step.agent} ({who}) plays {step.label}\n\n")
        out.flush()
        if step_delay > 0:
            time.sleep(step_delay)
    assert last is not None
    done = last.final_rewards is not None and record.finished
    if render:
        if done:
            parts = [f"{a} ({lab}) {r:+.3g}" + (f", {s:g} VP" if last.scores else "") for a, lab, r, s in
                     zip(record.agents, labels, last.final_rewards, last.scores or [0.0] * len(labels))]
            out.write(f"replay ok: {last.decision} decisions; final rewards match the record: " + "; ".join(parts) + "\n")
        else:
            out.write(f"replay ok: the record stops after {len(record.actions)} decisions (unfinished game)\n")
    return ReplayResult(len(record.actions), last.final_rewards if done else None, last.scores if done else None, done)


# ---------------------------------------------------------------------------- statistics
def wilson_interval(successes: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (``z`` = 1.96: 95%); ``(0, 1)`` for n = 0.

    With p = successes/n: ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``. Fractional
    successes (shared wins) are allowed."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in [0, n], got {successes} of {n}")
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    return (max(0.0, center - half), min(1.0, center + half))


def seatings(num_policies: int, num_players: int) -> list[tuple[int, ...]]:
    """One cycle of the seat-balanced schedule: the policy index in each seat, per game.

    k >= n: every n-subset of the k policies (``itertools.combinations`` order); k < n: every
    multiset of size n with at least two distinct policies (``combinations_with_replacement``;
    the all-one-policy lineups are left out unless k = 1). Each lineup is played in all n cyclic
    rotations (seat s gets ``lineup[(s + r) % n]`` in rotation r), so over a cycle every policy
    sits in every seat equally often."""
    k, n = num_policies, num_players
    if k < 1 or n < 1:
        raise ValueError("need at least one policy and one seat")
    if k >= n:
        lineups = list(combinations(range(k), n))
    else:
        lineups = [c for c in combinations_with_replacement(range(k), n) if len(set(c)) > 1] or [(0,) * n]
    return [tuple(lineup[(s + r) % n] for s in range(n)) for lineup in lineups for r in range(n)]


def rate_games(
    games: Sequence[tuple[Sequence[str], Sequence[float]]],
    labels: Sequence[str],
    anchor: str | None = None,
    anchor_mu: float = ANCHOR_MU,
    anchor_sigma: float = ANCHOR_SIGMA,
) -> dict[str, tuple[float, float]]:
    """OpenSkill Plackett-Luce ratings ``{label: (mu, sigma)}`` from games given in order as
    (label per seat, final reward per seat).

    Each game is one free-for-all match, one seat per team, ranked by final reward (ties share a
    rank). A policy in several seats of one game rates each seat from its current rating and
    moves by the mean change of its seats (sigma: the mean new sigma). ``anchor``'s rating is
    reset to (``anchor_mu``, ``anchor_sigma``) before the first and after every game, so the
    scale is fixed: ratings read relative to it."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MODEL_MU, sigma=MODEL_SIGMA)
    ratings = {lab: (MODEL_MU, MODEL_SIGMA) for lab in labels}
    if anchor is not None:
        if anchor not in ratings:
            raise ValueError(f"anchor {anchor!r} is not among the policies {list(labels)}")
        ratings[anchor] = (anchor_mu, anchor_sigma)
    for seat_labels, rewards in games:
        if len(set(seat_labels)) < 2:
            continue  # one policy against itself says nothing about its rating
        teams = [[model.rating(mu=ratings[lab][0], sigma=ratings[lab][1])] for lab in seat_labels]
        ranks = [float(1 + sum(o > r for o in rewards)) for r in rewards]
        new = model.rate(teams, ranks=ranks)
        moves: dict[str, list[tuple[float, float]]] = {}
        for lab, team in zip(seat_labels, new):
            moves.setdefault(lab, []).append((team[0].mu - ratings[lab][0], team[0].sigma))
        for lab, m in moves.items():
            ratings[lab] = (ratings[lab][0] + sum(d for d, _ in m) / len(m), sum(s for _, s in m) / len(m))
        if anchor is not None:
            ratings[anchor] = (anchor_mu, anchor_sigma)
    return ratings


# ---------------------------------------------------------------------------- tournaments
@dataclass
class PolicyStats:
    """One policy's results in a tournament ("games" counts seats: a policy in two seats plays two)."""

    label: str
    ref: str  # as given
    played_as: str  # the ref the games used: a checkpoint's id, pinned before the first game
    games: int
    wins: float  # shared wins count 1/k
    win_rate: float
    win_ci: tuple[float, float]  # 95% Wilson score interval
    mean_reward: float
    mean_score: float | None
    sd_score: float | None  # sample standard deviation of the final score
    mu: float
    sigma: float
    anchor: bool


@dataclass
class TournamentResult:
    """A tournament's games and what they say; ``table()``, ``to_dict()``, ``to_json()``, ``plot()``."""

    env: str
    env_kwargs: dict[str, Any]
    num_players: int
    seed: int
    labels: list[str]
    refs: list[str]
    anchor: str | None
    cycle: list[tuple[int, ...]]
    stats: list[PolicyStats]
    cross_play: list[list[float | None]]  # [row][col]: row's win rate in games where both sat
    cross_games: list[list[int]]  # [row][col]: row's seats in games where both sat
    seat_win_rate: list[float]  # share of wins per seat over all games (1/n is fair)
    records: list[GameRecord]
    seconds: float = 0.0
    registry_notes: list[str] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.records)

    def by_label(self) -> dict[str, PolicyStats]:
        """The statistics keyed by policy label."""
        return {s.label: s for s in self.stats}

    def to_dict(self, include_records: bool = True) -> dict[str, Any]:
        """Plain JSON data (see docs/evaluation.md for the fields)."""
        d: dict[str, Any] = {
            "format": RESULT_FORMAT,
            "env": self.env,
            "env_kwargs": self.env_kwargs,
            "num_players": self.num_players,
            "seed": self.seed,
            "games": self.games,
            "truncated_games": sum(r.truncated for r in self.records),
            "seconds": round(self.seconds, 3),
            "schedule": {
                "scheme": "round-robin lineups x all cyclic seat rotations; duplicate deals per lineup",
                "cycle_length": len(self.cycle),
                "cycles": self.games // max(1, len(self.cycle)),
                "cycle": [list(c) for c in self.cycle],
            },
            "rating": {
                "model": "openskill.PlackettLuce",
                "mu0": MODEL_MU, "sigma0": MODEL_SIGMA,
                "anchor": self.anchor, "anchor_mu": ANCHOR_MU, "anchor_sigma": ANCHOR_SIGMA,
            },
            "policies": [
                {
                    "label": s.label, "ref": s.ref, "played_as": s.played_as, "games": s.games, "wins": s.wins, "win_rate": s.win_rate,
                    "win_ci95": list(s.win_ci), "mean_reward": s.mean_reward, "mean_score": s.mean_score,
                    "sd_score": s.sd_score, "mu": s.mu, "sigma": s.sigma, "mu_minus_2sigma": s.mu - 2 * s.sigma,
                    "mu_plus_2sigma": s.mu + 2 * s.sigma, "anchor": s.anchor,
                }
                for s in self.stats
            ],
            "cross_play": {"labels": self.labels, "win_rate": self.cross_play, "games": self.cross_games},
            "seat_win_rate": self.seat_win_rate,
        }
        if self.registry_notes:
            d["registry"] = self.registry_notes
        if include_records:
            d["records"] = [r.to_dict() for r in self.records]
        return d

    def to_json(self, path: str | Path, include_records: bool = True) -> None:
        """Write :meth:`to_dict` to ``path``."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_dict(include_records), indent=1) + "\n")

    def table(self) -> str:
        """The plain aligned leaderboard (by rating), the cross-play matrix for more than two
        policies, and the seat win rates."""
        has_scores = any(s.mean_score is not None for s in self.stats)
        header = ["policy", "games", "wins", "win rate", "95% CI", "mean reward"]
        header += ["mean score", "score sd"] if has_scores else []
        header += ["mu", "sigma", "mu-2sigma"]
        rows = []
        for s in sorted(self.stats, key=lambda s: -s.mu):
            row: list[object] = [s.label + (" (anchor)" if s.anchor else ""), s.games, _num(s.wins), f"{100 * s.win_rate:.1f}%",
                                 f"{100 * s.win_ci[0]:.1f}-{100 * s.win_ci[1]:.1f}%", f"{s.mean_reward:+.3f}"]
            if has_scores:
                row += ["-" if s.mean_score is None else f"{s.mean_score:.2f}", "-" if s.sd_score is None else f"{s.sd_score:.2f}"]
            row += [f"{s.mu:.2f}", f"{s.sigma:.2f}", f"{s.mu - 2 * s.sigma:.2f}"]
            rows.append(row)
        parts = [format_table(rows, header)]
        if len(self.labels) > 2:
            head = ["win rate (row vs column)"] + self.labels
            mrows = [[lab] + ["-" if v is None else f"{100 * v:.1f}%" for v in row] for lab, row in zip(self.labels, self.cross_play)]
            parts += ["", format_table(mrows, head, right=range(1, len(head)))]
        seats = ", ".join(f"seat {i}: {100 * w:.1f}%" for i, w in enumerate(self.seat_win_rate))
        parts += ["", f"wins by seat (fair: {100 / self.num_players:.1f}%): {seats}"]
        return "\n".join(parts)

    def plot(self, path: str | Path) -> None:
        """A PNG: ratings mu ± 2 sigma, win rates with 95% Wilson intervals, and the cross-play
        heatmap when there are more than two policies (matplotlib, Agg backend)."""
        plot_result(self, path)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def format_table(rows: Sequence[Sequence[object]], header: Sequence[str], right: Sequence[int] | range | None = None) -> str:
    """A monospace table: columns padded to their widest cell; ``right`` (default: all but the first) right-aligned."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    right_set = set(range(1, len(header)) if right is None else right)

    def line(r: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right_set else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()

    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in cells[1:]])


def unique_labels(refs: Sequence[str]) -> list[str]:
    """Display labels for ``refs``: a repeated ref gets ``#2``, ``#3``..."""
    seen: dict[str, int] = {}
    out = []
    for r in refs:
        seen[r] = seen.get(r, 0) + 1
        out.append(r if seen[r] == 1 else f"{r}#{seen[r]}")
    return out


# A worker process keeps its envs and reusable policies between games.
_ENV_CACHE: dict[str, Any] = {}
_POLICY_CACHE: dict[tuple[Any, ...], Any] = {}


def _worker_policy(loader: Callable[..., Any], ref: str, seat: int, env: Any, env_key: str, registry: Any, seed: int) -> Any:
    key = (getattr(loader, "__module__", ""), getattr(loader, "__qualname__", repr(loader)), ref, seat, env_key, str(registry))
    policy = _POLICY_CACHE.get(key)
    if policy is None:
        policy = loader(ref, env, registry, seed)
        if _reseedable(policy):
            _POLICY_CACHE[key] = policy
        return policy
    if callable(getattr(policy, "reset", None)):  # reused: clear per-game state, then the game's seed
        policy.reset()
    _reseed(policy, seed)
    return policy


def _play_task(task: tuple[Any, ...]) -> list[GameRecord]:
    """Play a chunk of tournament games (a top-level function: spawn-safe)."""
    env_name, kw, refs, labels, registry, loader, games = task
    env_key = json.dumps([env_name, kw], sort_keys=True, default=str)
    env = _ENV_CACHE.get(env_key)
    if env is None:
        env = _ENV_CACHE[env_key] = make_env(env_name, kw)
    out = []
    for index, seating, deal_seed, pseeds in games:
        seat_refs = [refs[p] for p in seating]
        policies = [_worker_policy(loader, refs[p], s, env, env_key, registry, ps) for s, (p, ps) in enumerate(zip(seating, pseeds))]
        record = GameRecord(env_name, kw, len(seating), deal_seed, seat_refs, list(pseeds), labels=[labels[p] for p in seating], index=index)
        out.append(run_game(env, policies, record))
    return out


def check_refs(env: Any, refs: Sequence[str], registry: Any = None, loader: Callable[..., Any] | None = None) -> list[str]:
    """Load each ref once for ``env`` so a bad ref fails here, before any game (its error propagates).
    Returns the refs pinned: a checkpoint's id (``policy.checkpoint_id``) in place of a moving
    ``name@alias`` or ``name``, so every game plays the same weights; other refs unchanged."""
    load = loader or _load_policy
    pinned = {}
    for ref in dict.fromkeys(refs):
        policy = load(ref, env, registry, 0)
        pinned[ref] = str(getattr(policy, "checkpoint_id", None) or ref)
    return [pinned[r] for r in refs]


def _registry_key(registry: Any) -> Any:
    """What travels to worker processes: a path stays a path (each worker opens it)."""
    return str(registry) if isinstance(registry, Path) else registry


def tournament(
    env_name: str,
    refs: Sequence[str],
    games: int,
    num_players: int | None = 2,
    workers: int = 1,
    seed: int = 0,
    registry: Any = None,
    *,
    env_kwargs: dict[str, Any] | None = None,
    anchor: str | None = "auto",
    loader: Callable[..., Any] | None = None,
    progress: bool = True,
) -> TournamentResult:
    """Play at least ``games`` games of ``env_name`` among the policies ``refs`` and rate them.

    Schedule: :func:`seatings` (every policy in every seat equally), repeated and rounded up to
    whole cycles; all rotations of a lineup in one cycle share the deal (env seed), each game's
    policies get their own seeds. Games run on ``workers`` spawned processes; every game depends
    only on ``seed`` and its index, and ratings are updated in game order, so the result is the
    same for any ``workers``. ``anchor``: the label pinned in the ratings ("auto": ``random`` if
    present, else ``heuristic``, else none). With a ``registry`` (object or path), each
    non-baseline policy's rating and eval summary are recorded through the registry's
    ``record_rating`` / ``record_eval``."""
    from tqdm import tqdm

    from mythzoo.envs import resolve

    if not refs:
        raise ValueError("need at least one policy ref")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    env_name = resolve(env_name)
    kw = _env_kwargs(num_players, env_kwargs)
    probe = make_env(env_name, kw)
    n = len(probe.unwrapped.possible_agents)
    refs, labels = list(refs), unique_labels(refs)
    load = loader or _load_policy
    play_refs = check_refs(probe, refs, registry, load)
    if anchor == "auto":
        anchor = next((b for b in BASELINES if b in labels), None)
    cycle = seatings(len(refs), n)
    total = -(-games // len(cycle)) * len(cycle)
    specs = []
    for i in range(total):
        c, j = divmod(i, len(cycle))
        deal = derive_seed(seed, _TAG_DEAL, c, j // n)
        specs.append((i, cycle[j], deal, [derive_seed(seed, _TAG_POLICY, i, s) for s in range(n)]))
    reg = _registry_key(registry)
    workers = min(workers, total)
    chunk = max(1, min(25, total // (4 * workers) or 1))
    tasks = [(env_name, kw, play_refs, labels, reg, load, specs[a:a + chunk]) for a in range(0, total, chunk)]
    records: list[GameRecord] = []
    start = time.perf_counter()
    with tqdm(total=total, unit="game", desc=f"eval {env_name}", dynamic_ncols=True, disable=not progress, file=sys.stderr) as bar:
        if workers == 1:
            for t in tasks:
                done = _play_task(t)
                records += done
                bar.update(len(done))
        else:
            ctx = multiprocessing.get_context("spawn")  # clean workers on every platform
            with ctx.Pool(workers) as pool:
                for done in pool.imap_unordered(_play_task, tasks):
                    records += done
                    bar.update(len(done))
    records.sort(key=lambda r: r.index)
    result = summarise(env_name, kw, n, seed, refs, labels, anchor, cycle, records, play_refs)
    result.seconds = time.perf_counter() - start
    if registry is not None:
        result.registry_notes = record_in_registry(registry, result)
    return result


def summarise(
    env_name: str,
    env_kwargs: dict[str, Any],
    num_players: int,
    seed: int,
    refs: Sequence[str],
    labels: Sequence[str],
    anchor: str | None,
    cycle: list[tuple[int, ...]],
    records: Sequence[GameRecord],
    pinned: Sequence[str] | None = None,
) -> TournamentResult:
    """Per-policy statistics, the cross-play matrix, seat win rates and ratings from ``records``
    (``pinned``: the refs as played, checkpoint ids for checkpoints; default ``refs``)."""
    pinned = list(pinned or refs)
    k = len(labels)
    idx = {lab: i for i, lab in enumerate(labels)}
    seats = [0] * k
    wins = [0.0] * k
    rewards: list[list[float]] = [[] for _ in range(k)]
    scores: list[list[float]] = [[] for _ in range(k)]
    cw = [[0.0] * k for _ in range(k)]
    cg = [[0] * k for _ in range(k)]
    seat_wins = [0.0] * num_players
    finished = [r for r in records if r.finished]
    for r in finished:
        share = r.win_shares()
        present = {idx[lab] for lab in r.labels}
        for s, lab in enumerate(r.labels):
            p = idx[lab]
            seats[p] += 1
            wins[p] += share[s]
            rewards[p].append(r.final_rewards[s])
            if r.scores is not None:
                scores[p].append(r.scores[s])
            seat_wins[s] += share[s]
            for q in present - {p}:
                cw[p][q] += share[s]
                cg[p][q] += 1
    ratings = rate_games([(r.labels, r.final_rewards) for r in finished], labels, anchor)
    stats = []
    for p, lab in enumerate(labels):
        g = seats[p]
        sc = scores[p]
        stats.append(PolicyStats(
            label=lab, ref=refs[p], played_as=pinned[p], games=g, wins=wins[p], win_rate=wins[p] / g if g else 0.0,
            win_ci=wilson_interval(wins[p], g), mean_reward=float(np.mean(rewards[p])) if g else 0.0,
            mean_score=float(np.mean(sc)) if sc else None, sd_score=float(np.std(sc, ddof=1)) if len(sc) > 1 else (0.0 if sc else None),
            mu=ratings[lab][0], sigma=ratings[lab][1], anchor=lab == anchor,
        ))
    cross = [[(cw[p][q] / cg[p][q] if cg[p][q] else None) if p != q else None for q in range(k)] for p in range(k)]
    return TournamentResult(
        env=env_name, env_kwargs=dict(env_kwargs), num_players=num_players, seed=seed, labels=list(labels), refs=list(refs),
        anchor=anchor, cycle=cycle, stats=stats, cross_play=cross, cross_games=cg,
        seat_win_rate=[w / len(finished) if finished else 0.0 for w in seat_wins], records=list(records),
    )


def record_in_registry(registry: Any, result: TournamentResult) -> list[str]:
    """Store each checkpoint's rating and the eval summary in ``registry`` (a Registry or its path):
    ``record_rating(ref, mu=, sigma=, games=, num_players=, env_name=)`` and
    ``record_eval(ref, summary, name="eval <env> <n>p")``. Baselines are skipped; returns notes."""
    reg = _open_registry(registry)
    notes = []
    summary = result.to_dict(include_records=False)
    for s in result.stats:
        if s.ref in BASELINES or s.ref == HUMAN:
            continue
        reg.record_rating(s.played_as, mu=s.mu, sigma=s.sigma, games=s.games, num_players=result.num_players, env_name=result.env)
        reg.record_eval(s.played_as, {**summary, "policy": s.label}, name=f"eval {result.env} {result.num_players}p")
        notes.append(f"{s.ref} ({s.played_as}): rating mu {s.mu:.2f} sigma {s.sigma:.2f} and eval result recorded")
    return notes


# ---------------------------------------------------------------------------------- plots
def plot_result(result: TournamentResult, path: str | Path) -> None:
    """Write the tournament's PNG (see :meth:`TournamentResult.plot`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm

    stats = sorted(result.stats, key=lambda s: s.mu)  # best at the top of a horizontal chart
    k = len(stats)
    heat = k > 2
    bars_h = max(2.6, 0.5 * k + 1.4)
    heat_h = 0.7 * k + 2.2 if heat else 0.0
    fig = plt.figure(figsize=(12, bars_h + heat_h + 0.6))
    grid = fig.add_gridspec(2 if heat else 1, 2, height_ratios=[bars_h, heat_h] if heat else [1])
    y = np.arange(k)
    names = [s.label + (" (anchor)" if s.anchor else "") for s in stats]
    colors = ["#7f7f7f" if s.anchor else "#1f77b4" for s in stats]

    ax = fig.add_subplot(grid[0, 0])
    for i, s in enumerate(stats):
        ax.errorbar(s.mu, i, xerr=2 * s.sigma, fmt="o", color=colors[i], ecolor=colors[i], capsize=4, lw=2)
        ax.annotate(f"{s.mu:.1f} ± {2 * s.sigma:.1f}", (s.mu, i), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    ax.set_yticks(y, names)
    ax.set_ylim(-0.7, k - 0.3)
    ax.margins(x=0.12)
    ax.set_xlabel("OpenSkill Plackett-Luce rating (mu ± 2 sigma)")
    ax.set_title("Ratings" + (f" (anchor: {result.anchor} pinned at {ANCHOR_MU:g})" if result.anchor else ""), fontsize=10)
    if result.anchor:
        ax.axvline(ANCHOR_MU, color="#bbbbbb", lw=1, ls="--", zorder=0)
    ax.grid(axis="x", alpha=0.3)

    ax = fig.add_subplot(grid[0, 1])
    fair = 1.0 / result.num_players
    for i, s in enumerate(stats):
        lo, hi = s.win_ci
        ax.barh(i, s.win_rate, color=colors[i], alpha=0.3, height=0.6)
        ax.errorbar(s.win_rate, i, xerr=[[s.win_rate - lo], [hi - s.win_rate]], fmt="o", color=colors[i], capsize=4, lw=2)
        left = s.win_rate < 0.5
        ax.annotate(f"{100 * s.win_rate:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}%] of {s.games}", (s.win_rate, i), textcoords="offset points",
                    xytext=(6 if left else -6, 9), ha="left" if left else "right", fontsize=8)
    ax.axvline(fair, color="#d62728", lw=1, ls="--", label=f"fair share 1/{result.num_players}")
    ax.set_yticks(y, [])
    ax.set_ylim(-0.7, k - 0.3)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate with 95% Wilson interval (a shared win counts 1/k)")
    ax.set_title("Win rate", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)

    if heat:
        order = [result.labels.index(s.label) for s in reversed(stats)]  # best first, as in the table
        labs = [result.labels[i] for i in order]
        m = np.array([[np.nan if result.cross_play[i][j] is None else result.cross_play[i][j] for j in order] for i in order], dtype=float)
        ax = fig.add_subplot(grid[1, :].subgridspec(1, 3, width_ratios=[1, 2, 1])[0, 1])
        cmap = plt.get_cmap("RdBu").with_extremes(bad="#eeeeee")
        im = ax.imshow(m, cmap=cmap, norm=TwoSlopeNorm(vmin=0.0, vcenter=fair, vmax=1.0))
        for a, i in enumerate(order):
            for b, j in enumerate(order):
                if not np.isnan(m[a, b]):
                    ax.text(b, a, f"{100 * m[a, b]:.0f}%\n({result.cross_games[i][j]})", ha="center", va="center", fontsize=8,
                            color="white" if abs(m[a, b] - fair) > 0.3 else "black")
        ax.set_xticks(range(k), labs, rotation=20, ha="right")
        ax.set_yticks(range(k), labs)
        ax.set_xlabel("opponent (column)")
        ax.set_ylabel("policy (row)")
        ax.set_title("Cross-play: row's win rate in games with column (row's seats)", fontsize=10)
        bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.02)
        bar.set_label(f"win rate (white = fair {100 * fair:.0f}%)", fontsize=8)

    fig.suptitle(f"{result.env}, {result.num_players} players: {result.games} games, seed {result.seed}", fontsize=11)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
