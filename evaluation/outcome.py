"""Who won: the one definition of win shares, ranks and side results from a game's final rewards.

A *side* is what wins or loses together: each seat of a free-for-all, a team (``agent_team``:
teammates are one side) or a role of a team game. A side's result is its seats' final reward (the
mean when they differ, e.g. after one teammate's illegal move). The sides with the best result
share the win: each of k such sides gets 1/k. When every side has the same result (the turn cap:
all rewards 0) the game is a *draw*: nobody wins (``draws=True``: team games, ``mythzoo demo``,
the training evaluation), or, in the seat-balanced tournament of a symmetric game
(``draws=False``), every side shares the win. A solo game has one side, so it is never won.
Ranks are competition ranks of the side results: 1 + the number of sides with a better result.

Self-play's opponent weighting reads a finished game from the sign of the learner's return
(:func:`score_from_return`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Outcome:
    """One finished game's result per side (``sides`` in order), and which side each seat is on."""

    sides: tuple[Hashable, ...]
    results: tuple[float, ...]  # per side: its seats' final reward (the mean if they differ)
    shares: tuple[float, ...]  # per side: its share of the win
    ranks: tuple[int, ...]  # per side: competition rank (1 = best; tied sides share a rank)
    draw: bool  # every side has the same result
    seat_sides: tuple[int, ...]  # per seat: the index of its side

    def seat_shares(self) -> list[float]:
        """Each seat's share of the win: its side's share."""
        return [self.shares[i] for i in self.seat_sides]

    def seat_ranks(self) -> list[int]:
        """Each seat's rank: its side's rank."""
        return [self.ranks[i] for i in self.seat_sides]

    def share(self, side: Hashable) -> float:
        """The share of the win of ``side``."""
        return self.shares[self.sides.index(side)]


def outcome(
    final_rewards: Sequence[float],
    sides: Sequence[Hashable] | None = None,
    *,
    order: Sequence[Hashable] | None = None,
    draws: bool = True,
) -> Outcome:
    """The :class:`Outcome` of a game from each seat's final reward.

    ``sides``: the side of each seat (a team or role name; ``None``: every seat is its own side,
    named by its index). ``order``: the sides in the order wanted (default: first seen).
    ``draws``: whether an all-way tie is a draw (no win) or a win shared by every side."""
    rewards = [float(r) for r in final_rewards]
    labels: list[Hashable] = list(range(len(rewards))) if sides is None else list(sides)
    if len(labels) != len(rewards):
        raise ValueError(f"{len(rewards)} final rewards but {len(labels)} sides")
    names = tuple(dict.fromkeys(labels) if order is None else order)
    index = {s: i for i, s in enumerate(names)}
    members: list[list[float]] = [[] for _ in names]
    for r, s in zip(rewards, labels):
        members[index[s]].append(r)
    results = tuple(_side_result(m) for m in members)
    best = max(results)
    top = [x == best for x in results]
    draw = all(top)
    if draw and draws:
        shares = tuple(0.0 for _ in results)
    else:
        shares = tuple(1.0 / sum(top) if t else 0.0 for t in top)
    ranks = tuple(1 + sum(o > x for o in results) for x in results)
    return Outcome(names, results, shares, ranks, draw, tuple(index[s] for s in labels))


def _side_result(values: list[float]) -> float:
    """The side's reward: the one its seats share, else their mean."""
    if not values:
        raise ValueError("a side without seats")
    first = values[0]
    return first if all(v == first for v in values) else float(np.mean(values))


def score_from_return(ret: float) -> float:
    """A learner's result read from the sign of its return in a zero-sum game: 1 (won), 0.5 (drew),
    0 (lost). Every reward mode keeps the sign of the result, so self-play reads games this way."""
    return 1.0 if ret > 0 else 0.5 if ret == 0 else 0.0
