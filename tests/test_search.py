"""The search baseline (``mcts:N``, SO-ISMCTS over ``resample_hidden``): names, legal complete games
in every game and role, seeding, information hiding, and every place a policy name goes."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import numpy as np
import pytest

from mythzoo.envs import make
from mythzoo.evaluation.records import GameRecord
from mythzoo.evaluation.runner import play_one
from mythzoo.policies.baselines import make_baseline
from mythzoo.policies.refs import is_baseline, is_registry_ref, load_policy
from mythzoo.policies.search import SearchPolicy, SearchRefError, parse_search_ref

# (env name, kwargs): every game, Mythic Baths beyond two players, Mythsgate with two heroes
GAMES = [("mythic_baths", {"num_players": 2}), ("mythic_baths", {"num_players": 3}), ("mythsgate", {"num_heroes": 2}), ("innkeeper", {})]


def _midgame(name: str, kw: dict, seed: int, moves: int):
    """An env ``moves`` random decisions into game ``seed`` (fewer if it ends), with a live agent to move."""
    env = make(name, **kw)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = env.legal_actions()
        if not legal:
            break
        env.step(int(rng.choice(legal)))
        if not env.legal_actions():  # over: step back one game
            env.reset(seed=seed)
            break
    return env


def _record(env, n: int) -> GameRecord:
    return GameRecord(env.unwrapped.env_name, {}, n, 5, ["x"] * n, [None] * n, digests=None)


# --------------------------------------------------------------------------- names
@pytest.mark.parametrize("ref, want", [("mcts:5", (5, "random")), ("ismcts:7", (7, "random")), ("mcts:3:heuristic", (3, "heuristic")),
                                       ("mcts:2:random", (2, "random")), (" mcts:9 ", (9, "random"))])
def test_search_names_parse(ref: str, want: tuple[int, str]) -> None:
    assert parse_search_ref(ref) == want
    assert is_baseline(ref) and not is_registry_ref(ref)


@pytest.mark.parametrize("ref, says", [("mcts:abc", "'abc' is not an integer"), ("mcts:0", "'0' is not an integer from 1"), ("mcts:5:nope", "unknown rollout policy 'nope'"),
                                       ("mcts", "expected mcts:N"), ("mcts:", "is not an integer"), ("mcts:-3", "is not an integer"), ("mcts:1:2:3", "expected mcts:N")])
def test_bad_search_names_are_one_line_errors_everywhere(ref: str, says: str) -> None:
    from mythzoo.evaluation.loading import load_policy as eval_load

    env = make("mythic_baths")
    for load in (lambda: make_baseline(ref, env), lambda: load_policy(ref, env), lambda: eval_load(ref, env)):
        with pytest.raises(SearchRefError, match=says) as e:
            load()
        assert "\n" not in str(e.value)


def test_search_names_cannot_name_checkpoints() -> None:
    from mythzoo.policies.registry.refs import check_name, parse_ref

    assert parse_ref("mcts:5").kind == "baseline" and parse_ref("ismcts:5:heuristic").kind == "baseline"
    for name in ("mcts", "ismcts"):
        with pytest.raises(ValueError, match="baseline"):
            check_name(name)


def test_every_loader_gives_the_search() -> None:
    from mythzoo.evaluation.loading import load_policy as eval_load

    env = make("mythsgate")
    for p in (make_baseline("mcts:4", env, 0), load_policy("ismcts:4", env, seed=0), eval_load("mcts:4:heuristic", env, None, 0)):
        assert isinstance(p, SearchPolicy) and p.budget == 4
    assert eval_load("mcts:4:heuristic", env, None, 0).name == "mcts:4:heuristic"


# --------------------------------------------------------------------------- play
@pytest.mark.parametrize("name, kw", GAMES)
def test_search_plays_legal_complete_games_in_every_seat(name: str, kw: dict) -> None:
    env = make(name, **kw)
    n = len(env.possible_agents)
    # the search in every seat (each role of Mythsgate), random rollouts, small budget
    policies = [make_baseline("mcts:3", env, seed=i) for i in range(n)]
    rec = play_one(env, policies, _record(env, n))
    assert rec.finished and rec.illegal is None and (rec.terminated or rec.truncated)  # Mythsgate has a round cap
    assert len(rec.final_rewards) == n


@pytest.mark.parametrize("name, kw", GAMES)
def test_heuristic_rollouts_choose_legal_actions(name: str, kw: dict) -> None:
    env = _midgame(name, kw, 3, 20)
    agent = env.agent_selection
    policy = make_baseline("mcts:2:heuristic", env, seed=0)
    a = policy.act_in_env(env, agent)
    assert a in env.legal_actions()


def test_same_seed_same_choices_and_reseed_restarts() -> None:
    env = make("mythsgate", num_heroes=1)

    def game(seed: int) -> list[int]:
        policies = [make_baseline("mcts:3", env, seed=seed + i) for i in range(2)]
        return play_one(env, policies, _record(env, 2)).actions

    first = game(11)
    assert game(11) == first
    assert game(12) != first  # another seed searches other worlds
    p = make_baseline("mcts:6", env, seed=4)
    env2 = _midgame("mythic_baths", {"num_players": 3}, 9, 25)
    agent = env2.agent_selection
    a = [p.act_in_env(env2, agent) for _ in range(3)]
    p.reseed(4)
    assert [p.act_in_env(env2, agent) for _ in range(3)] == a


# --------------------------------------------------------------------------- what it may know
@pytest.mark.parametrize("name, kw", GAMES + [("mythsgate", {"num_heroes": 1})])
def test_choices_depend_only_on_what_the_seat_may_know(name: str, kw: dict) -> None:
    """Two states that differ only in what the mover cannot see (another world drawn by
    ``resample_hidden`` for it) get the same choices from searches seeded alike."""
    seen_hidden_difference = 0
    seen_roles = set()
    for seed, moves in itertools.product(range(3), (6, 30)):
        env = _midgame(name, kw, seed, moves)
        rng = np.random.default_rng(seed)
        want = ("invoker", "hero")[seed % 2] if name == "mythsgate" else None
        while want is not None and env.unwrapped.agent_role(env.agent_selection) != want:  # both roles searched
            env.step(int(rng.choice(env.legal_actions())))
        agent = env.agent_selection
        other = make(name, **kw)
        other.reset(seed=0)
        other.set_state(env.resample_hidden(agent, seed=1000 + seed))
        u, v = env.unwrapped, other.unwrapped
        assert u.observe(agent)["observation"].tolist() == v.observe(agent)["observation"].tolist()
        seen_hidden_difference += u.rules.to_json(u.state_) != v.rules.to_json(v.state_)
        seen_roles.add(u.agent_role(agent))
        for budget in (5, 20):
            a, b = SearchPolicy(env, 7, budget=budget), SearchPolicy(other, 7, budget=budget)
            assert [a.act_in_env(env, agent) for _ in range(2)] == [b.act_in_env(other, agent) for _ in range(2)], (seed, moves, budget)
    assert seen_hidden_difference >= 4  # the pairs really differed in hidden information (the RNG at least)
    if name == "mythsgate":
        assert seen_roles == {"invoker", "hero"}, seen_roles


def test_act_needs_its_own_env() -> None:
    env = _midgame("mythic_baths", {}, 2, 10)
    p = make_baseline("mcts:3", env, seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][p.act(obs["observation"], obs["action_mask"], env.agent_selection)] == 1
    stranger = _midgame("mythic_baths", {}, 8, 17)
    o2 = stranger.observe(stranger.agent_selection)
    with pytest.raises(RuntimeError, match="not its env's"):
        p.act(o2["observation"], o2["action_mask"], env.agent_selection)


@pytest.mark.parametrize("ref", ["mcts:3", "rollouts:2:heuristic"])
def test_search_policies_refuse_a_seat_not_to_move_and_a_finished_game(ref: str) -> None:
    """Both search policies decide from their live env (``policies.base.live_env_agent``): asked for
    another seat than the one to move, or after the game ended, they raise instead of guessing."""
    env = _midgame("mythic_baths", {}, 3, 6)
    p = load_policy(ref, env, seed=0)
    obs = env.observe(env.agent_selection)
    other = next(a for a in env.agents if a != env.agent_selection)
    with pytest.raises(RuntimeError, match=f"asked for '{other}', but '{env.agent_selection}' is to move"):
        p.act(obs["observation"], obs["action_mask"], other)
    while env.agents:
        env.step(None if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]
                 else int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(RuntimeError, match="no game under way"):
        p.act(obs["observation"], obs["action_mask"], None)


def test_search_beats_random_in_mythsgate_as_the_invoker() -> None:
    """A clear margin with a tiny budget: random invokers win 17% of 60 games against random heroes,
    the search's (8 simulations) at least 4 of 5."""
    env = make("mythsgate", num_heroes=2)
    wins = 0
    for g in range(5):
        rec = play_one(env, [make_baseline("mcts:8", env, seed=g), make_baseline("random", env, seed=g), make_baseline("random", env, seed=g + 50)],
                       GameRecord(env.unwrapped.env_name, {}, 3, 100 + g, ["x"] * 3, [None] * 3, digests=None))
        wins += rec.final_rewards[0] > 0
    assert wins >= 4, wins


# --------------------------------------------------------------------------- tools
def test_tournament_command_takes_search_names(capsys: pytest.CaptureFixture[str]) -> None:
    from mythzoo.training import eval_cli

    assert eval_cli.main(["eval", "mythic_baths", "mcts:2", "random", "--games", "2", "--players", "2"]) == 0
    assert "mcts:2" in capsys.readouterr().out
    assert eval_cli.main(["eval", "mythsgate", "invoker:ismcts:2", "hero:random", "--games", "1"]) == 0
    capsys.readouterr()
    for bad in ("mcts:abc", "mcts:0", "mcts:5:nope"):
        assert eval_cli.main(["eval", "mythic_baths", bad, "random", "--games", "2"]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("mythzoo eval: error: cannot load policy: bad search policy") and bad in err and len(err.splitlines()) == 1, err


def test_play_against_the_search(tmp_path: Path) -> None:
    from mythzoo.training import play_cli

    out = io.StringIO()
    lines = iter(["1"] * 3 + ["q"])
    rc = play_cli.main(["play", "mythic_baths", "--vs", "mcts:2", "--seed", "4", "--save", str(tmp_path / "game.json")], input_fn=lambda prompt: next(lines), out=out)
    assert rc == 0 and "(mcts:2) plays" in out.getvalue()
    assert (tmp_path / "game.json").exists()  # a quit game is saved, and never into the working directory


def test_search_is_a_self_play_opponent() -> None:
    pytest.importorskip("stable_baselines3", reason="self-play needs the train extra")
    from mythzoo.training.config import from_dict
    from mythzoo.training.selfplay import OpponentPool, SelfPlayVecEnv

    assert from_dict({"baselines": ["random", "mcts:5", "ismcts:5:heuristic"]}).baselines[1] == "mcts:5"
    for bad in ("mcts:abc", "mcts:0", "mcts:5:nope", "nope"):
        with pytest.raises(ValueError, match="config baselines"):
            from_dict({"baselines": [bad]})
    probe = make("mythic_baths", num_players=2)
    search = make_baseline("mcts:2", probe, seed=0)
    calls = []
    inner = search.act_in_env
    search.act_in_env = lambda env, agent: calls.append(agent) or inner(env, agent)
    pool = OpponentPool({"baselines": 1.0})
    pool.add("baselines", "baseline:mcts:2", search)
    vec = SelfPlayVecEnv("mythic_baths", {"num_players": 2}, 3, pool, seed=0)
    vec.reset()
    for _ in range(10):
        vec.step_async(vec.action_masks().argmax(axis=1))
        vec.step_wait()
    assert calls
