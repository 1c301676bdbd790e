"""Mythwind: the Innkeeper as a single-agent PettingZoo AEC environment (rules: ``docs/rules/mythwind_innkeeper.md``).

=================  =====================================================================
Import             ``from mythzoo.envs import mythwind_innkeeper_v5``
Agents             one, ``innkeeper``
Actions            ``Discrete(297)`` with the default data; a day is many decisions
Observations       ``Dict(observation=Box(float32, (L,)), action_mask=Box(int8, (247,)))``
Score              the innkeeper's worth: coins plus what the inn's accommodations would sell
                   for (half their cost, rounded down), so selling the inn off at the end gains
                   nothing
Rewards            ``coins`` (default): every step pays the change of the worth (coins gained
                   positive, coins paid negative, a purchase less the token's sale value), so an
                   episode's return is the final worth minus the starting 10 coins;
                   ``terminal``: the same total, paid once at the end (nothing if truncated)
Infos              ``coins``, ``worth``, ``earned``, ``renown`` (track slot), ``renown_level``,
                   ``seated`` / ``unseated`` (last night's satisfaction count), ``day``, ``season``,
                   ``illegal_action`` (-1 unless one ended the game): every key at every step
Length             ``days_per_season`` (default 6) x ``seasons`` (default 4) days; the game
                   terminates after the last day; ``max_turns`` (days) truncates earlier: the
                   step reaching the cap still pays its own reward, no final reward follows
Global state       ``state()``: PRIVILEGED (the observation and the next random draws),
                   ``float32`` (``state_space``)
=================  =====================================================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mythzoo.envs.core.aec import MythzooAECEnv
from mythzoo.envs.core.factory import standard_env
from mythzoo.envs.mythwind_innkeeper.components import load_data
from mythzoo.envs.mythwind_innkeeper.observation import MythwindInnkeeperObserver
from mythzoo.envs.mythwind_innkeeper.render import render_image, render_text
from mythzoo.envs.mythwind_innkeeper.rules import MythwindInnkeeperRules

REWARD_MODES = ("coins", "terminal")
DEFAULT_DAYS_PER_SEASON = 6
DEFAULT_SEASONS = 4


class raw_env(MythzooAECEnv):
    """Mythwind: the Innkeeper, one agent. An illegal action raises ``IllegalActionError``."""

    env_name = "mythwind_innkeeper_v5"

    def __init__(
        self,
        days_per_season: int = DEFAULT_DAYS_PER_SEASON,
        seasons: int = DEFAULT_SEASONS,
        render_mode: str | None = None,
        reward_mode: str = "coins",
        max_turns: int | None = None,
        data: str | Path | None = None,
        _strict: bool = True,
    ):
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")
        inn = load_data(data)
        rules = MythwindInnkeeperRules(inn, days_per_season, seasons)
        if max_turns is None:
            max_turns = rules.total_days()
        self.reward_mode = reward_mode
        self.shaped = reward_mode == "coins"
        super().__init__(
            rules,
            MythwindInnkeeperObserver(rules),
            ["innkeeper"],
            [rules.num_actions],
            config={"days_per_season": days_per_season, "seasons": seasons, "reward_mode": reward_mode, "max_turns": max_turns, "data": inn.digest},
            render_mode=render_mode,
            strict=_strict,
            max_turns=max_turns,
        )
        self.data = inn
        self._start_coins = inn.starting_coins

    def _potential(self, s: Any) -> list[float]:
        """``coins`` mode: the worth (coins plus the inn's sale value); each step pays its change."""
        return [float(self.rules.worth(s))]

    def _final_rewards(self, s: Any) -> list[float]:
        """``terminal`` mode: the final worth less the starting coins, paid at the end; ``coins`` mode: nothing more."""
        if self.reward_mode == "terminal":
            return [float(self.rules.worth(s) - self._start_coins)]
        return [0.0]

    info_docs = {
        **MythzooAECEnv.info_docs,
        "coins": "coins held",
        "worth": "the score: coins plus the inn's sale value (half of each accommodation's cost, rounded down)",
        "earned": "coins gained over the campaign (never decreases)",
        "renown": "slot of the renown marker on its track (0 = leftmost)",
        "renown_level": "renown level, 1-3 (I-III)",
        "seated": "guests seated last night",
        "unseated": "guests left unseated last night",
        "day": "days completed",
        "season": "season, 0-based",
    }

    def _info(self) -> dict[str, Any]:
        """What ``infos["innkeeper"]`` carries (and the Gymnasium env's ``info``)."""
        s, r = self.state_, self.rules
        return {"coins": s.coins, "worth": r.worth(s), "earned": s.earned, "renown": s.renown, "renown_level": r.level(s),
                "seated": s.last_seated, "unseated": s.last_unseated, "day": s.turn, "season": s.season}

    def _initial_info(self, agent: str) -> dict[str, Any]:
        """The campaign's figures (:meth:`_info`) and the base's ``illegal_action``."""
        return {**super()._initial_info(agent), **self._info()}

    def step(self, action: int | None) -> None:
        """Apply ``action``; ``infos`` then carry coins, renown and last night's satisfaction."""
        super().step(action)
        infos = self.infos
        if self.agents and "innkeeper" in infos:
            s = self.state_  # the fields of _info(), merged into a new dict (earlier infos stay as they were)
            new = {"coins": s.coins, "worth": self.rules.worth(s), "earned": s.earned, "renown": s.renown, "renown_level": self.rules.levels[s.renown],
                   "seated": s.last_seated, "unseated": s.last_unseated, "day": s.turn, "season": s.season}
            old = infos["innkeeper"]
            # dict | dict is {**old, **new} (same keys, order and values) done in one C call.
            infos["innkeeper"] = old | new if type(old) is dict else {**old, **new}



    def render_text(self, seat: int | None = None) -> str:
        """The campaign as text (see ``render.render_text``)."""
        self._check_reset()
        return render_text(self.rules, self.state_)

    def render_image(self, seat: int | None = None) -> Any:
        """The campaign as an image (see ``render.render_image``)."""
        self._check_reset()
        return render_image(self.rules, self.state_)

    def scores(self) -> dict[str, int]:
        """The innkeeper's worth: coins plus the inn's sale value."""
        self._check_reset()
        return {"innkeeper": self.rules.worth(self.state_)}


env = standard_env(raw_env)  # the same arguments; an illegal action ends the game with -1
