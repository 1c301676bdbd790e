"""The global state of a game for centralised critics: ``env.state()``, ``env.state_space``.

PRIVILEGED: the state holds what no single agent sees (every hand, the order of the decks, the
game's future random draws). Use it for a centralised critic or value function at training time,
never as a policy's input at play time.

One flat float32 vector, the same size for every table size of a game, declared as an
:class:`~mythzoo.envs.core.observer.ObservationLayout` (so ``state_features()`` names every entry
and the docs print its table):

1. ``obs.<agent>``: every agent's own observation, for every seat of the largest table of the game
   (an agent absent at a smaller table is all zero), so the state holds all the private information
   that any agent has (hands, what an agent has looked at).
2. the game's hidden pieces (its :class:`HiddenEncoder`): what no agent sees, e.g. the next cards of
   each shuffled deck.
3. ``rng_next``: the next :data:`RNG_PEEK` uniform variates of the game's own generator, i.e. the
   randomness of the draws still to come (a draw from ``k`` items takes about ``floor(u * k)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout
from mythzoo.envs.core.rng import copy_rng

RNG_PEEK = 8
__all__ = ["RNG_PEEK", "HiddenEncoder", "NoHidden", "StateEncoder", "one_hot_rows"]


class HiddenEncoder(Protocol):
    """A game's part of the state: what no agent's observation shows."""

    #: every agent of the game's largest table, in seat order (the ``obs.<agent>`` slots)
    agent_slots: Sequence[str]

    def layout(self) -> ObservationLayout:
        """The hidden pieces (names, shapes, docs); the same for every table size."""

    def encode(self, s: Any, out: np.ndarray) -> None:
        """Write the hidden pieces of ``s`` into ``out`` (zeroed, of the layout's size)."""


def one_hot_rows(out: np.ndarray, values: Sequence[int]) -> None:
    """Row ``i`` of the 2-D view ``out`` gets a one at column ``values[i]``; rows past the values, and
    rows whose value is negative (nothing there), stay zero."""
    for i, v in enumerate(values[: out.shape[0]]):
        if v >= 0:
            out[i, v] = 1.0


class NoHidden:
    """A game that hides nothing beyond its agents' observations and its RNG."""

    def __init__(self, agent_slots: Sequence[str]):
        self.agent_slots = list(agent_slots)

    def layout(self) -> ObservationLayout:
        """No pieces."""
        return ObservationLayout([])

    def encode(self, s: Any, out: np.ndarray) -> None:
        """Nothing to write."""


class StateEncoder:
    """Builds the state vector of one env: the agents' observations, the hidden pieces, the RNG peek."""

    def __init__(self, hidden: HiddenEncoder, observer: Any, seat_of: dict[str, int], role_sizes: dict[str, int], role_of: Any):
        self.hidden = hidden
        self.observer = observer
        hidden_layout = hidden.layout()
        pieces: list[tuple] = []
        self._seats: list[tuple[int, int, int]] = []  # (seat, offset, size) of every present agent's slot
        self._slot_roles = {agent: role_of(agent) for agent in hidden.agent_slots}
        offset = 0
        for agent in hidden.agent_slots:
            size = role_sizes[self._slot_roles[agent]]
            pieces.append((f"obs.{agent}", (size,), f"`{agent}`'s own observation (all zero when the table has no `{agent}`)."))
            if agent in seat_of:
                self._seats.append((seat_of[agent], offset, size))
            offset += size
        self._hidden_at = offset
        self._hidden_size = hidden_layout.size
        pieces += [(p.name, p.shape, p.doc) + ((p.axes,) if p.axes is not None else ()) for p in hidden_layout.pieces]
        pieces.append(("rng_next", (RNG_PEEK,), f"The next {RNG_PEEK} uniform variates in [0, 1) of the game's generator: the randomness of every draw still to come."))
        self.layout = ObservationLayout(pieces)
        self.size = self.layout.size
        self._rng_at = self.size - RNG_PEEK

    def __deepcopy__(self, memo: dict) -> StateEncoder:
        """Static tables only: a deep copy of an env shares its encoder."""
        return self

    def encode(self, s: Any) -> np.ndarray:
        """The state vector of ``s`` (a new float32 array)."""
        out = np.zeros(self.size, dtype=np.float32)
        observation = self.observer.observation
        for seat, at, size in self._seats:
            out[at : at + size] = observation(s, seat)
        if self._hidden_size:
            self.hidden.encode(s, out[self._hidden_at : self._hidden_at + self._hidden_size])
        out[self._rng_at :] = copy_rng(s.rng).random(RNG_PEEK)
        return out

    def features(self, role_features: dict[str, list[str]]) -> list[str]:
        """One name per entry: ``<agent>/<observation feature>`` in the observation slots
        (``role_features``: each role's observation feature names)."""
        names: list[str] = []
        for p in self.layout.pieces:
            if p.name.startswith("obs."):
                agent = p.name[4:]
                names += [f"{agent}/{f}" for f in role_features[self._slot_roles[agent]]]
            else:
                names += ObservationLayout([(p.name, p.shape, p.doc) + ((p.axes,) if p.axes is not None else ())]).features()
        return names
