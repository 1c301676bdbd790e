"""The toy game's action table: one flat ``Discrete(K + 2)``."""

from __future__ import annotations

from mythzoo.envs.core.actions import ActionTable
from toy_game.cards import Cards


def build_table(cards: Cards) -> ActionTable:
    """``play`` one id per card kind, then ``draw`` and ``pass``."""
    return ActionTable(
        [
            ("play", cards.names, "Play a card of this kind from your hand: score its value; it goes face up to the discard."),
            ("draw", [""], "Take the top card of the deck (the deck not empty, your hand not full)."),
            ("pass", [""], "End the turn doing nothing."),
        ]
    )
