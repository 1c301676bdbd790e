"""Mythsgate's observation encoder: the vectors of the layouts declared in ``layout.py``.

Speed: the vector is built as bytes (packed float32) and every piece is written at its offset in
the declared layout. The blocks that cost most to pack (hero rows, minion rows, the Invoker's cards,
pile sizes...) are cached *in the observer*, each next to a copy of the state values it was packed
from; a block is reused only while those values are equal, so no cache can go stale whatever the
state (a clone, a state edited by hand, another env's) and the rules keep no encoder bookkeeping.
``tests/oracles/mythsgate.py`` is the from-scratch reference the tests compare this with.
"""

from __future__ import annotations

import struct
from itertools import compress
from operator import ne

import numpy as np
from mythzoo.envs.core.observer import ObservationLayout, write_bytes
from mythzoo.envs.mythsgate.actions import MAX_HEROES, NUM_MINIONS, VIEW
from mythzoo.envs.mythsgate.gamedata import BOOKS, DECKS, PRINTED, TOKENS, TRACKS
from mythzoo.envs.mythsgate.layout import (
    COMBAT_FIELDS,
    G_BOARD,
    G_INV_PILES,
    G_LOC_PILES,
    STATUS_HERO,
    STATUS_INV,
    MythsgateLayout,
)
from mythzoo.envs.mythsgate.rules import BOOTS, LOC_BOOK, LOC_MATERIAL, PACK, PIECE_HERO, MythsgateRules, State

# The state values each cached group of blocks is packed from (its key), in the order ``observation``
# compares them by index (the most often changed first). A hero row shows hero h's entry of each
# HERO_KEYS list, and whether h is the current hero / the hero in combat (``_c_flags``).
HERO_KEYS = ("h_space", "h_lives", "h_armour", "h_mats", "h_hand", "h_books", "h_done", "h_boots", "h_round_f", "h_round_p", "h_chain")
HAND_KEY = HERO_KEYS.index("h_hand")
BOARD_KEYS = ("tokens", "tracks", "phoenix_used", "inv_round_f", "inv_round_p", "inv_chain", "balrog_bonus")
MINION_KEYS = ("m_space", "m_lives", "m_f", "m_p")
# ``invoker_cards`` and the Invoker's pile sizes: the minions in play (from the board) and these
INV_CARD_KEYS = ("inv_discard", "inv_aside", "inv_hand", "inv_deck", "inv_removed", "inv_hand_known")
MARKET_KEYS = ("supply", "market")
MEMO_LIMIT = 4096  # a memo is emptied when it grows past this (it is only a shortcut)
ROW_PIECES = frozenset(("heroes", "team_hands"))  # written row by row (see _init_fast)
HERO_PARTS = ("one_hots", "body", "cards", "marks", "flags", "levels")  # a hero row's parts (_repack), in row order
_F32 = np.dtype(np.float32)
_IN_PLAY = (-1).__lt__  # a minion's space: -1 < space when in play
MINION_RANGE = range(NUM_MINIONS)
_QUARTER = (0.25).__mul__  # x * 0.25 is x / 4.0 exactly (a power of two), without a bytecode loop
_THIRD = (3.0).__rtruediv__  # x / 3.0
_TENTH = (10.0).__rtruediv__  # x / 10.0


class MythsgateObserver:
    """Fills a seat's observation vector; layout 0 for the Invoker, layout 1 for every hero.

    Shared by every copy of an env (its caches are keyed on values, never on a state's identity)."""

    def __deepcopy__(self, memo: dict) -> MythsgateObserver:
        return self

    def __init__(self, rules: MythsgateRules, max_rounds: int):
        self.rules = R = rules
        self.max_rounds = max_rounds
        decl = MythsgateLayout(R.gd, [mc.name for mc in R.minion])
        self.layouts = decl.layouts
        self.hero_fields, self.minion_fields, self.loc_fields, self.place_fields = decl.hero_fields, decl.minion_fields, decl.loc_fields, decl.place_fields
        self.hw, self.mw, self.lw = len(self.hero_fields), len(self.minion_fields), len(self.loc_fields)
        mats = R.gd.materials
        # one row per location card, as Pwyll sees it
        lf = {name: i for i, name in enumerate(self.loc_fields)}
        self.loc_rows = []
        for c in R.loc:
            row = [0.0] * self.lw
            if c.kind == LOC_MATERIAL:
                row[lf[f"mat_{mats[c.material]}"]] = 1.0
            elif c.kind == LOC_BOOK:
                row[lf[f"book_{BOOKS[c.color]}"]] = 1.0
            else:
                row[lf["encounter"]], row[lf["strength"]], row[lf["power"]] = 1.0, c.strength / 10.0, c.power / 5.0
            row[lf[f"deck_{DECKS[c.deck]}"]] = 1.0
            self.loc_rows.append(row)
        self._init_fast()

    # ------------------------------------------------------------------ setup
    def _init_fast(self) -> None:
        """Byte offsets of every piece (from the layouts), value tables, the packers and the caches."""
        R = self.rules
        S = R.S
        # The vector is a list of parts, joined: one per piece in layout order (so each lands at its
        # declared offset), except the pieces in ROW_PIECES, one part per row (first axis). ``slot``
        # is the index of each piece's (first) part, the same in both roles: their common pieces
        # come first, then each role's own under its own name.
        names: dict[str, int] = {}
        self.zero_parts = []
        for L in self.layouts:
            zero: list[bytes] = []
            for p in L.pieces:
                assert 4 * p.offset == sum(map(len, zero)), "the parts follow the layout"  # ObservationLayout's construction
                assert names.setdefault(p.name, len(zero)) == len(zero), p.name
                rows = p.shape[0] if p.name in ROW_PIECES else 1
                zero += [bytes(4 * p.size // rows)] * rows
            self.zero_parts.append(zero)
        self.slot = _Slots(names)
        self.phase_rows = self._onehots("phase")
        self.mover_rows = self._onehots("mover")
        self.me_rows = self._onehots("me")
        self.slot_rows = self._onehots("combat_hero")
        self.minion_onehot = self._onehots("combat_minion")
        self.minion_at = self.minion_fields.index(f"at_{R.gd.space_names[0]}")  # the space one-hot, after MINION_FIELDS
        pa = {name: i for i, name in enumerate(self.place_fields)}  # index within ``place``
        self.place_kind_at = (pa["hero"], pa["minion"])
        self.place_hero_at = [pa[f"slot{r}"] for r in range(MAX_HEROES)]
        self.place_minion_at = [pa[f"m{m}_{R.minion[m].name}"] for m in range(NUM_MINIONS)]
        self.place_mine_at = pa["mine_to_place"]
        self.tl0, self.tl1 = R.gd.track_length[0], R.gd.track_length[1]
        # Hero rows, packed in parts (HERO_PARTS, see _repack): per hero, the present/character/space
        # one-hots per space + 1; the current / in-combat marks (4 combinations); actions per turn and
        # hand maximum per (boots forged, pack forged). The other parts are packed from the state.
        hf = self.hero_fields
        bounds = [hf.index(first) for first in ("lives", "hand_size", "done", "current", "boots_level")]
        assert hf[bounds[3]:] == ("current", "in_combat", "boots_level", "hand_max"), hf
        self.hero_part_sizes = [b - a for a, b in zip([0] + bounds, bounds + [len(hf)])]  # HERO_PARTS, in row order
        self.hero_pre = []
        for h in range(R.k):
            per = []
            for sp in range(-1, S):
                v = [0.0] * self.hero_part_sizes[0]
                v[hf.index("present")] = 1.0
                v[hf.index(f"char_{R.heroes[h].ability}")] = 1.0
                if sp >= 0:
                    v[hf.index(f"at_{R.gd.space_names[sp]}")] = 1.0
                per.append(struct.pack(f"<{len(v)}f", *v))
            self.hero_pre.append(per)
        self.flag_rows = [struct.pack("<2f", cur, cb) for cur in (0, 1) for cb in (0, 1)]  # index 2 * current + in_combat
        self.hero_levels = [[[struct.pack("<2f", (R.heroes[h].boots + (R.gd.piece_amount[BOOTS] if b else 0)) / 5.0,
                                          (R.heroes[h].hand + (R.gd.piece_amount[PACK] if p else 0)) / 10.0) for p in (0, 1)]
                             for b in (0, 1)] for h in range(R.k)]
        self.hero_range = range(R.k)
        # the Invoker's cards: per role, per status (in play, discard, aside, hand, deck), card -> index
        n = len(R.gd.invoker_cards)
        self.inv_card_size = [n * len(STATUS_INV), n * len(STATUS_HERO)]
        self.inv_card_at = [
            [[c * len(STATUS_INV) + STATUS_INV.index(st) for c in range(n)] for st in STATUS_INV],
            [[c * len(STATUS_HERO) + STATUS_HERO.index(st) for c in range(n)] for st in ("in_play", "discard", "aside", "removed", "hidden", "hidden")],
        ]
        self.loc_bytes = [struct.pack(f"<{self.lw}f", *row) for row in self.loc_rows]
        self.book_color = [c.color for c in R.loc]
        self.m_base_f = [mc.strength for mc in R.minion]
        self.m_base_p = [mc.power for mc in R.minion]
        self.m_balrog = [ab == "balrog" for ab in R.m_ability]
        self.z_minion = bytes(4 * self.mw)
        self._make_packers()
        self._clear_caches()

    def _onehots(self, piece: str) -> list[bytes]:
        """Packed one-hot rows of a one-dimensional piece, one per index."""
        n = self.layouts[0].by_name[piece].size
        return [struct.pack(f"<{n}f", *[1.0 if j == i else 0.0 for j in range(n)]) for i in range(n)]

    def __getstate__(self) -> dict:
        """Pickling: ``struct.Struct`` objects, value tables (``_p_*``) and caches (``_c_*``) are rebuilt on load."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith(("_p_", "_c_"))}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._make_packers()
        self._clear_caches()

    def _make_packers(self) -> None:
        R = self.rules
        K, M = R.K, R.M
        self._p_loc_piles = struct.Struct(f"<{len(G_LOC_PILES)}f")
        self._p_inv_piles = struct.Struct(f"<{len(G_INV_PILES)}f")
        self._p_board5 = struct.Struct(f"<{len(G_BOARD)}f")
        self._p_board = struct.Struct(f"<{len(TOKENS) + len(TRACKS)}f")
        n = self.hero_part_sizes
        self._p_hero_body, self._p_hero_cards, self._p_hero_marks = (struct.Struct(f"<{n[i]}f") for i in (1, 2, 3))
        self._p_minion = struct.Struct(f"<{self.mw}f")
        self._p_mats = struct.Struct(f"<{M}f")
        self._p_kinds = struct.Struct(f"<{K}f")
        self._p_combat = struct.Struct(f"<{len(COMBAT_FIELDS)}f")
        self._p_view = struct.Struct(f"<{VIEW * K}f")
        self._p_place = struct.Struct(f"<{len(self.place_fields)}f")
        self._p_targets = struct.Struct(f"<{R.S}f")
        self._p_invc = [struct.Struct(f"<{len(R.gd.invoker_cards) * w}f") for w in (len(STATUS_INV), len(STATUS_HERO))]
        self._p_kind_onehot = [self._p_kinds.pack(*[1.0 if j == kk else 0.0 for j in range(K)]) for kk in range(K)]
        mr, k = self.max_rounds, R.k
        # the game scalars by value: table name -> (what it packs, the largest value a valid state holds)
        self._p_game_fns = {
            "_p_round": (lambda x: (x / mr,), mr), "_p_gems": (lambda x: (x / 10.0, (10 - x) / 10.0, k / 5.0), PRINTED["gems"]),
            "_p_t5": (lambda x: (x / 5.0,), 20), "_p_t6": (lambda x: (x / 6.0,), 20),  # inv_known, boots_supply, h_left, h_taken; inv_left, tr_left
            "_p_t15": (lambda x: (x / 15.0,), PRINTED["life_tokens"]), "_p_t48": (lambda x: (x / 48.0,), PRINTED["power_cards"]),
            "_p_side": (lambda x: (x == 0, x == 1, x == 2), 2),
        }
        for name, (fn, hi) in self._p_game_fns.items():
            setattr(self, name, {x: _pack(fn(x)) for x in range(hi + 1)})  # plain dicts: the fastest lookup
        self._p_ban = {b3: {b4: _pack((b3, b4)) for b4 in (0, 1)} for b3 in (0, 1)}

    def _clear_caches(self) -> None:
        """Every cache: ``(copies of the values a block was packed from, block)``; never in a state."""
        k = self.rules.k
        self._c_heroes: list | None = None  # copies of the HERO_KEYS lists and
        self._c_flags: tuple[int, int] = (-1, -1)  # ... (cur_hero, cb_hero), which per hero show
        self._c_hero_parts: list = [None] * k  # ... the parts of its row (HERO_PARTS),
        # ... the whole row and the team_hands row, each at h and h + k: any seat's order is one slice
        self._c_hero_full: list = [b""] * (2 * k)
        self._c_hand_rows: list = [b""] * (2 * k)
        self._c_board: tuple | None = None  # copies of the BOARD_KEYS values, which
        self._c_board5 = self._c_board_block = b""  # ... these show, and which give
        self._c_bonus: tuple | None = None  # ... what every minion's Strength and draws add
        self._c_minions: tuple | None = None  # copies of the MINION_KEYS lists, which (with the bonus)
        self._c_minion_vals: list = [None] * NUM_MINIONS  # ... per minion (space, lives, +F, +P) show
        self._c_minion_rows: list = [b""] * NUM_MINIONS  # ... its row,
        self._c_minion_block = b""  # ... all rows
        self._c_inplay: tuple[int, ...] = ()  # ... and the minions in play
        self._c_minion_memo: dict[tuple, bytes] = {}
        self._c_inv: tuple | None = None  # minions in play and INV_CARD_KEYS values
        self._c_inv_blocks: list = [None, None]  # per role
        self._c_market: tuple | None = None  # MARKET_KEYS values
        self._c_market_blocks: tuple[bytes, bytes] = (b"", b"")
        self._c_pdisc: list | None = None  # the Power discard pile
        self._c_pdisc_block = b""
        self._c_loc: tuple | None = None  # the location decks and discard piles
        self._c_loc_block = b""
        self._c_inv_piles = b""  # the sizes of the Invoker's piles (with _c_inv)
        self._c_place_memo: dict[tuple, bytes] = {}  # (kind, slot or minion, yours) -> packed ``place``
        self._c_target_memo: dict[tuple, bytes] = {}  # target spaces -> packed ``place_targets``
        self._c_top: list | None = None  # the top Power cards the Invoker knows
        self._c_top_block = b""

    def layout(self, seat: int) -> ObservationLayout:
        """The Invoker's layout for seat 0, the heroes' for every other seat."""
        return self.layouts[0 if seat == 0 else 1]

    # ------------------------------------------------------------------ the vector
    def encode(self, s: State, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s view of ``s`` into ``out`` (every entry is overwritten): the joined bytes go
        straight into a contiguous float32 row, without a temporary array."""
        write_bytes(self._bytes(s, seat), out)

    def observation(self, s: State, seat: int) -> np.ndarray:
        """``seat``'s view of ``s`` as a new (writable) float32 vector."""
        return np.frombuffer(self._bytes(s, seat), _F32)

    def _bytes(self, s: State, seat: int) -> bytearray:
        """``seat``'s view of ``s`` as the float32 vector's bytes.

        Every piece's bytes go to its slot (``self.slot``: the piece's index in its declared layout);
        the slots are joined in layout order, so each piece lands at its declared offset. A piece
        not in use keeps its zero bytes."""
        R = self.rules
        k = R.k
        role = 0 if seat == 0 else 1
        first = 0 if role == 0 else seat - 1  # absolute hero in slot 0
        parts = self.zero_parts[role][:]
        sl = self.slot
        parts[sl.phase] = self.phase_rows[s.phase]
        if not s.over:
            a = s.actor
            parts[sl.mover] = self.mover_rows[0 if a == 0 else 1 + (a - 1 - first) % k]
        parts[sl.me] = self.me_rows[seat]
        if s.ab_minion >= 0:  # which minion's ability waits for its target (P_DRAGON / P_CYCLOPS)
            parts[sl.ability_minion] = self.minion_onehot[s.ab_minion]
        # The cached blocks: each group of state values is compared (list by list, C speed, no
        # allocation) with the copies its blocks were packed from; a group that differs is repacked.
        c = self._c_heroes  # copies of the HERO_KEYS lists; each that differs is diffed hero by hero
        if c is None:
            self._init_heroes(s)
        else:
            if s.h_hand != c[4]:
                self._heroes_changed(4, s.h_hand)
            if s.h_space != c[0]:
                self._heroes_changed(0, s.h_space)
            if s.h_mats != c[3]:
                self._heroes_changed(3, s.h_mats)
            if s.h_lives != c[1]:
                self._heroes_changed(1, s.h_lives)
            if s.h_done != c[6]:
                self._heroes_changed(6, s.h_done)
            if s.h_round_f != c[8] or s.h_round_p != c[9] or s.h_chain != c[10] or s.h_boots != c[7] or s.h_armour != c[2] or s.h_books != c[5]:
                for i in (2, 5, 7, 8, 9, 10):
                    new = getattr(s, HERO_KEYS[i])
                    if new != c[i]:
                        self._heroes_changed(i, new)
            if s.cur_hero != self._c_flags[0] or s.cb_hero != self._c_flags[1]:
                self._flags_changed(s)
        # the rows in this seat's slot order (absent heroes' slots stay zero)
        parts[sl.heroes: sl.heroes + k] = self._c_hero_full[first: first + k]
        c = self._c_board  # BOARD_KEYS
        if (c is None or s.tokens != c[0] or s.tracks != c[1] or s.inv_round_f != c[3] or s.inv_round_p != c[4] or s.inv_chain != c[5]
                or s.balrog_bonus != c[6] or s.phoenix_used != c[2]):
            self._refresh_board(s)
        c = self._c_minions  # MINION_KEYS
        if c is None or s.m_space != c[0] or s.m_lives != c[1] or s.m_f != c[2] or s.m_p != c[3]:
            self._refresh_minions(s)
        parts[sl.minions] = self._c_minion_block
        parts[sl.invoker_board] = self._c_board_block
        inplay = self._c_inplay
        c = self._c_inv  # the minions in play and INV_CARD_KEYS
        if (c is None or inplay != c[0] or s.inv_hand != c[3] or s.inv_deck != c[4] or s.inv_discard != c[1] or s.inv_aside != c[2]
                or s.inv_removed != c[5] or s.inv_hand_known != c[6]):
            self._refresh_inv(s, inplay)
        invc = self._c_inv_blocks[role]
        if invc is None:
            invc = self._c_inv_blocks[role] = self._invoker_cards(s, role, inplay)
        parts[sl.invoker_cards] = invc
        c = self._c_market  # MARKET_KEYS
        if c is None or s.supply != c[0] or s.market != c[1]:
            self._c_market = (s.supply[:], s.market[:])
            self._c_market_blocks = (self._p_mats.pack(*map(_TENTH, s.supply)), self._p_mats.pack(*map(_QUARTER, s.market)))
        parts[sl.supply], parts[sl.market] = self._c_market_blocks
        if s.power_discard != self._c_pdisc:
            self._c_pdisc = s.power_discard[:]
            pile = [0.0] * R.K
            for kk in s.power_discard:
                pile[kk] += 0.2
            self._c_pdisc_block = self._p_kinds.pack(*pile)
        parts[sl.power_discard] = self._c_pdisc_block
        c = self._c_loc  # the location decks and discard piles
        if c is None or s.loc_deck != c[0] or s.loc_discard != c[1]:
            ld, lc = s.loc_deck, s.loc_discard
            self._c_loc = ([x[:] for x in ld], [x[:] for x in lc])
            self._c_loc_block = self._p_loc_piles.pack(len(ld[0]) / 14.0, len(ld[1]) / 14.0, len(ld[2]) / 14.0,
                                                       len(lc[0]) / 14.0, len(lc[1]) / 14.0, len(lc[2]) / 14.0)
        # the game piece: its groups in GAME_FIELDS order (G_ROUND, G_GEMS, ..., G_TURN_HERO), the
        # scalars packed by value (plain dicts, filled for every value a valid state holds)
        try:
            parts[sl.game] = self._game(s)
        except (KeyError, IndexError):  # a value no valid state holds (a state edited by hand): pack it too
            self._pack_game_values(s)
            parts[sl.game] = self._game(s)
        if s.cb_on:
            self._combat(s, parts, first)
        if s.pl:
            self._place(s, parts, seat, first)
        if s.h_order:
            v = [0.0] * (MAX_HEROES * MAX_HEROES)
            for i, h in enumerate(s.h_order):
                v[i * MAX_HEROES + (h - first) % k] = 1.0
            parts[sl.turn_order] = _pack(tuple(v))
        if s.pw_cards:
            parts[sl.pwyll_cards] = b"".join([self.loc_bytes[x] for x in s.pw_cards])
        if role == 0:
            known = s.h_known
            parts[sl.known_hands] = b"".join([self._p_kinds.pack(*map(_THIRD, known[h])) for h in range(k)]) + bytes(4 * R.K * (MAX_HEROES - k))
            deck = s.power_deck
            n = s.inv_known
            if n and deck:
                top = deck[len(deck) - min(n, len(deck)):]
                if top != self._c_top:
                    self._c_top = top
                    K = R.K
                    v = [0.0] * (VIEW * K)
                    for j in range(len(top)):
                        v[j * K + top[-1 - j]] = 1.0
                    self._c_top_block = self._p_view.pack(*v)
                parts[sl.known_top] = self._c_top_block
            if s.cb_kview:
                K = R.K
                v = [0.0] * (VIEW * K)
                for j, kk in enumerate(s.cb_kview):
                    v[j * K + kk] = 1.0
                parts[sl.kraken_view] = self._p_view.pack(*v)
        else:
            parts[sl.team_hands: sl.team_hands + k] = self._c_hand_rows[first: first + k]
            if R.has_hood and s.power_deck:
                parts[sl.hood_top] = self._p_kind_onehot[s.power_deck[-1]]
        return bytearray().join(parts)

    # ------------------------------------------------------------------ heroes
    # A hero row is six parts (HERO_PARTS), each packed from a few HERO_KEYS lists: a change repacks
    # only the parts of the changed heroes that show the changed list.
    def _init_heroes(self, s: State) -> None:
        c = self._c_heroes = [[x[:] if type(x) is list else x for x in getattr(s, name)] for name in HERO_KEYS]
        self._c_flags = (s.cur_hero, s.cb_hero)
        for h in range(self.rules.k):
            self._c_hero_parts[h] = [b""] * len(HERO_PARTS)
            for i in range(len(HERO_KEYS)):
                self._repack(c, i, h)
            self._c_hero_parts[h][HERO_PARTS.index("flags")] = self._flag_row(h)
            self._c_hero_full[h] = self._c_hero_full[h + self.rules.k] = b"".join(self._c_hero_parts[h])

    def _heroes_changed(self, i: int, new: list) -> None:
        """HERO_KEYS list ``i`` is now ``new``: keep a copy, repack what it shows of each hero whose entry changed."""
        c = self._c_heroes
        old = c[i]
        c[i] = [x[:] for x in new] if type(new[0]) is list else new[:]
        for h in compress(self.hero_range, map(ne, new, old)):
            self._repack(c, i, h)
            self._c_hero_full[h] = self._c_hero_full[h + self.rules.k] = b"".join(self._c_hero_parts[h])

    def _repack(self, c: list, i: int, h: int) -> None:
        """Repack the parts of hero ``h``'s row (and its League hand row) that show HERO_KEYS list ``i``."""
        parts = self._c_hero_parts[h]
        if i == 0:  # h_space: present, character, space one-hots
            parts[0] = self.hero_pre[h][c[0][h] + 1]
        elif i <= 3:  # h_lives, h_armour, h_mats: lives, armour forged, materials
            arm = c[2][h]
            parts[1] = self._p_hero_body.pack(c[1][h] / 2.0, *arm, *map(_QUARTER, c[3][h]))
            parts[5] = self.hero_levels[h][arm[BOOTS]][arm[PACK]]  # actions per turn, hand maximum
        elif i <= 5:  # h_hand, h_books: hand size, books held
            books = [0.0, 0.0, 0.0]
            color = self.book_color
            for x in c[5][h]:
                books[color[x]] += 0.5
            parts[2] = self._p_hero_cards.pack(sum(c[4][h]) / 10.0, *books)
            if i == HAND_KEY:
                self._c_hand_rows[h] = self._c_hand_rows[h + self.rules.k] = self._p_kinds.pack(*map(_THIRD, c[4][h]))
        else:  # h_done, h_boots, h_round_f, h_round_p, h_chain: this turn's and round's marks
            parts[3] = self._p_hero_marks.pack(c[6][h], c[7][h], c[8][h] / 4.0, c[9][h] / 2.0, c[10][h] / 2.0)

    def _flag_row(self, h: int) -> bytes:
        cur, cb = self._c_flags
        return self.flag_rows[2 * (cur == h) + (cb == h)]

    def _flags_changed(self, s: State) -> None:
        """The current hero or the hero in combat changed: the rows of the heroes it was and is."""
        old = self._c_flags
        self._c_flags = (s.cur_hero, s.cb_hero)
        flags = HERO_PARTS.index("flags")
        for h in {*old, *self._c_flags}:
            if 0 <= h < self.rules.k:
                self._c_hero_parts[h][flags] = self._flag_row(h)
                self._c_hero_full[h] = self._c_hero_full[h + self.rules.k] = b"".join(self._c_hero_parts[h])

    # ------------------------------------------------------------------ board
    def _game(self, s: State) -> bytes:
        """The ``game`` piece: its groups in GAME_FIELDS order (G_ROUND, G_GEMS, ..., G_TURN_HERO)."""
        t5, t6 = self._p_t5, self._p_t6
        return b"".join((
            self._p_round[s.round], self._p_gems[s.gems], t6[s.inv_left], self._p_ban[s.ban3][s.ban4],
            self._p_t15[s.life_supply], t5[s.boots_supply], self._p_t48[len(s.power_deck)], self._p_t48[len(s.power_discard)],
            self._c_loc_block, self._c_inv_piles, self._c_board5, t5[s.inv_known], self._p_side[s.turn_side], t5[s.h_left],
            t5[s.h_taken], t6[s.tr_left],
        ))

    def _pack_game_values(self, s: State) -> None:
        """Add the packed values of ``s``'s game scalars to their tables (values outside the ranges a
        valid state holds, e.g. in a state edited by hand)."""
        for name, x in (("_p_round", s.round), ("_p_gems", s.gems), ("_p_t6", s.inv_left), ("_p_t15", s.life_supply), ("_p_t5", s.boots_supply),
                        ("_p_t48", len(s.power_deck)), ("_p_t48", len(s.power_discard)), ("_p_t5", s.inv_known), ("_p_side", s.turn_side),
                        ("_p_t5", s.h_left), ("_p_t5", s.h_taken), ("_p_t6", s.tr_left)):
            table = getattr(self, name)
            if x not in table:
                table[x] = _pack(self._p_game_fns[name][0](x))
        self._p_ban.setdefault(s.ban3, {}).setdefault(s.ban4, _pack((s.ban3, s.ban4)))

    def _refresh_board(self, s: State) -> None:
        """A BOARD_KEYS value changed: the packed Invoker board (``invoker_board`` and his round
        bonuses in ``game``); if what every minion's Strength and draws add changed, every minion row."""
        tk, tr = s.tokens, s.tracks
        self._c_board = (tk[:], tr[:], s.phoenix_used, s.inv_round_f, s.inv_round_p, s.inv_chain, s.balrog_bonus)
        self._c_board5 = self._p_board5.pack(s.phoenix_used, s.inv_round_f / 6.0, s.inv_round_p / 3.0, s.inv_chain / 3.0, s.balrog_bonus)
        self._c_board_block = self._p_board.pack(*tk, tr[0] / self.tl0, tr[1] / self.tl1)
        R = self.rules
        f_all = R.track_bonus[0][tr[0]] + s.inv_round_f  # R.minion_strength, R.minion_power, inlined
        bonus = (f_all, f_all + s.balrog_bonus, R.track_bonus[1][tr[1]] + s.inv_round_p - s.inv_chain)
        if bonus != self._c_bonus:
            self._c_bonus = bonus
            self._c_minions = None  # every row is repacked
            self._c_minion_vals = [None] * NUM_MINIONS

    def _refresh_minions(self, s: State) -> None:
        """A MINION_KEYS list changed: the rows of the minions whose values changed, the minions in play."""
        old = self._c_minions
        self._c_minions = (s.m_space[:], s.m_lives[:], s.m_f[:], s.m_p[:])
        bonus = self._c_bonus
        vals = list(zip(s.m_space, s.m_lives, s.m_f, s.m_p))
        rows, at = self._c_minion_rows, self.minion_at
        memo = self._c_minion_memo  # the packed row of each (space, lives, Strength, draws, +F, +P) seen
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        for m in compress(MINION_RANGE, map(ne, vals, self._c_minion_vals)):
            sp, lives, mf, mp = vals[m]
            if sp < 0:
                rows[m] = self.z_minion
                continue
            power = self.m_base_p[m] + mp + bonus[2]
            key = (sp, lives, self.m_base_f[m] + mf + bonus[0 if self.m_balrog[m] else 1], power if power > 0 else 0, mf, mp)
            row = memo.get(key)
            if row is None:
                v = [0.0] * self.mw
                v[0:at] = (1.0, lives / 3.0, key[2] / 10.0, key[3] / 5.0, mf / 6.0, mp / 2.0)
                v[at + sp] = 1.0
                row = memo[key] = self._p_minion.pack(*v)
            rows[m] = row
        self._c_minion_vals = vals
        if old is None or old[0] != s.m_space:
            self._c_inplay = tuple(compress(MINION_RANGE, map(_IN_PLAY, s.m_space)))
        self._c_minion_block = b"".join(rows)

    def _refresh_inv(self, s: State, inplay: tuple[int, ...]) -> None:
        """The Invoker's piles or the minions in play changed: both roles' ``invoker_cards``, the pile sizes."""
        self._c_inv = (inplay, s.inv_discard[:], s.inv_aside[:], s.inv_hand[:], s.inv_deck[:], s.inv_removed[:], s.inv_hand_known[:])
        self._c_inv_blocks = [None, None]  # packed per role when first needed
        self._c_inv_piles = self._p_inv_piles.pack(len(s.inv_hand) / 10.0, len(s.inv_deck) / 20.0, len(s.inv_discard) / 20.0, len(s.inv_aside) / 3.0)

    def _invoker_cards(self, s: State, role: int, inplay: tuple[int, ...]) -> bytes:
        """Each Great Invoker card's status: in play / discarded / set aside / removed, and hand / deck (the
        Invoker) or hidden (a hero)."""
        in_play, discard, aside, removed, hand, deck = self.inv_card_at[role]  # per status: card -> index in the piece
        minion_cards = self.rules.gd.minion_cards
        v = [0.0] * self.inv_card_size[role]
        for m in inplay:
            v[in_play[minion_cards[m]]] = 1.0
        for x in s.inv_discard:
            v[discard[x]] = 1.0
        for x in s.inv_aside:
            v[aside[x]] = 1.0
        for x in s.inv_removed:
            v[removed[x]] = 1.0
        for x in s.inv_hand:
            v[hand[x]] = 1.0
        for x in s.inv_deck:
            v[deck[x]] = 1.0
        if role == 1:  # a card the League saw go into his hand: known there, not hidden
            n = len(STATUS_HERO)
            for x in s.inv_hand_known:
                v[x * n + STATUS_HERO.index("hidden")] = 0.0
                v[x * n + STATUS_HERO.index("hand")] = 1.0
        return self._p_invc[role].pack(*v)

    # ------------------------------------------------------------------ while in use
    def _combat(self, s: State, parts: list[bytes], first: int) -> None:
        """The five combat pieces (only during a combat)."""
        R = self.rules
        sl = self.slot
        ht, it = R.combat_totals(s)
        enc = s.cb_enc >= 0
        parts[sl.combat] = self._p_combat.pack(
            1.0, s.cb_att, enc, R.loc[s.cb_enc].strength / 10.0 if enc else 0.0, R.loc[s.cb_enc].power / 5.0 if enc else 0.0,
            ht / 20.0, it / 20.0, R.hero_max_power(s, s.cb_hero) / 5.0, R.invoker_draws(s) / 5.0,
            s.cb_by, s.cb_br, s.cb_fury, s.cb_dark, len(s.cb_kview) / 5.0, s.cb_kpicks / 5.0,
        )
        parts[sl.combat_hero] = self.slot_rows[(s.cb_hero - first) % R.k]
        if s.cb_minion >= 0:
            parts[sl.combat_minion] = self.minion_onehot[s.cb_minion]
        for i, cards in ((sl.combat_hero_cards, s.cb_hcards), (sl.combat_inv_cards, s.cb_icards)):
            if cards:
                v = [0.0] * R.K
                for x in cards:
                    v[x] += 1 / 3
                parts[i] = self._p_kinds.pack(*v)

    def _place(self, s: State, parts: list[bytes], seat: int, first: int) -> None:
        """The piece waiting to be placed and where it may go (only while one waits), packed once per
        (piece, its slot or minion, yours to place) and per set of target spaces."""
        pl = s.pl
        if pl[0] == PIECE_HERO:
            key = (self.place_kind_at[0], self.place_hero_at[(pl[1] - first) % self.rules.k], pl[3] == seat)
        else:
            key = (self.place_kind_at[1], self.place_minion_at[pl[1]], pl[3] == seat)
        row = self._c_place_memo.get(key)
        if row is None:
            v = [0.0] * len(self.place_fields)
            v[key[0]] = v[key[1]] = 1.0
            v[self.place_mine_at] = float(key[2])
            row = self._c_place_memo[key] = self._p_place.pack(*v)
        parts[self.slot.place] = row
        cands = tuple(self.rules._place_cands(s, pl))
        row = self._c_target_memo.get(cands)
        if row is None:
            if len(self._c_target_memo) > MEMO_LIMIT:
                self._c_target_memo.clear()
            v = [0.0] * self.rules.S
            for x in cands:
                v[x] = 1.0
            row = self._c_target_memo[cands] = self._p_targets.pack(*v)
        parts[self.slot.place_targets] = row



class _Slots:
    """Piece name -> slot index, as attributes (``slot.game``): cheaper than a dict lookup per piece."""

    def __init__(self, names: dict[str, int]) -> None:
        self.__dict__.update(names)


def _pack(values: tuple) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)
