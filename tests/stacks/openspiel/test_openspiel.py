"""mythzoo's games inside OpenSpiel (``mythzoo.adapters.openspiel``), run in the OpenSpiel venv.

OpenSpiel's own checks (``random_sim_test``) on every game and size, its ISMCTS and MCTS bots
playing whole games, and the adapter against the env it wraps: the same seed and actions give the
same legal actions, observations and returns; resampling keeps what the player sees.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python import observation as os_observation
from open_spiel.python.algorithms import ismcts, mcts

import mythzoo.adapters.openspiel as adapter
from mythzoo.envs import GAMES


def _size_param(spec) -> str | None:
    if spec.size_argument is None:
        return None
    return "players" if spec.kind == "symmetric" else spec.size_argument


def _every_size() -> list[tuple[str, str]]:
    """(id, game string) for every game at every size, e.g. ``mythzoo_mythic_baths(players=3)``."""
    out = []
    for spec in GAMES:
        name = adapter.game_name(spec)
        param = _size_param(spec)
        if param is None:
            out.append((name, name))
            continue
        for size, seats in zip(spec.sizes, spec.seat_counts()):
            value = seats if param == "players" else size
            out.append((f"{name}-{value}", f"{name}({param}={value})"))
    return out


SIZES = _every_size()
NAMES = [adapter.game_name(spec) for spec in GAMES]
# Small but whole games for the search bots: short turn caps, and a short Innkeeper campaign that
# still ends by its rules (one season of two days).
SHORT = {
    "mythzoo_mythic_baths": "mythzoo_mythic_baths(max_turns=6)",
    "mythzoo_mythsgate": "mythzoo_mythsgate(max_rounds=2)",
    "mythzoo_mythwind_innkeeper": "mythzoo_mythwind_innkeeper(days_per_season=2,seasons=1)",
}


def _spec_of(game) -> object:
    return game._shared.spec


def _random_game(game, rng: np.random.Generator, steps: int | None = None):
    """A state after ``steps`` random decisions (or a whole game), and the actions taken."""
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal() and (steps is None or len(actions) < steps):
        a = int(rng.choice(state.legal_actions()))
        state.apply_action(a)
        actions.append(a)
    return state, actions


# ---------------------------------------------------------------------------------- the game
@pytest.mark.parametrize("game_string", [s for _, s in SIZES], ids=[i for i, _ in SIZES])
def test_random_sim_test_passes(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    # OpenSpiel's own checks: clone equality, legal-action masks and order, unique action strings,
    # observation sizes and finiteness for every player at every state, returns within the
    # utility bounds summing as the utility class says, and the length within max_game_length.
    # (serialize=True needs Game.GetRNGState, which Python games cannot provide; serialization is
    # tested below.)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("spec", GAMES, ids=[s.name for s in GAMES])
def test_game_facts_come_from_the_spec(spec) -> None:
    game = pyspiel.load_game(adapter.game_name(spec))
    gtype, env = game.get_type(), spec.make_raw()
    assert gtype.utility == {"zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
                             "general_sum": pyspiel.GameType.Utility.GENERAL_SUM}[spec.utility]
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.max_game_length() == spec.decision_bound({})
    assert game.num_distinct_actions() == max(env.action_space(a).n for a in env.possible_agents)
    assert game.max_chance_outcomes() == 0
    sides = {env.agent_team(a) for a in env.possible_agents}
    assert game.num_players() == len(sides)
    # the versioned name is the same game
    assert pyspiel.load_game(adapter.game_name(spec, versioned=True)).max_game_length() == game.max_game_length()


def test_player_counts_and_bounds_per_size() -> None:
    for spec in GAMES:
        param = _size_param(spec)
        for size, seats in zip(spec.sizes or [None], spec.seat_counts()):
            name = adapter.game_name(spec)
            game = pyspiel.load_game(name if param is None else f"{name}({param}={seats if param == 'players' else size})")
            kw = spec.size_kwargs(seats, None)
            assert game.max_game_length() == spec.decision_bound(kw)
            expected = {"symmetric": seats, "roles": 2, "solo": 1}[spec.kind]
            assert game.num_players() == expected, (name, size)
    # a longer turn cap raises the bound
    short = pyspiel.load_game("mythzoo_mythic_baths(max_turns=10)").max_game_length()
    assert short < pyspiel.load_game("mythzoo_mythic_baths").max_game_length()


def test_bad_parameters_are_one_line_errors() -> None:
    with pytest.raises(ValueError, match="seats 2-5 players; got 7"):
        pyspiel.load_game("mythzoo_mythic_baths(players=7)")
    with pytest.raises(ValueError, match="num_heroes must be one of"):
        pyspiel.load_game("mythzoo_mythsgate(num_heroes=6)")
    with pytest.raises(ValueError, match="seed must be >= 0"):
        pyspiel.load_game("mythzoo_mythwind_innkeeper(seed=-1)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'rounds'"):
        pyspiel.load_game("mythzoo_mythsgate(rounds=3)")


def test_illegal_action_raises_and_changes_nothing() -> None:
    state = pyspiel.load_game("mythzoo_mythic_baths").new_initial_state()
    before = str(state)
    illegal = next(a for a in range(132) if a not in state.legal_actions())
    with pytest.raises(Exception, match="is not legal"):
        state.apply_action(illegal)
    assert str(state) == before


# ---------------------------------------------------------------------------------- against the env
@pytest.mark.parametrize("game_string", [s for _, s in SIZES] + ["mythzoo_mythic_baths(max_turns=5,seed=3)"],
                         ids=[i for i, _ in SIZES] + ["truncated"])
def test_same_seed_and_actions_as_the_env(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    spec = _spec_of(game)
    rng = np.random.default_rng(11)
    for _ in range(2):
        state = game.new_initial_state()
        env = spec.make_raw(**game.env_kwargs())
        env.reset(seed=state.env_seed())
        seat_of = {a: i for i, a in enumerate(env.possible_agents)}
        player_of = {a: p for p in range(game.num_players()) for a in game.agents_of(p)}
        while not state.is_terminal():
            agent = env.agent_selection
            player = state.current_player()
            assert player_of[agent] == player
            assert state.legal_actions() == env.legal_actions(agent)
            obs = env.observe(agent)["observation"]
            tensor = np.asarray(state.observation_tensor(player), np.float32)
            np.testing.assert_array_equal(tensor[: obs.shape[0]], obs)
            assert not tensor[obs.shape[0]: game._shared.obs_size].any()
            a = int(rng.choice(state.legal_actions()))
            assert state.action_to_string(player, a).endswith(env.action_label(a, agent))
            state.apply_action(a)
            env.step(a)
        assert all(env.terminations.values()) or all(env.truncations.values())
        assert state.is_truncated() == all(env.truncations.values())
        for p in range(game.num_players()):
            for agent in game.agents_of(p):
                assert state.returns()[p] == pytest.approx(env.rewards[agent]), (p, agent)
        assert len(state.history()) <= game.max_game_length()
        assert seat_of  # every agent was mapped


@pytest.mark.parametrize("name", NAMES)
def test_python_fast_paths_agree_with_openspiel(name: str) -> None:
    # state.legal_actions / observation_tensor / observation_string are Python overrides; the
    # C++ methods of pyspiel.State (what C++ algorithms and random_sim_test call) must agree.
    game = pyspiel.load_game(f"{name}(seed=3)" if name != "mythzoo_mythsgate" else "mythzoo_mythsgate(num_heroes=3,seed=3)")
    rng = np.random.default_rng(9)
    state = game.new_initial_state()
    while True:
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for p in range(game.num_players()):
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
            assert state.observation_tensor(p) == pyspiel.State.observation_tensor(state, p)
            assert state.observation_string(p) == pyspiel.State.observation_string(state, p)
        if state.is_terminal():
            break
        assert state.observation_tensor() == pyspiel.State.observation_tensor(state)
        state.apply_action(int(rng.choice(state.legal_actions())))
    with pytest.raises(ValueError, match="no observation for player"):
        state.observation_tensor()  # nobody is to move
    with pytest.raises(ValueError, match="no observation for player 5"):
        state.observation_tensor(5)


def test_a_whole_innkeeper_campaign_pays_its_worth_less_the_starting_coins() -> None:
    game = pyspiel.load_game("mythzoo_mythwind_innkeeper(days_per_season=2,seasons=2,seed=5)")
    state, _ = _random_game(game, np.random.default_rng(0))
    assert not state.is_truncated()
    env = game._shared.env
    rules = env.unwrapped.rules
    worth = rules.worth(rules.from_json(state.env_state()))  # the score: coins plus the inn's sale value
    assert state.returns() == [pytest.approx(worth - env.data.starting_coins)]
    assert game.min_utility() <= state.returns()[0] <= game.max_utility()


def test_seeds_follow_one_another_and_clones_or_sizing_take_none() -> None:
    game = pyspiel.load_game("mythzoo_mythic_baths(seed=40)")
    first = game.new_initial_state()
    fresh_obs = first.observation_tensor(0)  # before anything else: the game it will start
    assert first.env_seed() == 40
    np.testing.assert_array_equal(first.observation_tensor(0), fresh_obs)
    for _ in range(3):
        first.clone()
        game.new_initial_state().observation_tensor(0)  # a fresh state only looked at
    assert game.new_initial_state().env_seed() == 41
    assert game.new_initial_state().env_seed() == 42
    # a clone of a fresh state plays the fresh state's game
    fresh = game.new_initial_state()
    twin = fresh.clone()
    assert twin.env_seed() == fresh.env_seed() == 43
    assert str(twin) == str(fresh)
    # another loaded game object counts on its own
    assert pyspiel.load_game("mythzoo_mythic_baths(seed=40)").new_initial_state().env_seed() == 40


def test_clone_replays_the_same_draws_and_is_independent() -> None:
    game = pyspiel.load_game("mythzoo_mythic_baths(players=3)")
    state, _ = _random_game(game, np.random.default_rng(2), steps=30)
    twin = state.clone()
    rng = np.random.default_rng(3)
    for _ in range(40):
        if state.is_terminal():
            break
        a = int(rng.choice(state.legal_actions()))
        state.apply_action(a)
        twin.apply_action(a)
        assert str(state) == str(twin)
    other = state.clone()
    if not other.is_terminal():
        other.apply_action(other.legal_actions()[0])
        assert str(other) != str(state)


@pytest.mark.parametrize("name", NAMES)
def test_serialize_round_trip_through_the_env_json(name: str) -> None:
    game = pyspiel.load_game(name)
    state, _ = _random_game(game, np.random.default_rng(4), steps=12)
    text = state.serialize()
    back = game.deserialize_state(text)
    assert str(back) == str(state)
    assert back.history() == state.history()
    rng = np.random.default_rng(5)
    for _ in range(10):
        if state.is_terminal():
            break
        a = int(rng.choice(state.legal_actions()))
        state.apply_action(a)
        back.apply_action(a)
    assert str(back) == str(state)
    # the state travels as the env's JSON state (validated on the way back), not as live objects
    tampered = text.replace(text.split("__dict__=")[1], "")
    with pytest.raises(Exception):
        game.deserialize_state(tampered + "AAAA")


# ---------------------------------------------------------------------------------- information
@pytest.mark.parametrize("name", NAMES)
def test_resample_keeps_what_the_player_sees_and_redraws_the_rest(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(6)
    changed = {p: 0 for p in range(game.num_players())}
    checked = 0
    for steps in (0, 4, 15, 40):
        state, _ = _random_game(game, rng, steps=steps)
        if state.is_terminal():
            continue
        for p in range(game.num_players()):
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            for _ in range(3):
                other = state.resample_from_infostate(p, sampler)
                assert other.observation_tensor(p) == state.observation_tensor(p)
                assert other.observation_string(p) == state.observation_string(p)
                assert other.current_player() == state.current_player()
                if p == state.current_player():
                    assert other.legal_actions() == state.legal_actions()
                game_json, other_json = state.env_state(), other.env_state()
                assert game_json["rng"] != other_json["rng"]  # future draws are hidden from everyone
                game_json.pop("rng"), other_json.pop("rng")
                changed[p] += game_json != other_json
                checked += 1
                if not other.is_terminal():  # the redrawn game plays on
                    other.apply_action(other.legal_actions()[0])
    assert checked
    if _spec_of(game).kind != "solo":
        # cards: every player of a table game has hands or deck orders hidden from it
        assert all(n > 0 for n in changed.values()), changed
    else:
        # the Innkeeper's piles are public (kept sorted): only the future draws are hidden
        assert changed == {0: 0}


def test_information_states_are_not_claimed() -> None:
    game = pyspiel.load_game("mythzoo_mythsgate")
    assert not game.get_type().provides_information_state_string
    assert not game.get_type().provides_information_state_tensor
    with pytest.raises(ValueError, match="not perfect-recall information states"):
        game.new_initial_state().information_state_string(0)


# ---------------------------------------------------------------------------------- Mythsgate
@pytest.mark.parametrize("heroes", [1, 2, 3, 4, 5])
def test_mythsgate_is_the_invoker_against_the_league(heroes: int) -> None:
    game = pyspiel.load_game(f"mythzoo_mythsgate(num_heroes={heroes})")
    assert game.num_players() == 2
    assert game.agents_of(0) == ["invoker"]
    assert game.agents_of(1) == [f"hero_{h}" for h in range(heroes)]
    env = _spec_of(game).make_raw(num_heroes=heroes)
    inv, hero = env.observation_layout("invoker").size, env.observation_layout("hero_0").size
    # one shape for every number of heroes: the larger role's observation and a 6-seat view one-hot
    assert game.observation_tensor_shape() == [max(inv, hero) + 6]
    observer = os_observation.make_observation(game)
    assert list(observer.dict) == ["observation", "view"]
    rng = np.random.default_rng(heroes)
    seen_league_turns = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            mover = env.possible_agents.index(state.agent_to_move())
            view = np.asarray(state.observation_tensor(1), np.float32)[-6:]
            inv_view = np.asarray(state.observation_tensor(0), np.float32)[-6:]
            assert inv_view.tolist() == [1, 0, 0, 0, 0, 0]
            # the League sees through the hero to move, else through hero_0
            assert int(np.argmax(view)) == (mover if mover >= 1 else 1) and view.sum() == 1
            if mover >= 1:
                seen_league_turns += 1
                assert state.current_player() == 1
                assert state.action_to_string(1, state.legal_actions()[0]).startswith(f"hero_{mover - 1}: ")
            else:
                assert state.current_player() == 0
            state.apply_action(int(rng.choice(state.legal_actions())))
        assert sum(state.returns()) == 0
    assert seen_league_turns > 0


# ---------------------------------------------------------------------------------- bots
def _play(game, bots, rng: np.random.Generator):
    state = game.new_initial_state()
    while not state.is_terminal():
        bot = bots[state.current_player()]
        action = bot.step(state) if bot is not None else int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", NAMES)
def test_ismcts_plays_whole_games(name: str) -> None:
    game = pyspiel.load_game(SHORT[name])
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=np.random.RandomState(p),
                             use_observation_string=True) for p in range(game.num_players())]
    for seed in range(2):
        state = _play(game, bots, np.random.default_rng(seed))
        returns = state.returns()
        assert len(returns) == game.num_players()
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        assert len(state.history()) <= game.max_game_length()


@pytest.mark.parametrize("name", NAMES)
def test_mcts_plays_whole_games(name: str) -> None:
    game = pyspiel.load_game(SHORT[name])
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator, random_state=np.random.RandomState(p))
            for p in range(game.num_players())]
    for seed in range(2):
        state = _play(game, bots, np.random.default_rng(seed))
        assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())


def test_ismcts_searches_worlds_the_player_cannot_tell_apart() -> None:
    # ISMCTS asserts that every sampled world has the root's observation string; a redraw that
    # leaked or lost what the player sees would fail here at the first decision with a choice.
    game = pyspiel.load_game("mythzoo_mythic_baths(players=3)")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(2),
                           use_observation_string=True, max_world_samples=5)
    state, _ = _random_game(game, np.random.default_rng(8), steps=10)
    policy = bot.get_policy(state)
    assert {a for a, _ in policy} == set(state.legal_actions())
    assert sum(p for _, p in policy) == pytest.approx(1.0)


def test_the_observation_string_of_the_player_to_move_fixes_its_legal_actions() -> None:
    """Two Mythsgate states that ISMCTS reached (seed 1): a different Cyclops resolves its ability, so
    the invoker's legal actions differ. OpenSpiel's ISMCTS keys its nodes on the observation string
    and needs one action set per key (it raised KeyError here with mythsgate_v1, whose tensors were
    equal: mythsgate_v2 observes which minion it is, and the string digests the legal actions too)."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parent / "data" / "mythsgate_two_cyclopes.json").read_text())
    game = pyspiel.load_game("mythzoo_mythsgate(num_heroes=2)")
    states = []
    for key in ("a", "b"):
        state = game.new_initial_state()
        state._c = adapter._live_from_json(game._shared, data[key], 1, [0.0, 0.0], False, False)
        states.append(state)
    a, b = states
    assert a.current_player() == b.current_player() == 0  # the invoker
    assert a.observation_tensor(0) != b.observation_tensor(0)
    assert a.legal_actions() != b.legal_actions()
    assert a.observation_string(0) != b.observation_string(0)
    assert a.observation_string(0) == a.clone().observation_string(0)


@pytest.mark.parametrize("name", ["mythzoo_mythsgate(num_heroes=2)", "mythzoo_mythic_baths(players=2)"])
def test_equal_observation_strings_of_the_player_to_move_have_equal_legal_actions(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(3)
    legal_of: dict[str, list[int]] = {}
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            p = state.current_player()
            key, legal = state.observation_string(p), state.legal_actions()
            assert legal_of.setdefault(key, legal) == legal
            state.apply_action(int(rng.choice(legal)))


def test_the_head_to_head_benchmark_plays_both_searches_and_reports(tmp_path) -> None:
    """benchmarks/bench_search_openspiel.py at a tiny budget: both bots decide, every game counts."""
    import json
    from pathlib import Path

    script = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_search_openspiel.py"
    out = tmp_path / "h2h.json"
    done = subprocess.run([sys.executable, str(script), "--budget", "2", "--mythzoo-budget", "3", "--games", "2", "--jobs", "1",
                           "--only", "mythsgate", "--json", str(out)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "| mythzoo_mythsgate(num_heroes=2) | 2 |" in done.stdout
    (row,) = json.loads(out.read_text())["rows"]
    assert row["games"] == 2 and all(n > 0 for n in row["decisions"].values())
    assert row["wins"]["mythzoo"] + row["wins"]["openspiel"] == 2
    assert json.loads(out.read_text())["mythzoo_budget"] == 3


# ---------------------------------------------------------------------------------- import
def test_missing_openspiel_names_the_extra() -> None:
    code = "import sys; sys.modules['pyspiel'] = None\nimport mythzoo.adapters.openspiel"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode != 0
    assert out.stderr.strip().splitlines()[-1] == \
        "ImportError: mythzoo.adapters.openspiel needs OpenSpiel: pip install mythzoo[openspiel]"
