"""Mythic Baths as a PettingZoo AEC environment (documentation: ``docs/envs/mythic_baths.md``).

=================  =====================================================================
Import             ``from mythzoo.envs import mythic_baths_v1``
Agents             ``player_0`` ... ``player_{n-1}``, ``num_players`` = 2..5
Actions            ``Discrete(132)`` (5 ingredient types); a turn is several decisions
Observations       ``Dict(observation=Box(float32, (L,)), action_mask=Box(int8, (132,)))``,
                   the same sizes for every player count, from the observer's seat
Rewards            ``zero_sum`` (default), at the end: a sole winner +1, the others
                   -1/(n-1), ties share; ``score``, at the end: VP minus the others'
                   mean VP, /100; ``dense``: every step pays the change of that VP
                   margin, and the end adds the zero-sum result (all modes zero-sum)
Truncation         after ``max_turns`` turns (default 120 per player)
Global state       ``state()``: PRIVILEGED (every hand, the decks' hidden order), one
                   ``float32`` shape for every player count (``state_space``)
=================  =====================================================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mythzoo.envs.core.aec import MythzooAECEnv, shared_win_rewards
from mythzoo.envs.core.factory import standard_env
from mythzoo.envs.mythic_baths.cards import load_card_set
from mythzoo.envs.mythic_baths.observation import MythicBathsObserver
from mythzoo.envs.mythic_baths.render import render_image, render_text
from mythzoo.envs.mythic_baths.rules import MythicBathsRules
from mythzoo.envs.mythic_baths.state import MythicBathsHidden

REWARD_MODES = ("zero_sum", "score", "dense")
SCORE_SCALE = 100.0
TURNS_PER_PLAYER = 120


class raw_env(MythzooAECEnv):
    """Mythic Baths, 2-5 players. An illegal action raises ``IllegalActionError``."""

    renderer = staticmethod(render_text)  # render_text(rules, state, seat)
    image_renderer = staticmethod(render_image)  # render_image(rules, state, seat)
    env_name = "mythic_baths_v1"

    def __init__(
        self,
        num_players: int = 2,
        render_mode: str | None = None,
        reward_mode: str = "zero_sum",
        max_turns: int | None = None,
        card_set: str | Path | None = None,
        _strict: bool = True,
    ):
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")
        cs = load_card_set(card_set)
        rules = MythicBathsRules(cs, num_players)
        if max_turns is None:
            max_turns = TURNS_PER_PLAYER * num_players
        self.reward_mode = reward_mode
        self.shaped = reward_mode == "dense"
        super().__init__(
            rules,
            MythicBathsObserver(rules),
            [f"player_{i}" for i in range(num_players)],
            [rules.num_actions] * num_players,
            config={"num_players": num_players, "reward_mode": reward_mode, "max_turns": max_turns, "card_set": cs.digest},
            render_mode=render_mode,
            strict=_strict,
            max_turns=max_turns,
            hidden=MythicBathsHidden(rules),
        )
        self.card_set = cs

    def _potential(self, s: Any) -> list[float]:
        """``dense`` mode: the VP margin (own VP minus the others' mean, /100); each step pays its change."""
        sc = self.rules.scores(s)
        n, total = self.rules.n, sum(sc)
        return [(sc[p] - (total - sc[p]) / (n - 1)) / SCORE_SCALE for p in range(n)]

    def _final_rewards(self, s: Any) -> list[float]:
        n = self.rules.n
        if self.reward_mode == "score":
            sc = self.rules.scores(s)
            total = sum(sc)
            return [(sc[p] - (total - sc[p]) / (n - 1)) / SCORE_SCALE for p in range(n)]
        return shared_win_rewards(n, self.rules.winners(s))




env = standard_env(raw_env)
