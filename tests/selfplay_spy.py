"""Watch every move a :class:`~mythzoo.training.selfplay.SelfPlayVecEnv` plays (tests only).

``watch_moves(vec, on_move)`` calls ``on_move(slot, mover, rewards, ended)`` after each action any
seat plays in any game: ``mover`` is the agent that moved, ``rewards`` what that step paid every
agent of the game (by agent), ``ended`` whether the step ended the game. ``on_new_game(slot)``
(optional) is called when a slot starts a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def watch_moves(vec: Any, on_move: Callable[[int, str, dict[str, float], bool], None],
                on_new_game: Callable[[int], None] | None = None) -> None:
    play, new_game = vec._play, vec._new_game

    def spy_play(idxs, actions):
        idxs = list(idxs)
        movers = []
        for i in idxs:
            v, j = vec.slot[i]
            table = vec.tables[v]
            movers.append(table.possible_agents[int(table.batch.seat[j])])
        play(idxs, actions)
        for i, mover in zip(idxs, movers):
            v, j = vec.slot[i]
            b = vec.tables[v].batch
            rewards = {a: float(b.rewards[j, k]) for k, a in enumerate(vec.tables[v].possible_agents)}
            on_move(i, mover, rewards, bool(b.terminations[j] or b.truncations[j]))

    def spy_new_game(i):
        if on_new_game is not None:
            on_new_game(i)
        new_game(i)

    vec._play, vec._new_game = spy_play, spy_new_game
