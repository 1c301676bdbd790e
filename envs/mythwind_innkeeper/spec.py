"""Mythwind: the Innkeeper, declared once (see :class:`mythzoo.envs.core.spec.GameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mythzoo.envs.core.spec import GameSpec


def max_decisions(kwargs: Mapping[str, Any]) -> int:
    """A true upper bound on the decisions of one campaign made with these env kwargs.

    A decision is a step the agent takes; a choice with a single legal action is taken by the
    engine and is none. Where the bound comes from (phases as in ``rules.py``):

    * Setup: one placement per starting accommodation (3).
    * Each day, at most:
      - town action 1 and, after learning a skill, the rearrangement: at most slots - 1
        decisions (slots - 1 moves end it; fewer moves end with done), Operate 1;
      - the character's row: Improve is the longest, 6 (purchase + its slot, move + its slot,
        sell, done; each part once per Improve), repairs counted below; Pamper 2, the others 1;
      - the skill of that row 3 (use it or not; then Waiting List picks 2 guests, Favorite a guest
        and one from the bag, Entertainer a choice and the party's slot; Rumormonger 1);
      - workers: each die and each worker slot serves once a day, so at most W = min(dice, 5)
        worker actions, each 1 plus its row (distinct rows: the W longest of 6, 2, 1, 1, 1; a
        worker's action triggers no skill), and 1 to end the daytime;
      - dusk: 2 per guest seated (the guest, then the slot), at most one per undamaged furniture
        token (F = furniture tokens in the data, at most 25 slots), and 1 to stop;
      - complaints (each guest's resolve at most once a day: a guest is drawn once a day): a
        late guest is 1 decision, at most the draws the data's complaints make (and at most the
        30 guests); a "lose" choice removes a token, at most the data's "lose" complaints (and at
        most the 25 slots, nothing is placed at dusk).
    * Each upkeep (end of a season but the last, before the turn cap) assigns at most
      1 + the largest villager face + the largest sprite face damage, 1 decision each, and each
      damaged token is repaired at most once (damage comes only from upkeep): twice that.

    The days are ``min(max_turns, days_per_season * seasons)``; an upkeep has decisions only if it
    comes before the cap (day counts ``k * days_per_season < days``). Random play takes about 3
    decisions a day (the longest campaign of 1000 random ones: 132, measured before the skill
    rearrangement, which random play seldom reaches; the bound is 1725 with the default data).
    """
    from mythzoo.envs.mythwind_innkeeper.actions import NUM_SLOTS, OPERATE
    from mythzoo.envs.mythwind_innkeeper.components import C_DRAW, C_LOSE, SPRITE, VILLAGER, load_data

    from mythzoo.envs.core.validate import check_arg

    dps = check_arg(kwargs.get("days_per_season", 6), 1, None, "days_per_season")
    seasons = check_arg(kwargs.get("seasons", 4), 1, None, "seasons")
    cap = kwargs.get("max_turns")
    if cap is not None:
        check_arg(cap, 1, None, "max_turns")  # a bool is no turn cap
    days = dps * seasons if cap is None else min(int(cap), dps * seasons)
    d = load_data(kwargs.get("data"))  # cached: one parse per file
    furniture = min(NUM_SLOTS, sum(1 for a in d.accommodations if a.furniture))
    late = min(len(d.guests), sum(n for g in d.guests for kind, n in g.complaints if kind == C_DRAW))
    lose = min(NUM_SLOTS, sum(1 for g in d.guests for kind, _ in g.complaints if kind == C_LOSE))
    workers = min(len(d.dice_types), len(OPERATE))
    rows = sorted((6, 2, 1, 1, 1), reverse=True)  # Improve, Pamper, Serve, Mingle, Party
    day = 1 + max(0, d.skill_slots - 1) + 1 + rows[0] + 3 + workers + sum(rows[:workers]) + 1 + 2 * furniture + 1 + late + lose
    damage = 1 + max(d.die_faces[VILLAGER]) + max(d.die_faces[SPRITE])
    upkeeps = min(seasons - 1, (days - 1) // dps)
    return len(d.starting_accommodations) + days * day + upkeeps * 2 * damage


SPEC = GameSpec(
    name="mythwind_innkeeper",
    version=5,
    title="Mythwind: the Innkeeper, a solo inn-management campaign",
    module="mythzoo.envs.mythwind_innkeeper_v5",
    kind="solo",
    roles=("innkeeper",),
    utility="general_sum",  # one player: coins, no opponent (OpenSpiel's class for one-player games)
    reward_modes=("coins", "terminal"),
    heuristic="mythzoo.policies.mythwind_innkeeper_heuristic:MythwindInnkeeperHeuristic",
    data_files=("data/town_charter.json",),
    reward_notes={
        "coins": "every step: the change of the innkeeper's worth, the score (coins plus the inn's sale value: half of "
        "each accommodation's cost, rounded down); a campaign's return is its final worth minus the starting coins, "
        "a truncated one's the worth reached minus the starting coins",
        "terminal": "at the end: the final worth minus the starting coins, paid once (a campaign cut by the turn cap "
        "never reaches its end and pays nothing)",
    },
    max_decisions=max_decisions,
    # Search returns are the final worth / 50 coins: the heuristic's campaigns end 153 +- 38 coins
    # (10 seeds), so returns of search-guided play differ by about one unit, as UCB's constant expects.
    search_scale=50.0,
    aliases=("innkeeper",),
    gymnasium_id="mythzoo/MythwindInnkeeper-v5",
    gymnasium_entry_point="mythzoo.envs.mythwind_innkeeper.gym_env:MythwindInnkeeperGymEnv",
)
