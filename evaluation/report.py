"""What a person reads: the one monospace table, and the PNG plots of the three kinds of result.

matplotlib (the ``tools`` extra, Agg backend) is imported only when a plot is drawn. What each
plot shows is in ``docs/evaluation.md``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mythzoo.evaluation.ratings import ANCHOR_MU
from mythzoo.text import format_table  # the results modules take it from here

if TYPE_CHECKING:
    from mythzoo.evaluation.results import RoleTournamentResult, SoloResult, TournamentResult


def _plt() -> Any:
    from mythzoo.extras import import_optional

    matplotlib = import_optional("matplotlib", "plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, path: str | Path) -> None:
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def format_env_kwargs(env_kwargs: dict[str, Any] | None) -> str:
    """Env arguments as words for a title: ``{'num_heroes': 2}`` -> ``2 heroes``; other keys as
    ``key=value``; no arguments -> ``""``."""
    parts = []
    for key, value in (env_kwargs or {}).items():
        if key.startswith("num_") and isinstance(value, int) and not isinstance(value, bool):
            noun = key[4:].replace("_", " ")
            if value == 1:  # singular: heroes -> hero, players -> player
                noun = noun[:-2] if noun.endswith("oes") else noun[:-1] if noun.endswith("s") else noun
            parts.append(f"{value} {noun}")
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)


def opponent_split(result: Any, label: str) -> list[tuple[str, float, int]]:
    """A policy's win rate split by opponent, as (opponent, win rate, games): a symmetric
    tournament's cross-play row, or an asymmetric one's pairings (the other roles' policies)."""
    if hasattr(result, "pairings"):
        out = []
        for p in result.pairings:
            if label in p.policies:
                r = list(p.policies).index(label)
                others = " + ".join(q for k, q in enumerate(p.policies) if k != r)
                out.append((others, float(p.win_rate(r)), int(p.games)))
        return out
    i = result.labels.index(label)
    return [(result.labels[j], float(result.cross_play[i][j]), int(result.cross_games[i][j]))
            for j in range(len(result.labels)) if j != i and result.cross_play[i][j] is not None]


# A light box under the per-opponent split: the text stays readable where it crosses the fair-share
# line, the bars and the grid.
_UNDER_TEXT = {"boxstyle": "square,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85}


def _split_text(split: list[tuple[str, float, int]], width: int = 60) -> str:
    """``vs a 97%, vs b 3%`` wrapped to lines of ``width`` characters."""
    import textwrap

    return "\n".join(textwrap.wrap(", ".join(f"vs {o} {100 * w:.0f}%" for o, w, _ in split), width))


def _wrap(label: str, width: int = 18) -> str:
    """A tick label on lines of ``width`` characters (breaking at ``:``/``@`` too), so long refs do not overlap."""
    import textwrap

    return "\n".join(textwrap.wrap(label.replace(":", ": ").replace("@", " @"), width)).replace(": ", ":").replace(" @", "@") or label


def _ink(cmap: Any, norm: Any, value: float) -> str:
    """Black or white text, whichever contrasts with the cell colour (by its luminance)."""
    r, g, b, _ = cmap(norm(value))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def plot_result(result: TournamentResult, path: str | Path) -> None:
    """Write the tournament's PNG (see :meth:`TournamentResult.plot`)."""
    plt = _plt()
    from matplotlib.colors import TwoSlopeNorm

    stats = sorted(result.stats, key=lambda s: s.mu)  # best at the top of a horizontal chart
    k = len(stats)
    heat = k > 2
    bars_h = max(2.6, 0.8 * k + 1.4)
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
    ax.set_yticks(y, [_wrap(n, 24) for n in names])
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
        ax.errorbar(s.win_rate, i, xerr=[[max(0.0, s.win_rate - lo)], [max(0.0, hi - s.win_rate)]], fmt="o", color=colors[i], capsize=4, lw=2)
        left = s.win_rate < 0.5
        ax.annotate(f"{100 * s.win_rate:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}%] of {s.games}", (s.win_rate, i), textcoords="offset points",
                    xytext=(6 if left else -6, 9), ha="left" if left else "right", fontsize=8)
        split = opponent_split(result, s.label)  # the overall rate with its parts: 97% + 3% is not "fair"
        if split:
            ax.annotate(_split_text(split, 70), (0.01, i), textcoords="offset points", xytext=(0, -10), ha="left", va="top", fontsize=7, color="#444444",
                        bbox=_UNDER_TEXT, zorder=5)
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
        norm = TwoSlopeNorm(vmin=0.0, vcenter=fair, vmax=1.0)
        im = ax.imshow(m, cmap=cmap, norm=norm)
        cell = 8 if k <= 6 else 6  # the text stays inside its cell as the grid grows
        for a, i in enumerate(order):
            for b, j in enumerate(order):
                if not np.isnan(m[a, b]):
                    ax.text(b, a, f"{100 * m[a, b]:.0f}%\n({result.cross_games[i][j]})", ha="center", va="center", fontsize=cell,
                            color=_ink(cmap, norm, m[a, b]))
        ax.set_xticks(range(k), [_wrap(x) for x in labs], rotation=30, ha="right")
        ax.set_yticks(range(k), [_wrap(x) for x in labs])
        ax.set_xlabel("opponent (column)")
        ax.set_ylabel("policy (row)")
        ax.set_title("Cross-play: row's win rate in games with column (row's seats)", fontsize=10)
        bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.02)
        bar.set_label(f"win rate (white = fair {100 * fair:.0f}%)", fontsize=8)

    fig.suptitle(f"{result.env}, {result.num_players} players: {result.games} games, seed {result.seed}", fontsize=11)
    _save(plt, fig, path)


def plot_roles(result: RoleTournamentResult, path: str | Path) -> None:
    """Write an asymmetric tournament's PNG (see :meth:`RoleTournamentResult.plot`)."""
    plt = _plt()
    roles = list(result.roles)
    heat = len(roles) == 2
    fig, axes = plt.subplots(1, 2 if heat else 1, figsize=(15 if heat else 9, max(4.0, 0.9 * len(result.stats) + 2)), squeeze=False)
    if heat:
        rows = [s.label for s in result.stats if s.role == roles[0]]
        cols = [s.label for s in result.stats if s.role == roles[1]]
        m = np.full((len(rows), len(cols)), np.nan)
        ax = axes[0][0]
        from matplotlib.colors import Normalize

        cmap, norm = plt.get_cmap("RdBu"), Normalize(0.0, 1.0)
        for p in result.pairings:
            i, j = rows.index(p.policies[0]), cols.index(p.policies[1])
            m[i, j] = p.win_rate(0)
            lo, hi = p.win_ci(0)
            ax.text(j, i, f"{roles[0]} {100 * p.win_rate(0):.0f}% [{100 * lo:.0f}-{100 * hi:.0f}]\n{roles[1]} {100 * p.win_rate(1):.0f}%"
                    f"\ndraws {100 * p.draws / max(1, p.games):.0f}%  (n={p.games})", ha="center", va="center", fontsize=7,
                    color=_ink(cmap, norm, p.win_rate(0)))
        im = ax.imshow(m, cmap=cmap, norm=norm)
        ax.set_xticks(range(len(cols)), [_wrap(c) for c in cols], rotation=30, ha="right")
        ax.set_yticks(range(len(rows)), [_wrap(r) for r in rows])
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
        ax.errorbar(s.win_rate, i, xerr=[[max(0.0, s.win_rate - lo)], [max(0.0, hi - s.win_rate)]], fmt="o", color=color, capsize=4, lw=2)
        left = s.win_rate < 0.5
        ax.annotate(f"{100 * s.win_rate:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}%], draws {s.draws} of {s.games}", (s.win_rate, i),
                    textcoords="offset points", xytext=(6 if left else -6, 9), ha="left" if left else "right", fontsize=8)
        split = opponent_split(result, s.label)  # the overall rate with its parts, one per opposing policy
        if split:
            ax.annotate(_split_text(split), (0.01, i), textcoords="offset points", xytext=(0, -10), ha="left", va="top", fontsize=7, color="#444444",
                        bbox=_UNDER_TEXT, zorder=5)
    ax.set_yticks(range(len(stats)), [_wrap(s.label, 24) for s in stats])
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate over all pairings, 95% Wilson interval (draws count as no win)")
    ax.set_title("Each policy, by role", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{result.env}{' (' + format_env_kwargs(result.env_kwargs) + ')' if result.env_kwargs else ''}: {result.games} games ({result.deals} deals x {len(result.pairings)} pairings), "
                 f"seed {result.seed}", fontsize=11)
    _save(plt, fig, path)


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
    fig.suptitle(f"{result.env}{' (' + format_env_kwargs(result.env_kwargs) + ')' if result.env_kwargs else ''}: {result.campaigns} campaigns per policy, seed {result.seed}", fontsize=11)
    _save(plt, fig, path)


# --------------------------------------------------------------------- cells of the tables
def fmt_count(x: float) -> str:
    """A win count: ``3``, or ``2.50`` when shared wins made it fractional."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def fmt_ci(lo: float, hi: float, pct: bool = True) -> str:
    """An interval as ``12.3-45.6%`` (``pct``) or ``-1.20 to 3.40``; ``-`` when unbounded (nan)."""
    if math.isnan(lo):
        return "-"
    return f"{100 * lo:.1f}-{100 * hi:.1f}%" if pct else f"{lo:.2f} to {hi:.2f}"


def fmt_float(x: float | None) -> str:
    """``1.23``, or ``-`` for a missing or nan value."""
    return "-" if x is None or math.isnan(x) else f"{x:.2f}"
