"""Carry a checkpoint to the next version of its env when that version only added observation pieces.

    python benchmarks/carry_checkpoint.py checkpoints/mythsgate_v1-ppo-hero-champion.tar.gz \\
        --env mythsgate --new-piece ability_minion --name mythsgate_v2-ppo-hero --registry registry

A network's first layer reads the observation column by column. When a new version inserts pieces
and changes nothing else, the old columns are the new layout's features less the new pieces', in
the same order; every input weight matrix (the actor's, the critic's) is widened with **zero**
columns for the new features. The carried network therefore plays the new env exactly as the old
one played the old env (the new inputs start ignored) and training resumed from it learns to use
them (the net2net idea: start the larger network at the function of the smaller). The archive is
imported into ``--registry`` (safetensors and JSON only) and the carried checkpoint is registered
there with the old one as its parent, tagged ``carried:<old env>``.

Checked before anything is written: the archive holds one root checkpoint for this game, its input
size is the new size less the new pieces', and the carried network's logits on a sample of new
observations equal the old network's on the same observations with the new pieces cut out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from mythzoo import envs as mz_envs
from mythzoo.policies.neural import build_policy
from mythzoo.policies.registry import Registry


def old_columns(new_features: list[str], new_pieces: list[str]) -> np.ndarray:
    """Indices, in the new observation, of the features the old version had (its columns, in order)."""
    prefixes = tuple(f"{p}[" for p in new_pieces)
    return np.array([i for i, f in enumerate(new_features) if not (f in new_pieces or f.startswith(prefixes))], dtype=np.int64)


def widen_inputs(weights: dict[str, np.ndarray], old_size: int, keep: np.ndarray, new_size: int) -> dict[str, np.ndarray]:
    """Every 2-D tensor that reads the observation (``shape[1] == old_size``) gets zero columns for
    the new features (columns outside ``keep``); the other tensors are copied unchanged."""
    if len(keep) != old_size:
        raise ValueError(f"the old network reads {old_size} features; the new layout less the new pieces has {len(keep)}")
    out = {}
    for k, w in weights.items():
        w = np.asarray(w)
        if w.ndim == 2 and w.shape[1] == old_size:
            wide = np.zeros((w.shape[0], new_size), dtype=w.dtype)
            wide[:, keep] = w
            out[k] = wide
        else:
            out[k] = w.copy()
    return out


def main(argv: list[str] | None = None) -> int:
    """Import, widen, check, register; prints the new checkpoint's id."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("archive", help="an exported checkpoint (.tar or .tar.gz) of the old version")
    p.add_argument("--env", required=True, help="the game (its current version is the target)")
    p.add_argument("--new-piece", action="append", required=True, help="an observation piece the new version added (repeatable)")
    p.add_argument("--name", required=True, help="registry name of the carried checkpoint")
    p.add_argument("--registry", required=True, help="registry folder (created if missing)")
    args = p.parse_args(argv)
    spec = mz_envs.spec(args.env)
    probe = spec.make()
    probe.reset(seed=0)
    known = {name for a in probe.possible_agents for name in probe.unwrapped.observation_layout(a).by_name}
    unknown = [x for x in args.new_piece if x not in known]
    if unknown:  # refused before the registry is touched
        p.error(f"{spec.env_name} has no observation piece {unknown[0]!r}")
    reg = Registry(args.registry)
    root = reg.import_(args.archive)[-1]
    info = reg.resolve(root.id)
    if not info.env_name.startswith(spec.name + "_v") or info.env_name == spec.env_name:
        p.error(f"{args.archive} holds a checkpoint of {info.env_name}, not of an older {spec.name}")
    env_config = dict(reg.spec(info.id)["env"]["config"])
    kwargs = {k: v for k, v in env_config.items() if k != "data"}
    env = spec.make(**kwargs)
    env.reset(seed=0)
    agent = next(a for a in env.possible_agents if info.role is None or a.startswith(info.role))
    layout = env.unwrapped.observation_layout(agent)
    keep = old_columns(layout.features(), args.new_piece)
    old_size, new_size = int(info.arch["obs_size"]), layout.size
    weights = widen_inputs(reg.load_weights(info.id), old_size, keep, new_size)
    arch: dict[str, Any] = {**info.arch, "obs_size": new_size}
    # The check: the same logits on observations of the new env, the old network reading its columns.
    old_net = build_policy(reg.load_weights(info.id), info.arch, deterministic=True, seed=0)
    new_net = build_policy(weights, arch, deterministic=True, seed=0)
    rng = np.random.default_rng(0)
    obs = []
    for _ in range(200):
        o, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset(seed=int(rng.integers(1 << 30)))
            continue
        if env.agent_selection.startswith(agent.rstrip("0123456789")):
            obs.append(env.unwrapped.observer.observation(env.unwrapped.state_, env.unwrapped._seat[env.agent_selection]))
        legal = np.flatnonzero(o["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    batch = np.stack(obs)
    if not np.allclose(old_net.logits(batch[:, keep]), new_net.logits(batch), atol=1e-5):
        raise SystemExit("the carried network's logits differ from the old one's: nothing registered")
    carried = reg.register(args.name, weights, arch, env_spec=env.unwrapped, algo=info.algo, steps=info.steps, parent=info.id,
                           tags=[f"carried:{info.env_name}", *(t for t in info.tags if t.startswith("role:"))], role=info.role,
                           metrics={"carried_from": info.id, "new_pieces": args.new_piece, "checked_observations": len(obs)})
    print(f"{carried.ref} ({carried.id}): {info.env_name} {info.id} carried to {spec.env_name}, {old_size} -> {new_size} inputs, "
          f"logits equal on {len(obs)} observations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
