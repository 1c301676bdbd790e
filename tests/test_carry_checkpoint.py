"""``benchmarks/carry_checkpoint.py``: a checkpoint carried to an env version that only added
observation pieces plays the new env exactly as the old one played the old env."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import mythsgate_v2
from mythzoo.policies.base import EnvSpec
from mythzoo.policies.neural import build_policy, init_mlp_weights
from mythzoo.policies.registry import Registry

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from carry_checkpoint import old_columns, widen_inputs  # noqa: E402


def test_old_columns_are_the_new_features_less_the_new_pieces_in_order() -> None:
    features = ["a", "b[0]", "new[0]", "new[1]", "c[x]", "newer", "d"]
    assert old_columns(features, ["new", "newer"]).tolist() == [0, 1, 4, 6]


def test_widen_inputs_adds_zero_columns_to_every_observation_reading_tensor() -> None:
    w = {"layers.0.weight": np.arange(6, dtype=np.float32).reshape(2, 3), "layers.0.bias": np.ones(2, np.float32),
         "train.value.0.weight": np.full((4, 3), 2.0, np.float32), "layers.1.weight": np.ones((5, 2), np.float32)}
    out = widen_inputs(w, 3, np.array([0, 2, 3]), 4)
    assert out["layers.0.weight"].tolist() == [[0, 0, 1, 2], [3, 0, 4, 5]]
    assert out["train.value.0.weight"][:, 1].tolist() == [0, 0, 0, 0] and out["train.value.0.weight"].shape == (4, 4)
    assert out["layers.1.weight"].shape == (5, 2) and out["layers.0.bias"].tolist() == [1, 1]
    with pytest.raises(ValueError, match="reads 3 features"):
        widen_inputs(w, 3, np.array([0, 1]), 4)


def _old_hero_archive(tmp_path: Path) -> tuple[Path, dict, dict]:
    """An export of a hero network for a 'mythsgate_v1' whose layout is v2's less ``ability_minion``."""
    env = mythsgate_v2.raw_env(num_heroes=2)
    env.reset(seed=0)
    new = EnvSpec.from_env(env)
    piece = env.observation_layout("hero_0").by_name["ability_minion"].size
    old_sizes = {a: n - piece for a, n in new.obs_sizes.items()}
    old = dataclasses.replace(new, env_name="mythsgate_v1", obs_sizes=old_sizes, signature="0123456789abcdef")
    weights, arch = init_mlp_weights(old_sizes["hero_0"], new.action_sizes["hero_0"], hidden=(32, 32), seed=3)
    reg = Registry(tmp_path / "old")
    info = reg.register("mythsgate_v1-ppo-hero", weights, arch, env_spec=old, algo="maskable_ppo", steps=1000, role="hero")
    archive = tmp_path / "old_hero.tar"
    reg.export(info.id, archive)
    return archive, weights, arch


def test_a_carried_checkpoint_plays_the_new_version_as_the_old_one_played(tmp_path: Path) -> None:
    archive, old_weights, old_arch = _old_hero_archive(tmp_path)
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "carry_checkpoint.py"), str(archive), "--env", "mythsgate",
                          "--new-piece", "ability_minion", "--name", "mythsgate_v2-ppo-hero", "--registry", str(tmp_path / "new")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    reg = Registry(tmp_path / "new")
    info = reg.resolve("mythsgate_v2-ppo-hero")
    assert info.env_name == "mythsgate_v2" and info.role == "hero" and "carried:mythsgate_v1" in info.tags
    assert reg.resolve(info.parent).env_name == "mythsgate_v1"
    env = mythsgate_v2.env(num_heroes=2)
    env.reset(seed=11)
    policy = reg.load_policy(info.id, env)  # the signature matches the new env
    old = build_policy(old_weights, old_arch, deterministic=True, seed=0)
    layout = env.unwrapped.observation_layout("hero_0")
    keep = old_columns(layout.features(), ["ability_minion"])
    rng = np.random.default_rng(1)
    compared = 0
    for agent in env.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        if agent.startswith("hero"):
            o = obs["observation"][None]
            assert np.allclose(policy.logits(o), old.logits(o[:, keep]), atol=1e-5)
            compared += 1
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    assert compared > 20


def test_carry_refuses_a_piece_the_new_version_does_not_have(tmp_path: Path) -> None:
    archive, _, _ = _old_hero_archive(tmp_path)
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "carry_checkpoint.py"), str(archive), "--env", "mythsgate",
                          "--new-piece", "no_such_piece", "--name", "x-hero", "--registry", str(tmp_path / "new")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "no observation piece 'no_such_piece'" in out.stderr
    assert not (tmp_path / "new").exists()  # refused before the registry is made
