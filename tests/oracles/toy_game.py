"""Reference observation of the toy game, written from its rules text, not from its observer.

Reads only ``env.get_state()`` and the card set's public numbers; builds the vector entry by entry
in the documented order (game, hand, discard, per relative seat).
"""

from __future__ import annotations

from typing import Any

import numpy as np

SEATS = 4


def reference_observation(env: Any, agent: str) -> np.ndarray:
    u = env.unwrapped
    g = u.get_state()["game"]
    cards = u.rules.cards
    n = len(u.possible_agents)
    seat = u.possible_agents.index(agent)
    all_cards, all_points = sum(cards.counts), sum(v * c for v, c in zip(cards.values, cards.counts))
    vec: list[float] = [n / SEATS, g["turn"] / (cards.rounds * n), len(g["deck"]) / all_cards]
    vec += [x / cards.max_hand for x in g["hands"][seat]]
    vec += [d / c for d, c in zip(g["discard"], cards.counts)]
    for rel in range(SEATS):
        if rel >= n:
            vec += [0.0, 0.0, 0.0, 0.0]
            continue
        p = (seat + rel) % n
        to_move = 1.0 if (g["current"] == p and not g["over"]) else 0.0
        vec += [1.0, to_move, sum(g["hands"][p]) / cards.max_hand, g["scores"][p] / all_points]
    return np.array(vec, dtype=np.float32)
