"""Mythsgate's declared bound on the decisions of one game (``SPEC.max_decisions``, derived in
``envs/mythsgate/spec.py``) holds over many seeded random games for every number of heroes, turn
cap and choice of characters, and is not absurdly loose: within 25x of the longest game seen (a
uniformly random game is far from the worst case the bound must cover: see its derivation)."""

from __future__ import annotations

import numpy as np
import pytest
from mythzoo.envs import mythsgate_v2
from mythzoo.envs.mythsgate.gamedata import load_data
from mythzoo.envs.mythsgate.rules import MythsgateRules
from mythzoo.envs.mythsgate.spec import SPEC

GD = load_data()


def _longest(num_heroes: int, max_rounds: int, games: int, characters: list[int] | None = None) -> int:
    """The most decisions of ``games`` seeded uniformly random games, played as the env plays them
    (one decision per step, cut when ``max_rounds`` rounds are complete)."""
    rules = MythsgateRules(GD, num_heroes, characters)
    longest = 0
    for seed in range(games):
        s = rules.initial_state(seed)
        rng = np.random.default_rng(seed)
        n = 0
        while not s.over and s.round < max_rounds:
            legal = rules.legal_actions(s)
            rules.apply(s, legal[int(rng.integers(len(legal)))])
            n += 1
        assert n == s.decisions
        longest = max(longest, n)
    return longest


@pytest.mark.parametrize("num_heroes", [1, 2, 3, 4, 5])
def test_the_bound_holds_and_is_not_absurdly_loose(num_heroes: int) -> None:
    games = 300 if num_heroes <= 2 else 150
    longest = _longest(num_heroes, 30, games)
    bound = SPEC.decision_bound({"num_heroes": num_heroes})
    assert bound == SPEC.decision_bound({"num_heroes": num_heroes, "max_rounds": 30})  # the default cap
    assert longest <= bound
    assert bound <= 25 * longest, (bound, longest)


@pytest.mark.parametrize(("num_heroes", "max_rounds", "characters"), [(1, 2, None), (1, 6, [2]), (2, 4, [1, 3]), (3, 3, None), (5, 2, [4, 3, 2, 1, 0])])
def test_the_bound_holds_for_short_caps_and_other_characters(num_heroes: int, max_rounds: int, characters: list[int] | None) -> None:
    kwargs = {"num_heroes": num_heroes, "max_rounds": max_rounds, "characters": characters}
    assert _longest(num_heroes, max_rounds, 100, characters) <= SPEC.decision_bound(kwargs)


def test_the_bound_counts_env_steps() -> None:
    """The env takes one step per decision: its games are as long as the rules' and within the bound."""
    e = mythsgate_v2.env(num_heroes=2, max_rounds=5)
    bound = SPEC.decision_bound({"num_heroes": 2, "max_rounds": 5})
    rng = np.random.default_rng(0)
    for seed in range(10):
        e.reset(seed=seed)
        n = 0
        for agent in e.agent_iter():
            _, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(e.observe(agent)["action_mask"])
            e.step(int(legal[rng.integers(legal.size)]))
            n += 1
        assert n == e.unwrapped.state_.decisions <= bound
