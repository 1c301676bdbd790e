"""Mythwind Innkeeper: the shortcut legality code equals its plain definition. At every step of
many seeded random campaigns (the rules' auto-play off, so every decision is seen), the Improve
options and the placement slots computed with shortcuts equal what :meth:`can_place` and
:meth:`sell_ok` give slot by slot, on the state reached and on variants of it (other coins,
renown and Improve parts used)."""

from __future__ import annotations

import numpy as np
import pytest
from mythzoo.envs.mythwind_innkeeper.actions import NUM_SLOTS
from mythzoo.envs.mythwind_innkeeper.components import KITCHEN, STAGE, load_data
from mythzoo.envs.mythwind_innkeeper.rules import A_SUPPLY, MythwindInnkeeperRules


def _reference_improve(R: MythwindInnkeeperRules, s) -> list[int]:
    acts = []
    lvl = R.level(s)
    empty = [d for d in range(NUM_SLOTS) if s.slot_acc[d] < 0]
    if not s.improve_used[0]:
        for a, loc in enumerate(s.acc_slot):
            if (loc == A_SUPPLY and R.acc_req[a] <= lvl and R.acc_cost[a] <= s.coins
                    and any(R.can_place(s, R.acc_type[a], d) for d in empty)):
                acts.append(R.A_BUY + a)
    if not s.improve_used[1]:
        for d in range(NUM_SLOTS):
            a = s.slot_acc[d]
            if a >= 0 and s.slot_guest[d] < 0 and any(R.can_place(s, R.acc_type[a], x, d) for x in empty):
                acts.append(R.A_MOVE + d)
    if not s.improve_used[2]:
        acts.extend(R.A_SELL + d for d in range(NUM_SLOTS) if R.sell_ok(s, d))
    for d in range(NUM_SLOTS):
        a = s.slot_acc[d]
        if a >= 0 and s.slot_dmg[d] and s.coins >= (R.acc_cost[a] + 1) // 2:
            acts.append(R.A_REPAIR + d)
    acts.append(R.A_DONE)
    return acts


def _check(R: MythwindInnkeeperRules, s) -> None:
    assert R._improve_legal(s) == _reference_improve(R, s)
    for t in sorted(set(R.acc_type)):
        assert R.place_slots(s, t) == [d for d in range(NUM_SLOTS) if R.can_place(s, t, d)]
        for src in range(NUM_SLOTS):
            if s.slot_acc[src] >= 0 and R.acc_type[s.slot_acc[src]] == t:
                assert R.place_slots(s, t, src) == [d for d in range(NUM_SLOTS) if R.can_place(s, t, d, src)]


@pytest.mark.parametrize(("days", "seasons"), [(6, 4), (3, 2)])
def test_improve_options_and_placements_equal_their_definition(days: int, seasons: int) -> None:
    R = MythwindInnkeeperRules(load_data(), days, seasons, auto=False)
    rng = np.random.default_rng(days + seasons)
    steps = 0
    for game in range(12):
        s = R.initial_state(900 + game)
        while not s.over:
            _check(R, s)
            if steps % 5 == 0:  # variants: rich, at the top of the renown track, parts of Improve used
                c = R.clone(s)
                c.coins, c.renown = 200, R.track_len - 1
                c.improve_used = [int(x) for x in rng.integers(0, 2, 3)]
                _check(R, c)
            legal = R.legal_actions(s)
            R.apply(s, legal[int(rng.integers(len(legal)))])
            steps += 1
    assert steps > 300


def test_improve_options_on_random_crowded_grids() -> None:
    """Random play seldom builds kitchens and stages with drinks, food, music and plays around
    them; these grids are filled token by token (each placed where ``can_place`` allows) so that
    moving or selling a supporting token is often restricted."""
    R = MythwindInnkeeperRules(load_data(), auto=False)
    rng = np.random.default_rng(11)
    seen_restricted = 0
    for trial in range(300):
        s = R.initial_state(trial)
        s.setup = []
        for a in range(R.NA):
            s.acc_slot[a] = A_SUPPLY
        # kitchens and stages mostly first, then the rest, in random order
        order = sorted(range(R.NA), key=lambda a: (R.acc_type[a] not in (KITCHEN, STAGE) and rng.random() < 0.8, rng.random()))
        for a in order[: int(rng.integers(4, R.NA))]:
            slots = [d for d in range(NUM_SLOTS) if R.can_place(s, R.acc_type[a], d)]
            if slots:
                R._put(s, a, slots[int(rng.integers(len(slots)))])
        for d in range(NUM_SLOTS):
            if s.slot_acc[d] >= 0:
                s.slot_dmg[d] = int(rng.random() < 0.15)
                s.slot_guest[d] = int(rng.integers(R.NG)) if rng.random() < 0.2 else -1
        s.coins, s.renown = int(rng.integers(0, 40)), int(rng.integers(R.track_len))
        s.improve_used = [int(x) for x in rng.integers(0, 2, 3)]
        _check(R, s)
        ref = _reference_improve(R, s)
        occupied = sum(1 for d in range(NUM_SLOTS) if s.slot_acc[d] >= 0 and s.slot_guest[d] < 0)
        seen_restricted += not s.improve_used[1] and occupied > len([x for x in ref if R.A_MOVE <= x < R.A_MOVE + NUM_SLOTS])
    assert seen_restricted > 50
