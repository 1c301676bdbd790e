"""The result of a solo game's evaluation (Mythwind Innkeeper): every policy on the same campaigns,
mean return and score with Student-t intervals, paired differences against the first policy."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mythzoo.evaluation.records import GameRecord
from mythzoo.evaluation.report import fmt_ci, fmt_float, format_table, plot_solo
from mythzoo.evaluation.results.base import RESULT_FORMAT, Result, nan_none
from mythzoo.evaluation.stats import mean_interval

SOLO = "solo"


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
class SoloResult(Result):
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
    def campaigns(self) -> int:
        return self.games // max(1, len(self.labels))

    @property
    def cycle(self) -> list[tuple[int, ...]]:
        return [(p,) for p in range(len(self.labels))]

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
                 "return_ci95": [nan_none(x) for x in s.return_ci], "sd_return": nan_none(s.sd_return),
                 "mean_score": s.mean_score, "score_ci95": None if s.score_ci is None else [nan_none(x) for x in s.score_ci],
                 "sd_score": nan_none(s.sd_score),
                 "diff_vs_first": None if s.diff is None else {"against": first, "mean": s.diff,
                                                               "ci95": [nan_none(x) for x in s.diff_ci or (math.nan, math.nan)]},
                 "truncated": s.truncated, "illegal": s.illegal}
                for s in self.stats
            ],
        }
        return self._finish_dict(d, include_records)

    def table(self) -> str:
        """Mean return (and score) with 95% t intervals, and the paired difference against the first policy."""
        has_scores = any(s.mean_score is not None for s in self.stats)
        first = self.labels[0]
        header = ["policy", "games", "mean return", "95% CI", "sd"]
        header += ["mean score", "95% CI", "sd"] if has_scores else []
        header += [f"return - {first}", "95% CI (paired)"]
        rows = []
        for s in self.stats:
            row: list[object] = [s.label, s.games, f"{s.mean_return:.2f}", fmt_ci(*s.return_ci, pct=False), fmt_float(s.sd_return)]
            if has_scores:
                row += ["-" if s.mean_score is None else f"{s.mean_score:.2f}", fmt_ci(*(s.score_ci or (math.nan, math.nan)), pct=False),
                        fmt_float(s.sd_score)]
            row += ["-" if s.diff is None else f"{s.diff:+.2f}", "-" if s.diff_ci is None else fmt_ci(*s.diff_ci, pct=False)]
            rows.append(row)
        return f"{self.campaigns} campaign{'s' if self.campaigns != 1 else ''}, the same for every policy\n" + format_table(rows, header, right=range(1, len(header)))

    def plot(self, path: str | Path) -> None:
        """A PNG: the distribution of returns per policy (box plot and points, mean with its 95% t
        interval) and the paired differences against the first policy."""
        plot_solo(self, path)


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
