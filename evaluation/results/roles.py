"""The result of a team game's tournament (Mythsgate): every pairing of one policy per role on the
same deals, each side's win rate with its Wilson interval, draws; each policy over its pairings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo.evaluation.records import GameRecord
from mythzoo.evaluation.report import fmt_ci, fmt_count, format_table, plot_roles
from mythzoo.evaluation.results.base import RESULT_FORMAT, Result
from mythzoo.evaluation.stats import wilson_interval

ROLES = "roles"


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
class RoleTournamentResult(Result):
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
    def deals(self) -> int:
        """Deals played by every pairing."""
        return self.games // max(1, len(self.pairings))

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
        return self._finish_dict(d, include_records)

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
                row += [f"{100 * p.win_rate(i):.1f}%", fmt_ci(*p.win_ci(i))]
            row += [f"{p.draws} ({100 * p.draws / p.games:.1f}%)" if p.games else "0"]
            if has_scores:
                row += ["-" if x is None else f"{x:.2f}" for x in p.mean_score]
            rows.append(row)
        parts = [f"pairings: {len(self.pairings)}, each on the same {self.deals} deal{'s' if self.deals != 1 else ''}",
                 format_table(rows, header, right=range(len(roles), len(header)))]
        header = ["policy", "role", "games", "wins", "win rate", "95% CI", "draws", "mean reward"] + (["mean score"] if has_scores else [])
        rows = []
        for s in self.stats:
            row = [s.label, s.role, s.games, fmt_count(s.wins), f"{100 * s.win_rate:.1f}%", fmt_ci(*s.win_ci), s.draws, f"{s.mean_reward:+.3f}"]
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


def summarise_roles(
    env_name: str, env_kwargs: dict[str, Any], seed: int, roles: dict[str, list[str]], seat_roles: Sequence[str],
    role_refs: Sequence[tuple[str, str]], labels: Sequence[str], cycle: list[tuple[int, ...]], records: Sequence[GameRecord],
    pinned: Sequence[str],
) -> RoleTournamentResult:
    """Per-pairing and per-policy statistics of a team tournament (the roles are the sides of
    :func:`~mythzoo.evaluation.outcome.outcome`; a draw is no win for either)."""
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
        result = rec.outcome(seat_roles, order=role_names)
        shares, draw = result.shares, result.draw
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
            prew[p].append(result.results[j])
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
