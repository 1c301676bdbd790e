"""Mythsgate, declared once (see :class:`mythzoo.envs.core.spec.GameSpec`)."""

from mythzoo.envs.core.spec import GameSpec

SPEC = GameSpec(
    name="mythsgate",
    version=0,
    title="Mythsgate: the Great Invoker against 1-5 heroes of the Atari League",
    module="mythzoo.envs.mythsgate_v0",
    kind="roles",
    roles=("invoker", "hero"),
    team_roles=("hero",),  # "every hero gets the League's reward"
    utility="zero_sum",  # the winner's side +1, the other -1; a truncated game is 0 for all
    reward_modes=("zero_sum",),
    heuristic="mythzoo.policies.mythsgate_heuristic:MythsgateHeuristic",
    size_argument="num_heroes",
    sizes=(1, 2, 3, 4, 5),
    default_size=2,
    seat_offset=1,  # the Invoker
    data_files=("data/cards.json", "data/characters.json", "data/map.json"),
    players_text="2-6: the invoker and 1-5 heroes",
    reward_notes={
        "zero_sum": "at the end: the winning side +1, the other -1; every hero gets the League's reward",
    },
)
