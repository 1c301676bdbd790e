"""Mythsgate observation encoding: one layout per role, the same sizes for every number of heroes.

The Great Invoker (seat 0) sees the board, his own hand and what he has seen of the Power deck
(the Manticore's and the Kraken's cards), and of the heroes' hands only their sizes. A hero sees
the board and the whole League's hands (the League plays as a team and shares what it knows,
Hood's look at the top Power card included), and of the Invoker's hand and deck only sizes: each
Great Invoker card appears as in play / discarded / set aside / hidden. Hero slots are relative
for heroes (slot 0 = yourself, 1 = the next hero, ...) and absolute for the Invoker; absent heroes
are zero with ``present`` off. Values are scaled to roughly [0, 1].
"""

from __future__ import annotations

import struct

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.mythsgate.actions import MAX_HEROES, NUM_MINIONS, VIEW
from mythzoo.envs.mythsgate.gamedata import BOOKS, HERO_ABILITIES, PIECES, TOKENS, TRACKS
from mythzoo.envs.mythsgate.rules import (
    LOC_BOOK, LOC_ENCOUNTER, LOC_MATERIAL, P_OVER, PHASE_NAMES, PIECE_HERO, MythsgateRules, State,
)

GAME_FIELDS = (
    "round_frac", "gems", "treasure", "heroes", "inv_actions_left", "ban3", "ban4", "life_supply", "boots_supply",
    "power_deck", "power_discard", "town_deck", "mine_deck", "forest_deck", "town_discard", "mine_discard",
    "forest_discard", "inv_hand", "inv_deck", "inv_discard", "inv_aside", "phoenix_used", "inv_round_f",
    "inv_round_p", "inv_chain", "balrog_bonus", "inv_known", "side_invoker", "side_league", "side_setup",
    "hero_actions_left", "hero_actions_taken", "trade_left",
)
MOVER_FIELDS = ("invoker",) + tuple(f"hero_slot{r}" for r in range(MAX_HEROES))
MINION_FIELDS = ("in_play", "lives", "strength", "draws", "plus_f", "plus_p")
COMBAT_FIELDS = (
    "on", "hero_attacked", "encounter", "enc_strength", "enc_power", "hero_total", "inv_total", "hero_max_cards",
    "inv_draws", "yellow_used", "red_used", "fury_used", "dark_used", "kraken_view", "kraken_picks",
)
LOC_FIELDS_BASE = ("book_yellow", "book_red", "book_green", "encounter", "strength", "power", "deck_town", "deck_mine", "deck_forest")
STATUS_HERO = ("in_play", "discard", "aside", "hidden")
STATUS_INV = ("in_play", "discard", "aside", "hand", "deck")


class MythsgateObserver:
    """Fills a seat's observation vector; layout 0 for the Invoker, layout 1 for every hero."""

    def __deepcopy__(self, memo: dict) -> "MythsgateObserver":
        return self

    def __init__(self, rules: MythsgateRules, max_rounds: int):
        self.rules = R = rules
        gd = R.gd
        self.max_rounds = max_rounds
        S, M, K = R.S, R.M, R.K
        spaces = list(gd.space_names)
        kinds = [gd.kind_label(k) for k in range(K)]
        mats = list(gd.materials)
        self.hero_fields = (
            ("present",) + tuple(f"char_{c}" for c in HERO_ABILITIES) + tuple(f"at_{x}" for x in spaces)
            + ("lives",) + tuple(f"armour_{p}" for p in PIECES) + tuple(f"mat_{m}" for m in mats)
            + ("hand_size",) + tuple(f"books_{b}" for b in BOOKS)
            + ("done", "boots_token", "round_f", "round_p", "chained", "current", "in_combat", "boots_level", "hand_max")
        )
        self.minion_fields = MINION_FIELDS + tuple(f"at_{x}" for x in spaces)
        self.loc_fields = tuple(f"mat_{m}" for m in mats) + LOC_FIELDS_BASE
        slots = [f"slot{r}" for r in range(MAX_HEROES)]
        mins = [f"m{m}_{R.minion[m].name}" for m in range(NUM_MINIONS)]
        cards = [f"c{c.cid}_{c.name}" for c in gd.invoker_cards]
        common = [
            ("phase", (len(PHASE_NAMES),), "One-hot decision phase.", [PHASE_NAMES]),
            ("mover", (len(MOVER_FIELDS),), "One-hot seat to move: the Invoker, or a hero slot.", [MOVER_FIELDS]),
            ("me", (1 + MAX_HEROES,), "One-hot: which slot you are (Invoker: index 0; a hero: its absolute hero index + 1).", [["invoker"] + [f"hero_{h}" for h in range(MAX_HEROES)]]),
            ("game", (len(GAME_FIELDS),), "Round/max_rounds, gems stolen/10 and left/10, heroes/5, Invoker actions left/6, X3/X4 bans, life and -1 Boots supplies, pile sizes (Power /48, location /14, Invoker /20), Phoenix used, the Invoker side's round bonuses, Balrog bonus, Power cards the Invoker has seen /5, whose turn, the current hero's actions left/taken, trade transfers left.", [GAME_FIELDS]),
            ("invoker_board", (len(TOKENS) + len(TRACKS),), "Ability tokens flipped (available); board markers /track length.", [list(TOKENS) + [f"track_{t}" for t in TRACKS]]),
            ("heroes", (MAX_HEROES, len(self.hero_fields)), "Per hero slot: present, character, space, lives/2, armour forged, materials /4, hand size/10, books held, played this turn, -1 Boots token, round bonuses, chained, current, in combat, actions per turn/5, hand maximum/10.", [slots, self.hero_fields]),
            ("minions", (NUM_MINIONS, len(self.minion_fields)), "Per minion card: in play, lives/3, Strength with bonuses/10, Power cards it draws/5, +3F and +1P card bonuses, one-hot space.", [mins, self.minion_fields]),
            ("supply", (M,), "Resource tokens in the supply (/10).", [mats]),
            ("market", (M,), "Resource tokens on the market (/4).", [mats]),
            ("power_discard", (K,), "Face-up Power discard pile: cards of each kind (/5).", [kinds]),
            ("combat", (len(COMBAT_FIELDS),), "The combat in progress: on, started by the hero, against an encounter (its Strength/10, Power/5), totals so far/20, hero's card maximum/5, the Invoker's draws/5, books and tokens used, Kraken cards seen/picks left (/5).", [COMBAT_FIELDS]),
            ("combat_hero", (MAX_HEROES,), "One-hot hero slot in the combat.", [slots]),
            ("combat_minion", (NUM_MINIONS,), "One-hot minion in the combat.", [mins]),
            ("combat_hero_cards", (K,), "Power cards the hero has played in this combat (/3).", [kinds]),
            ("combat_inv_cards", (K,), "Power cards drawn for the Invoker's side in this combat (/3).", [kinds]),
            ("place", (2 + MAX_HEROES + NUM_MINIONS + 1,), "A piece waiting to be placed: hero/minion, which hero slot or minion, and whether you place it.", [["hero", "minion"] + slots + mins + ["mine_to_place"]]),
            ("place_targets", (S,), "Spaces the waiting piece may go to.", [spaces]),
            ("pwyll_cards", (2, len(self.loc_fields)), "Pwyll's two location cards to choose from (face up).", [["card0", "card1"], self.loc_fields]),
        ]
        inv = common + [
            ("invoker_cards", (len(cards), len(STATUS_INV)), "Each Great Invoker card: in play, discarded, set aside (rune), in your hand, in your deck.", [cards, STATUS_INV]),
            ("known_top", (VIEW, K), "The top Power cards you have seen (Manticore), top first.", [[f"top{i}" for i in range(VIEW)], kinds]),
            ("kraken_view", (VIEW, K), "The Kraken's cards to choose from.", [[f"view{i}" for i in range(VIEW)], kinds]),
        ]
        hero = common + [
            ("invoker_cards", (len(cards), len(STATUS_HERO)), "Each Great Invoker card: in play, discarded, set aside (rune), hidden (his hand or deck).", [cards, STATUS_HERO]),
            ("team_hands", (MAX_HEROES, K), "The League's hands per hero slot (/3): the League shares its cards.", [slots, kinds]),
            ("hood_top", (K,), "Hood's look at the top Power card (zero without Hood).", [kinds]),
        ]
        self.layouts = [ObservationLayout(inv), ObservationLayout(hero)]
        self.off = [{p.name: p.offset for p in L.pieces} for L in self.layouts]
        self.packers = [struct.Struct(f"<{L.size}f") for L in self.layouts]
        self.hw = len(self.hero_fields)
        self.mw = len(self.minion_fields)
        self.lw = len(self.loc_fields)
        # precomputed location-card rows
        self.loc_rows = []
        for c in R.loc:
            row = [0.0] * self.lw
            if c.kind == LOC_MATERIAL:
                row[c.material] = 1.0
            elif c.kind == LOC_BOOK:
                row[M + c.color] = 1.0
            else:
                row[M + 3] = 1.0
                row[M + 4] = c.strength / 10.0
                row[M + 5] = c.power / 5.0
            row[M + 6 + c.deck] = 1.0
            self.loc_rows.append(row)

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "packers"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.packers = [struct.Struct(f"<{L.size}f") for L in self.layouts]

    def layout(self, seat: int) -> ObservationLayout:
        return self.layouts[0 if seat == 0 else 1]

    def encode(self, s: State, seat: int, out: np.ndarray) -> None:
        out[:] = self.observation(s, seat)

    def observation(self, s: State, seat: int) -> np.ndarray:
        role = 0 if seat == 0 else 1
        v = self.encode_list(s, seat)
        buf = bytearray(4 * len(v))
        self.packers[role].pack_into(buf, 0, *v)
        return np.frombuffer(buf, dtype=np.float32)

    def encode_list(self, s: State, seat: int) -> list[float]:
        R = self.rules
        gd = R.gd
        k, S, M, K = R.k, R.S, R.M, R.K
        role = 0 if seat == 0 else 1
        L = self.layouts[role]
        o = self.off[role]
        v = [0.0] * L.size
        order = list(range(k)) if role == 0 else [(seat - 1 + r) % k for r in range(k)]
        slot_of = {h: r for r, h in enumerate(order)}
        v[o["phase"] + s.phase] = 1.0
        if not s.over:
            v[o["mover"] + (0 if s.actor == 0 else 1 + slot_of[s.actor - 1])] = 1.0
        v[o["me"] + seat] = 1.0
        g = o["game"]
        v[g: g + len(GAME_FIELDS)] = (
            s.round / self.max_rounds, s.gems / 10.0, (10 - s.gems) / 10.0, k / 5.0, s.inv_left / 6.0, s.ban3, s.ban4,
            s.life_supply / 15.0, s.boots_supply / 5.0, len(s.power_deck) / 48.0, len(s.power_discard) / 48.0,
            len(s.loc_deck[0]) / 14.0, len(s.loc_deck[1]) / 14.0, len(s.loc_deck[2]) / 14.0,
            len(s.loc_discard[0]) / 14.0, len(s.loc_discard[1]) / 14.0, len(s.loc_discard[2]) / 14.0,
            len(s.inv_hand) / 10.0, len(s.inv_deck) / 20.0, len(s.inv_discard) / 20.0, len(s.inv_aside) / 3.0,
            s.phoenix_used, s.inv_round_f / 6.0, s.inv_round_p / 3.0, s.inv_chain / 3.0, s.balrog_bonus, s.inv_known / 5.0,
            s.turn_side == 0, s.turn_side == 1, s.turn_side == 2, s.h_left / 5.0, s.h_taken / 5.0, s.tr_left / 6.0,
        )
        b = o["invoker_board"]
        v[b: b + 6] = (*s.tokens, s.tracks[0] / gd.track_length[0], s.tracks[1] / gd.track_length[1])
        # heroes
        hw, base0 = self.hw, o["heroes"]
        for r, h in enumerate(order):
            base = base0 + r * hw
            v[base] = 1.0
            v[base + 1 + R.chars[h]] = 1.0
            if s.h_space[h] >= 0:
                v[base + 6 + s.h_space[h]] = 1.0
            i = base + 6 + S
            v[i] = s.h_lives[h] / 2.0
            v[i + 1: i + 5] = s.h_armour[h]
            v[i + 5: i + 5 + M] = [x / 4.0 for x in s.h_mats[h]]
            i += 5 + M
            v[i] = sum(s.h_hand[h]) / 10.0
            for c in s.h_books[h]:
                v[i + 1 + R.loc[c].color] += 0.5
            i += 4
            v[i: i + 9] = (
                s.h_done[h], s.h_boots[h], s.h_round_f[h] / 4.0, s.h_round_p[h] / 2.0, s.h_chain[h] / 2.0,
                s.cur_hero == h, s.cb_hero == h, R.hero_level(s, h) / 5.0, R.hand_max(s, h) / 10.0,
            )
        # minions
        mw, mb = self.mw, o["minions"]
        for m in range(12):
            sp = s.m_space[m]
            if sp < 0:
                continue
            base = mb + m * mw
            v[base: base + 6] = (1.0, s.m_lives[m] / 3.0, R.minion_strength(s, m) / 10.0, R.minion_power(s, m) / 5.0, s.m_f[m] / 6.0, s.m_p[m] / 2.0)
            v[base + 6 + sp] = 1.0
        i = o["supply"]
        v[i: i + M] = [x / 10.0 for x in s.supply]
        i = o["market"]
        v[i: i + M] = [x / 4.0 for x in s.market]
        i = o["power_discard"]
        for c in s.power_discard:
            v[i + c] += 0.2
        # combat
        if s.cb_on:
            i = o["combat"]
            ht, it = R.combat_totals(s)
            enc = s.cb_enc >= 0
            v[i: i + len(COMBAT_FIELDS)] = (
                1.0, s.cb_att, enc, R.loc[s.cb_enc].strength / 10.0 if enc else 0.0, R.loc[s.cb_enc].power / 5.0 if enc else 0.0,
                ht / 20.0, it / 20.0, R.hero_max_power(s, s.cb_hero) / 5.0, R.invoker_draws(s) / 5.0,
                s.cb_by, s.cb_br, s.cb_fury, s.cb_dark, len(s.cb_kview) / 5.0, s.cb_kpicks / 5.0,
            )
            v[o["combat_hero"] + slot_of[s.cb_hero]] = 1.0
            if s.cb_minion >= 0:
                v[o["combat_minion"] + s.cb_minion] = 1.0
            i = o["combat_hero_cards"]
            for c in s.cb_hcards:
                v[i + c] += 1 / 3
            i = o["combat_inv_cards"]
            for c in s.cb_icards:
                v[i + c] += 1 / 3
        if s.pl:
            i = o["place"]
            piece, who = s.pl[0], s.pl[1]
            if piece == PIECE_HERO:
                v[i] = 1.0
                v[i + 2 + slot_of[who]] = 1.0
            else:
                v[i + 1] = 1.0
                v[i + 2 + MAX_HEROES + who] = 1.0
            v[i + 2 + MAX_HEROES + NUM_MINIONS] = float(s.pl[3] == seat)
            i = o["place_targets"]
            for x in R._place_cands(s, s.pl):
                v[i + x] = 1.0
        if s.pw_cards:
            i = o["pwyll_cards"]
            lw = self.lw
            for j, c in enumerate(s.pw_cards):
                v[i + j * lw: i + (j + 1) * lw] = self.loc_rows[c]
        # Great Invoker cards
        i = o["invoker_cards"]
        w = 5 if role == 0 else 4
        for m in range(12):
            if s.m_space[m] >= 0:
                v[i + gd.minion_cards[m] * w] = 1.0
        for c in s.inv_discard:
            v[i + c * w + 1] = 1.0
        for c in s.inv_aside:
            v[i + c * w + 2] = 1.0
        if role == 0:
            for c in s.inv_hand:
                v[i + c * w + 3] = 1.0
            for c in s.inv_deck:
                v[i + c * w + 4] = 1.0
            i = o["known_top"]
            deck = s.power_deck
            for j in range(min(s.inv_known, len(deck))):
                v[i + j * K + deck[-1 - j]] = 1.0
            i = o["kraken_view"]
            for j, c in enumerate(s.cb_kview):
                v[i + j * K + c] = 1.0
        else:
            for c in s.inv_hand:
                v[i + c * w + 3] = 1.0
            for c in s.inv_deck:
                v[i + c * w + 3] = 1.0
            i = o["team_hands"]
            for r, h in enumerate(order):
                v[i + r * K: i + (r + 1) * K] = [x / 3.0 for x in s.h_hand[h]]
            if R.has_hood and s.power_deck:
                v[o["hood_top"] + s.power_deck[-1]] = 1.0
        if s.phase == P_OVER:
            pass
        return v
