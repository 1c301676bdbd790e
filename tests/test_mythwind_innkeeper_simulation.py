"""Random-simulation fuzzing of Mythwind: the Innkeeper's campaign lengths through the conformance harness.

Every step the harness validates the state with ``rules.validate``, which checks the invariants the
issue lists: the grid's lasting placement restriction holds (doors and windows in outer slots; a
drink, food, music or play may outlive its kitchen or stage: assumption A15), coins are never negative, every guest
token is in exactly one place (supply, bag, drawn, unseated, or one slot) and so is every
accommodation token and gossip card, and renown stays on its track. The harness also checks that
masks equal the engine's legal actions and are exact, that get_state/set_state/deepcopy followers
stay identical, that resample_hidden keeps the observation, and that changing the hidden part (the
Generator that decides every future draw) does not move the observation. The default campaign, the
turn cap and the terminal reward mode run in ``tests/conformance/test_simulation.py``; here, other
campaign lengths, each of which must end: terminated exactly after ``days_per_season x seasons`` days.
A random policy rarely reaches renown II or III, so a second fuzz plays a greedy innkeeper that
does, with the same engine-level checks. ``--fuzz-games N`` scales the default game counts.
"""

from __future__ import annotations

import numpy as np
import pytest

import mythzoo.envs
from conformance import games
from conformance.harness import Options, run_simulation
from mythzoo.envs import mythwind_innkeeper_v5
from mythzoo.envs.mythwind_innkeeper.rules import G_SUPPLY, OUTER, P_BUY_SLOT, P_DAMAGE, P_LOSE, P_MOVE_DEST, P_OVER, P_SEAT_GUEST, P_SETUP

CONFIGS = [
    {"days_per_season": 2, "seasons": 3},
    {"days_per_season": 14, "seasons": 2, "reward_mode": "terminal"},
]


@pytest.mark.parametrize("config", CONFIGS, ids=["short", "long_terminal"])
def test_random_campaigns(config: dict, fuzz_seeds: range, fuzz_options: Options) -> None:
    seeds = range(fuzz_seeds.start, fuzz_seeds.start + max(1, len(fuzz_seeds) // 3))
    report = run_simulation(games.target(mythzoo.envs.spec("mythwind_innkeeper")), config, seeds, fuzz_options)
    print(report.summary())
    assert report.games == len(seeds)
    assert report.terminated == len(seeds), report.summary()
    assert report.ok, "\n" + report.summary()


@pytest.mark.parametrize("config", [{}, {"days_per_season": 3, "seasons": 5}, {"days_per_season": 1, "seasons": 1}])
def test_campaign_ends_after_its_configured_seasons(config: dict) -> None:
    for seed in range(3):
        e = mythwind_innkeeper_v5.env(**config)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        for _ in e.agent_iter(100_000):
            obs, r, term, trunc, info = e.last()
            if term or trunc:
                assert term and not trunc
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        s, R = e.unwrapped.state_, e.unwrapped.rules
        assert s.over and s.phase == P_OVER
        assert s.turn == R.days_per_season * R.num_seasons
        assert s.season == R.num_seasons - 1


# ------------------------------------------------------------------ greedy fuzz (renown II and III)
def greedy_action(rules, s, legal: list[int], rng: np.random.Generator) -> int:
    """A simple innkeeper: seat everyone, buy the furniture and services the guests ask for when it
    can afford them, resolve skills, damage and lose the cheapest tokens; random tie breaks."""
    R, T = rules, rules.table
    want: dict[int, float] = {}
    for g in range(R.NG):
        if s.guest_loc[g] != G_SUPPLY:
            want[R.gfurn[g]] = want.get(R.gfurn[g], 0) + 1
            for x in R.gserv[g]:
                want[x] = want.get(x, 0) + 0.5
    have: dict[int, int] = {}
    for a in s.slot_acc:
        if a >= 0:
            have[R.acc_type[a]] = have.get(R.acc_type[a], 0) + 1
    best, score = legal[0], -1e9
    for a in legal:
        name, arg = T.decode(a)
        v = 0.0
        if name == "operate":
            v = {0: 1, 1: 3 if s.coins >= 4 else 0, 2: 2, 3: 1.5, 4: -1}[arg]
        elif name == "buy":
            t = R.acc_type[arg]
            need = want.get(t, 0) / 3 - have.get(t, 0)
            v = 2 + need - R.acc_cost[arg] / 8 + (1 if R.acc_style[arg] >= 0 else 0)
            if s.coins - R.acc_cost[arg] < 4 or need <= 0:
                v -= 10
        elif name == "repair":
            v = 3
        elif name == "guest":
            v = 5
        elif name == "slot":
            v = 1 + rng.random()
            if s.phase in (P_DAMAGE, P_LOSE):
                v = -R.acc_cost[s.slot_acc[arg]]
            elif s.phase in (P_BUY_SLOT, P_MOVE_DEST, P_SETUP):
                v = (0 if OUTER[arg] else 1) + rng.random()
        elif name == "skill":
            v = 5
        elif name == "learn":
            v = 1 if s.coins > R.data.skills[arg // R.slots].cost + 10 else -1
        elif name == "hire":
            v = 0.5 if s.coins > 15 else -1
        elif name == "worker":
            v = 2
        elif name == "gossip":
            v = 1
        elif name == "done":
            v = 0.5 if s.phase != P_SEAT_GUEST else -5
        elif name in ("sell", "move"):
            v = -5
        v += rng.random() * 0.3
        if v > score:
            best, score = a, v
    return best


def test_greedy_campaigns_reach_higher_renown_and_stay_valid() -> None:
    """Engine-level checks on campaigns that reach renown II/III: every state valid, the mask exact
    (every legal action applies to a clone and leaves a valid state), JSON round trip identical."""
    reached = set()
    for seed in range(6):
        e = mythwind_innkeeper_v5.raw_env(days_per_season=8, seasons=4)
        e.reset(seed=seed)
        R = e.rules
        rng = np.random.default_rng(seed)
        step = 0
        while not e.terminations["innkeeper"]:
            s = e.state_
            R.validate(s)
            legal = R.legal_actions(s)
            assert legal
            if step % 3 == 0:
                for a in legal:
                    c = R.clone(s)
                    R.apply(c, a)
                    R.validate(c)
                    assert c.over or R.legal_actions(c)
                assert R.to_json(R.from_json(R.to_json(s))) == R.to_json(s)
            e.step(greedy_action(R, s, legal, rng))
            reached.add(R.level(e.state_))
            step += 1
        assert e.state_.turn == 32
    assert 2 in reached, f"greedy campaigns never reached renown level II: {reached}"
