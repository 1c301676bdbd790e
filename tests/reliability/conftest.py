"""Fixtures of the reliability suite: an env spec, a registry holding one checkpoint, its export file."""

from __future__ import annotations

from pathlib import Path

import pytest

from mythzoo.envs import mythic_baths_v1
from mythzoo.policies.base import EnvSpec
from mythzoo.policies.registry import CheckpointInfo, Registry

from .helpers import save


@pytest.fixture(scope="session")
def env_spec() -> EnvSpec:
    env = mythic_baths_v1.env(num_players=2)
    env.reset(seed=0)
    return EnvSpec.from_env(env)


@pytest.fixture
def reg(tmp_path: Path) -> Registry:
    return Registry(tmp_path / "reg")


@pytest.fixture
def kept(reg: Registry, env_spec: EnvSpec) -> CheckpointInfo:
    """A checkpoint already in ``reg`` (with a rating and an eval), which no refused command may touch."""
    info = save(reg, env_spec, name="kept", seed=1)
    reg.record_rating(info.ref, mu=25.0, sigma=8.0, games=10, num_players=2)
    reg.record_eval(info.ref, {"win_rate": 0.5})
    return info


@pytest.fixture
def export(tmp_path: Path, env_spec: EnvSpec) -> Path:
    """An export file of one checkpoint, made in a registry of its own."""
    src = Registry(tmp_path / "src")
    info = save(src, env_spec, name="shipped", seed=2)
    src.record_rating(info.ref, mu=30.0, sigma=2.0, games=50, num_players=2)
    return src.export(info.ref, tmp_path / "one.tar") and tmp_path / "one.tar"
