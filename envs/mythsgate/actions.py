"""The Mythsgate action tables: one per role (the Great Invoker's, and one all heroes share).

Every decision is one id of the deciding agent's ``Discrete(n)``: each of the Invoker's actions and
their follow-ups (each minion's move, card and ability targets, the combat draw, where to push a
beaten hero), each hero's actions and follow-ups (each Power card committed in a combat, then
``fight``; where to push a beaten minion; trades; discards at the end of the League's turn).
Hero-targeting ids of the hero table are *relative* (``+0`` = yourself, ``+1`` = the next hero...),
matching the hero observation; the Invoker's name heroes absolutely. Sizes depend only on the data
(spaces, materials, Power card kinds), never on the number of heroes.
"""

from __future__ import annotations

from mythzoo.envs.core.actions import ActionTable
from mythzoo.envs.mythsgate.gamedata import BOOKS, PIECES, TOKENS, TRACKS, GameData

MAX_HEROES = 5
NUM_MINIONS = 12
VIEW = 5  # cards the Manticore and the Kraken look at
TRADE_TRANSFERS = 6  # transfers allowed within one Trade action (assumption)


def build_invoker_table(gd: GameData) -> ActionTable:
    """The Great Invoker's actions."""
    mins = [f"minion {m} ({gd.invoker_cards[gd.minion_cards[m]].name})" for m in range(NUM_MINIONS)]
    heroes = [f"hero_{h}" for h in range(MAX_HEROES)]
    spaces = [f"{i} {n}" for i, n in enumerate(gd.space_names)]
    return ActionTable(
        [
            ("sacrifice", mins, "Start of turn: this minion, next to the Castle, loses 1 life to steal a gem and returns to the Portal."),
            ("end_sacrifice", [""], "Start of turn: no (more) sacrifices."),
            ("move_minions", [""], "Action: move every minion in play to an adjacent space (one `place` decision per minion follows)."),
            ("attack", [f"{m} vs {h}" for m in mins for h in heroes], "Action: this minion starts a combat against this hero on its space."),
            ("card_plus_f", mins, "Action: discard a +3F card; this minion gains +3 Strength while in play."),
            ("card_plus_p", mins, "Action: discard a +1P card; this minion gains +1 Power while in play."),
            ("card_x3", [""], "Action: discard an X3 card; until your next turn the League cannot play Power 3 cards."),
            ("card_x4", [""], "Action: discard an X4 card; until your next turn the League cannot play Power 4 cards."),
            ("card_teleport", mins, "Action: discard a Teleport card; this minion moves to any space outside the Castle (`place` follows)."),
            ("invoke", mins, "Action: invoke this minion card from your hand onto the Portal with its lives."),
            ("ability", mins, "Action: use this minion's Annex ability (Phoenix, Hippogriff, Cyclops, Dragon, Manticore)."),
            ("token_fury", [""], "Ability token, in your combat draw step: +2 Strength to your side in this combat."),
            ("token_dark_power", [""], "Ability token, in your combat draw step: draw one more Power card in this combat."),
            ("token_haste", [""], "Ability token, your turn (free): one more action this turn."),
            ("token_regenerate", mins, "Ability token, your turn (free): this minion regains 1 life (up to its card's lives)."),
            ("end_turn", [""], "End your turn (pass to the Atari League)."),
            ("draw", [""], "Combat: draw your Power cards at random (the Kraken looks at 5 and chooses)."),
            ("pick_card", [f"card {i}" for i in range(VIEW)], "Kraken: take this card of the 5 seen for the combat; Manticore: discard this card of the 5 seen."),
            ("keep_all", [""], "Manticore: discard none of the 5 cards seen."),
            ("place", spaces, "Put the piece being moved (minion move, push, teleport, inn) on this space."),
            ("pick_hero", heroes, "Dragon: move this hero on the Dragon's space (a `place` follows)."),
            ("cyclops", [f"{h} {t}" for h in heroes for t in gd.materials], "Cyclops: this hero on its space discards one basic material of this type."),
            ("track", list(TRACKS), "After losing a combat: advance this marker of your board."),
            ("flip", list(TOKENS), "After winning a combat: flip this ability token (available)."),
            ("decline", [""], "Do not advance a marker / flip a token."),
        ]
    )


def build_hero_table(gd: GameData) -> ActionTable:
    """The actions every hero shares (hero targets relative to the acting hero)."""
    rel = [f"+{r}" for r in range(MAX_HEROES)]
    spaces = [f"{i} {n}" for i, n in enumerate(gd.space_names)]
    kinds = [gd.kind_label(k) for k in range(gd.num_kinds)]
    mats = list(gd.materials)
    return ActionTable(
        [
            ("choose_hero", rel, "League turn order, agreed before its turn (hero_0 chooses): this hero takes the next place."),
            ("move", spaces, "Action: move to this adjacent space (paths, bridges)."),
            ("explore", [""], "Action: draw the top card of your quadrant's location deck and resolve it."),
            ("explore_two", [""], "Two actions (Pwyll): draw two location cards; his next action resolves one of them (`pick_card`), the other is discarded."),
            ("attack", [f"minion {m}" for m in range(NUM_MINIONS)], "Action: start a combat against this minion on your space."),
            ("rest", [""], "Action at an inn: take a life token (fewer than 2 lives)."),
            ("power_centre", [""], "Action at a Power Centre: draw 3 Power cards."),
            ("market", [f"give {a} take {b}" for a in mats for b in mats], "Action at the market: place one of your materials there and take another one."),
            ("forge", list(PIECES), "Action at a forge (Tiy: anywhere; allies on Tiy's space too): pay and forge this armour piece."),
            ("heal", rel, "Action (Circe): this hero on your space (or you) gains a life."),
            ("trade", [""], "Action: trade with the heroes on your space (`give`/`take` follow, then `end_trade`)."),
            ("give", [f"{r} {t}" for r in rel for t in mats], "Trade: give one material of this type to this hero."),
            ("take", [f"{r} {t}" for r in rel for t in mats], "Trade: take one material of this type from this hero."),
            ("end_trade", [""], "Trade: finish trading."),
            ("use_book", list(BOOKS), "Knowledge book: yellow/red before committing cards in a combat, green before your first action."),
            ("end_turn", [""], "End your turn (the next hero plays)."),
            ("commit", kinds, "Combat: play one Power card of this kind face up."),
            ("fight", [""], "Combat: stop committing cards; the Invoker draws and the combat is resolved."),
            ("place", spaces, "Put the piece being moved (your starting inn, a beaten minion, yourself to an inn) on this space."),
            ("pick_card", ["card 0", "card 1"], "Pwyll: resolve this one of the two location cards drawn."),
            ("discard", kinds, "End of the League's turn: discard one Power card of this kind (down to your hand maximum)."),
        ]
    )
