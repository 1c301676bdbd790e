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
from typing import Any

import numpy as np
from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.mythsgate.actions import MAX_HEROES, NUM_MINIONS, VIEW
from mythzoo.envs.mythsgate.gamedata import (
    BOOKS,
    HERO_ABILITIES,
    PIECES,
    TOKENS,
    TRACKS,
)
from mythzoo.envs.mythsgate.rules import (
    BOOTS,
    LOC_BOOK,
    LOC_MATERIAL,
    P_OVER,
    PACK,
    PHASE_NAMES,
    PIECE_HERO,
    MythsgateRules,
    State,
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

    def __deepcopy__(self, memo: dict) -> MythsgateObserver:
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

        self._init_fast()

    def __getstate__(self) -> dict:
        """Pickling: ``struct.Struct`` objects and the value tables (``_p_*``) are rebuilt on load."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_p_")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._make_packers()

    def _make_packers(self) -> None:
        self._p_piles = struct.Struct("<12f")
        self._p_board5 = struct.Struct("<5f")
        self._p_board = struct.Struct(f"<{len(TOKENS) + len(TRACKS)}f")
        self._p_hero_tail = struct.Struct(f"<{self.hw - 6 - self.rules.S}f")
        self._p_minion = struct.Struct(f"<{self.mw}f")
        self._p_mats = struct.Struct(f"<{2 * self.rules.M}f")
        self._p_kinds = struct.Struct(f"<{self.rules.K}f")
        self._p_combat = struct.Struct(f"<{self.combat_size}f")
        self._p_place = struct.Struct(f"<{self.place_size}f")
        self._p_view = struct.Struct(f"<{VIEW * self.rules.K}f")
        self._p_invc = [struct.Struct(f"<{self.invc_size[r]}f") for r in (0, 1)]
        # packed game fields by value (computed on first use): no division or packing per step
        mr, k = self.max_rounds, self.rules.k
        self._p_round = _Packed(lambda x: (x / mr,))
        self._p_gems = _Packed(lambda x: (x / 10.0, (10 - x) / 10.0, k / 5.0))
        self._p_t5 = _Packed(lambda x: (x / 5.0,))
        self._p_t6 = _Packed(lambda x: (x / 6.0,))
        self._p_t15 = _Packed(lambda x: (x / 15.0,))
        self._p_ban = [[struct.pack("<2f", b3, b4) for b4 in (0, 1)] for b3 in (0, 1)]
        self._p_side = _Packed(lambda x: (x == 0, x == 1, x == 2))

    def _init_fast(self) -> None:
        """Tables for :meth:`observation`, which builds the vector as bytes from packed blocks.

        The layout's pieces follow one another in the order below (asserted), so the vector is the
        concatenation: the one-hots (phase, mover, me) packed once per combination; game and board
        packed every step; one packed row per hero and per minion and the invoker-card block,
        cached in the state (``State.obs``) against the hero versions the rules bump (``State.hv``)
        or against the values they show; the combat, place, Pwyll and view blocks packed only
        while in use, all zero bytes otherwise."""
        R = self.rules
        K, S = R.K, R.S
        for role in (0, 1):
            o = self.off[role]
            order = ["phase", "mover", "me", "game", "invoker_board", "heroes", "minions", "supply", "market",
                     "power_discard", "combat", "combat_hero", "combat_minion", "combat_hero_cards", "combat_inv_cards",
                     "place", "place_targets", "pwyll_cards", "invoker_cards"]
            order += ["known_top", "kraken_view"] if role == 0 else ["team_hands", "hood_top"]
            assert [p.name for p in self.layouts[role].pieces] == order
        o = self.off[0]
        self.onehot_size = o["game"]
        self.combat_size = o["place"] - o["combat"]
        self.place_size = o["pwyll_cards"] - o["place"]
        self.invc_size = [self.off[r]["known_top" if r == 0 else "team_hands"] - self.off[r]["invoker_cards"] for r in (0, 1)]
        self._make_packers()
        self.z_hero = bytes(4 * self.hw)
        self.z_minion = bytes(4 * self.mw)
        self.z_combat = bytes(4 * self.combat_size)
        self.z_place = bytes(4 * self.place_size)
        self.z_pwyll = bytes(4 * 2 * self.lw)
        self.z_view = bytes(4 * VIEW * K)
        self.z_kinds = bytes(4 * K)
        self.onehot_memo: dict[tuple[int, int, int], bytes] = {}
        self.loc_bytes = [struct.pack(f"<{self.lw}f", *row) for row in self.loc_rows]
        self.kind_onehot = []
        for kk in range(K):
            row = [0.0] * K
            row[kk] = 1.0
            self.kind_onehot.append(self._p_kinds.pack(*row))
        # per-role offsets within the combat and place blocks
        c0 = o["combat"]
        self.cb_hero_at = o["combat_hero"] - c0
        self.cb_minion_at = o["combat_minion"] - c0
        self.cb_hcards_at = o["combat_hero_cards"] - c0
        self.cb_icards_at = o["combat_inv_cards"] - c0
        self.pt_at = o["place_targets"] - o["place"]
        self.tl0, self.tl1 = R.gd.track_length[0], R.gd.track_length[1]
        assert GAME_FIELDS[5:7] == ("ban3", "ban4") and GAME_FIELDS[21] == "phoenix_used" and GAME_FIELDS[27] == "side_invoker"
        self.f32 = np.dtype(np.float32)
        # hero rows: the present/character/space one-hots per (character, space + 1), packed
        self.hero_pre = []
        for ch in range(len(HERO_ABILITIES)):
            per = []
            for sp in range(-1, S):
                v = [0.0] * (6 + S)
                v[0] = 1.0
                v[1 + ch] = 1.0
                if sp >= 0:
                    v[6 + sp] = 1.0
                per.append(struct.pack(f"<{6 + S}f", *v))
            self.hero_pre.append(per)
        self.book_color = [c.color for c in R.loc]
        self.boots_amount = R.gd.piece_amount[BOOTS]
        self.pack_amount = R.gd.piece_amount[PACK]
        self.m_base_f = [mc.strength for mc in R.minion]
        self.m_base_p = [mc.power for mc in R.minion]
        self.m_balrog = [ab == "balrog" for ab in R.m_ability]

    def layout(self, seat: int) -> ObservationLayout:
        return self.layouts[0 if seat == 0 else 1]

    def encode(self, s: State, seat: int, out: np.ndarray) -> None:
        out[:] = self.observation(s, seat)

    def observation(self, s: State, seat: int) -> np.ndarray:
        """``seat``'s view of ``s`` as a new (writable) float32 vector: the values of
        :meth:`encode_list` (which builds them from scratch), built as bytes from cached blocks."""
        c = s.obs
        if c is None or s.legal is None:
            c = s.obs = _Cache()
        R = self.rules
        k = R.k
        role = 0 if seat == 0 else 1
        first = 0 if role == 0 else seat - 1  # absolute hero in slot 0
        # phase, mover, me
        if s.over:
            mv = -1
        else:
            a = s.actor
            mv = 0 if a == 0 else 1 + (a - 1 - first) % k
        key = (s.phase, mv, seat)
        head = self.onehot_memo.get(key)
        if head is None:
            v = [0.0] * self.onehot_size
            v[s.phase] = 1.0
            if mv >= 0:
                v[len(PHASE_NAMES) + mv] = 1.0
            v[len(PHASE_NAMES) + len(MOVER_FIELDS) + seat] = 1.0
            head = self.onehot_memo[key] = struct.pack(f"<{self.onehot_size}f", *v)
        # heroes (and, for a hero, the League's hands), in slot order: one cached row per hero
        hv = s.hv
        hit = c.heroes.get(seat)
        if hit is None or hit[0] != hv:
            hit = c.heroes[seat] = self._hero_blocks(s, c, role, first)
        # minions and the Invoker's board, supply and market, the Power discard pile, pile sizes:
        # rebuilt when the rules say they changed
        if c.mv != s.mv:
            self._minions(s, c)
            self._board(s, c)
            c.mv = s.mv
        pk = (s.dv, s.pv, s.lv, s.iv)
        if c.pk != pk:
            c.pk = pk
            ldeck, ldisc = s.loc_deck, s.loc_discard
            c.piles = self._p_piles.pack(
                len(s.power_deck) / 48.0, len(s.power_discard) / 48.0,
                len(ldeck[0]) / 14.0, len(ldeck[1]) / 14.0, len(ldeck[2]) / 14.0,
                len(ldisc[0]) / 14.0, len(ldisc[1]) / 14.0, len(ldisc[2]) / 14.0,
                len(s.inv_hand) / 10.0, len(s.inv_deck) / 20.0, len(s.inv_discard) / 20.0, len(s.inv_aside) / 3.0,
            )
        if c.sv != s.sv:
            c.sv = s.sv
            c.mats = self._p_mats.pack(*[x / 10.0 for x in s.supply], *[x / 4.0 for x in s.market])
        if c.pv != s.pv:
            c.pv = s.pv
            pile = [0.0] * R.K
            for kk in s.power_discard:
                pile[kk] += 0.2
            c.pdisc = self._p_kinds.pack(*pile)
        if c.iv != s.iv:
            c.iv = s.iv
            c.invc = [None, None]
        invc = c.invc[role]
        if invc is None:
            invc = c.invc[role] = self._invoker_cards(s, role, c.inplay)
        t5, t6 = self._p_t5, self._p_t6
        parts = [
            head, self._p_round[s.round], self._p_gems[s.gems], t6[s.inv_left], self._p_ban[s.ban3][s.ban4],
            self._p_t15[s.life_supply], t5[s.boots_supply], c.piles, c.board5, t5[s.inv_known], self._p_side[s.turn_side],
            t5[s.h_left], t5[s.h_taken], t6[s.tr_left], c.board,
            hit[1], c.minions, c.mats, c.pdisc,
            self._combat(s, first) if s.cb_on else self.z_combat,
            self._place(s, seat, first) if s.pl else self.z_place,
            self._pwyll(s) if s.pw_cards else self.z_pwyll,
            invc,
        ]
        if role == 0:
            deck = s.power_deck
            n = s.inv_known
            if n and deck:
                n = min(n, len(deck))
                tkey = deck[len(deck) - n:]
                if c.tkey != tkey:
                    c.tkey = tkey
                    K = R.K
                    v = [0.0] * (VIEW * K)
                    for j in range(n):
                        v[j * K + deck[-1 - j]] = 1.0
                    c.top = self._p_view.pack(*v)
                parts.append(c.top)
            else:
                parts.append(self.z_view)
            if s.cb_kview:
                K = R.K
                v = [0.0] * (VIEW * K)
                for j, kk in enumerate(s.cb_kview):
                    v[j * K + kk] = 1.0
                parts.append(self._p_view.pack(*v))
            else:
                parts.append(self.z_view)
        else:
            parts.append(hit[2])
            parts.append(self.kind_onehot[s.power_deck[-1]] if R.has_hood and s.power_deck else self.z_kinds)
        return np.frombuffer(bytearray().join(parts), self.f32)

    def _board(self, s: State, c: _Cache) -> None:
        """Phoenix used and the Invoker side's round bonuses; ability tokens and board markers."""
        c.board5 = self._p_board5.pack(s.phoenix_used, s.inv_round_f / 6.0, s.inv_round_p / 3.0, s.inv_chain / 3.0, s.balrog_bonus)
        tk, tr = s.tokens, s.tracks
        c.board = self._p_board.pack(tk[0], tk[1], tk[2], tk[3], tr[0] / self.tl0, tr[1] / self.tl1)

    def _hero_blocks(self, s: State, c: _Cache, role: int, first: int) -> tuple[list[int], bytes, bytes]:
        """(versions, hero rows, League hands) of one seat's view; rows are rebuilt per hero only
        when its version moved."""
        k = self.rules.k
        hv, rows, hands = s.hv, c.hero_rows, c.hand_rows
        order = range(k) if role == 0 else [(first + r) % k for r in range(k)]
        out = []
        for h in order:
            hit = rows[h]
            if hit is None or hit[0] != hv[h]:
                hit = rows[h] = (hv[h], self._hero_row(s, h))
            out.append(hit[1])
        pad = MAX_HEROES - k
        blk = b"".join(out) + self.z_hero * pad
        hand_blk = b""
        if role == 1:
            out = []
            for h in order:
                hit = hands[h]
                if hit is None or hit[0] != hv[h]:
                    hit = hands[h] = (hv[h], self._p_kinds.pack(*[x / 3.0 for x in s.h_hand[h]]))
                out.append(hit[1])
            hand_blk = b"".join(out) + self.z_kinds * pad
        return (list(hv), blk, hand_blk)

    def _pwyll(self, s: State) -> bytes:
        lb = self.loc_bytes
        out = b"".join(lb[x] for x in s.pw_cards)
        return out + bytes(4 * self.lw * (2 - len(s.pw_cards))) if len(s.pw_cards) < 2 else out

    def _hero_row(self, s: State, h: int) -> bytes:
        """Hero ``h``'s row: the packed present/character/space one-hots, then the rest packed."""
        R = self.rules
        sp = s.h_space[h]
        arm = s.h_armour[h]
        books = [0.0, 0.0, 0.0]
        color = self.book_color
        for x in s.h_books[h]:
            books[color[x]] += 0.5
        hero = R.heroes[h]
        return self.hero_pre[R.chars[h]][sp + 1] + self._p_hero_tail.pack(
            s.h_lives[h] / 2.0, *arm, *[x / 4.0 for x in s.h_mats[h]], sum(s.h_hand[h]) / 10.0, *books,
            s.h_done[h], s.h_boots[h], s.h_round_f[h] / 4.0, s.h_round_p[h] / 2.0, s.h_chain[h] / 2.0,
            s.cur_hero == h, s.cb_hero == h,
            (hero.boots + (self.boots_amount if arm[BOOTS] else 0)) / 5.0,
            (hero.hand + (self.pack_amount if arm[PACK] else 0)) / 10.0,
        )

    def _minions(self, s: State, c: _Cache) -> None:
        """The minion rows (each cached against the values it shows) and which minions are in play."""
        R = self.rules
        out = []
        inplay = []
        pack, z, memo = self._p_minion.pack, self.z_minion, c.minion_rows
        space, lives, mf, mp = s.m_space, s.m_lives, s.m_f, s.m_p
        f_all = R.track_bonus[0][s.tracks[0]] + s.inv_round_f
        f_bal = f_all + s.balrog_bonus
        p_all = R.track_bonus[1][s.tracks[1]] + s.inv_round_p - s.inv_chain
        base_f, base_p, balrog = self.m_base_f, self.m_base_p, self.m_balrog
        for m in range(NUM_MINIONS):
            sp = space[m]
            if sp < 0:
                out.append(z)
                continue
            inplay.append(m)
            power = base_p[m] + mp[m] + p_all
            key = (sp, lives[m], base_f[m] + mf[m] + (f_all if balrog[m] else f_bal), power if power > 0 else 0, mf[m], mp[m])  # noqa: FURB136 (no call: hot path)
            hit = memo[m]
            if hit is None or hit[0] != key:
                v = [0.0] * self.mw
                v[0:6] = (1.0, key[1] / 3.0, key[2] / 10.0, key[3] / 5.0, key[4] / 6.0, key[5] / 2.0)
                v[6 + sp] = 1.0
                hit = memo[m] = (key, pack(*v))
            out.append(hit[1])
        c.minions = b"".join(out)
        inplay_t = tuple(inplay)
        if inplay_t != c.inplay:
            c.inplay = inplay_t
            c.invc = [None, None]

    def _combat(self, s: State, first: int) -> bytes:
        R = self.rules
        v = [0.0] * self.combat_size
        ht, it = R.combat_totals(s)
        enc = s.cb_enc >= 0
        v[0: len(COMBAT_FIELDS)] = (
            1.0, s.cb_att, enc, R.loc[s.cb_enc].strength / 10.0 if enc else 0.0, R.loc[s.cb_enc].power / 5.0 if enc else 0.0,
            ht / 20.0, it / 20.0, R.hero_max_power(s, s.cb_hero) / 5.0, R.invoker_draws(s) / 5.0,
            s.cb_by, s.cb_br, s.cb_fury, s.cb_dark, len(s.cb_kview) / 5.0, s.cb_kpicks / 5.0,
        )
        v[self.cb_hero_at + (s.cb_hero - first) % R.k] = 1.0
        if s.cb_minion >= 0:
            v[self.cb_minion_at + s.cb_minion] = 1.0
        i = self.cb_hcards_at
        for x in s.cb_hcards:
            v[i + x] += 1 / 3
        i = self.cb_icards_at
        for x in s.cb_icards:
            v[i + x] += 1 / 3
        return self._p_combat.pack(*v)

    def _place(self, s: State, seat: int, first: int) -> bytes:
        v = [0.0] * self.place_size
        piece, who = s.pl[0], s.pl[1]
        if piece == PIECE_HERO:
            v[0] = 1.0
            v[2 + (who - first) % self.rules.k] = 1.0
        else:
            v[1] = 1.0
            v[2 + MAX_HEROES + who] = 1.0
        v[2 + MAX_HEROES + NUM_MINIONS] = float(s.pl[3] == seat)
        i = self.pt_at
        for x in self.rules._place_cands(s, s.pl):
            v[i + x] = 1.0
        return self._p_place.pack(*v)

    def _invoker_cards(self, s: State, role: int, inplay: tuple[int, ...]) -> bytes:
        gd = self.rules.gd
        v = [0.0] * self.invc_size[role]
        w = 5 if role == 0 else 4
        for m in inplay:
            v[gd.minion_cards[m] * w] = 1.0
        for x in s.inv_discard:
            v[x * w + 1] = 1.0
        for x in s.inv_aside:
            v[x * w + 2] = 1.0
        for x in s.inv_hand:
            v[x * w + 3] = 1.0
        for x in s.inv_deck:
            v[x * w + (4 if role == 0 else 3)] = 1.0
        return self._p_invc[role].pack(*v)

    def encode_list(self, s: State, seat: int) -> list[float]:
        """``seat``'s view of ``s`` built from scratch as a list (no cache; the reference the fast
        :meth:`observation` is tested against)."""
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


class _Packed(dict):
    """Packed float32 bytes of ``fn(x)`` for an int ``x``, computed on first use."""

    def __init__(self, fn: Any) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, x: int) -> bytes:
        vals = self.fn(x)
        b = self[x] = struct.pack(f"<{len(vals)}f", *vals)
        return b


class _Cache:
    """The observer's blocks for one state (``State.obs``): never serialized, dropped by ``clone``.
    Each block is stored with the version (``State.hv``/``mv``/``iv``/``pv``/``sv``) it was built at."""

    def __init__(self) -> None:
        self.hero_rows: list = [None] * MAX_HEROES  # (hv[h], bytes)
        self.hand_rows: list = [None] * MAX_HEROES  # (hv[h], bytes): team_hands rows
        self.heroes: dict = {}  # seat -> (hv copy, hero rows, team hands) in that seat's slot order
        self.minion_rows: list = [None] * NUM_MINIONS  # (values, bytes)
        self.mv = self.sv = self.pv = self.iv = -1
        self.pk: tuple | None = None
        self.piles = self.board5 = self.board = b""
        self.minions = b""
        self.inplay: tuple[int, ...] = ()
        self.mats = b""
        self.pdisc = b""
        self.invc: list = [None, None]  # per role
        self.tkey: list | None = None
        self.top = b""
