"""Mythsgate: one scripted scenario per rule of the rulebook (rulebooks/mythsgate.txt).

Each test is named after the rule it checks; ``test_assumption_...`` tests pin down the choices the
engine makes where the rulebook is silent (listed in ``docs/rules/mythsgate.md``). Scenarios start
from a set-up game (see :class:`Table`) and move exactly the pieces, cards and tokens the rule needs
from where they are, so every card and token stays conserved; every state is validated after every
action.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mythzoo.envs.core.errors import IllegalActionError
from mythzoo.envs.mythsgate.actions import NUM_MINIONS
from mythzoo.envs.mythsgate.gamedata import PRINTED, load_data
from mythzoo.envs.mythsgate.rules import (
    BEOWULF,
    CIRCE,
    HOOD,
    INVOKER,
    LEAGUE,
    P_CHOOSE,
    P_COMMIT,
    P_CYCLOPS,
    P_DISCARD,
    P_DRAGON,
    P_HERO_MAIN,
    P_INV_MAIN,
    P_KRAKEN,
    P_MANTICORE,
    P_PLACE,
    P_PWYLL,
    P_SACRIFICE,
    P_TOKEN,
    P_TRACK,
    P_TRADE,
    PWYLL,
    TIY,
    MythsgateRules,
)

# The rules are tested on a fixed data set (the shipped map; the cards and character boards the
# scenarios were written for), so that tuning the designed numbers never rewrites a rule's test.
RULES_DATA = Path(__file__).resolve().parent / "data" / "mythsgate_rules"
GD = load_data(RULES_DATA)
SP = {n: i for i, n in enumerate(GD.space_names)}
INN_T, MARKET, PC_T = SP["Town Inn"], SP["Market"], SP["Town Power Centre"]
FORGE_M, PC_M, WSHAFT, ESHAFT = SP["Mine Forge"], SP["Mine Power Centre"], SP["West Shaft"], SP["East Shaft"]
INN_F, GLADE, FORGE_F, PC_F = SP["Forest Inn"], SP["Glade"], SP["Forest Forge"], SP["Forest Power Centre"]
PORTAL, BRIDGEHEAD, GATE, HALL, TREASURE = SP["Portal"], SP["Castle Bridgehead"], SP["Gatehouse"], SP["Great Hall"], SP["Treasure Chamber"]
MAT = {n: i for i, n in enumerate(GD.materials)}
WOOD, STONE, IRON, LEATHER, CRYSTAL, GOLD, MITHRIL = (MAT[x] for x in ("wood", "stone", "iron", "leather", "crystal", "gold", "mithril"))


def minion_of(ability: str, nth: int = 0) -> int:
    """Minion index of the ``nth`` minion card with this Annex ability."""
    return [m for m in range(NUM_MINIONS) if GD.invoker_cards[GD.minion_cards[m]].ability == ability][nth]


def kind(value: int, icon: int = 0) -> int:
    return GD.power_kinds.index((value, icon))


def effect_card(effect: str, nth: int = 0) -> int:
    return [c.cid for c in GD.invoker_cards if not c.minion and c.effect == effect][nth]


PHOENIX, HIPPO, CYCLOPS, HYDRA = minion_of("phoenix"), minion_of("hippogriff"), minion_of("cyclops"), minion_of("hydra")
MANTICORE, KRAKEN, BALROG, DRAGON = minion_of("manticore"), minion_of("kraken"), minion_of("balrog"), minion_of("dragon")


class Table:
    """A set-up game ready for a scenario: heroes placed (hero h at the Town Inn if h is even, else
    the Forest Inn), the Invoker's first turn. Helpers move things from where they are."""

    def __init__(self, k: int = 2, seed: int = 0, characters: list[int] | None = None):
        self.R = R = MythsgateRules(GD, k, characters)
        self.s = s = R.initial_state(seed)
        for h in range(k):
            assert s.phase == P_PLACE and s.actor == 1 + h
            self.hero_do("place", INN_T if h % 2 == 0 else INN_F)
        assert s.phase == P_INV_MAIN and s.turn_side == INVOKER
        self.check()

    # ---- plumbing
    def check(self) -> None:
        self.R.validate(self.s)
        self.s.legal = None

    def _id(self, table, name: str, arg: int) -> int:
        return table.encode(name, arg)

    def inv_do(self, name: str, arg: int = 0) -> None:
        assert self.s.actor == 0, f"the Invoker is not to move (actor {self.s.actor})"
        self.R.apply(self.s, self._id(self.R.inv_table, name, arg))
        self.R.validate(self.s)

    def hero_do(self, name: str, arg: int = 0) -> None:
        assert self.s.actor >= 1, f"no hero to move (actor {self.s.actor})"
        self.R.apply(self.s, self._id(self.R.hero_table, name, arg))
        self.R.validate(self.s)

    def legal(self, name: str, hero: bool | None = None) -> list[int]:
        """Arguments of range ``name`` legal now (the mover's table)."""
        hero = self.s.actor >= 1 if hero is None else hero
        table = self.R.hero_table if hero else self.R.inv_table
        r = table._by_name[name]
        return [a - r.offset for a in self.R.legal_actions(self.s) if r.offset <= a < r.offset + r.size]

    def can(self, name: str, arg: int = 0) -> bool:
        return arg in self.legal(name)

    # ---- pieces
    def minion(self, m: int, space: int, lives: int | None = None) -> Table:
        """Put minion ``m`` in play on ``space`` (its card from wherever it is, lives from the supply)."""
        s, c = self.s, GD.minion_cards[m]
        for pile in (s.inv_hand, s.inv_deck, s.inv_discard, s.inv_aside, s.inv_removed):
            if c in pile:
                pile.remove(c)
        if s.m_space[m] >= 0:
            s.life_supply += s.m_lives[m]
        lives = self.R.minion[m].lives if lives is None else lives
        s.m_space[m], s.m_lives[m] = space, lives
        s.life_supply -= lives
        self.check()
        return self

    def remove_minion(self, m: int) -> Table:
        s = self.s
        s.life_supply += s.m_lives[m]
        s.m_space[m], s.m_lives[m], s.m_f[m], s.m_p[m] = -1, 0, 0, 0
        s.inv_deck.insert(0, GD.minion_cards[m])
        self.check()
        return self

    def hero(self, h: int, space: int, lives: int | None = None) -> Table:
        s = self.s
        s.h_space[h] = space
        if lives is not None:
            s.life_supply += s.h_lives[h] - lives
            s.h_lives[h] = lives
        self.check()
        return self

    def inv_card(self, c: int) -> Table:
        """Move Invoker card ``c`` into his hand."""
        s = self.s
        for pile in (s.inv_deck, s.inv_discard, s.inv_aside):
            if c in pile:
                pile.remove(c)
        if c not in s.inv_hand:
            s.inv_hand.append(c)
            s.inv_hand.sort()
        self.check()
        return self

    def empty_inv_hand(self) -> Table:
        s = self.s
        s.inv_deck[0:0] = s.inv_hand
        s.inv_hand = []
        s.inv_hand_known = []
        self.check()
        return self

    def _pull_power(self, kk: int) -> None:
        s = self.s
        for pile in (s.power_deck, s.power_discard):
            if kk in pile:
                pile.remove(kk)
                return
        for h in range(self.R.k):
            if s.h_hand[h][kk]:
                s.h_hand[h][kk] -= 1
                s.h_known[h][kk] = min(s.h_known[h][kk], s.h_hand[h][kk])
                return
        raise AssertionError(f"no Power card of kind {kk} left")

    def hand(self, h: int, *kinds: int) -> Table:
        """Set hero ``h``'s hand to exactly these Power card kinds (the old hand goes to the discard)."""
        s = self.s
        for kk, c in enumerate(s.h_hand[h]):
            s.power_discard.extend([kk] * c)
        s.h_hand[h] = [0] * self.R.K
        s.h_known[h] = [0] * self.R.K
        for kk in kinds:
            self._pull_power(kk)
            s.h_hand[h][kk] += 1
        self.check()
        return self

    def stack_power(self, *kinds: int) -> Table:
        """Put these cards on top of the Power deck; the first listed is drawn first."""
        for kk in kinds:
            self._pull_power(kk)
        self.s.power_deck.extend(reversed(kinds))
        self.check()
        return self

    def mats(self, h: int, **counts: int) -> Table:
        s = self.s
        for name, n in counts.items():
            t = MAT[name]
            take = min(n, s.supply[t])
            s.supply[t] -= take
            s.market[t] -= n - take
            s.h_mats[h][t] += n
        self.check()
        return self

    def stack_location(self, deck: int, *gids: int) -> Table:
        """Put these location cards on top of their deck (first listed drawn first)."""
        s = self.s
        for g in gids:
            for pile in (s.loc_deck[deck], s.loc_discard[deck]):
                if g in pile:
                    pile.remove(g)
        s.loc_deck[deck].extend(reversed(gids))
        self.check()
        return self

    def loc_cards(self, deck: int, kind_: int, **match) -> list[int]:
        return [c.gid for c in GD.location_cards if c.deck == deck and c.kind == kind_ and all(getattr(c, k) == v for k, v in match.items())]

    # ---- turns
    def invoker_turn(self, actions: int | None = None) -> Table:
        s = self.s
        s.turn_side, s.phase, s.actor, s.cur_hero, s.h_left, s.h_taken = INVOKER, P_INV_MAIN, 0, -1, 0, 0
        s.inv_left = self.R.num_players if actions is None else actions
        self.check()
        return self

    def hero_turn(self, h: int, actions: int | None = None) -> Table:
        s = self.s
        s.turn_side, s.phase, s.actor, s.cur_hero, s.inv_left = LEAGUE, P_HERO_MAIN, 1 + h, h, 0
        s.h_done = [1 if x != h else 0 for x in range(self.R.k)]
        s.h_left = self.R.hero_level(s, h) if actions is None else actions
        s.h_taken = 0
        self.check()
        return self


def book(deck: int, color: int) -> int:
    return [c.gid for c in GD.location_cards if c.deck == deck and c.kind == 1 and c.color == color][0]


# =================================================================================== setup
def test_setup_A_board_four_quadrants_with_locations() -> None:
    assert len(set(GD.quadrant)) == 4
    kinds = [GD.kind[i] for i in range(GD.num_spaces)]
    assert kinds.count("inn") == 2 and GD.quadrant[INN_T] == 0 and GD.quadrant[INN_F] == 2
    assert kinds.count("market") == 1 and kinds.count("forge") >= 1 and kinds.count("power_centre") >= 1
    assert GD.castle[TREASURE] and GD.quadrant[PORTAL] == 0


def test_setup_B_location_decks_shuffled_in_their_places() -> None:
    decks = [MythsgateRules(GD, 1).initial_state(seed).loc_deck for seed in range(3)]
    for d in range(3):
        assert sorted(decks[0][d]) == [c.gid for c in GD.location_cards if c.deck == d]
        assert len(decks[0][d]) == PRINTED["location_cards"]
    assert decks[0] != decks[1] != decks[2]


def test_setup_C_market_one_token_of_each_basic_material() -> None:
    s = Table(2).s
    assert s.market == [1 if GD.basic[t] else 0 for t in range(GD.num_materials)]
    assert [s.supply[t] + s.market[t] for t in range(GD.num_materials)] == list(GD.material_counts)
    assert sum(GD.material_counts) == 52


def test_setup_D_ten_gems_in_the_treasure_chamber() -> None:
    T = Table(2)
    assert T.s.gems == 0 and T.R.scores(T.s) == [0, 10, 10]


@pytest.mark.parametrize("k", [1, 3, 5])
def test_setup_E_hero_starting_power_cards(k: int) -> None:
    T = Table(k)
    s = T.s
    for h in range(k):
        assert s.h_lives[h] == 1
        assert s.h_hand[h][kind(2)] == 3 and s.h_hand[h][kind(3)] == 2 and sum(s.h_hand[h]) == 5
        assert s.h_armour[h] == [0, 0, 0, 0]
    assert len(s.power_deck) == PRINTED["power_cards"] - 5 * k
    assert s.life_supply == 15 - k


def test_setup_F_invoker_tokens_deck_and_rune_cards_set_aside() -> None:
    s = Table(2).s
    assert s.tokens == [0, 0, 0, 0], "black-and-white side up"
    assert sorted(GD.invoker_cards[c].rune for c in s.inv_aside) == [0, 3, 6]
    assert len(s.inv_hand) + len(s.inv_deck) == 17 - 1 + 1  # 17 cards, the first turn's draw included
    assert any(GD.invoker_cards[c].minion for c in s.inv_hand)


def test_setup_G_each_hero_places_its_token_in_an_inn() -> None:
    R = MythsgateRules(GD, 3)
    s = R.initial_state(0)
    for h in range(3):
        assert s.phase == P_PLACE and s.actor == 1 + h
        legal = R.legal_actions(s)
        assert legal == [R.hero_table.encode("place", i) for i in GD.inns]
        R.apply(s, R.hero_table.encode("place", GD.inns[h % 2]))
    assert s.h_space == [INN_T, INN_F, INN_T] and s.phase == P_INV_MAIN


# =================================================================================== rounds
def test_round_invoker_then_league_in_the_order_it_chooses() -> None:
    T = Table(3)
    T.minion(HIPPO, ESHAFT)
    T.inv_do("end_turn")
    assert T.s.turn_side == LEAGUE and T.s.phase == P_CHOOSE and T.s.actor == 1
    assert T.legal("choose_hero") == [0, 1, 2]
    T.hero_do("choose_hero", 2)
    T.hero_do("choose_hero", 0)
    assert T.s.h_order == [2, 0, 1], "the last place needs no choice"
    for h in (2, 0, 1):
        assert T.s.cur_hero == h and T.s.phase == P_HERO_MAIN
        T.hero_do("end_turn")
    assert T.s.round == 1 and T.s.turn_side == INVOKER and T.s.actor == 0


def test_league_agrees_its_turn_order_beforehand() -> None:
    T = Table(3)
    T.minion(HIPPO, ESHAFT)
    T.inv_do("end_turn")
    T.hero_do("choose_hero", 1)
    assert T.s.phase == P_CHOOSE and T.s.cur_hero == -1, "the whole order is agreed before any hero plays"
    T.hero_do("choose_hero", 2)
    assert T.s.h_order == [1, 2, 0] and T.s.cur_hero == 1
    T.hero_do("end_turn")
    assert T.s.phase == P_HERO_MAIN and T.s.cur_hero == 2, "no choice after a hero's turn: the agreed order goes on"
    assert not T.legal("choose_hero", hero=True)
    from mythzoo.envs.mythsgate.observation import MythsgateObserver

    obs = MythsgateObserver(T.R, 30)
    piece = obs.layout(2).by_name["turn_order"]
    v = obs.observation(T.s, 2)[piece.offset: piece.offset + piece.size].reshape(piece.shape)  # hero_1: slot 0 is itself
    assert [int(v[i].argmax()) for i in range(3)] == [0, 1, 2] and v.sum() == 3


# ================================================================= the Great Invoker's turn
def test_invoker_sacrifice_minion_next_to_castle_steals_a_gem_and_returns_to_portal() -> None:
    T = Table(1)
    T.minion(HYDRA, WSHAFT).minion(HIPPO, INN_T)
    T.s.h_done = [0]
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    s = T.s
    assert s.phase == P_SACRIFICE and T.legal("sacrifice") == [HYDRA]
    T.inv_do("sacrifice", HYDRA)
    assert s.gems == 1 and s.m_lives[HYDRA] == 1 and s.m_space[HYDRA] == PORTAL
    assert s.phase == P_INV_MAIN, "no other minion next to the Castle"


def test_invoker_sacrifice_only_minions_adjacent_to_the_castle() -> None:
    assert [GD.space_names[i] for i in range(GD.num_spaces) if GD.castle_adjacent[i]] == ["West Shaft", "East Shaft", "Glade", "Forest Power Centre"]
    T = Table(1)
    T.minion(HYDRA, INN_F).minion(HIPPO, PORTAL)
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    assert T.s.phase == P_INV_MAIN, "no sacrifice possible: the phase is skipped"


def test_invoker_sacrifice_several_minions_one_decision_each() -> None:
    T = Table(1)
    T.minion(HYDRA, WSHAFT).minion(CYCLOPS, GLADE)
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    assert T.legal("sacrifice") == sorted([HYDRA, CYCLOPS])
    T.inv_do("sacrifice", CYCLOPS)
    assert T.s.phase == P_SACRIFICE and T.legal("sacrifice") == [HYDRA]
    T.inv_do("end_sacrifice")
    assert T.s.gems == 1 and T.s.phase == P_INV_MAIN


def test_invoker_wins_on_the_tenth_gem() -> None:
    T = Table(1)
    T.minion(HYDRA, WSHAFT)
    T.s.gems = 9
    T.check()
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    T.inv_do("sacrifice", HYDRA)
    assert T.s.over and T.s.winner == 0 and T.s.gems == 10


def test_assumption_sacrificing_the_last_life_kills_the_minion() -> None:
    T = Table(1)
    T.minion(PHOENIX, WSHAFT).minion(HIPPO, INN_T)
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    T.inv_do("sacrifice", PHOENIX)
    assert T.s.m_space[PHOENIX] == -1 and GD.minion_cards[PHOENIX] in T.s.inv_discard and T.s.gems == 1
    assert not T.s.over


def test_assumption_sacrificing_the_only_minion_to_death_lets_the_league_win() -> None:
    T = Table(1)
    T.minion(PHOENIX, WSHAFT)
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    T.inv_do("sacrifice", PHOENIX)
    assert T.s.over and T.s.winner == 1


@pytest.mark.parametrize("k", [1, 2, 5])
def test_invoker_actions_equal_players_in_the_game_himself_included(k: int) -> None:
    T = Table(k)
    assert T.s.inv_left == k + 1
    T.inv_card(effect_card("X3")).inv_card(effect_card("X4"))
    T.minion(HIPPO, INN_T)
    for _ in range(k + 1):
        T.inv_do("ability", HIPPO)
        if T.s.phase == P_PLACE:
            T.inv_do("place", GLADE if T.s.m_space[HIPPO] != GLADE else ESHAFT)
    assert T.s.turn_side == LEAGUE, "no more actions: play passes to the League"


def test_invoker_may_repeat_the_same_action() -> None:
    T = Table(2)
    T.minion(HIPPO, INN_T)
    T.inv_do("move_minions")
    T.inv_do("place", MARKET)
    T.inv_do("move_minions")
    T.inv_do("place", INN_T)
    assert T.s.m_space[HIPPO] == INN_T and T.s.inv_left == 1


def test_invoker_move_all_minions_in_play_one_decision_each() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T).minion(CYCLOPS, GLADE).minion(HYDRA, FORGE_F)
    T.inv_do("move_minions")
    order = [m for m in range(NUM_MINIONS) if T.s.m_space[m] >= 0]
    for m in order:
        assert T.s.phase == P_PLACE and T.s.pl[1] == m
        cands = T.legal("place")
        assert cands == [x for x in GD.adj[T.s.m_space[m]] if not GD.castle[x]]
        T.inv_do("place", cands[-1])
    assert T.s.m_space[HIPPO] in GD.adj[INN_T] and T.s.m_space[CYCLOPS] in (PC_T, INN_T, INN_F, PC_F)


def test_minions_never_enter_the_castle() -> None:
    T = Table(1)
    T.minion(HIPPO, GLADE)
    T.inv_do("move_minions")
    assert set(T.legal("place")) == {PC_T, INN_T, INN_F, PC_F}, "from the Glade only out of the Castle (not its bridge to it)"
    T.inv_do("place", PC_F)
    T.inv_do("ability", HIPPO)
    assert not any(GD.castle[x] for x in T.legal("place"))


def test_invoker_combat_minion_against_hero_on_its_space() -> None:
    T = Table(2)
    T.minion(CYCLOPS, INN_T)
    assert T.legal("attack") == [CYCLOPS * 5 + 0]
    T.inv_do("attack", CYCLOPS * 5 + 0)
    assert T.s.phase == P_COMMIT and T.s.actor == 1 and T.s.cb_att == 0


def test_invoker_card_plus3f_strength_until_end_of_game() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T).inv_card(effect_card("+3F"))
    base = T.R.minion_strength(T.s, HIPPO)
    T.inv_do("card_plus_f", HIPPO)
    assert T.R.minion_strength(T.s, HIPPO) == base + 3 and effect_card("+3F") in T.s.inv_discard
    T.s.round += 5
    assert T.R.minion_strength(T.s, HIPPO) == base + 3


def test_invoker_card_plus1p_power_until_end_of_game() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T).inv_card(effect_card("+1P"))
    base = T.R.minion_power(T.s, HIPPO)
    T.inv_do("card_plus_p", HIPPO)
    assert T.R.minion_power(T.s, HIPPO) == base + 1


@pytest.mark.parametrize("value", [3, 4])
def test_invoker_card_x3_x4_bans_power_cards_until_his_next_turn(value: int) -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).inv_card(effect_card(f"X{value}")).hand(0, kind(2), kind(value))
    T.inv_do(f"card_x{value}")
    T.inv_do("attack", CYCLOPS * 5)
    assert T.legal("commit") == [kind(2)], f"Power {value} cards cannot be played"
    T.hero_do("commit", kind(2))
    T.hero_do("fight")
    T.inv_do("draw")
    # the ban lasts through the League's turn and ends at the Invoker's next turn
    while T.s.turn_side != LEAGUE or T.s.phase != P_HERO_MAIN:
        T.R.apply(T.s, T.R.legal_actions(T.s)[-1])
    assert (T.s.ban3 if value == 3 else T.s.ban4) == 1
    if T.s.h_lives[0] == 0:  # beaten to its last life: its next action must gain one
        T.hero_do("rest")
    T.hero_do("end_turn")
    while T.s.phase == P_DISCARD:
        T.R.apply(T.s, T.R.legal_actions(T.s)[0])
    assert T.s.turn_side == INVOKER and T.s.ban3 == 0 and T.s.ban4 == 0


def test_invoker_card_teleport_minion_anywhere_outside_the_castle() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).inv_card(effect_card("teleport"))
    T.inv_do("card_teleport", CYCLOPS)
    assert T.legal("place") == [x for x in range(GD.num_spaces) if not GD.castle[x]]
    T.inv_do("place", ESHAFT)
    assert T.s.m_space[CYCLOPS] == ESHAFT


def test_invoker_invoke_minion_with_its_lives_on_the_portal() -> None:
    T = Table(1)
    T.inv_card(GD.minion_cards[HYDRA])
    supply = T.s.life_supply
    T.inv_do("invoke", HYDRA)
    assert T.s.m_space[HYDRA] == PORTAL and T.s.m_lives[HYDRA] == GD.invoker_cards[GD.minion_cards[HYDRA]].lives
    assert T.s.life_supply == supply - T.s.m_lives[HYDRA] and GD.minion_cards[HYDRA] not in T.s.inv_hand


def test_assumption_invoke_needs_enough_life_tokens_in_the_supply() -> None:
    T = Table(1)
    T.inv_card(GD.minion_cards[DRAGON])
    assert T.can("invoke", DRAGON)
    T.minion(KRAKEN, INN_F).minion(BALROG, INN_F).minion(MANTICORE, INN_F).minion(HIPPO, INN_F).minion(CYCLOPS, INN_F)
    assert T.s.life_supply == 15 - 1 - 3 - 3 - 2 - 2 - 2 == 2
    assert not T.can("invoke", DRAGON), "the Dragon needs 3 life tokens"


def test_invoker_pass_ends_his_turn() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_F)
    T.inv_do("end_turn")
    assert T.s.turn_side == LEAGUE and T.s.actor == 1


def test_assumption_invoker_draws_one_card_at_the_start_of_his_turn() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_F)
    n = len(T.s.inv_hand)
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    assert len(T.s.inv_hand) == n + 1


# ------------------------------------------------------------------------- minion abilities
def test_phoenix_takes_the_phoenix_card_back_from_the_discard_once_per_game() -> None:
    T = Table(1)
    other = minion_of("phoenix", 1)
    T.minion(PHOENIX, INN_F)
    T.s.inv_deck.remove(GD.minion_cards[other])
    T.s.inv_discard.append(GD.minion_cards[other])
    T.check()
    T.inv_do("ability", PHOENIX)
    assert GD.minion_cards[other] in T.s.inv_hand and T.s.phoenix_used == 1
    assert T.s.inv_hand_known == [GD.minion_cards[other]], "taken face up: its place is public"
    T.s.inv_hand.remove(GD.minion_cards[other])
    T.s.inv_hand_known = []
    T.s.inv_discard.append(GD.minion_cards[other])
    T.check()
    assert not T.can("ability", PHOENIX), "once per game"


def test_hippogriff_teleports_anywhere_outside_the_castle() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T)
    T.inv_do("ability", HIPPO)
    assert T.s.phase == P_PLACE and set(T.legal("place")) == {x for x in range(GD.num_spaces) if not GD.castle[x]}
    T.inv_do("place", PC_F)
    assert T.s.m_space[HIPPO] == PC_F


def _fight(T: Table, m: int, h: int, hero_cards: list[int], inv_cards: list[int], by_hero: bool = False) -> None:
    """A combat between minion m and hero h with these cards (the Invoker's drawn from the top)."""
    T.hand(h, *hero_cards)
    T.stack_power(*inv_cards)
    if by_hero:
        T.hero_do("attack", m)
    else:
        T.inv_do("attack", m * 5 + h)
    for c in hero_cards:
        T.hero_do("commit", c)
    T.hero_do("fight")
    T.inv_do("draw")


def test_balrog_after_winning_gives_plus1f_to_the_other_minions_this_round() -> None:
    T = Table(1)
    T.minion(BALROG, INN_T).minion(HIPPO, INN_F)
    before = T.R.minion_strength(T.s, HIPPO)
    own = T.R.minion_strength(T.s, BALROG)
    _fight(T, BALROG, 0, [kind(1)], [kind(2), kind(2)])
    assert T.s.balrog_bonus == 1 and T.R.minion_strength(T.s, HIPPO) == before + 1
    assert T.R.minion_strength(T.s, BALROG) == own


def test_cyclops_discards_a_basic_material_of_a_hero_on_its_space() -> None:
    T = Table(2)
    T.minion(CYCLOPS, INN_T).mats(0, wood=1, crystal=1)
    T.inv_do("ability", CYCLOPS)
    assert T.s.phase == P_CYCLOPS and T.legal("cyclops") == [0 * GD.num_materials + WOOD]
    T.inv_do("cyclops", WOOD)
    assert T.s.h_mats[0][WOOD] == 0 and T.s.h_mats[0][CRYSTAL] == 1


def test_dragon_moves_a_hero_on_its_space_to_an_adjacent_space() -> None:
    T = Table(2)
    T.minion(DRAGON, INN_T)
    T.inv_do("ability", DRAGON)
    assert T.s.phase == P_DRAGON and T.legal("pick_hero") == [0]
    T.inv_do("pick_hero", 0)
    assert set(T.legal("place")) == set(GD.adj[INN_T])
    T.inv_do("place", MARKET)
    assert T.s.h_space[0] == MARKET


def test_hydra_after_winning_sends_the_hero_to_an_inn() -> None:
    T = Table(1)
    T.minion(HYDRA, GLADE).hero(0, GLADE, lives=2)
    _fight(T, HYDRA, 0, [kind(1)], [kind(4), kind(4)])
    if T.s.phase == P_TOKEN:
        T.inv_do("decline")
    assert T.s.phase == P_PLACE and T.s.actor == 0 and T.legal("place") == list(GD.inns)
    T.inv_do("place", INN_T)
    assert T.s.h_space[0] == INN_T and T.s.h_lives[0] == 1


def test_manticore_looks_at_five_power_cards_and_may_discard_one() -> None:
    T = Table(1)
    T.minion(MANTICORE, INN_F)
    top = list(reversed(T.s.power_deck[-5:]))
    T.inv_do("ability", MANTICORE)
    assert T.s.phase == P_MANTICORE and T.legal("pick_card") == [0, 1, 2, 3, 4] and T.can("keep_all")
    T.inv_do("pick_card", 1)
    assert T.s.power_discard[-1] == top[1]
    assert list(reversed(T.s.power_deck[-4:])) == [top[0]] + top[2:]
    assert T.s.inv_known == 4, "the Invoker remembers the 4 cards he saw"


def test_kraken_looks_at_five_and_chooses_three_for_the_combat() -> None:
    T = Table(1)
    T.minion(KRAKEN, INN_T)
    cards = [kind(1), kind(4), kind(2), kind(4), kind(3)]
    T.hand(0, kind(2))
    T.stack_power(*cards)
    T.inv_do("attack", KRAKEN * 5)
    T.hero_do("commit", kind(2))
    T.hero_do("fight")
    T.inv_do("draw")
    assert T.s.phase == P_KRAKEN and sorted(T.s.cb_kview) == sorted(cards)
    for _ in range(3):
        best = max(range(len(T.s.cb_kview)), key=lambda i: GD.power_kinds[T.s.cb_kview[i]][0])
        T.inv_do("pick_card", best)
    assert T.s.cb_on == 0 and T.s.h_lives[0] == 0, "4+4+3 wins"
    assert sorted(T.s.power_discard[-6:]) == sorted([kind(2)] + cards), "all cards seen and played are discarded"


# ================================================================= the Atari League's turn
def test_hero_actions_up_to_its_level() -> None:
    T = Table(1, characters=[HOOD])
    T.minion(HIPPO, PC_F)
    T.inv_do("end_turn")
    assert T.s.h_left == GD.heroes[HOOD].boots == 3
    for x in (MARKET, INN_T, MARKET):
        T.hero_do("move", x)
    assert T.s.turn_side == INVOKER, "after its level's actions the hero's turn ends"


def test_hero_may_pass_before_using_all_actions() -> None:
    T = Table(2)
    T.minion(HIPPO, PC_F)
    T.inv_do("end_turn")
    T.hero_do("choose_hero", 0)
    T.hero_do("end_turn")
    assert T.s.cur_hero == 1


def test_hero_move_along_right_angle_paths() -> None:
    T = Table(1).hero_turn(0)
    T.hero(0, PORTAL)
    assert set(T.legal("move")) == {MARKET, PC_T}, "no diagonal inside a quadrant"


def test_hero_move_bridge_four_spaces_mutually_adjacent() -> None:
    T = Table(1).hero_turn(0)
    T.hero(0, INN_T)
    assert set(T.legal("move")) == {MARKET, PC_T, FORGE_M, WSHAFT, INN_F, GLADE}
    T.hero(0, GLADE)
    assert {BRIDGEHEAD, HALL, PC_F, INN_T, PC_T}.issubset(T.legal("move")), "two bridges touch the Glade"
    T.hero(0, PORTAL)
    assert FORGE_M not in T.legal("move"), "changing quadrant needs a bridge"


def test_explore_basic_material_take_token_discard_card() -> None:
    T = Table(1).hero_turn(0)
    c = T.loc_cards(0, 0, material=WOOD)[0]
    T.stack_location(0, c)
    T.hero_do("explore")
    assert T.s.h_mats[0][WOOD] == 1 and c in T.s.loc_discard[0]


def test_explore_knowledge_book_kept_next_to_the_board() -> None:
    T = Table(1).hero_turn(0)
    c = book(0, 0)
    T.stack_location(0, c)
    T.hero_do("explore")
    assert T.s.h_books[0] == [c]


def test_knowledge_book_yellow_strength_before_combat() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).stack_location(0, book(0, 0))
    T.s.h_books[0] = [book(0, 0)]
    T.s.loc_deck[0].remove(book(0, 0))
    T.check()
    T.hand(0, kind(2))
    T.inv_do("attack", CYCLOPS * 5)
    assert T.can("use_book", 0)
    base = T.R.hero_strength(T.s, 0)
    T.hero_do("use_book", 0)
    assert T.R.hero_strength(T.s, 0) == base + GD.book_effect[0] and T.s.h_books[0] == []
    T.hero_do("commit", kind(2))
    assert not T.can("use_book", 0), "books are played before the combat begins"


def test_knowledge_book_red_power_before_combat() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T)
    red = book(0, 1)
    T.s.loc_deck[0].remove(red)
    T.s.h_books[0] = [red]
    T.check()
    T.hand(0, kind(2), kind(2), kind(2))
    T.inv_do("attack", CYCLOPS * 5)
    T.hero_do("use_book", 1)
    T.hero_do("commit", kind(2))
    T.hero_do("commit", kind(2))
    assert T.can("commit", kind(2)), "a third card with the red book"


def test_knowledge_book_green_boots_for_one_turn_before_the_actions() -> None:
    T = Table(1)
    green = book(0, 2)
    T.s.loc_deck[0].remove(green)
    T.s.h_books[0] = [green]
    T.check()
    T.hero_turn(0)
    assert T.can("use_book", 2)
    T.hero_do("use_book", 2)
    assert T.s.h_left == GD.heroes[0].boots + 1
    T.hero_do("move", MARKET)
    assert not T.can("use_book", 2)


def test_explore_minion_encounter_starts_a_combat_defending_the_space() -> None:
    T = Table(1).hero_turn(0)
    enc = T.loc_cards(0, 2)[0]
    T.stack_location(0, enc)
    T.hand(0, kind(4))
    T.hero_do("explore")
    assert T.s.phase == P_COMMIT and T.s.cb_enc == enc and T.s.cb_att == 1
    T.stack_power(kind(1))
    T.hero_do("commit", kind(4))
    T.hero_do("fight")
    T.inv_do("draw")
    loot = GD.location_cards[enc].loot
    assert T.s.h_mats[0] == list(loot) and enc in T.s.loc_discard[0], "won: its materials; the encounter card is discarded"


def test_encounter_cards_icons_act_for_the_encounter_not_the_invoker() -> None:
    T = Table(1).hero_turn(0)
    enc = 12  # a Town encounter: Strength 2, Power 2
    assert GD.location_cards[enc].kind == 2 and GD.location_cards[enc].power == 2
    T.stack_location(0, enc)
    T.hand(0, kind(4), kind(1, 3))
    T.s.inv_round_f, T.s.inv_round_p = 2, 1  # the Invoker's round bonuses do not help the realm's monster
    T.check()
    T.hero_do("explore")
    assert T.R.combat_totals(T.s)[1] == GD.location_cards[enc].strength and T.R.invoker_draws(T.s) == 2
    T.hero_do("commit", kind(1, 3))  # the hero's Chains binds the encounter it fights, not the Invoker
    assert T.s.inv_chain == 0 and T.R.invoker_draws(T.s) == 1
    T.hero_do("commit", kind(4))
    T.stack_power(kind(1, 4))  # a Draw icon for the encounter: it has no Great Invoker deck
    hand, aside = list(T.s.inv_hand), list(T.s.inv_aside)
    T.hero_do("fight")
    T.inv_do("draw")
    assert T.s.inv_hand == hand and T.s.inv_aside == aside, "the Draw icon gives the Invoker nothing"
    # a +2F icon drawn for an encounter counts in that combat only, never for the Invoker's minions
    T2 = Table(1).hero_turn(0)
    T2.stack_location(0, enc)
    T2.hand(0, kind(1))
    T2.hero_do("explore")
    T2.hero_do("commit", kind(1))
    T2.stack_power(kind(1, 1), kind(1))
    T2.hero_do("fight")
    T2.inv_do("draw")
    assert T2.s.h_lives[0] == 0 and T2.s.inv_round_f == 0, "+2F acted for the encounter in its combat, not for the Invoker"


def test_explore_no_cards_in_the_castle() -> None:
    T = Table(1).hero_turn(0)
    T.hero(0, HALL)
    assert not T.can("explore")


def test_explore_last_card_of_a_deck_reshuffles_its_discard_pile() -> None:
    T = Table(1).hero_turn(0)
    s = T.s
    deck = s.loc_deck[2]
    mats = [c for c in deck if GD.location_cards[c].kind == 0]
    last = mats[0]
    s.loc_discard[2] = [c for c in deck if c != last]
    s.loc_deck[2] = [last]
    T.hero(0, INN_F)
    T.hero_do("explore")
    assert len(s.loc_deck[2]) == 13 and s.loc_discard[2] == [last], "the drawn card is discarded after the reshuffle"


def test_drawing_the_last_power_card_reshuffles_its_discard_pile_at_once() -> None:
    T = Table(1).hero_turn(0)
    s = T.s
    T.hero(0, PC_T)
    s.power_discard.extend(s.power_deck[:-3])
    del s.power_deck[:-3]  # three cards left: the Power Centre draws the last one
    T.check()
    n = len(s.power_discard)
    T.hero_do("power_centre")
    assert len(s.power_deck) == n and s.power_discard == [], "the discard pile became the deck as the last card was drawn"


def test_drawing_the_last_invoker_card_reshuffles_his_discard_pile_at_once() -> None:
    T = Table(1)
    s = T.s
    T.minion(HIPPO, INN_F)
    s.inv_discard.extend(s.inv_deck[1:])
    del s.inv_deck[1:]  # one card left: his draw at the start of his turn takes it
    T.check()
    n = len(s.inv_discard)
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    assert s.turn_side == INVOKER and len(s.inv_deck) == n and s.inv_discard == [], "the deck was rebuilt at once"


def test_trade_with_a_hero_on_the_same_space() -> None:
    T = Table(2)
    T.hero(1, INN_T).mats(0, wood=2).mats(1, iron=1).hero_turn(0)
    T.hero_do("trade")
    assert T.s.phase == P_TRADE
    M = GD.num_materials
    T.hero_do("give", 1 * M + WOOD)
    T.hero_do("take", 1 * M + IRON)
    T.hero_do("end_trade")
    assert T.s.h_mats[0][WOOD] == 1 and T.s.h_mats[1][WOOD] == 1 and T.s.h_mats[0][IRON] == 1
    assert T.s.h_left == GD.heroes[0].boots - 1, "a trade is one action, however many exchanges"


def test_trade_not_possible_without_a_hero_on_the_space() -> None:
    T = Table(2)
    T.mats(0, wood=1).hero_turn(0)
    assert not T.can("trade")


def test_assumption_trade_transfers_capped_per_trade_action() -> None:
    T = Table(2)
    T.hero(1, INN_T).mats(0, wood=8).hero_turn(0)
    T.hero_do("trade")
    for _ in range(6):
        T.hero_do("give", GD.num_materials + WOOD)
    assert T.s.phase == P_HERO_MAIN and T.s.h_mats[1][WOOD] == 6


def test_hero_combat_against_a_minion_on_its_space() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T).minion(CYCLOPS, MARKET).hero_turn(0)
    assert T.legal("attack") == [HIPPO]


# ================================================================================ locations
def test_inn_take_a_life_if_fewer_than_two() -> None:
    T = Table(1).hero_turn(0)
    T.hero_do("rest")
    assert T.s.h_lives[0] == 2
    assert not T.can("rest")


def test_market_place_one_material_take_one_available() -> None:
    T = Table(1).hero_turn(0)
    T.hero(0, MARKET).mats(0, crystal=1)
    M = GD.num_materials
    assert set(T.legal("market")) == {CRYSTAL * M + t for t in range(M) if GD.basic[t]}
    T.hero_do("market", CRYSTAL * M + IRON)
    assert T.s.market[CRYSTAL] == 1 and T.s.market[IRON] == 0 and T.s.h_mats[0][IRON] == 1


def test_forge_pays_materials_to_the_supply_and_improves_the_hero() -> None:
    T = Table(1).hero_turn(0, actions=5)
    T.hero(0, FORGE_M)
    cost = GD.heroes[0].costs
    for p in range(4):
        T.mats(0, **{GD.materials[t]: c for t, c in enumerate(cost[p]) if c})
    s, R = T.s, T.R
    st, lvl, hm = GD.heroes[0].strength, R.hero_level(s, 0), R.hand_max(s, 0)
    supply = list(s.supply)
    T.hero_do("forge", 0)
    assert s.h_armour[0][0] == 1 and s.supply == [supply[t] + cost[0][t] for t in range(GD.num_materials)]
    assert R.hero_strength(s, 0) == st + GD.piece_amount[0]
    T.hero_do("forge", 2)
    assert R.hero_level(s, 0) == lvl + GD.piece_amount[2]
    T.hero_do("forge", 3)
    assert R.hand_max(s, 0) == hm + GD.piece_amount[3]
    assert not T.can("forge", 0), "each piece once"


def test_forge_only_at_a_forge() -> None:
    T = Table(1).hero_turn(0)
    T.mats(0, **{GD.materials[t]: c for t, c in enumerate(GD.heroes[0].costs[0]) if c})
    assert not T.can("forge", 0)


def test_power_centre_draw_three_power_cards() -> None:
    T = Table(1).hero_turn(0)
    T.hero(0, PC_T)
    n = sum(T.s.h_hand[0])
    T.hero_do("power_centre")
    assert sum(T.s.h_hand[0]) == n + 3


# ==================================================================================== combat
def test_combat_hero_plays_between_one_and_max_power_cards() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).hand(0, kind(2), kind(2), kind(3))
    T.inv_do("attack", CYCLOPS * 5)
    assert not T.can("fight"), "at least one card"
    T.hero_do("commit", kind(2))
    T.hero_do("commit", kind(3))
    assert T.legal("commit") == [] and T.can("fight"), f"at most {GD.heroes[0].power} cards"


def test_assumption_combat_without_power_cards_fights_with_none() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).hand(0)
    T.inv_do("attack", CYCLOPS * 5)
    assert T.legal("commit") == [] and T.can("fight")


def test_combat_invoker_draws_as_many_cards_as_the_minion_power() -> None:
    T = Table(1)
    T.minion(HYDRA, INN_T)
    _fight(T, HYDRA, 0, [kind(2)], [kind(1), kind(1), kind(4)])
    assert T.s.power_deck[-1] == kind(4), "the Hydra (Power 2) drew two cards"


def test_combat_strength_plus_power_cards_higher_wins() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T)  # Strength 3, Power 1
    T.hero(0, INN_T, lives=2)
    _fight(T, HIPPO, 0, [kind(2), kind(3)], [kind(1)])  # hero 2+5 = 7 vs 3+1 = 4
    assert T.s.m_lives[HIPPO] == 1


def test_combat_tie_goes_to_attacker() -> None:
    # the Invoker attacks: hero 2+2 = 4 vs Hippogriff 3+1 = 4, the minion wins
    T = Table(1)
    T.minion(HIPPO, INN_T).hero(0, INN_T, lives=2)
    _fight(T, HIPPO, 0, [kind(2)], [kind(1)])
    assert T.s.h_lives[0] == 1 and T.s.m_lives[HIPPO] == 2
    # the hero attacks: same totals, the hero wins
    T = Table(1)
    T.minion(HIPPO, INN_T).hero_turn(0)
    _fight(T, HIPPO, 0, [kind(2)], [kind(1)], by_hero=True)
    assert T.s.m_lives[HIPPO] == 1 and T.s.h_lives[0] == 1


def test_combat_invoker_loses_may_advance_a_marker_bonus_for_all_minions() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T).minion(CYCLOPS, INN_F)
    T.s.tracks[0] = 1
    T.check()
    base = T.R.minion_strength(T.s, CYCLOPS)
    _fight(T, HIPPO, 0, [kind(4), kind(4)], [kind(1)])
    assert T.s.phase == P_TRACK and T.s.actor == 0 and T.can("decline")
    T.inv_do("track", 0)
    assert T.s.tracks[0] == 2 and T.R.minion_strength(T.s, CYCLOPS) == base + 1, "bonus at space 2, for every minion"


def test_combat_hero_wins_gains_materials_and_minion_loses_a_life() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T)
    _fight(T, HIPPO, 0, [kind(4), kind(4)], [kind(1)])
    assert T.s.h_mats[0][LEATHER] == 1 and T.s.h_mats[0][WOOD] == 1 and T.s.m_lives[HIPPO] == 1


def test_combat_minion_last_life_removed_from_the_game() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T, lives=1).minion(CYCLOPS, INN_F)
    _fight(T, HIPPO, 0, [kind(4), kind(4)], [kind(1)])
    assert T.s.m_space[HIPPO] == -1 and GD.minion_cards[HIPPO] in T.s.inv_removed


def test_killed_minion_is_removed_from_the_game() -> None:
    T = Table(1)
    card = GD.minion_cards[HIPPO]
    T.minion(HIPPO, INN_T, lives=1).minion(CYCLOPS, INN_F)
    _fight(T, HIPPO, 0, [kind(4), kind(4)], [kind(1)])
    s = T.s
    assert s.inv_removed == [card] and card not in s.inv_discard + s.inv_deck + s.inv_hand
    T.inv_do("decline")  # no marker advance; the removed card stays out of every pile
    assert s.inv_removed == [card] and card not in s.inv_discard + s.inv_deck + s.inv_hand
    # both roles' observations show it removed
    from mythzoo.envs.mythsgate.observation import MythsgateObserver

    obs = MythsgateObserver(T.R, 30)
    for seat in (0, 1):
        piece = obs.layout(seat).by_name["invoker_cards"]
        v = obs.observation(s, seat)[piece.offset: piece.offset + piece.size].reshape(piece.shape)
        assert v[card, piece.axes[1].index("removed")] == 1.0 and v[card].sum() == 1.0


def test_killed_phoenix_goes_to_the_discard_pile_for_the_other_phoenix() -> None:
    T = Table(1)
    T.minion(PHOENIX, INN_T, lives=1).minion(CYCLOPS, INN_F)
    _fight(T, PHOENIX, 0, [kind(4), kind(4)], [kind(1)])
    assert GD.minion_cards[PHOENIX] in T.s.inv_discard and T.s.inv_removed == []


def test_combat_invoker_wins_may_flip_an_ability_token() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).hero(0, INN_T, lives=2)
    _fight(T, CYCLOPS, 0, [kind(1)], [kind(4)])
    assert T.s.phase == P_TOKEN and T.legal("flip") == [0, 1, 2, 3] and T.can("decline")
    T.inv_do("flip", 2)
    assert T.s.tokens == [0, 0, 1, 0]


def test_assumption_ability_tokens_used_then_flipped_back() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).minion(HYDRA, INN_F, lives=1)
    T.s.tokens = [1, 1, 1, 1]
    T.check()
    left = T.s.inv_left
    T.inv_do("token_haste")
    assert T.s.inv_left == left + 1 and T.s.tokens[2] == 0
    T.inv_do("token_regenerate", HYDRA)
    assert T.s.m_lives[HYDRA] == 2 and T.s.tokens[3] == 0
    T.hand(0, kind(1))
    T.inv_do("attack", CYCLOPS * 5)
    T.hero_do("commit", kind(1))
    T.hero_do("fight")
    st, dr = T.R.invoker_strength(T.s), T.R.invoker_draws(T.s)
    T.inv_do("token_fury")
    T.inv_do("token_dark_power")
    assert T.R.invoker_strength(T.s) == st + 2 and T.R.invoker_draws(T.s) == dr + 1 and T.s.tokens == [0, 0, 0, 0]


def test_combat_icon_plus2f_strength_until_end_of_round() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).hero_turn(0, actions=3).hero(0, INN_T, lives=2)
    base = T.R.hero_strength(T.s, 0)
    _fight(T, CYCLOPS, 0, [kind(2, 1)], [kind(1)], by_hero=True)
    assert T.s.h_round_f[0] == 2 and T.R.hero_strength(T.s, 0) == base + 2


def test_combat_icon_plus1p_power_until_end_of_round() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).hand(0, kind(2, 2), kind(2), kind(3))
    T.inv_do("attack", CYCLOPS * 5)
    T.hero_do("commit", kind(2, 2))
    T.hero_do("commit", kind(2))
    assert T.can("commit", kind(3)), "+1P: a third card"


def test_combat_icon_chains_one_point_of_power_unusable_this_round() -> None:
    T = Table(1)
    T.minion(HYDRA, INN_T)
    T.hand(0, kind(2, 3))
    T.inv_do("attack", HYDRA * 5)
    before = T.R.minion_power(T.s, HYDRA)
    T.hero_do("commit", kind(2, 3))
    assert T.R.minion_power(T.s, HYDRA) == before - 1 and T.s.inv_chain == 1


def test_combat_icon_draw_three_invoker_cards_by_the_portal_runes() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).hero(0, INN_T, lives=2)
    T.s.gems = 3
    T.check()
    n = len(T.s.inv_hand)
    _fight(T, CYCLOPS, 0, [kind(1)], [kind(1, 4)])
    runes = sorted(GD.invoker_cards[c].rune for c in T.s.inv_hand if GD.invoker_cards[c].rune >= 0)
    assert runes == [0, 3] and len(T.s.inv_hand) == n + 3, "rune 0 and 3 cards (3 gems), then one from his deck"


def test_combat_loser_pushed_by_the_winner_to_an_adjacent_space() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).hero(0, INN_T, lives=2)
    _fight(T, CYCLOPS, 0, [kind(1)], [kind(4)])
    T.inv_do("decline")
    assert T.s.phase == P_PLACE and T.s.actor == 0 and set(T.legal("place")) == set(GD.adj[INN_T])
    T.inv_do("place", PC_T)
    assert T.s.h_space[0] == PC_T
    # the hero wins: the hero's agent pushes the minion, even during the Invoker's turn
    T = Table(1)
    T.minion(CYCLOPS, GLADE).hero(0, GLADE)
    _fight(T, CYCLOPS, 0, [kind(4), kind(4)], [kind(1)])
    T.inv_do("decline")
    assert T.s.phase == P_PLACE and T.s.actor == 1 and set(T.legal("place")) == {x for x in GD.adj[GLADE] if not GD.castle[x]}
    T.hero_do("place", INN_F)
    assert T.s.m_space[CYCLOPS] == INN_F and T.s.turn_side == INVOKER


def test_combat_hero_without_life_goes_to_an_inn_and_ends_its_turn() -> None:
    T = Table(1)
    T.minion(CYCLOPS, MARKET).hero(0, MARKET).hero_turn(0)
    _fight(T, CYCLOPS, 0, [kind(1)], [kind(4)], by_hero=True)
    T.inv_do("decline")
    assert T.s.h_lives[0] == 0 and T.s.phase == P_PLACE and T.s.actor == 1 and T.legal("place") == list(GD.inns)
    T.hero_do("place", INN_F)
    assert T.s.h_space[0] == INN_F and T.s.turn_side == INVOKER, "its turn ended"


def test_combat_hero_without_life_must_use_next_action_to_gain_a_life() -> None:
    T = Table(1)
    T.hero(0, INN_F, lives=0).hero_turn(0)
    assert T.R.legal_actions(T.s) == [T.R.H_REST], "its next action must gain a life: no pass, no other action"
    with pytest.raises(IllegalActionError):
        T.hero_do("end_turn")
    T.hero_do("rest")
    assert T.s.h_lives[0] == 1 and T.can("move", GLADE)
    T2 = Table(2)
    T2.minion(CYCLOPS, INN_F).hero(1, INN_F, lives=0)
    assert T2.legal("attack") == [], "a hero with no life cannot be attacked"


def test_assumption_losing_hero_takes_a_minus1_boots_token_for_its_next_turn() -> None:
    T = Table(1)
    T.minion(CYCLOPS, INN_T).hero(0, INN_T, lives=2)
    _fight(T, CYCLOPS, 0, [kind(1)], [kind(4)])
    assert T.s.h_boots[0] == 1 and T.s.boots_supply == 4
    T.inv_do("decline")
    T.inv_do("place", MARKET)
    T.inv_do("end_turn")
    assert T.s.h_left == GD.heroes[0].boots - 1 and T.s.h_boots[0] == 0 and T.s.boots_supply == 5


def test_combat_power_cards_used_are_discarded() -> None:
    T = Table(1)
    T.minion(HYDRA, INN_T)
    _fight(T, HYDRA, 0, [kind(2), kind(3)], [kind(1), kind(1)])
    assert sorted(T.s.power_discard[-4:]) == sorted([kind(2), kind(3), kind(1), kind(1)])


# ======================================================================= end of League's turn
def test_discard_excess_power_cards_down_to_hand_max_at_end_of_league_turn() -> None:
    T = Table(1)
    T.minion(HIPPO, PC_F)
    T.hand(0, *([kind(2)] * 7))
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    assert T.s.phase == P_DISCARD and T.s.actor == 1
    T.hero_do("discard", kind(2))
    T.hero_do("discard", kind(2))
    assert sum(T.s.h_hand[0]) == GD.heroes[0].hand and T.s.turn_side == INVOKER


def test_league_wins_when_the_invoker_has_no_minions_in_play() -> None:
    T = Table(1)
    T.minion(HIPPO, INN_T, lives=1)
    _fight(T, HIPPO, 0, [kind(4), kind(4)], [kind(1)])
    assert T.s.over and T.s.winner == 1


def test_assumption_league_wins_if_no_minion_in_play_at_the_end_of_the_invoker_turn() -> None:
    T = Table(2)
    T.s.inv_discard += [c for c in T.s.inv_hand if GD.invoker_cards[c].minion]  # a hand he cannot invoke from
    T.s.inv_hand = [c for c in T.s.inv_hand if not GD.invoker_cards[c].minion]
    T.check()
    T.inv_do("end_turn")
    assert T.s.over and T.s.winner == 1


def test_assumption_the_invoker_must_invoke_on_his_first_turn() -> None:
    """The one-move loss: with seed 0 and 2 heroes, ending the first turn without a minion is not legal."""
    T = Table(2)
    assert T.s.turn_side == INVOKER and T.s.round == 0 and not any(x >= 0 for x in T.s.m_space)
    assert T.legal("invoke") and not T.can("end_turn"), "no minion in play yet: he must invoke"
    T.inv_do("invoke", T.legal("invoke")[0])
    assert T.can("end_turn")
    T.inv_do("end_turn")
    assert not T.s.over and T.s.turn_side == LEAGUE


def test_portal_lies_outside_the_castle_and_minions_never_enter_it() -> None:
    """"Minions cannot enter the Castle region": they appear on and return to a Portal outside it."""
    assert not GD.castle[PORTAL] and not GD.castle_adjacent[PORTAL]
    T = Table(1)
    T.inv_do("invoke", T.legal("invoke")[0])
    m = next(x for x in range(NUM_MINIONS) if T.s.m_space[x] >= 0)
    assert T.s.m_space[m] == PORTAL and not GD.castle[T.s.m_space[m]]


def test_sacrificed_minion_returns_to_a_portal_two_moves_from_every_sacrifice_space() -> None:
    """"Return the sacrificed minions to the portal space": the way back costs Move actions."""
    T = Table(1)
    T.minion(CYCLOPS, WSHAFT)
    T.inv_do("end_turn")
    T.hero_do("end_turn")
    T.inv_do("sacrifice", CYCLOPS)
    assert T.s.m_space[CYCLOPS] == PORTAL
    moves, frontier = 0, {PORTAL}
    while not any(GD.castle_adjacent[x] for x in frontier):  # Move actions until a sacrifice space is reachable
        frontier = {y for x in frontier for y in GD.adj[x] if not GD.castle[y]}
        moves += 1
    assert moves >= 2


def test_assumption_invoker_starting_hand_holds_two_minions() -> None:
    from mythzoo.envs.mythsgate.gamedata import load_data as load

    shipped = load()
    for seed in range(20):
        s = MythsgateRules(shipped, 2).initial_state(seed)
        assert sum(shipped.invoker_cards[c].minion for c in s.inv_hand) >= shipped.inv_starting_minions == 2


# ============================================================================ hero abilities
def test_hood_may_look_at_the_top_card_of_the_power_deck() -> None:
    from mythzoo.envs.mythsgate.observation import MythsgateObserver

    T = Table(1, characters=[HOOD])
    obs = MythsgateObserver(T.R, 30)
    off = obs.layout(1).offset("hood_top")
    v = obs.observation(T.s, 1)
    assert v[off + T.s.power_deck[-1]] == 1.0 and v[off: off + GD.num_kinds].sum() == 1.0
    T2 = Table(1, characters=[CIRCE])
    assert obs.layout(1).by_name["hood_top"].size == GD.num_kinds
    v2 = MythsgateObserver(T2.R, 30).observation(T2.s, 1)
    assert v2[off: off + GD.num_kinds].sum() == 0.0


def test_pwyll_takes_two_encounter_cards_and_chooses_one() -> None:
    T = Table(1, characters=[PWYLL]).hero_turn(0)
    a, b = T.loc_cards(0, 0, material=WOOD)[0], T.loc_cards(0, 0, material=IRON)[0]
    T.stack_location(0, a, b)
    T.hero_do("explore_two")
    assert T.s.phase == P_PWYLL and T.s.pw_cards == [a, b]
    T.hero_do("pick_card", 1)
    assert T.s.h_mats[0][IRON] == 1 and T.s.h_mats[0][WOOD] == 0 and a in T.s.loc_discard[0]


def test_pwyll_plays_the_chosen_card_with_its_next_action() -> None:
    T = Table(1, characters=[PWYLL]).hero_turn(0, actions=3)
    a, b = T.loc_cards(0, 0, material=WOOD)[0], T.loc_cards(0, 0, material=IRON)[0]
    T.stack_location(0, a, b)
    T.hero_do("explore_two")
    T.hero_do("pick_card", 0)
    assert T.s.h_left == 1 and T.s.h_taken == 2, "taking the two cards is one action, playing the chosen one the next"
    T2 = Table(1, characters=[PWYLL]).hero_turn(0, actions=1)
    assert not T2.can("explore_two") and T2.can("explore"), "with one action left there is no next action to play it"


def test_beowulf_recovers_the_last_power_card_played() -> None:
    T = Table(1, characters=[BEOWULF])
    T.minion(HIPPO, INN_T)
    _fight(T, HIPPO, 0, [kind(2), kind(4)], [kind(1)])
    assert T.s.h_hand[0][kind(4)] == 1 and T.s.h_hand[0][kind(2)] == 0


def test_circe_heals_herself_or_a_hero_on_her_space() -> None:
    T = Table(2, characters=[CIRCE, HOOD])
    T.hero(1, INN_T).hero_turn(0)
    T.hero(0, MARKET).hero(1, MARKET)
    assert T.legal("heal") == [0, 1]
    T.hero_do("heal", 1)
    assert T.s.h_lives[1] == 2 and T.legal("heal") == [0]


def test_tiy_forges_anywhere_and_allies_forge_on_her_space() -> None:
    T = Table(2, characters=[TIY, HOOD])
    T.hero(0, GLADE).hero(1, GLADE)
    T.mats(0, **{GD.materials[t]: c for t, c in enumerate(GD.heroes[TIY].costs[3]) if c})
    T.mats(1, **{GD.materials[t]: c for t, c in enumerate(GD.heroes[HOOD].costs[3]) if c})
    T.hero_turn(0)
    T.hero_do("forge", 3)
    assert T.s.h_armour[0][3] == 1
    T.hero_turn(1)
    T.hero_do("forge", 3)
    assert T.s.h_armour[1][3] == 1
    T.hero(1, INN_T)
    T.hero_turn(1)
    assert not T.can("forge", 0)


# ============================================================================= engine choices
def test_assumption_illegal_action_raises_and_changes_nothing() -> None:
    T = Table(1)
    before = T.R.to_json(T.s)
    with pytest.raises(IllegalActionError, match="illegal"):
        T.R.apply(T.s, T.R.inv_table.encode("sacrifice", 0))
    assert T.R.to_json(T.s) == before


def test_assumption_every_component_conserved_by_validate() -> None:
    T = Table(3)
    T.s.life_supply += 1
    with pytest.raises(ValueError, match="life tokens"):
        T.R.validate(T.s)
    T.s.life_supply -= 1
    T.s.power_deck.append(T.s.power_deck[0])
    with pytest.raises(ValueError, match="Power cards"):
        T.R.validate(T.s)
    T.s.power_deck.pop()
    T.s.m_space[HIPPO], T.s.m_lives[HIPPO] = TREASURE, 2
    T.s.life_supply -= 2
    T.s.inv_deck.remove(GD.minion_cards[HIPPO]) if GD.minion_cards[HIPPO] in T.s.inv_deck else T.s.inv_hand.remove(GD.minion_cards[HIPPO])
    with pytest.raises(ValueError, match="inside the Castle"):
        T.R.validate(T.s)


# ============================================================================ hidden information
def test_resample_hidden_keeps_every_card_whose_place_is_public() -> None:
    T = Table(2, characters=[BEOWULF, HOOD])
    s, R = T.s, T.R
    start = list(s.h_hand[1])  # Setup E: hero 1's starting hand is public and untouched so far
    # a rune card publicly drawn from the set-aside cards by a Draw icon is in his hand for the League
    T.minion(CYCLOPS, INN_T).hero(0, INN_T, lives=2)
    _fight(T, CYCLOPS, 0, [kind(1)], [kind(1, 4)])
    rune = [c for c in s.inv_hand if GD.invoker_cards[c].rune == 0]
    assert rune and s.inv_hand_known == rune
    # Beowulf's recovered card was face up: the Invoker knows it is in his hand
    assert s.h_known[0][kind(1)] == 1
    for seed in range(40):
        inv = R.resample_hidden(s, 0, seed)
        assert inv.h_hand[1] == start, "the starting hand stays for the Invoker"
        assert inv.h_hand[0][kind(1)] >= 1 and sum(inv.h_hand[0]) == sum(s.h_hand[0])
        assert inv.inv_hand == s.inv_hand and inv.inv_discard == s.inv_discard and inv.power_discard == s.power_discard
        league = R.resample_hidden(s, 1, seed)
        assert set(rune) <= set(league.inv_hand), "a card publicly drawn from the set-aside cards stays in his hand"
        assert league.h_hand == s.h_hand and league.inv_aside == s.inv_aside and league.inv_discard == s.inv_discard
        assert len(league.inv_hand) == len(s.inv_hand) and sorted(league.inv_hand + league.inv_deck) == sorted(s.inv_hand + s.inv_deck)
    # and the observations show these places: the League sees the rune card in his hand, the Invoker the known hands
    from mythzoo.envs.mythsgate.observation import MythsgateObserver

    obs = MythsgateObserver(R, 30)
    piece = obs.layout(1).by_name["invoker_cards"]
    v = obs.observation(s, 1)[piece.offset: piece.offset + piece.size].reshape(piece.shape)
    assert v[rune[0], piece.axes[1].index("hand")] == 1.0 and v[rune[0]].sum() == 1.0
    piece = obs.layout(0).by_name["known_hands"]
    v = obs.observation(s, 0)[piece.offset: piece.offset + piece.size].reshape(piece.shape)
    assert list(v[1] * 3) == start and v[0][kind(1)] * 3 == 1.0
