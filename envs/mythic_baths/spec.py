"""Mythic Baths, declared once (see :class:`mythzoo.envs.core.spec.GameSpec`)."""

from mythzoo.envs.core.spec import GameSpec

SPEC = GameSpec(
    name="mythic_baths",
    version=0,
    title="Mythic Baths: 2-5 player competitive card game",
    module="mythzoo.envs.mythic_baths_v0",
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
)
