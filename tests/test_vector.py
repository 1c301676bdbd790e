"""``mythzoo.vector``: N games in preallocated arrays give, game for game, exactly what N separate AEC
envs with the same seeds give (observations, masks, rewards, ends), for every env and table size;
finished games restart in the same step with the documented seeds; bad actions change nothing."""

from __future__ import annotations

import numpy as np
import pytest

from mythzoo import vector
from mythzoo.envs import IllegalActionError, make

CONFIGS = [
    ("mythic_baths", {"num_players": 2}), ("mythic_baths", {"num_players": 5}),
    ("mythic_baths", {"num_players": 3, "reward_mode": "dense"}),
    ("mythsgate", {"num_heroes": 1}), ("mythsgate", {"num_heroes": 3}), ("mythsgate", {"num_heroes": 5, "max_rounds": 3}),
    ("mythwind_innkeeper", {"days_per_season": 2, "seasons": 2}), ("mythwind_innkeeper", {"max_turns": 3}),
]


def _ids(c):
    return f"{c[0]}-" + "-".join(f"{k}={v}" for k, v in c[1].items())


@pytest.mark.parametrize("config", CONFIGS, ids=[_ids(c) for c in CONFIGS])
def test_batched_games_equal_separate_aec_envs(config) -> None:
    name, kwargs = config
    n, seed, steps = 3, 11, 700
    games = vector.make(name, n, **kwargs)
    batch = games.reset(seed=seed)
    envs = [make(name, **kwargs) for _ in range(n)]
    started = [0] * n
    for i, e in enumerate(envs):
        e.reset(seed=seed + i)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(steps):
        actions = np.zeros(n, dtype=np.int64)
        for i, e in enumerate(envs):
            agent = e.agent_selection
            seat = e.possible_agents.index(agent)
            obs = e.observe(agent)
            role = games.roles[batch.role[i]]
            assert batch.seat[i] == seat
            assert np.array_equal(batch.observations[role][i], obs["observation"])
            assert np.array_equal(batch.action_masks[role][i], obs["action_mask"])
            for other in games.roles:  # the other roles' rows of this game are zero
                if other != role:
                    assert not batch.observations[other][i].any() and not batch.action_masks[other][i].any()
            actions[i] = rng.choice(np.flatnonzero(obs["action_mask"]))
        batch = games.step(actions)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            want = [e.rewards[a] for a in e.possible_agents]
            assert np.allclose(batch.rewards[i], want, atol=1e-6), (i, batch.rewards[i], want)
            # each seat's sum since its last move: the AEC env's cumulative rewards, in the same doubles
            np.testing.assert_array_equal(batch.cumulative_rewards[i], [e.cumulative_reward(a) for a in e.possible_agents])
            agent = e.agent_selection
            assert bool(batch.terminations[i]) == e.terminations[agent]
            assert bool(batch.truncations[i]) == e.truncations[agent]
            if e.terminations[agent] or e.truncations[agent]:
                ended += 1
                started[i] += 1
                e.reset(seed=seed + i + started[i] * n)  # the documented seed of the slot's next game
    assert ended > 0, "the run should cross at least one game end"


def test_no_autoreset_finished_games_wait_with_empty_masks_and_take_minus_one() -> None:
    games = vector.make("mythwind_innkeeper", 2, autoreset=False, max_turns=1)
    batch = games.reset(seed=0)
    rng = np.random.default_rng(1)
    for _ in range(500):
        if (batch.seat < 0).all():
            break
        acts = [int(rng.choice(np.flatnonzero(batch.action_masks["innkeeper"][i]))) if batch.seat[i] >= 0 else -1 for i in range(2)]
        batch = games.step(acts)
    assert (batch.seat < 0).all() and not batch.action_masks["innkeeper"].any()
    final = games.observe(0, 0)  # the final observation stays readable until the slot restarts
    assert final.shape == (games.observation_sizes["innkeeper"],)
    with pytest.raises(IllegalActionError, match="game 0 is over"):
        games.step([0, -1])
    batch = games.reset_done()
    assert (batch.seat == 0).all() and batch.action_masks["innkeeper"].any(axis=1).all()


def test_an_illegal_action_raises_naming_the_game_and_moves_no_game() -> None:
    games = vector.make("mythic_baths", 3, num_players=2)
    batch = games.reset(seed=5)
    before = [games.get_state(i) for i in range(3)]
    obs = batch.observations["player"].copy()
    legal = [int(np.flatnonzero(batch.action_masks["player"][i])[0]) for i in range(3)]
    bad = int(np.flatnonzero(batch.action_masks["player"][2] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"^game 2: player_\d cannot play action"):
        games.step([legal[0], legal[1], bad])
    with pytest.raises(ValueError, match="one per game"):
        games.step([0, 1])
    with pytest.raises(ValueError, match="one per game"):
        games.step(np.array([0.5, 1.0, 2.0]))
    assert [games.get_state(i) for i in range(3)] == before and np.array_equal(batch.observations["player"], obs)


def test_roles_of_different_sizes_are_batched_per_role() -> None:
    games = vector.make("mythsgate", 4, num_heroes=2)
    assert games.roles == ("invoker", "hero")
    batch = games.reset(seed=0)
    assert batch.observations["invoker"].shape == (4, games.observation_sizes["invoker"])
    assert batch.observations["hero"].shape == (4, games.observation_sizes["hero"])
    assert games.observation_sizes["invoker"] != games.observation_sizes["hero"]
    assert list(games.seat_role) == [0, 1, 1]


def test_bad_construction_arguments_are_one_line_errors() -> None:
    with pytest.raises(ValueError, match="num_envs must be a positive int"):
        vector.make("mythic_baths", 0)
    with pytest.raises(KeyError):
        vector.make("no_such_game", 2)
    with pytest.raises(ValueError, match="seed must be"):
        vector.make("mythic_baths", 2).reset(seed=-1)


def test_docs_example_runs_as_written() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "vector.md").read_text()
    blocks = [part.split("```", 1)[0] for part in text.split("```python\n")[1:]]
    assert len(blocks) == 3
    namespace = {}
    exec(compile(blocks[2], "docs/vector.md", "exec"), namespace)  # the shared runner on batched games
    assert len(namespace["records"]) == 20 and all(r.finished for r in namespace["records"])
    namespace: dict = {}
    exec(compile(blocks[0], "docs/vector.md", "exec"), namespace)
    assert namespace["games"].roles == ("invoker", "hero")
    namespace = {}
    exec(compile(blocks[1], "docs/vector.md", "exec"), namespace)  # scheduling games: 0 and 2 moved, 1 was dealt again
    games = namespace["games"]

    def fresh(seed):
        one = vector.make("mythic_baths", 1, num_players=2)
        one.reset(seed=seed)
        return one.get_state(0)

    assert games.get_state(1) == fresh(1234) and games.get_state(3) == fresh(3)  # dealt again; waited
    assert games.get_state(0) != fresh(0) and games.get_state(2) != fresh(2)  # moved


def test_solo_game_is_a_gymnasium_vector_env_with_masks_and_same_step_autoreset() -> None:
    import gymnasium

    n, seed = 3, 4
    venv = vector.make_gymnasium("mythwind_innkeeper", n, days_per_season=1, seasons=1)
    assert isinstance(venv, gymnasium.vector.VectorEnv)
    obs, info = venv.reset(seed=seed)
    assert obs in venv.observation_space and np.array_equal(info["action_mask"], obs["action_mask"])
    envs = [make("mythwind_innkeeper", days_per_season=1, seasons=1) for _ in range(n)]
    for i, e in enumerate(envs):
        e.reset(seed=seed + i)
    started = [1] * n
    rng = np.random.default_rng(0)
    finals = 0
    for _ in range(400):
        masks = venv.action_masks()
        assert masks.dtype == bool and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, term, trunc, info = venv.step(actions)
        for i, e in enumerate(envs):
            e.step(int(actions[i]))
            assert rewards[i] == pytest.approx(e.rewards["innkeeper"])
            if e.terminations["innkeeper"] or e.truncations["innkeeper"]:
                assert term[i] or trunc[i]
                assert info["_final_obs"][i] and np.array_equal(info["final_obs"]["observation"][i], e.observe("innkeeper")["observation"])
                finals += 1
                e.reset(seed=seed + i + started[i] * n)
                started[i] += 1
            assert np.array_equal(obs["observation"][i], e.observe("innkeeper")["observation"])
            assert np.array_equal(obs["action_mask"][i], e.observe("innkeeper")["action_mask"])
    assert finals > 0
    with pytest.raises(ValueError, match="for solo games"):
        vector.make_gymnasium("mythic_baths", 2)


def test_the_bound_benchmark_replays_the_same_games_through_every_loop(tmp_path, capsys) -> None:
    """``benchmarks/bench_vector_bound.py`` runs (one game, one round) and writes one row per configuration
    whose parts add up: the observer and the AEC layer are the differences of the measured loops."""
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import bench_vector_bound

    out = tmp_path / "bound.json"
    assert bench_vector_bound.main(["--games", "1", "--repeats", "1", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == len(bench_vector_bound.CONFIGS)
    for r in rows:
        assert r["rules_us"] > 0 and r["rules_observer_us"] > 0
        assert abs(r["rules_us"] + r["observer_us"] + r["aec_layer_us"] - r["env_us"]) < 1e-6
        assert abs(r["ceiling"] - r["env_us"] / r["rules_observer_us"]) < 1e-9
    assert "ceiling" in capsys.readouterr().out


def test_step_games_moves_only_the_named_games_and_start_game_deals_its_seed() -> None:
    games = vector.make("mythic_baths", 3, autoreset=False, num_players=2, reward_mode="dense")
    batch = games.reset(seed=5)
    envs = [make("mythic_baths", num_players=2, reward_mode="dense") for _ in range(3)]
    for i, e in enumerate(envs):
        e.reset(seed=5 + i)
    rng = np.random.default_rng(2)
    for _ in range(60):
        live = [i for i in range(3) if batch.seat[i] >= 0]
        chosen = [i for i in live if rng.random() < 0.5]
        before = [games.get_state(i) for i in range(3)]
        acts = [int(rng.choice(np.flatnonzero(batch.action_masks["player"][i]))) for i in chosen]
        batch = games.step_games(chosen, acts)
        for i, a in zip(chosen, acts):
            envs[i].step(a)
            e = envs[i]
            np.testing.assert_array_equal(batch.cumulative_rewards[i], [e.cumulative_reward(x) for x in e.possible_agents])
        for i in set(range(3)) - set(chosen):
            assert games.get_state(i) == before[i] and not batch.rewards[i].any()  # the others waited
    with pytest.raises(ValueError, match="given twice"):
        games.step_games([0, 0], [1, 1])
    games.start_game(1, 77)
    fresh = make("mythic_baths", num_players=2, reward_mode="dense")
    fresh.reset(seed=77)
    np.testing.assert_array_equal(games.batch.observations["player"][1], fresh.observe(fresh.agent_selection)["observation"])
    assert not games.batch.cumulative_rewards[1].any()
    env = games.game_env(1)  # the live game as an AEC env, for search policies
    assert env.state_ is games.states[1] and env.agent_selection == fresh.agent_selection
    with pytest.raises(ValueError, match="game index"):
        games.start_game(3, 0)


@pytest.mark.parametrize("name,kwargs", [("mythic_baths", {"num_players": 3}), ("mythsgate", {"num_heroes": 2}), ("mythwind_innkeeper", {})])
def test_observers_encode_into_contiguous_rows_and_any_other_float_vector(name, kwargs) -> None:
    env = make(name, **kwargs)
    env.reset(seed=4)
    u = env.unwrapped
    seat = u.possible_agents.index(env.agent_selection)
    want = u.observer.observation(u.state_, seat)
    rows = np.full((3, want.size), 7.0, dtype=np.float32)
    u.observer.encode(u.state_, seat, rows[1])  # a contiguous row: the bytes are copied in
    strided = np.full(2 * want.size, 7.0, dtype=np.float32)[::2]
    u.observer.encode(u.state_, seat, strided)  # not contiguous: numpy converts
    doubles = np.zeros(want.size, dtype=np.float64)
    u.observer.encode(u.state_, seat, doubles)  # another dtype: numpy converts
    assert np.array_equal(rows[1], want) and np.array_equal(strided, want) and np.array_equal(doubles, want)
    assert (rows[0] == 7).all() and (rows[2] == 7).all(), "only the given row is written"
    for wrong in (np.zeros(want.size + 1, dtype=np.float32), np.zeros(want.size // 2, dtype=np.float64)):  # the latter has as many bytes
        with pytest.raises(ValueError):
            u.observer.encode(u.state_, seat, wrong)
