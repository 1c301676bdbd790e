"""The harness's inputs and outputs: what it knows of a game (:class:`Target`), how often its
checks run (:class:`Options`), and what it found (:class:`Report`, one :class:`Failure` per example).
The checks themselves are in ``harness.py``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Target:
    """What the harness needs to know about one game (``conformance.games.target(spec)`` builds it).

    ``make_raw(**env_kwargs)`` builds the raw env (illegal actions raise IllegalActionError).
    ``hidden_view(game, seat)``: the parts of a ``get_state()["game"]`` dict hidden from ``seat``
    that a resample is expected to redraw (None: skip the "resample changes something" check).
    ``perturb_hidden(game, seat, rng)``: a modified copy of ``game`` differing only in a part
    hidden from ``seat``, as ``(game, seat_whose_own_view_changes)`` or None when no such change
    is possible now (None hook: skip the leak check).
    ``utility``: the spec's utility class; ``decision_bound(env_kwargs)``: the spec's declared most
    decisions of one game (``GameSpec.decision_bound``; None when undeclared).
    """

    name: str
    make_raw: Callable[..., Any]
    hidden_view: Callable[[dict, int], Any] | None = None
    perturb_hidden: Callable[[dict, int, np.random.Generator], tuple[dict, int | None] | None] | None = None
    utility: str = "general_sum"
    decision_bound: Callable[[dict], int | None] | None = None


# Without a declared max_decisions, the agent iterations allowed per turn of the cap: generous
# (a Mythsgate round is a few hundred decisions), it only has to stop a loop inside a turn.
FALLBACK_DECISIONS_PER_TURN = 2000


@dataclass
class Options:
    """How often the expensive checks run (1 = every step). See the module docstring."""

    exact_every: int = 2
    env_exact_every: int = 50
    illegal_samples: int = 3
    hidden_every: int = 5
    fork_every: int = 60
    compare_every: int = 25
    max_examples: int = 3

    @classmethod
    def thorough(cls) -> Options:
        """Every per-step check at every step (about 3x slower); forks and env-level copies more often."""
        return cls(exact_every=1, env_exact_every=10, illegal_samples=8, hidden_every=1, fork_every=20, compare_every=5)


@dataclass
class Failure:
    category: str
    where: str
    message: str


@dataclass
class Report:
    """What a run did and every failure found, by category."""

    games: int = 0
    steps: int = 0
    terminated: int = 0
    truncated: int = 0
    abandoned: int = 0
    seconds: float = 0.0
    failures: dict[str, list[Failure]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    max_examples: int = 3
    reward_sums: list[float] = field(default_factory=list)  # per game, for a constant-sum utility

    @property
    def ok(self) -> bool:
        return not self.counts

    def add(self, category: str, where: str, message: str) -> None:
        self.counts[category] = self.counts.get(category, 0) + 1
        lst = self.failures.setdefault(category, [])
        if len(lst) < self.max_examples:
            lst.append(Failure(category, where, message))

    def merge(self, other: Report) -> None:
        self.games += other.games
        self.steps += other.steps
        self.terminated += other.terminated
        self.truncated += other.truncated
        self.abandoned += other.abandoned
        self.seconds += other.seconds
        self.reward_sums += other.reward_sums
        for cat, n in other.counts.items():
            self.counts[cat] = self.counts.get(cat, 0) + n
            lst = self.failures.setdefault(cat, [])
            lst.extend(other.failures.get(cat, [])[: max(0, self.max_examples - len(lst))])

    def stats(self) -> str:
        return (
            f"{self.games} games, {self.steps} steps, {self.terminated} terminated, {self.truncated} truncated, "
            f"{self.abandoned} abandoned, {self.seconds:.1f}s"
        )

    def summary(self) -> str:
        lines = [self.stats()]
        if self.ok:
            lines.append("no failures")
        for cat in sorted(self.counts):
            lines.append(f"FAIL [{cat}] x{self.counts[cat]}")
            for f in self.failures.get(cat, []):
                lines.append(f"    at {f.where}: {f.message}")
        return "\n".join(lines)
