"""Rewards, reward modes, the decision bound and the heuristic, as each spec declares them.

- utility: ``zero_sum``: per side (``agent_team``) one game total, the sides' totals sum to 0;
  ``identical``: one total for all; ``constant_sum``: the same sum in every game;
- every agent gets its final ``last()``, and ``env.rewards`` after the game-ending step holds that
  step's rewards (PettingZoo's contract); an unshaped reward mode pays nothing before the end;
- every declared reward mode constructs (the first is the default), an undeclared one is refused;
- no game takes more decisions than ``max_decisions`` declares;
- the heuristic named in the spec builds as ``cls(env, seed)`` and plays whole games of legal moves.
"""

from __future__ import annotations

import inspect
import sys

import numpy as np
import pytest

from conformance import games


def _mode_params():
    return [pytest.param(spec, seats, mode, id=f"{spec.name}-{seats}p-{mode}")
            for spec in games.specs() for seats in spec.seat_counts() for mode in spec.reward_modes]


def _mode_kwargs(spec, mode: str) -> dict:
    takes_mode = "reward_mode" in inspect.signature(spec.env_module().raw_env.__init__).parameters
    return {**games.adapter(spec).short, **({"reward_mode": mode} if takes_mode else {})}


def _play(env, seed: int) -> dict:
    """One seeded random game: per agent its game total and final reward, and what the end looked like."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    final, mid_game, last_mover, at_end = {}, 0, None, None
    for agent in env.agent_iter(1_000_000):
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        if reward or any(env.unwrapped.rewards.values()):
            mid_game += 1
        last_mover = agent
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if at_end is None and all(env.terminations.get(a, False) or env.truncations.get(a, False) for a in env.agents):
            at_end = (dict(env.rewards), env.cumulative_rewards(), any(env.truncations.values()))
    return {"totals": totals, "final": final, "mid_game": mid_game, "last_mover": last_mover, "at_end": at_end}


@pytest.mark.parametrize(("spec", "seats", "mode"), _mode_params())
def test_rewards_follow_the_declared_utility_and_reach_every_agent(spec, seats: int, mode: str) -> None:
    env = games.make(spec, seats, **_mode_kwargs(spec, mode))
    u = env.unwrapped
    sums, others_paid = [], False
    for seed in range(40):  # three games, more while none has paid anyone but the last mover (random play may draw)
        if seed >= 3 and others_paid:
            break
        g = _play(env, seed)
        totals = g["totals"]
        assert set(g["final"]) == set(env.possible_agents), "every agent gets its final last()"
        rewards, cumulative, truncated = g["at_end"]
        assert rewards == pytest.approx(cumulative) or u.shaped, "env.rewards holds the game-ending step's rewards"
        if not u.shaped:
            assert g["mid_game"] == 0, f"reward_mode {mode!r} is not shaped but paid during the game"
            assert g["final"] == pytest.approx(rewards), "an unshaped game pays everything at its end"
        if spec.utility == "zero_sum":
            sides: dict[str, list[float]] = {}
            for a, r in totals.items():
                sides.setdefault(u.agent_team(a), []).append(r)
            assert all(max(v) - min(v) < 1e-9 for v in sides.values()), f"members of a side got different totals: {totals}"
            assert sum(v[0] for v in sides.values()) == pytest.approx(0.0, abs=1e-9), f"totals {totals} do not sum to 0"
        elif spec.utility == "identical":
            assert max(totals.values()) - min(totals.values()) < 1e-9, totals
        sums.append(sum(totals.values()))
        others_paid |= any(g["final"][a] != 0 for a in env.possible_agents if a != g["last_mover"])
    if spec.utility == "constant_sum":
        assert max(sums) - min(sums) < 1e-9, f"constant-sum totals differ: {sums}"
    if spec.utility == "zero_sum" and seats > 1 and not u.shaped:
        assert others_paid, "no agent but the last mover ever got a non-zero final reward"


@pytest.mark.parametrize("face", ["env", "raw_env"])
@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_the_turn_cap_truncates_every_agent(spec, seats: int, face: str) -> None:
    """With the adapter's ``turn_cap``: the cut comes exactly at the cap, the game is not over by its
    rules, every agent is truncated (none terminated) with an all-zero mask, and an unshaped mode pays
    nothing at the cut."""
    e = games.make(spec, seats, face, **games.adapter(spec).turn_cap)
    u = e.unwrapped
    assert u.max_turns is not None and u.config.get("max_turns", u.max_turns) == u.max_turns
    for seed in range(5):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        seen = {}
        for agent in e.agent_iter(1_000_000):
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                if not seen and trunc:
                    assert u.rules.turns_played(u.state_) == u.max_turns and not u.rules.is_over(u.state_)
                    assert all(e.truncations.values()) and not any(e.terminations.values())
                seen[agent] = (reward, term, trunc, obs["action_mask"].any())
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert set(seen) == set(e.possible_agents) and not e.agents
        if any(t for _, _, t, _ in seen.values()):
            assert all(not term and trunc and not masked for _, term, trunc, masked in seen.values()), seen
            if not u.shaped:
                assert all(r == 0.0 for r, *_ in seen.values()), f"a cut game paid {seen}"
            return
    pytest.fail(f"the turn cap {games.adapter(spec).turn_cap} truncated none of 5 games")


@pytest.mark.parametrize("spec", games.spec_params())
def test_declared_reward_modes_construct(spec) -> None:
    raw = spec.env_module().raw_env
    params = inspect.signature(raw.__init__).parameters
    assert spec.reward_modes, "a game declares at least one reward mode"
    env_module = sys.modules[raw.__module__]
    if "reward_mode" not in params:
        assert len(spec.reward_modes) == 1, f"{spec.env_name} declares {spec.reward_modes} but takes no reward_mode"
        return
    assert params["reward_mode"].default == spec.reward_modes[0], "the first declared mode is the default"
    assert tuple(getattr(env_module, "REWARD_MODES", spec.reward_modes)) == spec.reward_modes, "the env module's REWARD_MODES (docs) equal the spec's"
    for mode in spec.reward_modes:
        for make in (spec.make, spec.make_raw):
            e = make(reward_mode=mode)
            assert e.unwrapped.config.get("reward_mode", mode) == mode
            e.reset(seed=0)
    with pytest.raises(ValueError, match="reward_mode"):
        spec.make(reward_mode="no_such_mode")


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_games_take_no_more_decisions_than_declared(spec, seats: int) -> None:
    if spec.max_decisions is None:
        pytest.skip(f"{spec.env_name} declares no max_decisions")
    for extra in ({}, games.adapter(spec).turn_cap):
        kwargs = spec.size_kwargs(seats, extra)
        bound = spec.decision_bound(kwargs)
        assert isinstance(bound, int) and bound > 0
        env = spec.make_raw(**kwargs)
        for seed in range(3):
            decisions = len([t for t in _decisions(env, seed)])
            assert decisions <= bound, f"{decisions} decisions with {kwargs}; max_decisions says {bound}"


def _decisions(env, seed: int):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(1_000_000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield agent
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_the_heuristic_builds_and_plays_legal_moves(spec, seats: int) -> None:
    """Every agent played by the spec's heuristic on the raw env (an illegal move would raise)."""
    cls = spec.heuristic_class()
    kwargs = spec.size_kwargs(seats, games.adapter(spec).short)
    env = spec.make_raw(**kwargs)
    policy = cls(env, 0)
    bound = spec.decision_bound(kwargs)
    env.reset(seed=seats)
    decisions = 0
    for agent in env.agent_iter(1_000_000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = policy.act(obs["observation"], obs["action_mask"], agent)
        assert obs["action_mask"][a] == 1, f"the heuristic chose the illegal action {a} ({env.action_label(a, agent)})"
        batch = policy.act_batch(obs["observation"][None], obs["action_mask"][None], agent)
        assert batch.shape == (1,) and obs["action_mask"][int(batch[0])] == 1
        env.step(a)
        decisions += 1
    assert decisions > 0 and (bound is None or decisions <= bound)
