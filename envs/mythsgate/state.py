"""Mythsgate's part of the PRIVILEGED global state (``env.state()``; see ``envs/core/state.py``).

Besides every agent's own observation (the Invoker's hand and what he has seen, the League's
hands), the state shows what no agent sees: the Power deck (its contents and the order of its next
:data:`~mythzoo.envs.mythsgate.actions.VIEW` cards), the next :data:`INV_TOP` cards of the
Invoker's deck and the top card of each location deck. Sizes are those of the game data, the same
for every number of heroes.
"""

from __future__ import annotations

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.core.state import one_hot_rows
from mythzoo.envs.mythsgate.actions import MAX_HEROES, VIEW
from mythzoo.envs.mythsgate.gamedata import DECKS
from mythzoo.envs.mythsgate.rules import MythsgateRules, State

INV_TOP = 3
POWER_SCALE = 10.0


class MythsgateHidden:
    """Encodes the decks' hidden order and contents (pieces in :meth:`layout`)."""

    agent_slots = ("invoker",) + tuple(f"hero_{h}" for h in range(MAX_HEROES))

    def __deepcopy__(self, memo: dict) -> MythsgateHidden:
        """Static tables: a deep copy of an env shares them."""
        return self

    def __init__(self, rules: MythsgateRules):
        gd = rules.gd
        self.K, self.NI, self.NL = gd.num_kinds, len(gd.invoker_cards), len(gd.location_cards)
        kinds = [gd.kind_label(k) for k in range(self.K)]
        cards = [f"c{c.cid}_{c.name}" for c in gd.invoker_cards]
        locs = [f"l{c.gid}_{c.name}" if c.name else f"l{c.gid}" for c in gd.location_cards]
        self._layout = ObservationLayout([
            ("power_deck_counts", (self.K,), f"Power deck: cards of each kind (/{POWER_SCALE:g}).", [kinds]),
            ("power_deck_top", (VIEW, self.K), "One-hot kind of each of the Power deck's next cards, top first (zero past its end).", [[f"top{i}" for i in range(VIEW)], kinds]),
            ("invoker_deck_top", (INV_TOP, self.NI), "One-hot Great Invoker card of each of his deck's next cards, top first.", [[f"top{i}" for i in range(INV_TOP)], cards]),
            ("location_deck_top", (len(DECKS), self.NL), "One-hot top card of each location deck.", [list(DECKS), locs]),
        ])
        self._at = {p.name: (p.offset, p.size, p.shape) for p in self._layout.pieces}

    def layout(self) -> ObservationLayout:
        """The hidden pieces."""
        return self._layout

    def _view(self, out: np.ndarray, name: str) -> np.ndarray:
        at, size, shape = self._at[name]
        return out[at : at + size].reshape(shape)

    def encode(self, s: State, out: np.ndarray) -> None:
        """Write the decks of ``s`` into ``out`` (zeroed)."""
        if s.power_deck:
            self._view(out, "power_deck_counts")[:] = np.bincount(np.asarray(s.power_deck, dtype=np.int64), minlength=self.K) / POWER_SCALE
        one_hot_rows(self._view(out, "power_deck_top"), s.power_deck[::-1])  # piles: top = end
        one_hot_rows(self._view(out, "invoker_deck_top"), s.inv_deck[::-1])
        one_hot_rows(self._view(out, "location_deck_top"), [d[-1] if d else -1 for d in s.loc_deck])
