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
)
