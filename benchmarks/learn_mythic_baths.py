"""Does it learn? Train on Mythic Baths (2 players) within a wall-clock budget, then judge the result.

    python benchmarks/learn_mythic_baths.py --minutes 30 --registry registry

Trains with ``configs/mythic_baths/ppo.yaml`` for ``--minutes`` (2 CPU cores), registers the
checkpoints (the final one gets the alias ``champion``), evaluates the final policy over
``--games`` games with seats rotated against random and against the heuristic (targets: >= 95%
and >= 60%), and in 3 and 4 players against heuristic opponents; writes the learning curve PNG
and the table into its section of ``docs/results.md``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from mythzoo import envs as mz_envs
from mythzoo.policies.baselines import make_baseline
from mythzoo.training.batch_eval import evaluate_vs
from mythzoo.training.config import load_config
from mythzoo.training.ppo import UNBOUNDED_STEPS, policy_from_weights, train

from results_doc import update_section, wilson

ROOT = Path(__file__).resolve().parent.parent
ENV = mz_envs.spec("mythic_baths").env_name  # the current version, e.g. mythic_baths_v1


def plot_curve(history: list[dict], path: Path) -> None:
    """Win rate against each baseline over training steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [h["steps"] for h in history]
    for key, label in (("win_rate_vs_random", "vs random"), ("win_rate_vs_heuristic", "vs heuristic")):
        if any(key in h for h in history):
            ax.plot(steps, [h.get(key, np.nan) for h in history], marker="o", label=label)
    ax.axhline(0.95, color="tab:blue", ls=":", lw=1)
    ax.axhline(0.60, color="tab:orange", ls=":", lw=1)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (seats rotated)")
    ax.set_ylim(0, 1)
    ax.set_title("Mythic Baths, 2 players: masked PPO self-play")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="training wall-clock budget")
    ap.add_argument("--games", type=int, default=1000, help="evaluation games per baseline (2 players)")
    ap.add_argument("--multi-games", type=int, default=300, help="evaluation games for 3 and 4 players")
    ap.add_argument("--registry", default=None, help="registry directory")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(ROOT / "docs"), help="where results.md and the PNG go")
    ap.add_argument("overrides", nargs="*", help="config overrides key=value")
    args = ap.parse_intermixed_args()  # overrides may come before or after the options

    cfg = load_config("mythic_baths/ppo.yaml", [f"seed={args.seed}", f"max_minutes={args.minutes}", f"total_timesteps={UNBOUNDED_STEPS}", *args.overrides])
    if args.registry:
        cfg.registry = args.registry
    cfg.name = cfg.name or f"{ENV}-ppo"
    t0 = time.time()
    summary = train(cfg)
    train_minutes = (time.time() - t0) / 60

    from mythzoo.policies.registry import Registry

    registry = Registry(cfg.registry) if cfg.registry != "none" else None
    weights, arch = None, None
    if registry is not None and summary["checkpoint"]:
        registry.set_alias(cfg.name, "champion", summary["checkpoint"])
        weights = registry.load_weights(summary["checkpoint"])
        arch = registry.resolve(summary["checkpoint"]).arch
    learner = policy_from_weights(weights, arch, deterministic=True, seed=0)

    rows = []
    for players, baseline, games in ((2, "random", args.games), (2, "heuristic", args.games), (3, "heuristic", args.multi_games), (4, "heuristic", args.multi_games)):
        def make_env(p=players):
            return mz_envs.make("mythic_baths", num_players=p)

        opp = make_baseline(baseline, make_env(), seed=1)
        res = evaluate_vs(make_env, learner, opp, games, seed=50_000 + players * 10_000)
        lo, hi = wilson(res["win_rate"], res["games"])
        rows.append({"players": players, "opponents": baseline, "games": res["games"], "win_rate": res["win_rate"], "ci95": [lo, hi], "chance": 1 / players})
        print(f"{players}p vs {baseline:9s}: win rate {res['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] over {res['games']} games (chance {1 / players:.2f})")

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    png = out / "learning_curve_mythic_baths.png"
    plot_curve(summary["history"], png)
    result = {"summary": {k: v for k, v in summary.items() if k != "history"}, "history": summary["history"], "evaluation": rows, "train_minutes": train_minutes}
    (out / "results_mythic_baths.json").write_text(json.dumps(result, indent=2, default=str))
    lines = [
        f"## Mythic Baths (`{ENV}`)",
        "",
        "Produced by:",
        "",
        "```",
        f"python benchmarks/learn_mythic_baths.py --minutes {args.minutes:g} --games {args.games} --multi-games {args.multi_games}" + (f" --registry {args.registry}" if args.registry else ""),
        "```",
        "",
        f"Training: masked PPO self-play (`configs/mythic_baths/ppo.yaml`), {train_minutes:.1f} minutes on 2 CPU cores"
        + (f" (the warm start included: imitating `{cfg.pretrain_teacher}` on {cfg.pretrain_games} of its games)" if cfg.pretrain_teacher else "")
        + ", "
        f"{summary['steps']:,} learner steps ({summary['steps_per_second']:.0f}/s, evaluations included), checkpoint `{summary['checkpoint']}` "
        f"(alias `champion` of `{cfg.name}` in the registry).",
        "",
        "Evaluation: the final policy acting greedily (argmax over legal actions), seats rotated, fresh seeds; "
        "win rate counts a shared win as 1/k; 95% Wilson intervals. Targets (2 players): >= 95% against random, >= 60% against the heuristic.",
        "",
        "| players | opponents | games | win rate | 95% interval | chance |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['players']} | {r['opponents']} | {r['games']} | {r['win_rate']:.3f} | [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] | {r['chance']:.2f} |")
    lines += [
        "",
        f"![learning curve]({png.name})",
        "",
        "Raw figures: `results_mythic_baths.json`.",
        "",
        "### Play against it",
        "",
        "The champion ships in the repository as a registry export (weights and spec, hashes checked on import):",
        "",
        "```sh",
        f"mythzoo registry import checkpoints/{ENV}-ppo-champion.tar",
        f"mythzoo play mythic_baths --vs {summary['checkpoint']}",
        f"mythzoo eval mythic_baths {summary['checkpoint']} heuristic random --games 300",
        "```",
    ]
    update_section(out / "results.md", "mythic_baths", lines)  # the other games' sections stay
    print(f"wrote {out / 'results.md'} (section mythic_baths) and {png}")


if __name__ == "__main__":
    main()
