"""State and randomness for every game: round trips, copies, seeding, ``resample_hidden``.

``get_state()`` is JSON data that ``set_state`` on a fresh env turns into an identical game (the
same observations, masks, rewards and states to the end); ``copy.deepcopy`` and ``pickle`` give
independent envs that continue identically; a seed decides the whole game and nothing but the env's
own generator is drawn from; ``resample_hidden`` is a function of its seed, keeps everything the
agent sees and redraws what the game's adapter says is hidden.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest

from conformance import games

FACES = ["env", "raw_env"]


def _play(env, seed: int, policy_seed: int = 0, between_steps=None) -> list:
    """A seeded random game: every decision with what the agent saw, and every final ``last()``."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    traj = []
    for agent in env.agent_iter(1_000_000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            traj.append((agent, float(reward), term, trunc))
            env.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        traj.append((agent, a, float(reward), obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        env.step(a)
        if between_steps is not None:
            between_steps()
    return traj


def _same(a, b) -> None:
    assert a.get_state() == b.get_state()
    assert a.agents == b.agents
    if a.agents:
        assert a.agent_selection == b.agent_selection
    for agent in a.possible_agents:
        oa, ob = a.observe(agent), b.observe(agent)
        np.testing.assert_array_equal(oa["observation"], ob["observation"])
        np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"])


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize(("spec", "seats"), games.edge_seat_params())
def test_json_state_deepcopy_and_pickle_continue_identically(spec, seats: int, face: str) -> None:
    """Mid-game: a fresh env loaded from ``json.loads(json.dumps(get_state()))``, a deepcopy and a
    pickled copy take the same actions as the original to the end and stay identical throughout.
    (The simulation harness forks deepcopy and JSON followers at every table size too.)"""
    short = games.adapter(spec).short
    e = games.started(spec, seats, face, steps=30, **short)
    text = json.dumps(e.get_state())
    fresh = games.make(spec, seats, face, **short)
    fresh.set_state(json.loads(text))
    copies = [fresh, copy.deepcopy(e), pickle.loads(pickle.dumps(e))]
    for c in copies:
        _same(c, e)
    rng = np.random.default_rng(8)
    for agent in e.agent_iter(1_000_000):
        obs, reward, term, trunc, info = e.last()
        a = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for c in copies:
            assert c.agent_selection == agent
            co, cr, ct, ctr, ci = c.last()
            assert (cr, ct, ctr, ci) == (reward, term, trunc, info)
            np.testing.assert_array_equal(co["observation"], obs["observation"])
            c.step(a)
        e.step(a)
    for c in copies:
        _same(c, e)


@pytest.mark.parametrize("spec", games.spec_params())
def test_copies_are_independent(spec) -> None:
    """Stepping a deepcopy (or a loaded state) leaves the original as it was, and the reverse."""
    e = games.started(spec, None, "raw_env", steps=5)
    before = e.get_state()
    for c in (copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        c.step(int(np.flatnonzero(c.observe(c.agent_selection)["action_mask"])[0]))
        assert e.get_state() == before, "stepping a copy changed the original"
    c = copy.deepcopy(e)
    kept = c.get_state()
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
    assert c.get_state() == kept, "stepping the original changed its copy"
    loaded = games.make(spec, None, "raw_env")
    state = c.get_state()
    loaded.set_state(state)
    loaded.step(int(np.flatnonzero(loaded.observe(loaded.agent_selection)["action_mask"])[0]))
    assert c.get_state() == state, "set_state keeps no reference to the dict it was given"


@pytest.mark.parametrize(("spec", "seats"), games.edge_seat_params())
def test_same_seed_same_game_and_only_the_envs_own_rng(spec, seats: int) -> None:
    short = games.adapter(spec).short
    e = games.make(spec, seats, **short)
    first = _play(e, seed=11, policy_seed=3)
    end_state = e.get_state()
    assert _play(e, seed=11, policy_seed=3) == first, "reset(seed) on a used env replays the game"
    assert e.get_state() == end_state

    def meddle() -> None:  # what other code in the process does with the global RNGs (RLCard's check)
        np.random.random(3)
        random.random()
        np.random.randint(0, 100)

    np.random.seed(12345)
    random.seed(54321)
    e2 = games.make(spec, seats, **short)
    assert _play(e2, seed=11, policy_seed=3, between_steps=meddle) == first, "the game depends on numpy's or Python's global RNG"
    assert e2.get_state() == end_state
    e3, e4 = games.make(spec, seats), games.make(spec, seats)
    e3.reset(seed=12)
    e4.reset(seed=11)
    assert e3.get_state()["game"] != e4.get_state()["game"], "different seeds gave the same game"


@pytest.mark.parametrize("spec", games.spec_params())
def test_reset_without_seed_draws_fresh_games(spec) -> None:
    e = games.make(spec)
    seen = set()
    for _ in range(3):
        e.reset()
        seen.add(json.dumps(e.get_state()["game"], sort_keys=True))
    assert len(seen) == 3


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_resample_hidden_is_seeded_keeps_the_own_view_and_redraws_the_hidden(spec, seats: int) -> None:
    hidden_view = games.adapter(spec).hidden_view
    e = games.started(spec, seats, "raw_env", steps=30)
    state = e.get_state()
    redrawn = set()
    for agent in e.possible_agents:
        seat = e.possible_agents.index(agent)
        a = e.resample_hidden(agent, 1)
        assert a == e.resample_hidden(agent, 1), "resample_hidden is not a function of its seed"
        assert e.get_state() == state, "resample_hidden changed the env"
        assert set(a) == set(state) and a["config"] == state["config"] and a["aec"] == state["aec"]
        other = games.make(spec, seats, "raw_env")
        other.set_state(json.loads(json.dumps(a)))
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(other.observe(agent)[key], e.observe(agent)[key])
        if hidden_view is not None:
            for s in range(1, 9):
                if hidden_view(e.resample_hidden(agent, s)["game"], seat) != hidden_view(state["game"], seat):
                    redrawn.add(agent)
                    break
    if hidden_view is not None:
        assert redrawn, f"no agent's resample (seeds 1-8) redrew anything hidden_view says is hidden, {spec.env_name} {seats}p"
