"""The toy game's observation: one float32 vector per seat, declared once as an ``ObservationLayout``.

Seats are relative (0 = the observer, 1 = the next player, ...) and sized for 4 players at every
player count. The other hands appear only as sizes and the deck only as its size.
"""

from __future__ import annotations

import numpy as np

from mythzoo.envs.core.observer import ObservationLayout
from toy_game.cards import MAX_PLAYERS
from toy_game.rules import State, ToyRules

GAME_FIELDS = ("players", "turn", "deck_size")
SEAT_FIELDS = ("present", "to_move", "hand_size", "score")


def build_layout(rules: ToyRules) -> ObservationLayout:
    """Every size, feature name and doc of the observation derives from this declaration."""
    names = list(rules.cards.names)
    return ObservationLayout(
        [
            ("game", (len(GAME_FIELDS),), "Players/4, turns played/total turns, cards in the deck/all cards.", [GAME_FIELDS]),
            ("hand", (rules.K,), "Own hand: cards of each kind / max hand.", [names]),
            ("discard", (rules.K,), "Cards of each kind played / copies of the kind.", [names]),
            ("seat", (MAX_PLAYERS, len(SEAT_FIELDS)), "Per relative seat (0 = you): present, to move, hand size / max hand, score / all points.",
             [[f"seat+{i}" for i in range(MAX_PLAYERS)], SEAT_FIELDS]),
        ]
    )


class ToyObserver:
    """Writes a seat's view of a state into the layout's named views."""

    def __init__(self, rules: ToyRules):
        self.rules = rules
        self._layout = build_layout(rules)

    def layout(self, seat: int) -> ObservationLayout:
        """Every seat shares one layout."""
        return self._layout

    def encode(self, s: State, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s view of ``s`` into ``out`` (every entry is overwritten)."""
        R, c = self.rules, self.rules.cards
        out[:] = 0.0
        v = self._layout.views(out)
        v["game"][:] = (R.n / MAX_PLAYERS, s.turn / R.total_turns, len(s.deck) / sum(c.counts))
        v["hand"][:] = [x / c.max_hand for x in s.hands[seat]]
        v["discard"][:] = [d / k for d, k in zip(s.discard, c.counts)]
        for rel in range(R.n):
            p = (seat + rel) % R.n
            v["seat"][rel] = (1.0, float(p == s.current and not s.over), sum(s.hands[p]) / c.max_hand, s.scores[p] / c.total_value)

    def observation(self, s: State, seat: int) -> np.ndarray:
        """``seat``'s view of ``s`` as a new float32 vector."""
        out = np.empty(self._layout.size, dtype=np.float32)
        self.encode(s, seat, out)
        return out
