"""The Mythwind Innkeeper observation, defined from scratch: the oracle the fast observer must equal.

No cache and no shortcut: every entry is written by name, through the env's declared layout
(``observation_layout()``: piece names, shapes and the field names on each piece's last axis), from
the state and the rules' plain queries (``services``, ``style_counts``, ``learnable``). Nothing here
reads the observer, so a slip in the observer's precomputed rows or caches shows up as a difference.

``reference_observation(env, agent)`` is what ``env.observe(agent)["observation"]`` must be.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mythzoo.envs.mythwind_innkeeper.actions import GRID, OPERATE
from mythzoo.envs.mythwind_innkeeper.components import (
    ACC_TYPES, ALIGNMENTS, COMPLAINT_KINDS, DIE_TYPES, EFFECT_KINDS, STYLES, WEATHER_TYPES,
)

GUEST_PLACE = {-1: "supply", -2: "bag", -3: "drawn", -4: "unseated_quiet"}  # G_SUPPLY, G_BAG, G_DRAWN, G_QUIET; a slot: "seated"
TOKEN_PLACE = {-1: "in_supply", -2: "to_place"}  # A_SUPPLY, A_SETUP; a slot: "in_inn"
DAMAGE = ("damage_any", "damage_furniture", "damage_service")  # by D_ANY, D_FURNITURE, D_SERVICE
# The phases whose selection is a guest (to pamper, to seat, the late guest), a token being bought,
# a slot being moved.
SELECTED = {"pamper_guest": "selected_guest", "pamper_slot": "selected_guest", "seat_guest": "selected_guest",
            "seat_slot": "selected_guest", "late_guest": "selected_guest", "buy_slot": "selected_token", "move_dest": "selected_slot"}


def reference_observation(env: Any, agent: str) -> np.ndarray:
    """``agent``'s observation of the unwrapped raw/AEC ``env``, encoded from scratch."""
    env = getattr(env, "unwrapped", env)
    return reference_vector(env.rules, env.observation_layout(agent), env.state_)


def reference_vector(rules: Any, layout: Any, s: Any) -> np.ndarray:
    """The innkeeper's observation of state ``s`` under ``rules``, laid out by ``layout``."""
    d = rules.data
    v = np.zeros(layout.size, dtype=np.float32)
    p = layout.views(v)

    def col(piece: str) -> dict[str, int]:
        return {name: i for i, name in enumerate(layout.by_name[piece].axes[-1])}

    phase = rules.PHASE_NAMES[s.phase]
    p["phase"][s.phase] = 1.0
    total = rules.total_days()
    sc = col("scalars")
    for name, x in {
        "coins": s.coins / 50.0, "earned": s.earned / 50.0, "party_coins": s.party_coins / 3.0,
        "day_of_season": s.day / rules.days_per_season, "season_progress": s.season / rules.num_seasons,
        "days_left": (total - s.turn) / total, "streak": s.streak / 5.0, "bag_size": len(s.bag) / 30.0,
        "drawn": len(s.drawn) / 12.0, "hand_size": len(s.hand) / 6.0, "gossip_deck_size": (len(s.gdeck) + len(s.gbottom)) / 6.0,
        "improve_bought": s.improve_used[0], "improve_moved": s.improve_used[1], "improve_sold": s.improve_used[2],
        "by_worker": float(s.ctx == 1), "complaints_pending": len(s.cq) / 10.0, "last_seated": s.last_seated / 12.0,
        "last_unseated": s.last_unseated / 12.0, "skill_picks_left": s.skill_left / 2.0,
        "skill_moves_left": s.arrange_left / 4.0,
    }.items():
        p["scalars"][sc[name]] = x
    p["renown"][s.renown] = 1.0
    p["renown_level"][rules.level(s) - 1] = 1.0
    p["season"][s.season % len(d.seasons)] = 1.0
    if s.weather >= 0:
        w, wc = d.weather[s.weather], col("weather")
        p["weather"][wc[f"today_{WEATHER_TYPES[w.type]}"]] = 1.0
        p["weather"][wc["event"]] = float(w.event)
        p["weather"][wc[f"aligned_{ALIGNMENTS[w.alignment]}"]] = 1.0
    for card in s.wdeck:
        p["weather_deck"][card] = 1.0
    if s.row >= 0:
        p["operate_row"][s.row] = 1.0
    for r, used in enumerate(s.worker_used):
        p["worker_slots"][r] = float(used)
    if s.sel >= 0 and phase in SELECTED:
        p[SELECTED[phase]][s.sel] = 1.0
    pc = col("pending")
    for c in range(len(DAMAGE)):
        p["pending"][pc[DAMAGE[c]]] = s.dmg.count(c) / 5.0
    if s.lose_type >= 0:
        p["pending"][pc[ACC_TYPES[s.lose_type]]] = 1.0
    ic = col("inn")
    for t, have in enumerate(rules.services(s)):
        p["inn"][ic[f"service_{ACC_TYPES[t]}"]] = float(have)
    for x, n in enumerate(rules.style_counts(s)):
        p["inn"][ic[f"style_count_{STYLES[x]}"]] = n / 3.0
        p["inn"][ic[f"embraced_{STYLES[x]}"]] = float(n >= 2)
    # The grid, slot by slot.
    gc, grid = col("grid"), p["grid"]
    for sl, a in enumerate(s.slot_acc):
        r, c = divmod(sl, GRID)
        grid[sl, gc["outer"]] = float(r in (0, GRID - 1) or c in (0, GRID - 1))
        if a < 0:
            continue
        tok = d.accommodations[a]
        grid[sl, gc["has_accommodation"]] = 1.0
        grid[sl, gc["damaged"]] = float(s.slot_dmg[sl])
        grid[sl, gc[f"type_{ACC_TYPES[tok.type]}"]] = 1.0
        if tok.style >= 0:
            grid[sl, gc[f"style_{STYLES[tok.style]}"]] = 1.0
        if s.slot_guest[sl] >= 0:
            grid[sl, gc["guest"]] = 1.0
            grid[sl, gc["back_facing"]] = float(s.slot_back[sl])
        grid[sl, gc["party_token"]] = float(s.party_slot == sl)
        grid[sl, gc["cost"]] = tok.cost / 15.0
    # Guest tokens: their place and what is printed on them.
    uc = col("guests")
    for g, loc in zip(d.guests, s.guest_loc):
        row = p["guests"][g.gid]
        row[uc["seated" if loc >= 0 else GUEST_PLACE[loc]]] = 1.0
        row[uc[f"level_{g.level}"]] = 1.0
        for t in (g.furniture, *g.services):
            row[uc[f"wants_{ACC_TYPES[t]}"]] = 1.0
        if g.style >= 0:
            row[uc[f"wants_{STYLES[g.style]}"]] = 1.0
        for kind, amount in g.complaints:  # coins complaints: the amount/3; the others: how many
            row[uc[f"complaint_{COMPLAINT_KINDS[kind]}"]] += amount / 3.0 if COMPLAINT_KINDS[kind] == "coins" else 1.0
    # Accommodation tokens.
    ac = col("accommodations")
    for tok, loc in zip(d.accommodations, s.acc_slot):
        row = p["accommodations"][tok.aid]
        row[ac["in_inn" if loc >= 0 else TOKEN_PLACE[loc]]] = 1.0
        row[ac[f"type_{ACC_TYPES[tok.type]}"]] = 1.0
        row[ac["cost"]] = tok.cost / 15.0
        row[ac[f"renown_{tok.renown}"]] = 1.0
        if tok.style >= 0:
            row[ac[f"style_{STYLES[tok.style]}"]] = 1.0
    # Gossip cards.
    cc = col("gossip")
    for place, cards in (("deck", s.gdeck), ("deck_bottom", s.gbottom), ("hand", s.hand), ("served", s.served), ("adventure", s.adventure)):
        for card in cards:
            p["gossip"][card, cc[place]] = 1.0
    for card in d.gossip:
        row = p["gossip"][card.cid]
        for t in card.accommodations:
            row[cc[f"shows_{ACC_TYPES[t]}"]] = 1.0
        for x in card.styles:
            row[cc[f"icon_{STYLES[x]}"]] += 1.0
        row[cc[f"effect_{EFFECT_KINDS[card.effect[0]]}"]] = card.effect[1] / 3.0
    # Skills: gained (and in which row), or learnable now (shown in the town phase only).
    kc = col("skills")
    for k, r in enumerate(s.skill_row):
        row = p["skills"][k]
        if r >= 0:
            row[kc["gained"]] = 1.0
            row[kc[f"row_{OPERATE[r]}"]] = 1.0
        elif phase == "town" and rules.learnable(s, k):
            row[kc["learnable"]] = 1.0
        row[kc["cost"]] = d.skills[k].cost / 30.0
    # Worker dice: hired (pips, used today) or at the tower.
    dc = col("dice")
    for i, (pips, used, t) in enumerate(zip(s.dice, s.die_used, d.dice_types)):
        row = p["dice"][i]
        if pips >= 0:
            row[dc["hired"]] = 1.0
            row[dc["pips"]] = pips / 6.0
            row[dc["used_today"]] = float(used)
        row[dc[f"type_{DIE_TYPES[t]}"]] = 1.0
    return v
