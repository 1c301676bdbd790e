"""Mythwind Innkeeper: the shortcut legality code equals its plain definition. At every step of
many seeded random campaigns (the rules' auto-play off, so every decision is seen), the Improve
options and the placement slots computed with shortcuts equal what :meth:`can_place` and
:meth:`sell_ok` give slot by slot, on the state reached and on variants of it (other coins,
renown and Improve parts used). The inn view behind seating and furniture checks, the bulk guest
draws and the precomputed bag fill equal their plain definitions too."""

from __future__ import annotations

import numpy as np
import pytest
from mythzoo.envs.mythwind_innkeeper.actions import NUM_SLOTS
from mythzoo.envs.mythwind_innkeeper.components import KITCHEN, STAGE, load_data
from mythzoo.envs.mythwind_innkeeper.rules import A_SUPPLY, G_BAG, G_SUPPLY, MythwindInnkeeperRules


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


def _plain_seat_slots(R: MythwindInnkeeperRules, s, g: int) -> list[int]:
    """Where guest ``g`` can sit satisfied, slot by slot from the rule (no inn view)."""
    have, emb = R.services(s), R.embraced(s)
    if not all(have[t] for t in R.gserv[g]):
        return []
    style = R.gstyle[g]
    if style >= 0 and not emb[style]:
        return []
    return [d for d in range(NUM_SLOTS)
            if s.slot_acc[d] >= 0 and not s.slot_dmg[d] and s.slot_guest[d] < 0 and R.acc_type[s.slot_acc[d]] == R.gfurn[g]
            and (style < 0 or R._near_style(s, d, style))]


def _check_inn_view(R: MythwindInnkeeperRules, s) -> None:
    have, cnt, _, _, _, occ = R.inn_view(s)
    assert have == R.services(s) and cnt == R.style_counts(s)
    assert occ == [d for d in range(NUM_SLOTS) if s.slot_acc[d] >= 0]
    for g in range(R.NG):
        assert R.seat_slots(s, g) == _plain_seat_slots(R, s, g)
    assert R._seatable_guests(s) == sorted(g for g in s.drawn if _plain_seat_slots(R, s, g))
    furniture = [d for d in range(NUM_SLOTS) if s.slot_acc[d] >= 0 and R.acc_furniture[s.slot_acc[d]] and not s.slot_dmg[d]]
    free = [d for d in furniture if s.slot_guest[d] < 0]
    assert R.furniture_slots(s) == furniture and R.free_furniture(s) == free
    assert R._any_furniture(s) == bool(furniture) and R._any_free_furniture(s) == bool(free)


def test_inn_view_shortcuts_equal_their_definition() -> None:
    """Seating, furniture and style checks read the rules' value-keyed view of the inn; at every
    step, and after changing the state directly (damage, served gossip, a guest moved), they equal
    the plain slot-by-slot definitions."""
    R = MythwindInnkeeperRules(load_data(), 3, 4, auto=False)
    rng = np.random.default_rng(5)
    steps = 0
    for game in range(10):
        s = R.initial_state(300 + game)
        while not s.over:
            _check_inn_view(R, s)
            if steps % 4 == 0:
                c = R.clone(s)
                occupied = [d for d in range(NUM_SLOTS) if c.slot_acc[d] >= 0]
                if occupied:
                    d = occupied[int(rng.integers(len(occupied)))]
                    c.slot_dmg[d] = 1 - c.slot_dmg[d]
                    _check_inn_view(R, c)
                c.served = sorted(set(c.served) | {int(rng.integers(R.NC))})
                _check_inn_view(R, c)
                _check_inn_view(R, s)  # back to the original values
            legal = R.legal_actions(s)
            R.apply(s, legal[int(rng.integers(len(legal)))])
            steps += 1
    assert steps > 300


def test_bulk_draws_equal_single_draws() -> None:
    """``_pop_random`` (the dawn's guest draws) takes the same elements in the same order, and
    leaves the generator in the same state, as ``items.pop(_below(rng, len(items)))`` repeated."""
    from mythzoo.envs.core.rng import make_rng
    from mythzoo.envs.mythwind_innkeeper import rules as rules_mod

    a, b = make_rng(3), make_rng(3)
    sizes = np.random.default_rng(4)
    for i in range(3000):
        m = int(sizes.integers(1, 40))
        n = int(sizes.integers(0, m + 1))  # n == m draws down to a single element
        items_a, items_b = list(range(m)), list(range(m))
        assert rules_mod._pop_random(a, items_a, n) == [items_b.pop(rules_mod._below(b, len(items_b))) for _ in range(n)]
        assert items_a == items_b
        if i % 7 == 0:  # other draws in between (a buffered half word, another generator)
            assert rules_mod._below(a, 5) == rules_mod._below(b, 5)
            rules_mod._below(make_rng(i), 3)
    assert a.bit_generator.state == b.bit_generator.state


def test_bag_fill_takes_the_first_guests_of_each_level() -> None:
    """Update Draw Bag: the first guests (by id) of each guest level, as many as the renown level says."""
    R = MythwindInnkeeperRules(load_data())
    s = R.initial_state(1)
    for renown in range(R.track_len):
        s.renown = renown
        R._fill_bag(s)
        counts = R.data.bag_by_level[R.level(s) - 1]
        expected = [g for g in range(R.NG) if sum(1 for h in range(g) if R.glevel[h] == R.glevel[g]) < counts[R.glevel[g] - 1]]
        assert s.bag == expected
        assert s.guest_loc == [G_BAG if g in expected else G_SUPPLY for g in range(R.NG)]
