"""Mythwind: the Innkeeper's declared bound on decisions (``SPEC.max_decisions``) is true and tight enough.

Over many seeded games, random and "busy" (a policy that takes every optional step it can: it
never ends a step while something else is legal), no campaign takes more decisions than the bound
for its env kwargs, and the bound is not absurdly loose: within 20x of the longest campaign seen.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from mythzoo.envs import mythwind_innkeeper_v5 as inn
from mythzoo.envs import spec
from mythzoo.envs.mythwind_innkeeper.components import DEFAULT_DATA

SPEC = spec("mythwind_innkeeper")
CONFIGS = [({}, 400), ({"days_per_season": 2, "seasons": 3}, 300), ({"days_per_season": 1, "seasons": 1}, 300), ({"max_turns": 5}, 200),
           ({"days_per_season": 10, "seasons": 2, "reward_mode": "terminal"}, 100)]


def _play(env, seed: int, busy: bool) -> int:
    """Decisions of one campaign (to its end or the turn cap)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done_id = env.action_table().offset("done")
    n = 0
    while True:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return n
        legal = np.flatnonzero(obs["action_mask"])
        if busy and len(legal) > 1:
            legal = legal[legal != done_id]
        env.step(int(legal[rng.integers(len(legal))]))
        n += 1


@pytest.mark.parametrize(("kwargs", "games"), CONFIGS, ids=lambda x: ",".join(f"{k}={v}" for k, v in x.items()) if isinstance(x, dict) else str(x))
def test_no_campaign_exceeds_the_bound_and_the_bound_is_not_loose(kwargs: dict, games: int) -> None:
    bound = SPEC.decision_bound(kwargs)
    env = inn.raw_env(**kwargs)
    longest = 0
    for seed in range(games):
        for busy in (False, True):
            n = _play(env, seed, busy)
            assert n <= bound, (kwargs, seed, busy, n, bound)
            longest = max(longest, n)
    assert bound <= 20 * longest, (kwargs, bound, longest)


def test_the_bound_follows_the_data_file(tmp_path) -> None:
    """A file with more furniture and complaints that make choices raises the bound, and it holds there."""
    raw = json.loads(DEFAULT_DATA.read_text())
    more = copy.deepcopy(raw)
    for g in more["guests"]:
        g["complaints"] = [{"kind": "draw", "amount": 2}, {"kind": "lose", "type": "table"}]
    for a in more["accommodations"]:
        if a["type"] in ("kitchen", "stage"):
            a["type"] = "table"
    p = tmp_path / "charter.json"
    p.write_text(json.dumps(more))
    assert SPEC.decision_bound({"data": str(p)}) > SPEC.decision_bound({})
    bound = SPEC.decision_bound({"data": str(p), "days_per_season": 2, "seasons": 2})
    env = inn.raw_env(data=p, days_per_season=2, seasons=2)
    for seed in range(150):
        for busy in (False, True):
            assert _play(env, seed, busy) <= bound
