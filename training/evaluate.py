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
- Asymmetric team games (several roles, e.g. Mythsgate's invoker and heroes) and solo games (one
  agent) take the same :func:`tournament` call: ``ROLE:REF`` refs, every pairing of one policy per
  role on the same deals (:class:`RoleTournamentResult`); every policy on the same campaigns
  (:class:`SoloResult`). ``num_players`` counts every seat (:func:`env_size_kwargs`).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from itertools import combinations, combinations_with_replacement, product
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
    returns: list[float] | None = None  # per seat: the sum of every reward the seat got (shaped rewards included)
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
    """``env_kwargs`` plus ``num_players`` (the symmetric games' size argument); see :func:`env_size_kwargs`."""
    kw = dict(env_kwargs or {})
    if num_players is not None:
        kw["num_players"] = int(num_players)
    return kw


@cache
def size_argument(env_name: str) -> tuple[str, int, int] | None:
    """The env argument that sets how many players sit at the table: ``(name, offset, default)``
    with players = value + offset, or None for an env with a fixed number of players.

    Found from the env's signature: ``num_players`` (Mythic Baths: players = num_players), else the
    first ``num_<something>`` integer argument (Mythsgate: ``num_heroes``, players = 1 invoker +
    num_heroes); the offset is read off the env built with the default."""
    from mythzoo.envs import ENVS, resolve

    module = ENVS[resolve(env_name)][0]
    init = getattr(getattr(module, "raw_env", None), "__init__", None) or module.env
    params = inspect.signature(init).parameters
    if "num_players" in params:
        name = "num_players"
    else:
        names = [p.name for p in params.values() if p.name.startswith("num_") and type(p.default) is int]
        if not names:
            return None
        name = names[0]
    default = params[name].default
    if type(default) is not int:
        return None
    seats = len(module.env().possible_agents)
    return name, seats - default, default


def env_size_kwargs(env_name: str, num_players: int | None, env_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """The env keyword arguments for a table of ``num_players`` players (seats, every role counted):
    Mythic Baths ``num_players=n``, Mythsgate ``num_heroes=n-1``; ``None``: the env's default, written
    out. A fixed-size env (the solo game) takes no size: ``num_players`` must be None or its seat count.
    A size also given in ``env_kwargs`` must agree. Raises ValueError."""
    from mythzoo.envs import resolve

    env_name = resolve(env_name)
    kw = dict(env_kwargs or {})
    arg = size_argument(env_name)
    if arg is None:
        if num_players is not None:
            seats = len(make_env(env_name, kw).unwrapped.possible_agents)
            if int(num_players) != seats:
                raise ValueError(f"{env_name} is played by {seats} player{'s' if seats > 1 else ''} and has no player-count argument; got {num_players} players")
        return kw
    name, offset, default = arg
    if num_players is None:
        kw.setdefault(name, default)
        return kw
    want = int(num_players) - offset
    if name in kw and kw[name] != want:
        raise ValueError(f"{num_players} players means {name}={want} in {env_name}, but {name}={kw[name]} was also given")
    kw[name] = want
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
    returns = dict.fromkeys(agents, 0.0)
    try:
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            returns[agent] += float(reward)
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
    record.returns = [returns[a] for a in agents]
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
    kw = env_size_kwargs(env_name, num_players, env_kwargs)
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
    returns: list[float] | None = None


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
    returns = dict.fromkeys(agents, 0.0)
    k = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += float(reward)
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
        if record.returns is not None and not _close([returns[a] for a in agents], record.returns):
            raise ReplayError(f"returns {[returns[a] for a in agents]} differ from the record's {record.returns}")
    yield ReplayStep(k, None, None, None, u.render_text(seat if seat is not None else 0) if render else None, rewards, scores,
                     [returns[a] for a in agents])


@dataclass
class ReplayResult:
    """What a successful replay found."""

    decisions: int
    final_rewards: list[float] | None
    scores: list[float] | None
    finished: bool
    returns: list[float] | None = None


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
    return ReplayResult(len(record.actions), last.final_rewards if done else None, last.scores if done else None, done,
                        last.returns if done else None)


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
    num_players: int | None = None,
    workers: int = 1,
    seed: int = 0,
    registry: Any = None,
    *,
    env_kwargs: dict[str, Any] | None = None,
    anchor: str | None = "auto",
    loader: Callable[..., Any] | None = None,
    progress: bool = True,
) -> TournamentResult | RoleTournamentResult | SoloResult:
    """Play at least ``games`` games of ``env_name`` among the policies ``refs`` and rate them.

    ``num_players``: players at the table, every seat counted (None: the env's default; see
    :func:`env_size_kwargs`). What is played depends on the game (:func:`game_kind`):

    - symmetric (Mythic Baths): the seat-balanced tournament below, a :class:`TournamentResult`;
    - asymmetric / team (Mythsgate): ``refs`` are ``ROLE:REF``; every combination of one policy per
      role (a pairing; a role's policy plays all its seats) plays the same deals; a
      :class:`RoleTournamentResult` (side win rates with Wilson intervals, draws); no ratings;
    - solo (Mythwind Innkeeper): every policy plays the same campaigns; a :class:`SoloResult` (mean
      return and score with t intervals, paired differences against the first policy).

    Schedule: :func:`seatings` (every policy in every seat equally), repeated and rounded up to
    whole cycles; all rotations of a lineup in one cycle share the deal (env seed), each game's
    policies get their own seeds. Games run on ``workers`` spawned processes; every game depends
    only on ``seed`` and its index, and ratings are updated in game order, so the result is the
    same for any ``workers``. ``anchor``: the label pinned in the ratings ("auto": ``random`` if
    present, else ``heuristic``, else none). With a ``registry`` (object or path), each
    non-baseline policy's rating and eval summary are recorded through the registry's
    ``record_rating`` / ``record_eval``."""
    from mythzoo.envs import resolve

    if not refs:
        raise ValueError("need at least one policy ref")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    env_name = resolve(env_name)
    kw = env_size_kwargs(env_name, num_players, env_kwargs)
    probe = make_env(env_name, kw)
    kind = game_kind(probe)
    if kind != SYMMETRIC:
        return _role_or_solo_tournament(kind, env_name, kw, probe, list(refs), games, workers, seed, registry, loader, progress)
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
    start = time.perf_counter()
    records = _play_specs(env_name, kw, play_refs, labels, registry, load, specs, workers, progress)
    result = summarise(env_name, kw, n, seed, refs, labels, anchor, cycle, records, play_refs)
    result.seconds = time.perf_counter() - start
    if registry is not None:
        result.registry_notes = record_in_registry(registry, result)
    return result


def _play_specs(
    env_name: str, kw: dict[str, Any], play_refs: Sequence[str], labels: Sequence[str], registry: Any, load: Callable[..., Any],
    specs: list[tuple[Any, ...]], workers: int, progress: bool,
) -> list[GameRecord]:
    """Play the games ``specs`` (index, policy index per seat, env seed, policy seeds) on ``workers``
    processes; the records sorted by index (the same for any ``workers``)."""
    from tqdm import tqdm

    total = len(specs)
    reg = _registry_key(registry)
    workers = min(workers, total)
    chunk = max(1, min(25, total // (4 * workers) or 1))
    tasks = [(env_name, kw, list(play_refs), list(labels), reg, load, specs[a:a + chunk]) for a in range(0, total, chunk)]
    records: list[GameRecord] = []
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
    return records


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


# ------------------------------------------------------------- team (asymmetric) and solo games
SYMMETRIC, ROLES, SOLO = "symmetric", "roles", "solo"
Z95 = 1.959963984540054  # the normal 97.5% quantile


def env_roles(env: Any) -> dict[str, list[str]]:
    """Every role of ``env`` and its agents (``env.unwrapped.roles()``; one role ``player`` if the env has none)."""
    u = env.unwrapped
    if callable(getattr(u, "roles", None)):
        return {r: list(a) for r, a in u.roles().items()}
    return {"player": list(u.possible_agents)}


def game_kind(env: Any) -> str:
    """``solo`` (one agent), ``roles`` (several roles: an asymmetric or team game) or ``symmetric``."""
    if len(env.unwrapped.possible_agents) == 1:
        return SOLO
    return ROLES if len(env_roles(env)) > 1 else SYMMETRIC


def split_role_ref(ref: str, roles: Sequence[str]) -> tuple[str | None, str]:
    """``("hero", "random")`` for ``"hero:random"`` when ``hero`` is one of ``roles``, else ``(None, ref)``
    (``toy:3`` stays a checkpoint ref unless ``toy`` is a role: write ``hero:toy:3``)."""
    head, sep, rest = ref.partition(":")
    if sep and head in roles and rest:
        return head, rest
    return None, ref


def parse_role_refs(env: Any, refs: Sequence[str]) -> list[tuple[str, str]]:
    """``(role, ref)`` for every ``ROLE:REF`` of an asymmetric game; ValueError for a ref without a
    known role prefix, or a role that gets no policy."""
    roles = env_roles(env)
    name = env.unwrapped.env_name
    example = " ".join(f"{r}:random" for r in roles)
    out = []
    for ref in refs:
        role, rest = split_role_ref(ref, list(roles))
        if role is None:
            head, sep, _ = ref.partition(":")
            why = f"{head!r} is not a role" if sep and head not in roles else "no role given"
            raise ValueError(f"{name} is an asymmetric game with roles {', '.join(roles)}: give every policy as ROLE:REF "
                             f"(e.g. {example}); {ref!r}: {why}")
        out.append((role, rest))
    missing = [r for r in roles if all(role != r for role, _ in out)]
    if missing:
        raise ValueError(f"{name}: no policy for role{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
                         f"every role needs at least one, e.g. {missing[0]}:random")
    return out


def checkpoint_role(policy: Any, registry: Any = None) -> str | None:
    """The role a loaded checkpoint policy was trained for (``None``: any role, or not a checkpoint)."""
    role = getattr(policy, "role", None)
    if isinstance(role, str) and role:
        return role
    cid = getattr(policy, "checkpoint_id", None)
    if cid is None:
        return None
    from mythzoo.policies.refs import open_registry

    reg = _open_registry(registry) or open_registry(None)
    return reg.resolve(str(cid)).role


def check_role_refs(env: Any, role_refs: Sequence[tuple[str, str]], registry: Any = None,
                    loader: Callable[..., Any] | None = None) -> list[str]:
    """:func:`check_refs` for ``(role, ref)`` pairs: load each once and refuse (ValueError) a checkpoint
    trained for another role than the seats it is given. Returns the pinned refs."""
    load = loader or _load_policy
    roles = env_roles(env)
    pinned = {}
    for role, ref in dict.fromkeys(role_refs):
        policy = load(ref, env, registry, 0)
        cid = getattr(policy, "checkpoint_id", None)
        trained = checkpoint_role(policy, registry)
        if trained is not None and not all(a.startswith(trained) for a in roles[role]):
            raise ValueError(f"checkpoint {ref!r} ({cid}) was trained for role {trained!r}; it cannot play the {role} "
                             f"seats ({', '.join(roles[role])}): give it as {trained}:{ref}")
        pinned[(role, ref)] = str(cid or ref)
    return [pinned[rr] for rr in role_refs]


def t_quantile(df: int, q: float = 0.975) -> float:
    """Student's t quantile (SciPy when installed, else a Cornish-Fisher expansion, exact to ~1e-4 for df >= 3)."""
    try:
        from scipy.stats import t

        return float(t.ppf(q, df))
    except ImportError:
        if q != 0.975:
            raise
        z = Z95
        g = [(z**3 + z) / 4, (5 * z**5 + 16 * z**3 + 3 * z) / 96, (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
             (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160]
        return z + sum(gi / df ** (i + 1) for i, gi in enumerate(g))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float, float]:
    """``(mean, lo, hi, sd)``: the mean with its 95% Student-t interval and the sample sd (ddof 1);
    one value gives an unbounded interval (nan), none gives all nan."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return (math.nan,) * 4
    m = float(x.mean())
    if x.size == 1:
        return m, math.nan, math.nan, math.nan
    sd = float(x.std(ddof=1))
    half = t_quantile(x.size - 1) * sd / math.sqrt(x.size)
    return m, m - half, m + half, sd


def role_outcome(record: GameRecord, seat_roles: Sequence[str], roles: Sequence[str]) -> tuple[list[float], bool]:
    """Each role's share of the win and whether the game was a draw. A role's result is the mean
    final reward of its seats; the role(s) with the best result share the win; when every role has
    the same result (the turn cap: all rewards 0) nobody wins: a draw."""
    rw = record.final_rewards or [0.0] * len(seat_roles)
    res = [float(np.mean([r for r, sr in zip(rw, seat_roles) if sr == role])) for role in roles]
    best = max(res)
    top = [x == best for x in res]
    if all(top):
        return [0.0] * len(roles), True
    return [1.0 / sum(top) if t else 0.0 for t in top], False


def _fmt_ci(lo: float, hi: float, pct: bool = True) -> str:
    if math.isnan(lo):
        return "-"
    return f"{100 * lo:.1f}-{100 * hi:.1f}%" if pct else f"{lo:.2f} to {hi:.2f}"


def _nan_none(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


@dataclass
class PairingStats:
    """One pairing of an asymmetric tournament: a policy per role, on the same deals as every pairing."""

    policies: list[str]  # label per role
    games: int
    wins: list[float]  # per role
    draws: int
    truncated: int
    illegal: int
    mean_score: list[float | None]  # per role: mean over games of the role's mean seat score

    def win_rate(self, r: int) -> float:
        return self.wins[r] / self.games if self.games else 0.0

    def win_ci(self, r: int) -> tuple[float, float]:
        return wilson_interval(self.wins[r], self.games)


@dataclass
class RolePolicyStats:
    """One policy of an asymmetric tournament, over all its pairings (its games are games, not seats)."""

    label: str
    role: str
    ref: str
    played_as: str
    games: int
    wins: float
    draws: int
    win_rate: float
    win_ci: tuple[float, float]
    mean_reward: float
    mean_score: float | None


@dataclass
class RoleTournamentResult:
    """An asymmetric (team) tournament: every combination of one policy per role on the same deals."""

    env: str
    env_kwargs: dict[str, Any]
    num_players: int
    seed: int
    roles: dict[str, list[str]]  # role -> its agents
    labels: list[str]
    refs: list[str]
    cycle: list[tuple[int, ...]]  # one pairing per entry: the policy index per seat
    pairings: list[PairingStats]
    stats: list[RolePolicyStats]
    records: list[GameRecord]
    seconds: float = 0.0
    registry_notes: list[str] = field(default_factory=list)
    kind: str = ROLES

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def deals(self) -> int:
        """Deals played by every pairing."""
        return self.games // max(1, len(self.pairings))

    def by_label(self) -> dict[str, RolePolicyStats]:
        return {s.label: s for s in self.stats}

    def pairing(self, *labels: str) -> PairingStats:
        """The pairing of these labels (one per role, in role order)."""
        return next(p for p in self.pairings if p.policies == list(labels))

    def to_dict(self, include_records: bool = True) -> dict[str, Any]:
        roles = list(self.roles)
        d: dict[str, Any] = {
            "format": RESULT_FORMAT, "kind": ROLES, "env": self.env, "env_kwargs": self.env_kwargs, "num_players": self.num_players,
            "seed": self.seed, "games": self.games, "truncated_games": sum(r.truncated for r in self.records),
            "draws": sum(p.draws for p in self.pairings), "seconds": round(self.seconds, 3), "roles": self.roles,
            "schedule": {
                "scheme": "every combination of one policy per role (a policy plays every seat of its role); every pairing plays the same deals",
                "cycle_length": len(self.cycle), "cycles": self.deals, "cycle": [list(c) for c in self.cycle],
            },
            "pairings": [
                {
                    "policies": dict(zip(roles, p.policies)), "games": p.games,
                    "wins": dict(zip(roles, p.wins)), "win_rate": {r: p.win_rate(i) for i, r in enumerate(roles)},
                    "win_ci95": {r: list(p.win_ci(i)) for i, r in enumerate(roles)},
                    "draws": p.draws, "draw_rate": p.draws / p.games if p.games else 0.0, "truncated": p.truncated,
                    "illegal": p.illegal, "mean_score": dict(zip(roles, p.mean_score)),
                }
                for p in self.pairings
            ],
            "policies": [
                {"label": s.label, "role": s.role, "ref": s.ref, "played_as": s.played_as, "games": s.games, "wins": s.wins,
                 "draws": s.draws, "win_rate": s.win_rate, "win_ci95": list(s.win_ci), "mean_reward": s.mean_reward,
                 "mean_score": s.mean_score}
                for s in self.stats
            ],
        }
        if self.registry_notes:
            d["registry"] = self.registry_notes
        if include_records:
            d["records"] = [r.to_dict() for r in self.records]
        return d

    def to_json(self, path: str | Path, include_records: bool = True) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_dict(include_records), indent=1) + "\n")

    def table(self) -> str:
        """The pairing table (each role's win rate with a 95% Wilson interval, draws), then each
        policy over all its pairings, then who sits where."""
        roles = list(self.roles)
        has_scores = any(x is not None for p in self.pairings for x in p.mean_score)
        header = list(roles) + ["games"]
        for r in roles:
            header += [f"{r} wins", "95% CI"]
        header += ["draws"] + [f"{r} score" for r in roles if has_scores]
        rows = []
        for p in self.pairings:
            row: list[object] = list(p.policies) + [p.games]
            for i in range(len(roles)):
                row += [f"{100 * p.win_rate(i):.1f}%", _fmt_ci(*p.win_ci(i))]
            row += [f"{p.draws} ({100 * p.draws / p.games:.1f}%)" if p.games else "0"]
            if has_scores:
                row += ["-" if x is None else f"{x:.2f}" for x in p.mean_score]
            rows.append(row)
        parts = [f"pairings: {len(self.pairings)}, each on the same {self.deals} deal{'s' if self.deals != 1 else ''}",
                 format_table(rows, header, right=range(len(roles), len(header)))]
        header = ["policy", "role", "games", "wins", "win rate", "95% CI", "draws", "mean reward"] + (["mean score"] if has_scores else [])
        rows = []
        for s in self.stats:
            row = [s.label, s.role, s.games, _num(s.wins), f"{100 * s.win_rate:.1f}%", _fmt_ci(*s.win_ci), s.draws, f"{s.mean_reward:+.3f}"]
            if has_scores:
                row += ["-" if s.mean_score is None else f"{s.mean_score:.2f}"]
            rows.append(row)
        parts += ["", "each policy over all its pairings:", format_table(rows, header, right=range(2, len(header)))]
        parts += ["", "seats: " + "; ".join(f"{r}: {', '.join(a)}" for r, a in self.roles.items())
                  + " (a role's policy plays every seat of that role)"]
        return "\n".join(parts)

    def plot(self, path: str | Path) -> None:
        """A PNG: for two roles a heatmap of the first role's win rate per pairing (cells: both sides'
        win rates and the draws), and every policy's win rate with its Wilson interval."""
        plot_roles(self, path)


@dataclass
class SoloPolicyStats:
    """One policy of a solo evaluation: returns and scores with 95% t intervals, the paired difference
    against the first policy on the same campaigns."""

    label: str
    ref: str
    played_as: str
    games: int
    mean_return: float
    return_ci: tuple[float, float]
    sd_return: float
    mean_score: float | None
    score_ci: tuple[float, float] | None
    sd_score: float | None
    diff: float | None  # mean of (this return - first policy's return) over the same campaigns
    diff_ci: tuple[float, float] | None
    truncated: int
    illegal: int


@dataclass
class SoloResult:
    """A solo-game evaluation: every policy plays the same seeded campaigns."""

    env: str
    env_kwargs: dict[str, Any]
    seed: int
    labels: list[str]
    refs: list[str]
    stats: list[SoloPolicyStats]
    returns: list[list[float]]  # per policy, per campaign (campaign order)
    records: list[GameRecord]
    seconds: float = 0.0
    registry_notes: list[str] = field(default_factory=list)
    num_players: int = 1
    kind: str = SOLO

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def campaigns(self) -> int:
        return self.games // max(1, len(self.labels))

    @property
    def cycle(self) -> list[tuple[int, ...]]:
        return [(p,) for p in range(len(self.labels))]

    def by_label(self) -> dict[str, SoloPolicyStats]:
        return {s.label: s for s in self.stats}

    def to_dict(self, include_records: bool = True) -> dict[str, Any]:
        first = self.labels[0]
        d: dict[str, Any] = {
            "format": RESULT_FORMAT, "kind": SOLO, "env": self.env, "env_kwargs": self.env_kwargs, "num_players": 1, "seed": self.seed,
            "games": self.games, "campaigns": self.campaigns, "truncated_games": sum(r.truncated for r in self.records),
            "seconds": round(self.seconds, 3),
            "schedule": {"scheme": "every policy plays the same seeded campaigns", "cycle_length": len(self.labels), "cycles": self.campaigns},
            "interval": "95% Student t (mean ± t(0.975, n-1) sd / sqrt(n)); differences paired by campaign",
            "policies": [
                {"label": s.label, "ref": s.ref, "played_as": s.played_as, "games": s.games, "mean_return": s.mean_return,
                 "return_ci95": [_nan_none(x) for x in s.return_ci], "sd_return": _nan_none(s.sd_return),
                 "mean_score": s.mean_score, "score_ci95": None if s.score_ci is None else [_nan_none(x) for x in s.score_ci],
                 "sd_score": _nan_none(s.sd_score),
                 "diff_vs_first": None if s.diff is None else {"against": first, "mean": s.diff,
                                                               "ci95": [_nan_none(x) for x in s.diff_ci or (math.nan, math.nan)]},
                 "truncated": s.truncated, "illegal": s.illegal}
                for s in self.stats
            ],
        }
        if self.registry_notes:
            d["registry"] = self.registry_notes
        if include_records:
            d["records"] = [r.to_dict() for r in self.records]
        return d

    def to_json(self, path: str | Path, include_records: bool = True) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_dict(include_records), indent=1) + "\n")

    def table(self) -> str:
        """Mean return (and score) with 95% t intervals, and the paired difference against the first policy."""
        has_scores = any(s.mean_score is not None for s in self.stats)
        first = self.labels[0]
        header = ["policy", "games", "mean return", "95% CI", "sd"]
        header += ["mean score", "95% CI", "sd"] if has_scores else []
        header += [f"return - {first}", "95% CI (paired)"]
        rows = []
        for s in self.stats:
            row: list[object] = [s.label, s.games, f"{s.mean_return:.2f}", _fmt_ci(*s.return_ci, pct=False), _fmt_f(s.sd_return)]
            if has_scores:
                row += ["-" if s.mean_score is None else f"{s.mean_score:.2f}", _fmt_ci(*(s.score_ci or (math.nan, math.nan)), pct=False),
                        _fmt_f(s.sd_score)]
            row += ["-" if s.diff is None else f"{s.diff:+.2f}", "-" if s.diff_ci is None else _fmt_ci(*s.diff_ci, pct=False)]
            rows.append(row)
        return f"{self.campaigns} campaign{'s' if self.campaigns != 1 else ''}, the same for every policy\n" + format_table(rows, header)

    def plot(self, path: str | Path) -> None:
        """A PNG: the distribution of returns per policy (box plot and points, mean with its 95% t
        interval) and the paired differences against the first policy."""
        plot_solo(self, path)


def _fmt_f(x: float | None) -> str:
    return "-" if x is None or math.isnan(x) else f"{x:.2f}"


def _role_or_solo_tournament(
    kind: str, env_name: str, kw: dict[str, Any], probe: Any, refs: list[str], games: int, workers: int, seed: int,
    registry: Any, loader: Callable[..., Any] | None, progress: bool,
) -> RoleTournamentResult | SoloResult:
    """The tournament of an asymmetric (``roles``) or ``solo`` game (see :func:`tournament`)."""
    u = probe.unwrapped
    agents = list(u.possible_agents)
    n = len(agents)
    roles = env_roles(probe)
    load = loader or _load_policy
    labels = unique_labels(refs)
    if kind == SOLO:
        role_refs = [(next(iter(roles)), split_role_ref(ref, list(roles))[1]) for ref in refs]  # "innkeeper:" is optional
        cycle = [(p,) for p in range(len(refs))]
    else:
        role_refs = parse_role_refs(probe, refs)
        by_role = [[i for i, (r, _) in enumerate(role_refs) if r == role] for role in roles]
        seat_role = [list(roles).index(u.agent_role(a)) for a in agents]
        cycle = [tuple(pair[seat_role[s]] for s in range(n)) for pair in product(*by_role)]
    play_refs = check_role_refs(probe, role_refs, registry, load)
    total = -(-games // len(cycle)) * len(cycle)
    specs = []
    for i in range(total):
        c = i // len(cycle)
        specs.append((i, cycle[i % len(cycle)], derive_seed(seed, _TAG_DEAL, c, 0), [derive_seed(seed, _TAG_POLICY, i, s) for s in range(n)]))
    start = time.perf_counter()
    records = _play_specs(env_name, kw, play_refs, labels, registry, load, specs, workers, progress)
    pinned = list(play_refs)
    if kind == SOLO:
        result: RoleTournamentResult | SoloResult = summarise_solo(env_name, kw, seed, [r for _, r in role_refs], labels, records, pinned)
    else:
        result = summarise_roles(env_name, kw, seed, roles, [u.agent_role(a) for a in agents], role_refs, labels, cycle, records, pinned)
    result.seconds = time.perf_counter() - start
    if registry is not None:
        result.registry_notes = record_evals_in_registry(registry, result)
    return result


def summarise_roles(
    env_name: str, env_kwargs: dict[str, Any], seed: int, roles: dict[str, list[str]], seat_roles: Sequence[str],
    role_refs: Sequence[tuple[str, str]], labels: Sequence[str], cycle: list[tuple[int, ...]], records: Sequence[GameRecord],
    pinned: Sequence[str],
) -> RoleTournamentResult:
    """Per-pairing and per-policy statistics of an asymmetric tournament (see :func:`role_outcome`)."""
    role_names = list(roles)
    R = len(role_names)
    first_seat = [seat_roles.index(r) for r in role_names]  # a seat of each role: its policy index in a seating
    key_of = {tuple(c[first_seat[j]] for j in range(R)): c for c in cycle}
    acc: dict[tuple[int, ...], dict[str, Any]] = {k: {"games": 0, "wins": [0.0] * R, "draws": 0, "trunc": 0, "illegal": 0,
                                                      "scores": [[] for _ in range(R)]} for k in key_of}
    k = len(labels)
    pg, pw, pd = [0] * k, [0.0] * k, [0] * k
    prew: list[list[float]] = [[] for _ in range(k)]
    psc: list[list[float]] = [[] for _ in range(k)]
    idx = {lab: i for i, lab in enumerate(labels)}
    for rec in records:
        if not rec.finished:
            continue
        seat_pol = [idx[lab] for lab in rec.labels]
        key = tuple(seat_pol[first_seat[j]] for j in range(R))
        shares, draw = role_outcome(rec, seat_roles, role_names)
        a = acc[key]
        a["games"] += 1
        a["draws"] += draw
        a["trunc"] += rec.truncated
        a["illegal"] += rec.illegal is not None
        for j, role in enumerate(role_names):
            a["wins"][j] += shares[j]
            seats = [s for s, sr in enumerate(seat_roles) if sr == role]
            p = key[j]
            pg[p] += 1
            pw[p] += shares[j]
            pd[p] += draw
            prew[p].append(float(np.mean([rec.final_rewards[s] for s in seats])))
            if rec.scores is not None:
                sc = float(np.mean([rec.scores[s] for s in seats]))
                a["scores"][j].append(sc)
                psc[p].append(sc)
    pairings = [
        PairingStats([labels[p] for p in key], a["games"], a["wins"], a["draws"], a["trunc"], a["illegal"],
                     [float(np.mean(x)) if x else None for x in a["scores"]])
        for key, a in acc.items()
    ]
    stats = [
        RolePolicyStats(lab, role_refs[p][0], role_refs[p][1], pinned[p], pg[p], pw[p], pd[p], pw[p] / pg[p] if pg[p] else 0.0,
                        wilson_interval(pw[p], pg[p]), float(np.mean(prew[p])) if prew[p] else 0.0,
                        float(np.mean(psc[p])) if psc[p] else None)
        for p, lab in enumerate(labels)
    ]
    n = len(seat_roles)
    return RoleTournamentResult(env_name, dict(env_kwargs), n, seed, {r: list(a) for r, a in roles.items()}, list(labels),
                                [f"{r}:{ref}" for r, ref in role_refs], cycle, pairings, stats, list(records))


def summarise_solo(env_name: str, env_kwargs: dict[str, Any], seed: int, refs: Sequence[str], labels: Sequence[str],
                   records: Sequence[GameRecord], pinned: Sequence[str]) -> SoloResult:
    """Per-policy returns and scores with t intervals, and paired differences against the first policy."""
    k = len(labels)
    idx = {lab: i for i, lab in enumerate(labels)}
    by_campaign: dict[int, dict[int, GameRecord]] = {}
    for rec in records:
        if rec.finished:
            by_campaign.setdefault(rec.index // k, {})[idx[rec.labels[0]]] = rec
    camps = sorted(by_campaign)

    def ret(r: GameRecord) -> float:
        return float(r.returns[0] if r.returns is not None else r.final_rewards[0])

    returns = [[ret(by_campaign[c][p]) for c in camps if p in by_campaign[c]] for p in range(k)]
    stats = []
    for p, lab in enumerate(labels):
        recs = [by_campaign[c][p] for c in camps if p in by_campaign[c]]
        m, lo, hi, sd = mean_interval(returns[p])
        scores = [r.scores[0] for r in recs if r.scores is not None]
        sm, slo, shi, ssd = mean_interval(scores) if scores else (None, math.nan, math.nan, None)
        diff = diff_ci = None
        if p > 0:
            pairs = [ret(by_campaign[c][p]) - ret(by_campaign[c][0]) for c in camps if p in by_campaign[c] and 0 in by_campaign[c]]
            if pairs:
                dm, dlo, dhi, _ = mean_interval(pairs)
                diff, diff_ci = dm, (dlo, dhi)
        stats.append(SoloPolicyStats(lab, refs[p], pinned[p], len(recs), m, (lo, hi), sd, sm, None if sm is None else (slo, shi), ssd,
                                     diff, diff_ci, sum(r.truncated for r in recs), sum(r.illegal is not None for r in recs)))
    return SoloResult(env_name, dict(env_kwargs), seed, list(labels), list(refs), stats, returns, list(records))


def record_evals_in_registry(registry: Any, result: RoleTournamentResult | SoloResult) -> list[str]:
    """Store the eval summary of each checkpoint of an asymmetric or solo evaluation in ``registry``
    (``record_eval(ref, summary, name="eval <env> <role>")``; no rating: see docs/evaluation.md)."""
    reg = _open_registry(registry)
    summary = result.to_dict(include_records=False)
    notes = []
    for s in result.stats:
        if s.ref in BASELINES or s.ref == HUMAN:
            continue
        what = getattr(s, "role", None) or "solo"
        reg.record_eval(s.played_as, {**summary, "policy": s.label}, name=f"eval {result.env} {what}")
        notes.append(f"{s.label} ({s.played_as}): eval result recorded")
    return notes


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_roles(result: RoleTournamentResult, path: str | Path) -> None:
    """Write an asymmetric tournament's PNG (see :meth:`RoleTournamentResult.plot`)."""
    plt = _plt()
    roles = list(result.roles)
    heat = len(roles) == 2
    fig, axes = plt.subplots(1, 2 if heat else 1, figsize=(14 if heat else 8, max(3.5, 0.5 * len(result.stats) + 2)), squeeze=False)
    if heat:
        rows = [s.label for s in result.stats if s.role == roles[0]]
        cols = [s.label for s in result.stats if s.role == roles[1]]
        m = np.full((len(rows), len(cols)), np.nan)
        ax = axes[0][0]
        for p in result.pairings:
            i, j = rows.index(p.policies[0]), cols.index(p.policies[1])
            m[i, j] = p.win_rate(0)
            lo, hi = p.win_ci(0)
            ax.text(j, i, f"{roles[0]} {100 * p.win_rate(0):.0f}% [{100 * lo:.0f}-{100 * hi:.0f}]\n{roles[1]} {100 * p.win_rate(1):.0f}%"
                    f"\ndraws {100 * p.draws / max(1, p.games):.0f}%  (n={p.games})", ha="center", va="center", fontsize=7,
                    color="white" if abs(p.win_rate(0) - 0.5) > 0.3 else "black")
        im = ax.imshow(m, cmap="RdBu", vmin=0.0, vmax=1.0)
        ax.set_xticks(range(len(cols)), cols, rotation=20, ha="right")
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel(f"{roles[1]} policy (plays every {roles[1]} seat)")
        ax.set_ylabel(f"{roles[0]} policy")
        ax.set_title(f"{roles[0]} win rate per pairing (95% Wilson interval)", fontsize=10)
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.02).set_label(f"{roles[0]} win rate", fontsize=8)
    ax = axes[0][-1]
    stats = list(reversed(result.stats))
    for i, s in enumerate(stats):
        lo, hi = s.win_ci
        color = f"C{roles.index(s.role)}"
        ax.barh(i, s.win_rate, color=color, alpha=0.3, height=0.6)
        ax.errorbar(s.win_rate, i, xerr=[[s.win_rate - lo], [hi - s.win_rate]], fmt="o", color=color, capsize=4, lw=2)
        left = s.win_rate < 0.5
        ax.annotate(f"{100 * s.win_rate:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}%], draws {s.draws} of {s.games}", (s.win_rate, i),
                    textcoords="offset points", xytext=(6 if left else -6, 9), ha="left" if left else "right", fontsize=8)
    ax.set_yticks(range(len(stats)), [s.label for s in stats])
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate over all pairings, 95% Wilson interval (draws count as no win)")
    ax.set_title("Each policy, by role", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{result.env} {result.env_kwargs}: {result.games} games ({result.deals} deals x {len(result.pairings)} pairings), "
                 f"seed {result.seed}", fontsize=11)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_solo(result: SoloResult, path: str | Path) -> None:
    """Write a solo evaluation's PNG (see :meth:`SoloResult.plot`)."""
    plt = _plt()
    k = len(result.labels)
    fig, axes = plt.subplots(1, 2, figsize=(13, max(3.5, 0.6 * k + 2)))
    ax = axes[0]
    data = [np.asarray(r, dtype=float) for r in result.returns]
    side = {"orientation": "horizontal"} if "orientation" in inspect.signature(ax.boxplot).parameters else {"vert": False}
    ax.boxplot([d if d.size else np.array([np.nan]) for d in data], positions=range(k), widths=0.5, showfliers=False, **side)
    rng = np.random.default_rng(0)
    for i, (d, s) in enumerate(zip(data, result.stats)):
        ax.scatter(d, i + rng.uniform(-0.18, 0.18, d.size), s=6, alpha=0.35, color=f"C{i}")
        if not math.isnan(s.return_ci[0]):
            ax.errorbar(s.mean_return, i, xerr=[[s.mean_return - s.return_ci[0]], [s.return_ci[1] - s.mean_return]], fmt="D", color="black",
                        capsize=4, zorder=5)
    ax.set_yticks(range(k), result.labels)
    ax.set_xlabel("return per campaign (box: quartiles; diamond: mean with 95% t interval)")
    ax.set_title("Returns", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    ax = axes[1]
    first = result.labels[0]
    for i, s in enumerate(result.stats):
        if s.diff is None:
            continue
        lo, hi = s.diff_ci or (math.nan, math.nan)
        ax.errorbar(s.diff, i, xerr=None if math.isnan(lo) else [[s.diff - lo], [hi - s.diff]], fmt="o", color=f"C{i}", capsize=4, lw=2)
        ax.annotate(f"{s.diff:+.1f}", (s.diff, i), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    ax.axvline(0, color="#d62728", lw=1, ls="--")
    ax.set_yticks(range(k), result.labels)
    ax.set_ylim(-0.7, k - 0.3)
    ax.set_xlabel(f"mean return minus {first}'s on the same campaigns (95% paired t interval)")
    ax.set_title(f"Paired difference against {first}", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{result.env} {result.env_kwargs}: {result.campaigns} campaigns per policy, seed {result.seed}", fontsize=11)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
