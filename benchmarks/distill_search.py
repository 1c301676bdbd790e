"""Search-guided targets: teach a network the choices that search over it makes.

``rollouts:W:REF`` (``mythzoo.policies.rollouts``) keeps the network ``REF``'s choices except at the
game's search points (the Innkeeper's day: the Operate choice and each hired worker's; Mythic Baths' endgame), where it
re-decides them by paired rollouts. This script is one round of expert iteration over it:

1. **Label.** Play ``--games`` seeded games with ``rollouts:W:REF`` in the learner's seat (the
   Innkeeper: the innkeeper; Mythic Baths: seat ``seed % players`` against ``--opponents``). Keep
   every searched decision (observation, mask, the search's choice, the network's choice) and a
   share (``--anchor-share``) of the learner's other decisions, labelled with the network's own
   choice, so fine-tuning keeps what search did not touch.
2. **Fine-tune.** Start from ``REF``'s actor and take ``--epochs`` passes of masked cross-entropy
   towards the labels (searched decisions weighted ``--search-weight``), on the games of all but the
   last ``--holdout`` share of the seeds; report the agreement on the held-out games.
3. **Register** the result as a child of ``REF`` (its SB3 training state updated to the same
   actor, so PPO can resume from it). Judge it with ``mythzoo eval`` like any checkpoint.

No pickle is read or written: the labels are an ``.npz`` of plain arrays (``--labels``, loaded with
``allow_pickle=False``). Labelling is the cost: a searched Innkeeper campaign takes about 17 s of one
core at 16 worlds.

    python benchmarks/distill_search.py mythwind_innkeeper --base 67d34159c98a --worlds 16 --games 300 --jobs 2 --registry registry --labels runs/distill/labels.npz
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from mythzoo.threads import one_blas_thread_here  # noqa: E402  (loads no numpy)

one_blas_thread_here()  # small products: one BLAS thread a process (mythzoo/threads.py says why)

import numpy as np

FIELDS = ("obs", "masks", "label", "base", "searched", "seed")


def label_games(game: str, env_kwargs: dict, base_ref: str, registry: str | None, worlds: int, window: int | None,
                opponents: str, anchor_share: float, seeds: list[int]) -> dict[str, np.ndarray]:
    """The labelled decisions of the learner over ``seeds`` (one game each), as arrays (``FIELDS``)."""
    import torch

    torch.set_num_threads(1)
    from mythzoo.envs import make
    from mythzoo.policies.refs import load_policy
    from mythzoo.policies.rollouts import EndgameRollouts

    rows: dict[str, list] = {k: [] for k in FIELDS}
    for seed in seeds:
        env = make(game, **env_kwargs)
        env.reset(seed=seed)
        agents = list(env.possible_agents)
        learner = agents[seed % len(agents)]
        base = load_policy(base_ref, env, registry=registry, seed=seed)
        search = EndgameRollouts(env, base, worlds, window, seed=seed)
        others = {a: load_policy(opponents, env, registry=registry, seed=seed * 31 + i) for i, a in enumerate(agents) if a != learner}
        keep = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            o, m = obs["observation"], obs["action_mask"]
            if agent != learner:
                env.step(int(others[agent].act(o, m, agent)))
                continue
            asked = search.asked
            own = int(base.act(o, m, agent))
            a = int(search.act_in_env(env, agent))
            searched = search.asked > asked
            if searched or keep.random() < anchor_share:
                for k, v in zip(FIELDS, (np.asarray(o, np.float32), np.asarray(m, np.int8), a, own, searched, seed)):
                    rows[k].append(v)
            env.step(a)
    return {k: np.asarray(v) for k, v in rows.items()}


def _label_chunk(job: tuple) -> dict[str, np.ndarray]:
    return label_games(*job)


def fine_tune(weights: dict[str, np.ndarray], arch: dict, data: dict[str, np.ndarray], train: np.ndarray, epochs: int,
              lr: float, search_weight: float, seed: int) -> dict[str, np.ndarray]:
    """``weights``' actor after ``epochs`` passes of masked cross-entropy towards ``data["label"]`` on rows ``train``."""
    import torch

    torch.manual_seed(seed)
    n_layers = len(arch["hidden"]) + 1
    layers = [torch.nn.Linear(*weights[f"layers.{i}.weight"].shape[::-1]) for i in range(n_layers)]
    with torch.no_grad():
        for i, lin in enumerate(layers):
            lin.weight.copy_(torch.as_tensor(weights[f"layers.{i}.weight"]))
            lin.bias.copy_(torch.as_tensor(weights[f"layers.{i}.bias"]))
    act = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[arch["activation"]]
    net = torch.nn.Sequential(*[m for lin in layers[:-1] for m in (lin, act())], layers[-1])
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    obs = torch.as_tensor(data["obs"][train])
    legal = torch.as_tensor(data["masks"][train].astype(bool))
    label = torch.as_tensor(data["label"][train].astype(np.int64))
    weight = torch.as_tensor(np.where(data["searched"][train], search_weight, 1.0).astype(np.float32))
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        for idx in np.array_split(rng.permutation(len(train)), max(1, len(train) // 256)):
            logits = net(obs[idx]).masked_fill(~legal[idx], -1e9)
            loss = (torch.nn.functional.cross_entropy(logits, label[idx], reduction="none") * weight[idx]).sum() / weight[idx].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
    out = dict(weights)
    for i, lin in enumerate(layers):
        w, b = lin.weight.detach().numpy().copy(), lin.bias.detach().numpy().copy()
        out[f"layers.{i}.weight"], out[f"layers.{i}.bias"] = w, b
        # the SB3 training state holds the same actor: keep it equal, so PPO resumes from this one
        sb3 = f"train.sb3.mlp_extractor.policy_net.{2 * i}" if i < n_layers - 1 else "train.sb3.action_net"
        if f"{sb3}.weight" in out:
            out[f"{sb3}.weight"], out[f"{sb3}.bias"] = w, b
    return out


def agreement(weights: dict[str, np.ndarray], arch: dict, data: dict[str, np.ndarray], rows: np.ndarray) -> float:
    """The share of ``rows`` where the network's greedy choice is the label."""
    from mythzoo.policies.neural import MLPPolicy

    if len(rows) == 0:
        return float("nan")
    net = MLPPolicy({k: v for k, v in weights.items() if k.startswith("layers.")}, arch)
    return float(np.mean(net.act_batch(data["obs"][rows], data["masks"][rows]) == data["label"][rows]))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help="a game with search points: mythwind_innkeeper or mythic_baths")
    p.add_argument("--base", required=True, help="the network to improve: a registry ref or checkpoint id")
    p.add_argument("--registry", default=None, help="registry directory (default: the user's)")
    p.add_argument("--worlds", type=int, default=16, help="sampled worlds per searched decision")
    p.add_argument("--window", type=int, default=None, help="the search window (default: the game's)")
    p.add_argument("--players", type=int, default=None, help="players at the table (Mythic Baths)")
    p.add_argument("--opponents", default="heuristic", help="the other seats' policy (Mythic Baths)")
    p.add_argument("--games", type=int, default=100, help="labelled games (seeds --seed ...)")
    p.add_argument("--seed", type=int, default=100000, help="first seed (away from the evaluation seeds, which start at 0)")
    p.add_argument("--anchor-share", type=float, default=0.1, help="share of the learner's unsearched decisions kept, labelled with its own choice")
    p.add_argument("--search-weight", type=float, default=1.0, help="loss weight of a searched decision against an anchor's")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--holdout", type=float, default=0.2, help="share of the seeds (the last ones) kept out of fine-tuning, to report on")
    p.add_argument("--jobs", type=int, default=1, help="labelling processes")
    p.add_argument("--labels", type=Path, default=None, help="save the labels here (.npz); reused if present")
    p.add_argument("--name", default=None, help="registry name of the result (default: <base name>-distilled)")
    args = p.parse_args(argv)

    from mythzoo.policies.registry import Registry

    reg = Registry(args.registry) if args.registry else Registry()
    info = reg.resolve(args.base)
    env_kwargs = {"num_players": args.players} if args.players else {}
    seeds = list(range(args.seed, args.seed + args.games))
    t0 = time.time()
    if args.labels is not None and args.labels.exists():
        with np.load(args.labels, allow_pickle=False) as z:
            data = {k: z[k] for k in FIELDS}
        print(f"labels read from {args.labels}: {len(data['label'])} decisions")
    else:
        from multiprocessing import get_context

        from mythzoo.progress import progress_bar

        # One task per game, so the bar moves as games end; the rows are put back in seed order.
        jobs = [(args.game, env_kwargs, info.id, args.registry, args.worlds, args.window, args.opponents, args.anchor_share, [seed])
                for seed in seeds]
        parts = []
        with progress_bar(len(jobs), "labelling", "game") as bar:
            if args.jobs <= 1:
                for job in jobs:
                    parts.append(_label_chunk(job))
                    bar.update(1)
            else:
                with get_context("spawn").Pool(args.jobs) as pool:
                    for part in pool.imap_unordered(_label_chunk, jobs):
                        parts.append(part)
                        bar.update(1)
        data = {k: np.concatenate([part[k] for part in parts]) for k in FIELDS}
        order = np.argsort(data["seed"], kind="stable")
        data = {k: v[order] for k, v in data.items()}
        if args.labels is not None:
            args.labels.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(args.labels, **data)
        print(f"labelled {args.games} games in {time.time() - t0:.0f} s")
    order = np.argsort(data["seed"], kind="stable")  # rows in seed order, however the labelling was split
    data = {k: v[order] for k, v in data.items()}  # (labels saved by a split run in another order)
    searched, changed = data["searched"].astype(bool), data["label"] != data["base"]
    cut = seeds[int(round(len(seeds) * (1 - args.holdout)))] if args.holdout > 0 else seeds[-1] + 1
    train, held = np.flatnonzero(data["seed"] < cut), np.flatnonzero(data["seed"] >= cut)
    print(f"decisions: {searched.sum()} searched ({changed.sum()} changed by search, {changed.sum() / max(1, len(seeds)):.2f} a game), "
          f"{(~searched).sum()} anchors; fine-tuning on seeds < {cut} ({len(train)} rows), holding out {len(held)}")
    weights, arch = reg.load_weights(info.id), dict(info.arch)
    tuned = fine_tune(weights, arch, data, train, args.epochs, args.lr, args.search_weight, args.seed)
    for label, rows in (("train", train), ("held out", held)):
        for what, sel in (("searched", searched), ("changed by search", changed), ("anchors", ~searched)):
            r = rows[sel[rows]]
            print(f"  {label:8} {what:17} {len(r):6} rows: agreement {agreement(weights, arch, data, r):.3f} -> {agreement(tuned, arch, data, r):.3f}")
    name = args.name or f"{info.name}-distilled"
    env_probe = __import__("mythzoo.envs", fromlist=["make"]).make(args.game, **env_kwargs)
    new = reg.register(name, tuned, arch, env_spec=env_probe.unwrapped, algo=info.algo, steps=info.steps, parent=info.id,
                       tags=["search-distilled"], role=info.role,
                       metrics={"distilled_from": f"rollouts:{args.worlds}{'' if args.window is None else f'w{args.window}'}:{info.id}",
                                "labelled_games": args.games, "first_seed": args.seed, "searched": int(searched.sum()),
                                "changed": int(changed.sum()), "anchors": int((~searched).sum()), "epochs": args.epochs, "lr": args.lr,
                                "search_weight": args.search_weight})
    print(f"registered {new.name}:{new.version} ({new.id}), parent {info.id}; {time.time() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
