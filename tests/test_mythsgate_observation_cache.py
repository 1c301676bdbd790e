"""Mythsgate's cached observation blocks never go stale: at every step of seeded random games, for
every number of heroes and every seat, the byte-built observation (blocks cached in ``State.obs``
against the version counters the rules bump) equals the from-scratch encoding
(``encode_list``) of a clone, which starts with no cache. A missed version bump in the rules fails
here. The caches are never serialized and never shared between copies."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from mythzoo.envs import mythsgate_v0
from mythzoo.envs.mythsgate.gamedata import load_data
from mythzoo.envs.mythsgate.observation import MythsgateObserver
from mythzoo.envs.mythsgate.rules import DERIVED_FIELDS, MythsgateRules

GD = load_data(None)
CHARACTER_SETS = {
    1: [None, [1], [2], [3], [4]],
    2: [None, [4, 3], [1, 2]],
    3: [None, [2, 3, 4]],
    4: [None, [1, 2, 3, 4]],
    5: [None, [4, 3, 2, 1, 0]],
}


def _play_and_compare(rules: MythsgateRules, observer: MythsgateObserver, seed: int, rng: np.random.Generator) -> int:
    s = rules.initial_state(seed)
    steps = 0
    while True:
        fresh = rules.clone(s)  # a clone starts with no observation cache
        assert fresh.obs is None
        for seat in range(rules.num_players):
            fast = observer.observation(s, seat)
            expected = np.array(observer.encode_list(fresh, seat), dtype=np.float32)
            assert fast.dtype == np.float32 and fast.shape == expected.shape
            if not np.array_equal(fast, expected):
                bad = np.flatnonzero(fast != expected)
                names = observer.layout(seat)
                feats = [names.features()[i] for i in bad[:5]]
                raise AssertionError(f"seed {seed} step {steps} seat {seat}: stale {feats}")
            # a fresh state's fast path equals it too (nothing cached yet)
            np.testing.assert_array_equal(observer.observation(rules.clone(s), seat), expected)
        if s.over or s.round >= 30:
            return steps
        legal = rules.legal_actions(s)
        rules.apply(s, legal[int(rng.integers(len(legal)))])
        steps += 1


@pytest.mark.parametrize("num_heroes", [1, 2, 3, 4, 5])
def test_cached_observation_equals_fresh_encoding_at_every_step(num_heroes: int) -> None:
    steps = 0
    for chars in CHARACTER_SETS[num_heroes]:
        rules = MythsgateRules(GD, num_heroes, chars)
        observer = MythsgateObserver(rules, 30)
        rng = np.random.default_rng(100 + num_heroes)
        games = 6 if chars is None else 3
        for game in range(games):
            steps += _play_and_compare(rules, observer, 1000 * num_heroes + game, rng)
    assert steps > 300


def test_env_observation_matches_fresh_encoding_through_the_aec_loop() -> None:
    e = mythsgate_v0.env(num_heroes=3)
    rng = np.random.default_rng(7)
    for game in range(3):
        e.reset(seed=game)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            seat = e.possible_agents.index(agent)
            fresh = e.rules.clone(e.state_)
            np.testing.assert_array_equal(obs["observation"], np.array(e.observer.encode_list(fresh, seat), dtype=np.float32))
            assert obs["observation"].flags.writeable
            legal = np.flatnonzero(obs["action_mask"])
            e.step(None if term or trunc else int(legal[rng.integers(legal.size)]))


def test_caches_are_never_serialized_nor_shared() -> None:
    e = mythsgate_v0.env(num_heroes=2)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[rng.integers(legal.size)]))
    for a in e.possible_agents:
        e.observe(a)
    s = e.state_
    assert s.obs is not None
    d = e.rules.to_json(s)
    assert not set(DERIVED_FIELDS) & set(d)
    # get_state/set_state and clone rebuild from the game fields only, and agree
    c = e.rules.clone(s)
    assert c.obs is None and c.hv is not s.hv and e.rules.to_json(c) == d
    loaded = e.rules.from_json(d)
    assert loaded.obs is None and e.rules.to_json(loaded) == d
    for seat in range(e.rules.num_players):
        np.testing.assert_array_equal(e.observer.observation(loaded, seat), e.observer.observation(s, seat))
    # a deep copy carries its own cache; playing on in one leaves the other's observations intact
    before = {a: e.observe(a)["observation"].copy() for a in e.possible_agents}
    dc = copy.deepcopy(e)
    legal = np.flatnonzero(dc.observe(dc.agent_selection)["action_mask"])
    dc.step(int(legal[0]))
    for a in e.possible_agents:
        np.testing.assert_array_equal(e.observe(a)["observation"], before[a])
        dc.observe(a)


def test_state_changed_from_outside_drops_the_cache() -> None:
    """Scenario code that edits a state and resets ``legal`` (the legal-action cache convention)
    gets observations of the edited state."""
    rules = MythsgateRules(GD, 2)
    observer = MythsgateObserver(rules, 30)
    s = rules.initial_state(5)
    for seat in range(3):
        observer.observation(s, seat)
    s.h_lives[0] = 2
    s.life_supply -= 1
    s.m_space[0], s.m_lives[0] = GD.portal, 1
    s.life_supply -= 1
    for pile in (s.inv_hand, s.inv_deck, s.inv_discard, s.inv_aside):
        if GD.minion_cards[0] in pile:
            pile.remove(GD.minion_cards[0])
    s.legal = None
    for seat in range(3):
        fresh = rules.clone(s)
        np.testing.assert_array_equal(observer.observation(s, seat), np.array(observer.encode_list(fresh, seat), dtype=np.float32))
