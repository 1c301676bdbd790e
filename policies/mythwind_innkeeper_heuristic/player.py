"""The Innkeeper heuristic policy: decode the observation, ask the phase's handler, check the mask."""

from __future__ import annotations

import numpy as np

from mythzoo.policies.base import BasePolicy, check_mask
from mythzoo.policies.mythwind_innkeeper_heuristic.model import InnModel
from mythzoo.policies.mythwind_innkeeper_heuristic.phases import PhaseChoices
from mythzoo.policies.mythwind_innkeeper_heuristic.reading import InnReading


class MythwindInnkeeperHeuristic(PhaseChoices, InnModel, InnReading, BasePolicy):
    """Model-based greedy innkeeper for ``mythwind_innkeeper_v5``.

    ``MythwindInnkeeperHeuristic(env, seed=None, banned_rows=())``: ``banned_rows`` names Operate
    rows (``"pamper"``, ``"improve"``, ``"serve"``, ``"mingle"``, ``"party"``) the player knows it
    may not take, for design ablations: it places no skill there and hires no die for them. The
    mask must still leave them out; it only plays around them.
    """

    name = "heuristic"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, agent: str | None = None) -> int:
        """One legal action chosen by the plan in the package docstring (a random legal one where no rule applies)."""
        mask = np.asarray(action_mask)
        check_mask(mask)
        legal = [int(a) for a in np.flatnonzero(mask)]
        s = self._read(observation)
        handler = getattr(self, f"_ph_{s.phase}", None)
        choice = handler(s, set(legal)) if handler is not None else None
        if choice is None or not mask[choice]:
            choice = legal[0] if len(legal) == 1 else int(self.rng.choice(legal))
        return int(choice)
