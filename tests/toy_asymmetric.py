"""A tiny asymmetric game on the shared core, for tests: one hider, one seeker, different sizes.

The hider picks one of three boxes (observation: 2 floats, actions: 3); then the seeker, who sees
only a hint that is right with probability 2/3 (observation: 4 floats, actions: 3), guesses.
The seeker wins (+1, hider -1) on the right box, else the hider wins.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from mythzoo.envs.core.aec import MythzooAECEnv
from mythzoo.envs.core.errors import IllegalActionError
from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.core.rng import make_rng, rng_from_json, rng_to_json
from mythzoo.envs.core.spec import GameSpec


@dataclass
class ToyState:
    rng: np.random.Generator
    box: int = -1
    hint: int = -1
    guess: int = -1
    over: int = 0


class ToyRules:
    num_players = 2

    def initial_state(self, seed):
        return ToyState(rng=make_rng(seed))

    def current_player(self, s):
        return -1 if s.over else (0 if s.box < 0 else 1)

    def legal_actions(self, s):
        return [] if s.over else [0, 1, 2]

    def apply(self, s, action, checked=False):
        if not checked and action not in self.legal_actions(s):
            raise IllegalActionError(f"illegal {action}")
        if s.box < 0:
            s.box = int(action)
            s.hint = s.box if s.rng.random() < 2 / 3 else int(s.rng.integers(3))
        else:
            s.guess = int(action)
            s.over = 1

    def is_over(self, s):
        return bool(s.over)

    def turns_played(self, s):
        return int(s.box >= 0) + int(s.guess >= 0)

    def to_json(self, s):
        return {"box": s.box, "hint": s.hint, "guess": s.guess, "over": s.over, "rng": rng_to_json(s.rng)}

    def from_json(self, d):
        return ToyState(rng=rng_from_json(d["rng"]), box=d["box"], hint=d["hint"], guess=d["guess"], over=d["over"])

    def clone(self, s):
        return copy.deepcopy(s)

    def resample_hidden(self, s, observer, seed):
        c = copy.deepcopy(s)
        if observer == 1 and c.box >= 0:  # the seeker does not know the box
            c.box = int(make_rng(seed).integers(3))
        return c


class ToyObserver:
    def __init__(self):
        self.layouts = [
            ObservationLayout([("role", (1,), "1 for the hider"), ("done", (1,), "box chosen")]),
            ObservationLayout([("hint", (3,), "one-hot hint"), ("ready", (1,), "box chosen")]),
        ]

    def layout(self, seat):
        return self.layouts[seat]

    def observation(self, s, seat):
        out = np.zeros(self.layouts[seat].size, dtype=np.float32)
        self.encode(s, seat, out)
        return out

    def encode(self, s, seat, out):
        if seat == 0:
            out[0], out[1] = 1.0, float(s.box >= 0)
        else:
            if s.hint >= 0:
                out[s.hint] = 1.0
            out[3] = float(s.box >= 0)


class ToyEnv(MythzooAECEnv):
    env_name = "toy_hide_seek_v0"

    def __init__(self, render_mode: str | None = None, strict: bool = False):
        super().__init__(ToyRules(), ToyObserver(), ["hider", "seeker_0"], [3, 3], config={}, render_mode=render_mode, strict=strict)

    def _final_rewards(self, s: Any) -> list[float]:
        win = 1.0 if s.guess == s.box else -1.0
        return [-win, win]

    def action_label(self, action: int, agent: str | None = None) -> str:
        return f"box {action}"

    def render_text(self, seat: int | None = None) -> str:
        s = self.state_
        return f"box={s.box if seat in (None, 0) else '?'} hint={s.hint} guess={s.guess}"


def env(**kwargs: Any) -> ToyEnv:
    """The toy with PettingZoo's standard behaviour (an illegal action ends the game)."""
    return ToyEnv(**kwargs)


raw_env = ToyEnv

SPEC = GameSpec(
    name="toy_hide_seek", version=0, title="toy hide and seek", module="toy_asymmetric", kind="roles",
    roles=("hider", "seeker"), utility="zero_sum", reward_modes=("zero_sum",),
    heuristic="mythzoo.policies.base:RandomPolicy",
)
