"""benchmarks/distill_search.py: search-guided targets (label with rollouts:W:REF, fine-tune REF, register the child)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="fine-tuning needs torch (the train extra)")

ROOT = Path(__file__).resolve().parents[1]
CHAMPION = ROOT / "checkpoints" / "mythwind_innkeeper_v5-ppo-champion.tar.gz"


def _module():
    spec = importlib.util.spec_from_file_location("distill_search", ROOT / "benchmarks" / "distill_search.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def registry(tmp_path):
    from mythzoo.policies.registry import Registry

    root = str(tmp_path / "reg")
    reg = Registry(root)
    (info,) = reg.import_(CHAMPION)
    return reg, info, root


def test_labels_are_the_search_choices_at_searched_decisions_and_the_network_s_elsewhere(registry) -> None:
    from mythzoo.envs import make
    from mythzoo.policies.refs import load_policy
    from mythzoo.policies.rollouts import EndgameRollouts

    reg, info, root = registry
    mod = _module()
    data = mod.label_games("mythwind_innkeeper", {}, info.id, root, 2, 2, "heuristic", 1.0, [5])
    searched = data["searched"].astype(bool)
    # anchor share 1.0: every decision of the campaign is kept; only the last two days' choices were searched
    assert len(searched) > 100
    assert np.array_equal(data["label"][~searched], data["base"][~searched])
    assert all(m[a] == 1 for m, a in zip(data["masks"], data["label"]))
    # the same campaign played again by the search policy makes the same choices at the same decisions
    env = make("mythwind_innkeeper")
    env.reset(seed=5)
    policy = EndgameRollouts(env, load_policy(info.id, env, registry=root, seed=5), 2, 2, seed=5)
    played = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        played.append(policy.act_in_env(env, agent))
        env.step(played[-1])
    assert played == data["label"].tolist()
    # the searched decisions are the ones the search was asked about: the last two days' Operate
    # choices and their workers' choices
    assert searched.sum() == policy.asked >= 2
    assert np.flatnonzero(searched).min() > len(searched) - 80  # all near the end of the campaign


def test_fine_tune_moves_the_network_to_the_labels_and_keeps_the_training_state_equal() -> None:
    from mythzoo.policies.neural import init_mlp_weights

    mod = _module()
    weights, arch = init_mlp_weights(6, 4, hidden=(8,), seed=0)
    weights["train.sb3.mlp_extractor.policy_net.0.weight"] = weights["layers.0.weight"].copy()
    weights["train.sb3.mlp_extractor.policy_net.0.bias"] = weights["layers.0.bias"].copy()
    weights["train.sb3.action_net.weight"] = weights["layers.1.weight"].copy()
    weights["train.sb3.action_net.bias"] = weights["layers.1.bias"].copy()
    rng = np.random.default_rng(1)
    obs = rng.normal(size=(512, 6)).astype(np.float32)
    masks = np.ones((512, 4), np.int8)
    masks[:, 3] = 0  # never legal: never the choice
    label = (obs[:, 0] > 0).astype(np.int64) * 2  # 0 or 2, from the first feature
    data = {"obs": obs, "masks": masks, "label": label, "searched": np.ones(512, bool)}
    rows = np.arange(512)
    before = mod.agreement(weights, arch, data, rows)
    tuned = mod.fine_tune(weights, arch, data, rows, epochs=40, lr=1e-2, search_weight=1.0, seed=0)
    assert mod.agreement(tuned, arch, data, rows) > max(before, 0.9)
    assert np.array_equal(tuned["train.sb3.action_net.weight"], tuned["layers.1.weight"])
    assert np.array_equal(tuned["train.sb3.mlp_extractor.policy_net.0.bias"], tuned["layers.0.bias"])
    assert not np.array_equal(tuned["layers.0.weight"], weights["layers.0.weight"])


def test_main_registers_a_child_of_the_base_and_reuses_saved_labels(registry, tmp_path, capsys) -> None:
    reg, info, root = registry
    mod = _module()
    labels = tmp_path / "labels.npz"
    argv = ["mythwind_innkeeper", "--base", info.id, "--registry", root, "--worlds", "2", "--window", "1",
            "--games", "2", "--seed", "7", "--labels", str(labels), "--holdout", "0.5"]
    assert mod.main(argv) == 0
    out = capsys.readouterr().out
    assert labels.exists() and "labelled 2 games" in out
    child = reg.resolve(f"{info.name}-distilled")
    assert child.parent == info.id and "search-distilled" in child.tags
    assert child.metrics["distilled_from"] == f"rollouts:2w1:{info.id}" and child.metrics["labelled_games"] == 2
    with np.load(labels, allow_pickle=False) as z:
        assert int(z["searched"].sum()) == child.metrics["searched"] >= 2  # the last day of each campaign: Operate and workers
        assert set(z["seed"].tolist()) == {7, 8} and np.all(np.diff(z["seed"]) >= 0)  # both games, rows in seed order
    assert mod.main(argv) == 0
    assert "labels read from" in capsys.readouterr().out
    assert reg.resolve(f"{info.name}-distilled").version == child.version + 1


def test_labelling_split_over_processes_gives_the_same_rows_in_seed_order(registry, tmp_path) -> None:
    reg, info, root = registry
    mod = _module()
    base = ["mythwind_innkeeper", "--base", info.id, "--registry", root, "--worlds", "2", "--window", "1",
            "--games", "3", "--seed", "11", "--holdout", "0"]
    one, two = tmp_path / "one.npz", tmp_path / "two.npz"
    assert mod.main([*base, "--labels", str(one)]) == 0
    # the split run as a user runs it: the script itself (its spawned workers import it as __mp_main__)
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "distill_search.py"), *base, "--labels", str(two), "--jobs", "2"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "labelling" in done.stderr and "3/3" in done.stderr  # the progress bar counted the games
    with np.load(one, allow_pickle=False) as a, np.load(two, allow_pickle=False) as b:
        for k in mod.FIELDS:
            assert np.array_equal(a[k], b[k]), k
        assert sorted(set(a["seed"].tolist())) == [11, 12, 13]
