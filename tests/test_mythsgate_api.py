"""Mythsgate's own promises on top of the conformance suite (``tests/conformance/``, which runs
PettingZoo's ``api_test``/``seed_test``/``render_test``, per-role spaces, seeding, state round
trips, copies and illegal actions for every game): the two roles' sizes, what ``resample_hidden``
keeps for each side, the team rewards, the round cap as a draw, and the rendered board.
"""

from __future__ import annotations

import numpy as np
import pytest
from mythzoo.envs import mythsgate_v2

HERO_COUNTS = [1, 2, 3, 4, 5]


def _act(rng: np.random.Generator):
    return lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play(e, seed: int, policy_seed: int = 0, max_iter: int = 200_000) -> list:
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
        e.step(a)
    return traj


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


def test_the_invoker_and_the_heroes_have_different_sizes() -> None:
    e = mythsgate_v2.env(num_heroes=3)
    assert e.possible_agents == ["invoker", "hero_0", "hero_1", "hero_2"]
    inv = (e.observation_space("invoker")["observation"].shape, e.action_space("invoker").n)
    hero = (e.observation_space("hero_0")["observation"].shape, e.action_space("hero_0").n)
    assert inv != hero, "the two roles are expected to differ in size"
    assert e.action_table("hero_0") is e.action_table("hero_2"), "the heroes share one table"


def test_resample_hidden_is_seeded_and_keeps_the_own_view() -> None:
    e = mythsgate_v2.raw_env(num_heroes=3)
    play_steps(e, 5, 40)
    for agent in ("invoker", "hero_1"):
        a, b, c = e.resample_hidden(agent, 1), e.resample_hidden(agent, 1), e.resample_hidden(agent, 2)
        assert a == b and a["game"] != c["game"]
    g = e.resample_hidden("invoker", 3)["game"]
    assert g["inv_hand"] == e.get_state()["game"]["inv_hand"], "the Invoker's own hand is kept"
    g = e.resample_hidden("hero_0", 3)["game"]
    assert g["h_hand"] == e.get_state()["game"]["h_hand"], "the League's hands are kept for a hero"


@pytest.mark.parametrize("num_heroes", HERO_COUNTS)
def test_team_rewards_zero_sum_and_shared_by_the_heroes(num_heroes: int) -> None:
    e = mythsgate_v2.env(num_heroes=num_heroes)
    winners = set()
    for seed in range(30):  # random play draws often (a random Invoker rarely brings minions to the Castle)
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


@pytest.mark.parametrize("face", ["env", "raw_env"])
def test_round_cap_truncates_as_a_draw(face: str) -> None:
    e = getattr(mythsgate_v2, face)(num_heroes=2, max_rounds=1)
    assert e.unwrapped.max_turns == 1 and mythsgate_v2.env().unwrapped.max_rounds == 30
    for seed in range(20):
        traj = play(e, seed=seed, policy_seed=seed)
        ends = [t for t in traj if len(t) == 4]
        if ends[0][3]:
            assert e.unwrapped.rules.turns_played(e.unwrapped.state_) == 1
            assert all(t[1] == 0.0 and t[3] and not t[2] for t in ends)
            return
    pytest.fail("no game reached the round cap")


@pytest.mark.parametrize("num_heroes", [1, 5])
def test_render_ansi_draws_the_map_and_hides_hands(num_heroes: int) -> None:
    e = mythsgate_v2.env(num_heroes=num_heroes, render_mode="ansi")
    play_steps(e, 3, 50)
    text = e.render()
    assert isinstance(text, str) and "Mythsgate" in text and "Portal" not in text.split("\n")[0]
    assert "POR" in text and "TRS" in text and "Inn" in text
    u = e.unwrapped
    inv_view = u.render_text(0)
    hero_view = u.render_text(1)
    assert "Invoker's hand" in inv_view and "League's hands" not in inv_view
    assert "League's hands" in hero_view and "Invoker's hand" not in hero_view
    human = mythsgate_v2.env(num_heroes=num_heroes, render_mode="human")
    human.reset(seed=0)
    assert human.render() is None
