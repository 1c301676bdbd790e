"""docs/stacks/rllib.md runs as written: its ```python blocks, in order, in one namespace; then
what the self-play recipe claims is checked on the algorithm it built."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import ray
import torch

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "stacks" / "rllib.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S)


@pytest.fixture(scope="module")
def page_namespace():
    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    ns: dict = {"__name__": "rllib_md"}
    cwd = os.getcwd()
    os.chdir(ROOT)  # the page's paths (checkpoints/...) are relative to a clone's root
    try:
        for i, code in enumerate(blocks()):
            exec(compile(code, f"{PAGE.name} block {i + 1}", "exec"), ns)
    finally:
        os.chdir(cwd)
    yield ns
    for name in ("algo", "mythsgate", "self_play"):
        if name in ns:
            ns[name].stop()


def test_the_page_has_its_recipes() -> None:
    code = "\n".join(blocks())
    for needle in ("ppo_config(", "RLlibPolicy.from_algorithm", "tournament(", "policies_to_train", "on_train_result"):
        assert needle in code


def test_recipes_ran_and_trained_without_illegal_actions(page_namespace) -> None:
    from mythzoo.adapters.rllib import ILLEGAL_ACTIONS_METRIC

    runners = page_namespace["runners"]
    assert runners["num_env_steps_sampled_lifetime"] >= 1000
    assert runners.get(ILLEGAL_ACTIONS_METRIC, 0) == 0
    labels = [s.label for s in page_namespace["standings"].stats]
    assert "rllib" in labels and "heuristic" in labels and "random" in labels and len(labels) == 4
    assert all(r.illegal is None for r in page_namespace["standings"].records + page_namespace["role_standings"].records)


def _weights(algo, module_id: str) -> dict[str, torch.Tensor]:
    state = algo.learner_group.get_state(components=f"learner/rl_module/{module_id}")["learner"]["rl_module"][module_id]
    return {k: torch.as_tensor(v) for k, v in state.items()}


def _runner_weights(algo, module_id: str) -> dict[str, torch.Tensor]:
    return {k: torch.as_tensor(v) for k, v in algo.get_module(module_id).get_state().items()}


def _same(a: dict, b: dict) -> bool:
    return all(torch.equal(a[k], b[k]) for k in a)


def test_self_play_snapshots_are_frozen_copies_of_the_learner(page_namespace) -> None:
    """Two iterations, a snapshot after each: past_0 holds the learner after iteration 1, past_1
    the learner now, past_2 the untrained learner; the sampling modules agree with the learner's."""
    algo, past = page_namespace["self_play"], page_namespace["PAST"]
    assert page_namespace["SNAPSHOT_EVERY"] == 1 and algo.iteration == 2
    player = _weights(algo, "player")
    snaps = {p: _weights(algo, p) for p in past}
    assert _same(snaps["past_1"], player)
    assert not _same(snaps["past_0"], player) and not _same(snaps["past_2"], player)
    assert not _same(snaps["past_0"], snaps["past_2"])
    for p in past:
        assert _same(_runner_weights(algo, p), snaps[p])


def test_self_play_seats_the_learner_once_per_game(page_namespace) -> None:
    class Episode:
        def __init__(self, i: int):
            self.id_ = f"episode-{i}"

    mapping = page_namespace["learner_vs_past"]
    seats = []
    for i in range(40):
        modules = [mapping(f"player_{s}", Episode(i)) for s in range(2)]
        assert modules.count("player") == 1 and set(modules) - {"player"} <= set(page_namespace["PAST"])
        seats.append(modules.index("player"))
    assert set(seats) == {0, 1}


def test_restored_weights_play_as_the_trained_module(page_namespace) -> None:
    import numpy as np

    from mythzoo.adapters.rllib import MythzooMultiAgentEnv

    trained, restored = page_namespace["policy"], page_namespace["same"]
    env = MythzooMultiAgentEnv({"env": "mythic_baths", "seed": 3})
    rows = []
    for _ in range(16):
        obs, _ = env.reset()
        (agent, o), = obs.items()
        rows.append((o["observations"], o["action_mask"].astype(np.int8)))
    obs_batch, masks = np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows])
    assert list(trained.act_batch(obs_batch, masks, "player_0")) == list(restored.act_batch(obs_batch, masks, "player_0"))

    def logits(module):
        batch = {"obs": {"observations": torch.as_tensor(obs_batch), "action_mask": torch.as_tensor(masks.astype(np.float32))}}
        with torch.no_grad():
            return module.forward_inference(batch)["action_dist_inputs"]

    assert torch.equal(logits(trained.modules["player"]), logits(restored.modules[None]))
