"""A rule-based toy player that sees only what an agent sees: the mask, the action table and the card values."""

from __future__ import annotations

from typing import Any

import numpy as np

from mythzoo.policies.base import BasePolicy, check_mask


class ToyHeuristic(BasePolicy):
    """Plays its most valuable card; with none, draws; otherwise passes."""

    name = "heuristic"

    def __init__(self, env: Any, seed: int | None = None):
        u = env.unwrapped
        self.table = u.action_table()
        self.values = u.rules.cards.values  # public data, not the state

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        check_mask(action_mask)
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        decoded = {a: self.table.decode(a) for a in legal}
        plays = [a for a in legal if decoded[a][0] == "play"]
        if plays:
            return max(plays, key=lambda a: self.values[decoded[a][1]])
        return next((a for a in legal if decoded[a][0] == "draw"), legal[-1])
