"""Mythic Baths' part of the PRIVILEGED global state (``env.state()``; see ``envs/core/state.py``).

Besides every player's own observation (so every hand), the state shows what no player sees: the
ingredient deck (its contents and the order of its next :data:`DECK_TOP` cards, as many as a
gather draws), the next :data:`GUEST_TOP` guests of the guest deck and the next manager.
Sizes are those of the card set, the same for every player count.
"""

from __future__ import annotations

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.core.state import one_hot_rows
from mythzoo.envs.mythic_baths.actions import SUPPLY_SIZE
from mythzoo.envs.mythic_baths.observation import MAX_SEATS
from mythzoo.envs.mythic_baths.rules import MythicBathsRules, State

DECK_TOP = 1 + SUPPLY_SIZE  # a gather draws the top card, then deals a fresh supply
GUEST_TOP = 3
DECK_SCALE = 10.0


class MythicBathsHidden:
    """Encodes the decks' hidden order and contents (pieces in :meth:`layout`)."""

    agent_slots = tuple(f"player_{p}" for p in range(MAX_SEATS))

    def __deepcopy__(self, memo: dict) -> MythicBathsHidden:
        """Static tables: a deep copy of an env shares them."""
        return self

    def __init__(self, rules: MythicBathsRules):
        self.rules = rules
        cs = rules.cs
        self.K, self.G, self.M = cs.num_kinds, len(rules.guests), len(cs.managers)
        kinds = [cs.kind_label(k) for k in range(self.K)]
        self._layout = ObservationLayout([
            ("deck_counts", (self.K,), f"Ingredient deck: cards of each kind (/{DECK_SCALE:g}).", [kinds]),
            ("deck_top", (DECK_TOP, self.K), "One-hot kind of each of the deck's next cards, top first (zero past the deck's end).", [[f"top{i}" for i in range(DECK_TOP)], kinds]),
            ("guest_deck_top", (GUEST_TOP, self.G), "One-hot guest card of each of the guest deck's next cards, top first.", [[f"top{i}" for i in range(GUEST_TOP)], [g.name for g in rules.guests]]),
            ("manager_next", (self.M,), "One-hot next manager of the manager deck (by effect, in card-set order).", [list(cs.managers)]),
        ])
        L = self._layout
        self._at = {p.name: (p.offset, p.size, p.shape) for p in L.pieces}

    def layout(self) -> ObservationLayout:
        """The hidden pieces."""
        return self._layout

    def _view(self, out: np.ndarray, name: str) -> np.ndarray:
        at, size, shape = self._at[name]
        return out[at : at + size].reshape(shape)

    def encode(self, s: State, out: np.ndarray) -> None:
        """Write the decks of ``s`` into ``out`` (zeroed)."""
        counts = np.bincount(np.asarray(s.deck, dtype=np.int64), minlength=self.K) if s.deck else np.zeros(self.K)
        self._view(out, "deck_counts")[:] = counts / DECK_SCALE
        one_hot_rows(self._view(out, "deck_top"), s.deck[::-1])  # piles: top = end
        one_hot_rows(self._view(out, "guest_deck_top"), s.guest_deck[::-1])
        if s.manager_deck:
            self._view(out, "manager_next")[s.manager_deck[-1]] = 1.0
