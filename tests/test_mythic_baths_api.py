"""Mythic Baths against PettingZoo's API: the official test suite plus the promises of the env docs.

PettingZoo's ``api_test``/``seed_test``/``render_test`` for ``env()`` and ``raw_env`` at several
player counts; registration with ``pettingzoo.make``; sizes that do not depend on the player
count; feature names and action labels; seeding (own RNG only); rewards (zero-sum, score mode,
delivery to agents that did not make the last move); the turn cap; illegal actions in both faces.
"""

from __future__ import annotations

import random

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import mythzoo.envs
from mythzoo.envs import IllegalActionError, mythic_baths_v0

PLAYER_COUNTS = [2, 3, 4, 5]
N_ACTIONS = 132


def _random_policy(rng: np.random.Generator):
    def act(obs: dict) -> int:
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    return act


def play(env, seed: int, policy_seed: int = 0, between_steps=None, max_iter: int = 100_000) -> dict:
    """Play one game with a seeded random policy; returns the trajectory and every agent's final last()."""
    env.reset(seed=seed)
    act = _random_policy(np.random.default_rng(policy_seed))
    traj, final, last_mover = [], {}, None
    for agent in env.agent_iter(max_iter):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (float(reward), term, trunc, dict(info))
            env.step(None)
            continue
        a = act(obs)
        traj.append((agent, a, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        last_mover = agent
        env.step(a)
        if between_steps is not None:
            between_steps()
    return {"traj": traj, "final": final, "last_mover": last_mover}


# ------------------------------------------------------------------ PettingZoo's own tests
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_pettingzoo_api_test(face: str, num_players: int) -> None:
    make = getattr(mythic_baths_v0, face)
    # num_cycles counts rounds of all agents; games take < 200 rounds, so they finish.
    api_test(make(num_players=num_players), num_cycles=1000)


@pytest.mark.parametrize("num_players", [2, 3, 5])
@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_pettingzoo_seed_test(face: str, num_players: int) -> None:
    make = getattr(mythic_baths_v0, face)
    seed_test(lambda: make(num_players=num_players), num_cycles=500)


@pytest.mark.parametrize("num_players", [2, 4])
@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_pettingzoo_render_test(face: str, num_players: int, capsys) -> None:
    make = getattr(mythic_baths_v0, face)
    render_test(
        lambda render_mode=None: make(num_players=num_players, render_mode=render_mode),
        custom_tests={"ansi": lambda text: isinstance(text, str) and text.startswith("Mythic Baths")},
    )
    assert "Mythic Baths" in capsys.readouterr().out  # human mode prints


def test_pettingzoo_make_and_registry() -> None:
    e = pettingzoo.make("aec", "mythzoo/mythic_baths-v0")
    assert isinstance(e.unwrapped, mythic_baths_v0.raw_env)
    assert not e.unwrapped.strict, "the registered entry point must be env() (illegal actions end the game)"
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1"]
    e3 = pettingzoo.make("aec", "mythzoo/mythic_baths-v0", num_players=3)
    e3.reset(seed=0)
    assert len(e3.possible_agents) == 3
    assert mythzoo.envs.make("mythic_baths", num_players=4).possible_agents[-1] == "player_3"
    with pytest.raises(KeyError, match="unknown env"):
        mythzoo.envs.make("no_such_game")


# ----------------------------------------------------------------------- spaces and names
def test_observation_and_action_sizes_do_not_depend_on_player_count() -> None:
    sizes = set()
    for n in PLAYER_COUNTS:
        e = mythic_baths_v0.env(num_players=n)
        e.reset(seed=n)
        for a in e.possible_agents:
            space = e.observation_space(a)
            obs = e.observe(a)
            sizes.add((space["observation"].shape, space["action_mask"].shape, e.action_space(a).n, obs["observation"].shape, obs["action_mask"].shape))
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert len(sizes) == 1, sizes
    ((obs_shape, mask_shape, n_act, *_),) = sizes
    assert mask_shape == (N_ACTIONS,) and n_act == N_ACTIONS


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_observation_features_one_unique_name_per_entry(num_players: int) -> None:
    e = mythic_baths_v0.env(num_players=num_players)
    e.reset(seed=0)
    for a in [None, *e.possible_agents]:
        names = e.observation_features(a)
        agent = a or e.possible_agents[0]
        assert len(names) == e.observation_space(agent)["observation"].shape[0] == e.observe(agent)["observation"].shape[0]
        assert all(isinstance(x, str) and x for x in names)
        dup = {x for x in names if names.count(x) > 1}
        assert not dup, f"duplicate feature names: {sorted(dup)[:10]}"


def test_action_labels_and_table_round_trip() -> None:
    e = mythic_baths_v0.raw_env(num_players=3)
    table = e.unwrapped.rules.table
    assert table.n == N_ACTIONS == e.action_space("player_0").n
    labels = []
    for a in range(N_ACTIONS):
        label = e.action_label(a)
        assert isinstance(label, str) and label, a
        name, arg = table.decode(a)
        assert table.encode(name, arg) == a
        assert table.decode(table.encode(name, arg)) == (name, arg)
        assert label.startswith(name), (a, label, name)
        labels.append(label)
    assert len(set(labels)) == N_ACTIONS, "two action ids share a label"
    for bad in (-1, N_ACTIONS):
        with pytest.raises(ValueError):
            table.decode(bad)
    with pytest.raises(ValueError):
        table.encode("treat", 99)


# ---------------------------------------------------------------------------------- seeding
@pytest.mark.parametrize("num_players", [2, 4])
def test_same_seed_same_game_and_only_the_envs_own_rng(num_players: int) -> None:
    e = mythic_baths_v0.env(num_players=num_players)
    first = play(e, seed=11, policy_seed=3)
    end_state = e.get_state()
    again = play(e, seed=11, policy_seed=3)  # reset on a used env
    assert again == first
    assert e.get_state() == end_state

    def meddle() -> None:  # what other code in the process does with the global RNGs (RLCard's check)
        np.random.random(3)
        random.random()
        np.random.randint(0, 100)

    np.random.seed(12345)
    random.seed(54321)
    e2 = mythic_baths_v0.env(num_players=num_players)
    disturbed = play(e2, seed=11, policy_seed=3, between_steps=meddle)
    assert disturbed == first, "the trajectory depends on numpy's or Python's global RNG"
    assert e2.get_state() == end_state

    e3, e4 = mythic_baths_v0.env(num_players=num_players), mythic_baths_v0.env(num_players=num_players)
    e3.reset(seed=12)
    e4.reset(seed=11)
    assert e3.get_state()["game"] != e4.get_state()["game"], "different seeds gave the same deal"


def test_reset_without_seed_draws_fresh_games() -> None:
    e = mythic_baths_v0.env(num_players=2)
    deals = set()
    for _ in range(3):
        e.reset()
        g = e.get_state()["game"]
        deals.add(repr((g["deck"], g["bath_guest"], g["hands"])))
    assert len(deals) > 1


def test_resample_hidden_is_seeded_and_keeps_the_own_view() -> None:
    e = mythic_baths_v0.raw_env(num_players=3)
    e.reset(seed=5)
    agent = e.agent_selection
    a, b, c = e.resample_hidden(agent, 1), e.resample_hidden(agent, 1), e.resample_hidden(agent, 2)
    assert a == b
    assert a["game"] != c["game"]
    seat = e.possible_agents.index(agent)
    assert a["game"]["hands"][seat] == e.get_state()["game"]["hands"][seat]
    other = mythic_baths_v0.raw_env(num_players=3)
    other.set_state(a)
    np.testing.assert_array_equal(other.observe(agent)["observation"], e.observe(agent)["observation"])


# ---------------------------------------------------------------------------------- rewards
def _expected_final(env) -> dict[str, float]:
    u = env.unwrapped
    n = len(u.possible_agents)
    if u.reward_mode == "score":
        sc = u.rules.scores(u.state_)
        return {a: (sc[i] - (sum(sc) - sc[i]) / (n - 1)) / 100.0 for i, a in enumerate(u.possible_agents)}
    win = u.rules.winners(u.state_)
    out = {}
    for i, a in enumerate(u.possible_agents):
        out[a] = (1.0 / len(win) if i in win else 0.0) * n / (n - 1) - 1.0 / (n - 1)
    return out


@pytest.mark.parametrize("reward_mode", ["zero_sum", "score"])
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_final_rewards_sum_to_zero_and_reach_every_agent(num_players: int, reward_mode: str) -> None:
    """Every agent, including those that did not make the game-ending move, gets its final reward."""
    e = mythic_baths_v0.env(num_players=num_players, reward_mode=reward_mode)
    enders = set()
    for seed in range(6):
        e.reset(seed=seed)
        act = _random_policy(np.random.default_rng(seed))
        final, last_mover = {}, None
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                if not final:  # right after the game-ending move, before any dead step
                    expected = _expected_final(e)
                    assert e.cumulative_rewards() == pytest.approx(expected)
                    assert all(e.terminations.values()) and not any(e.truncations.values())
                final[agent] = reward
                e.step(None)
                continue
            last_mover = agent
            e.step(act(obs))
        assert set(final) == set(e.possible_agents)
        assert final == pytest.approx(expected), f"seed {seed}: last() rewards {final}, expected {expected}"
        assert sum(final.values()) == pytest.approx(0.0, abs=1e-9)
        others = [a for a in e.possible_agents if a != last_mover]
        assert any(final[a] != 0 for a in others), "no agent other than the last mover got a non-zero reward"
        enders.add(last_mover)
        if reward_mode == "zero_sum":
            u = e.unwrapped
            win = u.rules.winners(u.state_)
            if len(win) == 1:
                assert final[u.possible_agents[win[0]]] == pytest.approx(1.0)
                assert sorted(final.values())[0] == pytest.approx(-1.0 / (num_players - 1))
    assert len(enders) >= 2 or num_players == 2, f"all games ended by the same agent {enders}; vary the seeds"


def test_rewards_are_zero_before_the_end() -> None:
    e = mythic_baths_v0.env(num_players=3)
    e.reset(seed=2)
    act = _random_policy(np.random.default_rng(0))
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            break
        assert reward == 0.0 and all(v == 0.0 for v in e.rewards.values())
        e.step(act(obs))


# --------------------------------------------------------------------------------- turn cap
@pytest.mark.parametrize("face", ["env", "raw_env"])
@pytest.mark.parametrize("num_players", [2, 5])
def test_turn_cap_truncates(face: str, num_players: int) -> None:
    e = getattr(mythic_baths_v0, face)(num_players=num_players, max_turns=3)
    assert e.unwrapped.config["max_turns"] == 3
    assert mythic_baths_v0.env(num_players=num_players).unwrapped.max_turns == 120 * num_players
    e.reset(seed=0)
    act = _random_policy(np.random.default_rng(0))
    seen = {}
    for agent in e.agent_iter(10_000):
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            if not seen:
                assert e.unwrapped.rules.turns_played(e.unwrapped.state_) == 3
                assert all(e.truncations.values()) and not any(e.terminations.values())
                assert not e.unwrapped.rules.is_over(e.unwrapped.state_)
                assert not e.observe(agent)["action_mask"].any()
            seen[agent] = (reward, term, trunc)
            e.step(None)
            continue
        e.step(act(obs))
    assert not e.agents
    assert seen == {a: (0.0, False, True) for a in e.possible_agents}


# --------------------------------------------------------------------------- illegal actions
def _advance(e, steps: int, seed: int = 0) -> None:
    act = _random_policy(np.random.default_rng(seed))
    for _ in range(steps):
        e.step(act(e.observe(e.agent_selection)))


@pytest.mark.parametrize("num_players", [2, 4])
def test_env_illegal_action_ends_game_with_minus_one(num_players: int) -> None:
    e = mythic_baths_v0.env(num_players=num_players)
    e.reset(seed=3)
    _advance(e, 25)
    offender = e.agent_selection
    mask = e.observe(offender)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    e.step(bad)
    assert all(e.terminations.values())
    assert e.cumulative_rewards() == {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    assert e.infos[offender].get("illegal_action") == bad
    seen = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        assert term and not trunc
        assert not obs["action_mask"].any()
        seen[agent] = (reward, info.get("illegal_action"))
        e.step(None)
    assert seen == {a: ((-1.0, bad) if a == offender else (0.0, None)) for a in e.possible_agents}


def test_raw_env_illegal_action_raises_and_changes_nothing() -> None:
    e = mythic_baths_v0.raw_env(num_players=3)
    e.reset(seed=4)
    _advance(e, 40)
    before = e.get_state()
    obs_before = e.observe(e.agent_selection)
    mask = obs_before["action_mask"]
    for bad in np.flatnonzero(mask == 0)[:: 7]:
        with pytest.raises(IllegalActionError, match="illegal|not legal") as info:
            e.step(int(bad))
        assert e.action_label(int(bad)) in str(info.value)
        assert e.get_state() == before
    np.testing.assert_array_equal(e.observe(e.agent_selection)["observation"], obs_before["observation"])
    e.step(int(np.flatnonzero(mask)[0]))  # still playable
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize("ending", ["natural", "illegal"])
def test_rewards_dict_holds_the_game_ending_steps_rewards(ending: str) -> None:
    """PettingZoo's contract (checked by api_test's play_test): after a step, ``env.rewards`` holds
    the rewards that step produced, and their running sum is what last() reports."""
    e = mythic_baths_v0.env(num_players=3)
    e.reset(seed=1)
    act = _random_policy(np.random.default_rng(1))
    if ending == "illegal":
        _advance(e, 10)
        offender = e.agent_selection
        e.step(int(np.flatnonzero(e.observe(offender)["action_mask"] == 0)[0]))
        expected = {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    else:
        while not any(e.terminations.values()):
            e.step(act(e.observe(e.agent_selection)))
        expected = _expected_final(e)
    assert e.cumulative_rewards() == pytest.approx(expected)
    assert e.rewards == pytest.approx(expected), f"env.rewards after the game-ending step is {e.rewards}, expected {expected}"


@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_env_copies_and_pickles_mid_game(face: str) -> None:
    """deepcopy and pickle (multiprocessing, Ray, vector envs) give an env that continues identically."""
    import copy
    import pickle

    e = getattr(mythic_baths_v0, face)(num_players=3)
    e.reset(seed=8)
    _advance(e, 30)
    copies = [copy.deepcopy(e), pickle.loads(pickle.dumps(e))]
    act = _random_policy(np.random.default_rng(8))
    for _ in range(60):
        if any(e.terminations.values()):
            break
        a = act(e.observe(e.agent_selection))
        for x in (e, *copies):
            x.step(a)
    for c in copies:
        assert c.get_state() == e.get_state()
