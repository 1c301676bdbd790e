"""Mythic Baths, declared once (see :class:`mythzoo.envs.core.spec.GameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mythzoo.envs.core.spec import GameSpec


def max_decisions(kwargs: Mapping[str, Any]) -> int:
    """The most decisions one game with these env kwargs can take: turns x decisions per turn.

    Turns: the env truncates the game once ``max_turns`` turns are complete (default 120 per
    player); every decision belongs to one of those turns, since the game also ends only at the
    end of a turn. Nothing else bounds a game (players can gather and discard forever).

    Decisions in one turn (the hand holds at most 6 cards whenever an action starts, because every
    action ends by discarding down to 6):

    - the main action, the longest of: treat (1), then payments, each filling at least one unit
      still required (a card must supply a missing ingredient; a token, amber, the Fire Mage and
      the Head Chef fill one), of at most ``N + 2`` (``N``: the card set's largest guest, 6 for
      the troublesome ones; 2 extra for two adjacent Tatzelwurms), where stopping a troublesome
      treatment takes the place of the unit left unpaid, so payments and the stop make at most
      ``N + 2``; then the Creature Whisperer's supply card (1) and a discard (1): ``N + 5``.
      Gather from the supply (1), the Earth Mage's second card (1), two discards (2): 4; Gardener
      (1), gather (1), discard (1): 3; clean (1), the Bathing Curator's card (1), discard (1): 3;
      gather from the deck and discard: 2; nourish or pass: 1;
    - either the bonus or end turn, never both (end turn is asked only while a bonus is still
      possible; a bonus used ends the turn once the main action is done): at most 3, the Sea-Lion
      token's clean, Curator card and discard (Cerberus: card and discard, 2; the others 1; the
      Tatzelwurm token is a payment, counted above).

    So a turn takes at most ``(N + 5) + 3 = N + 8`` decisions (14 with our cards).
    """
    from mythzoo.envs.mythic_baths.cards import TROUBLESOME_NEEDS, load_card_set
    from mythzoo.envs.mythic_baths.env import TURNS_PER_PLAYER

    from mythzoo.envs.core.validate import check_arg

    max_turns = kwargs.get("max_turns")
    if max_turns is None:
        max_turns = TURNS_PER_PLAYER * check_arg(kwargs["num_players"], 2, 5, "num_players")
    check_arg(max_turns, 1, None, "max_turns")  # a bool is no turn cap
    cards = load_card_set(kwargs.get("card_set"))
    largest = max(TROUBLESOME_NEEDS, *(sum(g.needs) for g in cards.guests))
    return int(max_turns) * ((largest + 5) + 3)


SPEC = GameSpec(
    name="mythic_baths",
    version=1,
    title="Mythic Baths: 2-5 player competitive card game",
    module="mythzoo.envs.mythic_baths_v1",
    kind="symmetric",
    roles=("player",),
    utility="zero_sum",  # every reward mode is zero-sum
    reward_modes=("zero_sum", "score", "dense"),
    heuristic="mythzoo.policies.mythic_baths_heuristic:MythicBathsHeuristic",
    size_argument="num_players",
    sizes=(2, 3, 4, 5),
    default_size=2,
    data_files=("data/reconstructed.json",),
    docs_kwargs={"num_players": 3},
    reward_notes={
        "zero_sum": "at the end: a sole winner gets +1 and the others -1/(n-1); tied winners share (rewards sum to 0)",
        "score": "at the end: own VP minus the mean VP of the others, divided by 100 (sums to 0)",
        "dense": "every step: the change of that VP margin; at the end also the `zero_sum` result "
        "(a game's total is the final margin plus the result; sums to 0)",
    },
    state_notes={
        "num_players": "number of players",
        "rng": "the game's PCG64 generator state (every random draw comes from it)",
        "deck": "ingredient draw pile, card kinds, top = end",
        "discard": "ingredient discard pile (face up), card kinds",
        "bath_dirty": "bath -> 1 if the tile is dirty",
        "guest_deck": "guest draw pile, guest ids, top = end",
        "manager": "active manager (index into the card set's managers)",
        "manager_deck": "managers still to come, top = end",
        "current": "seat to move",
        "phase": "decision phase: 0 turn, 1 gather, 2 earth_mage, 3 discard, 4 pay, 5 take, 6 over",
        "main_done": "1 once the player to move has taken their main action this turn",
        "bonus_done": "1 once the player to move has used a favour token this turn",
        "pay_bath": "treatment in progress: bath being treated, -1 = none",
        "pay_need": "treatment in progress: ingredient units still needed per type",
        "pay_cards": "treatment in progress: card kinds played so far",
        "pay_token": "treatment in progress: 1 if the Tatzelwurm favour token was used",
        "pay_amber": "treatment in progress: 1 if amber was spent (Amber Appraiser)",
        "pay_fire": "treatment in progress: 1 if the Fire Mage was used",
        "pay_chef": "treatment in progress: 1 if the Head Chef was used",
        "over": "1 once the game has ended",
    },
    max_decisions=max_decisions,
)
