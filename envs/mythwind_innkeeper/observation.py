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

The layout (:func:`build_layout`) is the one declaration: the observer writes every piece at the
offset the layout gives it (its rows are made through the layout's named views and the field
names of each piece), and the from-scratch definition it must equal lives with the tests
(``tests/oracles/mythwind_innkeeper.py``).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout, write_bytes
from mythzoo.envs.mythwind_innkeeper.actions import NUM_SLOTS, OPERATE, slot_name
from mythzoo.envs.mythwind_innkeeper.components import (
    ACC_TYPES, ALIGNMENTS, COMPLAINT_KINDS, DIE_TYPES, EFFECT_KINDS, SERVICES, STYLES, WEATHER_TYPES,
)
from mythzoo.envs.mythwind_innkeeper.rules import (
    A_SETUP, A_SUPPLY, C_COINS, G_BAG, G_DRAWN, G_QUIET, G_SUPPLY, OUTER, P_BUY_SLOT, P_LATE, P_MOVE_DEST, P_PAMPER_GUEST,
    P_PAMPER_SLOT, P_SEAT_GUEST, P_SEAT_SLOT, P_TOWN, PHASE_NAMES, MythwindInnkeeperRules, State,
)

COIN_SCALE = 50.0  # coins and coins earned are shown divided by this
MEMO_LIMIT = 4096  # a memo is emptied when it reaches this many entries (it is only a shortcut)
_FLOAT32 = np.dtype(np.float32)
SCALARS = (
    "coins", "earned", "party_coins", "day_of_season", "season_progress", "days_left", "streak", "bag_size",
    "drawn", "hand_size", "gossip_deck_size", "improve_bought", "improve_moved", "improve_sold", "by_worker",
    "complaints_pending", "last_seated", "last_unseated", "skill_picks_left", "skill_moves_left",
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
PENDING_FIELDS = ("damage_any", "damage_furniture", "damage_service") + ACC_TYPES
# Phases whose selection (``sel``) is a guest, a token being bought, a slot being moved.
SELECTS_GUEST = frozenset((P_PAMPER_GUEST, P_PAMPER_SLOT, P_SEAT_GUEST, P_SEAT_SLOT, P_LATE))
SELECTS_TOKEN, SELECTS_SLOT = P_BUY_SLOT, P_MOVE_DEST
# The vector is joined from these parts, in this order: each a group of adjacent pieces that one
# precomputed row or one cached block covers. ``_check_parts`` proves at construction that the
# parts tile the layout, each at its declared offset.
PARTS = (
    ("phase",), ("scalars",), ("renown", "renown_level", "season"), ("weather",), ("weather_deck",),
    ("operate_row", "worker_slots"), ("selected_guest", "selected_token", "selected_slot"), ("pending",), ("inn",),
    ("grid",), ("guests",), ("accommodations",), ("gossip",), ("skills",), ("dice",),
)


def columns(fields: tuple[str, ...]) -> dict[str, int]:
    """Field name -> its column in a piece's last axis."""
    return {name: i for i, name in enumerate(fields)}


GRID_COL, GUEST_COL, ACC_COL = columns(SLOT_FIELDS), columns(GUEST_FIELDS), columns(ACC_FIELDS)
GOSSIP_COL, SKILL_COL, DIE_COL = columns(GOSSIP_FIELDS), columns(SKILL_FIELDS), columns(DIE_FIELDS)
WEATHER_COL, INN_COL, PENDING_COL = columns(WEATHER_FIELDS), columns(INN_FIELDS), columns(PENDING_FIELDS)


def build_layout(rules: MythwindInnkeeperRules) -> ObservationLayout:
    """The one declaration of the observation: every size, name and doc derives from it."""
    d = rules.data
    guests = [f"g{g.gid}" for g in d.guests]
    accs = [f"a{a.aid}" for a in d.accommodations]
    return ObservationLayout(
        [
            ("phase", (len(PHASE_NAMES),), "One-hot decision phase.", [PHASE_NAMES]),
            ("scalars", (len(SCALARS),), "Coins/50, coins earned/50, party coins/3, day in season/days, season/seasons, days left/total, same-weather streak/5, bag size/30, drawn unseated/12, hand/6, gossip deck/6, Improve parts used (purchase, move, sell), action by a worker, complaints pending/10, last night's seated and unseated/12, Waiting List picks left/2, skill moves left in a rearrangement/4.", [SCALARS]),
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
            ("pending", (len(PENDING_FIELDS),), "Damage left to assign by category (any, furniture, service)/5; the accommodation type a complaint takes (one-hot).", [PENDING_FIELDS]),
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

    Speed: the vector is assembled as bytes, joined from one piece of bytes per part of
    :data:`PARTS` (adjacent pieces of the layout, at their declared offsets): precomputed rows
    (made once, through the layout's views), small memos, or blocks (grid, guests, accommodations,
    gossip, skills, dice) joined from per-token rows. Every cache is the observer's own and is
    kept with copies of the state values it was built from, compared on each call, so an
    unchanged block costs a few list comparisons and a changed value can never be missed: any
    state (a clone, one restored by ``set_state``, another campaign) gets exactly what it shows.
    Nothing is cached in the state and the rules keep no bookkeeping for the observer. The caches
    are not pickled.
    """

    def __deepcopy__(self, memo: dict) -> "MythwindInnkeeperObserver":
        """The observer holds no game state (its caches compare values): a deep copy shares it."""
        return self

    def __init__(self, rules: MythwindInnkeeperRules):
        self.rules = rules
        self._layout = L = build_layout(rules)
        self.size = L.size
        self._span = self._check_parts(L)
        self.template = t = np.zeros(L.size, dtype=np.float32)
        self._write_static(L.views(t))
        self._make_scratch()
        self._build_tables()
        self._make_packers()
        self._clear_caches()

    @staticmethod
    def _check_parts(L: ObservationLayout) -> dict[str, tuple[int, int]]:
        """Per part (named by its first piece): its ``[lo, hi)`` in the vector. Raises unless the
        parts, joined in order, put every piece exactly at the layout's offset for it."""
        if [n for part in PARTS for n in part] != [p.name for p in L.pieces]:
            raise RuntimeError("the observer's parts do not follow the observation layout's pieces")
        spans, pos = {}, 0
        for part in PARTS:
            lo, last = L.offset(part[0]), L.by_name[part[-1]]
            if lo != pos:  # pragma: no cover -- ObservationLayout lays pieces back to back
                raise RuntimeError(f"observation part {part} is not at offset {pos}")
            spans[part[0]] = (lo, last.offset + last.size)
            pos = last.offset + last.size
        return spans

    def _write_static(self, v: dict[str, np.ndarray]) -> None:
        """The facts printed on the tokens (and the outer slots), the same in every observation."""
        d = self.rules.data
        for sl in range(NUM_SLOTS):
            v["grid"][sl, GRID_COL["outer"]] = float(OUTER[sl])
        for g in d.guests:
            row = v["guests"][g.gid]
            row[GUEST_COL[f"level_{g.level}"]] = 1.0
            row[GUEST_COL[f"wants_{ACC_TYPES[g.furniture]}"]] = 1.0
            for x in g.services:
                row[GUEST_COL[f"wants_{ACC_TYPES[x]}"]] = 1.0
            if g.style >= 0:
                row[GUEST_COL[f"wants_{STYLES[g.style]}"]] = 1.0
            for kind, amount in g.complaints:
                row[GUEST_COL[f"complaint_{COMPLAINT_KINDS[kind]}"]] += amount / 3.0 if kind == C_COINS else 1.0
        for a in d.accommodations:
            row = v["accommodations"][a.aid]
            row[ACC_COL[f"type_{ACC_TYPES[a.type]}"]] = 1.0
            row[ACC_COL["cost"]] = a.cost / 15.0
            row[ACC_COL[f"renown_{a.renown}"]] = 1.0
            if a.style >= 0:
                row[ACC_COL[f"style_{STYLES[a.style]}"]] = 1.0
        for c in d.gossip:
            row = v["gossip"][c.cid]
            for x in c.accommodations:
                row[GOSSIP_COL[f"shows_{ACC_TYPES[x]}"]] = 1.0
            for x in c.styles:
                row[GOSSIP_COL[f"icon_{STYLES[x]}"]] += 1.0
            row[GOSSIP_COL[f"effect_{EFFECT_KINDS[c.effect[0]]}"]] = c.effect[1] / 3.0
        for k in d.skills:
            v["skills"][k.sid, SKILL_COL["cost"]] = k.cost / 30.0
        for i, ty in enumerate(d.dice_types):
            v["dice"][i, DIE_COL[f"type_{DIE_TYPES[ty]}"]] = 1.0

    # ------------------------------------------------------------ rows, through the layout's views
    def _part(self, part: str, *cells: tuple[str, Any, float]) -> bytes:
        """The bytes of ``part`` (named by its first piece) with ``(piece, index, value)`` written."""
        lo, hi = self._span[part]
        buf, v = self._scratch, self._views
        buf[lo:hi] = self.template[lo:hi]
        for piece, index, value in cells:
            v[piece][index] = value
        return buf[lo:hi].tobytes()

    def _token(self, piece: str, i: int, cols: tuple[int, ...] | list[int] = (), vals: dict[int, float] | None = None) -> bytes:
        """The bytes of row ``i`` of a per-token ``piece``: its static facts, ``cols`` set to 1, then ``vals``."""
        row = self._views[piece][i]
        row[:] = self._tviews[piece][i]
        for c in cols:
            row[c] = 1.0
        for c, x in (vals or {}).items():
            row[c] = x
        return row.tobytes()

    def _build_tables(self) -> None:
        """The precomputed rows the fast path joins."""
        R = self.rules
        d = R.data
        self.nbytes = 4 * self.size
        self.n_scalars, self.n_inn = len(SCALARS), len(INN_FIELDS)
        self.total = R.total_days()
        self.days_per_season, self.num_seasons = R.days_per_season, R.num_seasons
        self.phase_rows = [self._part("phase", ("phase", p, 1.0)) for p in range(len(PHASE_NAMES))]
        self.n_seasons = len(d.seasons)
        # The renown, renown_level and season pieces, by renown slot and season.
        self.renown_rows = [
            [self._part("renown", ("renown", r, 1.0), ("renown_level", R.levels[r] - 1, 1.0), ("season", x, 1.0)) for x in range(self.n_seasons)]
            for r in range(R.track_len)
        ]
        # By weather card; index -1 (no card yet) is the zero row.
        wc = WEATHER_COL
        self.weather_rows = [
            self._part("weather", ("weather", wc[f"today_{WEATHER_TYPES[w.type]}"], 1.0), ("weather", wc["event"], float(w.event)),
                       ("weather", wc[f"aligned_{ALIGNMENTS[w.alignment]}"], 1.0))
            for w in d.weather
        ] + [self._part("weather")]
        self.sel_guest_rows = [self._part("selected_guest", ("selected_guest", g, 1.0)) for g in range(R.NG)]
        self.sel_token_rows = [self._part("selected_guest", ("selected_token", a, 1.0)) for a in range(R.NA)]
        self.sel_slot_rows = [self._part("selected_guest", ("selected_slot", sl, 1.0)) for sl in range(NUM_SLOTS)]
        self.zero_selected = self._part("selected_guest")
        self.zero_pending = self._part("pending")
        self.damage_cols = tuple(PENDING_COL[n] for n in ("damage_any", "damage_furniture", "damage_service"))  # by D_* category
        self.lose_cols = tuple(PENDING_COL[t] for t in ACC_TYPES)
        # Guests: one row per guest and place, a list indexed by the location itself (a slot, or
        # a negative G_* counted from the end), so a block is joined by C-level indexing.
        loc_col = {G_SUPPLY: GUEST_COL["supply"], G_BAG: GUEST_COL["bag"], G_DRAWN: GUEST_COL["drawn"], G_QUIET: GUEST_COL["unseated_quiet"]}
        assert sorted(loc_col) == [-4, -3, -2, -1]
        self.guest_rows = []
        for g in range(R.NG):
            rows = [self._token("guests", g, (GUEST_COL["seated"],))] * NUM_SLOTS + [b""] * len(loc_col)
            for loc, col in loc_col.items():
                rows[loc] = self._token("guests", g, (col,))
            self.guest_rows.append(rows)
        # Accommodations: in the inn (slots), setup (to place, -2) or supply (-1), indexed alike.
        assert A_SUPPLY == -1 and A_SETUP == -2
        self.acc_rows = [[self._token("accommodations", a, (ACC_COL["in_inn"],))] * NUM_SLOTS
                         + [self._token("accommodations", a, (ACC_COL["to_place"],)), self._token("accommodations", a, (ACC_COL["in_supply"],))]
                         for a in range(R.NA)]
        # Grid: empty slots are static; an occupied slot's row is made on first use and kept.
        self.empty_grid = self._part("grid")
        self.grid_row_bytes = 4 * len(SLOT_FIELDS)
        # Gossip cards: one row per card and place (index -1: in no place).
        self.gossip_rows = [[self._token("gossip", c, (GOSSIP_COL[loc],)) for loc in GOSSIP_LOC] + [self._token("gossip", c)]
                            for c in range(R.NC)]
        # Skills: one row per skill and row of its slot (index -1: not gained; len(OPERATE): learnable now).
        self.skill_rows = [
            [self._token("skills", k, (SKILL_COL["gained"], SKILL_COL[f"row_{r}"])) for r in OPERATE]
            + [self._token("skills", k, (SKILL_COL["learnable"],)), self._token("skills", k)]
            for k in range(R.NK)
        ]
        # Dice: per die, pips (index -1: at the tower) and used today (0/1; a die at the tower
        # shows no use).
        self.die_rows = [[(self._die_row(i, p, False), self._die_row(i, p, p >= 0)) for p in range(d.max_pips + 1)]
                         + [(self._die_row(i, -1, False),) * 2] for i in range(R.ND)]
        self._grid_rows: dict[tuple, bytes] = {}  # bounded: slot, token and four flags
        self._wdeck_rows: dict[tuple, bytes] = {}  # bounded: subsets of the weather deck
        self._workers_rows: dict[tuple, bytes] = {}  # bounded: row and worker slots taken

    def _die_row(self, i: int, p: int, used: bool) -> bytes:
        if p < 0:
            return self._token("dice", i)
        return self._token("dice", i, (DIE_COL["hired"],) + ((DIE_COL["used_today"],) if used else ()), {DIE_COL["pips"]: p / 6.0} if p else None)

    def _make_scratch(self) -> None:
        """Rows are made by writing through the layout's views of a scratch vector that starts as
        the template in the span being made. (Views are not pickled: a pickled view is a copy.)"""
        self._scratch = self.template.copy()
        self._views = self._layout.views(self._scratch)
        self._tviews = self._layout.views(self.template)

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
        """Pickling: the compiled ``struct.Struct``, the caches, the memos and the scratch views are rebuilt on load."""
        return {k: v for k, v in self.__dict__.items() if not k.endswith(("_packer", "_cache", "_memo", "_scratch", "views"))}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._make_scratch()
        self._make_packers()
        self._clear_caches()

    def layout(self, seat: int) -> ObservationLayout:
        """The named pieces of the observation vector (one seat: the innkeeper)."""
        return self._layout

    def encode(self, s: State, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s view of ``s`` into ``out`` (every entry is overwritten): the joined bytes go
        straight into a contiguous float32 row, without a temporary array."""
        write_bytes(self._bytes(s, seat), out)

    def observation(self, s: State, seat: int = 0) -> np.ndarray:
        """``seat``'s view of ``s`` as a new (writable) float32 vector."""
        return np.frombuffer(self._bytes(s, seat), _FLOAT32)

    def _bytes(self, s: State, seat: int = 0) -> bytearray:
        """``seat``'s view of ``s`` as the float32 vector's bytes (joined from the cached blocks)."""
        total = self.total
        ph, sel = s.phase, s.sel
        c = self._wdeck_cache
        if c is None or c[0] != s.wdeck:
            key = tuple(s.wdeck)
            row = self._wdeck_rows.get(key)
            if row is None:
                row = self._wdeck_rows[key] = self._part("weather_deck", *(("weather_deck", w, 1.0) for w in key))
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
        elif ph in SELECTS_GUEST:
            selected = self.sel_guest_rows[sel]
        elif ph == SELECTS_TOKEN:
            selected = self.sel_token_rows[sel]
        elif ph == SELECTS_SLOT:
            selected = self.sel_slot_rows[sel]
        else:
            selected = self.zero_selected
        if s.dmg or s.lose_type >= 0:
            pending = self._pending_bytes(s)
        else:
            pending = self.zero_pending
        # The inn piece reads the inn's tokens and the served gossip; the grid block also where
        # guests sit, who is back facing and the party token.
        acc, dmg, served = s.slot_acc, s.slot_dmg, s.served
        c = self._inn_cache
        if c is None or c[0] != acc or c[1] != dmg or c[2] != served:
            view = self.rules.inn_view(s)
            c = self._inn_cache = (list(acc), list(dmg), list(served), self._inn_bytes(view.have, view.cnt), list(view.occ))
        inn, occupied = c[3], c[4]
        gst, back, party = s.slot_guest, s.slot_back, s.party_slot
        c = self._grid_cache
        if c is None or c[0] != gst or c[1] != back or c[2] != party or c[3] != acc or c[4] != dmg:
            c = self._grid_cache = (list(gst), list(back), party, list(acc), list(dmg), self._grid_block(s, occupied))
        grid = c[5]
        # Each block below: its cache checked, and rebuilt on a miss (the blocks' helpers never check again).
        gl = s.guest_loc
        c = self._guest_cache
        if c is None or c[0] != gl:
            c = self._guest_cache = (list(gl), b"".join(map(list.__getitem__, self.guest_rows, gl)))
        guests = c[1]
        al = s.acc_slot
        c = self._acc_cache
        if c is None or c[0] != al:
            c = self._acc_cache = (list(al), b"".join(map(list.__getitem__, self.acc_rows, al)))
        accs = c[1]
        gdeck, gbottom, hand = s.gdeck, s.gbottom, s.hand
        lists = (gdeck, gbottom, hand, served, s.adventure)
        c = self._gossip_cache
        if c is None or c[0] != lists:
            c = self._gossip_cache = (tuple(map(list, lists)), self._gossip(lists))  # copies of the lists
        gossip = c[1]
        learn = None  # None: no skill learnable now (the rows are the same as for all False)
        if ph == P_TOWN and s.coins >= self.rules.min_skill_cost[s.season]:
            learn = self._learnable(s)
        sr = s.skill_row
        c = self._skills_cache
        if c is None or c[0] != sr or c[1] != learn:
            c = self._skills_cache = (list(sr), learn, self._skills(sr, learn))
        skills = c[2]
        pips, used = s.dice, s.die_used
        c = self._dice_cache
        if c is None or c[0] != pips or c[1] != used:
            c = self._dice_cache = (list(pips), list(used), b"".join([rows[p][u] for rows, p, u in zip(self.die_rows, pips, used)]))
        dice = c[2]
        iu = s.improve_used
        buf = bytearray().join((  # the parts of PARTS, in order
            self.phase_rows[ph],
            # The scalars piece in SCALARS order. Integer divisors (50 = COIN_SCALE): for ints below
            # 2**53 (every state's) an int over an int is the same float as over the float (both
            # exact in a double, the quotient rounded once), without the mixed-type conversion.
            self._scalar_packer.pack(
                s.coins / 50, s.earned / 50, s.party_coins / 3, s.day / self.days_per_season, s.season / self.num_seasons,
                (total - s.turn) / total, s.streak / 5, len(s.bag) / 30, len(s.drawn) / 12, len(hand) / 6,
                (len(gdeck) + len(gbottom)) / 6, iu[0], iu[1], iu[2], s.ctx == 1,
                len(s.cq) / 10, s.last_seated / 12, s.last_unseated / 12, s.skill_left / 2, s.arrange_left / 4,
            ),
            self.renown_rows[s.renown][s.season % self.n_seasons],
            self.weather_rows[s.weather], wdeck, workers, selected, pending, inn,
            grid, guests, accs, gossip, skills, dice,
        ))
        return buf

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
        cells = [("operate_row", row, 1.0)] if row >= 0 else []
        cells.extend(("worker_slots", r, 1.0) for r, u in enumerate(worker_used) if u)
        return self._part("operate_row", *cells)

    def _pending_bytes(self, s: State) -> bytes:
        """The ``pending`` piece: damage still to assign per category, the type a complaint takes."""
        vals: dict[int, float] = {}
        for c in s.dmg:
            col = self.damage_cols[c]
            vals[col] = vals.get(col, 0.0) + 0.2
        return self._floats(len(PENDING_FIELDS), [self.lose_cols[s.lose_type]] if s.lose_type >= 0 else (), vals)

    def _inn_bytes(self, have: list[bool], cnt: list[int]) -> bytes:
        """The ``inn`` piece: services available (``rules.services``), style counts/3
        (``rules.style_counts``), styles embraced; memoized by those values."""
        key = (*have, *cnt)
        data = self._inn_memo.get(key)
        if data is None:
            if len(self._inn_memo) >= MEMO_LIMIT:
                self._inn_memo.clear()
            data = self._inn_memo[key] = self._inn_pack(have, cnt)
        return data

    def _inn_pack(self, have: list[bool], cnt: list[int]) -> bytes:
        v = [0.0] * self.n_inn
        for t, h in enumerate(have):
            if h:
                v[INN_COL[f"service_{ACC_TYPES[t]}"]] = 1.0
        for i, c in enumerate(cnt):
            if c:
                v[INN_COL[f"style_count_{STYLES[i]}"]] = c / 3.0
                if c >= 2:
                    v[INN_COL[f"embraced_{STYLES[i]}"]] = 1.0
        return self._inn_packer.pack(*v)

    def _grid_block(self, s: State, occupied: list[int]) -> bytes:
        """The empty grid with the row of each slot holding a token in its place (the inn holds
        a few tokens: the empty stretches between them are sliced from the precomputed empty grid)."""
        rows, memo, empty, w = [], self._grid_rows, self.empty_grid, self.grid_row_bytes
        acc, dmg, gst, back, party = s.slot_acc, s.slot_dmg, s.slot_guest, s.slot_back, s.party_slot
        pos = 0
        for sl in occupied:  # the slots holding a token, ascending
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
        R = self.rules
        cols = [GRID_COL["has_accommodation"], GRID_COL[f"type_{ACC_TYPES[R.acc_type[a]]}"]]
        if damaged:
            cols.append(GRID_COL["damaged"])
        if R.acc_style[a] >= 0:
            cols.append(GRID_COL[f"style_{STYLES[R.acc_style[a]]}"])
        if seated:
            cols.append(GRID_COL["guest"])
            if back:
                cols.append(GRID_COL["back_facing"])
        if party:
            cols.append(GRID_COL["party_token"])
        return self._token("grid", sl, cols, {GRID_COL["cost"]: R.acc_cost[a] / 15.0})

    def _gossip(self, lists: tuple[list[int], ...]) -> bytes:
        """The ``gossip`` block for the card lists (deck, deck bottom, hand, served, adventure),
        memoized by their values (a few hands and decks recur all campaign)."""
        key = tuple(map(tuple, lists))
        data = self._gossip_memo.get(key)
        if data is None:
            if len(self._gossip_memo) >= MEMO_LIMIT:
                self._gossip_memo.clear()
            data = self._gossip_memo[key] = self._gossip_block(lists)
        return data

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
        lo, hi = self._span["gossip"]
        self._scratch[lo:hi] = self.template[lo:hi]
        block = self._views["gossip"]
        for k, lst in enumerate(lists):
            for card in lst:
                block[card, GOSSIP_COL[GOSSIP_LOC[k]]] = 1.0
        return self._scratch[lo:hi].tobytes()

    def _learnable(self, s: State) -> list[bool] | None:
        """``rules.learnable()`` of each skill in the town phase, its slot count hoisted; None if
        no skill is learnable (learnable skills are shown in the town phase only)."""
        R, coins, season = self.rules, s.coins, s.season + 1
        free = sum(1 for r in s.skill_row if r >= 0) < R.slots
        cost, unlock = R.skill_cost, R.skill_unlock
        learn = [r < 0 and free and coins >= cost[k] and season >= unlock[k] for k, r in enumerate(s.skill_row)]
        return learn if any(learn) else None

    def _skills(self, skill_row: list[int], learn: list[bool] | None) -> bytes:
        """The ``skills`` block (``learn`` from :meth:`_learnable`)."""
        rows = self.skill_rows
        if learn is None:  # index -1: not gained
            return b"".join(map(list.__getitem__, rows, skill_row))
        # index len(OPERATE): not gained and learnable now
        return b"".join([rows[k][len(OPERATE) if r < 0 and ok else r] for k, (r, ok) in enumerate(zip(skill_row, learn))])
