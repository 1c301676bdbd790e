"""The Mythwind Innkeeper action table: every choice of a day as one id in ``Discrete(n)``.

A day is a sequence of decisions: the town action, the Operate action, its parts (which guest,
which slot, which token...), the optional skill, worker actions, then at dusk each guest seated
(guest, then slot) and the choices complaints and the season's upkeep ask for. Ranges that pick
a guest, a slot or a gossip card are shared by every step that needs that kind of choice; the
phase (in the observation) says which step it is.
"""

from __future__ import annotations

from mythzoo.envs.core.actions import ActionTable
from mythzoo.envs.mythwind_innkeeper.components import ACC_TYPES, DIE_TYPES, STYLES, InnData
from mythzoo.envs.mythwind_innkeeper.names import OPERATE

GRID = 5
NUM_SLOTS = GRID * GRID
__all__ = ["GRID", "NUM_SLOTS", "OPERATE", "build_action_table", "slot_name"]


def slot_name(s: int) -> str:
    """``r2c3`` for slot 13 (row-major, rows and columns 0..4 from the top left)."""
    return f"r{s // GRID}c{s % GRID}"


def build_action_table(data: InnData) -> ActionTable:
    """The action table for a data file (the sizes depend on its numbers of tokens, skills and dice)."""
    slots = [slot_name(s) for s in range(NUM_SLOTS)]
    guests = [f"guest {g.gid} {g.name}" for g in data.guests]
    accs = [f"token {a.aid} {ACC_TYPES[a.type]}" + (f" {STYLES[a.style]}" if a.style >= 0 else "") for a in data.accommodations]
    skills = [f"{k.key} in row {OPERATE[r]}" for k in data.skills for r in range(data.skill_slots)]
    dice = [f"{DIE_TYPES[t]} die {d} on {OPERATE[r]}" for d, t in enumerate(data.dice_types) for r in range(len(OPERATE))]
    return ActionTable(
        [
            ("town_pass", [""], "Town action: do nothing."),
            ("hire", list(DIE_TYPES), "Town action: pay the hire cost and hire a worker die of this type (rolled, blanks rerolled)."),
            ("learn", skills, "Town action (Longhouse): pay a skill's cost and place it in this row's skill slot."),
            ("operate", list(OPERATE), "Character action: Operate with this action (allowed by the day's alignment)."),
            ("guest", guests, "Choose this guest (to pamper, to seat, to return to the bag, or to take from the bag for Favorite)."),
            ("slot", slots, "Choose this inn slot (where to place, seat, mark the party, damage or lose)."),
            ("buy", accs, "Improve: purchase this accommodation token (its slot is chosen next)."),
            ("move", slots, "Improve: move the accommodation in this slot (its new slot is chosen next)."),
            ("sell", slots, "Improve: sell the accommodation in this slot for half its cost (rounded down)."),
            ("repair", slots, "Improve: repair the damaged accommodation in this slot for half its cost (rounded up)."),
            ("gossip", [f"gossip {c.cid} {c.name}" for c in data.gossip], "Choose this gossip card from your hand (to serve or to mingle)."),
            ("skill", [""], "Resolve the skill in the row of the Operate action just performed."),
            ("entertainer_coin", [""], "Entertainer: add a coin to the party action."),
            ("entertainer_party", [""], "Entertainer: perform the party action (its slot is chosen next)."),
            ("worker", dice, "Worker action: decrease this die and perform this row's action."),
            ("done", [""], "Finish the current step: end Improve, skip the skill, end the daytime, stop seating, decline a late guest, stop Waiting List, keep the skills' arrangement."),
            ("arrange", [f"{k.key} to row {OPERATE[r]}" for k in data.skills for r in range(data.skill_slots)],
             "After gaining a skill: move this gained skill into this row's skill slot (a skill there takes its old slot)."),
        ]
    )
