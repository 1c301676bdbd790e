"""Does it learn? Train an asymmetric or solo mythzoo game within a wall-clock budget, then judge it.

    python benchmarks/learn.py mythsgate --minutes 25 --games 400 --registry registry
    python benchmarks/learn.py mythwind_innkeeper --minutes 25 --games 1000 --registry registry

Trains with ``configs/<game>/ppo.yaml`` for ``--minutes`` (a network per role, the roles taking
turns), registers the checkpoints (the final ones get the alias ``champion``), then evaluates on
fresh seeds, every policy on the same seeds:

- an asymmetric game (Mythsgate): every invoker policy (random, heuristic, trained) against every
  hero policy (the hero policy plays all hero seats): each side's win rate and the draws (round
  cap), with 95% Wilson intervals;
- a solo game (the Innkeeper): the mean return (net coins of a campaign) of random, the heuristic
  and the trained policy with 95% intervals, and the trained policy's paired difference to the
  heuristic (target: above it).

Writes the game's section of ``docs/results.md``, ``docs/results_<game>.json`` and the learning
curve ``docs/learning_curve_<game>.png``. ``--checkpoint ROLE=REF`` (repeatable) with
``--minutes 0`` evaluates existing checkpoints instead of training.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo import envs as mz_envs
from mythzoo.policies.baselines import make_baseline
from mythzoo.training.batch_eval import evaluate_vs
from mythzoo.training.config import load_config
from mythzoo.training.ppo import UNBOUNDED_STEPS, policy_from_weights, train

from results_doc import mean_ci, update_section, wilson

ROOT = Path(__file__).resolve().parent.parent
TITLES = {"mythsgate": "Mythsgate", "mythwind_innkeeper": "Mythwind: the Innkeeper"}


def plot_curves(history: dict[str, list[dict[str, Any]]], path: Path, title: str, levels: dict[str, float] | None = None) -> None:
    """Per role: the evaluations made during training (win rates, or the mean return of a solo game),
    with horizontal reference ``levels`` (e.g. the heuristic's mean return) where given."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(history), figsize=(6 * len(history), 4), squeeze=False)
    for ax, (role, rows) in zip(axes[0], history.items()):
        steps = [h["steps"] for h in rows]
        keys = sorted({k for h in rows for k in h if k.startswith("win_rate_vs_") or k == "mean_reward"})
        for key in keys:
            ax.plot(steps, [h.get(key, np.nan) for h in rows], marker="o", label=key.replace("win_rate_vs_", "win rate vs ").replace("_", " "))
        ax.set_xlabel("learner steps")
        ax.set_title(f"{title}: {role}" if role else title)
        if any(k.startswith("win_rate") for k in keys):
            ax.set_ylim(0, 1)
            ax.set_ylabel("win rate (seats rotated)")
        else:
            ax.set_ylabel("mean return")
        for (label, y), style in zip((levels or {}).items(), (":", "--", "-.")):
            ax.axhline(y, color="gray", ls=style, lw=1.2, label=label)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def load_checkpoint(registry: Any, ref: str) -> Any:
    """A greedy numpy policy from a registry checkpoint."""
    info = registry.resolve(ref)
    return policy_from_weights(registry.load_weights(info.id), info.arch, deterministic=True, seed=0), info.id


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("env", help="mythsgate or mythwind_innkeeper")
    ap.add_argument("--minutes", type=float, default=25.0, help="training wall-clock budget (0: evaluate --checkpoint refs only)")
    ap.add_argument("--games", type=int, default=400, help="evaluation games per pairing (solo: campaigns per policy)")
    ap.add_argument("--registry", default="registry", help="registry directory")
    ap.add_argument("--checkpoint", action="append", default=[], metavar="ROLE=REF", help="evaluate this checkpoint for ROLE (with --minutes 0)")
    ap.add_argument("--pick", choices=("final", "best"), default="final",
                    help="which snapshot to judge: the last one, or the best by the periodic evaluations")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(ROOT / "docs"), help="where results.md, the JSON and the PNG go")
    ap.add_argument("overrides", nargs="*", help="config overrides key=value")
    args = ap.parse_intermixed_args()  # overrides may come before or after the options

    env_name = mz_envs.resolve(args.env)
    game = mz_envs.spec(env_name).name
    cfg = load_config(f"{game}/ppo.yaml", [f"seed={args.seed}", f"registry={args.registry}", *args.overrides])
    probe = mz_envs.make(env_name, **cfg.env_kwargs)
    roles = probe.unwrapped.roles()
    solo = len(probe.possible_agents) == 1

    from mythzoo.policies.registry import Registry

    registry = Registry(cfg.registry)
    trained: dict[str, Any] = {}
    ids: dict[str, str] = {}
    summary: dict[str, Any] = {}
    history: dict[str, list[dict[str, Any]]] = {}
    train_minutes = 0.0
    if args.minutes > 0:
        cfg.max_minutes = args.minutes
        cfg.total_timesteps = UNBOUNDED_STEPS  # the clock alone ends the run (its bar counts seconds)
        t0 = time.time()
        summary = train(cfg)
        train_minutes = (time.time() - t0) / 60
        per_role = summary["roles"] or {next(iter(roles)): summary}
        for role, r in per_role.items():
            # --pick best: the snapshot whose periodic evaluation scored highest (judged here anew
            # on fresh seeds, so picking it does not bias the figures below).
            chosen = registry.resolve(f"{r['name']}@best").id if args.pick == "best" else r["checkpoint"]
            registry.set_alias(r["name"], "champion", chosen)
            trained[role], ids[role] = load_checkpoint(registry, chosen)
            history[role if summary["roles"] else ""] = r["history"]
    for item in args.checkpoint:
        role, _, ref = item.partition("=")
        if role not in roles or not ref:
            raise SystemExit(f"--checkpoint {item!r}: use ROLE=REF with ROLE one of {sorted(roles)}")
        trained[role], ids[role] = load_checkpoint(registry, ref)
    missing = [r for r in roles if r not in trained]
    if missing:
        raise SystemExit(f"no trained policy for roles {missing}: train (--minutes > 0) or give --checkpoint ROLE=REF")

    def make_env():
        return mz_envs.make(env_name, **(cfg.eval_env_kwargs if cfg.eval_env_kwargs is not None else cfg.env_kwargs))

    env = make_env()
    base = {name: make_baseline(name, env, seed=1) for name in ("random", "heuristic")}
    seed = 90_000
    rows: list[dict[str, Any]] = []
    if solo:
        agent = env.possible_agents[0]
        returns: dict[str, list[float]] = {}
        for label, policy in (("random", base["random"]), ("heuristic", base["heuristic"]), ("trained", trained[agent if agent in trained else next(iter(trained))])):
            res = evaluate_vs(make_env, policy, policy, args.games, seed=seed, learner_agents=[agent])
            returns[label] = res["returns"]
            m, lo, hi = mean_ci(res["returns"])
            rows.append({"policy": label, "games": res["games"], "mean_return": m, "ci95": [lo, hi]})
            print(f"{label:9s}: mean return {m:.2f} [{lo:.2f}, {hi:.2f}] over {res['games']} campaigns")
        diff = np.asarray(returns["trained"]) - np.asarray(returns["heuristic"])
        dm, dlo, dhi = mean_ci(diff.tolist())
        paired = {"mean": dm, "ci95": [dlo, dhi]}
        print(f"trained - heuristic (paired, same seeds): {dm:.2f} [{dlo:.2f}, {dhi:.2f}]")
    else:
        first, second = list(roles)  # e.g. invoker, hero
        lead = roles[first][0]
        for a_label in ("random", "heuristic", "trained"):
            for b_label in ("random", "heuristic", "trained"):
                a_pol = trained[first] if a_label == "trained" else base[a_label]
                b_pol = trained[second] if b_label == "trained" else base[b_label]
                res = evaluate_vs(make_env, a_pol, b_pol, args.games, seed=seed, learner_agents=[lead])
                win = res["win_rate"]
                loss = win - res["mean_reward"]  # rewards are +1 win, -1 loss, 0 draw
                draw = max(0.0, 1.0 - win - loss)
                n = res["games"]
                rows.append({first: a_label, second: b_label, "games": n, f"{first}_wins": win, f"{second}_wins": loss, "draws": draw,
                             f"{first}_ci95": list(wilson(win, n)), f"{second}_ci95": list(wilson(loss, n))})
                print(f"{first} {a_label:9s} vs {second} {b_label:9s}: {first} {win:.3f}, {second} {loss:.3f}, draws {draw:.3f} ({n} games)")
        paired = None

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    png = out / f"learning_curve_{game}.png"
    if history:
        levels = {f"heuristic ({rows[1]['mean_return']:.1f} over {rows[1]['games']} campaigns)": rows[1]["mean_return"]} if solo else None
        plot_curves(history, png, env_name, levels)
    result = {"env": env_name, "env_kwargs": cfg.env_kwargs, "checkpoints": ids, "train_minutes": train_minutes,
              "summary": {k: v for k, v in summary.items() if k not in ("history", "roles")}, "history": history, "evaluation": rows, "paired": paired}
    (out / f"results_{game}.json").write_text(json.dumps(result, indent=2, default=str))

    cmd = f"python benchmarks/learn.py {game} --minutes {args.minutes:g} --games {args.games} --registry {args.registry}"
    cmd += f" --pick {args.pick}" if args.pick != "final" else ""
    cmd += "".join(f" {o}" for o in args.overrides)
    title = TITLES.get(mz_envs.spec(env_name).name, env_name)
    lines = [f"## {title} (`{env_name}`)", "", "Produced by:", "", "```", cmd, "```", ""]
    if summary:
        steps = ", ".join(f"{role}: {r['steps']:,}" for role, r in (summary["roles"] or {"": summary}).items())
        lines += [f"Training: masked PPO (`configs/{game}/ppo.yaml`, env arguments `{cfg.env_kwargs}`), {train_minutes:.1f} minutes on 2 CPU cores, "
                  f"learner steps {steps}; checkpoints " + ", ".join(f"`{i}` ({r})" for r, i in ids.items()) + " (alias `champion`).", ""]
    else:
        lines += ["Checkpoints evaluated: " + ", ".join(f"`{i}` ({r})" for r, i in ids.items()) + ".", ""]
    if solo:
        lines += ["Evaluation: every policy plays the same seeded campaigns; the trained policy acts greedily. "
                  "Return = net coins of the campaign (the env's default reward). 95% normal intervals.", "",
                  "| policy | campaigns | mean return | 95% interval |", "|---|---|---|---|"]
        lines += [f"| {r['policy']} | {r['games']} | {r['mean_return']:.2f} | [{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}] |" for r in rows]
        verdict = "**met**" if paired["ci95"][0] > 0 else ("not met" if paired["mean"] <= 0 else "above on average, but the interval includes 0")
        lines += ["", f"Trained minus heuristic, paired over the same campaigns: {paired['mean']:+.2f} [{paired['ci95'][0]:+.2f}, {paired['ci95'][1]:+.2f}]. "
                  f"Target (trained above the heuristic): {verdict}.", ""]
    else:
        first, second = list(roles)
        lines += [f"Evaluation: each {first} policy against each {second} policy (the {second} policy plays every {second} seat), "
                  f"the same {args.games} seeded games for every pairing; trained policies act greedily. Win rates with 95% Wilson intervals; "
                  "draws are games cut by the round cap.", "",
                  f"| {first} | {second} | games | {first} wins | {second} wins | draws |", "|---|---|---|---|---|---|"]
        for r in rows:
            a, b = r[f"{first}_ci95"], r[f"{second}_ci95"]
            lines.append(f"| {r[first]} | {r[second]} | {r['games']} | {r[f'{first}_wins']:.3f} [{a[0]:.2f}, {a[1]:.2f}] | "
                         f"{r[f'{second}_wins']:.3f} [{b[0]:.2f}, {b[1]:.2f}] | {r['draws']:.3f} |")
        lines += [""]
    if history:
        lines += [f"![learning curve]({png.name})", "", "The curve's points are the evaluations made during training "
                  f"({cfg.eval_games} games each).", ""]
    lines += [f"Raw figures: `results_{game}.json`."]
    update_section(out / "results.md", game, lines)
    print(f"wrote {out / 'results.md'} (section {game}), {out / f'results_{game}.json'}" + (f", {png}" if history else ""))


if __name__ == "__main__":
    main()
