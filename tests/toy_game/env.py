"""The toy game as a PettingZoo AEC environment (tests only).

=================  =====================================================================
Import             ``from toy_game import env`` (with ``tests/`` on the path)
Agents             ``player_0`` ... ``player_{n-1}``, ``num_players`` = 2..4
Actions            ``Discrete(K + 2)``: ``play`` one per card kind, ``draw``, ``pass``
Observations       ``Dict(observation=Box(float32, (L,)), action_mask=Box(int8, (K + 2,)))``,
                   the same sizes for every player count, from the observer's seat
Rewards            ``zero_sum`` (default), at the end: a sole winner +1, the others
                   -1/(n-1), ties share; ``dense``: every step pays the change of the
                   score margin (own score minus the others' mean, / all points), and
                   the end adds the zero-sum result
Truncation         after ``max_turns`` turns (default: none, the game ends by its rules)
=================  =====================================================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mythzoo.envs.core.aec import MythzooAECEnv, shared_win_rewards
from mythzoo.envs.core.factory import standard_env
from mythzoo.envs.core.state import NoHidden
from mythzoo.envs.core.validate import check_arg
from toy_game.cards import MAX_PLAYERS, load_cards
from toy_game.observation import ToyObserver
from toy_game.render import render_text
from toy_game.rules import ToyRules

REWARD_MODES = ("zero_sum", "dense")


class raw_env(MythzooAECEnv):
    """The toy game, 2-4 players. An illegal action raises ``IllegalActionError``."""

    renderer = staticmethod(render_text)  # render_text(rules, state, seat)
    env_name = "toy_game_v0"

    def __init__(
        self,
        num_players: int = 2,
        render_mode: str | None = None,
        reward_mode: str = "zero_sum",
        max_turns: int | None = None,
        data: str | Path | None = None,
        _strict: bool = True,
    ):
        check_arg(num_players, 2, MAX_PLAYERS, "num_players")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")
        cards = load_cards(data)
        rules = ToyRules(cards, num_players)
        self.reward_mode = reward_mode
        self.shaped = reward_mode == "dense"
        super().__init__(
            rules,
            ToyObserver(rules),
            [f"player_{i}" for i in range(num_players)],
            [rules.num_actions] * num_players,
            config={"num_players": num_players, "reward_mode": reward_mode, "max_turns": max_turns, "data": cards.digest},
            render_mode=render_mode,
            strict=_strict,
            max_turns=max_turns,
            hidden=NoHidden([f"player_{i}" for i in range(MAX_PLAYERS)]),  # the state's slots: the largest table's
        )

    def _potential(self, s: Any) -> list[float]:
        """``dense``: own score minus the others' mean score, over all points."""
        n, total = self.rules.n, sum(s.scores)
        return [(s.scores[p] - (total - s.scores[p]) / (n - 1)) / self.rules.cards.total_value for p in range(n)]

    def _final_rewards(self, s: Any) -> list[float]:
        return shared_win_rewards(self.rules.n, self.rules.winners(s))




    def scores(self) -> dict[str, int]:
        """Points of every agent."""
        self._check_reset()
        return {a: self.state_.scores[i] for i, a in enumerate(self.possible_agents)}


env = standard_env(raw_env)
