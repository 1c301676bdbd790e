"""The Mythsgate heuristic policy: the entry points, each row played by its agent's role."""

from __future__ import annotations

import numpy as np

from mythzoo.policies.base import BasePolicy, check_mask
from mythzoo.policies.mythsgate_heuristic.heroes import HeroPlay
from mythzoo.policies.mythsgate_heuristic.invoker import InvokerPlay
from mythzoo.policies.mythsgate_heuristic.reading import MythsgateReading


class MythsgateHeuristic(InvokerPlay, HeroPlay, MythsgateReading, BasePolicy):
    """Greedy rule-based player of both Mythsgate roles (``invoker`` and ``hero_*``)."""

    name = "heuristic"

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, agent: str | None = None) -> np.ndarray:
        """One legal action per row; every row is played by ``agent``'s role."""
        obs = np.asarray(observations, dtype=np.float32)
        masks = np.asarray(action_masks)
        if obs.ndim == 1:
            obs, masks = obs[None], masks[None]
        role = self._role(agent, obs.shape[1])
        return np.array([self._act_row(role, o, m) for o, m in zip(obs, masks)], dtype=np.int64)

    def _role(self, agent: str | None, size: int) -> str:
        if agent is not None:
            return "invoker" if self.role_of(agent) == "invoker" else "hero"
        if size not in self.size_role:
            raise ValueError(f"observation of length {size} is neither the Invoker's nor a hero's")
        return self.size_role[size]

    def _act_row(self, role: str, obs: np.ndarray, mask: np.ndarray) -> int:
        check_mask(mask)
        legal = set(np.flatnonzero(mask).tolist())
        v = self.L[role].views(obs)
        phase = int(np.argmax(v["phase"]))
        choice = self._invoker(v, phase, legal) if role == "invoker" else self._hero(v, phase, legal)
        if choice is None or choice not in legal:
            choice = self._fallback(role, legal)
        return int(choice)

    def _fallback(self, role: str, legal: set[int]) -> int:
        o = self.o[role]
        for name in ("end_turn", "fight", "end_trade", "end_sacrifice", "draw", "decline", "keep_all"):
            if name in o and o[name] in legal:
                return o[name]
        return min(legal)
