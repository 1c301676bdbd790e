"""The Ray backend on a multi-node-shaped cluster: a head without CPUs and three one-CPU worker
nodes (each its own raylet and worker processes), joined through its address as an existing
cluster is; the rollout actors spread over the nodes and a short run trains and registers."""

from __future__ import annotations

from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster

from mythzoo.policies.base import RandomPolicy
from mythzoo.policies.registry import Registry
from mythzoo.training import ray_backend
from mythzoo.training.config import from_dict
from mythzoo.training.ppo import train
from mythzoo.training.ray_backend import RaySelfPlayVecEnv
from mythzoo.training.selfplay import OpponentPool

NODES = 3


@pytest.fixture(scope="module")
def cluster():
    # The head takes no actor (num_cpus=0), as a head kept for the learner and the cluster's services.
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    nodes = [c.add_node(num_cpus=1) for _ in range(NODES)]
    c.wait_for_nodes()
    yield c, nodes
    if ray.is_initialized():
        ray.shutdown()
    c.shutdown()


def test_actors_spread_over_the_nodes_and_training_runs(cluster, tmp_path: Path) -> None:
    c, nodes = cluster
    assert ray_backend.connect(c.address) is True  # joins, as --ray-address does
    try:
        pool = OpponentPool({"baselines": 1.0}, seed=0)
        pool.add("baselines", "random", RandomPolicy(0))
        vec = RaySelfPlayVecEnv("mythic_baths_v1", {"num_players": 2}, 6, pool, num_workers=NODES, seed=0)
        try:
            vec.reset()
            where = {s["node_id"] for s in vec.worker_stats()}
        finally:
            vec.close()
        assert where == {n.node_id for n in nodes}, "one actor on each worker node, none on the head"

        reg = tmp_path / "reg"
        cfg = from_dict({"env": "mythic_baths_v1", "env_kwargs": {"num_players": 2}, "backend": "ray", "ray_address": c.address,
                         "num_envs": 6, "num_workers": NODES, "n_steps": 16, "batch_size": 32, "n_epochs": 1, "net_arch": [16],
                         "total_timesteps": 192, "snapshot_every": 96, "eval_games": 0, "progress": False, "update_threads": 1,
                         "registry": str(reg), "run_dir": str(tmp_path / "runs")})
        summary = train(cfg)
        assert summary["backend"] == "ray" and summary["steps"] == 192
        assert [e.steps for e in Registry(str(reg)).list()] == [96, 192, 192]
        assert ray.is_initialized(), "a run that joined a connection leaves it open"
    finally:
        ray_backend.disconnect()
