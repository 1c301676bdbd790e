"""Mythwind: the Innkeeper, declared once (see :class:`mythzoo.envs.core.spec.GameSpec`)."""

from mythzoo.envs.core.spec import GameSpec

SPEC = GameSpec(
    name="mythwind_innkeeper",
    version=0,
    title="Mythwind: the Innkeeper, a solo inn-management campaign",
    module="mythzoo.envs.mythwind_innkeeper_v0",
    kind="solo",
    roles=("innkeeper",),
    utility="general_sum",  # one player: coins, no opponent (OpenSpiel's class for one-player games)
    reward_modes=("coins", "terminal"),
    heuristic="mythzoo.policies.mythwind_innkeeper_heuristic:MythwindInnkeeperHeuristic",
    data_files=("data/town_charter.json",),
    reward_notes={
        "coins": "every step: the change of the innkeeper's coins (gains positive, purchases negative); "
        "a campaign's return is its net coin total (final coins minus the starting coins)",
        "terminal": "at the end: the campaign's net coin total (final coins minus the starting coins), paid once",
    },
    aliases=("innkeeper",),
    gymnasium_id="mythzoo/MythwindInnkeeper-v0",
    gymnasium_entry_point="mythzoo.envs.mythwind_innkeeper.gym_env:MythwindInnkeeperGymEnv",
)
