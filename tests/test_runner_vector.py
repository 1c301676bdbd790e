"""The shared game runner plays on ``mythzoo.vector`` too: ``play_games(VectorGames, ...)`` fills the
same records as AEC envs of that game (actions, rewards, returns, scores, ends, digests, illegal
actions), for every game, reward mode and turn cap; and the training's evaluation and warm start,
which play through it, give the same figures and demonstrations either way."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mythzoo import vector
from mythzoo.envs import make
from mythzoo.evaluation import GameRecord, Table, play_games
from mythzoo.policies.base import BasePolicy, RandomPolicy

CONFIGS = [
    ("mythic_baths_v1", {"num_players": 3}),
    ("mythic_baths_v1", {"num_players": 2, "reward_mode": "dense", "max_turns": 30}),
    ("mythsgate_v2", {"num_heroes": 2, "max_rounds": 5}),
    ("mythwind_innkeeper_v5", {"days_per_season": 2, "seasons": 2}),
]


class SometimesIllegal(BasePolicy):
    """Random legal moves, and now and then an illegal one (the AEC env ends the game: -1 for it)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations, action_masks, agent=None):
        out = []
        for m in action_masks:
            legal, illegal = np.flatnonzero(m), np.flatnonzero(m == 0)
            if illegal.size and self.rng.random() < 0.01:
                out.append(int(illegal[0]))
            else:
                out.append(int(legal[self.rng.integers(legal.size)]))
        return out


def _tables(name: str, n_seats: int, games: int) -> list[Table]:
    keys = ["a" if k % 2 == 0 else "b" for k in range(n_seats)]
    return [Table(GameRecord(name, {}, n_seats, 100 + g, keys, [None] * n_seats), keys) for g in range(games)]


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{c[0]}-{c[1]}" for c in CONFIGS])
def test_records_on_batched_games_equal_records_on_aec_envs(config) -> None:
    name, kwargs = config
    n_seats = len(make(name, **kwargs).possible_agents)
    out = []
    for use_vector in (False, True):
        policies = {"a": RandomPolicy(1), "b": SometimesIllegal(2)}
        envs = vector.make(name, 3, autoreset=False, **kwargs) if use_vector else [make(name, **kwargs) for _ in range(3)]
        out.append(play_games(envs, _tables(name, n_seats, 7), policies))
    aec, vec = out
    assert any(r.illegal for r in aec) or any(r.truncated for r in aec) or name.startswith("mythwind")
    for a, b in zip(aec, vec):
        assert dataclasses.asdict(a) == dataclasses.asdict(b)
        assert a.finished and a.actions


def test_batched_games_need_autoreset_off() -> None:
    with pytest.raises(ValueError, match="autoreset=False"):
        play_games(vector.make("mythic_baths", 2, num_players=2), _tables("mythic_baths_v1", 2, 1), {"a": RandomPolicy(0), "b": RandomPolicy(0)})


def test_a_search_policy_decides_from_the_batched_game() -> None:
    from mythzoo.policies.baselines import make_baseline

    probe = make("mythic_baths", num_players=2)
    records = []
    for envs in (vector.make("mythic_baths", 2, autoreset=False, num_players=2, max_turns=12), [make("mythic_baths", num_players=2, max_turns=12) for _ in range(2)]):
        policies = {"a": make_baseline("mcts:3", probe, seed=0), "b": RandomPolicy(0)}
        records.append(play_games(envs, _tables("mythic_baths_v1", 2, 2), policies))
    assert [r.actions for r in records[0]] == [r.actions for r in records[1]]


def test_training_evaluation_and_warm_start_give_the_same_figures_on_batched_games() -> None:
    pytest.importorskip("stable_baselines3", reason="training needs the train extra")
    from mythzoo.policies.mythic_baths_heuristic import MythicBathsHeuristic
    from mythzoo.training.batch_eval import evaluate_vs
    from mythzoo.training.pretrain import collect_demonstrations
    from mythzoo.training.selfplay import game_maker, runner_games

    kwargs = {"num_players": 2, "reward_mode": "dense"}
    maker = game_maker("mythic_baths_v1", kwargs)
    assert hasattr(runner_games(maker, 2), "step_games"), "a GameMaker gives batched games"
    aec = lambda: make("mythic_baths_v1", **kwargs)  # noqa: E731
    probe = aec()
    figures = [evaluate_vs(m, RandomPolicy(3), MythicBathsHeuristic(probe, seed=4), 10, seed=7) for m in (aec, maker)]
    assert figures[0] == figures[1]
    demos = [collect_demonstrations(m, MythicBathsHeuristic(probe, seed=5), ["player_0"], 6, 0.99, seed=2) for m in (aec, maker)]
    for key in ("obs", "masks", "actions", "returns"):
        np.testing.assert_array_equal(demos[0][key], demos[1][key])
    assert len(demos[0]["actions"]) > 100
