"""Fast evaluation for training: many games in lockstep, one ``act_batch`` per policy per round
(the shared runner, :func:`mythzoo.evaluation.play_games`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mythzoo.evaluation import GameRecord, Table, play_games
from mythzoo.policies.base import BasePolicy
from mythzoo.training.games import runner_games


def evaluate_vs(
    make_env: Callable[[], Any],
    learner: BasePolicy,
    opponent: BasePolicy,
    games: int,
    seed: int = 0,
    learner_agents: Sequence[str] | None = None,
    batch: int = 64,
) -> dict[str, Any]:
    """The learner in one seat (and its teammates' seats, in a team game), ``opponent`` in every
    other; the learner's seat rotates through ``learner_agents`` (every seat by default) equally.
    Game ``g`` is dealt ``seed + g``. Returns win rate (a win shared by k sides counts 1/k; sides
    are the env's teams, every agent on its own in a free-for-all; an all-way tie is no win: see
    :mod:`mythzoo.evaluation.outcome`), mean reward (the learner's return over the whole game),
    the number of games, and every game's return in game order (``returns``)."""
    envs = runner_games(make_env, min(batch, games))  # batched games (mythzoo.vector) from a GameMaker
    u = (envs.env if hasattr(envs, "step_games") else envs[0]).unwrapped
    agents = list(u.possible_agents)
    seats = list(learner_agents) if learner_agents else agents
    team = [u.agent_team(a) for a in agents]
    learner_seat = [agents.index(seats[g % len(seats)]) for g in range(games)]
    tables = []
    for g, me in enumerate(learner_seat):
        keys = ["learner" if team[s] == team[me] else "opponent" for s in range(len(agents))]
        tables.append(Table(GameRecord(u.env_name, {}, len(agents), seed + g, keys, [None] * len(agents), digests=None), keys))
    wins = total_reward = 0.0
    played = 0

    def tally(g: int, record: GameRecord) -> None:  # in the order the games end, as the sums always were
        nonlocal wins, total_reward, played
        me = learner_seat[g]
        total_reward += record.returns[me]
        wins += record.outcome(team).seat_shares()[me]
        played += 1

    records = play_games(envs, tables, {"learner": learner, "opponent": opponent}, on_end=tally)
    return {"win_rate": wins / max(played, 1), "mean_reward": total_reward / max(played, 1), "games": played,
            "returns": [r.returns[learner_seat[g]] for g, r in enumerate(records)]}
