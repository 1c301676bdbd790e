"""Mythwind Innkeeper: the fast observation never goes stale. At every step of many seeded random
campaigns the byte-built, cached vector equals the from-scratch encoding (the oracle in
``tests/oracles/mythwind_innkeeper.py``), also for a fresh observer with empty caches and for
clones; the caches live in the observer, keyed on values, never in the state, so state
serialization is unaffected and a state edited in place between two observations is seen as it is."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from mythzoo.envs import mythwind_innkeeper_v5 as inn
from mythzoo.envs.mythwind_innkeeper.components import load_data
from mythzoo.envs.mythwind_innkeeper.observation import MythwindInnkeeperObserver
from mythzoo.envs.mythwind_innkeeper.rules import STATE_FIELDS, MythwindInnkeeperRules
from oracles.mythwind_innkeeper import reference_observation, reference_vector


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
            ref = reference_vector(rules, observer.layout(0), s)
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
            assert _same(observer.observation(s), reference_vector(rules, observer.layout(0), s))
            if not s.over:
                legal = rules.legal_actions(s)
                rules.apply(s, legal[int(rng.integers(len(legal)))])


def test_env_observations_and_state_round_trips_unaffected_by_caches() -> None:
    env = inn.env()
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    for n in range(150):
        obs, _, term, trunc, _ = env.last()
        assert _same(obs["observation"], reference_observation(env, "innkeeper"))
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
    assert _same(pickled.observation(env.state_), reference_observation(env, "innkeeper"))


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


def test_a_state_edited_in_place_is_seen_as_it_is() -> None:
    """The caches compare the values they were built from, so edits made to a live state between
    two observations (no step, no notification of any kind) show at once."""
    rules = MythwindInnkeeperRules(load_data(), 3, 3, auto=False)
    observer = MythwindInnkeeperObserver(rules)
    rng = np.random.default_rng(21)
    changed = 0
    for game in range(6):
        s = rules.initial_state(40 + game)
        while not s.over:
            c = rules.clone(s)  # edited; the campaign goes on from s
            occupied = [d for d in range(25) if c.slot_acc[d] >= 0]
            d = occupied[int(rng.integers(len(occupied)))] if occupied else 0
            for edit in (
                lambda: c.slot_dmg.__setitem__(d, 1 - c.slot_dmg[d]) if occupied else None,
                lambda: c.served.append(c.hand.pop()) if c.hand else None,
                lambda: setattr(c, "party_slot", d if occupied and c.party_slot != d else -1),
                lambda: c.slot_back.__setitem__(d, 1 - c.slot_back[d]) if c.slot_guest[d] >= 0 else None,
                lambda: c.wdeck.pop() if c.wdeck else None,
                lambda: c.worker_used.__setitem__(int(rng.integers(5)), 1),
                lambda: c.skill_row.__setitem__(int(rng.integers(rules.NK)), -1),
                lambda: setattr(c, "coins", c.coins + 1),
            ):
                before = observer.observation(c)
                edit()
                after = observer.observation(c)
                assert _same(after, reference_vector(rules, observer.layout(0), c)), (game, changed)
                changed += not _same(before, after)
            assert _same(observer.observation(s), reference_vector(rules, observer.layout(0), s))
            legal = rules.legal_actions(s)
            rules.apply(s, legal[int(rng.integers(len(legal)))])
    assert changed > 300


def test_a_pickled_observer_builds_new_rows_right() -> None:
    """After unpickling, the observer's scratch views are rebuilt (a pickled view is a copy), so
    rows it first needs after loading (new grid rows, weather decks, worker slots) are right."""
    rules = MythwindInnkeeperRules(load_data())
    observer = pickle.loads(pickle.dumps(MythwindInnkeeperObserver(rules)))
    rng = np.random.default_rng(8)
    for game in range(4):
        s = rules.initial_state(70 + game)
        while not s.over:
            assert _same(observer.observation(s), reference_vector(rules, observer.layout(0), s))
            legal = rules.legal_actions(s)
            rules.apply(s, legal[int(rng.integers(len(legal)))])


def test_the_parts_must_tile_the_declared_layout(monkeypatch) -> None:
    """The fast path joins its parts in order; a layout whose pieces are not in that order (or not
    at those offsets) is refused when the observer is built, never encoded wrongly."""
    from mythzoo.envs.core.observer import ObservationLayout
    from mythzoo.envs.mythwind_innkeeper import observation as obs_mod

    real = obs_mod.build_layout

    def swapped(r):
        pieces = [(p.name, p.shape, p.doc) for p in real(r).pieces]
        pieces[3], pieces[4] = pieces[4], pieces[3]
        return ObservationLayout(pieces)

    monkeypatch.setattr(obs_mod, "build_layout", swapped)
    with pytest.raises(RuntimeError, match="layout"):
        MythwindInnkeeperObserver(MythwindInnkeeperRules(load_data()))


def test_the_state_carries_no_observation_bookkeeping() -> None:
    """The only derived field of a state is its legal actions (the rules' own cache)."""
    from dataclasses import fields

    from mythzoo.envs.mythwind_innkeeper.rules import DERIVED_FIELDS, State

    assert DERIVED_FIELDS == ("legal",)
    assert {f.name for f in fields(State)} == set(STATE_FIELDS) | {"rng", "legal"}
