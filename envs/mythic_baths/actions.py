"""The Mythic Baths action table: every decision of a turn as one id in ``Discrete(n)``.

A turn is a sequence of decisions by the same player: an optional bonus (a favour token), the
main action and its follow-ups (which cards to pay, which supply card to take as a second card,
which cards to discard down to 6), then ``end_turn`` when a bonus is still possible.
The sizes depend only on the card set's number of ingredient types (5 in the reconstruction),
never on the player count.
"""

from __future__ import annotations

from mythzoo.envs.core.actions import ActionTable
from mythzoo.envs.mythic_baths.cards import CardSet

MAX_BATHS = 7  # 5 players + 2
SUPPLY_SIZE = 5


def build_action_table(cs: CardSet) -> ActionTable:
    """The action table for a card set (ids are stable for a given number of ingredient types)."""
    baths = [f"bath {b}" for b in range(MAX_BATHS)]
    slots = [f"supply slot {i}" for i in range(SUPPLY_SIZE)]
    kinds = [cs.kind_label(k) for k in range(cs.num_kinds)]
    targets = list(cs.ingredients) + ["extra"]
    chef = [f"{s} pair as {t}" for s in cs.ingredients for t in targets]
    return ActionTable(
        [
            ("gather_supply", slots, "Take the supply card in this slot (gather; also the second Earth Mage card, after a gather or the Cerberus token, and the Curator/Whisperer card); the slot is refilled."),
            ("gather_deck", [""], "Gather: draw the top deck card, then discard the supply and deal 5 fresh cards."),
            ("gardener", slots, "Gardener manager: discard and refill this supply slot, then take ingredients (gather, or the Cerberus token's take)."),
            ("nourish", baths, "Main action: place or move your nourish token onto this bath's regular guest."),
            ("treat", baths, "Main action: start treating this bath's guest (payment decisions follow)."),
            ("clean", [""], "Main action: clean all dirty baths (1 amber each) and welcome new guests."),
            ("pass", [""], "Main action when no other main action is possible (deck, supply and moves exhausted)."),
            ("token_cerberus", slots, "Bonus: Cerberus favour token, take this supply card and refill."),
            ("token_jackalope", [""], "Bonus: Jackalope favour token, gain 1 amber per Jackalope you have."),
            ("token_owlbear", baths, "Bonus: Owlbear favour token, nourish this bath's guest."),
            ("token_sea_lion", [""], "Bonus: Sea-Lion favour token, clean the baths."),
            ("end_turn", [""], "End your turn without using a favour token."),
            ("decline", [""], "Skip an optional follow-up (second Earth Mage card, Curator/Whisperer card)."),
            ("discard", kinds, "Hand limit: discard one card of this kind (repeated down to 6)."),
            ("pay_card", kinds, "Treatment: play one card of this kind; it must supply a still-missing ingredient."),
            ("pay_token", targets, "Treatment: Tatzelwurm favour token as this ingredient (or the extra one); your bonus action."),
            ("pay_amber", targets, "Treatment, Amber Appraiser: spend 1 amber as this ingredient (or the extra one)."),
            ("fire_mage", targets, "Treatment, Fire Mage, your nourished guest: ignore one required ingredient of this type."),
            ("head_chef", chef, "Treatment, Head Chef: two matching ingredients as one of the target; then pay the pair with pay_card (a double card, or two cards showing that ingredient, your choice)."),
            ("stop_treating", [""], "Troublesome guest: stop after a partial treatment (the cards stay on the guest)."),
        ]
    )
