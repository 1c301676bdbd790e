"""A tiny asymmetric game on the shared core, for tests: one hider, one seeker, different sizes.

The hider picks one of three boxes (observation: 2 floats, actions: 3); then the seeker, who sees
only a hint that is right with probability 2/3 (observation: 4 floats, actions: 3), guesses.
The seeker wins (+1, hider -1) on the right box, else the hider wins. Built like a real game:
rules on ``RulesBase`` with one action table per role, ``ObservationLayout``s, ``standard_env``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mythzoo.envs.core.actions import ActionTable
from mythzoo.envs.core.aec import MythzooAECEnv
from mythzoo.envs.core.factory import standard_env
from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.core.rng import make_rng
from mythzoo.envs.core.rules_base import RulesBase, build_handlers, state_fields
from mythzoo.envs.core.spec import GameSpec
from mythzoo.envs.core.validate import check_int, req
from mythzoo.policies.base import BasePolicy, check_mask

BOXES = ("box 0", "box 1", "box 2")


@dataclass
class ToyState:
    """One round of hide and seek."""

    rng: np.random.Generator  # the game's generator (whether the hint tells the truth)
    box: int = -1  # the hider's box (hidden from the seeker); -1 before it hides
    hint: int = -1  # what the seeker is told; -1 before the hider hides
    guess: int = -1  # the seeker's guess; -1 before it guesses
    over: int = 0  # 1 once the seeker has guessed
    legal: list[int] | None = None  # cached legal ids (derived)


class ToyRules(RulesBase):
    """The hider hides, the seeker guesses; one action table per role."""

    State = ToyState
    STATE_FIELDS = state_fields(ToyState, ("legal",))
    num_players = 2

    def __init__(self) -> None:
        self.tables = [ActionTable([("hide", BOXES, "Hide in this box.")]), ActionTable([("guess", BOXES, "Look in this box.")])]
        self.table = self.tables[0]
        self.role_handlers = [build_handlers(self, t) for t in self.tables]

    def initial_state(self, seed: int | None) -> ToyState:
        return ToyState(rng=make_rng(seed))

    def current_player(self, s: ToyState) -> int:
        return -1 if s.over else (0 if s.box < 0 else 1)

    def scores(self, s: ToyState) -> list[int]:
        """Rounds won so far: the seeker's on a right guess, the hider's on a wrong one."""
        found = int(s.over and s.guess == s.box)
        return [int(s.over) - found, found]

    def table_for(self, s: ToyState) -> ActionTable:
        return self.tables[max(self.current_player(s), 0)]

    def handlers_for(self, s: ToyState) -> list:
        return self.role_handlers[self.current_player(s)]

    def _compute_legal(self, s: ToyState) -> list[int]:
        return [] if s.over else [0, 1, 2]

    def act_hide(self, s: ToyState, box: int) -> None:
        s.box = box
        s.hint = box if s.rng.random() < 2 / 3 else int(s.rng.integers(3))

    def act_guess(self, s: ToyState, box: int) -> None:
        s.guess = box
        s.over = 1

    def turns_played(self, s: ToyState) -> int:
        return int(s.box >= 0) + int(s.guess >= 0)

    def validate(self, s: ToyState) -> None:
        for name in ("box", "hint", "guess"):
            check_int(getattr(s, name), -1, 2, name)
        check_int(s.over, 0, 1, "over")
        req((s.box < 0) == (s.hint < 0), "a hint exists exactly when the hider has hidden")
        req(s.guess < 0 or s.box >= 0, "the seeker guessed before the hider hid")
        req(s.over == int(s.guess >= 0), "the over flag disagrees with the guess")

    def resample_hidden(self, s: ToyState, observer: int, seed: int | None) -> ToyState:
        c = self.clone(s)
        if observer == 1 and c.box >= 0:  # the seeker does not know the box
            c.box = int(make_rng(seed).integers(3))
        return c


class ToyObserver:
    def __init__(self) -> None:
        self.layouts = [
            ObservationLayout([("role", (1,), "1 for the hider"), ("done", (1,), "box chosen")]),
            ObservationLayout([("hint", (3,), "one-hot hint", [BOXES]), ("ready", (1,), "box chosen")]),
        ]

    def layout(self, seat: int) -> ObservationLayout:
        return self.layouts[seat]

    def observation(self, s: ToyState, seat: int) -> np.ndarray:
        out = np.zeros(self.layouts[seat].size, dtype=np.float32)
        self.encode(s, seat, out)
        return out

    def encode(self, s: ToyState, seat: int, out: np.ndarray) -> None:
        out[:] = 0.0
        if seat == 0:
            out[0], out[1] = 1.0, float(s.box >= 0)
        else:
            if s.hint >= 0:
                out[s.hint] = 1.0
            out[3] = float(s.box >= 0)


class raw_env(MythzooAECEnv):
    """Hide and seek. An illegal action raises ``IllegalActionError``."""

    metadata = {"render_modes": ["ansi", "human"], "name": "toy_hide_seek_v0", "is_parallelizable": False, "render_fps": 1}
    env_name = "toy_hide_seek_v0"

    def __init__(self, render_mode: str | None = None, max_turns: int | None = None, _strict: bool = True):
        super().__init__(ToyRules(), ToyObserver(), ["hider", "seeker_0"], [3, 3], config={"max_turns": max_turns},
                         render_mode=render_mode, strict=_strict, max_turns=max_turns)

    def _final_rewards(self, s: Any) -> list[float]:
        win = 1.0 if s.guess == s.box else -1.0
        return [-win, win]

    def action_table(self, agent: str | None = None) -> ActionTable:
        return self.rules.tables[0 if agent in (None, "hider") else 1]

    def action_label(self, action: int, agent: str | None = None) -> str:
        if agent is None:
            agent = self.agent_selection if self.state_ is not None and self.agents else "hider"
        return self.action_table(agent).label(action)

    def render_text(self, seat: int | None = None) -> str:
        s = self.state_
        return f"Hide and seek: box={s.box if seat in (None, 0) else '?'} hint={s.hint} guess={s.guess}"


env = standard_env(raw_env)
ToyEnv = env  # the env() face (an illegal action ends the game), as the training tests build it


class ToyHeuristic(BasePolicy):
    """The hider hides in box 0; the seeker looks where the hint points."""

    name = "heuristic"

    def __init__(self, env: Any, seed: int | None = None):
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        check_mask(action_mask)
        if agent is not None and agent.startswith("seeker") and observation[:3].any():
            return int(np.argmax(observation[:3]))
        return int(np.flatnonzero(action_mask)[0])


SPEC = GameSpec(
    name="toy_hide_seek", version=0, title="Hide and seek: a two-role toy game", module="toy_asymmetric", kind="roles",
    roles=("hider", "seeker"), utility="zero_sum", reward_modes=("zero_sum",), seat_offset=2,
    heuristic="toy_asymmetric:ToyHeuristic", max_decisions=lambda kwargs: 2,
)
