"""Mythwind: the Innkeeper rules engine: plain-data state, legal actions, and a step function.

On the shared :class:`~mythzoo.envs.core.rules_base.RulesBase` (legal-action cache, legality
checks, dispatch of an action id to its range's ``act_<range>`` handler, JSON, clones): this
module writes the rules only. No gymnasium/pettingzoo here. The state is a dataclass of ints and lists that copies cheaply
and turns into JSON and back; all randomness comes from the state's own seeded Generator.
Rule passages are quoted in ``docs/rules/mythwind_innkeeper.md`` with the code and tests that
implement them; comments here name the rule they implement.

Hidden information: the draw bag, the weather deck and the shuffled part of the gossip deck are
kept as *sorted* lists and every draw takes a random element with the state's Generator, so their
contents are public (the journal makes them deducible) and only future draws are hidden: the
Generator is the whole hidden state.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from mythzoo.envs.core.rng import make_rng
from mythzoo.envs.core.rules_base import RulesBase, build_handlers, state_fields
from mythzoo.envs.core.validate import check_arg, check_int, check_ints, req
from mythzoo.envs.mythwind_innkeeper.actions import GRID, NUM_SLOTS, OPERATE, build_action_table
from mythzoo.envs.mythwind_innkeeper.components import (
    BAR, CLOUDY, DOOR, DRINK, E_COINS, E_PARTY, E_RENOWN, FOOD, FURNITURE, KITCHEN, MUSIC, PLAY, SERVICES, SPRITE,
    STAGE, TABLE, VILLAGER, WINDOW, C_COINS, C_DRAW, C_LOSE, C_RENOWN, CULTURED, FRONTIER, InnData,
)

# Operate rows (the order on the character tray, top to bottom).
PAMPER, IMPROVE, SERVE, MINGLE, PARTY = range(5)
# Worker slot of each row: sprite for the top two, any for the middle, villager for the bottom two.
ANY_DIE = -1
ROW_DIE = (SPRITE, SPRITE, ANY_DIE, VILLAGER, VILLAGER)
ALIGNED_ROWS = {SPRITE: (PAMPER, IMPROVE, SERVE), VILLAGER: (SERVE, MINGLE, PARTY)}

# Decision phases.
(P_SETUP, P_TOWN, P_OPERATE, P_PAMPER_GUEST, P_PAMPER_SLOT, P_IMPROVE, P_BUY_SLOT, P_MOVE_DEST, P_SERVE, P_MINGLE,
 P_PARTY, P_SKILL, P_SKILL_GUEST, P_FAVORITE_PICK, P_ENTERTAINER, P_WORKER, P_SEAT_GUEST, P_SEAT_SLOT, P_LOSE,
 P_LATE, P_DAMAGE, P_ARRANGE, P_OVER) = range(23)
PHASE_NAMES = (
    "setup", "town", "operate", "pamper_guest", "pamper_slot", "improve", "buy_slot", "move_dest", "serve", "mingle",
    "party", "skill", "skill_guest", "favorite_pick", "entertainer", "worker", "seat_guest", "seat_slot", "lose",
    "late_guest", "damage", "arrange", "over",
)
# Guest locations (guest_loc); 0..24 = seated in that slot.
G_SUPPLY, G_BAG, G_DRAWN, G_QUIET = -1, -2, -3, -4
# Accommodation locations (acc_slot); 0..24 = in that slot.
A_SUPPLY, A_SETUP = -1, -2
# Damage categories (end of season).
D_ANY, D_FURNITURE, D_SERVICE = range(3)
# Skill ids (data order is checked on load).
(SK_MUSICAL_EAR, SK_WAXED_FURNITURE, SK_RUMORMONGER, SK_QUARTERMASTER, SK_WAITING_LIST, SK_ENTERTAINER, SK_PATRON,
 SK_WORKER_ENCOURAGEMENT, SK_FAVORITE, SK_CHARMING) = range(10)

OUTER = tuple(r in (0, GRID - 1) or c in (0, GRID - 1) for r in range(GRID) for c in range(GRID))
ADJ = tuple(
    tuple((r + dr) * GRID + c + dc for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)) if 0 <= r + dr < GRID and 0 <= c + dc < GRID)
    for r in range(GRID) for c in range(GRID)
)
# Adjacent or diagonal, and the slot itself (a guest seated ON a styled accommodation is next to it: assumption).
NEAR = tuple(
    tuple((r + dr) * GRID + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if 0 <= r + dr < GRID and 0 <= c + dc < GRID)
    for r in range(GRID) for c in range(GRID)
)
OUTER_SLOTS = tuple(d for d in range(GRID * GRID) if OUTER[d])
SUPPORT = {DRINK: KITCHEN, FOOD: KITCHEN, MUSIC: STAGE, PLAY: STAGE}
DEPENDENTS = {KITCHEN: (DRINK, FOOD), STAGE: (MUSIC, PLAY)}
MAX_PARTY_COINS = 3
# Where earned coins come from (State.income, same order): guests seated front facing at dusk (late
# guests too), the party bonus, pampered guests, adventure cards (Mingle), skills, sold tokens.
INCOME_SOURCES = ("seating", "party", "pamper", "adventure", "skills", "selling")
I_SEAT, I_PARTY, I_PAMPER, I_ADVENTURE, I_SKILL, I_SELL = range(len(INCOME_SOURCES))
NO_GUESTS = (-1,) * NUM_SLOTS
NOT_BACK = (0,) * NUM_SLOTS


def _numpy_below(rng: np.random.Generator, n: int) -> int:
    """A uniform draw from ``0..n-1``: ``int(rng.integers(n))``."""
    return int(rng.integers(n))


def _lemire_below(rng: np.random.Generator, n: int) -> int:
    """``int(rng.integers(n))`` (the same number, the same generator state after) without numpy's
    per-call overhead. For ``1 < n < 2**32`` numpy's ``Generator.integers`` draws with Lemire's
    method on the bit generator's ``next_uint32`` (the PCG64 keeps the unused half of a 64-bit
    output for the next call, so both share it); this calls ``next_uint32`` through the bit
    generator's ctypes interface and does the same arithmetic. Any other case goes to numpy.
    Used only if :func:`_lemire_matches_numpy` confirmed it when this module was loaded.
    The last bit generator's ``next_uint32`` and state pointer are kept (with the generator, so
    the pointer stays valid): a game draws from one generator many times in a row."""
    global _LAST_BG
    bg = rng.bit_generator
    last = _LAST_BG
    if bg is last[0]:
        nxt, st = last[1], last[2]
    elif type(bg) is not np.random.PCG64:
        return int(rng.integers(n))
    else:
        c = bg.ctypes
        nxt, st = c.next_uint32, c.state
        _LAST_BG = (bg, nxt, st)
    if n < 2 or n > 0xFFFFFFFF:
        return int(rng.integers(n))
    m = nxt(st) * n
    if m & 0xFFFFFFFF < n:
        threshold = (0x100000000 - n) % n  # (UINT32_MAX - (n - 1)) % n
        while m & 0xFFFFFFFF < threshold:
            m = nxt(st) * n
    return m >> 32


_LAST_BG: tuple = (None, None, None)  # (bit generator, its ctypes next_uint32, its ctypes state) of the last draw


def _pop_random(rng: np.random.Generator, items: list, n: int) -> list:
    """Pop ``n`` random elements of ``items`` (``n <= len(items)``) and return them in order:
    ``[items.pop(_below(rng, len(items))) for _ in range(n)]`` with :func:`_lemire_below`'s
    arithmetic inlined, the function calls being most of a draw's cost (dawn draws several)."""
    global _LAST_BG
    bg = rng.bit_generator
    if _below is not _lemire_below or (bg is not _LAST_BG[0] and type(bg) is not np.random.PCG64):
        return [items.pop(_below(rng, len(items))) for _ in range(n)]
    if bg is _LAST_BG[0]:
        nxt, st = _LAST_BG[1], _LAST_BG[2]
    else:
        c = bg.ctypes
        nxt, st = c.next_uint32, c.state
        _LAST_BG = (bg, nxt, st)
    out = []
    pop, k = items.pop, len(items)
    for _ in range(n):
        if k < 2:  # what _lemire_below does: numpy's own call (no draw for a single choice)
            out.append(pop(int(rng.integers(k))))
        else:
            m = nxt(st) * k
            if m & 0xFFFFFFFF < k:
                threshold = (0x100000000 - k) % k
                while m & 0xFFFFFFFF < threshold:
                    m = nxt(st) * k
            out.append(pop(m >> 32))
        k -= 1
    return out


def _lemire_matches_numpy() -> bool:
    """Whether :func:`_lemire_below` reproduces this numpy's ``Generator.integers`` (draws and state)."""
    try:
        a, b = make_rng(20240611), make_rng(20240611)
        for i in range(1500):
            n = (2, 3, 5, 7, 12, 29, 30, 1000, 2**31 + 11, 0xFFFFFFFF)[i % 10] if i % 3 else 2 + (i * 7919) % 97
            if i % 50 == 0:  # 64-bit draws in between leave the buffered half alone
                a.random()
                b.random()
            if int(a.integers(n)) != _lemire_below(b, n):
                return False
        return a.bit_generator.state == b.bit_generator.state
    except Exception:  # noqa: BLE001 -- no ctypes interface, or anything unexpected: numpy's own draws
        return False


_below = _lemire_below if _lemire_matches_numpy() else _numpy_below


@dataclass
class State:
    """The whole campaign as plain data (see ``docs/rules/mythwind_innkeeper.md``, "State")."""

    rng: np.random.Generator  # the campaign's own seeded generator: every future draw (the whole hidden state)
    phase: int  # the decision phase (P_* = index into PHASE_NAMES; the observation's one-hot phase)
    coins: int  # coins held (the journal's coins; never negative)
    renown: int  # slot on the renown track (0 = leftmost)
    season: int  # 0-based
    day: int  # 0-based day within the season
    turn: int  # days completed
    slot_acc: list[int]  # slot -> accommodation token, -1 empty
    slot_dmg: list[int]  # slot -> 1 if its accommodation is damaged (face down)
    slot_guest: list[int]  # slot -> seated guest, -1 none
    slot_back: list[int]  # slot -> 1 if its guest is back facing (pampered)
    acc_slot: list[int]  # token -> slot, A_SUPPLY or A_SETUP
    setup: list[int]  # starting accommodations still to place (Setup)
    guest_loc: list[int]  # guest -> G_* or slot
    bag: list[int]  # sorted guest ids in the draw bag
    drawn: list[int]  # drawn, unseated guests in draw order
    quiet: list[int]  # unseated because their accommodation was lost (no complaints)
    hand: list[int]  # sorted gossip cards in hand
    served: list[int]  # gossip cards face up near the inn today
    adventure: list[int]  # sorted gossip cards mingled into the adventure deck (the town draws some each dawn)
    gdeck: list[int]  # sorted shuffled part of the gossip deck (drawn first)
    gbottom: list[int]  # known cards at the bottom of the gossip deck, top first
    wdeck: list[int]  # sorted weather cards left this season
    weather: int = -1  # today's weather card
    prev_wtype: int = -1  # weather type of the previous day (streaks)
    streak: int = 0  # consecutive days of today's weather type, today included
    party_coins: int = 0  # coins placed next to the party action (0..3)
    party_type: int = -1  # furniture type marked by the party token, -1 none
    party_slot: int = -1  # where the token was placed (display only)
    skill_row: list[int] = field(default_factory=list)  # skill -> row of its slot, -1 not gained
    dice: list[int] = field(default_factory=list)  # die -> pips, -1 at the tower (not hired)
    die_used: list[int] = field(default_factory=list)  # die -> placed on a worker action today
    worker_used: list[int] = field(default_factory=list)  # row -> its worker action slot is taken today
    improve_used: list[int] = field(default_factory=list)  # purchase, move, sell done in this Improve
    row: int = -1  # the character's Operate row today
    ctx: int = 0  # who performs the action in progress: 0 character, 1 worker, 2 Entertainer
    sel: int = -1  # the guest / token / slot chosen in the previous step
    skill_active: int = -1  # the skill being resolved (its follow-up choices), -1 none
    skill_left: int = 0  # guests the skill being resolved still returns to the bag (Waiting List: 2)
    arrange_left: int = 0  # skill moves left in the rearrangement after gaining a skill (phase arrange)
    cq: list[int] = field(default_factory=list)  # guests whose complaints are being resolved (front first)
    cpos: int = 0  # next complaint of cq[0]
    draw_left: int = 0  # guests still to draw for the draw complaint in progress (cq[0]'s, before cpos)
    lose_type: int = -1  # accommodation type the complaint in progress takes (phase lose), -1 none
    dmg: list[int] = field(default_factory=list)  # damage still to assign (D_* categories)
    rolls: list[int] = field(default_factory=lambda: [-1, -1])  # last upkeep rolls (villager, sprite)
    last_seated: int = 0  # guests seated (front and back facing) at the last dusk
    last_unseated: int = 0  # guests left unseated at the last dusk (late and quiet guests included)
    earned: int = 0  # coins gained over the campaign (never decreases)
    income: list[int] = field(default_factory=lambda: [0] * len(INCOME_SOURCES))  # coins earned by source (seating, party, pamper, adventure, skills, selling); sums to earned
    over: int = 0  # 1 once the campaign has ended (phase over)
    legal: list[int] | None = field(default=None, compare=False, repr=False)


DERIVED_FIELDS = ("legal",)  # the only cache a state carries: its legal actions (RulesBase's)
STATE_FIELDS = state_fields(State, DERIVED_FIELDS)


class InnView(NamedTuple):
    """What the seating and furniture checks read from the inn (see :meth:`MythwindInnkeeperRules.inn_view`)."""

    have: list[bool]  # per accommodation type: available to requests (undamaged in the inn or on served gossip)
    cnt: list[int]  # per style: undamaged accommodations plus icons on served gossip
    by_type: dict[int, list[int]]  # accommodation type -> its undamaged slots, ascending
    furn: list[int]  # undamaged furniture slots, ascending
    styled: tuple[list[int], list[int], list[int]]  # per style: its undamaged slots, ascending
    occ: list[int]  # every slot holding a token, ascending


class MythwindInnkeeperRules(RulesBase):
    """Static tables for one data file and campaign length; every method takes the state it works on.

    On :class:`~mythzoo.envs.core.rules_base.RulesBase`: the legal-action cache, legality checks,
    dispatch (one ``act_<range>`` handler per action range), JSON and clones come from there. The
    one player always moves (``current_player`` is 0 until the campaign is over), and after every
    handler :meth:`_settle` takes the decisions that have a single legal action.
    """

    State = State
    STATE_FIELDS = STATE_FIELDS
    DERIVED_FIELDS = DERIVED_FIELDS
    PHASE_NAMES = PHASE_NAMES
    num_players = 1

    def __getstate__(self) -> dict:
        """Pickling: the value-keyed memos of :meth:`inn_view` are left out (rebuilt on use)."""
        return {**self.__dict__, "_view_memo": None, "_grid_memo": None}

    def __init__(self, data: InnData, days_per_season: int = 6, seasons: int = 4, auto: bool = True):
        check_arg(days_per_season, 1, 100, "days_per_season")
        check_arg(seasons, 1, 100, "seasons")
        self.data = data
        self.auto = auto  # take a decision with a single legal action automatically (scripted tests turn it off)
        self.days_per_season = days_per_season
        self.num_seasons = seasons
        self.table = build_action_table(data)
        o = self.table.offset
        self.A_PASS, self.A_HIRE, self.A_LEARN, self.A_OPER = o("town_pass"), o("hire"), o("learn"), o("operate")
        self.A_GUEST, self.A_SLOT, self.A_BUY, self.A_MOVE = o("guest"), o("slot"), o("buy"), o("move")
        self.A_SELL, self.A_REPAIR, self.A_GOSSIP, self.A_SKILL = o("sell"), o("repair"), o("gossip"), o("skill")
        self.A_ECOIN, self.A_EPARTY, self.A_WORKER, self.A_DONE = o("entertainer_coin"), o("entertainer_party"), o("worker"), o("done")
        self.A_ARRANGE = o("arrange")
        self.num_actions = self.table.n
        self.handlers = build_handlers(self, self.table)
        # A chosen slot or a "done" means one step or another by phase: per phase, the step it takes.
        self._slot_steps = self._by_phase({
            P_SETUP: self._slot_setup, P_PAMPER_SLOT: self._slot_pamper, P_BUY_SLOT: self._slot_buy,
            P_MOVE_DEST: self._slot_move, P_PARTY: self._slot_party, P_SEAT_SLOT: self._slot_seat, P_LATE: self._slot_late,
            P_LOSE: self._slot_lose, P_DAMAGE: self._slot_damage,
        })
        self._done_steps = self._by_phase({
            P_WORKER: self._start_dusk, P_SEAT_GUEST: self._host, P_IMPROVE: self._done_improve, P_SKILL: self._done_skill,
            P_LATE: self._done_late, P_SKILL_GUEST: self._end_skill, P_ARRANGE: self._done_arrange,
        })
        d = data
        self.NG, self.NA, self.NC, self.NK = len(d.guests), len(d.accommodations), len(d.gossip), len(d.skills)
        self.ND, self.NW, self.slots = len(d.dice_types), len(d.weather), d.skill_slots
        self.acc_type = [a.type for a in d.accommodations]
        self.acc_cost = [a.cost for a in d.accommodations]
        self.acc_style = [a.style for a in d.accommodations]
        self.acc_req = [a.renown for a in d.accommodations]
        self.levels = d.renown_levels
        self.track_len = len(d.renown_levels)
        self.gfurn = [g.furniture for g in d.guests]
        self.gserv = [g.services for g in d.guests]
        self.gstyle = [g.style for g in d.guests]
        self.glevel = [g.level for g in d.guests]
        self.gcomp = [g.complaints for g in d.guests]
        self.nonblank = [tuple(f for f in faces if f > 0) for faces in d.die_faces]
        # Lookup tables for the hot paths (derived from the data, never mutated).
        self.acc_furniture = [t < len(FURNITURE) for t in self.acc_type]
        self.gossip_accs = [c.accommodations for c in d.gossip]
        self.gossip_styles = [c.styles for c in d.gossip]
        self.skill_cost = [k.cost for k in d.skills]
        self.skill_unlock = [d.skill_unlock_season[k.level - 1] for k in d.skills]
        self.weather_align = [w.alignment for w in d.weather]
        # Per die: the (row, worker action id) pairs its type may take, rows in order.
        self.die_rows = [
            (i, tuple((r, self.A_WORKER + i * len(OPERATE) + r) for r in range(len(OPERATE)) if ROW_DIE[r] in (ANY_DIE, t)))
            for i, t in enumerate(d.dice_types)
        ]
        self.dice_of_type = {t: tuple(i for i, x in enumerate(d.dice_types) if x == t) for t in (SPRITE, VILLAGER)}
        # Per season (0-based): the cheapest skill in play, so the town phase skips the skill scan
        # while the coins cannot pay for any (no skill in play: more than any coins).
        self.min_skill_cost = [
            min([c for c, u in zip(self.skill_cost, self.skill_unlock) if season + 1 >= u], default=10**12)
            for season in range(seasons)
        ]
        self.near_sets = [frozenset(n) for n in NEAR]  # NEAR as sets: "a styled slot near d" is one set test
        self.no_dice_used = (0,) * self.ND  # die_used after Return Workers
        # Update Draw Bag per renown level 1..3: (the bag, every guest's location) after it. The
        # bag takes the first guests (by id) of each guest level, as many as the renown level says.
        self.bag_fill = []
        for counts in d.bag_by_level:
            taken, bag = [0, 0, 0], []
            for g in range(self.NG):
                lv = self.glevel[g] - 1
                if taken[lv] < counts[lv]:
                    taken[lv] += 1
                    bag.append(g)
            self.bag_fill.append((tuple(bag), tuple(G_BAG if g in bag else G_SUPPLY for g in range(self.NG))))
        # Per renown level: (cost, token) of the accommodations it may buy, cheapest first.
        self.tokens_by_cost = {lv: sorted((c, a) for a, (c, r) in enumerate(zip(self.acc_cost, self.acc_req)) if r <= lv)
                               for lv in set(self.levels)}
        self._view_memo: tuple | None = None  # see inn_view()
        self._grid_memo: tuple | None = None

    # ------------------------------------------------------------------ setup
    def initial_state(self, seed: int | None) -> State:
        """Setup: 10 coins, renown leftmost, 12 level I guests in the bag, gossip deck shuffled and
        two cards drawn, the starting table, window and door to place (the player's choice). A starting
        token the data lists several ids for is dealt from them by the seed's generator (A2), before
        anything else is drawn; a fixed one draws nothing."""
        d = self.data
        s = State(
            rng=make_rng(seed), phase=P_SETUP, coins=d.starting_coins, renown=0, season=0, day=0, turn=0,
            slot_acc=[-1] * NUM_SLOTS, slot_dmg=[0] * NUM_SLOTS, slot_guest=[-1] * NUM_SLOTS, slot_back=[0] * NUM_SLOTS,
            acc_slot=[A_SUPPLY] * self.NA, setup=[], guest_loc=[G_SUPPLY] * self.NG,
            bag=[], drawn=[], quiet=[], hand=[], served=[], adventure=[], gdeck=list(range(self.NC)), gbottom=[],
            wdeck=list(range(self.NW)),
            skill_row=[-1] * self.NK, dice=[-1] * self.ND, die_used=[0] * self.ND, worker_used=[0] * len(OPERATE),
            improve_used=[0, 0, 0],
        )
        for choices in d.starting_accommodations:
            s.setup.append(choices[0] if len(choices) == 1 else choices[_below(s.rng, len(choices))])
        for a in s.setup:
            s.acc_slot[a] = A_SETUP
        self._fill_bag(s)
        for _ in range(d.starting_gossip):
            self._draw_gossip(s)
        self._settle(s)
        return s

    # ------------------------------------------------------------- queries
    def current_player(self, s: State) -> int:
        """The innkeeper (seat 0) until the campaign is over, then -1 (the state has no mover field)."""
        return -1 if s.over else 0

    def turns_played(self, s: State) -> int:
        """Days completed (the env's turn cap counts days)."""
        return s.turn

    def level(self, s: State) -> int:
        """Renown level (1..3) of the renown marker's slot."""
        return self.levels[s.renown]

    def total_days(self) -> int:
        """Days in the campaign: days per season times seasons."""
        return self.days_per_season * self.num_seasons

    def style_counts(self, s: State) -> list[int]:
        """Undamaged accommodations of each style in the inn plus style icons on served gossip cards."""
        cnt = [0, 0, 0]
        st = self.acc_style
        for a, dmg in zip(s.slot_acc, s.slot_dmg):
            if a >= 0 and not dmg and st[a] >= 0:
                cnt[st[a]] += 1
        for c in s.served:
            for x in self.gossip_styles[c]:
                cnt[x] += 1
        return cnt

    def embraced(self, s: State) -> list[bool]:
        """Styles the inn has embraced: two or more undamaged accommodations (or gossip icons) of it."""
        return [c >= 2 for c in self.style_counts(s)]

    def services(self, s: State) -> list[bool]:
        """Accommodation types (by index) available to fulfil service requests: undamaged in the inn or on a served gossip card."""
        have = [False] * (len(FURNITURE) + len(SERVICES))
        ty = self.acc_type
        for a, dmg in zip(s.slot_acc, s.slot_dmg):
            if a >= 0 and not dmg:
                have[ty[a]] = True
        for c in s.served:
            for t in self.gossip_accs[c]:
                have[t] = True
        return have

    def inn_view(self, s: State) -> InnView:
        """What the seating and furniture checks read from the inn, from one pass over the slots
        (:class:`InnView`: ``have`` = :meth:`services`, ``cnt`` = :meth:`style_counts`, and the
        slots by type, furniture, style and occupancy). Callers only read it.

        A rules cache, keyed on values: the inn changes a few times a day and is read many times
        (by the legality of seating, Improve and Pamper), so the last view is kept with copies of
        the values it was built from (``slot_acc``, ``slot_dmg``, ``served``), and its grid part
        with those of ``slot_acc`` and ``slot_dmg`` (served gossip changes more often). Never keyed
        on the identity of a state and never bumped by hand: any state gets what its values give."""
        acc, dmg, served = s.slot_acc, s.slot_dmg, s.served
        c = self._view_memo
        if c is not None and c[0] == acc and c[1] == dmg and c[2] == served:
            return c[3]
        g = self._grid_memo
        if g is None or g[0] != acc or g[1] != dmg:
            g = self._grid_memo = (list(acc), list(dmg), self._grid_view(acc, dmg))
        view = g[2]
        if served:
            have, cnt = list(view.have), list(view.cnt)
            for c in served:
                for t in self.gossip_accs[c]:
                    have[t] = True
                for x in self.gossip_styles[c]:
                    cnt[x] += 1
            view = InnView(have, cnt, view.by_type, view.furn, view.styled, view.occ)
        self._view_memo = (list(acc), list(dmg), list(served), view)
        return view

    def _grid_view(self, acc: list[int], dmg: list[int]) -> InnView:
        """:meth:`inn_view` of a grid with no gossip served."""
        ty, st, fu = self.acc_type, self.acc_style, self.acc_furniture
        have = [False] * (len(FURNITURE) + len(SERVICES))
        cnt = [0, 0, 0]
        by_type: dict[int, list[int]] = {}
        furn: list[int] = []
        styled: tuple[list[int], list[int], list[int]] = ([], [], [])
        occ = [d for d, a in enumerate(acc) if a >= 0]  # most slots are empty
        for d in occ:
            if not dmg[d]:
                a = acc[d]
                t = ty[a]
                have[t] = True
                if t in by_type:
                    by_type[t].append(d)
                else:
                    by_type[t] = [d]
                if fu[a]:
                    furn.append(d)
                x = st[a]
                if x >= 0:
                    cnt[x] += 1
                    styled[x].append(d)
        return InnView(have, cnt, by_type, furn, styled, occ)

    def seat_slots(self, s: State, g: int, have: list[bool] | None = None, emb: list[bool] | None = None) -> list[int]:
        """Slots where guest ``g`` can be seated satisfied: an empty slot with its furniture (undamaged),
        every service present, and its style embraced with a styled accommodation adjacent or diagonal."""
        have_now, cnt, by_type, _, styled, _ = self.inn_view(s)
        if have is None:
            have = have_now
        for t in self.gserv[g]:
            if not have[t]:
                return []
        style = self.gstyle[g]
        if style >= 0 and not (cnt[style] >= 2 if emb is None else emb[style]):
            return []
        sg = s.slot_guest
        out = [d for d in by_type.get(self.gfurn[g], ()) if sg[d] < 0]
        if style >= 0:
            near, sty = self.near_sets, styled[style]
            out = [d for d in out if not near[d].isdisjoint(sty)]
        return out

    def _seatable_guests(self, s: State) -> list[int]:
        """The drawn guests :meth:`seat_slots` can seat somewhere, sorted."""
        have, cnt, by_type, _, styled, _ = self.inn_view(s)
        sg, gfurn, gserv, gstyle, near = s.slot_guest, self.gfurn, self.gserv, self.gstyle, self.near_sets
        free: dict[int, list[int]] = {}  # furniture type -> its undamaged slots with no guest
        out = []
        for g in s.drawn:
            f = gfurn[g]
            if f not in by_type:  # most drawn guests: their furniture is not in the inn
                continue
            slots = free.get(f)
            if slots is None:
                slots = free[f] = [d for d in by_type[f] if sg[d] < 0]
            if not slots:
                continue
            for t in gserv[g]:
                if not have[t]:
                    break
            else:
                style = gstyle[g]
                if style < 0:
                    out.append(g)
                elif cnt[style] >= 2:
                    sty = styled[style]
                    for d in slots:
                        if not near[d].isdisjoint(sty):
                            out.append(g)
                            break
        out.sort()
        return out

    def _near_style(self, s: State, d: int, style: int) -> bool:
        """Whether an undamaged accommodation of ``style`` is in slot ``d`` or next to it (diagonals too)."""
        st, acc, dmg = self.acc_style, s.slot_acc, s.slot_dmg
        for x in NEAR[d]:
            a = acc[x]
            if a >= 0 and not dmg[x] and st[a] == style:
                return True
        return False

    def free_furniture(self, s: State) -> list[int]:
        """Slots with an undamaged furniture token and no guest (Pamper)."""
        sg = s.slot_guest
        return [d for d in self.inn_view(s).furn if sg[d] < 0]

    def furniture_slots(self, s: State) -> list[int]:
        """Slots with an undamaged furniture token (Party)."""
        return list(self.inn_view(s).furn)

    def _any_free_furniture(self, s: State) -> bool:
        """Whether :meth:`free_furniture` is non-empty."""
        sg = s.slot_guest
        for d in self.inn_view(s).furn:
            if sg[d] < 0:
                return True
        return False

    def _any_furniture(self, s: State) -> bool:
        """Whether :meth:`furniture_slots` is non-empty."""
        return bool(self.inn_view(s).furn)

    # --------------------------------------------------------- placement
    def _supported(self, s: State, y: int, need: int, skip: int = -1, extra: int = -1) -> bool:
        """Whether slot ``y`` has an orthogonally adjacent ``need`` token (ignoring slot ``skip``;
        ``extra`` is a slot treated as holding one)."""
        ty, acc = self.acc_type, s.slot_acc
        for z in ADJ[y]:
            if z == extra:
                return True
            if z != skip and acc[z] >= 0 and ty[acc[z]] == need:
                return True
        return False

    def can_place(self, s: State, t: int, d: int, src: int = -1) -> bool:
        """Can a token of type ``t`` go into slot ``d`` (moved from ``src``, or new when -1)?
        Doors and windows: outer slots; drinks and food: next to a kitchen; music and plays: next
        to a stage; and (assumption) a move may not take a kitchen or stage away from a token that
        needs it."""
        if s.slot_acc[d] >= 0 or d == src:
            return False
        if (t == DOOR or t == WINDOW) and not OUTER[d]:
            return False
        need = SUPPORT.get(t)
        if need is not None and not self._supported(s, d, need, skip=src):
            return False
        if src >= 0 and t in DEPENDENTS:
            deps, ty, acc = DEPENDENTS[t], self.acc_type, s.slot_acc
            for y in ADJ[src]:
                if acc[y] >= 0 and ty[acc[y]] in deps and not self._supported(s, y, t, skip=src, extra=d):
                    return False
        return True

    def place_slots(self, s: State, t: int, src: int = -1) -> list[int]:
        """The slots where :meth:`can_place` allows a token of type ``t`` (from ``src``), in order."""
        acc = s.slot_acc
        if t not in SUPPORT and t not in DEPENDENTS:  # can_place() needs only an empty slot (outer for doors and windows)
            if t == DOOR or t == WINDOW:
                return [d for d in OUTER_SLOTS if acc[d] < 0 and d != src]
            return [d for d, a in enumerate(acc) if a < 0 and d != src]
        return [d for d in range(NUM_SLOTS) if acc[d] < 0 and self.can_place(s, t, d, src)]

    def _room_next_to(self, s: State, need: int, skip: int) -> bool:
        """Whether some empty slot is orthogonally adjacent to a ``need`` token outside slot ``skip``:
        ``any(can_place(s, t, x, skip) for x in empty slots)`` for a type ``t`` that needs ``need``
        and nothing depends on (adjacency is symmetric)."""
        ty, acc = self.acc_type, s.slot_acc
        for z in self.inn_view(s).occ:  # the slots holding a token
            if z != skip and ty[acc[z]] == need:
                for x in ADJ[z]:
                    if acc[x] < 0:
                        return True
        return False

    def _movable_support(self, s: State, t: int, src: int) -> bool:
        """``any(can_place(s, t, x, src) for x in empty slots)`` for a kitchen or stage (type ``t``)
        in slot ``src``: the destination must be next to every dependent token next to ``src``
        that no other ``t`` supports."""
        ty, acc = self.acc_type, s.slot_acc
        deps = DEPENDENTS[t]
        needy = [y for y in ADJ[src] if acc[y] >= 0 and ty[acc[y]] in deps and not self._supported(s, y, t, skip=src)]
        if not needy:
            for a in acc:
                if a < 0:
                    return True
            return False
        first, rest = needy[0], needy[1:]
        for x in ADJ[first]:
            if acc[x] < 0 and x != src:
                for y in rest:
                    if x not in ADJ[y]:
                        break
                else:
                    return True
        return False

    def sell_ok(self, s: State, d: int) -> bool:
        """An accommodation with no guest that no placement restriction depends on."""
        a = s.slot_acc[d]
        if a < 0 or s.slot_guest[d] >= 0:
            return False
        t = self.acc_type[a]
        if t in DEPENDENTS:
            deps, ty, acc = DEPENDENTS[t], self.acc_type, s.slot_acc
            for y in ADJ[d]:
                if acc[y] >= 0 and ty[acc[y]] in deps and not self._supported(s, y, t, skip=d):
                    return False
        return True

    def placement_violations(self, s: State) -> list[str]:
        """Every placement restriction broken by the grid that no reachable state breaks: a door or
        window in an inner slot. A drink, food, music or play with no adjacent kitchen (stage) is
        reachable: a complaint or the season's discard may take its kitchen (stage) and it stays
        (assumption A15); the restriction binds its placing, moving and the sale of its support."""
        out = []
        for d, a in enumerate(s.slot_acc):
            if a < 0:
                continue
            t = self.acc_type[a]
            if (t == DOOR or t == WINDOW) and not OUTER[d]:
                out.append(f"{('window', 'door')[t == DOOR]} in inner slot {d}")
        return out

    def unsupported(self, s: State) -> list[int]:
        """Slots holding a drink, food, music or play with no orthogonally adjacent kitchen (stage):
        left so by a lost or discarded support (A15); they still serve requests."""
        ty, acc = self.acc_type, s.slot_acc
        return [d for d in self.inn_view(s).occ if ty[acc[d]] in SUPPORT and not self._supported(s, d, SUPPORT[ty[acc[d]]])]

    # ---------------------------------------------------------- legality
    def operate_ok(self, s: State, r: int) -> bool:
        if r == PAMPER:
            return bool(s.drawn) and self._any_free_furniture(s)
        if r == IMPROVE or r == MINGLE:
            return True
        if r == SERVE:
            return bool(s.hand)
        return s.renown >= self.data.party_min_slot and self._any_furniture(s)

    def skill_ok(self, s: State, k: int) -> bool:
        if k in (SK_RUMORMONGER, SK_WAITING_LIST, SK_FAVORITE):
            return bool(s.drawn)
        if k == SK_ENTERTAINER:
            return self.data.weather[s.weather].type == CLOUDY and (s.party_coins < self.level(s) or self.operate_ok(s, PARTY))
        if k == SK_WORKER_ENCOURAGEMENT:
            return s.coins >= self.data.encouragement_cost and any(p >= 0 for p in s.dice)
        return True

    def skill_in_row(self, s: State, r: int) -> int:
        sr = s.skill_row
        return sr.index(r) if r in sr else -1

    def learnable(self, s: State, k: int) -> bool:
        sk = self.data.skills[k]
        return (s.skill_row[k] < 0 and s.coins >= sk.cost and s.season + 1 >= self.data.skill_unlock_season[sk.level - 1]
                and sum(1 for r in s.skill_row if r >= 0) < self.slots)

    def _compute_legal(self, s: State) -> list[int]:
        if s.over:
            return []
        ph = s.phase
        SL = self.A_SLOT
        # The most frequent phases first (the phases are exclusive: the order is only speed).
        if ph == P_WORKER:
            dice, die_used, worker_used = s.dice, s.die_used, s.worker_used
            if not dice or max(dice) < 1:  # no hired die with pips left (most days): only ending the daytime (max() without default= costs half)
                return [self.A_DONE]
            acts = []
            ok: list[bool | None] | None = None  # operate_ok per row, computed when first needed
            for d, rows in self.die_rows:
                if dice[d] >= 1 and not die_used[d]:
                    if ok is None:
                        ok = [None] * len(OPERATE)
                    for r, act in rows:
                        if not worker_used[r]:
                            o = ok[r]
                            if o is None:
                                o = ok[r] = self.operate_ok(s, r)
                            if o:
                                acts.append(act)
            acts.append(self.A_DONE)
            return acts
        if ph == P_SEAT_GUEST:
            if not s.drawn:
                return [self.A_DONE]
            acts = [self.A_GUEST + g for g in self._seatable_guests(s)]
            acts.append(self.A_DONE)
            return acts
        if ph == P_TOWN:
            acts = [self.A_PASS]
            if s.coins >= self.data.hire_cost:
                dice, dot = s.dice, self.dice_of_type
                for t in (SPRITE, VILLAGER):
                    for d in dot[t]:
                        if dice[d] < 0:
                            acts.append(self.A_HIRE + t)
                            break
            skill_row = s.skill_row
            # learnable(), its slot count hoisted (entries are -1 or a slot); nothing to scan while
            # the coins are below every skill in play this season
            if len(skill_row) - skill_row.count(-1) < self.slots and s.coins >= self.min_skill_cost[s.season]:
                coins, season, cost, unlock = s.coins, s.season + 1, self.skill_cost, self.skill_unlock
                for k, row in enumerate(s.skill_row):
                    if row < 0 and coins >= cost[k] and season >= unlock[k]:
                        acts.extend(self.A_LEARN + k * self.slots + r for r in range(self.slots))
            return acts
        if ph == P_OPERATE:
            acts = []
            for r in ALIGNED_ROWS[self.weather_align[s.weather]]:
                if self.operate_ok(s, r):
                    acts.append(self.A_OPER + r)
            return acts
        if ph == P_SETUP:
            return [SL + d for d in self.place_slots(s, self.acc_type[s.setup[0]])]
        if ph == P_PAMPER_GUEST or ph == P_SKILL_GUEST:
            acts = sorted(self.A_GUEST + g for g in s.drawn)
            if ph == P_SKILL_GUEST and s.skill_active == SK_WAITING_LIST and s.skill_left == 1:
                acts.append(self.A_DONE)
            return acts
        if ph == P_PAMPER_SLOT:
            return [SL + d for d in self.free_furniture(s)]
        if ph == P_IMPROVE:
            return self._improve_legal(s)
        if ph == P_BUY_SLOT:
            return [SL + d for d in self.place_slots(s, self.acc_type[s.sel])]
        if ph == P_MOVE_DEST:
            return [SL + d for d in self.place_slots(s, self.acc_type[s.slot_acc[s.sel]], s.sel)]
        if ph == P_SERVE or ph == P_MINGLE:
            return [self.A_GOSSIP + c for c in s.hand]
        if ph == P_PARTY:
            return [SL + d for d in self.furniture_slots(s)]
        if ph == P_SKILL:
            return [self.A_SKILL, self.A_DONE]
        if ph == P_ARRANGE:  # any gained skill into any other slot (a skill there takes its place), or keep the arrangement
            A, n = self.A_ARRANGE, self.slots
            acts = [A + k * n + r for k, row in enumerate(s.skill_row) if row >= 0 for r in range(n) if r != row]
            return [self.A_DONE, *acts] if self.A_DONE < A else [*acts, self.A_DONE]  # ascending, as every legal list
        if ph == P_FAVORITE_PICK:
            return [self.A_GUEST + g for g in s.bag]
        if ph == P_ENTERTAINER:
            acts = []
            if s.party_coins < self.level(s):
                acts.append(self.A_ECOIN)
            if self.operate_ok(s, PARTY):
                acts.append(self.A_EPARTY)
            return acts
        if ph == P_SEAT_SLOT:
            return [SL + d for d in self.seat_slots(s, s.sel)]
        if ph == P_LATE:
            return [SL + d for d in self.seat_slots(s, s.sel)] + [self.A_DONE]
        if ph == P_LOSE:
            return [SL + d for d in self._lose_slots(s, s.lose_type)]
        if ph == P_DAMAGE:
            return [SL + d for d in self._damage_slots(s, s.dmg[0])]
        raise AssertionError(f"unknown phase {ph}")

    def _improve_legal(self, s: State) -> list[int]:
        acts = []
        lvl, coins, ty = self.levels[s.renown], s.coins, self.acc_type
        acc = s.slot_acc
        occupied = self.inn_view(s).occ  # the slots holding a token, ascending (only read)
        any_empty = len(occupied) < NUM_SLOTS  # can_place() needs an empty slot
        # can_place() for a door or window: an empty outer slot; for a type no placement rule
        # names (neither needing a kitchen or stage nor being one): any empty slot.
        outer_free = False
        for d in OUTER_SLOTS:
            if acc[d] < 0:
                outer_free = True
                break
        used = s.improve_used
        if not used[0]:
            placeable: dict[int, bool] = {}
            acc_slot = s.acc_slot
            # The tokens of this renown level the coins pay for (cheapest first), in the supply,
            # in token order.
            buyable = []
            for c, a in self.tokens_by_cost[lvl]:
                if c > coins:
                    break
                if acc_slot[a] == A_SUPPLY:
                    buyable.append(a)
            buyable.sort()
            for a in buyable:
                t = ty[a]
                ok = placeable.get(t)
                if ok is None:
                    if t == DOOR or t == WINDOW:
                        ok = outer_free
                    elif t in SUPPORT:
                        ok = self._room_next_to(s, SUPPORT[t], -1)
                    else:  # a new token (no source slot): nothing depends on it yet
                        ok = any_empty
                    placeable[t] = ok
                if ok:
                    acts.append(self.A_BUY + a)
        sg = s.slot_guest
        if not used[1] and any_empty:
            A_MOVE = self.A_MOVE
            for d in occupied:
                if sg[d] < 0:
                    t = ty[acc[d]]
                    if t == DOOR or t == WINDOW:
                        ok = outer_free
                    elif t in SUPPORT:
                        ok = self._room_next_to(s, SUPPORT[t], d)
                    elif t in DEPENDENTS:
                        ok = self._movable_support(s, t, d)
                    else:
                        ok = True
                    if ok:
                        acts.append(A_MOVE + d)
        if not used[2]:
            A_SELL = self.A_SELL
            for d in occupied:  # sell_ok(), its first checks inlined
                if sg[d] < 0 and (ty[acc[d]] not in DEPENDENTS or self.sell_ok(s, d)):
                    acts.append(A_SELL + d)
        dmg = s.slot_dmg
        for d in occupied:
            if dmg[d] and coins >= (self.acc_cost[acc[d]] + 1) // 2:
                acts.append(self.A_REPAIR + d)
        acts.append(self.A_DONE)
        return acts

    def _lose_slots(self, s: State, t: int) -> list[int]:
        ty = self.acc_type
        return [d for d in range(NUM_SLOTS) if s.slot_acc[d] >= 0 and ty[s.slot_acc[d]] == t]

    def _damage_slots(self, s: State, cat: int) -> list[int]:
        nf, ty = len(FURNITURE), self.acc_type
        out = []
        for d in range(NUM_SLOTS):
            a = s.slot_acc[d]
            if a >= 0 and not s.slot_dmg[d]:
                if cat == D_ANY or (cat == D_FURNITURE) == (ty[a] < nf):
                    out.append(d)
        return out

    # -------------------------------------------------------------- apply
    def _settle(self, s: State) -> None:
        """After every handler (``RulesBase.apply`` calls it as ``_after_action``): recompute the
        legal actions; a decision with a single legal action is taken automatically."""
        handlers = self.handlers
        while True:
            legal = s.legal = self._compute_legal(s)
            if len(legal) != 1 or s.over or not self.auto:
                return
            handler, arg = handlers[legal[0]]
            handler(s, arg)

    _after_action = _settle

    def _by_phase(self, steps: dict) -> list:
        """A list indexed by phase of ``steps``' entries; any other phase has none (a bug if reached)."""
        return [steps.get(ph, self._no_step) for ph in range(len(PHASE_NAMES))]

    def _no_step(self, s: State, *arg: int) -> None:  # pragma: no cover -- only legal actions reach a step
        raise AssertionError(f"no such step in phase {PHASE_NAMES[s.phase]}")

    # One handler per action range (``act_<range name>``, found by RulesBase.build_handlers); a range
    # shared by several steps (a guest, a slot, "done") goes on by phase.
    def act_town_pass(self, s: State, arg: int) -> None:
        """Town action: nothing."""
        s.phase = P_OPERATE

    def act_hire(self, s: State, t: int) -> None:
        """Town action: hire a worker die of type ``t``."""
        self._hire(s, t)
        s.phase = P_OPERATE

    def act_learn(self, s: State, arg: int) -> None:
        """Town action (Longhouse): learn skill ``arg // slots`` into the slot of row ``arg % slots``;
        with two or more skills gained, the rearrangement follows (phase ``arrange``)."""
        self._learn(s, arg // self.slots, arg % self.slots)
        if len(s.skill_row) - s.skill_row.count(-1) >= 2:
            s.arrange_left = self.slots - 1  # any arrangement of the slots is at most slots - 1 swaps away
            s.phase = P_ARRANGE
        else:
            s.phase = P_OPERATE

    def act_arrange(self, s: State, arg: int) -> None:
        """Rearranging the gained skills: skill ``arg // slots`` into the slot of row ``arg % slots``;
        a skill in that slot takes the moved skill's old slot."""
        k, r = divmod(arg, self.slots)
        sr = s.skill_row
        j = self.skill_in_row(s, r)
        if j >= 0:
            sr[j] = sr[k]
        sr[k] = r
        s.arrange_left -= 1
        if not s.arrange_left:
            s.phase = P_OPERATE

    def act_operate(self, s: State, r: int) -> None:
        """The character's Operate action: row ``r``."""
        s.row, s.ctx = r, 0
        self._begin_operate(s, r)

    def act_worker(self, s: State, arg: int) -> None:
        """Worker action: die ``arg // rows`` loses a pip and performs row ``arg % rows``."""
        d, r = divmod(arg, len(OPERATE))
        s.dice[d] -= 1
        s.die_used[d] = 1
        s.worker_used[r] = 1
        s.ctx = 1
        self._begin_operate(s, r)

    def act_guest(self, s: State, g: int) -> None:
        """Guest ``g``: to seat at dusk, to pamper, for a guest skill, or taken from the bag (Favorite)."""
        ph = s.phase
        if ph == P_SEAT_GUEST:
            s.sel = g
            s.phase = P_SEAT_SLOT
        elif ph == P_PAMPER_GUEST:
            s.sel = g
            s.phase = P_PAMPER_SLOT
        elif ph == P_SKILL_GUEST:  # Rumormonger, Waiting List, Favorite: the guest goes back to the bag
            self._to_bag(s, g)
            s.skill_left -= 1
            if s.skill_active == SK_FAVORITE:
                s.phase = P_FAVORITE_PICK
            elif s.skill_left <= 0 or not s.drawn:
                self._end_skill(s)
        elif ph == P_FAVORITE_PICK:  # Favorite: and this one comes out of the bag
            s.bag.remove(g)
            s.guest_loc[g] = G_DRAWN
            s.drawn.append(g)
            self._end_skill(s)
        else:  # pragma: no cover -- only legal actions reach a handler
            raise AssertionError(f"no guest to choose in phase {PHASE_NAMES[ph]}")

    def act_slot(self, s: State, d: int) -> None:
        """Slot ``d``: where the step of this phase places, seats, marks, damages or loses."""
        self._slot_steps[s.phase](s, d)

    def act_buy(self, s: State, a: int) -> None:
        """Improve: purchase token ``a`` (its slot is chosen next)."""
        s.improve_used[0] = 1
        s.sel = a
        s.phase = P_BUY_SLOT

    def act_move(self, s: State, d: int) -> None:
        """Improve: move the token in slot ``d`` (its new slot is chosen next)."""
        s.improve_used[1] = 1
        s.sel = d
        s.phase = P_MOVE_DEST

    def act_sell(self, s: State, d: int) -> None:
        """Improve: sell the token in slot ``d`` for half its cost, rounded down."""
        s.improve_used[2] = 1
        a = s.slot_acc[d]
        self._remove_acc(s, d)
        self._gain(s, self.acc_cost[a] // 2, I_SELL)

    def act_repair(self, s: State, d: int) -> None:
        """Improve: repair the token in slot ``d`` for half its cost, rounded up."""
        s.coins -= (self.acc_cost[s.slot_acc[d]] + 1) // 2
        s.slot_dmg[d] = 0

    def act_gossip(self, s: State, c: int) -> None:
        """Gossip card ``c`` from the hand: served (Serve) or into the adventure deck (Mingle)."""
        s.hand.remove(c)
        if s.phase == P_SERVE:
            s.served.append(c)
        else:  # P_MINGLE
            insort(s.adventure, c)  # shuffled in: kept sorted, the town's draws are random
            self._mingle_draw(s)
        self._after_operate(s)

    def act_skill(self, s: State, arg: int) -> None:
        """Resolve the skill in the row of today's Operate action."""
        self._resolve_skill(s, self.skill_in_row(s, s.row))

    def act_entertainer_coin(self, s: State, arg: int) -> None:
        """Entertainer: a coin onto the party action."""
        s.skill_active = -1
        s.party_coins += 1
        s.phase = P_WORKER

    def act_entertainer_party(self, s: State, arg: int) -> None:
        """Entertainer: perform the party action (its slot is chosen next)."""
        s.skill_active = -1
        s.ctx = 2
        s.phase = P_PARTY

    def act_done(self, s: State, arg: int) -> None:
        """Finish the current step (what it finishes depends on the phase)."""
        self._done_steps[s.phase](s)

    # The steps of a chosen slot, by phase.
    def _slot_setup(self, s: State, d: int) -> None:
        t = s.setup.pop(0)
        self._put(s, t, d)
        if not s.setup:
            self._dawn(s)

    def _slot_pamper(self, s: State, d: int) -> None:
        """Pamper: seat back facing on any furniture, ignoring requests; 1 coin; renown -1 if able."""
        self._seat(s, s.sel, d, back=1)
        self._gain(s, 1, I_PAMPER)
        s.renown = max(0, s.renown - 1)
        s.sel = -1
        self._after_operate(s)

    def _slot_buy(self, s: State, d: int) -> None:
        s.coins -= self.acc_cost[s.sel]
        self._put(s, s.sel, d)
        s.sel = -1
        s.phase = P_IMPROVE

    def _slot_move(self, s: State, d: int) -> None:
        src = s.sel
        t = s.slot_acc[src]
        dmg = s.slot_dmg[src]
        s.slot_acc[src], s.slot_dmg[src] = -1, 0
        s.slot_acc[d], s.slot_dmg[d] = t, dmg
        s.acc_slot[t] = d
        if s.party_slot == src:
            s.party_slot = d
        s.sel = -1
        s.phase = P_IMPROVE

    def _slot_party(self, s: State, d: int) -> None:
        """Party: renown -2, the party token on one furniture accommodation."""
        s.renown = max(0, s.renown - 2)
        s.party_type = self.acc_type[s.slot_acc[d]]
        s.party_slot = d
        self._after_operate(s)

    def _slot_seat(self, s: State, d: int) -> None:
        self._seat(s, s.sel, d, back=0)
        s.sel = -1
        s.phase = P_SEAT_GUEST

    def _slot_late(self, s: State, d: int) -> None:
        """A late guest (drawn by a complaint) seated: 1 coin."""
        g = s.sel
        s.sel = -1
        self._seat(s, g, d, back=0)
        self._gain(s, 1, I_SEAT)
        self._run_complaints(s)

    def _slot_lose(self, s: State, d: int) -> None:
        self._remove_acc(s, d)
        s.lose_type = -1
        self._run_complaints(s)

    def _slot_damage(self, s: State, d: int) -> None:
        s.slot_dmg[d] = 1
        s.dmg.pop(0)
        self._next_damage(s)

    # The steps "done" finishes, by phase (ending the daytime and stopping seating are _start_dusk and _host).
    def _done_improve(self, s: State) -> None:
        s.improve_used = [0, 0, 0]
        self._after_operate(s)

    def _done_arrange(self, s: State) -> None:
        """The skills stay where they are now."""
        s.arrange_left = 0
        s.phase = P_OPERATE

    def _done_skill(self, s: State) -> None:
        """The skill not used."""
        s.phase = P_WORKER

    def _done_late(self, s: State) -> None:
        """A late guest declined: unseated, its complaints follow."""
        s.cq.append(s.sel)
        s.sel = -1
        self._run_complaints(s)

    # ------------------------------------------------------------ helpers
    def _gain(self, s: State, n: int, source: int) -> None:
        """``n`` coins to the innkeeper, booked under income source ``source`` (INCOME_SOURCES)."""
        s.coins += n
        s.earned += n
        s.income[source] += n

    def _put(self, s: State, a: int, d: int) -> None:
        s.slot_acc[d] = a
        s.slot_dmg[d] = 0
        s.acc_slot[a] = d

    def _seat(self, s: State, g: int, d: int, back: int) -> None:
        s.drawn.remove(g)
        s.guest_loc[g] = d
        s.slot_guest[d] = g
        s.slot_back[d] = back

    def _to_bag(self, s: State, g: int) -> None:
        if s.guest_loc[g] == G_DRAWN:
            s.drawn.remove(g)
        s.guest_loc[g] = G_BAG
        insort(s.bag, g)

    def _draw_guest(self, s: State) -> int:
        g = s.bag.pop(_below(s.rng, len(s.bag)))
        s.guest_loc[g] = G_DRAWN
        s.drawn.append(g)
        return g

    def _draw_gossip(self, s: State) -> None:
        if s.gdeck:
            c = s.gdeck.pop(_below(s.rng, len(s.gdeck)))
        elif s.gbottom:
            c = s.gbottom.pop(0)
        else:
            return
        insort(s.hand, c)

    def _mingle_draw(self, s: State) -> None:
        """Mingle: draw as many gossip cards as the renown level (fewer if the deck runs out)."""
        for _ in range(self.level(s)):
            self._draw_gossip(s)

    def _renown_up(self, s: State) -> None:
        """Renown +1, but never into level III while the inn has embraced no style."""
        new = s.renown + 1
        if new >= self.track_len:
            return
        if self.levels[new] == 3 and self.levels[s.renown] < 3 and not any(self.embraced(s)):
            return
        s.renown = new

    def _fill_bag(self, s: State) -> None:
        """Update Draw Bag: every guest to the supply, then the renown level's guests into the bag."""
        bag, locs = self.bag_fill[self.level(s) - 1]
        s.bag = list(bag)
        s.guest_loc[:] = locs

    def _hire(self, s: State, t: int) -> None:
        d = next(d for d in range(self.ND) if s.dice[d] < 0 and self.data.dice_types[d] == t)
        s.coins -= self.data.hire_cost
        faces = self.nonblank[t]
        s.dice[d] = faces[_below(s.rng, len(faces))]  # blank results are rerolled
        s.die_used[d] = 0

    def _learn(self, s: State, k: int, r: int) -> None:
        s.coins -= self.data.skills[k].cost
        j = self.skill_in_row(s, r)
        if j >= 0:  # the skill in that slot moves to the first free slot (the rearrangement that follows may move it on)
            used = set(x for x in s.skill_row if x >= 0)
            s.skill_row[j] = next(x for x in range(self.slots) if x not in used)
        s.skill_row[k] = r

    def _begin_operate(self, s: State, r: int) -> None:
        if r == PAMPER:
            s.phase = P_PAMPER_GUEST
        elif r == IMPROVE:
            s.improve_used = [0, 0, 0]
            s.phase = P_IMPROVE
        elif r == SERVE:
            s.phase = P_SERVE
        elif r == MINGLE:
            if s.hand:
                s.phase = P_MINGLE
            else:
                self._mingle_draw(s)
                self._after_operate(s)
        else:
            s.phase = P_PARTY

    def _after_operate(self, s: State) -> None:
        if s.ctx == 0:
            k = self.skill_in_row(s, s.row)
            if k >= 0 and self.skill_ok(s, k):
                s.phase = P_SKILL
                return
        s.ctx = 0
        s.phase = P_WORKER

    def _remove_acc(self, s: State, d: int) -> None:
        """Return the token in slot ``d`` to the supply; a guest there becomes unseated without
        complaints. Drinks and food (music and plays) next to a lost kitchen (stage) stay (A15)."""
        a = s.slot_acc[d]
        s.acc_slot[a] = A_SUPPLY
        s.slot_acc[d] = -1
        s.slot_dmg[d] = 0
        if s.party_slot == d:
            s.party_slot = -1
        g = s.slot_guest[d]
        if g >= 0:
            s.slot_guest[d] = -1
            s.slot_back[d] = 0
            s.guest_loc[g] = G_QUIET
            s.quiet.append(g)

    def _resolve_skill(self, s: State, k: int) -> None:
        ty, st = self.acc_type, self.acc_style

        def count(pred) -> int:
            return sum(1 for d, a in enumerate(s.slot_acc) if a >= 0 and not s.slot_dmg[d] and pred(a))

        s.skill_active = k
        if k == SK_MUSICAL_EAR:
            self._gain(s, count(lambda a: ty[a] == BAR), I_SKILL)
        elif k == SK_WAXED_FURNITURE:
            self._gain(s, count(lambda a: ty[a] == TABLE), I_SKILL)
        elif k == SK_QUARTERMASTER:
            self._gain(s, count(lambda a: ty[a] == DOOR), I_SKILL)
        elif k == SK_PATRON:
            self._gain(s, 2 * count(lambda a: st[a] == CULTURED), I_SKILL)
        elif k == SK_CHARMING:
            self._gain(s, 3 * count(lambda a: st[a] == FRONTIER), I_SKILL)
        elif k == SK_WORKER_ENCOURAGEMENT:
            s.coins -= self.data.encouragement_cost
            for d in range(self.ND):
                if s.dice[d] >= 0:
                    s.dice[d] = min(self.data.max_pips, s.dice[d] + 1)
        elif k in (SK_RUMORMONGER, SK_WAITING_LIST, SK_FAVORITE):
            s.skill_left = 2 if k == SK_WAITING_LIST else 1
            s.phase = P_SKILL_GUEST
            return
        elif k == SK_ENTERTAINER:
            s.phase = P_ENTERTAINER
            return
        self._end_skill(s)

    def _end_skill(self, s: State) -> None:
        s.skill_active = -1
        s.skill_left = 0
        s.phase = P_WORKER

    # ------------------------------------------------------------- phases
    def _dawn(self, s: State) -> None:
        """Dawn: mingled gossip cards resolve, weather, season effect, party preparations, welcome guests."""
        d = self.data
        # Solo Mingle (assumption): the town draws ``adventure_draws_per_dawn`` cards at random
        # from the adventure deck; each resolves for the inn and goes to the gossip deck's bottom.
        # The others stay in the adventure deck for a later dawn.
        if s.adventure:
            for c in _pop_random(s.rng, s.adventure, min(d.adventure_draws_per_dawn, len(s.adventure))):
                kind, amount = d.gossip[c].effect
                if kind == E_COINS:
                    self._gain(s, amount, I_ADVENTURE)
                elif kind == E_RENOWN:
                    for _ in range(amount):
                        self._renown_up(s)
                elif kind == E_PARTY:
                    for _ in range(amount):
                        if s.party_coins < self.level(s):
                            s.party_coins += 1
                s.gbottom.append(c)
        if not s.wdeck:
            s.wdeck = list(range(self.NW))
        w = s.wdeck.pop(_below(s.rng, len(s.wdeck)))
        s.weather = w
        card = d.weather[w]
        s.streak = s.streak + 1 if card.type == s.prev_wtype else 1
        s.prev_wtype = card.type
        season = d.seasons[s.season % len(d.seasons)]
        if (card.event or card.type in season.event_weather) and s.party_coins < self.level(s):
            s.party_coins += 1
        n = d.renown_guests[s.renown] + d.weather_modifier[card.type] * s.streak + season.guest_modifier
        bag = s.bag
        n = max(0, min(n, len(bag)))
        if n:  # _draw_guest n times
            new = _pop_random(s.rng, bag, n)
            gl = s.guest_loc
            for g in new:
                gl[g] = G_DRAWN
            s.drawn += new
        s.row, s.ctx, s.sel = -1, 0, -1
        s.worker_used = [0] * len(OPERATE)
        s.improve_used = [0, 0, 0]
        s.phase = P_TOWN

    def _start_dusk(self, s: State) -> None:
        """Return Workers: dice come back to the well; a die with no pips left goes back to the tower."""
        s.die_used[:] = self.no_dice_used
        dice = s.dice
        if 0 in dice:
            for d, p in enumerate(dice):
                if p == 0:
                    dice[d] = -1
        s.ctx, s.row = 0, -1
        s.phase = P_SEAT_GUEST

    def _host(self, s: State) -> None:
        """Seating done: 1 coin per front-facing guest plus the party bonus, then complaints."""
        bonus = 0
        pt, ty = s.party_type, self.acc_type
        # Front-facing guests: seated ones (slot_guest entries are -1 or a guest) less the back
        # facing (slot_back entries are 0 or 1, and 1 only under a guest).
        front = NUM_SLOTS - s.slot_guest.count(-1) - s.slot_back.count(1)
        if pt >= 0:
            acc, pc = s.slot_acc, s.party_coins
            for d, g in enumerate(s.slot_guest):
                if g >= 0 and ty[acc[d]] == pt:
                    bonus += pc
        self._gain(s, front, I_SEAT)
        if bonus:
            self._gain(s, bonus, I_PARTY)
        if pt >= 0:
            s.party_type = s.party_slot = -1
            if self.level(s) >= s.party_coins:
                s.party_coins = 0
        s.cq = list(s.drawn)
        s.cpos = 0
        self._run_complaints(s)

    def _run_complaints(self, s: State) -> None:
        cq, gcomp = s.cq, self.gcomp  # nothing below replaces s.cq or reads s.cpos; it is written back before any return
        cpos = s.cpos
        while cq:
            comps = gcomp[cq[0]]
            n = len(comps)
            while cpos < n or s.draw_left:
                if s.draw_left:  # a draw complaint of 2 or more goes on after a late guest was seated or declined
                    if not s.bag:
                        s.draw_left = 0
                        continue
                    s.draw_left -= 1
                    g2 = self._draw_guest(s)
                    if self.seat_slots(s, g2):
                        s.cpos = cpos
                        s.sel = g2
                        s.phase = P_LATE
                        return
                    cq.append(g2)
                    continue
                kind, arg = comps[cpos]
                cpos += 1
                if kind == C_COINS:
                    s.coins = max(0, s.coins - arg)
                elif kind == C_RENOWN:
                    s.renown = max(0, s.renown - arg)
                elif kind == C_LOSE:
                    if self._lose_slots(s, arg):
                        s.cpos = cpos
                        s.lose_type = arg
                        s.phase = P_LOSE
                        return
                elif kind == C_DRAW:  # drawn one at a time above, each late guest seated or declined before the next
                    s.draw_left = arg
            cq.pop(0)
            cpos = 0
        s.cpos = 0
        self._end_dusk(s)

    def _end_dusk(self, s: State) -> None:
        """Guest satisfaction, guests back to the bag, served gossip reshuffled, next day or season."""
        sg = s.slot_guest
        seated = NUM_SLOTS - sg.count(-1)  # entries are -1 or a guest
        unseated = len(s.drawn) + len(s.quiet)
        s.last_seated, s.last_unseated = seated, unseated
        if seated > unseated:
            self._renown_up(s)
        else:
            s.renown = max(0, s.renown - 1)
        gl, bag = s.guest_loc, s.bag
        if seated:
            for d in self.inn_view(s).occ:  # guests sit only in slots holding a token
                g = sg[d]
                if g >= 0:
                    gl[g] = G_BAG
                    bag.append(g)
            sg[:] = NO_GUESTS
            s.slot_back[:] = NOT_BACK  # back facing only under a guest
        drawn = s.drawn
        for g in drawn:
            gl[g] = G_BAG
        bag += drawn
        for g in s.quiet:
            gl[g] = G_BAG
            bag.append(g)
        bag.sort()
        s.drawn, s.quiet, s.cq, s.cpos, s.draw_left = [], [], [], 0, 0
        if s.served:  # served cards are shuffled back into the gossip deck (with the known bottom cards)
            s.gdeck = sorted(s.gdeck + s.gbottom + s.served)
            s.gbottom, s.served = [], []
        s.turn += 1
        s.day += 1
        if s.day < self.days_per_season:
            self._dawn(s)
            return
        if s.season + 1 >= self.num_seasons:
            s.over = 1
            s.phase = P_OVER
            return
        self._upkeep(s)

    def _upkeep(self, s: State) -> None:
        """End of season: discard damaged accommodations, then damage (one of choice + the dice's)."""
        for d in range(NUM_SLOTS):
            if s.slot_acc[d] >= 0 and s.slot_dmg[d]:
                self._remove_acc(s, d)
        dmg = [D_ANY]
        lv = self.level(s)
        faces = self.data.die_faces
        s.rolls = [-1, -1]
        if lv >= 2:
            v = faces[VILLAGER][_below(s.rng, len(faces[VILLAGER]))]
            s.rolls[0] = v
            if lv == 2:
                dmg += [D_ANY] * v
            else:
                p = faces[SPRITE][_below(s.rng, len(faces[SPRITE]))]
                s.rolls[1] = p
                dmg += [D_FURNITURE] * v + [D_SERVICE] * p
        s.dmg = dmg
        self._next_damage(s)

    def _next_damage(self, s: State) -> None:
        while s.dmg:
            if self._damage_slots(s, s.dmg[0]):
                s.phase = P_DAMAGE
                return
            s.dmg.pop(0)
        # Update Draw Bag, Discard Party Action Coins, Reset Weather Deck, next season.
        self._fill_bag(s)
        s.party_coins = 0
        s.season += 1
        s.day = 0
        s.wdeck = list(range(self.NW))
        self._dawn(s)

    # ------------------------------------------------------- validation
    def validate(self, s: State) -> None:
        """Check every invariant: types, ranges, each guest/token/card in exactly one place, doors
        and windows in outer slots (:meth:`placement_violations`), coins never negative, renown on its track."""
        NG, NA, NC = self.NG, self.NA, self.NC
        for name, lo, hi in (
            ("phase", 0, P_OVER), ("coins", 0, 10**9), ("renown", 0, self.track_len - 1), ("season", 0, self.num_seasons - 1),
            ("day", 0, self.days_per_season), ("turn", 0, self.total_days()), ("weather", -1, self.NW - 1),
            ("prev_wtype", -1, 2), ("streak", 0, self.total_days()), ("party_coins", 0, MAX_PARTY_COINS), ("party_type", -1, len(FURNITURE) - 1),
            ("party_slot", -1, NUM_SLOTS - 1), ("row", -1, len(OPERATE) - 1), ("ctx", 0, 2), ("sel", -1, max(NG, NA, NUM_SLOTS) - 1),
            ("skill_active", -1, self.NK - 1), ("skill_left", 0, 2), ("arrange_left", 0, max(0, self.slots - 1)), ("cpos", 0, 10), ("draw_left", 0, 10), ("lose_type", -1, len(FURNITURE) + len(SERVICES) - 1),
            ("last_seated", 0, NUM_SLOTS), ("last_unseated", 0, NG), ("earned", 0, 10**9), ("over", 0, 1),
        ):
            check_int(getattr(s, name), lo, hi, name)
        # a streak grows by one a day at most: this bound holds from a restored state to the campaign's end
        req(s.streak <= s.turn + self.total_days(), f"streak {s.streak} is more than {self.total_days()} days longer than the {s.turn} days played")
        req(isinstance(s.rng, np.random.Generator), "rng must be a numpy Generator")
        check_ints(s.slot_acc, NUM_SLOTS, -1, NA - 1, "slot_acc")
        check_ints(s.slot_dmg, NUM_SLOTS, 0, 1, "slot_dmg")
        check_ints(s.slot_guest, NUM_SLOTS, -1, NG - 1, "slot_guest")
        check_ints(s.slot_back, NUM_SLOTS, 0, 1, "slot_back")
        check_ints(s.acc_slot, NA, -2, NUM_SLOTS - 1, "acc_slot")
        check_ints(s.setup, None, 0, NA - 1, "setup")
        check_ints(s.guest_loc, NG, -4, NUM_SLOTS - 1, "guest_loc")
        for name in ("bag", "drawn", "quiet", "cq"):
            check_ints(getattr(s, name), None, 0, NG - 1, name)
        for name in ("hand", "served", "adventure", "gdeck", "gbottom"):
            check_ints(getattr(s, name), None, 0, NC - 1, name)
        check_ints(s.wdeck, None, 0, self.NW - 1, "wdeck")
        check_ints(s.income, len(INCOME_SOURCES), 0, 10**9, "income")
        req(sum(s.income) == s.earned, "income by source does not add up to the coins earned")
        req(s.adventure == sorted(s.adventure), "adventure deck must be sorted")
        check_ints(s.skill_row, self.NK, -1, self.slots - 1, "skill_row")
        check_ints(s.dice, self.ND, -1, self.data.max_pips, "dice")
        check_ints(s.die_used, self.ND, 0, 1, "die_used")
        check_ints(s.worker_used, len(OPERATE), 0, 1, "worker_used")
        check_ints(s.improve_used, 3, 0, 1, "improve_used")
        check_ints(s.dmg, None, 0, 2, "dmg")
        check_ints(s.rolls, 2, -1, 6, "rolls")
        # Accommodations: each token in exactly one place.
        for d, a in enumerate(s.slot_acc):
            if a >= 0:
                req(s.acc_slot[a] == d, f"token {a} is in slot {d} but acc_slot says {s.acc_slot[a]}")
            else:
                req(not s.slot_dmg[d] and s.slot_guest[d] < 0, f"empty slot {d} is damaged or holds a guest")
        for a, d in enumerate(s.acc_slot):
            if d >= 0:
                req(s.slot_acc[d] == a, f"acc_slot says token {a} is in slot {d}, which holds {s.slot_acc[d]}")
        req(sorted(s.setup) == [a for a in range(NA) if s.acc_slot[a] == A_SETUP] and len(set(s.setup)) == len(s.setup),
            "setup list disagrees with the tokens marked as being placed at setup")
        req((s.phase == P_SETUP) == bool(s.setup), "starting accommodations remain to place outside setup (or none during setup)")
        bad = self.placement_violations(s)
        req(not bad, f"placement restriction broken: {bad[0] if bad else ''}")
        # Guests: each token in exactly one place.
        req(s.bag == sorted(s.bag) and len(set(s.bag)) == len(s.bag), "bag must be a sorted list of distinct guests")
        req(len(set(s.drawn)) == len(s.drawn) and len(set(s.quiet)) == len(s.quiet), "drawn/quiet list a guest twice")
        for g, loc in enumerate(s.guest_loc):
            where = {G_BAG: g in s.bag, G_DRAWN: g in s.drawn, G_QUIET: g in s.quiet}
            if loc >= 0:
                req(s.slot_guest[loc] == g, f"guest {g} is in slot {loc} but the slot holds {s.slot_guest[loc]}")
                req(not any(where.values()), f"guest {g} is seated and also in a list")
            else:
                req(where.get(loc, False) and sum(where.values()) == 1 if loc != G_SUPPLY else not any(where.values()),
                    f"guest {g} is not in exactly one place (location {loc})")
        for d, g in enumerate(s.slot_guest):
            if g >= 0:
                req(s.guest_loc[g] == d, f"slot {d} holds guest {g} whose location is {s.guest_loc[g]}")
                req(self.acc_type[s.slot_acc[d]] < len(FURNITURE), f"guest {g} sits in slot {d} without furniture")
            else:
                req(not s.slot_back[d], f"slot {d} has no guest but a back-facing flag")
        for g in s.cq:
            req(s.guest_loc[g] == G_DRAWN, f"complaint queue holds guest {g} who is not an unseated drawn guest")
        # Gossip cards: each in exactly one place.
        cards = s.hand + s.served + s.adventure + s.gdeck + s.gbottom
        req(sorted(cards) == list(range(NC)), "gossip cards are not conserved (each card in exactly one place)")
        req(s.hand == sorted(s.hand) and s.gdeck == sorted(s.gdeck), "hand and gossip deck must be sorted")
        req(s.wdeck == sorted(s.wdeck) and len(set(s.wdeck)) == len(s.wdeck), "weather deck must be sorted distinct cards")
        rows = [r for r in s.skill_row if r >= 0]
        req(len(set(rows)) == len(rows), "two skills in one skill slot")
        for d in range(self.ND):
            if s.dice[d] < 0:
                req(not s.die_used[d], f"die {d} is at the tower but marked used")
        req(bool(s.over) == (s.phase == P_OVER), "over flag and phase disagree")
        if s.phase not in (P_SETUP, P_OVER):
            req(s.weather >= 0, "no weather card outside setup")
        if s.phase == P_DAMAGE:
            req(bool(s.dmg), "damage phase with no damage to assign")
        if s.phase in (P_PAMPER_GUEST, P_PAMPER_SLOT):  # Pamper is operated only with a free furniture to pamper in
            req(self._any_free_furniture(s), "pamper phase without a free furniture accommodation")
        if s.phase in (P_PAMPER_SLOT, P_SEAT_SLOT, P_LATE):
            req(0 <= s.sel < NG and s.guest_loc[s.sel] == G_DRAWN, "the selected guest is not an unseated drawn guest")
        if s.phase == P_BUY_SLOT:
            req(0 <= s.sel < NA and s.acc_slot[s.sel] == A_SUPPLY, "the token being bought is not in the supply")
        if s.phase == P_MOVE_DEST:
            req(0 <= s.sel < NUM_SLOTS and s.slot_acc[s.sel] >= 0, "the slot being moved holds no accommodation")
        if s.phase == P_LOSE:
            req(s.lose_type >= 0 and bool(s.cq), "lose phase without a complaint in progress")
        req((s.phase == P_ARRANGE) == (s.arrange_left > 0), "skill moves left outside the rearrangement (or none in it)")
        if s.phase == P_ARRANGE:
            req(len(rows) >= 2, "a rearrangement of fewer than two skills")

    # ------------------------------------------------------ hidden information
    def resample_hidden(self, s: State, observer: int, seed: int | None) -> State:
        """A copy with every hidden part redrawn. The bag's, weather deck's and gossip deck's
        contents are public (kept sorted); only the future draws are hidden, so the Generator is
        reseeded from ``seed``."""
        c = self.clone(s)
        c.rng = make_rng(int(make_rng(seed).integers(2**63)))
        return c

    def inn_value(self, s: State) -> int:
        """What the inn's accommodations would sell for: half of each token's cost, rounded down
        (damaged ones too: they can be sold)."""
        cost = self.acc_cost
        return sum(cost[a] // 2 for a in s.slot_acc if a >= 0)

    def worth(self, s: State) -> int:
        """The score: coins plus :meth:`inn_value` (so selling a token never changes it)."""
        return s.coins + self.inn_value(s)

    def scores(self, s: State) -> list[int]:
        """The innkeeper's worth: coins plus the inn's sale value (:meth:`worth`)."""
        return [self.worth(s)]
