"""Mythsgate against PettingZoo's API: the official test suite plus the promises of the env docs.

``api_test``/``seed_test``/``render_test`` for ``env()`` and ``raw_env`` at every hero count; per-role
sizes that do not depend on the hero count; feature names and action labels; seeding (own RNG
only); team rewards (zero-sum between the sides, shared by the heroes); the round cap; deepcopy,
pickle and get_state/set_state round trips; rendering.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest
from mythzoo.envs import mythsgate_v0
from mythzoo.envs.core.errors import IllegalActionError
from pettingzoo.test import api_test, render_test, seed_test

HERO_COUNTS = [1, 2, 3, 4, 5]


def _act(rng: np.random.Generator):
    return lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play(e, seed: int, policy_seed: int = 0, between_steps=None, max_iter: int = 200_000) -> list:
    e.reset(seed=seed)
    act = _act(np.random.default_rng(policy_seed))
    traj = []
    for agent in e.agent_iter(max_iter):
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            traj.append((agent, float(reward), term, trunc))
            e.step(None)
            continue
        a = act(obs)
        traj.append((agent, a))
        if between_steps:
            between_steps()
        e.step(a)
    return traj


# ------------------------------------------------------------------------- PettingZoo suite
@pytest.mark.parametrize("num_heroes", HERO_COUNTS)
def test_pettingzoo_api_test(num_heroes: int) -> None:
    api_test(mythsgate_v0.env(num_heroes=num_heroes), num_cycles=300)


@pytest.mark.parametrize("num_heroes", [1, 3])
def test_pettingzoo_api_test_raw_env(num_heroes: int) -> None:
    api_test(mythsgate_v0.raw_env(num_heroes=num_heroes), num_cycles=300)


@pytest.mark.parametrize("num_heroes", HERO_COUNTS)
def test_pettingzoo_seed_test(num_heroes: int) -> None:
    seed_test(lambda: mythsgate_v0.env(num_heroes=num_heroes), num_cycles=200)


def test_pettingzoo_render_test() -> None:
    render_test(lambda render_mode=None: mythsgate_v0.env(num_heroes=2, render_mode=render_mode))


def test_registered_with_pettingzoo_when_listed() -> None:
    import mythzoo.envs

    if "mythsgate_v0" not in mythzoo.envs.ENVS:
        pytest.skip("mythsgate_v0 is not listed in mythzoo.envs yet")
    import pettingzoo

    e = pettingzoo.make("aec", "mythzoo/mythsgate-v0")
    assert isinstance(e.unwrapped, mythsgate_v0.raw_env)
    assert not e.unwrapped.strict


# ------------------------------------------------------------------------------ spaces and names
def test_per_role_sizes_do_not_depend_on_hero_count() -> None:
    inv_sizes, hero_sizes = set(), set()
    for k in HERO_COUNTS:
        e = mythsgate_v0.env(num_heroes=k)
        e.reset(seed=k)
        assert e.possible_agents == ["invoker"] + [f"hero_{h}" for h in range(k)]
        for a in e.possible_agents:
            obs = e.observe(a)
            sp = e.observation_space(a)
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            assert obs["observation"].shape == sp["observation"].shape and obs["action_mask"].shape == (e.action_space(a).n,)
            (inv_sizes if a == "invoker" else hero_sizes).add((sp["observation"].shape[0], e.action_space(a).n))
    assert len(inv_sizes) == 1 and len(hero_sizes) == 1, (inv_sizes, hero_sizes)
    assert inv_sizes != hero_sizes, "the two roles are expected to differ in size"


@pytest.mark.parametrize("num_heroes", [1, 5])
def test_observation_features_one_unique_name_per_entry(num_heroes: int) -> None:
    e = mythsgate_v0.env(num_heroes=num_heroes)
    e.reset(seed=0)
    for a in e.possible_agents:
        names = e.observation_features(a)
        assert len(names) == e.observation_space(a)["observation"].shape[0]
        assert len(set(names)) == len(names)


def test_action_labels_and_tables_round_trip() -> None:
    e = mythsgate_v0.raw_env(num_heroes=3)
    for agent in ("invoker", "hero_1"):
        table = e.action_table(agent)
        assert table.n == e.action_space(agent).n
        labels = [e.action_label(a, agent) for a in range(table.n)]
        assert len(set(labels)) == table.n
        for a in range(table.n):
            name, arg = table.decode(a)
            assert table.encode(name, arg) == a and labels[a].startswith(name)
    assert e.action_table("hero_0") is e.action_table("hero_2")


# ---------------------------------------------------------------------------------- seeding
@pytest.mark.parametrize("num_heroes", [2, 4])
def test_same_seed_same_game_and_only_the_envs_own_rng(num_heroes: int) -> None:
    e = mythsgate_v0.env(num_heroes=num_heroes)
    first = play(e, seed=11, policy_seed=3)
    end = e.get_state()
    assert play(e, seed=11, policy_seed=3) == first
    np.random.seed(1)
    random.seed(2)

    def meddle() -> None:
        np.random.random(3)
        random.random()

    e2 = mythsgate_v0.env(num_heroes=num_heroes)
    assert play(e2, seed=11, policy_seed=3, between_steps=meddle) == first
    assert e2.get_state() == end
    e.reset(seed=12)
    g12 = e.get_state()["game"]
    e.reset(seed=11)
    assert g12 != e.get_state()["game"]


def test_resample_hidden_is_seeded_and_keeps_the_own_view() -> None:
    e = mythsgate_v0.raw_env(num_heroes=3)
    play_steps(e, 5, 40)
    for agent in ("invoker", "hero_1"):
        a, b, c = e.resample_hidden(agent, 1), e.resample_hidden(agent, 1), e.resample_hidden(agent, 2)
        assert a == b and a["game"] != c["game"]
        other = mythsgate_v0.raw_env(num_heroes=3)
        other.set_state(a)
        np.testing.assert_array_equal(other.observe(agent)["observation"], e.observe(agent)["observation"])
    g = e.resample_hidden("invoker", 3)["game"]
    assert g["inv_hand"] == e.get_state()["game"]["inv_hand"], "the Invoker's own hand is kept"
    g = e.resample_hidden("hero_0", 3)["game"]
    assert g["h_hand"] == e.get_state()["game"]["h_hand"], "the League's hands are kept for a hero"


def play_steps(e, seed: int, steps: int) -> None:
    """Reset and play ``steps`` random decisions, trying later seeds until a game lasts that long."""
    for sd in range(seed, seed + 50):
        e.reset(seed=sd)
        act = _act(np.random.default_rng(sd))
        for _ in range(steps):
            e.step(act(e.observe(e.agent_selection)))
            if e.unwrapped.state_.over:
                break
        else:
            return
    raise AssertionError("no game lasted long enough")


# ---------------------------------------------------------------------------------- rewards
@pytest.mark.parametrize("num_heroes", HERO_COUNTS)
def test_team_rewards_zero_sum_and_shared_by_the_heroes(num_heroes: int) -> None:
    e = mythsgate_v0.env(num_heroes=num_heroes)
    winners = set()
    for seed in range(6):
        traj = play(e, seed=seed, policy_seed=seed)
        final = {t[0]: t[1] for t in traj if len(t) == 4}
        assert set(final) == set(e.possible_agents)
        if all(e.terminations.get(a, True) for a in e.possible_agents) and not any(t[3] for t in traj if len(t) == 4):
            inv = final["invoker"]
            assert inv in (1.0, -1.0)
            assert all(final[a] == -inv for a in e.possible_agents[1:])
            assert e.unwrapped.state_.winner == (0 if inv > 0 else 1)
            winners.add(inv)
        else:
            assert all(v == 0.0 for v in final.values())
    assert winners, "no game ended with a winner"


def test_rewards_are_zero_before_the_end() -> None:
    e = mythsgate_v0.env(num_heroes=2)
    e.reset(seed=2)
    act = _act(np.random.default_rng(0))
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            break
        assert reward == 0.0 and all(v == 0.0 for v in e.rewards.values())
        e.step(act(obs))


@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_round_cap_truncates_as_a_draw(face: str) -> None:
    e = getattr(mythsgate_v0, face)(num_heroes=2, max_rounds=1)
    assert e.unwrapped.max_turns == 1 and mythsgate_v0.env().unwrapped.max_rounds == 30
    for seed in range(20):
        traj = play(e, seed=seed, policy_seed=seed)
        ends = [t for t in traj if len(t) == 4]
        if ends[0][3]:
            assert e.unwrapped.rules.turns_played(e.unwrapped.state_) == 1
            assert all(t[1] == 0.0 and t[3] and not t[2] for t in ends)
            return
    pytest.fail("no game reached the round cap")


# ------------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_deepcopy_pickle_and_state_round_trip_mid_game(face: str) -> None:
    e = getattr(mythsgate_v0, face)(num_heroes=3)
    play_steps(e, 8, 60)
    state = json.loads(json.dumps(e.get_state()))
    fresh = getattr(mythsgate_v0, face)(num_heroes=3)
    fresh.set_state(state)
    assert fresh.get_state() == e.get_state()
    copies = [copy.deepcopy(e), pickle.loads(pickle.dumps(e)), fresh]
    act = _act(np.random.default_rng(8))
    for _ in range(200):
        if not e.agents or any(e.terminations.values()) or any(e.truncations.values()):
            break
        a = act(e.observe(e.agent_selection))
        for x in (e, *copies):
            x.step(a)
    for c in copies:
        assert c.get_state() == e.get_state()
        for agent in e.possible_agents:
            np.testing.assert_array_equal(c.observe(agent)["observation"], e.observe(agent)["observation"])


def test_illegal_actions_in_both_faces() -> None:
    e = mythsgate_v0.raw_env(num_heroes=2)
    play_steps(e, 4, 30)
    before = e.get_state()
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="illegal"):
        e.step(bad)
    assert e.get_state() == before
    e2 = mythsgate_v0.env(num_heroes=2)
    play_steps(e2, 4, 30)
    e2.step(bad)
    assert all(e2.terminations.values()) and e2.cumulative_reward(agent) == -1.0


# ------------------------------------------------------------------------------------ render
@pytest.mark.parametrize("num_heroes", [1, 5])
def test_render_ansi_draws_the_map_and_hides_hands(num_heroes: int) -> None:
    e = mythsgate_v0.env(num_heroes=num_heroes, render_mode="ansi")
    play_steps(e, 3, 50)
    text = e.render()
    assert isinstance(text, str) and "Mythsgate" in text and "Portal" not in text.split("\n")[0]
    assert "POR" in text and "TRS" in text and "Inn" in text
    u = e.unwrapped
    inv_view = u.render_text(0)
    hero_view = u.render_text(1)
    assert "Invoker's hand" in inv_view and "League's hands" not in inv_view
    assert "League's hands" in hero_view and "Invoker's hand" not in hero_view
    human = mythsgate_v0.env(num_heroes=num_heroes, render_mode="human")
    human.reset(seed=0)
    assert human.render() is None
