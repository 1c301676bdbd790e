"""Mythwind Innkeeper: the fast observation never goes stale. At every step of many seeded random
campaigns the byte-built, cached vector equals the from-scratch encoding
(``reference_observation``), also for a fresh observer with empty caches and for clones; the
caches live in the observer, never in the state, so state serialization is unaffected."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from mythzoo.envs import mythwind_innkeeper_v0 as inn
from mythzoo.envs.mythwind_innkeeper.components import load_data
from mythzoo.envs.mythwind_innkeeper.observation import MythwindInnkeeperObserver
from mythzoo.envs.mythwind_innkeeper.rules import STATE_FIELDS, MythwindInnkeeperRules


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype == np.float32 and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize(("days", "seasons", "auto"), [(6, 4, True), (3, 2, False), (2, 6, True)])
def test_fast_observation_equals_reference_at_every_step(days: int, seasons: int, auto: bool) -> None:
    rules = MythwindInnkeeperRules(load_data(), days, seasons, auto=auto)
    observer = MythwindInnkeeperObserver(rules)
    rng = np.random.default_rng(days * 10 + seasons)
    steps = 0
    for game in range(25):
        s = rules.initial_state(500 + game)
        while True:
            ref = observer.reference_observation(s)
            fast = observer.observation(s)
            assert _same(fast, ref), (game, steps, np.flatnonzero(fast != ref))
            assert fast.flags.writeable
            if steps % 7 == 0:  # a fresh observer (empty caches) and a clone agree too
                assert _same(MythwindInnkeeperObserver(rules).observation(rules.clone(s)), ref)
            if s.over:
                break
            legal = rules.legal_actions(s)
            rules.apply(s, legal[int(rng.integers(len(legal)))])
            steps += 1
    assert steps > 500


def test_observations_alternating_between_states_stay_exact() -> None:
    """One observer serving two unrelated campaigns in turn (its caches compare values, not states)."""
    rules = MythwindInnkeeperRules(load_data())
    observer = MythwindInnkeeperObserver(rules)
    rng = np.random.default_rng(3)
    states = [rules.initial_state(1), rules.initial_state(2)]
    for _ in range(400):
        for s in states:
            assert _same(observer.observation(s), observer.reference_observation(s))
            if not s.over:
                legal = rules.legal_actions(s)
                rules.apply(s, legal[int(rng.integers(len(legal)))])


def test_env_observations_and_state_round_trips_unaffected_by_caches() -> None:
    env = inn.env()
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    for n in range(150):
        obs, _, term, trunc, _ = env.last()
        assert _same(obs["observation"], env.observer.reference_observation(env.state_))
        if term or trunc:
            break
        if n % 10 == 0:
            snap = env.get_state()
            assert set(snap["game"]) == set(STATE_FIELDS) | {"rng"}  # nothing cached is serialized
            other = inn.env()
            other.reset(seed=0)
            other.set_state(snap)
            assert _same(other.last()[0]["observation"], obs["observation"])
            for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
                assert twin.get_state() == snap
                assert _same(twin.last()[0]["observation"], obs["observation"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pickled = pickle.loads(pickle.dumps(env.observer))
    assert _same(pickled.observation(env.state_), env.observer.reference_observation(env.state_))


def test_fast_uniform_draw_is_numpys_integers() -> None:
    """The engine's draws (``rules._below``) give exactly ``int(rng.integers(n))`` and leave the
    generator in the same state, so seeds play the same campaigns as with numpy's own call."""
    from mythzoo.envs.core.rng import make_rng
    from mythzoo.envs.mythwind_innkeeper import rules as rules_mod

    assert rules_mod._below is rules_mod._lemire_below  # the check at import passed on this numpy
    a, b = make_rng(7), make_rng(7)
    sizes = np.random.default_rng(1)
    for i in range(20_000):
        n = int(sizes.integers(1, 40)) if i % 5 else int(sizes.integers(1, 2**32))
        if i % 97 == 0:
            a.random()
            b.random()
        assert int(a.integers(n)) == rules_mod._below(b, n), (i, n)
    assert a.bit_generator.state == b.bit_generator.state
    # A generator restored from JSON mid-stream (with a buffered half word) continues identically.
    rules = MythwindInnkeeperRules(load_data())
    s = rules.initial_state(5)
    for _ in range(3):
        legal = rules.legal_actions(s)
        rules.apply(s, legal[-1])
    t = rules.from_json(rules.to_json(s))
    assert [int(s.rng.integers(9)) for _ in range(50)] == [rules_mod._below(t.rng, 9) for _ in range(50)]
