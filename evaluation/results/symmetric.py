"""The result of a symmetric game's seat-balanced tournament: per-policy win rates with Wilson
intervals, scores, OpenSkill ratings, the cross-play matrix and the seat win rates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo.evaluation.ratings import ANCHOR_MU, ANCHOR_SIGMA, MODEL_MU, MODEL_SIGMA, rate_games
from mythzoo.evaluation.records import GameRecord
from mythzoo.evaluation.report import fmt_count, format_table, plot_result
from mythzoo.evaluation.results.base import RESULT_FORMAT, Result
from mythzoo.evaluation.stats import wilson_interval


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
class TournamentResult(Result):
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
        return self._finish_dict(d, include_records)

    def table(self) -> str:
        """The plain aligned leaderboard (by rating), the cross-play matrix for more than two
        policies, and the seat win rates."""
        has_scores = any(s.mean_score is not None for s in self.stats)
        header = ["policy", "games", "wins", "win rate", "95% CI", "mean reward"]
        header += ["mean score", "score sd"] if has_scores else []
        header += ["mu", "sigma", "mu-2sigma"]
        rows = []
        for s in sorted(self.stats, key=lambda s: -s.mu):
            row: list[object] = [s.label + (" (anchor)" if s.anchor else ""), s.games, fmt_count(s.wins), f"{100 * s.win_rate:.1f}%",
                                 f"{100 * s.win_ci[0]:.1f}-{100 * s.win_ci[1]:.1f}%", f"{s.mean_reward:+.3f}"]
            if has_scores:
                row += ["-" if s.mean_score is None else f"{s.mean_score:.2f}", "-" if s.sd_score is None else f"{s.sd_score:.2f}"]
            row += [f"{s.mu:.2f}", f"{s.sigma:.2f}", f"{s.mu - 2 * s.sigma:.2f}"]
            rows.append(row)
        parts = [format_table(rows, header, right=range(1, len(header)))]
        if len(self.labels) > 2:
            head = ["win rate (row vs column)"] + self.labels
            mrows = [[lab] + ["-" if v is None else f"{100 * v:.1f}%" for v in row] for lab, row in zip(self.labels, self.cross_play)]
            parts += ["", format_table(mrows, head, right=range(1, len(head)))]
        seats = ", ".join(f"seat {i}: {100 * w:.1f}%" for i, w in enumerate(self.seat_win_rate))
        parts += ["", f"wins by seat (fair: {100 / self.num_players:.1f}%): {seats}"]
        return "\n".join(parts)

    def _record_policy(self, reg: Any, s: PolicyStats, summary: dict[str, Any]) -> str:
        """``record_rating(id, mu=, sigma=, games=, num_players=, env_name=)`` and
        ``record_eval(id, summary, name="eval <env> <n>p")``."""
        reg.record_rating(s.played_as, mu=s.mu, sigma=s.sigma, games=s.games, num_players=self.num_players, env_name=self.env)
        reg.record_eval(s.played_as, {**summary, "policy": s.label}, name=f"eval {self.env} {self.num_players}p")
        return f"{s.ref} ({s.played_as}): rating mu {s.mu:.2f} sigma {s.sigma:.2f} and eval result recorded"

    def plot(self, path: str | Path) -> None:
        """A PNG: ratings mu ± 2 sigma, win rates with 95% Wilson intervals, and the cross-play
        heatmap when there are more than two policies (matplotlib, Agg backend)."""
        plot_result(self, path)


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
