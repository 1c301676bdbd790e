"""Mythsgate's observation layouts, declared once: one per role, the same sizes for every number of heroes.

The Great Invoker (seat 0) sees the board, his own hand and what he has seen of the Power deck
(the Manticore's and the Kraken's cards), and of the heroes' hands only their sizes. A hero sees
the board and the whole League's hands (the League plays as a team and shares what it knows,
Hood's look at the top Power card included), and of the Invoker's hand and deck only sizes: each
Great Invoker card appears as in play / discarded / set aside / hidden. Hero slots are relative
for heroes (slot 0 = yourself, 1 = the next hero, ...) and absolute for the Invoker; absent heroes
are zero with ``present`` off. Values are scaled to roughly [0, 1]. The pieces, their labels and
the docs' table all come from :class:`MythsgateLayout`; the encoder (``observation.py``) and the
reference (``tests/oracles/mythsgate.py``) both address entries through it.
"""

from __future__ import annotations

from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.mythsgate.actions import MAX_HEROES, NUM_MINIONS, VIEW
from mythzoo.envs.mythsgate.gamedata import BOOKS, HERO_ABILITIES, PIECES, TOKENS, TRACKS, GameData
from mythzoo.envs.mythsgate.rules import PHASE_NAMES

# The ``game`` piece, in its order: each group is packed as one block (see ``observation``).
G_ROUND = ("round_frac",)
G_GEMS = ("gems", "treasure", "heroes")
G_TURN_INV = ("inv_actions_left",)
G_BANS = ("ban3", "ban4")
G_SUPPLIES = ("life_supply", "boots_supply")
G_PILES = ("power_deck", "power_discard")
G_LOC_PILES = ("town_deck", "mine_deck", "forest_deck", "town_discard", "mine_discard", "forest_discard")
G_INV_PILES = ("inv_hand", "inv_deck", "inv_discard", "inv_aside")
G_BOARD = ("phoenix_used", "inv_round_f", "inv_round_p", "inv_chain", "balrog_bonus")
G_KNOWN = ("inv_known",)
G_SIDE = ("side_invoker", "side_league", "side_setup")
G_TURN_HERO = ("hero_actions_left", "hero_actions_taken", "trade_left")
GAME_FIELDS = G_ROUND + G_GEMS + G_TURN_INV + G_BANS + G_SUPPLIES + G_PILES + G_LOC_PILES + G_INV_PILES + G_BOARD + G_KNOWN + G_SIDE + G_TURN_HERO
MOVER_FIELDS = ("invoker",) + tuple(f"hero_slot{r}" for r in range(MAX_HEROES))
MINION_FIELDS = ("in_play", "lives", "strength", "draws", "plus_f", "plus_p")
COMBAT_FIELDS = (
    "on", "hero_attacked", "encounter", "enc_strength", "enc_power", "hero_total", "inv_total", "hero_max_cards",
    "inv_draws", "yellow_used", "red_used", "fury_used", "dark_used", "kraken_view", "kraken_picks",
)
LOC_FIELDS_BASE = ("book_yellow", "book_red", "book_green", "encounter", "strength", "power", "deck_town", "deck_mine", "deck_forest")
STATUS_HERO = ("in_play", "discard", "aside", "removed", "hand", "hidden")
STATUS_INV = ("in_play", "discard", "aside", "removed", "hand", "deck")


class MythsgateLayout:
    """The two layouts (``layouts[0]`` the Invoker's, ``layouts[1]`` every hero's) and the labels of
    the pieces' rows (``hero_fields``, ``minion_fields``, ``loc_fields``, ``place_fields``)."""

    def __init__(self, gd: GameData, minion_names: list[str]):
        S, M, K = gd.num_spaces, gd.num_materials, gd.num_kinds
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
        mins = [f"m{m}_{minion_names[m]}" for m in range(NUM_MINIONS)]
        cards = [f"c{c.cid}_{c.name}" for c in gd.invoker_cards]
        self.place_fields = ["hero", "minion"] + slots + mins + ["mine_to_place"]
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
            ("ability_minion", (NUM_MINIONS,), "One-hot minion whose ability (Dragon, Cyclops) waits for the Invoker to choose its target (zero otherwise): the mask alone does not say which.", [mins]),
            ("combat_hero_cards", (K,), "Power cards the hero has played in this combat (/3).", [kinds]),
            ("combat_inv_cards", (K,), "Power cards drawn for the Invoker's side in this combat (/3).", [kinds]),
            ("place", (len(self.place_fields),), "A piece waiting to be placed: hero/minion, which hero slot or minion, and whether you place it.", [self.place_fields]),
            ("place_targets", (S,), "Spaces the waiting piece may go to.", [spaces]),
            ("pwyll_cards", (2, len(self.loc_fields)), "Pwyll's two location cards to choose from (face up).", [["card0", "card1"], self.loc_fields]),
            ("turn_order", (MAX_HEROES, MAX_HEROES), "The League's turn order agreed this turn: per place, one-hot hero slot (zero while not agreed).", [[f"place{i}" for i in range(MAX_HEROES)], slots]),
        ]
        inv = common + [
            ("invoker_cards", (len(cards), len(STATUS_INV)), "Each Great Invoker card: in play, discarded, set aside (rune), removed from the game (a killed minion), in your hand, in your deck.", [cards, STATUS_INV]),
            ("known_hands", (MAX_HEROES, K), "Per hero: the Power cards you know are in its hand (/3): its starting hand, cards recovered face up, cards you saw drawn.", [slots, kinds]),
            ("known_top", (VIEW, K), "The top Power cards you have seen (Manticore), top first.", [[f"top{i}" for i in range(VIEW)], kinds]),
            ("kraken_view", (VIEW, K), "The Kraken's cards to choose from.", [[f"view{i}" for i in range(VIEW)], kinds]),
        ]
        hero = common + [
            ("invoker_cards", (len(cards), len(STATUS_HERO)), "Each Great Invoker card: in play, discarded, set aside (rune), removed from the game (a killed minion), in his hand (taken there in the open), hidden (his hand or deck).", [cards, STATUS_HERO]),
            ("team_hands", (MAX_HEROES, K), "The League's hands per hero slot (/3): the League shares its cards.", [slots, kinds]),
            ("hood_top", (K,), "Hood's look at the top Power card (zero without Hood).", [kinds]),
        ]
        self.layouts = [ObservationLayout(inv), ObservationLayout(hero)]
