"""Mythsgate as a PettingZoo AEC environment: the Great Invoker against the Atari League.

=================  =====================================================================
Import             ``from mythzoo.envs import mythsgate_v2``
Agents             ``invoker``, ``hero_0`` ... ``hero_{k-1}``, ``num_heroes`` = 1..5
Actions            per role: the Invoker's ``Discrete(n_inv)``, every hero's ``Discrete(n_hero)``
                   (sizes in ``docs/rules/mythsgate.md``); every decision is one step
Observations       ``Dict(observation=Box(float32, (L_role,)), action_mask=Box(int8, (n_role,)))``,
                   the same sizes for every ``num_heroes``
Rewards            at the end, zero-sum between the sides: the winner's side +1 (every hero
                   gets the League's reward), the loser's side -1
Truncation         after ``max_rounds`` rounds (default 30): a draw, every reward 0
Global state       ``state()``: PRIVILEGED (every hand, the decks' hidden order), one
                   ``float32`` shape for every ``num_heroes`` (``state_space``)
=================  =====================================================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mythzoo.envs.core.actions import ActionTable
from mythzoo.envs.core.aec import MythzooAECEnv
from mythzoo.envs.core.factory import standard_env
from mythzoo.envs.core.validate import check_arg
from mythzoo.envs.mythsgate.gamedata import load_data
from mythzoo.envs.mythsgate.observation import MythsgateObserver
from mythzoo.envs.mythsgate.render import render_image, render_text
from mythzoo.envs.mythsgate.rules import MythsgateRules
from mythzoo.envs.mythsgate.state import MythsgateHidden

DEFAULT_MAX_ROUNDS = 30


class raw_env(MythzooAECEnv):
    """Mythsgate, one Invoker against 1-5 heroes. An illegal action raises ``IllegalActionError``."""

    renderer = staticmethod(render_text)  # render_text(rules, state, seat)
    image_renderer = staticmethod(render_image)  # render_image(rules, state, seat)
    env_name = "mythsgate_v2"
    team_roles = ("hero",)  # the heroes win or lose together: "every hero gets the League's reward"

    def __init__(
        self,
        num_heroes: int = 2,
        render_mode: str | None = None,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        characters: list[int] | None = None,
        data: str | Path | None = None,
        _strict: bool = True,
    ):
        check_arg(max_rounds, 1, None, "max_rounds")
        gd = load_data(data)
        rules = MythsgateRules(gd, num_heroes, characters)
        agents = ["invoker"] + [f"hero_{h}" for h in range(num_heroes)]
        super().__init__(
            rules,
            MythsgateObserver(rules, max_rounds),
            agents,
            rules.num_actions,
            config={"num_heroes": num_heroes, "max_rounds": max_rounds, "characters": list(rules.chars), "data": gd.digest},
            render_mode=render_mode,
            strict=_strict,
            max_turns=max_rounds,
            hidden=MythsgateHidden(rules),
        )
        self.max_rounds = max_rounds
        self.data = gd

    def _final_rewards(self, s: Any) -> list[float]:
        """The winning side +1, the other -1; every hero gets the League's reward."""
        inv = 1.0 if s.winner == 0 else -1.0
        return [inv] + [-inv] * self.rules.k

    def action_table(self, agent: str | None = None) -> ActionTable:
        """The Invoker's table for ``invoker`` (the default), the shared hero table for any hero."""
        return self.rules.inv_table if agent in (None, "invoker") else self.rules.hero_table

    def action_label(self, action: int, agent: str | None = None) -> str:
        """Readable name of an action id of ``agent`` (the agent to move by default)."""
        if agent is None:
            agent = self.agent_selection if self.state_ is not None and self.agents else "invoker"
        return self.action_table(agent).label(action)


env = standard_env(raw_env)
