"""Reference observation of the toy hide-and-seek game (``tests/toy_asymmetric.py``), from ``get_state()``."""

from __future__ import annotations

from typing import Any

import numpy as np


def reference_observation(env: Any, agent: str) -> np.ndarray:
    g = env.unwrapped.get_state()["game"]
    hidden = 1.0 if g["box"] >= 0 else 0.0
    if agent == "hider":
        return np.array([1.0, hidden], dtype=np.float32)
    return np.array([float(g["hint"] == b) for b in range(3)] + [hidden], dtype=np.float32)
