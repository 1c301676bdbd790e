"""The Mythic Baths observation, computed from its definition: the oracle the fast encoder must equal.

Slow and plain on purpose: every entry is set by its piece and field names in the env's declared
layout (``env.observation_layout(agent)``), straight from the state, with no cache, no packed rows
and no offsets of its own. ``reference_observation(env, agent)`` must equal
``env.observe(agent)["observation"]`` for every state, bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mythzoo.envs.mythic_baths.rules import JACKALOPE, OWLBEAR, SEA_LION, TATZELWURM, TOKEN_ACTIVE, TOKEN_USED


def reference_observation(env: Any, agent: str) -> np.ndarray:
    """``agent``'s observation vector of ``env`` (the raw/AEC env, unwrapped), from scratch."""
    s, R = env.state_, env.rules
    cs, n = R.cs, R.n
    seat = env.possible_agents.index(agent)
    layout = env.observation_layout(agent)
    out = np.zeros(layout.size, dtype=np.float32)
    views = layout.views(out)

    labels = {p.name: [{label: i for i, label in enumerate(axis)} for axis in p.axes] for p in layout.pieces}

    def put(piece: str, *index: int | str, value: float) -> None:
        """Set one entry; a string index is a label of that axis (e.g. ``"dirty"``)."""
        axes = labels[piece]
        views[piece][tuple(axes[i][x] if isinstance(x, str) else x for i, x in enumerate(index))] = value

    put("phase", s.phase, value=1.0)
    game = {
        "players": n / 5, "turn": s.turn / 200, "last_round": float(s.final_trigger >= 0), "turns_left": s.turns_left / 5,
        "deck_size": len(s.deck) / 50, "discard_size": len(s.discard) / 50, "guest_deck_size": len(s.guest_deck) / 45,
        "manager_deck_size": len(s.manager_deck) / 10, "main_done": float(s.main_done), "bonus_done": float(s.bonus_done),
    }
    for name, value in game.items():
        put("game", name, value=value)
    for k in range(cs.num_kinds):
        put("hand", k, value=s.hands[seat][k] / 3)
        put("discard_pile", k, value=s.discard.count(k) / 5)
    for i, k in enumerate(s.supply):
        if k >= 0:
            put("supply", i, k, value=1.0)
    put("manager", s.manager, value=1.0)

    # Seats, relative to the observer: row r is the player r seats to its left.
    mover = -1 if s.over else s.current
    for r in range(n):
        p = (seat + r) % n
        col = [R.guests[x] for x in s.collected[p]]
        seat_values = {
            "present": 1.0, "hand_size": sum(s.hands[p]) / 6, "amber": s.amber[p] / 30, "guests": len(col) / 8,
            "guest_amber": sum(g.amber for g in col) / 30, "to_move": float(p == mover),
            "started_last_round": float(p == s.final_trigger), "jackalopes": sum(g.creature == JACKALOPE for g in col) / 3,
        }
        for name, value in seat_values.items():
            put("seat", r, name, value=value)
        for c, creature in enumerate(cs.creatures):
            put("seat", r, f"{creature}_active", value=float(s.tokens[p][c] == TOKEN_ACTIVE))
            put("seat", r, f"{creature}_used", value=float(s.tokens[p][c] == TOKEN_USED))

    # Baths: the guest, its progress, the troublesome neighbours' effects, the nourish token.
    nb = R.num_baths
    ability = [R.guests[x].ability if x >= 0 else -1 for x in s.bath_guest]
    for b in range(nb):
        neighbours = [ability[c] for c in (b - 1, b + 1) if 0 <= c < nb]
        put("bath", b, "present", value=1.0)
        put("bath", b, "dirty", value=float(s.bath_dirty[b]))
        put("bath", b, "extra_required", value=float(neighbours.count(TATZELWURM)))
        put("bath", b, "owlbear_adjacent", value=float(neighbours.count(OWLBEAR)))
        put("bath", b, "sea_lion_adjacent", value=float(neighbours.count(SEA_LION)))
        x = s.bath_guest[b]
        if x >= 0:
            g = R.guests[x]
            partial = g.troublesome and bool(s.bath_cards[b] or s.bath_extra[b] or any(s.bath_filled[b]))
            put("bath", b, "has_guest", value=1.0)
            put("bath", b, "troublesome", value=float(g.troublesome))
            put("bath", b, "amber", value=g.amber / 10)
            put("bath", b, f"creature_{cs.creatures[g.creature]}", value=1.0)
            for t, name in enumerate(cs.ingredients):
                still = g.needs[t] - s.bath_filled[b][t] if partial else g.needs[t]
                put("bath", b, f"needs_{name}", value=still / 3)
            if partial:
                put("bath", b, "partially_treated", value=1.0)
                put("bath", b, "cards_on_guest", value=len(s.bath_cards[b]) / 6)
                put("bath", b, "extra_provided", value=float(s.bath_extra[b]))
    for p in range(n):
        if s.nourish[p] >= 0:
            put("bath", s.nourish[p], f"nourished_by_seat+{(p - seat) % n}", value=1.0)

    # The treatment in progress; all zero outside the payment phase.
    if s.pay_bath >= 0:
        put("pay_bath", s.pay_bath, value=1.0)
        for t in range(cs.num_types):
            put("pay_need", t, value=s.pay_need[t] / 3)
        pay = {
            "extra_left": s.pay_extra, "surplus": s.pay_surplus > 0, "modified": s.pay_modified, "token_used": s.pay_token,
            "amber_used": s.pay_amber, "fire_used": s.pay_fire, "chef_used": s.pay_chef, "fresh": s.pay_fresh, "units": s.pay_units / 6,
        }
        for name, value in pay.items():
            put("pay", name, value=float(value))
        if s.pay_chef_left:
            put("pay_chef_pair", s.pay_chef_src, value=s.pay_chef_left / 2)

    # Public cards: the guest deck's face-up top guest, the cards on partly treated troublesome
    # guests, the replaced managers.
    if s.guest_deck:
        g = R.guests[s.guest_deck[-1]]
        put("guest_deck_top", "present", value=1.0)
        put("guest_deck_top", "troublesome", value=float(g.troublesome))
        put("guest_deck_top", "amber", value=g.amber / 10)
        put("guest_deck_top", f"creature_{cs.creatures[g.creature]}", value=1.0)
        for t, name in enumerate(cs.ingredients):
            put("guest_deck_top", f"needs_{name}", value=g.needs[t] / 3)
    for b in range(nb):
        for k in set(s.bath_cards[b]):
            put("bath_cards", b, k, value=s.bath_cards[b].count(k) / 3)
    for m in s.manager_pile:
        put("managers_gone", m, value=1.0)
    return out
