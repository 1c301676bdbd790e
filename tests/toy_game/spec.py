"""The toy game, declared once (see :class:`mythzoo.envs.core.spec.GameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mythzoo.envs.core.spec import GameSpec


def max_decisions(kwargs: Mapping[str, Any]) -> int:
    """One decision per turn: ``rounds`` turns per player, fewer under a turn cap."""
    from toy_game.cards import load_cards

    turns = load_cards(kwargs.get("data")).rounds * kwargs["num_players"]
    cap = kwargs.get("max_turns")
    return min(turns, cap) if cap is not None else turns


SPEC = GameSpec(
    name="toy_game",
    version=0,
    title="Toy game: play, draw or pass, a 2-4 player card game used by the tests",
    module="toy_game.env",
    kind="symmetric",
    roles=("player",),
    utility="zero_sum",  # both reward modes are zero-sum
    reward_modes=("zero_sum", "dense"),
    heuristic="toy_game.heuristic:ToyHeuristic",
    size_argument="num_players",
    sizes=(2, 3, 4),
    default_size=2,
    data_files=("data/cards.json",),
    max_decisions=max_decisions,
)
