"""Mythsgate rules engine: plain-data state, legal actions and a step function.

No gymnasium/pettingzoo here. Seats: 0 is the Great Invoker, ``1 + h`` is hero ``h``. The state is
a dataclass of ints and lists that copies cheaply and turns into JSON and back; all randomness comes
from the state's own seeded Generator. ``docs/rules/mythsgate.md`` quotes every rule passage with the
code and tests that implement it; comments here name the rule.

The shared mechanics (legal-action cache, legality checks, JSON, clones) are
:class:`~mythzoo.envs.core.rules_base.RulesBase`'s; a decision goes to the handler of its action
range (``act_inv_<range>`` for the Invoker's table, ``act_hero_<range>`` for the heroes'), which
checks the phase where one range serves several. Flow: pending follow-up decisions (pushes, minion
moves, the Invoker's reward choices after a combat) wait in ``State.queue``;
:meth:`MythsgateRules._advance` pops them until one needs a decision, then resumes the side whose
turn it is. The state holds the game and the legal-action cache only: observers keep their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from mythzoo.envs.core.actions import ActionTable
from mythzoo.envs.core.rng import make_rng
from mythzoo.envs.core.rules_base import Handler, RulesBase, build_handlers, state_fields
from mythzoo.envs.core.validate import check_ints, check_rows, is_int, req
from mythzoo.envs.mythsgate.actions import (
    MAX_HEROES,
    NUM_MINIONS,
    TRADE_TRANSFERS,
    VIEW,
    build_hero_table,
    build_invoker_table,
)
from mythzoo.envs.mythsgate.gamedata import (
    LOC_BOOK,
    LOC_ENCOUNTER,
    LOC_MATERIAL,
    PRINTED,
    GameData,
)

INVOKER = 0
LEAGUE = 1
SETUP = 2
# decision phases
(P_SACRIFICE, P_INV_MAIN, P_CHOOSE, P_HERO_MAIN, P_TRADE, P_COMMIT, P_DRAW, P_KRAKEN, P_MANTICORE, P_PLACE,
 P_DRAGON, P_CYCLOPS, P_TRACK, P_TOKEN, P_PWYLL, P_DISCARD, P_OVER) = range(17)
PHASE_NAMES = ("sacrifice", "invoker_main", "choose_hero", "hero_main", "trade", "commit", "draw", "kraken", "manticore",
               "place", "dragon", "cyclops", "track", "token", "pwyll", "discard", "over")
# queue tasks
Q_PLACE, Q_TRACK, Q_TOKEN, Q_END_HERO_TURN = 1, 2, 3, 4
# place modes: where the piece may go
PL_ADJ, PL_ADJ_OUT, PL_INN, PL_ANY_OUT = 0, 1, 2, 3
PL_NAMES = ("adjacent", "adjacent outside the Castle", "an inn", "any space outside the Castle")
PIECE_HERO, PIECE_MINION = 0, 1
FURY, DARK, HASTE, REGEN = range(4)
WEAPON, AMULET, BOOTS, PACK = range(4)
YELLOW, RED, GREEN = range(3)
ICON_F, ICON_P, ICON_CHAINS, ICON_DRAW = 1, 2, 3, 4
FURY_BONUS = 2
HOOD, PWYLL, BEOWULF, CIRCE, TIY = range(5)
DRAW_ICON_CARDS = 3
HERO_NAMES = ("hood", "pwyll", "beowulf", "circe", "tiy")


@dataclass
class State:
    """The whole game as plain data. Piles are lists, top = end."""

    num_heroes: int  # heroes in the League (1-5); players = 1 + num_heroes
    chars: list[int]  # hero -> character (0 Hood .. 4 Tiy)
    rng: np.random.Generator  # the game's generator (shuffles, the Kraken's and Manticore's views); JSON: its bit generator state
    # the Great Invoker
    inv_hand: list[int] = field(default_factory=list)  # invoker card ids, sorted
    inv_deck: list[int] = field(default_factory=list)  # his draw pile, card ids, top = end (hidden from the League)
    inv_discard: list[int] = field(default_factory=list)  # his discard pile, card ids (public)
    inv_aside: list[int] = field(default_factory=list)  # rune cards set aside (Setup F)
    inv_removed: list[int] = field(default_factory=list)  # killed minions' cards: removed from the game
    inv_hand_known: list[int] = field(default_factory=list)  # cards of his hand the League saw go there, sorted
    inv_left: int = 0  # actions left this turn
    tokens: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # ability tokens [fury, dark_power, haste, regenerate]: 1 = flipped (available)
    tracks: list[int] = field(default_factory=lambda: [0, 0])  # board markers: [Strength track, Power track] steps advanced
    gems: int = 0  # gems stolen from the Treasure Chamber (on the Portal)
    phoenix_used: int = 0  # 1 once the Phoenix has taken its card back from the discard pile (once per game)
    inv_known: int = 0  # top cards of the Power deck the Invoker has seen (Manticore)
    # minions (by minion index 0..11)
    m_space: list[int] = field(default_factory=lambda: [-1] * NUM_MINIONS)  # space of each minion, -1 not in play
    m_lives: list[int] = field(default_factory=lambda: [0] * NUM_MINIONS)  # lives left of each minion in play
    m_f: list[int] = field(default_factory=lambda: [0] * NUM_MINIONS)  # Strength added by +3F cards while in play
    m_p: list[int] = field(default_factory=lambda: [0] * NUM_MINIONS)  # Power added by +1P cards while in play
    # heroes
    h_space: list[int] = field(default_factory=list)  # space of each hero, -1 before it is placed
    h_lives: list[int] = field(default_factory=list)  # life tokens each hero holds
    h_hand: list[list[int]] = field(default_factory=list)  # counts per Power card kind
    h_known: list[list[int]] = field(default_factory=list)  # of these, the cards the Invoker knows are there
    h_mats: list[list[int]] = field(default_factory=list)  # per hero, counts per material type
    h_armour: list[list[int]] = field(default_factory=list)  # per hero, 1 per piece forged: [weapon, amulet, boots, pack]
    h_books: list[list[int]] = field(default_factory=list)  # location card ids, sorted
    h_done: list[int] = field(default_factory=list)  # played this League turn
    h_order: list[int] = field(default_factory=list)  # the League's turn order, agreed before its turn
    h_boots: list[int] = field(default_factory=list)  # holds a -1 Boots token
    h_round_f: list[int] = field(default_factory=list)  # Strength from the hero's +2F icons this round
    h_round_p: list[int] = field(default_factory=list)  # Power from the hero's +P icons this round
    h_chain: list[int] = field(default_factory=list)  # Power taken from the hero by Chains icons this round
    cur_hero: int = -1  # the hero whose League turn is under way, -1 none
    h_left: int = 0  # actions the current hero has left this turn
    h_taken: int = 0  # actions the current hero has taken this turn
    # table
    power_deck: list[int] = field(default_factory=list)  # Power card kinds, top = end (hidden)
    power_discard: list[int] = field(default_factory=list)  # Power card kinds (public)
    loc_deck: list[list[int]] = field(default_factory=lambda: [[], [], []])  # location card ids per deck (town, mine, forest), top = end
    loc_discard: list[list[int]] = field(default_factory=lambda: [[], [], []])  # per deck, as loc_deck (public)
    market: list[int] = field(default_factory=list)  # counts per material type on the market
    supply: list[int] = field(default_factory=list)  # counts per material type left in the supply
    life_supply: int = 0  # life tokens left in the supply
    boots_supply: int = 0  # -1 Boots tokens left in the supply
    ban3: int = 0  # 1: an X3 card forbids the League Power 3 cards until his next turn
    ban4: int = 0  # 1: an X4 card forbids the League Power 4 cards until his next turn
    inv_round_f: int = 0  # Strength from his +2F icons this round
    inv_round_p: int = 0  # Power from his +P icons this round
    inv_chain: int = 0  # Power taken from his minions by the heroes' Chains icons this round
    balrog_bonus: int = 0  # 1: the Balrog took a life this round (+1 Strength to his other minions)
    # flow
    round: int = 0  # rounds completed
    turn_side: int = SETUP  # whose turn: 0 the Invoker, 1 the League, 2 setup
    phase: int = P_PLACE  # the decision awaited, an index of PHASE_NAMES (-1 between decisions)
    actor: int = 1  # the player to decide: 0 the Invoker, 1 + h hero h
    winner: int = -1  # -1 none, 0 the Invoker, 1 the League
    over: int = 0  # 1 once the game has ended
    queue: list[list[int]] = field(default_factory=list)  # tasks to resolve in order: [1 place, piece, index, mode, chooser, origin], [2 track], [3 token], [4 end of the hero's turn]
    pl: list[int] = field(default_factory=list)  # current place task [piece, who, mode, chooser, origin]
    ab_minion: int = -1  # the minion whose ability (Dragon, Cyclops) is being resolved, -1 none
    mt_view: int = 0  # Power deck cards the Manticore is looking at
    pw_cards: list[int] = field(default_factory=list)  # the two location cards Pwyll chooses between
    tr_left: int = 0  # transfers left in the current trade
    # combat
    cb_on: int = 0  # 1 while a combat is under way
    cb_att: int = 0  # 0 the Invoker started it, 1 the hero
    cb_hero: int = -1  # the hero fighting, -1 none
    cb_minion: int = -1  # the minion fought, -1 none (or an encounter)
    cb_enc: int = -1  # the encounter card fought (location card id), -1 none
    cb_space: int = -1  # the space of the combat
    cb_hcards: list[int] = field(default_factory=list)  # Power card kinds the hero committed
    cb_icards: list[int] = field(default_factory=list)  # Power card kinds drawn for the Invoker's side
    cb_kview: list[int] = field(default_factory=list)  # Power cards the Kraken is looking at
    cb_kpicks: int = 0  # cards the Kraken may still take from them
    cb_by: int = 0  # yellow book used
    cb_br: int = 0  # red book used
    cb_fury: int = 0  # 1: the Fury token is used in this combat (+2 Strength)
    cb_dark: int = 0  # 1: the dark power token is used in this combat (+1 Power)
    cb_enc_f: int = 0  # Strength an encounter's own +2F icons give it in this combat
    cb_enc_chain: int = 0  # Power the hero's Chains icons take from the encounter in this combat
    decisions: int = 0  # decisions made so far in the game
    # the legal-action cache (RulesBase): never serialized nor compared; code that edits a state
    # from outside the rules sets it to None
    legal: list[int] | None = field(default=None, compare=False, repr=False)


DERIVED_FIELDS = ("legal",)
STATE_FIELDS = state_fields(State, DERIVED_FIELDS)
INT_FIELDS = tuple(f.name for f in fields(State) if f.type in ("int", int))


class MythsgateRules(RulesBase):
    """Static tables for one data set and hero count; every method takes the state it works on.

    Two action tables, one per role: ``inv_table`` when the Invoker decides, ``hero_table`` when a
    hero does (``table_for``); each range of each has its handler (``act_inv_<range>``,
    ``act_hero_<range>``)."""

    State = State
    STATE_FIELDS = STATE_FIELDS
    DERIVED_FIELDS = DERIVED_FIELDS
    PHASE_NAMES = PHASE_NAMES

    def __init__(self, gd: GameData, num_heroes: int, characters: list[int] | None = None):
        if not isinstance(num_heroes, int) or isinstance(num_heroes, bool) or not 1 <= num_heroes <= MAX_HEROES:
            raise ValueError(f"Mythsgate is for 1-5 heroes; num_heroes={num_heroes!r}")
        if characters is None:
            characters = list(range(num_heroes))
        if (not isinstance(characters, (list, tuple)) or len(characters) != num_heroes or len(set(characters)) != num_heroes
                or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 5 for c in characters)):
            raise ValueError(f"characters must list {num_heroes} distinct character indices 0-4 (0 Hood, 1 Pwyll, 2 Beowulf, 3 Circe, 4 Tiy), got {characters!r}")
        self.gd = gd
        self.k = num_heroes
        self.num_players = 1 + num_heroes
        self.chars = list(characters)
        self.S, self.M, self.K = gd.num_spaces, gd.num_materials, gd.num_kinds
        self.inv_table = build_invoker_table(gd)
        self.hero_table = build_hero_table(gd)
        o = self.inv_table.offset
        self.I_SAC, self.I_ENDSAC, self.I_MOVE, self.I_ATT = o("sacrifice"), o("end_sacrifice"), o("move_minions"), o("attack")
        self.I_PF, self.I_PP, self.I_X3, self.I_X4, self.I_TEL = o("card_plus_f"), o("card_plus_p"), o("card_x3"), o("card_x4"), o("card_teleport")
        self.I_INV, self.I_AB, self.I_FURY, self.I_DARK, self.I_HASTE, self.I_REGEN = o("invoke"), o("ability"), o("token_fury"), o("token_dark_power"), o("token_haste"), o("token_regenerate")
        self.I_END, self.I_DRAW, self.I_PICK, self.I_KEEP, self.I_PLACE = o("end_turn"), o("draw"), o("pick_card"), o("keep_all"), o("place")
        self.I_PHERO, self.I_CYC, self.I_TRACK, self.I_FLIP, self.I_DECL = o("pick_hero"), o("cyclops"), o("track"), o("flip"), o("decline")
        o = self.hero_table.offset
        self.H_CHOOSE, self.H_MOVE, self.H_EXP, self.H_EXP2, self.H_ATT = o("choose_hero"), o("move"), o("explore"), o("explore_two"), o("attack")
        self.H_REST, self.H_PC, self.H_MARKET, self.H_FORGE, self.H_HEAL = o("rest"), o("power_centre"), o("market"), o("forge"), o("heal")
        self.H_TRADE, self.H_GIVE, self.H_TAKE, self.H_ENDTR, self.H_BOOK = o("trade"), o("give"), o("take"), o("end_trade"), o("use_book")
        self.H_END, self.H_COMMIT, self.H_FIGHT, self.H_PLACE, self.H_PICK, self.H_DISC = o("end_turn"), o("commit"), o("fight"), o("place"), o("pick_card"), o("discard")
        self.num_actions = [self.inv_table.n] + [self.hero_table.n] * num_heroes
        self.table = self.inv_table  # RulesBase's default table (the seat to move decides: table_for)
        self.inv_handlers = build_handlers(self, self.inv_table, "act_inv_")
        self.hero_handlers = build_handlers(self, self.hero_table, "act_hero_")
        self.handlers = self.inv_handlers
        # derived tables
        self.minion = [gd.invoker_cards[c] for c in gd.minion_cards]
        self.card_minion = {c: m for m, c in enumerate(gd.minion_cards)}  # invoker card id -> minion index
        self.m_ability = [mc.ability for mc in self.minion]
        self.effect_cards = {e: [c.cid for c in gd.invoker_cards if not c.minion and c.effect == e] for e in ("+3F", "+1P", "X3", "X4", "teleport")}
        self.card_effect = [("" if c.minion else c.effect) for c in gd.invoker_cards]
        self.value = [v for v, _ in gd.power_kinds]
        self.icon = [ic for _, ic in gd.power_kinds]
        self.heroes = [gd.heroes[c] for c in self.chars]
        self.hero_ability = list(self.chars)  # character index doubles as ability id
        self.has_hood = HOOD in self.chars
        self.tiy = self.chars.index(TIY) if TIY in self.chars else -1
        self.adj = gd.adj
        self.adj_out = tuple(tuple(x for x in a if not gd.castle[x]) for a in gd.adj)
        self.out_spaces = tuple(i for i in range(self.S) if not gd.castle[i])
        self.deck_of = tuple(q if q < 3 else -1 for q in gd.quadrant)
        self.track_bonus = [[sum(1 for b in gd.track_bonus_at[t] if lvl >= b) for lvl in range(gd.track_length[t] + 1)] for t in range(2)]
        self.loc = gd.location_cards
        self.inv_card_count = len(gd.invoker_cards)
        self.cyc_off = self.I_CYC
        # legality tables (speed): action ids per space, card -> minion (-1 none), basic materials
        self.move_ids = tuple(tuple(self.H_MOVE + x for x in self.adj[sp]) for sp in range(self.S))
        self.card_minion_list = [self.card_minion.get(c, -1) for c in range(len(gd.invoker_cards))]
        self.minion_lives = [mc.lives for mc in self.minion]
        self.phoenix_cards = frozenset(c for c, m in self.card_minion.items() if self.m_ability[m] == "phoenix")
        self.basic_types = tuple(t for t in range(self.M) if gd.basic[t])
        self.forge_costs = [[tuple((t, c) for t, c in enumerate(self.heroes[h].costs[p]) if c) for p in range(4)] for h in range(num_heroes)]
        self.space_kind = list(gd.kind)
        self.book_color = [c.color for c in self.loc]

    # ------------------------------------------------------------------ setup
    def initial_state(self, seed: int | None) -> State:
        """Setup A-G (the heroes' choice of inn, G, is the first decisions of the game)."""
        gd, k, K, M = self.gd, self.k, self.K, self.M
        rng = make_rng(seed)
        s = State(num_heroes=k, chars=list(self.chars), rng=rng)
        # B) location decks shuffled
        for d in range(3):
            ids = [c.gid for c in self.loc if c.deck == d]
            s.loc_deck[d] = [ids[i] for i in rng.permutation(len(ids))]
        # C) resources by type; one of each basic type on the market
        s.supply = list(gd.material_counts)
        s.market = [0] * M
        for t in range(M):
            if gd.basic[t]:
                s.supply[t] -= 1
                s.market[t] = 1
        # D) the 10 gems in the Treasure Chamber (gems stolen: 0)
        # E) each hero: character, armour board, one life, 3 Power 2 and 2 Power 3 cards
        pool = [kk for kk in range(K) for _ in range(gd.power_counts[kk])]
        for h in range(k):
            hand = list(gd.starting_hand)
            for kk in range(K):
                for _ in range(hand[kk]):
                    pool.remove(kk)
            s.h_hand.append(hand)
            s.h_known.append(list(hand))  # Setup E: the starting hand is public
        s.power_deck = [pool[i] for i in rng.permutation(len(pool))]
        s.h_space = [-1] * k
        s.h_lives = [gd.hero_lives_start] * k
        s.h_mats = [[0] * M for _ in range(k)]
        s.h_armour = [[0] * 4 for _ in range(k)]
        s.h_books = [[] for _ in range(k)]
        s.h_done = [0] * k
        s.h_boots = [0] * k
        s.h_round_f = [0] * k
        s.h_round_p = [0] * k
        s.h_chain = [0] * k
        s.life_supply = PRINTED["life_tokens"] - k * gd.hero_lives_start
        s.boots_supply = PRINTED["boots_tokens"]
        # F) the Invoker's deck, rune cards (0/3/6) set aside; ability tokens black-and-white side up
        s.inv_aside = sorted(c.cid for c in gd.invoker_cards if c.rune >= 0)
        deck = [c.cid for c in gd.invoker_cards if c.rune < 0]
        while True:  # starting hand (assumption): redealt until it holds the data's number of minions
            order = [deck[i] for i in rng.permutation(len(deck))]
            hand = order[-gd.inv_starting_hand:]
            if sum(self.gd.invoker_cards[c].minion for c in hand) >= gd.inv_starting_minions:
                break
        s.inv_deck = order[: len(order) - gd.inv_starting_hand]
        s.inv_hand = sorted(hand)
        # G) each hero places its token in one of the two inns (a decision each, hero_0 first)
        s.turn_side = SETUP
        s.queue = [[Q_PLACE, PIECE_HERO, h, PL_INN, 1 + h, -1] for h in range(k)]
        s.phase = -1
        self._advance(s)
        s.legal = self._compute_legal(s)
        return s

    # ------------------------------------------------------------- queries
    def turns_played(self, s: State) -> int:
        """Rounds completed (the env's ``max_rounds`` caps these)."""
        return s.round

    def minions_in_play(self, s: State) -> list[int]:
        return [m for m in range(NUM_MINIONS) if s.m_space[m] >= 0]

    def hand_max(self, s: State, h: int) -> int:
        return self.heroes[h].hand + (self.gd.piece_amount[PACK] if s.h_armour[h][PACK] else 0)

    def hero_level(self, s: State, h: int) -> int:
        """Actions a hero takes in its turn (boots level), before the -1 Boots token and green books."""
        return self.heroes[h].boots + (self.gd.piece_amount[BOOTS] if s.h_armour[h][BOOTS] else 0)

    def hero_max_power(self, s: State, h: int) -> int:
        """Most Power cards hero ``h`` may commit in the current combat."""
        gd = self.gd
        return (self.heroes[h].power + (gd.piece_amount[AMULET] if s.h_armour[h][AMULET] else 0)
                + (gd.book_effect[RED] if s.cb_br and s.cb_hero == h else 0) + s.h_round_p[h] - s.h_chain[h])

    def hero_strength(self, s: State, h: int) -> int:
        """Hero ``h``'s strength in the current combat before its cards."""
        gd = self.gd
        return (self.heroes[h].strength + (gd.piece_amount[WEAPON] if s.h_armour[h][WEAPON] else 0)
                + (gd.book_effect[YELLOW] if s.cb_by and s.cb_hero == h else 0) + s.h_round_f[h])

    def minion_strength(self, s: State, m: int) -> int:
        """Minion ``m``'s Strength with every bonus (before cards and the Fury token)."""
        return (self.minion[m].strength + s.m_f[m] + self.track_bonus[0][s.tracks[0]] + s.inv_round_f
                + (s.balrog_bonus if self.m_ability[m] != "balrog" else 0))

    def minion_power(self, s: State, m: int) -> int:
        """Power cards minion ``m`` draws in a combat (before the Dark Power token)."""
        return max(0, self.minion[m].power + s.m_p[m] + self.track_bonus[1][s.tracks[1]] + s.inv_round_p - s.inv_chain)

    def invoker_strength(self, s: State) -> int:
        """The strength of the hero's opponent in the current combat (a minion, or an encounter, which
        is the realm's, not the Invoker's: none of his round bonuses) before its cards."""
        if s.cb_minion >= 0:
            return self.minion_strength(s, s.cb_minion) + FURY_BONUS * s.cb_fury
        return self.loc[s.cb_enc].strength + s.cb_enc_f

    def invoker_draws(self, s: State) -> int:
        """Power cards drawn for the hero's opponent in the current combat."""
        if s.cb_minion >= 0:
            return self.minion_power(s, s.cb_minion) + s.cb_dark
        return max(0, self.loc[s.cb_enc].power - s.cb_enc_chain)

    def combat_totals(self, s: State) -> tuple[int, int]:
        """(hero total, Invoker total) of the combat in progress with the cards played so far."""
        v = self.value
        return (self.hero_strength(s, s.cb_hero) + sum(v[c] for c in s.cb_hcards),
                self.invoker_strength(s) + sum(v[c] for c in s.cb_icards))

    def scores(self, s: State) -> list[int]:
        """Gems: stolen (the Invoker) and still in the Treasure Chamber (each hero)."""
        return [s.gems] + [PRINTED["gems"] - s.gems] * self.k

    def _can_forge(self, s: State, h: int) -> bool:
        sp = s.h_space[h]
        if self.gd.kind[sp] == "forge" or self.chars[h] == TIY:
            return True
        t = self.tiy
        return t >= 0 and s.h_space[t] == sp

    # ------------------------------------------------------------ legality
    def _compute_legal(self, s: State) -> list[int]:
        if s.over:
            return []
        ph = s.phase
        if ph == P_INV_MAIN:
            return self._inv_main_legal(s)
        if ph == P_HERO_MAIN:
            return self._hero_main_legal(s)
        if ph == P_PLACE:
            base = self.I_PLACE if s.actor == 0 else self.H_PLACE
            return [base + x for x in self._place_cands(s, s.pl)]
        if ph == P_COMMIT:
            return self._commit_legal(s)
        if ph == P_DRAW:
            out = []
            if s.cb_minion >= 0:
                if s.tokens[FURY] and not s.cb_fury:
                    out.append(self.I_FURY)
                if s.tokens[DARK] and not s.cb_dark:
                    out.append(self.I_DARK)
            out.append(self.I_DRAW)
            return sorted(out)
        if ph == P_SACRIFICE:
            out = [self.I_SAC + m for m in range(NUM_MINIONS) if s.m_space[m] >= 0 and self.gd.castle_adjacent[s.m_space[m]]]
            return out + [self.I_ENDSAC]
        if ph == P_CHOOSE:
            a = s.actor - 1
            return sorted(self.H_CHOOSE + (h - a) % self.k for h in range(self.k) if not s.h_done[h] and h not in s.h_order)
        if ph == P_TRADE:
            return self._trade_legal(s)
        if ph == P_KRAKEN:
            return [self.I_PICK + i for i in range(len(s.cb_kview))]
        if ph == P_MANTICORE:
            return [self.I_PICK + i for i in range(s.mt_view)] + [self.I_KEEP]
        if ph == P_DRAGON:
            sp = s.m_space[s.ab_minion]
            return [self.I_PHERO + h for h in range(self.k) if s.h_space[h] == sp and s.h_lives[h] > 0]
        if ph == P_CYCLOPS:
            sp = s.m_space[s.ab_minion]
            M = self.M
            return [self.I_CYC + h * M + t for h in range(self.k) if s.h_space[h] == sp for t in range(M) if self.gd.basic[t] and s.h_mats[h][t]]
        if ph == P_TRACK:
            return [self.I_TRACK + t for t in range(2) if s.tracks[t] < self.gd.track_length[t]] + [self.I_DECL]
        if ph == P_TOKEN:
            return [self.I_FLIP + t for t in range(4) if not s.tokens[t]] + [self.I_DECL]
        if ph == P_PWYLL:
            return [self.H_PICK + i for i in range(len(s.pw_cards))]
        if ph == P_DISCARD:
            h = s.actor - 1
            return [self.H_DISC + kk for kk in range(self.K) if s.h_hand[h][kk]]
        raise AssertionError(f"unknown phase {ph}")

    def _inv_main_legal(self, s: State) -> list[int]:
        out = []
        space = s.m_space
        inplay = [m for m in range(NUM_MINIONS) if space[m] >= 0]
        hand = s.inv_hand
        if s.inv_left > 0:
            if inplay:
                out.append(self.I_MOVE)
            k = self.k
            h_space, h_lives = s.h_space, s.h_lives
            att = self.I_ATT
            for m in inplay:
                sp = space[m]
                if sp in h_space:
                    for h in range(k):
                        if h_space[h] == sp and h_lives[h] > 0:
                            out.append(att + m * MAX_HEROES + h)
            eff = self.card_effect
            held = {eff[c] for c in hand}
            if inplay:
                if "+3F" in held:
                    out.extend([self.I_PF + m for m in inplay])
                if "+1P" in held:
                    out.extend([self.I_PP + m for m in inplay])
                if "teleport" in held:
                    out.extend([self.I_TEL + m for m in inplay])
            if "X3" in held and not s.ban3:
                out.append(self.I_X3)
            if "X4" in held and not s.ban4:
                out.append(self.I_X4)
            cm, lives, life = self.card_minion_list, self.minion_lives, s.life_supply
            for c in hand:
                m = cm[c]
                if m >= 0 and life >= lives[m]:
                    out.append(self.I_INV + m)
            ab = self.I_AB
            for m in inplay:
                if self._ability_ok(s, m):
                    out.append(ab + m)
        if s.tokens[HASTE]:
            out.append(self.I_HASTE)
        if s.tokens[REGEN] and s.life_supply > 0:
            out.extend([self.I_REGEN + m for m in inplay if s.m_lives[m] < self.minion_lives[m]])
        # the first invoke is compulsory (ASSUMPTION): while no minion has ever been in play and he can
        # invoke one, his turn cannot end; the League's "no minions in play" then means minions beaten
        if inplay or not any(self.I_INV <= a < self.I_INV + NUM_MINIONS for a in out):
            out.append(self.I_END)
        out.sort()
        return out

    def _ability_ok(self, s: State, m: int) -> bool:
        ab = self.m_ability[m]
        if ab == "hippogriff":
            return True
        if ab == "phoenix":
            if s.phoenix_used:
                return False
            ph = self.phoenix_cards
            for c in s.inv_discard:
                if c in ph:
                    return True
            return False
        if ab == "cyclops":
            sp = s.m_space[m]
            if sp not in s.h_space:
                return False
            for h in range(self.k):
                if s.h_space[h] == sp:
                    mats = s.h_mats[h]
                    for t in self.basic_types:
                        if mats[t]:
                            return True
            return False
        if ab == "dragon":
            sp = s.m_space[m]
            if sp not in s.h_space:
                return False
            for h in range(self.k):
                if s.h_space[h] == sp and s.h_lives[h] > 0:
                    return True
            return False
        if ab == "manticore":
            return bool(s.power_deck or s.power_discard)
        return False  # balrog, hydra, kraken: triggered in combat

    def _hero_main_legal(self, s: State) -> list[int]:
        h = s.cur_hero
        sp = s.h_space[h]
        kind = self.space_kind[sp]
        if s.h_lives[h] == 0:  # "It must use its next action to gain a life": no pass, no other action
            if s.life_supply > 0 and kind == "inn":
                return [self.H_REST]
            return [self.H_END]  # no life token left to take: it waits at the inn
        out = []
        books = s.h_books[h]
        if books and s.h_taken == 0:
            color = self.book_color
            for c in books:
                if color[c] == GREEN:
                    out.append(self.H_BOOK + GREEN)
                    break
        if s.h_left > 0:
            out.extend(self.move_ids[sp])
            d = self.deck_of[sp]
            if d >= 0:
                n = len(s.loc_deck[d]) + len(s.loc_discard[d])
                if n:
                    out.append(self.H_EXP)
                if n >= 2 and self.chars[h] == PWYLL and s.h_left >= 2:  # this action and the next
                    out.append(self.H_EXP2)
            space = s.m_space
            if sp in space:
                att = self.H_ATT
                out.extend([att + m for m in range(NUM_MINIONS) if space[m] == sp])
            if kind == "inn":
                if s.h_lives[h] < self.gd.hero_lives_max and s.life_supply > 0:
                    out.append(self.H_REST)
            elif kind == "power_centre":
                if s.power_deck or s.power_discard:
                    out.append(self.H_PC)
            elif kind == "market":
                M = self.M
                mats = s.h_mats[h]
                market = s.market
                for a in range(M):
                    if mats[a]:
                        base = self.H_MARKET + a * M
                        out.extend([base + b for b in range(M) if b != a and market[b]])
            chars = self.chars
            tiy = self.tiy
            h_space = s.h_space
            if kind == "forge" or chars[h] == TIY or (tiy >= 0 and h_space[tiy] == sp):
                mats = s.h_mats[h]
                arm = s.h_armour[h]
                costs = self.forge_costs[h]
                for p in range(4):
                    if not arm[p]:
                        for t, c in costs[p]:
                            if mats[t] < c:
                                break
                        else:
                            out.append(self.H_FORGE + p)
            k = self.k
            if k > 1:
                if chars[h] == CIRCE and s.life_supply > 0:
                    lmax = self.gd.hero_lives_max
                    for r in range(k):
                        o = (h + r) % k
                        if h_space[o] == sp and s.h_lives[o] < lmax:
                            out.append(self.H_HEAL + r)
                if h_space.count(sp) > 1:
                    h_mats = s.h_mats
                    if any(h_mats[h]) or any(any(h_mats[o]) for o in range(k) if o != h and h_space[o] == sp):
                        out.append(self.H_TRADE)
            elif chars[h] == CIRCE and s.life_supply > 0 and s.h_lives[h] < self.gd.hero_lives_max:
                out.append(self.H_HEAL)
        out.append(self.H_END)
        out.sort()
        return out

    def _trade_legal(self, s: State) -> list[int]:
        h, k, M = s.cur_hero, self.k, self.M
        out = []
        sp = s.h_space[h]
        for r in range(1, k):
            o = (h + r) % k
            if s.h_space[o] != sp:
                continue
            for t in range(M):
                if s.h_mats[h][t]:
                    out.append(self.H_GIVE + r * M + t)
                if s.h_mats[o][t]:
                    out.append(self.H_TAKE + r * M + t)
        out.append(self.H_ENDTR)
        return sorted(out)

    def _commit_legal(self, s: State) -> list[int]:
        h = s.cb_hero
        out = []
        if not s.cb_hcards:
            books = {self.loc[c].color for c in s.h_books[h]}
            if YELLOW in books and not s.cb_by:
                out.append(self.H_BOOK + YELLOW)
            if RED in books and not s.cb_br:
                out.append(self.H_BOOK + RED)
        commits = []
        if len(s.cb_hcards) < self.hero_max_power(s, h):
            for kk, c in enumerate(s.h_hand[h]):
                if c and not (s.ban3 and self.value[kk] == 3) and not (s.ban4 and self.value[kk] == 4):
                    commits.append(self.H_COMMIT + kk)
        out.extend(commits)
        if s.cb_hcards or not commits:  # one card at least, when the hero can play one
            out.append(self.H_FIGHT)
        return sorted(out)

    def _place_cands(self, s: State, pl: list[int]) -> list[int]:
        piece, who, mode = pl[0], pl[1], pl[2]
        origin = pl[4] if len(pl) > 4 and pl[4] >= 0 else (s.h_space[who] if piece == PIECE_HERO else s.m_space[who])
        if mode == PL_ADJ:
            return list(self.adj[origin])
        if mode == PL_ADJ_OUT:
            return list(self.adj_out[origin])
        if mode == PL_INN:
            return list(self.gd.inns)
        return list(self.out_spaces)

    # ----------------------------------------------------------------- apply
    # ``apply`` (RulesBase) checks legality, then calls the decoded range's handler: ``act_inv_<range>``
    # for the Invoker's table, ``act_hero_<range>`` for the heroes' (see ``handlers_for``). A handler
    # changes the state for one decision; ``_after_action`` then runs the automatic steps.
    def current_player(self, s: State) -> int:
        """Seat to move (0 the Invoker, 1+h hero h), -1 once the game is over."""
        return -1 if s.over else s.actor

    def table_for(self, s: State) -> ActionTable:
        """The Invoker's table when he decides, the heroes' table otherwise."""
        return self.inv_table if s.actor == 0 else self.hero_table

    def handlers_for(self, s: State) -> list[tuple[Handler, int]]:
        """The dispatch list of the table of ``table_for``."""
        return self.inv_handlers if s.actor == 0 else self.hero_handlers

    def _after_action(self, s: State) -> None:
        """Count the decision, run the automatic steps up to the next decision, then its legal actions."""
        s.decisions += 1
        if not s.over:
            self._advance(s)
        s.legal = self._compute_legal(s)

    def _illegal_message(self, s: State, action: Any) -> str:
        # this game's messages have always said "illegal" (scripts and tests look for it)
        return "illegal " + super()._illegal_message(s, action)

    # ---- the Invoker's decisions (P_INV_MAIN unless the handler says otherwise)
    def _inv_spend(self, s: State) -> None:
        """An action of the Invoker's turn: one fewer left; ``_advance`` resumes the turn unless the
        action set a follow-up decision."""
        s.inv_left -= 1
        s.phase = -1

    def act_inv_sacrifice(self, s: State, m: int) -> None:
        """Start of his turn: minion ``m``, next to the Castle, gives a life for a gem."""
        self._sacrifice(s, m)

    def act_inv_end_sacrifice(self, s: State, arg: int) -> None:
        """Start of his turn: no (more) sacrifices."""
        s.phase = P_INV_MAIN

    def act_inv_move_minions(self, s: State, arg: int) -> None:
        """Action: every minion in play moves to an adjacent space, one ``place`` decision each (minion order)."""
        self._inv_spend(s)
        s.queue[0:0] = [[Q_PLACE, PIECE_MINION, m, PL_ADJ_OUT, 0, -1] for m in range(NUM_MINIONS) if s.m_space[m] >= 0]

    def act_inv_attack(self, s: State, arg: int) -> None:
        """Action: minion ``arg // MAX_HEROES`` attacks hero ``arg % MAX_HEROES`` on its space."""
        m, h = divmod(arg, MAX_HEROES)
        self._inv_spend(s)
        self._start_combat(s, 0, h, m, -1)

    def act_inv_card_plus_f(self, s: State, m: int) -> None:
        """Action: a +3F card; minion ``m`` gains +3 Strength while in play."""
        self._inv_spend(s)
        self._discard_effect(s, "+3F")
        s.m_f[m] += 3

    def act_inv_card_plus_p(self, s: State, m: int) -> None:
        """Action: a +1P card; minion ``m`` gains +1 Power while in play."""
        self._inv_spend(s)
        self._discard_effect(s, "+1P")
        s.m_p[m] += 1

    def act_inv_card_x3(self, s: State, arg: int) -> None:
        """Action: an X3 card; no Power 3 cards for the League until his next turn."""
        self._inv_spend(s)
        self._discard_effect(s, "X3")
        s.ban3 = 1

    def act_inv_card_x4(self, s: State, arg: int) -> None:
        """Action: an X4 card; no Power 4 cards for the League until his next turn."""
        self._inv_spend(s)
        self._discard_effect(s, "X4")
        s.ban4 = 1

    def act_inv_card_teleport(self, s: State, m: int) -> None:
        """Action: a Teleport card; minion ``m`` goes to any space outside the Castle (a ``place`` follows)."""
        self._inv_spend(s)
        self._discard_effect(s, "teleport")
        s.queue.insert(0, [Q_PLACE, PIECE_MINION, m, PL_ANY_OUT, 0, -1])

    def act_inv_invoke(self, s: State, m: int) -> None:
        """Action: minion card ``m`` from his hand onto the Portal, with its lives from the supply."""
        self._inv_spend(s)
        self._inv_hand_remove(s, self.gd.minion_cards[m])
        s.m_space[m] = self.gd.portal
        s.m_lives[m] = self.minion[m].lives
        s.life_supply -= self.minion[m].lives
        s.m_f[m] = s.m_p[m] = 0

    def act_inv_ability(self, s: State, m: int) -> None:
        """Action: minion ``m``'s Annex ability (some set a follow-up decision)."""
        self._inv_spend(s)
        self._ability(s, m)

    def act_inv_token_fury(self, s: State, arg: int) -> None:
        """Combat draw step: the Fury token, +2 Strength to his side in this combat."""
        s.cb_fury = 1
        s.tokens[FURY] = 0

    def act_inv_token_dark_power(self, s: State, arg: int) -> None:
        """Combat draw step: the Dark Power token, one more Power card in this combat."""
        s.cb_dark = 1
        s.tokens[DARK] = 0

    def act_inv_token_haste(self, s: State, arg: int) -> None:
        """His turn, free: the Haste token, one more action."""
        s.tokens[HASTE] = 0
        s.inv_left += 1

    def act_inv_token_regenerate(self, s: State, m: int) -> None:
        """His turn, free: the Regenerate token, minion ``m`` regains a life."""
        s.tokens[REGEN] = 0
        s.m_lives[m] += 1
        s.life_supply -= 1

    def act_inv_end_turn(self, s: State, arg: int) -> None:
        """His turn ends (the League plays)."""
        s.inv_left = 0
        s.phase = -1

    def act_inv_draw(self, s: State, arg: int) -> None:
        """Combat draw step: his Power cards (the Kraken looks at 5 and chooses)."""
        self._invoker_draw(s)

    def act_inv_pick_card(self, s: State, i: int) -> None:
        """Kraken: take the ``i``-th card seen for the combat; Manticore: discard the ``i``-th from the top."""
        if s.phase == P_KRAKEN:  # take the i-th card seen for the combat
            kind = s.cb_kview.pop(i)
            self._inv_card(s, kind)
            s.cb_kpicks -= 1
            if s.cb_kpicks <= 0 or not s.cb_kview:
                s.power_discard.extend(s.cb_kview)
                s.cb_kview = []
                self._resolve(s)
            return
        # P_MANTICORE: discard the i-th card from the top; the Invoker still knows the others
        s.power_discard.append(s.power_deck.pop(len(s.power_deck) - 1 - i))
        s.inv_known = s.mt_view - 1
        s.mt_view = 0
        s.phase = -1

    def act_inv_keep_all(self, s: State, arg: int) -> None:
        """Manticore: discard none of the cards seen."""
        s.inv_known = s.mt_view
        s.mt_view = 0
        s.phase = -1

    def act_inv_place(self, s: State, x: int) -> None:
        """The piece being moved goes to space ``x``."""
        self._place(s, x)

    def act_inv_pick_hero(self, s: State, h: int) -> None:
        """Dragon: hero ``h`` on the Dragon's space is moved next (a ``place`` follows)."""
        s.queue.insert(0, [Q_PLACE, PIECE_HERO, h, PL_ADJ, 0, -1])
        s.ab_minion = -1
        s.phase = -1

    def act_inv_cyclops(self, s: State, arg: int) -> None:
        """Cyclops: hero ``arg // M`` on its space discards a basic material of type ``arg % M``."""
        h, t = divmod(arg, self.M)
        s.h_mats[h][t] -= 1
        s.supply[t] += 1
        s.ab_minion = -1
        s.phase = -1

    def act_inv_track(self, s: State, t: int) -> None:
        """After losing a combat: board marker ``t`` advances."""
        s.tracks[t] += 1
        s.phase = -1

    def act_inv_flip(self, s: State, t: int) -> None:
        """After winning a combat: ability token ``t`` is flipped (available)."""
        s.tokens[t] = 1
        s.phase = -1

    def act_inv_decline(self, s: State, arg: int) -> None:
        """No marker advance / no token flip."""
        s.phase = -1

    def _discard_effect(self, s: State, effect: str) -> None:
        for c in s.inv_hand:
            if self.card_effect[c] == effect:
                self._inv_hand_remove(s, c)
                s.inv_discard.append(c)
                return
        raise AssertionError(effect)

    def _inv_hand_remove(self, s: State, c: int) -> None:
        """Card ``c`` leaves the Invoker's hand (played face up)."""
        s.inv_hand.remove(c)
        if c in s.inv_hand_known:
            s.inv_hand_known.remove(c)

    def _inv_hand_public(self, s: State, c: int) -> None:
        """Card ``c`` went into the Invoker's hand in the open: its place is public."""
        s.inv_hand_known.append(c)
        s.inv_hand_known.sort()

    def _hero_card_out(self, s: State, h: int, kind: int) -> None:
        """A card of ``kind`` leaves hero ``h``'s hand face up: the Invoker can no longer be sure of one known card of that kind."""
        s.h_hand[h][kind] -= 1
        if s.h_known[h][kind]:  # cards of one kind are alike: one known card fewer
            s.h_known[h][kind] -= 1

    def _ability(self, s: State, m: int) -> None:
        ab = self.m_ability[m]
        if ab == "phoenix":  # once per game: take the (other) Phoenix card back from the discard pile
            for c in s.inv_discard:
                mm = self.card_minion.get(c)
                if mm is not None and self.m_ability[mm] == "phoenix":
                    s.inv_discard.remove(c)
                    s.inv_hand.append(c)
                    s.inv_hand.sort()
                    self._inv_hand_public(s, c)  # taken face up from the discard pile
                    break
            s.phoenix_used = 1
        elif ab == "hippogriff":
            s.queue.insert(0, [Q_PLACE, PIECE_MINION, m, PL_ANY_OUT, 0, -1])
        elif ab == "cyclops":
            s.ab_minion = m
            s.phase, s.actor = P_CYCLOPS, 0
        elif ab == "dragon":
            s.ab_minion = m
            s.phase, s.actor = P_DRAGON, 0
        elif ab == "manticore":
            if not s.power_deck:
                self._reshuffle_power(s)
            s.mt_view = min(VIEW, len(s.power_deck))
            s.inv_known = max(s.inv_known, s.mt_view)
            s.phase, s.actor = P_MANTICORE, 0

    def _sacrifice(self, s: State, m: int) -> None:
        """Start of the Invoker's turn: 1 life of a minion next to the Castle for one gem; back to the Portal.

        The tenth gem wins at once, even if the sacrifice took the last minion's last life."""
        s.m_lives[m] -= 1
        s.life_supply += 1
        s.gems += 1
        if s.m_lives[m] == 0:
            self._kill(s, m, check=s.gems < PRINTED["gems"])
        else:
            s.m_space[m] = self.gd.portal
        if s.gems >= PRINTED["gems"]:
            self._end_game(s, 0)
            return
        if s.over:
            return
        if not any(s.m_space[x] >= 0 and self.gd.castle_adjacent[s.m_space[x]] for x in range(NUM_MINIONS)):
            s.phase = P_INV_MAIN

    def _kill(self, s: State, m: int, check: bool = True) -> None:
        """A minion with no life "is removed from the game": its card leaves play for good, except a
        Phoenix's, which goes to the discard pile, where the Annex has the other Phoenix find it."""
        s.m_space[m] = -1
        s.m_lives[m] = 0
        s.m_f[m] = s.m_p[m] = 0
        c = self.gd.minion_cards[m]
        (s.inv_discard if c in self.phoenix_cards else s.inv_removed).append(c)
        if check and all(x < 0 for x in s.m_space):  # the League wins when the Invoker has no minion in play
            self._end_game(s, 1)

    def _end_game(self, s: State, winner: int) -> None:
        s.winner = winner
        s.over = 1
        s.phase = P_OVER
        s.queue = []
        s.pl = []
        s.actor = -1

    # ---- the heroes' decisions (the deciding hero is ``s.actor - 1``; P_HERO_MAIN unless said otherwise)
    def _hero_spend(self, s: State, h: int) -> None:
        """An action of hero ``h``'s turn: one fewer left, one more taken (green books come before the
        first); ``_advance`` resumes the turn unless the action set a follow-up decision."""
        s.h_left -= 1
        s.h_taken += 1
        s.phase = -1

    def act_hero_choose_hero(self, s: State, r: int) -> None:
        """League turn order, agreed before its turn: the hero ``r`` seats after the chooser takes the next place."""
        s.h_order.append((s.actor - 1 + r) % self.k)
        s.phase = -1

    def act_hero_move(self, s: State, x: int) -> None:
        """Action: to the adjacent space ``x``."""
        h = s.actor - 1
        self._hero_spend(s, h)
        s.h_space[h] = x

    def act_hero_explore(self, s: State, arg: int) -> None:
        """Action: the top card of the quadrant's location deck, resolved."""
        h = s.actor - 1
        self._hero_spend(s, h)
        self._resolve_location(s, h, self._loc_draw(s, self.deck_of[s.h_space[h]]))

    def act_hero_explore_two(self, s: State, arg: int) -> None:
        """Pwyll, two actions: this one takes two location cards, "its next action" plays the one he
        chooses (which one follows); the other is discarded."""
        h = s.actor - 1
        self._hero_spend(s, h)
        self._hero_spend(s, h)
        d = self.deck_of[s.h_space[h]]
        s.pw_cards = [self._loc_draw(s, d), self._loc_draw(s, d)]
        s.phase, s.actor = P_PWYLL, 1 + h

    def act_hero_attack(self, s: State, m: int) -> None:
        """Action: a combat against minion ``m`` on the hero's space."""
        h = s.actor - 1
        self._hero_spend(s, h)
        self._start_combat(s, 1, h, m, -1)

    def act_hero_rest(self, s: State, arg: int) -> None:
        """Action at an inn: a life from the supply."""
        h = s.actor - 1
        self._hero_spend(s, h)
        s.h_lives[h] += 1
        s.life_supply -= 1

    def act_hero_power_centre(self, s: State, arg: int) -> None:
        """Action at a Power Centre: Power cards drawn into the hand."""
        h = s.actor - 1
        self._hero_spend(s, h)
        for _ in range(self.gd.power_centre_draw):
            seen = s.inv_known > 0  # a card the Invoker has seen (Manticore): he knows where it went
            c = self._power_draw(s)
            if c < 0:
                break
            s.h_hand[h][c] += 1
            s.h_known[h][c] += seen

    def act_hero_market(self, s: State, arg: int) -> None:
        """Action at the market: give material ``arg // M``, take material ``arg % M``."""
        h = s.actor - 1
        t, u = divmod(arg, self.M)
        self._hero_spend(s, h)
        s.h_mats[h][t] -= 1
        s.market[t] += 1
        s.market[u] -= 1
        s.h_mats[h][u] += 1

    def act_hero_forge(self, s: State, p: int) -> None:
        """Action at a forge (or with Tiy): pay and forge armour piece ``p``."""
        h = s.actor - 1
        self._hero_spend(s, h)
        for t, c in enumerate(self.heroes[h].costs[p]):
            s.h_mats[h][t] -= c
            s.supply[t] += c
        s.h_armour[h][p] = 1

    def act_hero_heal(self, s: State, r: int) -> None:
        """Action (Circe): the hero ``r`` seats on (0: herself) gains a life."""
        h = s.actor - 1
        self._hero_spend(s, h)
        o = (h + r) % self.k
        s.h_lives[o] += 1
        s.life_supply -= 1

    def act_hero_trade(self, s: State, arg: int) -> None:
        """Action: a trade with the heroes on the space; transfers follow."""
        h = s.actor - 1
        self._hero_spend(s, h)
        s.tr_left = TRADE_TRANSFERS
        s.phase, s.actor = P_TRADE, 1 + h

    def act_hero_give(self, s: State, arg: int) -> None:
        """Trade: give one material (``arg``: relative hero, type) to a hero on the space."""
        self._transfer(s, arg, give=True)

    def act_hero_take(self, s: State, arg: int) -> None:
        """Trade: take one material (``arg``: relative hero, type) from a hero on the space."""
        self._transfer(s, arg, give=False)

    def _transfer(self, s: State, arg: int, give: bool) -> None:
        h = s.actor - 1
        r, t = divmod(arg, self.M)
        o = (h + r) % self.k
        src, dst = (h, o) if give else (o, h)
        s.h_mats[src][t] -= 1
        s.h_mats[dst][t] += 1
        s.tr_left -= 1
        if s.tr_left <= 0:
            s.phase = -1

    def act_hero_end_trade(self, s: State, arg: int) -> None:
        """Trade: no more transfers."""
        s.tr_left = 0
        s.phase = -1

    def act_hero_use_book(self, s: State, color: int) -> None:
        """A knowledge book: green before the turn's first action, yellow/red before a combat's first card."""
        h = s.actor - 1
        self._use_book(s, h, color)
        if color == GREEN:  # P_HERO_MAIN, before the first action: more actions this turn
            s.h_left += self.gd.book_effect[GREEN]
        elif color == YELLOW:  # P_COMMIT, before the first card
            s.cb_by = 1
        else:
            s.cb_br = 1

    def act_hero_end_turn(self, s: State, arg: int) -> None:
        """The hero's turn ends."""
        s.h_left = 0
        s.phase = -1

    def act_hero_commit(self, s: State, kind: int) -> None:
        """Combat: one Power card of ``kind`` played face up (its icon acts at once)."""
        h = s.actor - 1
        self._hero_card_out(s, h, kind)
        s.cb_hcards.append(kind)
        ic = self.icon[kind]
        if ic == ICON_F:
            s.h_round_f[h] += 2
        elif ic == ICON_P:
            s.h_round_p[h] += 1
        elif ic == ICON_CHAINS:  # against an encounter it binds the encounter, not the Invoker
            if s.cb_enc >= 0:
                s.cb_enc_chain += 1
            else:
                s.inv_chain += 1

    def act_hero_fight(self, s: State, arg: int) -> None:
        """Combat: no more cards; the Invoker's draw step follows."""
        s.phase, s.actor = P_DRAW, 0

    def act_hero_place(self, s: State, x: int) -> None:
        """The piece being moved goes to space ``x``."""
        self._place(s, x)

    def act_hero_pick_card(self, s: State, i: int) -> None:
        """Pwyll: resolve the ``i``-th of the two location cards, discard the other."""
        h = s.actor - 1
        keep = s.pw_cards[i]
        other = s.pw_cards[1 - i]
        s.loc_discard[self.loc[other].deck].append(other)
        s.pw_cards = []
        s.phase = -1
        self._resolve_location(s, h, keep)

    def act_hero_discard(self, s: State, kind: int) -> None:
        """End of the League's turn: one Power card of ``kind`` discarded (down to the hand maximum)."""
        h = s.actor - 1
        self._hero_card_out(s, h, kind)
        s.power_discard.append(kind)
        s.phase = -1

    def _use_book(self, s: State, h: int, color: int) -> None:
        for c in s.h_books[h]:
            if self.loc[c].color == color:
                s.h_books[h].remove(c)
                s.loc_discard[self.loc[c].deck].append(c)
                return
        raise AssertionError("no book")

    def _loc_draw(self, s: State, d: int) -> int:
        """Draw a location card; a deck emptied by the draw is rebuilt from its shuffled discard pile."""
        if not s.loc_deck[d]:
            self._reshuffle_loc(s, d)
        c = s.loc_deck[d].pop()
        if not s.loc_deck[d]:
            self._reshuffle_loc(s, d)
        return c

    def _reshuffle_loc(self, s: State, d: int) -> None:
        pile = s.loc_discard[d]
        s.loc_deck[d] = [pile[i] for i in s.rng.permutation(len(pile))]
        s.loc_discard[d] = []

    def _resolve_location(self, s: State, h: int, c: int) -> None:
        card = self.loc[c]
        if card.kind == LOC_MATERIAL:
            t = card.material
            if s.supply[t]:
                s.supply[t] -= 1
                s.h_mats[h][t] += 1
            s.loc_discard[card.deck].append(c)
        elif card.kind == LOC_BOOK:
            s.h_books[h].append(c)
            s.h_books[h].sort()
        else:
            self._start_combat(s, 1, h, -1, c)

    def _power_draw(self, s: State) -> int:
        """Top card of the Power deck (-1 when deck and discard are both empty).

        "If you have drawn the last card of any deck, shuffle its discard pile": at once, so the
        deck is empty only while its discard pile is too (the next draw then looks again)."""
        if not s.power_deck:
            self._reshuffle_power(s)
            if not s.power_deck:
                return -1
        if s.inv_known:
            s.inv_known -= 1
        c = s.power_deck.pop()
        if not s.power_deck:
            self._reshuffle_power(s)
        return c

    def _reshuffle_power(self, s: State) -> None:
        pile = s.power_discard
        s.power_deck = [pile[i] for i in s.rng.permutation(len(pile))]
        s.power_discard = []
        s.inv_known = 0

    def _inv_draw_cards(self, s: State, n: int) -> None:
        """The Invoker draws ``n`` cards; a deck emptied by a draw is rebuilt at once from its shuffled discard pile."""
        for _ in range(n):
            if not s.inv_deck:
                self._reshuffle_inv(s)
                if not s.inv_deck:
                    break
            s.inv_hand.append(s.inv_deck.pop())
            if not s.inv_deck:
                self._reshuffle_inv(s)
        s.inv_hand.sort()

    def _reshuffle_inv(self, s: State) -> None:
        pile = s.inv_discard
        s.inv_deck = [pile[i] for i in s.rng.permutation(len(pile))]
        s.inv_discard = []

    # ---- combat
    def _start_combat(self, s: State, attacker: int, h: int, m: int, enc: int) -> None:
        s.cb_on, s.cb_att, s.cb_hero, s.cb_minion, s.cb_enc = 1, attacker, h, m, enc
        s.cb_space = s.h_space[h]
        s.cb_hcards, s.cb_icards, s.cb_kview = [], [], []
        s.cb_kpicks = s.cb_by = s.cb_br = s.cb_fury = s.cb_dark = s.cb_enc_f = s.cb_enc_chain = 0
        s.phase, s.actor = P_COMMIT, 1 + h

    def _invoker_draw(self, s: State) -> None:
        n = self.invoker_draws(s)
        if s.cb_minion >= 0 and self.m_ability[s.cb_minion] == "kraken" and n > 0:
            # Kraken: look at 5 cards of the Power deck, choose (up to its draws) for the combat, discard the rest
            view = []
            for _ in range(VIEW):
                c = self._power_draw(s)
                if c < 0:
                    break
                view.append(c)
            s.cb_kview = view
            s.cb_kpicks = min(n, len(view))
            if view:
                s.phase, s.actor = P_KRAKEN, 0
                return
        else:
            for _ in range(n):
                c = self._power_draw(s)
                if c < 0:
                    break
                self._inv_card(s, c)
        self._resolve(s)

    def _inv_card(self, s: State, kind: int) -> None:
        """A Power card for the hero's opponent; its icon acts for that side: the Invoker's for a
        minion; for an encounter (not his) only in this combat: +2F adds to it, Chains binds the
        hero, +1P (its draw is made) and Draw (it has no Invoker deck) do nothing."""
        s.cb_icards.append(kind)
        ic = self.icon[kind]
        if s.cb_enc >= 0:
            if ic == ICON_F:
                s.cb_enc_f += 2
            elif ic == ICON_CHAINS:
                s.h_chain[s.cb_hero] += 1
            return
        if ic == ICON_F:
            s.inv_round_f += 2
        elif ic == ICON_P:
            s.inv_round_p += 1
        elif ic == ICON_CHAINS:
            s.h_chain[s.cb_hero] += 1
        elif ic == ICON_DRAW:
            # Draw: the set-aside rune cards the gems on the Portal allow (0/3/6), then his deck, three cards in all
            got = 0
            for c in sorted(s.inv_aside, key=lambda c: self.gd.invoker_cards[c].rune):
                if got < DRAW_ICON_CARDS and self.gd.invoker_cards[c].rune <= s.gems:
                    s.inv_aside.remove(c)
                    s.inv_hand.append(c)
                    self._inv_hand_public(s, c)  # taken from the face-up set-aside cards
                    got += 1
            s.inv_hand.sort()
            self._inv_draw_cards(s, DRAW_ICON_CARDS - got)

    def _resolve(self, s: State) -> None:
        """Compare totals (ties to the attacker) and apply the outcome; follow-ups go to the queue."""
        h, m, enc = s.cb_hero, s.cb_minion, s.cb_enc
        ht, it = self.combat_totals(s)
        hero_wins = ht > it or (ht == it and s.cb_att == 1)
        gd = self.gd
        # discard the Power cards used (Beowulf recovers the last one he played) and the encounter card
        hc = s.cb_hcards
        if hc and self.chars[h] == BEOWULF:
            s.h_hand[h][hc[-1]] += 1
            s.h_known[h][hc[-1]] += 1  # it was face up
            hc = hc[:-1]
        s.power_discard.extend(hc)
        s.power_discard.extend(s.cb_icards)
        if enc >= 0:
            s.loc_discard[self.loc[enc].deck].append(enc)
        space = s.cb_space
        attacker = s.cb_att
        s.cb_on, s.cb_att, s.cb_hero, s.cb_minion, s.cb_enc, s.cb_space = 0, 0, -1, -1, -1, -1
        s.cb_hcards, s.cb_icards, s.cb_kview = [], [], []
        s.cb_kpicks = s.cb_by = s.cb_br = s.cb_fury = s.cb_dark = s.cb_enc_f = s.cb_enc_chain = 0
        s.phase = -1
        tasks: list[list[int]] = []
        if hero_wins:
            loot = self.minion[m].loot if m >= 0 else self.loc[enc].loot
            for t, c in enumerate(loot):
                got = min(c, s.supply[t])
                s.supply[t] -= got
                s.h_mats[h][t] += got
            if m >= 0:
                if any(s.tracks[t] < gd.track_length[t] for t in range(2)):
                    tasks.append([Q_TRACK])
                s.m_lives[m] -= 1
                s.life_supply += 1
                if s.m_lives[m] == 0:
                    self._kill(s, m)
                    if s.over:
                        return
                else:
                    tasks.append([Q_PLACE, PIECE_MINION, m, PL_ADJ_OUT, 1 + h, space])
        else:
            if m >= 0:
                if not all(s.tokens):
                    tasks.append([Q_TOKEN])
                if self.m_ability[m] == "balrog":
                    s.balrog_bonus = 1
            s.h_lives[h] -= 1
            s.life_supply += 1
            if not s.h_boots[h] and s.boots_supply:
                s.h_boots[h] = 1
                s.boots_supply -= 1
            if s.h_lives[h] == 0:  # no life left: to an inn (its choice), its turn ends
                tasks.append([Q_PLACE, PIECE_HERO, h, PL_INN, 1 + h, -1])
                if s.turn_side == LEAGUE and s.cur_hero == h:
                    tasks.append([Q_END_HERO_TURN, h])
            elif m >= 0 and self.m_ability[m] == "hydra":
                tasks.append([Q_PLACE, PIECE_HERO, h, PL_INN, 0, -1])
            else:
                tasks.append([Q_PLACE, PIECE_HERO, h, PL_ADJ, 0, space])
        del attacker
        s.queue[0:0] = tasks

    # ---- placing pieces
    def _place(self, s: State, x: int) -> None:
        piece, who = s.pl[0], s.pl[1]
        if piece == PIECE_HERO:
            s.h_space[who] = x
        else:
            s.m_space[who] = x
        s.pl = []
        s.phase = -1

    # ---- flow
    def _advance(self, s: State) -> None:
        """Run automatic steps until a decision is needed (sets ``phase`` and ``actor``)."""
        while not s.over:
            if s.phase >= 0:
                return
            if s.queue:
                task = s.queue.pop(0)
                q = task[0]
                if q == Q_PLACE:
                    pl = task[1:]
                    if pl[0] == PIECE_MINION and s.m_space[pl[1]] < 0:
                        continue  # the minion has left play
                    cands = self._place_cands(s, pl)
                    if len(cands) == 1:
                        s.pl = pl
                        self._place(s, cands[0])
                        continue
                    s.pl = pl
                    s.phase, s.actor = P_PLACE, pl[3]
                elif q == Q_TRACK:
                    s.phase, s.actor = P_TRACK, 0
                elif q == Q_TOKEN:
                    s.phase, s.actor = P_TOKEN, 0
                elif q == Q_END_HERO_TURN:
                    s.h_left = 0
                continue
            # nothing pending: the side whose turn it is goes on
            if s.turn_side == SETUP:
                self._start_invoker_turn(s)
            elif s.turn_side == INVOKER:
                if s.inv_left > 0:
                    s.phase, s.actor = P_INV_MAIN, 0
                else:
                    self._end_invoker_turn(s)
            else:
                h = s.cur_hero
                if h >= 0:
                    if s.h_left > 0:
                        s.phase, s.actor = P_HERO_MAIN, 1 + h
                    else:
                        s.h_done[h] = 1
                        s.cur_hero = -1
                else:
                    self._next_hero(s)

    def _start_invoker_turn(self, s: State) -> None:
        s.turn_side = INVOKER
        s.ban3 = s.ban4 = 0  # "until the Great Invoker's next turn"
        self._inv_draw_cards(s, self.gd.inv_draw_per_turn)
        s.inv_left = self.num_players  # players in the game, himself included
        if any(s.m_space[m] >= 0 and self.gd.castle_adjacent[s.m_space[m]] for m in range(NUM_MINIONS)):
            s.phase, s.actor = P_SACRIFICE, 0
        else:
            s.phase, s.actor = P_INV_MAIN, 0

    def _end_invoker_turn(self, s: State) -> None:
        if all(x < 0 for x in s.m_space):  # no minion in play at the end of his turn: the League wins
            self._end_game(s, 1)
            return
        s.turn_side = LEAGUE
        s.h_done = [0] * self.k
        s.h_order = []  # agreed anew before each League turn
        s.cur_hero = -1
        s.phase = -1

    def _next_hero(self, s: State) -> None:
        left = [h for h in range(self.k) if not s.h_done[h]]
        unordered = [h for h in left if h not in s.h_order]
        if len(unordered) == 1:  # the last place of the order needs no choice
            s.h_order.append(unordered[0])
        elif unordered:  # "agreeing beforehand on the turn order": hero_0 speaks for the League
            s.phase, s.actor = P_CHOOSE, 1
            return
        if not left:
            # end of the League's turn: discard down to the hand maximum, then a new round
            for h in range(self.k):
                if sum(s.h_hand[h]) > self.hand_max(s, h):
                    s.phase, s.actor = P_DISCARD, 1 + h
                    return
            self._end_round(s)
        else:
            self._start_hero_turn(s, next(h for h in s.h_order if not s.h_done[h]))

    def _start_hero_turn(self, s: State, h: int) -> None:
        s.cur_hero = h
        s.h_taken = 0
        lvl = self.hero_level(s, h)
        if s.h_boots[h]:  # the -1 Boots token costs one action this turn, then returns
            lvl -= 1
            s.h_boots[h] = 0
            s.boots_supply += 1
        s.h_left = max(1, lvl)
        s.phase = -1

    def _end_round(self, s: State) -> None:
        s.round += 1
        k = self.k
        s.h_round_f = [0] * k
        s.h_round_p = [0] * k
        s.h_chain = [0] * k
        s.inv_round_f = s.inv_round_p = s.inv_chain = s.balrog_bonus = 0
        self._start_invoker_turn(s)

    # ------------------------------------------------------- serialization
    def _check_place(self, pl: list[int], name: str) -> None:
        """A place task ``[piece, who, mode, actor, origin]``: a hero or minion that exists, a place
        mode, a seat that decides (the Invoker, or the hero whose move it is) and an origin space (-1: where the piece stands)."""
        req(len(pl) == 5, f"{name}: a place task has 5 entries [piece, who, mode, actor, origin], got {pl}")
        piece, who, mode, actor, origin = pl
        req(piece in (PIECE_HERO, PIECE_MINION), f"{name}: piece must be {PIECE_HERO} (hero) or {PIECE_MINION} (minion), got {piece}")
        req(0 <= who < (self.k if piece == PIECE_HERO else NUM_MINIONS), f"{name}: no {'hero' if piece == PIECE_HERO else 'minion'} {who}")
        req(0 <= mode < len(PL_NAMES), f"{name}: place mode must be in [0, {len(PL_NAMES) - 1}], got {mode}")
        req(0 <= actor <= self.k, f"{name}: the deciding seat must be in [0, {self.k}], got {actor}")
        req(-1 <= origin < self.S, f"{name}: origin must be -1 or a space in [0, {self.S - 1}], got {origin}")

    def _check_task(self, task: list[int], name: str) -> None:
        """One pending task of ``queue``: a place task, a track or token choice, or the end of hero ``h``'s turn."""
        q = task[0]
        if q == Q_PLACE:
            self._check_place(task[1:], name)
        elif q in (Q_TRACK, Q_TOKEN):
            req(len(task) == 1, f"{name}: a track or token task has no arguments, got {task}")
        elif q == Q_END_HERO_TURN:
            req(len(task) == 2 and 0 <= task[1] < self.k, f"{name}: an end-of-turn task names a hero in [0, {self.k - 1}], got {task}")
        else:
            req(False, f"{name}: unknown task kind {q} (1 place, 2 track, 3 token, 4 end hero turn)")

    def validate(self, s: State) -> None:
        """Every invariant: types, ranges, positions on the map, and each card, token and gem in one place."""
        gd, k, K, M, S = self.gd, self.k, self.K, self.M, self.S

        req(type(s.num_heroes) is int and s.num_heroes == k, f"num_heroes {s.num_heroes!r} does not match the env's {k}")
        req(s.chars == self.chars, f"chars {s.chars} do not match the env's characters {self.chars}")
        for name in INT_FIELDS:
            if name not in ("num_heroes",):
                req(is_int(getattr(s, name)), f"{name} must be an int")
        NI = self.inv_card_count
        for name in ("inv_hand", "inv_deck", "inv_discard", "inv_aside", "inv_removed"):
            check_ints(getattr(s, name), None, 0, NI - 1, name)
        req(s.inv_hand == sorted(s.inv_hand), "inv_hand must be sorted")
        check_ints(s.tokens, 4, 0, 1, "tokens")
        check_ints(s.tracks, 2, 0, 10, "tracks")
        req(all(s.tracks[t] <= gd.track_length[t] for t in range(2)), "a track marker is past its end")
        check_ints(s.m_space, NUM_MINIONS, -1, S - 1, "m_space")
        check_ints(s.m_lives, NUM_MINIONS, 0, 3, "m_lives")
        check_ints(s.m_f, NUM_MINIONS, 0, 60, "m_f")
        check_ints(s.m_p, NUM_MINIONS, 0, 20, "m_p")
        check_ints(s.h_space, k, -1, S - 1, "h_space")
        check_ints(s.h_lives, k, 0, gd.hero_lives_max, "h_lives")
        check_rows(s.h_hand, k, K, 0, 48, "h_hand")
        check_rows(s.h_known, k, K, 0, 48, "h_known")
        req(all(s.h_known[h][kk] <= s.h_hand[h][kk] for h in range(k) for kk in range(K)), "h_known holds a card not in the hand")
        check_ints(s.inv_hand_known, None, 0, NI - 1, "inv_hand_known")
        req(s.inv_hand_known == sorted(s.inv_hand_known) and all(c in s.inv_hand for c in s.inv_hand_known), "inv_hand_known must be sorted cards of the hand")
        req(len(set(s.inv_hand_known)) == len(s.inv_hand_known), "inv_hand_known names a card twice")
        check_rows(s.h_mats, k, M, 0, 52, "h_mats")
        check_rows(s.h_armour, k, 4, 0, 1, "h_armour")
        check_rows(s.h_books, k, None, 0, len(self.loc) - 1, "h_books")
        check_ints(s.h_order, None, 0, k - 1, "h_order")
        req(len(set(s.h_order)) == len(s.h_order), "h_order names a hero twice")
        for name in ("h_done", "h_boots"):
            check_ints(getattr(s, name), k, 0, 1, name)
        for name in ("h_round_f", "h_round_p", "h_chain"):
            check_ints(getattr(s, name), k, 0, 100, name)
        check_ints(s.power_deck, None, 0, K - 1, "power_deck")
        check_ints(s.power_discard, None, 0, K - 1, "power_discard")
        check_rows(s.loc_deck, 3, None, 0, len(self.loc) - 1, "loc_deck")
        check_rows(s.loc_discard, 3, None, 0, len(self.loc) - 1, "loc_discard")
        check_ints(s.market, M, 0, 52, "market")
        check_ints(s.supply, M, 0, 52, "supply")
        for name, lo, hi in (
            ("inv_left", 0, 20), ("gems", 0, PRINTED["gems"]), ("phoenix_used", 0, 1), ("inv_known", 0, VIEW),
            ("cur_hero", -1, k - 1), ("h_left", 0, 20), ("h_taken", 0, 20), ("life_supply", 0, PRINTED["life_tokens"]),
            ("boots_supply", 0, PRINTED["boots_tokens"]), ("ban3", 0, 1), ("ban4", 0, 1), ("inv_round_f", 0, 200),
            ("inv_round_p", 0, 50), ("inv_chain", 0, 50), ("balrog_bonus", 0, 1), ("round", 0, 10**6), ("turn_side", 0, 2),
            ("phase", 0, P_OVER), ("actor", -1, k), ("winner", -1, 1), ("over", 0, 1), ("ab_minion", -1, NUM_MINIONS - 1),
            ("mt_view", 0, VIEW), ("tr_left", 0, TRADE_TRANSFERS), ("cb_on", 0, 1), ("cb_att", 0, 1), ("cb_hero", -1, k - 1),
            ("cb_minion", -1, NUM_MINIONS - 1), ("cb_enc", -1, len(self.loc) - 1), ("cb_space", -1, S - 1), ("cb_kpicks", 0, VIEW),
            ("cb_by", 0, 1), ("cb_br", 0, 1), ("cb_fury", 0, 1), ("cb_dark", 0, 1), ("cb_enc_f", 0, 200), ("cb_enc_chain", 0, 50),
            ("decisions", 0, 10**9),
        ):
            req(lo <= getattr(s, name) <= hi, f"{name} must be in [{lo}, {hi}], got {getattr(s, name)}")
        check_ints(s.cb_hcards, None, 0, K - 1, "cb_hcards")
        check_ints(s.cb_icards, None, 0, K - 1, "cb_icards")
        check_ints(s.cb_kview, None, 0, K - 1, "cb_kview")
        check_ints(s.pw_cards, None, 0, len(self.loc) - 1, "pw_cards")
        req(len(s.cb_kview) <= VIEW and len(s.pw_cards) in (0, 2), "cb_kview/pw_cards too long")
        check_ints(s.pl, None, -1, max(S, NUM_MINIONS), "pl")
        req(isinstance(s.queue, list) and all(isinstance(t, list) and t and is_int(t[0]) and all(is_int(x) for x in t) for t in s.queue), "queue must be a list of int lists")
        for i, task in enumerate(s.queue):
            self._check_task(task, f"queue[{i}]")
        # Power cards: each in exactly one place
        count = [0] * K
        for pile in (s.power_deck, s.power_discard, s.cb_hcards, s.cb_icards, s.cb_kview):
            for c in pile:
                count[c] += 1
        for h in range(k):
            for kk in range(K):
                count[kk] += s.h_hand[h][kk]
        req(count == list(gd.power_counts), "Power cards are not conserved (each card must be in exactly one place)")
        # Great Invoker cards: each in exactly one place (hand, deck, discard, aside, removed, in play)
        seen = s.inv_hand + s.inv_deck + s.inv_discard + s.inv_aside + s.inv_removed + [gd.minion_cards[m] for m in range(NUM_MINIONS) if s.m_space[m] >= 0]
        req(sorted(seen) == list(range(NI)), "Great Invoker cards are not conserved (each card must be in exactly one place)")
        req(all(c in self.card_minion for c in s.inv_removed), "a card removed from the game is not a minion card")
        # location cards
        loc = [c for d in range(3) for c in s.loc_deck[d] + s.loc_discard[d]] + [c for b in s.h_books for c in b] + list(s.pw_cards)
        if s.cb_enc >= 0:
            loc.append(s.cb_enc)
        req(sorted(loc) == list(range(len(self.loc))), "location cards are not conserved (each card must be in exactly one place)")
        for d in range(3):
            req(all(self.loc[c].deck == d for c in s.loc_deck[d] + s.loc_discard[d]), f"location deck {d} holds another deck's card")
        for h in range(k):
            req(all(self.loc[c].kind == LOC_BOOK for c in s.h_books[h]), f"hero {h} holds a location card that is not a book")
        # resources
        for t in range(M):
            held = s.supply[t] + s.market[t] + sum(s.h_mats[h][t] for h in range(k))
            req(held == gd.material_counts[t], f"resource tokens of {gd.materials[t]} are not conserved ({held} != {gd.material_counts[t]})")
        # life tokens, boots tokens, gems
        lives = s.life_supply + sum(s.h_lives) + sum(s.m_lives)
        req(lives == PRINTED["life_tokens"], f"life tokens are not conserved ({lives} != {PRINTED['life_tokens']})")
        req(s.boots_supply + sum(s.h_boots) == PRINTED["boots_tokens"], "-1 Boots tokens are not conserved")
        # positions on the map
        for m in range(NUM_MINIONS):
            sp = s.m_space[m]
            if sp >= 0:
                req(1 <= s.m_lives[m] <= self.minion[m].lives, f"minion {m} in play has {s.m_lives[m]} lives")
                req(not gd.castle[sp], f"minion {m} is inside the Castle ({gd.space_names[sp]})")
            else:
                req(s.m_lives[m] == 0 and s.m_f[m] == 0 and s.m_p[m] == 0, f"minion {m} out of play holds lives or bonuses")
        if s.turn_side != SETUP:
            req(all(x >= 0 for x in s.h_space), "a hero is not on the map")
        for h in range(k):
            if s.h_lives[h] == 0 and s.h_space[h] >= 0 and not (s.phase == P_PLACE and s.pl and s.pl[0] == PIECE_HERO and s.pl[1] == h):
                req(gd.kind[s.h_space[h]] == "inn" or any(t[:3] == [Q_PLACE, PIECE_HERO, h] for t in s.queue), f"hero {h} has no life but is not at an inn")
        # flow
        req(bool(s.over) == (s.phase == P_OVER), "over flag and phase disagree")
        if s.over:
            req(s.winner in (0, 1), "a finished game has a winner")
        else:
            req(s.winner == -1, "winner set in a live game")
            req(s.gems < PRINTED["gems"], "ten gems stolen but the game goes on")
            req(1 <= s.actor <= k if s.phase in (P_CHOOSE, P_HERO_MAIN, P_TRADE, P_COMMIT, P_PWYLL, P_DISCARD) else True, "hero phase without a hero to move")
            req(s.actor == 0 if s.phase in (P_SACRIFICE, P_INV_MAIN, P_DRAW, P_KRAKEN, P_MANTICORE, P_DRAGON, P_CYCLOPS, P_TRACK, P_TOKEN) else True, "Invoker phase with a hero to move")
            req(0 <= s.actor <= k, "actor out of range")
        if s.phase == P_PLACE:
            req(len(s.pl) == 5 and s.pl[0] in (0, 1) and s.pl[2] in range(4) and s.pl[3] == s.actor, "place phase without a valid place task")
            req(0 <= s.pl[1] < (k if s.pl[0] == PIECE_HERO else NUM_MINIONS), "place task names no piece")
            self._check_place(s.pl, "pl")
            if s.pl[4] < 0 and s.pl[2] in (PL_ADJ, PL_ADJ_OUT):
                req((s.h_space if s.pl[0] == PIECE_HERO else s.m_space)[s.pl[1]] >= 0, "pl: an adjacent placement of a piece that is not on the map")
        else:
            req(not s.pl, "place task outside the place phase")
        in_combat = s.phase in (P_COMMIT, P_DRAW, P_KRAKEN) or bool(s.cb_on)
        if s.cb_on:
            req(s.cb_hero >= 0 and (s.cb_minion >= 0) != (s.cb_enc >= 0), "combat without a hero and exactly one opponent")
            if s.cb_minion >= 0:
                req(s.m_space[s.cb_minion] == s.h_space[s.cb_hero] == s.cb_space, "combatants are not on the combat space")
            else:
                req(self.loc[s.cb_enc].kind == LOC_ENCOUNTER, "combat encounter card is not an encounter")
        else:
            req(not in_combat and not s.cb_hcards and not s.cb_icards and not s.cb_kview and s.cb_hero == -1
                and not s.cb_enc_f and not s.cb_enc_chain, "combat fields set outside a combat")
        if s.cb_enc < 0:
            req(not s.cb_enc_f and not s.cb_enc_chain, "encounter bonuses outside a combat against an encounter")
        if s.phase == P_PWYLL:
            req(len(s.pw_cards) == 2, "Pwyll's choice without two cards")
        else:
            req(not s.pw_cards, "Pwyll's cards outside his choice")
        req(s.phase == P_MANTICORE or s.mt_view == 0, "Manticore view outside its phase")
        req(s.phase in (P_DRAGON, P_CYCLOPS) or s.ab_minion == -1, "ability target pending outside its phase")
        req(s.phase == P_TRADE or s.tr_left == 0, "trade transfers left outside a trade")
        req(s.inv_known <= len(s.power_deck), "the Invoker knows more Power cards than the deck holds")

    # ------------------------------------------------------ hidden information
    def resample_hidden(self, s: State, observer: int, seed: int | None) -> State:
        """A copy consistent with what ``observer`` sees, every hidden part redrawn.

        Hidden from everyone: the order of the Power deck (except what someone has seen: the
        Invoker's Manticore cards, Hood's top card for the League), of the location decks and of the
        Invoker's deck, and future shuffles (the RNG is reseeded). From the League: the Invoker's
        hand (its size is public) and the Kraken's view. From the Invoker: the heroes' hands (sizes
        public). The League shares everything it knows. Each hidden pool is sorted before it is
        shuffled, so the result depends only on ``seed`` and what ``observer`` knows.
        """
        rng = make_rng(seed)
        c = self.clone(s)
        k = self.k
        deck = c.power_deck
        if observer == 0:
            keep = c.inv_known
        else:
            keep = 1 if self.has_hood and deck else 0
        fixed = deck[len(deck) - keep:] if keep else []
        pool = deck[: len(deck) - keep]
        if observer == 0:
            # a hero's cards whose place is public (its starting hand, cards played face up and
            # recovered, cards he saw drawn) stay; only the others are redrawn
            sizes = [sum(c.h_hand[h]) - sum(c.h_known[h]) for h in range(k)]
            for h in range(k):
                for kk in range(self.K):
                    pool.extend([kk] * (c.h_hand[h][kk] - c.h_known[h][kk]))
            pool = sorted(pool)  # sorted first: the draw depends on the seed and what the observer knows
            pool = [pool[i] for i in rng.permutation(len(pool))]
            for h in range(k):
                hand = list(c.h_known[h])
                for _ in range(sizes[h]):
                    hand[pool.pop()] += 1
                c.h_hand[h] = hand
        else:
            nview = len(c.cb_kview)
            pool.extend(c.cb_kview)
            pool = sorted(pool)
            pool = [pool[i] for i in rng.permutation(len(pool))]
            c.cb_kview = [pool.pop() for _ in range(nview)]
            # the cards the League saw go into his hand stay there; the rest of hand and deck is redrawn
            known = c.inv_hand_known
            ip = [x for x in c.inv_hand if x not in known] + c.inv_deck
            ip = sorted(ip)
            ip = [ip[i] for i in rng.permutation(len(ip))]
            n = len(c.inv_hand) - len(known)
            c.inv_hand = sorted(known + ip[:n])
            c.inv_deck = ip[n:]
        c.power_deck = pool + fixed
        if observer != 0 and c.inv_known > len(pool) + len(fixed):
            c.inv_known = len(c.power_deck)
        for d in range(3):
            loc = sorted(c.loc_deck[d])
            c.loc_deck[d] = [loc[i] for i in rng.permutation(len(loc))]
        if observer == 0:
            inv = sorted(c.inv_deck)
            c.inv_deck = [inv[i] for i in rng.permutation(len(inv))]
        c.rng = make_rng(int(rng.integers(2**63)))
        c.legal = self._compute_legal(c)
        if not c.over and not c.legal:
            # cannot happen: every decision phase keeps a legal action under any redraw
            raise AssertionError("resample left no legal action")
        return c
