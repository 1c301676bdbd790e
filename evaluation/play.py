"""Tournaments: the schedule of the game's kind, played over the worker pool, then summarised.

What is played depends on the game's :class:`~mythzoo.envs.core.spec.GameSpec` ``kind``:

- ``symmetric`` (Mythic Baths): the seat-balanced schedule (:func:`~.schedules.seatings`), a
  :class:`~.results.TournamentResult` with OpenSkill ratings;
- ``roles`` (Mythsgate): refs are ``ROLE:REF``; every pairing of one policy per role plays the same
  deals (:func:`~.schedules.pairings`), a :class:`~.results.RoleTournamentResult`; no ratings;
- ``solo`` (Mythwind Innkeeper): every policy plays the same campaigns, a :class:`~.results.SoloResult`.

Every game depends only on the tournament seed and its index (:func:`~.schedules.schedule`), and
results are ordered by index, so they are the same for any number of workers.

The policies are refs (``random``, ``heuristic``, ``py:module:factory``, checkpoint refs), policy
objects (anything with ``act``/``act_batch``), or a mapping label -> ref or object; the labels
name the rows of the results (:func:`~.loading.name_policies`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from mythzoo.envs import make, resolve, spec
from mythzoo.evaluation.loading import (
    BASELINES,
    Loader,
    Policies,
    check_refs,
    check_role_refs,
    name_policies,
    parse_role_refs,
    registry_key,
    seat_policy,
    split_role_ref,
)
from mythzoo.evaluation.pool import chunk_size, run_tasks
from mythzoo.evaluation.records import GameRecord
from mythzoo.evaluation.results import (
    SOLO,
    SYMMETRIC,
    RoleTournamentResult,
    SoloResult,
    TournamentResult,
    summarise,
    summarise_roles,
    summarise_solo,
)
from mythzoo.evaluation.runner import play_one
from mythzoo.evaluation.schedules import ScheduledGame, campaigns, pairings, schedule, seat_seeds, seatings


def play_game(
    env_name: str,
    num_players: int | None,
    policy_refs_by_seat: Policies,
    seed: int,
    *,
    env_kwargs: dict[str, Any] | None = None,
    registry: Any = None,
    policy_seeds: Sequence[int] | None = None,
    labels: Sequence[str] | None = None,
    loader: Loader | None = None,
    index: int = 0,
) -> GameRecord:
    """Play one game of ``env_name`` with the policy ``policy_refs_by_seat[i]`` (a ref or a policy
    object; or a mapping label -> ref or object, in seat order) in seat ``i``.

    The env is reset with ``seed``; seat ``i``'s policy gets its own RNG seeded with
    ``policy_seeds[i]`` (default: derived from ``seed`` and ``i``), so the game replays exactly (a
    policy object is reseeded only if it has ``reseed(seed)``). ``loader(ref, env, registry, seed)``
    builds a policy from a ref (default: :func:`~.loading.load_policy`).
    """
    env_name = resolve(env_name)
    kw = spec(env_name).size_kwargs(num_players, env_kwargs)
    env = make(env_name, **kw)
    n = len(env.unwrapped.possible_agents)
    if len(policy_refs_by_seat) != n:
        raise ValueError(f"{env_name} has {n} seats, got {len(policy_refs_by_seat)} policy refs")
    named = name_policies(policy_refs_by_seat, base=loader)
    seeds = list(policy_seeds) if policy_seeds is not None else seat_seeds(seed, n)
    load = named.loader
    policies = [seat_policy(load, ref, s, env, "", registry, ps) if ref in named.objects else load(ref, env, registry, ps)
                for s, (ref, ps) in enumerate(zip(named.refs, seeds))]
    if labels is None and named.objects:
        labels = named.labels
    record = GameRecord(env_name, kw, n, int(seed), list(named.refs), seeds, labels=list(labels) if labels else None, index=index)
    return play_one(env, policies, record)


def tournament(
    env_name: str,
    refs: Policies,
    games: int,
    num_players: int | None = None,
    workers: int = 1,
    seed: int = 0,
    registry: Any = None,
    *,
    env_kwargs: dict[str, Any] | None = None,
    anchor: str | None = "auto",
    loader: Loader | None = None,
    progress: bool = True,
) -> TournamentResult | RoleTournamentResult | SoloResult:
    """Play at least ``games`` games of ``env_name`` among the policies ``refs`` and summarise them.

    ``refs``: refs (``random``, ``heuristic``, ``py:module:factory``, checkpoint refs) and policy
    objects (anything with ``act``/``act_batch``), or a mapping label -> ref or object; the labels
    (a ref itself, an object's ``name``, or the mapping's key) name the rows of the result. In a
    team game each label or ref is ``ROLE:...`` (``{"hero:mine": policy}``). Objects are used as
    they are (``reset()`` and ``reseed(seed)`` are called before each game when they exist); with
    ``workers > 1`` each worker gets a pickled copy. ``loader(ref, env, registry, seed) -> policy``
    replaces :func:`~.loading.load_policy` for the refs (a scheme of your own; it must be a
    top-level function when ``workers > 1``).

    ``num_players``: players at the table, every seat counted (None: the env's default;
    ``GameSpec.size_kwargs``). The schedule is rounded up to whole cycles; all rotations of a lineup
    (symmetric) or all pairings or policies (team, solo) of a cycle share the deal. Games run on
    ``workers`` spawned processes. ``anchor``: the label pinned in the ratings of a symmetric game
    ("auto": ``random`` if present, else ``heuristic``, else none). With a ``registry`` (object or
    path), what the evaluation says of each checkpoint is recorded there (``Result.record_in``)."""
    if not refs:
        raise ValueError("need at least one policy ref")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    env_name = resolve(env_name)
    kind = spec(env_name).kind
    kw = spec(env_name).size_kwargs(num_players, env_kwargs)
    probe = make(env_name, **kw)
    u = probe.unwrapped
    agents = list(u.possible_agents)
    n = len(agents)
    roles = u.roles()
    named = name_policies(refs, list(roles) if kind != SYMMETRIC else (), base=loader)
    refs, labels, load = named.refs, named.labels, named.loader
    if workers > 1 and games > 1:
        named.check_picklable()
    seat_roles = [u.agent_role(a) for a in agents]
    if kind == SYMMETRIC:
        role_refs = []
        play_refs = check_refs(probe, refs, registry, load)
        if anchor == "auto":  # the first baseline among the policies, by its label
            anchor = next((lab for b in BASELINES for lab, r in zip(labels, refs) if r == b), None)
        cycle, deal_every = seatings(len(refs), n), n
    else:
        if kind == SOLO:  # the role prefix ("innkeeper:") is optional
            role_refs = [(next(iter(roles)), split_role_ref(ref, list(roles))[1]) for ref in refs]
            cycle = campaigns(len(refs))
        else:
            role_refs = parse_role_refs(probe, refs)
            cycle = pairings([r for r, _ in role_refs], list(roles), seat_roles)
        play_refs = check_role_refs(probe, role_refs, registry, load)
        deal_every = len(cycle)
    start = time.perf_counter()
    records = play_schedule(env_name, kw, play_refs, labels, registry, load, schedule(cycle, games, seed, deal_every), workers, progress)
    result: TournamentResult | RoleTournamentResult | SoloResult
    if kind == SYMMETRIC:
        result = summarise(env_name, kw, n, seed, refs, labels, anchor, cycle, records, play_refs)
    elif kind == SOLO:
        result = summarise_solo(env_name, kw, seed, [r for _, r in role_refs], labels, records, play_refs)
    else:
        result = summarise_roles(env_name, kw, seed, roles, seat_roles, role_refs, labels, cycle, records, play_refs)
    result.seconds = time.perf_counter() - start
    if registry is not None:
        from mythzoo.policies.registry.errors import RegistryError

        try:
            result.registry_notes = result.record_in(registry)
        except (OSError, ValueError, LookupError, sqlite3.Error, RegistryError) as e:  # the games are kept whatever the registry does
            result.registry_notes = [f"not recorded: {type(e).__name__}: {' '.join(str(e).split())}"]
    return result


def play_schedule(
    env_name: str, kw: dict[str, Any], play_refs: Sequence[str], labels: Sequence[str], registry: Any, load: Loader,
    games: list[ScheduledGame], workers: int, progress: bool,
) -> list[GameRecord]:
    """Play the scheduled ``games`` (policy ``i`` is ``play_refs[i]``, labelled ``labels[i]``) on
    ``workers`` processes; the records sorted by index (the same for any ``workers``)."""
    total = len(games)
    reg = registry_key(registry)
    workers = min(workers, total)
    chunk = chunk_size(total, workers)
    tasks = [(env_name, kw, list(play_refs), list(labels), reg, load, games[a:a + chunk]) for a in range(0, total, chunk)]
    records = run_tasks(_play_task, tasks, workers, total=total, desc=f"eval {env_name}", progress=progress)
    records.sort(key=lambda r: r.index)
    return records


# A worker process keeps its envs (and, in loading.seat_policy, its reusable policies) between games.
_ENV_CACHE: dict[str, Any] = {}


def _play_task(task: tuple[Any, ...]) -> list[GameRecord]:
    """Play a chunk of tournament games (a top-level function: spawn-safe)."""
    env_name, kw, refs, labels, registry, loader, games = task
    env_key = json.dumps([env_name, kw], sort_keys=True, default=str)
    env = _ENV_CACHE.get(env_key)
    if env is None:
        env = _ENV_CACHE[env_key] = make(env_name, **kw)
    out = []
    for game in games:
        policies = [seat_policy(loader, refs[p], s, env, env_key, registry, ps) for s, (p, ps) in enumerate(zip(game.seating, game.policy_seeds))]
        record = GameRecord(env_name, kw, len(game.seating), game.seed, [refs[p] for p in game.seating], list(game.policy_seeds),
                            labels=[labels[p] for p in game.seating], index=game.index)
        out.append(play_one(env, policies, record))
    return out
