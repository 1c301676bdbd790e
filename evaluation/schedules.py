"""Who plays which game with which seeds: seat-balanced cycles, role pairings, solo campaigns.

A tournament is whole *cycles* of a schedule; game ``i`` gets its env seed (the deal) and its
seats' policy seeds from the tournament seed and its position only, so a game never depends on
which worker played it. The seeding scheme is in ``docs/evaluation.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement, product
from typing import NamedTuple

import numpy as np

TAG_DEAL = 0xDEA1
TAG_POLICY = 0x5EED


def derive_seed(seed: int, *keys: int) -> int:
    """A 32-bit seed from ``seed`` and integer keys (NumPy ``SeedSequence``: independent streams)."""
    if seed < 0:
        raise ValueError(f"seeds must be non-negative, got {seed}")
    return int(np.random.SeedSequence([int(seed), *[int(k) for k in keys]]).generate_state(1)[0])


def seat_seeds(seed: int, seats: int, *keys: int) -> list[int]:
    """The policy seed of every seat: ``derive_seed(seed, TAG_POLICY, *keys, seat)``."""
    return [derive_seed(seed, TAG_POLICY, *keys, s) for s in range(seats)]


def unique_labels(refs: Sequence[str]) -> list[str]:
    """Display labels for ``refs``: a repeated ref gets ``#2``, ``#3``..."""
    seen: dict[str, int] = {}
    out = []
    for r in refs:
        seen[r] = seen.get(r, 0) + 1
        out.append(r if seen[r] == 1 else f"{r}#{seen[r]}")
    return out


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


def pairings(policy_roles: Sequence[str], roles: Sequence[str], seat_roles: Sequence[str]) -> list[tuple[int, ...]]:
    """One cycle of a team game: every combination of one policy per role (``itertools.product``
    in role order), as the policy index per seat (a role's policy fills every seat of that role)."""
    by_role = [[i for i, r in enumerate(policy_roles) if r == role] for role in roles]
    seat_role = [list(roles).index(r) for r in seat_roles]
    return [tuple(pair[r] for r in seat_role) for pair in product(*by_role)]


def campaigns(num_policies: int) -> list[tuple[int, ...]]:
    """One cycle of a solo game: every policy once, on the same campaign."""
    return [(p,) for p in range(num_policies)]


class ScheduledGame(NamedTuple):
    """One game of a tournament: its index, the policy index per seat, the env seed, the policy seeds."""

    index: int
    seating: tuple[int, ...]
    seed: int
    policy_seeds: list[int]


def schedule(cycle: Sequence[tuple[int, ...]], games: int, seed: int, deal_every: int) -> list[ScheduledGame]:
    """At least ``games`` games: whole cycles of ``cycle``. Game ``j`` of cycle ``c`` is dealt
    ``derive_seed(seed, TAG_DEAL, c, j // deal_every)``: consecutive games of a cycle share a deal
    (the ``n`` rotations of a lineup; every pairing or policy of a team or solo game:
    ``deal_every = len(cycle)``); its seats' policies get ``seat_seeds(seed, n, i)``."""
    total = -(-games // len(cycle)) * len(cycle)
    out = []
    for i in range(total):
        c, j = divmod(i, len(cycle))
        seating = tuple(cycle[j])
        out.append(ScheduledGame(i, seating, derive_seed(seed, TAG_DEAL, c, j // deal_every), seat_seeds(seed, len(seating), i)))
    return out
