"""Behaviour fingerprints: every env configuration plays the same seeded random games as recorded.

The hash covers every decision's observation, mask, reward, termination, truncation and info, and
each game's final state (``benchmarks/behaviour_hash.py``). A refactor must leave it unchanged; a
deliberate change of rules, observations or rewards bumps the env's version and re-records it:

    python benchmarks/behaviour_hash.py --games 40 --json tests/golden/behaviour_hashes_40.json
    python benchmarks/behaviour_hash.py --games 500 --json benchmarks/behaviour_hashes.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import behaviour_hash  # noqa: E402

from mythzoo.envs import GAMES  # noqa: E402

# The shipped games' configurations (the toy games of tests/conftest.py are registered too; they have no fingerprints).
CONFIGS = [(n, kw) for n, kw in behaviour_hash.CONFIGS if n in {s.env_name for s in GAMES}]
FAST = json.loads((ROOT / "tests" / "golden" / "behaviour_hashes_40.json").read_text())
FULL = json.loads((ROOT / "benchmarks" / "behaviour_hashes.json").read_text())
IDS = [behaviour_hash.config_key(n, kw) for n, kw in CONFIGS]


@pytest.mark.parametrize(("name", "kwargs"), CONFIGS, ids=IDS)
def test_behaviour_fingerprint_is_unchanged(name: str, kwargs: dict) -> None:
    digest, _ = behaviour_hash.fingerprint(name, kwargs, FAST["games"])
    assert digest == FAST["hashes"][behaviour_hash.config_key(name, kwargs)]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "kwargs"), CONFIGS, ids=IDS)
def test_behaviour_fingerprint_over_many_games_is_unchanged(name: str, kwargs: dict) -> None:
    digest, _ = behaviour_hash.fingerprint(name, kwargs, FULL["games"])
    assert digest == FULL["hashes"][behaviour_hash.config_key(name, kwargs)]
