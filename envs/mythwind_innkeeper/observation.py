"""Mythwind Innkeeper observation encoding: what the innkeeper sees, as one float32 vector.

Public: the inn (every slot), the guests' locations (the bag's *contents* are deducible, since
the innkeeper fills it and every drawn guest returns to it, so each guest's place is shown),
the gossip hand and the other cards' places (the shuffled part of the gossip deck as a set),
the weather cards left this season, skills, dice, coins and renown. Hidden: the order of the
bag, of the weather deck and of the shuffled gossip deck, i.e. every future draw.

Static facts of each token (a guest's requests and complaints, an accommodation's type, cost,
renown requirement and style, a gossip card's accommodations) are part of the vector too, so a
network sees what a replaced data file says; they are written once into a template that every
observation starts from.
"""

from __future__ import annotations

import struct

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.mythwind_innkeeper.actions import NUM_SLOTS, OPERATE, slot_name
from mythzoo.envs.mythwind_innkeeper.components import (
    ACC_TYPES, ALIGNMENTS, COMPLAINT_KINDS, DIE_TYPES, EFFECT_KINDS, FURNITURE, SERVICES, STYLES, WEATHER_TYPES,
)
from mythzoo.envs.mythwind_innkeeper.rules import (
    A_SETUP, A_SUPPLY, G_BAG, G_DRAWN, G_QUIET, G_SUPPLY, OUTER, PHASE_NAMES, MythwindInnkeeperRules, State,
)

COIN_SCALE = 50.0  # coins and coins earned are shown divided by this
MEMO_LIMIT = 4096  # a memo is emptied when it reaches this many entries (it is only a shortcut)
_FLOAT32 = np.dtype(np.float32)
SCALARS = (
    "coins", "earned", "party_coins", "day_of_season", "season_progress", "days_left", "streak", "bag_size",
    "drawn", "hand_size", "gossip_deck_size", "improve_bought", "improve_moved", "improve_sold", "by_worker",
    "complaints_pending", "last_seated", "last_unseated", "skill_picks_left",
)
SLOT_FIELDS = ("outer", "has_accommodation", "damaged") + tuple(f"type_{t}" for t in ACC_TYPES) + tuple(f"style_{x}" for x in STYLES) + (
    "guest", "back_facing", "party_token", "cost")
GUEST_LOC = ("supply", "bag", "drawn", "unseated_quiet", "seated")
GUEST_FIELDS = GUEST_LOC + ("level_1", "level_2", "level_3") + tuple(f"wants_{t}" for t in ACC_TYPES) + tuple(
    f"wants_{x}" for x in STYLES) + tuple(f"complaint_{k}" for k in COMPLAINT_KINDS)
ACC_FIELDS = ("in_supply", "in_inn", "to_place") + tuple(f"type_{t}" for t in ACC_TYPES) + ("cost", "renown_1", "renown_2", "renown_3") + tuple(
    f"style_{x}" for x in STYLES)
GOSSIP_LOC = ("deck", "deck_bottom", "hand", "served", "adventure")
GOSSIP_FIELDS = GOSSIP_LOC + tuple(f"shows_{t}" for t in SERVICES) + tuple(f"icon_{x}" for x in STYLES) + tuple(f"effect_{k}" for k in EFFECT_KINDS)
SKILL_FIELDS = ("gained",) + tuple(f"row_{r}" for r in OPERATE) + ("learnable", "cost")
DIE_FIELDS = ("hired", "pips", "used_today") + tuple(f"type_{t}" for t in DIE_TYPES)
WEATHER_FIELDS = tuple(f"today_{w}" for w in WEATHER_TYPES) + ("event", "aligned_sprite", "aligned_villager")
INN_FIELDS = tuple(f"service_{t}" for t in ACC_TYPES) + tuple(f"style_count_{x}" for x in STYLES) + tuple(f"embraced_{x}" for x in STYLES)


def build_layout(rules: MythwindInnkeeperRules) -> ObservationLayout:
    """The one declaration of the observation: every size, name and doc derives from it."""
    d = rules.data
    guests = [f"g{g.gid}" for g in d.guests]
    accs = [f"a{a.aid}" for a in d.accommodations]
    return ObservationLayout(
        [
            ("phase", (len(PHASE_NAMES),), "One-hot decision phase.", [PHASE_NAMES]),
            ("scalars", (len(SCALARS),), "Coins/50, coins earned/50, party coins/3, day in season/days, season/seasons, days left/total, same-weather streak/5, bag size/30, drawn unseated/12, hand/6, gossip deck/6, Improve parts used (purchase, move, sell), action by a worker, complaints pending/10, last night's seated and unseated/12, Waiting List picks left/2.", [SCALARS]),
            ("renown", (rules.track_len,), "One-hot slot of the renown marker.", [[f"slot{i}" for i in range(rules.track_len)]]),
            ("renown_level", (3,), "One-hot renown level I-III.", [["I", "II", "III"]]),
            ("season", (len(d.seasons),), "One-hot season (its effect).", [[x.name for x in d.seasons]]),
            ("weather", (len(WEATHER_FIELDS),), "Today's weather card: type, event icon, alignment.", [WEATHER_FIELDS]),
            ("weather_deck", (rules.NW,), "Weather cards still in this season's deck.", [[f"w{i}" for i in range(rules.NW)]]),
            ("operate_row", (len(OPERATE),), "One-hot Operate action chosen by the character today.", [OPERATE]),
            ("worker_slots", (len(OPERATE),), "Worker action slots taken today.", [OPERATE]),
            ("selected_guest", (rules.NG,), "The guest chosen in the previous step (to pamper or seat) or the late guest to seat.", [guests]),
            ("selected_token", (rules.NA,), "The accommodation token being bought.", [accs]),
            ("selected_slot", (NUM_SLOTS,), "The slot whose accommodation is being moved.", [[slot_name(s) for s in range(NUM_SLOTS)]]),
            ("pending", (3 + len(ACC_TYPES),), "Damage left to assign by category (any, furniture, service)/5; the accommodation type a complaint takes (one-hot).", [("damage_any", "damage_furniture", "damage_service") + ACC_TYPES]),
            ("inn", (len(INN_FIELDS),), "Types available to requests (undamaged or on served gossip), style counts/3, styles embraced.", [INN_FIELDS]),
            ("grid", (NUM_SLOTS, len(SLOT_FIELDS)), "Per slot (row-major): outer, accommodation, damaged, one-hot type, style, guest seated, back facing, party token, cost/15.", [[slot_name(s) for s in range(NUM_SLOTS)], SLOT_FIELDS]),
            ("guests", (rules.NG, len(GUEST_FIELDS)), "Per guest token: one-hot place (supply, bag, drawn, unseated by a lost accommodation, seated); level; requests (furniture, services, style); complaints (coins/3, renown, lose, draw).", [guests, GUEST_FIELDS]),
            ("accommodations", (rules.NA, len(ACC_FIELDS)), "Per accommodation token: in supply, in the inn, to place at setup; type; cost/15; renown required; style.", [accs, ACC_FIELDS]),
            ("gossip", (rules.NC, len(GOSSIP_FIELDS)), "Per gossip card: one-hot place; accommodations shown; style icons; adventure effect amount by kind.", [[f"c{c.cid}" for c in d.gossip], GOSSIP_FIELDS]),
            ("skills", (rules.NK, len(SKILL_FIELDS)), "Per skill: gained, one-hot row, learnable now, cost/30.", [[k.key for k in d.skills], SKILL_FIELDS]),
            ("dice", (rules.ND, len(DIE_FIELDS)), "Per worker die: hired, pips/6, used today, type.", [[f"die{i}" for i in range(rules.ND)], DIE_FIELDS]),
        ]
    )


class MythwindInnkeeperObserver:
    """Builds the innkeeper's observation from a static template plus the state's dynamic entries.

    Speed: the vector is assembled as bytes. The head (everything before the grid) is packed with
    ``struct``; each block after it (grid, guests, accommodations, gossip, skills and dice) is
    joined from precomputed packed rows, one per token and place, and kept with a copy of the
    state values it was built from, so an unchanged block costs a few list comparisons. The
    caches are keyed on values, never on the identity of a state, so any state (a clone, one
    restored by ``set_state``) gets exactly what :meth:`reference_observation` computes from
    scratch; they live in the observer, never in the state, and are not pickled.
    """

    def __deepcopy__(self, memo: dict) -> "MythwindInnkeeperObserver":
        return self

    def __init__(self, rules: MythwindInnkeeperRules):
        self.rules = rules
        self._layout = L = build_layout(rules)
        self.size = L.size
        o = {p.name: p.offset for p in L.pieces}
        self.o = o
        d = rules.data
        t = np.zeros(L.size, dtype=np.float32)
        v = L.views(t)
        nf = len(FURNITURE)
        for s in range(NUM_SLOTS):
            v["grid"][s, 0] = float(OUTER[s])
        for g in d.guests:
            row = v["guests"][g.gid]
            row[5 + g.level - 1] = 1.0
            row[8 + g.furniture] = 1.0
            for x in g.services:
                row[8 + x] = 1.0
            if g.style >= 0:
                row[8 + len(ACC_TYPES) + g.style] = 1.0
            base = 8 + len(ACC_TYPES) + len(STYLES)
            for kind, amount in g.complaints:
                row[base + kind] += amount / 3.0 if kind == 0 else 1.0
        for a in d.accommodations:
            row = v["accommodations"][a.aid]
            row[3 + a.type] = 1.0
            row[3 + len(ACC_TYPES)] = a.cost / 15.0
            row[4 + len(ACC_TYPES) + a.renown - 1] = 1.0
            if a.style >= 0:
                row[7 + len(ACC_TYPES) + a.style] = 1.0
        for c in d.gossip:
            row = v["gossip"][c.cid]
            for x in c.accommodations:
                row[5 + x - nf] = 1.0
            for x in c.styles:
                row[5 + len(SERVICES) + x] += 1.0
            row[5 + len(SERVICES) + len(STYLES) + c.effect[0]] = c.effect[1] / 3.0
        for k in d.skills:
            v["skills"][k.sid, len(SKILL_FIELDS) - 1] = k.cost / 30.0
        for i, ty in enumerate(d.dice_types):
            v["dice"][i, 3 + ty] = 1.0
        self.template = t
        self.grid_w, self.guest_w, self.acc_w = len(SLOT_FIELDS), len(GUEST_FIELDS), len(ACC_FIELDS)
        self.gossip_w, self.skill_w, self.die_w = len(GOSSIP_FIELDS), len(SKILL_FIELDS), len(DIE_FIELDS)
        self.loc_index = {G_SUPPLY: 0, G_BAG: 1, G_DRAWN: 2, G_QUIET: 3}
        self._build_tables()

    def _build_tables(self) -> None:
        """Offsets as attributes and the packed rows the fast path joins."""
        R, o, t = self.rules, self.o, self.template
        names = [p.name for p in self._layout.pieces]
        # The blocks after the head are laid out in this order, back to back, up to the end.
        blocks = ["grid", "guests", "accommodations", "gossip", "skills", "dice"]
        assert names[-len(blocks):] == blocks and o["skills"] + R.NK * self.skill_w == o["dice"]
        self.head_size = o["grid"]
        self.nbytes = 4 * self.size
        self.n_scalars = len(SCALARS)
        self.n_inn = len(INN_FIELDS)
        self.total = R.total_days()
        self.days_per_season, self.num_seasons = R.days_per_season, R.num_seasons
        # The head (everything before the grid) is joined from one piece per group of pieces, in
        # layout order; each is a precomputed row, a cached block or packed.
        head = ["phase", "scalars", "renown", "renown_level", "season", "weather", "weather_deck", "operate_row",
                "worker_slots", "selected_guest", "selected_token", "selected_slot", "pending", "inn"]
        assert names[: len(head)] == head and names[len(head)] == "grid"
        f = self._floats
        np_, nw = len(PHASE_NAMES), len(WEATHER_FIELDS)
        self.phase_rows = [f(np_, (p,)) for p in range(np_)]
        self.n_seasons = len(R.data.seasons)
        self.renown_rows = [  # renown, renown_level and season pieces, by renown slot and season
            [f(R.track_len + 3 + self.n_seasons, (r, R.track_len + R.levels[r] - 1, R.track_len + 3 + x)) for x in range(self.n_seasons)]
            for r in range(R.track_len)
        ]
        self.zero_weather = f(nw)
        # By weather card; index -1 (no card yet) is the zero row.
        self.weather_rows = [f(nw, (w.type,) + ((3,) if w.event else ()) + (4 + w.alignment,)) for w in R.data.weather] + [self.zero_weather]
        nsel = R.NG + R.NA + NUM_SLOTS
        self.sel_guest_rows = [f(nsel, (g,)) for g in range(R.NG)]
        self.sel_token_rows = [f(nsel, (R.NG + a,)) for a in range(R.NA)]
        self.sel_slot_rows = [f(nsel, (R.NG + R.NA + sl,)) for sl in range(NUM_SLOTS)]
        self.zero_selected = f(nsel)
        self.zero_pending = f(3 + len(ACC_TYPES))

        def packed(base: int, width: int, ones: tuple[int, ...]) -> bytes:
            row = t[base : base + width].copy()
            row[list(ones)] = 1.0
            return row.tobytes()

        # Guests: one row per guest and place, a list indexed by the location itself (a slot, or
        # a negative G_* counted from the end), so a block is joined by C-level indexing.
        gb, gw = o["guests"], self.guest_w
        self.guest_rows = []
        for g in range(R.NG):
            rows = [packed(gb + g * gw, gw, (4,))] * NUM_SLOTS + [b""] * len(self.loc_index)
            for loc, i in self.loc_index.items():
                rows[loc] = packed(gb + g * gw, gw, (i,))
            self.guest_rows.append(rows)
        # Accommodations: in the inn (slots), setup (to place, -2) or supply (-1), indexed alike.
        ab, aw = o["accommodations"], self.acc_w
        self.acc_rows = [[packed(ab + a * aw, aw, (1,))] * NUM_SLOTS + [packed(ab + a * aw, aw, (2,)), packed(ab + a * aw, aw, (0,))]
                         for a in range(R.NA)]
        assert A_SUPPLY == -1 and A_SETUP == -2 and sorted(self.loc_index) == [-4, -3, -2, -1]
        # Grid: empty slots are static; an occupied slot's row is made on first use and kept.
        self.grid_empty = [packed(o["grid"] + sl * self.grid_w, self.grid_w, ()) for sl in range(NUM_SLOTS)]
        self.empty_grid = b"".join(self.grid_empty)
        self.grid_row_bytes = 4 * self.grid_w
        # Gossip cards: one row per card and place (index -1: in no place).
        cb, cw = o["gossip"], self.gossip_w
        self.gossip_rows = [[packed(cb + c * cw, cw, (k,)) for k in range(len(GOSSIP_LOC))] + [packed(cb + c * cw, cw, ())]
                            for c in range(R.NC)]
        # Skills: one row per skill and row of its slot (index -1: not gained; len(OPERATE): learnable now).
        kb, kw = o["skills"], self.skill_w
        self.skill_rows = []
        for k in range(R.NK):
            rows = [packed(kb + k * kw, kw, (0, 1 + r)) for r in range(len(OPERATE))]
            rows.append(packed(kb + k * kw, kw, (1 + len(OPERATE),)))
            rows.append(packed(kb + k * kw, kw, ()))
            self.skill_rows.append(rows)
        # Dice: per die, pips (index -1: at the tower) and used today (0/1; a die at the tower
        # shows no use).
        self.die_rows = [[(self._die_row(i, p, False), self._die_row(i, p, p >= 0)) for p in range(R.data.max_pips + 1)]
                         + [(self._die_row(i, -1, False),) * 2] for i in range(R.ND)]
        self._grid_rows: dict[tuple, bytes] = {}  # bounded: slot, token and four flags
        self._wdeck_rows: dict[tuple, bytes] = {}  # bounded: subsets of the weather deck
        self._workers_rows: dict[tuple, bytes] = {}  # bounded: row and worker slots taken
        self._make_packers()
        self._clear_caches()

    def _make_packers(self) -> None:
        self._scalar_packer = struct.Struct(f"<{self.n_scalars}f")
        self._inn_packer = struct.Struct(f"<{self.n_inn}f")

    def _clear_caches(self) -> None:
        # Each cache: (copies of the state values it was built from..., result). Never shared with a state.
        self._inn_cache: tuple | None = None
        self._wdeck_cache: tuple | None = None
        self._workers_cache: tuple | None = None
        self._grid_cache: tuple | None = None
        self._guest_cache: tuple | None = None
        self._acc_cache: tuple | None = None
        self._gossip_cache: tuple | None = None
        self._skills_cache: tuple | None = None
        self._dice_cache: tuple | None = None
        # Memos (values -> bytes) for what a cache miss rebuilds: the values repeat often.
        self._inn_memo: dict[tuple, bytes] = {}
        self._gossip_memo: dict[tuple, bytes] = {}

    def __getstate__(self) -> dict:
        """Pickling: the compiled ``struct.Struct``, the caches and the memos are rebuilt on load."""
        return {k: v for k, v in self.__dict__.items() if not k.endswith(("_packer", "_cache", "_memo"))}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._make_packers()
        self._clear_caches()

    def layout(self, seat: int) -> ObservationLayout:
        return self._layout

    def encode(self, s: State, seat: int, out: np.ndarray) -> None:
        """Write the view of ``s`` into ``out`` (every entry is overwritten)."""
        out[:] = self.observation(s, seat)

    def observation(self, s: State, seat: int = 0) -> np.ndarray:
        """The innkeeper's view of ``s`` as a new (writable) float32 vector, equal to
        :meth:`reference_observation`."""
        total = self.total
        ph, sel = s.phase, s.sel
        c = self._wdeck_cache
        if c is None or c[0] != s.wdeck:
            key = tuple(s.wdeck)
            row = self._wdeck_rows.get(key)
            if row is None:
                row = self._wdeck_rows[key] = self._floats(self.rules.NW, key)
            c = self._wdeck_cache = (list(key), row)
        wdeck = c[1]
        c = self._workers_cache
        if c is None or c[0] != s.row or c[1] != s.worker_used:
            key = (s.row, *s.worker_used)
            row = self._workers_rows.get(key)
            if row is None:
                row = self._workers_rows[key] = self._workers_bytes(s.row, s.worker_used)
            c = self._workers_cache = (s.row, list(s.worker_used), row)
        workers = c[2]
        if sel < 0:
            selected = self.zero_selected
        elif ph in (3, 4, 16, 17, 19):  # guest chosen / late guest
            selected = self.sel_guest_rows[sel]
        elif ph == 6:
            selected = self.sel_token_rows[sel]
        elif ph == 7:
            selected = self.sel_slot_rows[sel]
        else:
            selected = self.zero_selected
        if s.dmg or s.lose_type >= 0:
            pending = self._pending_bytes(s)
        else:
            pending = self.zero_pending
        # The inn piece and the grid read the rules' view of the inn, which the rules keep for the
        # values of slot_acc, slot_dmg and served (its grid part for those of slot_acc and
        # slot_dmg): while they return the same object (held here, so never another object at its
        # address) those values are the same.
        view = self.rules._inn_view(s)
        c = self._inn_cache
        if c is None or c[0] is not view:
            c = self._inn_cache = (view, self._inn_bytes(view))
        inn = c[1]
        # The blocks after the head: each cache checked here (what _guests, _accs and _gossip do).
        c = self._grid_cache
        if c is None or c[0] is not view[6] or c[1] != s.slot_guest or c[2] != s.slot_back or c[3] != s.party_slot:
            c = self._grid_cache = (view[6], list(s.slot_guest), list(s.slot_back), s.party_slot, self._grid_block(s, view))
        grid = c[4]
        c = self._guest_cache
        if c is None or c[0] != s.guest_loc:
            guests = self._guests(s)
        else:
            guests = c[1]
        c = self._acc_cache
        if c is None or c[0] != s.acc_slot:
            accs = self._accs(s)
        else:
            accs = c[1]
        gdeck, gbottom, hand = s.gdeck, s.gbottom, s.hand
        c = self._gossip_cache
        if c is None or c[0] != (gdeck, gbottom, hand, s.served, s.adventure):
            gossip = self._gossip(s)
        else:
            gossip = c[1]
        learn = None  # None: no skill learnable now (the rows are the same as for all False)
        if ph == 1 and s.coins >= self.rules.min_skill_cost[s.season]:
            learn = self._learnable(s)
        c = self._skills_cache
        if c is None or c[0] != s.skill_row or c[1] != learn:
            skills = self._skills(s, learn)
        else:
            skills = c[2]
        c = self._dice_cache
        if c is None or c[0] != s.dice or c[1] != s.die_used:
            dice = self._dice(s)
        else:
            dice = c[2]
        iu = s.improve_used
        buf = bytearray().join((
            self.phase_rows[ph],
            # Integer divisors (50 = COIN_SCALE): for ints below 2**53 (every state's) an int over an
            # int is the same float as over the float (both exact in a double, the quotient rounded
            # once), without the mixed-type conversion.
            self._scalar_packer.pack(
                s.coins / 50, s.earned / 50, s.party_coins / 3, s.day / self.days_per_season, s.season / self.num_seasons,
                (total - s.turn) / total, s.streak / 5, len(s.bag) / 30, len(s.drawn) / 12, len(hand) / 6,
                (len(gdeck) + len(gbottom)) / 6, iu[0], iu[1], iu[2], s.ctx == 1,
                len(s.cq) / 10, s.last_seated / 12, s.last_unseated / 12, s.skill_left / 2,
            ),
            self.renown_rows[s.renown][s.season % self.n_seasons],
            self.weather_rows[s.weather], wdeck, workers, selected, pending, inn,
            grid, guests, accs, gossip, skills, dice,
        ))
        return np.frombuffer(buf, _FLOAT32)  # a dtype instance, positional: numpy converts nothing

    # ------------------------------------------------------------ blocks
    @staticmethod
    def _floats(n: int, ones: tuple[int, ...] | list[int] = (), vals: dict[int, float] | None = None) -> bytes:
        """``n`` packed float32 zeros with ``ones`` set to 1 and then ``vals`` written."""
        v = [0.0] * n
        for i in ones:
            v[i] = 1.0
        if vals:
            for i, x in vals.items():
                v[i] = x
        return struct.pack(f"<{n}f", *v)

    def _workers_bytes(self, row: int, worker_used: list[int]) -> bytes:
        """The ``operate_row`` and ``worker_slots`` pieces (adjacent)."""
        n = len(OPERATE)
        ones = [row] if row >= 0 else []
        ones.extend(n + r for r, u in enumerate(worker_used) if u)
        return self._floats(2 * n, ones)

    def _pending_bytes(self, s: State) -> bytes:
        vals: dict[int, float] = {}
        for c in s.dmg:
            vals[c] = vals.get(c, 0.0) + 0.2
        return self._floats(3 + len(ACC_TYPES), [3 + s.lose_type] if s.lose_type >= 0 else (), vals)

    def _inn_bytes(self, view: tuple) -> bytes:
        """The ``inn`` piece: services available (``rules.services``), style counts/3
        (``rules.style_counts``), styles embraced; both from the rules' one-pass inn view."""
        have, cnt = view[:2]
        key = (*have, *cnt)
        data = self._inn_memo.get(key)
        if data is None:
            if len(self._inn_memo) >= MEMO_LIMIT:
                self._inn_memo.clear()
            data = self._inn_memo[key] = self._inn_pack(have, cnt)
        return data

    def _inn_pack(self, have: list[bool], cnt: list[int]) -> bytes:
        nt = len(ACC_TYPES)
        v = [1.0 if h else 0.0 for h in have] + [0.0] * (self.n_inn - nt)
        for i, c in enumerate(cnt):
            if c:
                v[nt + i] = c / 3.0
                if c >= 2:
                    v[nt + 3 + i] = 1.0
        return self._inn_packer.pack(*v)

    def _grid_block(self, s: State, view: tuple) -> bytes:
        """The empty grid with the row of each slot holding a token in its place (the inn holds
        a few tokens: the empty stretches between them are sliced from the precomputed empty grid)."""
        rows, memo, empty, w = [], self._grid_rows, self.empty_grid, self.grid_row_bytes
        acc, dmg, gst, back, party = s.slot_acc, s.slot_dmg, s.slot_guest, s.slot_back, s.party_slot
        pos = 0
        for sl in view[5]:  # the slots holding a token, ascending
            a = acc[sl]
            seated = gst[sl] >= 0
            key = (sl, a, bool(dmg[sl]), seated, seated and bool(back[sl]), party == sl)
            row = memo.get(key)
            if row is None:
                row = memo[key] = self._grid_row(*key)
            rows.append(empty[pos : sl * w])
            rows.append(row)
            pos = (sl + 1) * w
        rows.append(empty[pos:])
        return b"".join(rows)

    def _grid_row(self, sl: int, a: int, damaged: bool, seated: bool, back: bool, party: bool) -> bytes:
        R, nt, gw = self.rules, len(ACC_TYPES), self.grid_w
        base = self.o["grid"] + sl * gw
        row = self.template[base : base + gw].copy()
        ones = [1, 3 + R.acc_type[a]]
        if damaged:
            ones.append(2)
        if R.acc_style[a] >= 0:
            ones.append(3 + nt + R.acc_style[a])
        if seated:
            ones.append(6 + nt)
            if back:
                ones.append(7 + nt)
        if party:
            ones.append(8 + nt)
        row[ones] = 1.0
        row[9 + nt] = R.acc_cost[a] / 15.0
        return row.tobytes()

    def _guests(self, s: State) -> bytes:
        c = self._guest_cache
        if c is None or c[0] != s.guest_loc:
            gl = s.guest_loc
            c = self._guest_cache = (list(gl), b"".join(map(list.__getitem__, self.guest_rows, gl)))
        return c[1]

    def _accs(self, s: State) -> bytes:
        c = self._acc_cache
        if c is None or c[0] != s.acc_slot:
            al = s.acc_slot
            c = self._acc_cache = (list(al), b"".join(map(list.__getitem__, self.acc_rows, al)))
        return c[1]

    def _gossip(self, s: State) -> bytes:
        lists = (s.gdeck, s.gbottom, s.hand, s.served, s.adventure)
        c = self._gossip_cache
        if c is None or c[0] != lists:
            key = tuple(map(tuple, lists))
            data = self._gossip_memo.get(key)
            if data is None:
                if len(self._gossip_memo) >= MEMO_LIMIT:
                    self._gossip_memo.clear()
                data = self._gossip_memo[key] = self._gossip_block(lists)
            c = self._gossip_cache = (tuple(map(list, lists)), data)  # copies of the lists
        return c[1]

    def _gossip_block(self, lists: tuple[list[int], ...]) -> bytes:
        """The ``gossip`` block for the card lists (deck, deck bottom, hand, served, adventure)."""
        NC = self.rules.NC
        where = [-1] * NC  # -1: in no list (the row with no place)
        listed = 0
        for k, lst in enumerate(lists):
            listed += len(lst)
            for card in lst:
                where[card] = k
        if listed == NC - where.count(-1):
            return b"".join(map(list.__getitem__, self.gossip_rows, where))
        # A card in two places (never in a valid state): the general way.
        cb, cw = self.o["gossip"], self.gossip_w
        block = self.template[cb : cb + NC * cw].copy()
        for k, lst in enumerate(lists):
            for card in lst:
                block[card * cw + k] = 1.0
        return block.tobytes()

    def _learnable(self, s: State) -> list[bool] | None:
        """``rules.learnable()`` of each skill in the town phase, its slot count hoisted; None if
        no skill is learnable (learnable skills are shown in the town phase only)."""
        R, coins, season = self.rules, s.coins, s.season + 1
        free = sum(1 for r in s.skill_row if r >= 0) < R.slots
        cost, unlock = R.skill_cost, R.skill_unlock
        learn = [r < 0 and free and coins >= cost[k] and season >= unlock[k] for k, r in enumerate(s.skill_row)]
        return learn if any(learn) else None

    def _skills(self, s: State, learn: list[bool] | None) -> bytes:
        """The ``skills`` block (``learn`` from :meth:`_learnable`)."""
        c = self._skills_cache
        if c is None or c[0] != s.skill_row or c[1] != learn:
            rows = self.skill_rows
            if learn is None:  # index -1: not gained
                data = b"".join(map(list.__getitem__, rows, s.skill_row))
            else:  # index len(OPERATE): not gained and learnable now
                data = b"".join([rows[k][len(OPERATE) if r < 0 and ok else r] for k, (r, ok) in enumerate(zip(s.skill_row, learn))])
            c = self._skills_cache = (list(s.skill_row), learn, data)
        return c[2]

    def _dice(self, s: State) -> bytes:
        """The ``dice`` block."""
        c = self._dice_cache
        if c is None or c[0] != s.dice or c[1] != s.die_used:
            data = b"".join([rows[p][used] for rows, p, used in zip(self.die_rows, s.dice, s.die_used)])
            c = self._dice_cache = (list(s.dice), list(s.die_used), data)
        return c[2]

    def _die_row(self, i: int, p: int, used: bool) -> bytes:
        base = self.o["dice"] + i * self.die_w
        row = self.template[base : base + self.die_w].copy()
        if p >= 0:
            row[0] = 1.0
            if p:
                row[1] = p / 6.0
            if used:
                row[2] = 1.0
        return row.tobytes()

    # ------------------------------------------------------------ reference
    def reference_observation(self, s: State, seat: int = 0) -> np.ndarray:
        """The innkeeper's view of ``s`` encoded from scratch, with no cache and no shortcut: the
        definition :meth:`observation` must equal (``tests/test_mythwind_innkeeper_observation_cache.py``)."""
        R, d, o = self.rules, self.rules.data, self.o
        v = self.template.copy()
        ones: list[int] = []
        one = ones.append
        vals: dict[int, float] = {}
        total = R.total_days()
        one(o["phase"] + s.phase)
        sc = o["scalars"]
        gdeck = len(s.gdeck) + len(s.gbottom)
        for i, x in enumerate((
            s.coins / COIN_SCALE, s.earned / COIN_SCALE, s.party_coins / 3.0, s.day / R.days_per_season, s.season / R.num_seasons,
            (total - s.turn) / total, s.streak / 5.0, len(s.bag) / 30.0, len(s.drawn) / 12.0, len(s.hand) / 6.0, gdeck / 6.0,
            s.improve_used[0], s.improve_used[1], s.improve_used[2], s.ctx == 1, len(s.cq) / 10.0, s.last_seated / 12.0,
            s.last_unseated / 12.0, s.skill_left / 2.0,
        )):
            if x:
                vals[sc + i] = float(x)
        one(o["renown"] + s.renown)
        one(o["renown_level"] + R.level(s) - 1)
        one(o["season"] + s.season % len(d.seasons))
        if s.weather >= 0:
            w = d.weather[s.weather]
            one(o["weather"] + w.type)
            if w.event:
                one(o["weather"] + 3)
            one(o["weather"] + 4 + w.alignment)
        wd = o["weather_deck"]
        ones.extend(wd + i for i in s.wdeck)
        if s.row >= 0:
            one(o["operate_row"] + s.row)
        ws = o["worker_slots"]
        ones.extend(ws + r for r, u in enumerate(s.worker_used) if u)
        ph = s.phase
        if s.sel >= 0:
            if ph in (3, 4, 16, 17, 19):  # guest chosen / late guest
                one(o["selected_guest"] + s.sel)
            elif ph == 6:
                one(o["selected_token"] + s.sel)
            elif ph == 7:
                one(o["selected_slot"] + s.sel)
        pd = o["pending"]
        for c in s.dmg:
            vals[pd + c] = vals.get(pd + c, 0.0) + 0.2
        if s.lose_type >= 0:
            one(pd + 3 + s.lose_type)
        inn = o["inn"]
        have = R.services(s)
        ones.extend(inn + i for i, h in enumerate(have) if h)
        cnt = R.style_counts(s)
        nt = len(ACC_TYPES)
        for i, c in enumerate(cnt):
            if c:
                vals[inn + nt + i] = c / 3.0
                if c >= 2:
                    one(inn + nt + 3 + i)
        # Grid.
        gb, gw = o["grid"], self.grid_w
        ty, st, cost = R.acc_type, R.acc_style, R.acc_cost
        for sl, a in enumerate(s.slot_acc):
            if a < 0:
                continue
            base = gb + sl * gw
            one(base + 1)
            if s.slot_dmg[sl]:
                one(base + 2)
            one(base + 3 + ty[a])
            if st[a] >= 0:
                one(base + 3 + nt + st[a])
            if s.slot_guest[sl] >= 0:
                one(base + 6 + nt)
                if s.slot_back[sl]:
                    one(base + 7 + nt)
            if s.party_slot == sl:
                one(base + 8 + nt)
            vals[base + 9 + nt] = cost[a] / 15.0
        # Guests' places.
        gb, gw, li = o["guests"], self.guest_w, self.loc_index
        for g, loc in enumerate(s.guest_loc):
            one(gb + g * gw + (4 if loc >= 0 else li[loc]))
        # Accommodations' places.
        ab, aw = o["accommodations"], self.acc_w
        for a, loc in enumerate(s.acc_slot):
            one(ab + a * aw + (1 if loc >= 0 else 0 if loc == -1 else 2))
        # Gossip cards' places.
        cb, cw = o["gossip"], self.gossip_w
        for k, lst in enumerate((s.gdeck, s.gbottom, s.hand, s.served, s.adventure)):
            ones.extend(cb + c * cw + k for c in lst)
        # Skills.
        kb, kw = o["skills"], self.skill_w
        for k, r in enumerate(s.skill_row):
            if r >= 0:
                one(kb + k * kw)
                one(kb + k * kw + 1 + r)
            elif ph == 1 and R.learnable(s, k):
                one(kb + k * kw + 1 + len(OPERATE))
        # Dice.
        db, dw = o["dice"], self.die_w
        for i, p in enumerate(s.dice):
            if p >= 0:
                one(db + i * dw)
                if p:
                    vals[db + i * dw + 1] = p / 6.0
                if s.die_used[i]:
                    one(db + i * dw + 2)
        v[ones] = 1.0
        if vals:
            v[list(vals)] = list(vals.values())
        return v
