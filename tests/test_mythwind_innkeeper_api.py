"""Mythwind: the Innkeeper's own promises on top of the conformance suite (``tests/conformance/``,
which runs PettingZoo's ``api_test``/``seed_test``/``render_test``, Gymnasium's ``check_env``, the
``SoloGymEnv`` contract, MaskablePPO, seeding, state round trips and copies for every game):
the action space's size, rewards (coins per step, terminal mode, returns equal to the net coin
total, an illegal action's -1 in both modes), infos, what ``resample_hidden`` redraws, the render.
"""

from __future__ import annotations

import numpy as np
import pytest

from mythzoo.envs import IllegalActionError
from mythzoo.envs import mythwind_innkeeper_v5 as inn
from mythzoo.envs.mythwind_innkeeper.gym_env import MythwindInnkeeperGymEnv
from mythzoo.envs.mythwind_innkeeper.components import load_data

N_ACTIONS = 297
DATA_COSTS = [a.cost for a in load_data().accommodations]


def play(env, seed: int, policy_seed: int = 0, stop_after: int | None = None) -> dict:
    """Seeded random play; returns the trajectory, summed rewards and the final last()."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    traj, total, final, n = [], 0.0, None, 0
    for agent in env.agent_iter(100_000):
        obs, reward, term, trunc, info = env.last()
        total += reward
        if term or trunc:
            final = (reward, term, trunc, dict(info))
            env.step(None)
            continue
        if stop_after is not None and n >= stop_after:
            break
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        traj.append((a, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        env.step(a)
        n += 1
    return {"traj": traj, "return": total, "final": final}


def test_the_innkeeper_has_297_actions_with_the_default_data() -> None:
    e = inn.env()
    assert e.possible_agents == ["innkeeper"]
    assert e.action_space("innkeeper").n == N_ACTIONS == e.action_table().n


# ----------------------------------------------------------------------- the Gymnasium env
def test_gym_env_return_is_the_net_coin_total_of_the_campaign() -> None:
    g = MythwindInnkeeperGymEnv()
    obs, info = g.reset(seed=3)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        obs, r, term, trunc, info = g.step(int(rng.choice(np.flatnonzero(g.action_masks()))))
        total += r
        done = term or trunc
    assert total == info["worth"] - 10
    assert info["day"] == 24


def test_gym_env_terminal_reward_mode_and_the_day_cap() -> None:
    g = MythwindInnkeeperGymEnv(reward_mode="terminal", days_per_season=2, seasons=2)
    obs, _ = g.reset(seed=1)
    rng = np.random.default_rng(1)
    rewards = []
    while True:
        obs, r, term, trunc, info = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        rewards.append(r)
        if term or trunc:
            break
    assert all(x == 0 for x in rewards[:-1]) and rewards[-1] == info["worth"] - 10
    t = MythwindInnkeeperGymEnv(max_turns=2)
    obs, _ = t.reset(seed=1)
    while True:
        obs, r, term, trunc, info = t.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            break
    assert trunc and not term and info["day"] == 2


# ----------------------------------------------------------------------- hidden information
def test_resample_hidden_keeps_the_observation_and_redraws_only_the_generator() -> None:
    e = inn.env()
    play(e, 2, stop_after=15)
    st = e.get_state()
    r1, r2 = e.resample_hidden("innkeeper", 1), e.resample_hidden("innkeeper", 1)
    assert r1 == r2
    assert r1["game"]["rng"] != st["game"]["rng"]
    assert {k: v for k, v in r1["game"].items() if k != "rng"} == {k: v for k, v in st["game"].items() if k != "rng"}
    f = inn.env()
    f.set_state(r1)
    assert np.array_equal(f.observe("innkeeper")["observation"], e.observe("innkeeper")["observation"])


# ----------------------------------------------------------------------- rewards and infos
def test_coins_reward_mode_return_is_the_net_coin_total_and_infos_carry_renown() -> None:
    e = inn.env()
    out = play(e, 4)
    s = e.unwrapped.state_
    assert out["return"] == e.unwrapped.rules.worth(s) - 10
    reward, term, trunc, info = out["final"]
    assert term and not trunc
    assert {"coins", "worth", "earned", "renown", "renown_level", "seated", "unseated", "day", "season"} <= set(info)
    assert info["coins"] == s.coins and info["worth"] == e.unwrapped.scores()["innkeeper"] and info["day"] == 24


def test_terminal_reward_mode_pays_only_at_the_end() -> None:
    e = inn.env(reward_mode="terminal")
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    rewards = []
    for _ in e.agent_iter(100_000):
        obs, r, term, trunc, info = e.last()
        rewards.append(r)
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(x == 0 for x in rewards[:-1])
    assert rewards[-1] == e.unwrapped.rules.worth(e.unwrapped.state_) - 10


def test_score_is_coins_plus_the_inn_sale_value_so_selling_at_the_end_gains_nothing() -> None:
    e = inn.raw_env()
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    sold = 0
    for ag in e.agent_iter(100_000):
        obs, r, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        sells = [a for a in legal if e.action_label(int(a)).startswith("sell")]
        if sells:  # selling a token: coins up by half its cost, the score unchanged, a zero reward
            s = e.unwrapped.state_
            before, coins, earned = e.scores()["innkeeper"], s.coins, s.earned
            e.step(int(sells[0]))
            s = e.unwrapped.state_
            if s.phase == e.unwrapped.rules.PHASE_NAMES.index("improve"):  # forced steps after it (a dusk) change coins too
                assert e.scores()["innkeeper"] == before and s.coins - coins == s.earned - earned
                assert e.rewards["innkeeper"] == 0.0
                sold += 1
            continue
        e.step(int(rng.choice(legal)))
    s = e.unwrapped.state_
    value = sum(DATA_COSTS[a] // 2 for a in s.slot_acc if a >= 0)
    assert sold and e.scores()["innkeeper"] == s.coins + value


def test_truncated_campaign_pays_the_last_steps_reward_and_no_final_reward() -> None:
    paid = 0  # capping steps that changed the worth (so their reward is not 0 by chance)
    for mode in ("coins", "terminal"):
        for seed in range(6):
            e = inn.env(max_turns=2, reward_mode=mode)
            e.reset(seed=seed)
            rng = np.random.default_rng(seed)
            total, worth, last = 0.0, 10, None
            for ag in e.agent_iter(100_000):
                obs, r, term, trunc, info = e.last()
                total += r
                if term or trunc:
                    last = (r, term, trunc, info)
                    e.step(None)
                    continue
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                worth_before, worth = worth, e.infos["innkeeper"]["worth"] if e.agents else worth
            r, term, trunc, info = last
            assert trunc and not term and info["day"] == 2
            if mode == "coins":  # the step that reached the cap paid its own change of worth, like any step
                assert r == worth - worth_before and total == info["worth"] - 10
                paid += r != 0.0
            else:  # the campaign never reached its end: no final reward
                assert total == 0.0
    assert paid


@pytest.mark.parametrize("reward_mode", ["coins", "terminal"])
def test_env_illegal_action_ends_with_minus_one_and_raw_env_raises(reward_mode: str) -> None:
    """Exactly -1 in both modes (the shaped coins mode adds no coin change to it); the raw env raises."""
    e = inn.env(reward_mode=reward_mode)
    play(e, 0, stop_after=10)
    bad = int(np.flatnonzero(e.observe("innkeeper")["action_mask"] == 0)[0])
    e.step(bad)
    assert e.terminations["innkeeper"] and e.rewards["innkeeper"] == -1.0 and e.cumulative_reward("innkeeper") == -1.0
    r = inn.raw_env(reward_mode=reward_mode)
    r.reset(seed=0)
    before = r.get_state()
    with pytest.raises(IllegalActionError):
        r.step(int(np.flatnonzero(r.observe("innkeeper")["action_mask"] == 0)[0]))
    assert r.get_state() == before


def test_render_draws_the_grid_guests_coins_and_renown() -> None:
    e = inn.env(render_mode="ansi")
    play(e, 0, stop_after=12)
    text = e.render()
    assert text.startswith("Mythwind: the Innkeeper")
    assert "Coins" in text and "Renown" in text and "== Inn ==" in text
    grid = [ln for ln in text.splitlines() if ln.startswith("|")]
    assert len(grid) == 5 and all(ln.count("|") == 6 for ln in grid)
