"""The reference Mythsgate observation: slow, from scratch, obviously correct.

``reference_observation(env, agent)`` is what ``env.observe(agent)["observation"]`` must be. It
reads the state and writes every entry at the position the env's declared layout names (piece
offset + the index of its label on each axis), using the rules' own quantities (strengths, draws,
hand maximum); no cache, no packing. The fast encoder (``envs/mythsgate/observation.py``) is tested
against it at every step of many games.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
from mythzoo.envs.mythsgate.actions import NUM_MINIONS
from mythzoo.envs.mythsgate.gamedata import BOOKS, LOC_BOOK, LOC_MATERIAL, PIECES
from mythzoo.envs.mythsgate.rules import PIECE_HERO


class _Writer:
    """Writes into a flat vector by piece name and labels: ``w.set("game", ["gems"], 0.3)``."""

    # per layout (held weakly: a layout's id may be reused once it is gone): piece -> per axis, label -> index
    _labels: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __init__(self, layout: Any):
        self.layout = layout
        self.v = np.zeros(layout.size, dtype=np.float64)
        labels = self._labels.get(layout)
        if labels is None:
            labels = self._labels[layout] = {
                p.name: [{str(x): i for i, x in enumerate(axis)} for axis in p.axes] for p in layout.pieces}
        self.labels = labels

    def index(self, piece: str, *labels: Any) -> int:
        """Flat index of the entry of ``piece`` named by one label (or int index) per axis."""
        p = self.layout.by_name[piece]
        flat = 0
        for axis, (n, label) in enumerate(zip(p.shape, labels, strict=True)):
            i = self.labels[piece][axis][label] if isinstance(label, str) else int(label)
            assert 0 <= i < n, (piece, labels)
            flat = flat * n + i
        return p.offset + flat

    def set(self, piece: str, labels: list[Any], value: float) -> None:
        self.v[self.index(piece, *labels)] = value

    def add(self, piece: str, labels: list[Any], value: float) -> None:
        self.v[self.index(piece, *labels)] += value


def reference_observation(env: Any, agent: str) -> np.ndarray:
    """``agent``'s observation vector of the raw (unwrapped) Mythsgate env ``env``, built from scratch."""
    env = getattr(env, "unwrapped", env)
    s, R = env.state_, env.rules
    gd = R.gd
    k, K = R.k, R.K
    seat = env.possible_agents.index(agent)
    role = 0 if seat == 0 else 1
    w = _Writer(env.observation_layout(agent))
    order = list(range(k)) if role == 0 else [(seat - 1 + r) % k for r in range(k)]  # hero in each slot
    slot_of = {h: r for r, h in enumerate(order)}
    spaces = gd.space_names
    w.set("phase", [s.phase], 1.0)
    if not s.over:
        w.set("mover", [0 if s.actor == 0 else 1 + slot_of[s.actor - 1]], 1.0)
    w.set("me", [seat], 1.0)
    if s.ab_minion >= 0:  # the minion whose ability waits for its target
        w.set("ability_minion", [s.ab_minion], 1.0)
    game = {
        "round_frac": s.round / env.max_rounds, "gems": s.gems / 10.0, "treasure": (10 - s.gems) / 10.0, "heroes": k / 5.0,
        "inv_actions_left": s.inv_left / 6.0, "ban3": s.ban3, "ban4": s.ban4, "life_supply": s.life_supply / 15.0,
        "boots_supply": s.boots_supply / 5.0, "power_deck": len(s.power_deck) / 48.0, "power_discard": len(s.power_discard) / 48.0,
        "town_deck": len(s.loc_deck[0]) / 14.0, "mine_deck": len(s.loc_deck[1]) / 14.0, "forest_deck": len(s.loc_deck[2]) / 14.0,
        "town_discard": len(s.loc_discard[0]) / 14.0, "mine_discard": len(s.loc_discard[1]) / 14.0, "forest_discard": len(s.loc_discard[2]) / 14.0,
        "inv_hand": len(s.inv_hand) / 10.0, "inv_deck": len(s.inv_deck) / 20.0, "inv_discard": len(s.inv_discard) / 20.0,
        "inv_aside": len(s.inv_aside) / 3.0, "phoenix_used": s.phoenix_used, "inv_round_f": s.inv_round_f / 6.0,
        "inv_round_p": s.inv_round_p / 3.0, "inv_chain": s.inv_chain / 3.0, "balrog_bonus": s.balrog_bonus, "inv_known": s.inv_known / 5.0,
        "side_invoker": s.turn_side == 0, "side_league": s.turn_side == 1, "side_setup": s.turn_side == 2,
        "hero_actions_left": s.h_left / 5.0, "hero_actions_taken": s.h_taken / 5.0, "trade_left": s.tr_left / 6.0,
    }
    assert set(game) == set(w.layout.by_name["game"].axes[0])
    for name, x in game.items():
        w.set("game", [name], float(x))
    for t, name in enumerate(("fury", "dark_power", "haste", "regenerate")):
        w.set("invoker_board", [name], s.tokens[t])
    for t, name in enumerate(("strength", "power")):
        w.set("invoker_board", [f"track_{name}"], s.tracks[t] / gd.track_length[t])
    # heroes, in slot order
    for r, h in enumerate(order):
        row = {"present": 1.0, f"char_{R.heroes[h].ability}": 1.0, "lives": s.h_lives[h] / 2.0, "hand_size": sum(s.h_hand[h]) / 10.0,
               "done": s.h_done[h], "boots_token": s.h_boots[h], "round_f": s.h_round_f[h] / 4.0, "round_p": s.h_round_p[h] / 2.0,
               "chained": s.h_chain[h] / 2.0, "current": s.cur_hero == h, "in_combat": s.cb_hero == h,
               "boots_level": R.hero_level(s, h) / 5.0, "hand_max": R.hand_max(s, h) / 10.0}
        if s.h_space[h] >= 0:
            row[f"at_{spaces[s.h_space[h]]}"] = 1.0
        for p, piece in enumerate(PIECES):
            row[f"armour_{piece}"] = s.h_armour[h][p]
        for t, mat in enumerate(gd.materials):
            row[f"mat_{mat}"] = s.h_mats[h][t] / 4.0
        for name, x in row.items():
            w.set("heroes", [r, name], float(x))
        for c in s.h_books[h]:
            w.add("heroes", [r, f"books_{BOOKS[R.loc[c].color]}"], 0.5)
    # minions in play
    for m in range(NUM_MINIONS):
        sp = s.m_space[m]
        if sp < 0:
            continue
        for name, x in (("in_play", 1.0), ("lives", s.m_lives[m] / 3.0), ("strength", R.minion_strength(s, m) / 10.0),
                        ("draws", R.minion_power(s, m) / 5.0), ("plus_f", s.m_f[m] / 6.0), ("plus_p", s.m_p[m] / 2.0),
                        (f"at_{spaces[sp]}", 1.0)):
            w.set("minions", [m, name], x)
    for t, mat in enumerate(gd.materials):
        w.set("supply", [mat], s.supply[t] / 10.0)
        w.set("market", [mat], s.market[t] / 4.0)
    for c in s.power_discard:
        w.add("power_discard", [c], 0.2)
    if s.cb_on:
        ht, it = R.combat_totals(s)
        enc = s.cb_enc >= 0
        combat = {"on": 1.0, "hero_attacked": s.cb_att, "encounter": enc, "enc_strength": R.loc[s.cb_enc].strength / 10.0 if enc else 0.0,
                  "enc_power": R.loc[s.cb_enc].power / 5.0 if enc else 0.0, "hero_total": ht / 20.0, "inv_total": it / 20.0,
                  "hero_max_cards": R.hero_max_power(s, s.cb_hero) / 5.0, "inv_draws": R.invoker_draws(s) / 5.0,
                  "yellow_used": s.cb_by, "red_used": s.cb_br, "fury_used": s.cb_fury, "dark_used": s.cb_dark,
                  "kraken_view": len(s.cb_kview) / 5.0, "kraken_picks": s.cb_kpicks / 5.0}
        for name, x in combat.items():
            w.set("combat", [name], float(x))
        w.set("combat_hero", [slot_of[s.cb_hero]], 1.0)
        if s.cb_minion >= 0:
            w.set("combat_minion", [s.cb_minion], 1.0)
        for c in s.cb_hcards:
            w.add("combat_hero_cards", [c], 1 / 3)
        for c in s.cb_icards:
            w.add("combat_inv_cards", [c], 1 / 3)
    if s.pl:
        piece, who = s.pl[0], s.pl[1]
        if piece == PIECE_HERO:
            w.set("place", ["hero"], 1.0)
            w.set("place", [f"slot{slot_of[who]}"], 1.0)
        else:
            w.set("place", ["minion"], 1.0)
            w.set("place", [f"m{who}_{R.minion[who].name}"], 1.0)
        w.set("place", ["mine_to_place"], float(s.pl[3] == seat))
        for x in R._place_cands(s, s.pl):
            w.set("place_targets", [x], 1.0)
    for j, c in enumerate(s.pw_cards):
        card = R.loc[c]
        if card.kind == LOC_MATERIAL:
            w.set("pwyll_cards", [j, f"mat_{gd.materials[card.material]}"], 1.0)
        elif card.kind == LOC_BOOK:
            w.set("pwyll_cards", [j, f"book_{BOOKS[card.color]}"], 1.0)
        else:
            w.set("pwyll_cards", [j, "encounter"], 1.0)
            w.set("pwyll_cards", [j, "strength"], card.strength / 10.0)
            w.set("pwyll_cards", [j, "power"], card.power / 5.0)
        w.set("pwyll_cards", [j, f"deck_{('town', 'mine', 'forest')[card.deck]}"], 1.0)
    for i, h in enumerate(s.h_order):
        w.set("turn_order", [i, slot_of[h]], 1.0)
    # Great Invoker cards
    for m in range(NUM_MINIONS):
        if s.m_space[m] >= 0:
            w.set("invoker_cards", [gd.minion_cards[m], "in_play"], 1.0)
    for c in s.inv_discard:
        w.set("invoker_cards", [c, "discard"], 1.0)
    for c in s.inv_aside:
        w.set("invoker_cards", [c, "aside"], 1.0)
    for c in s.inv_removed:
        w.set("invoker_cards", [c, "removed"], 1.0)
    if role == 0:
        for c in s.inv_hand:
            w.set("invoker_cards", [c, "hand"], 1.0)
        for c in s.inv_deck:
            w.set("invoker_cards", [c, "deck"], 1.0)
        for h in range(k):
            for kk in range(K):
                w.set("known_hands", [h, kk], s.h_known[h][kk] / 3.0)
        deck = s.power_deck
        for j in range(min(s.inv_known, len(deck))):
            w.set("known_top", [j, deck[-1 - j]], 1.0)
        for j, c in enumerate(s.cb_kview):
            w.set("kraken_view", [j, c], 1.0)
    else:
        for c in s.inv_hand + s.inv_deck:
            w.set("invoker_cards", [c, "hand" if c in s.inv_hand_known else "hidden"], 1.0)
        for r, h in enumerate(order):
            for kk in range(K):
                w.set("team_hands", [r, kk], s.h_hand[h][kk] / 3.0)
        if R.has_hood and s.power_deck:
            w.set("hood_top", [s.power_deck[-1]], 1.0)
    return w.v.astype(np.float32)
