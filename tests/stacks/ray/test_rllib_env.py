"""The RLlib MultiAgentEnv (mythzoo.adapters.rllib) on every game: RLlib's own env checker, turns,
rewards reaching every agent, done flags, seeding, illegal actions. No Ray cluster needed."""

from __future__ import annotations

import numpy as np
import pytest
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from mythzoo.adapters.rllib import MythzooMultiAgentEnv, agent_roles
from mythzoo.envs import GAMES, spec
from mythzoo.envs.core.errors import IllegalActionError

# Every game at its default size, plus other table sizes and shaped reward modes (rewards mid-game).
CASES = [
    {"env": "mythic_baths"},
    {"env": "mythic_baths", "num_players": 4, "reward_mode": "dense"},
    {"env": "mythsgate"},
    {"env": "mythsgate", "num_heroes": 3},
    {"env": "mythsgate", "num_heroes": 1, "max_rounds": 1},  # ends by the round cap: truncated
    {"env": "mythwind_innkeeper"},
    {"env": "mythwind_innkeeper", "reward_mode": "terminal"},
]
IDS = ["-".join(f"{v}" for k, v in c.items()) for c in CASES]


def test_cases_cover_every_kind_of_game() -> None:
    assert {spec(c["env"]).kind for c in CASES} == {"symmetric", "roles", "solo"}
    assert {c["env"] for c in CASES} == {s.name for s in GAMES}


@pytest.mark.parametrize("config", CASES, ids=IDS)
def test_rllib_env_checker_passes(config: dict) -> None:
    for seed in range(3):
        env = MythzooMultiAgentEnv({**config, "seed": seed})
        check_multiagent_environments(env)


def play(config: dict, seed: int, rng: np.random.Generator):
    """Random legal play through the adapter: every step's dicts, and the actions taken."""
    env = MythzooMultiAgentEnv(config)
    obs, infos = env.reset(seed=seed)
    steps, actions = [], []
    while True:
        assert len(obs) == 1, "only the agent to move observes mid-game"
        (agent, o), = obs.items()
        assert env.observation_spaces[agent].contains(o)
        assert o["action_mask"].dtype == np.int8 and o["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        actions.append(action)
        obs, rewards, terms, truncs, infos = env.step({agent: action})
        steps.append((agent, obs, rewards, terms, truncs, infos))
        if terms["__all__"] or truncs["__all__"]:
            return env, steps, actions


@pytest.mark.parametrize("config", CASES, ids=IDS)
def test_turns_rewards_and_done_flags_agree_with_the_aec_env(config: dict) -> None:
    """The same seeded game played through the adapter and through the AEC loop: the same agents
    move, every agent's rewards (also those earned while others moved) add up to its AEC return,
    and the end is flagged as the AEC env flags it, with a final observation for every agent."""
    rng = np.random.default_rng(0)
    game = spec(config["env"])
    kwargs = {k: v for k, v in config.items() if k != "env"}
    for seed in range(4):
        env, steps, actions = play(config, seed, rng)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for _, _, rewards, _, _, _ in steps:
            assert set(rewards) == set(env.possible_agents)
            for a, r in rewards.items():
                totals[a] += r
        aec = game.make(**game.size_kwargs(None, kwargs))
        aec.reset(seed=seed)
        returns = dict.fromkeys(aec.possible_agents, 0.0)
        movers, ends = [], set()
        for agent in aec.agent_iter():
            _, reward, term, trunc, _ = aec.last()
            returns[agent] += reward
            if term or trunc:
                ends.add((bool(term), bool(trunc)))
                aec.step(None)
                continue
            movers.append(agent)
            aec.step(actions[len(movers) - 1])
        assert movers == [s[0] for s in steps]
        assert totals == pytest.approx(returns)
        *middle, (_, obs, _, terms, truncs, _) = steps
        assert all(not t["__all__"] and not u["__all__"] for _, _, _, t, u, _ in middle)
        assert set(obs) == set(env.possible_agents)
        (aec_term, aec_trunc), = ends
        truncated = aec_trunc and not aec_term
        assert truncs["__all__"] is truncated and terms["__all__"] is (not truncated)
        assert all(truncs[a] is truncated and terms[a] is (not truncated) for a in env.possible_agents)


def test_round_cap_case_really_truncates() -> None:
    _, steps, _ = play({"env": "mythsgate", "num_heroes": 1, "max_rounds": 1}, 0, np.random.default_rng(1))
    assert steps[-1][4]["__all__"] and not steps[-1][3]["__all__"]


@pytest.mark.parametrize("config", CASES[:1] + CASES[2:3] + CASES[5:6], ids=["mythic_baths", "mythsgate", "mythwind_innkeeper"])
def test_seeded_games_repeat_and_differ(config: dict) -> None:
    def first_games(seed: int | None, games: int = 3) -> list[bytes]:
        env = MythzooMultiAgentEnv({**config, "seed": seed})
        out = []
        for _ in range(games):
            obs, _ = env.reset()
            out.append(next(iter(obs.values()))["observations"].tobytes())
        return out

    a, b = first_games(7), first_games(7)
    assert a == b
    assert len(set(a)) > 1 or config["env"] == "mythwind_innkeeper"  # each reset is a new game
    env = MythzooMultiAgentEnv(config)
    o1, _ = env.reset(seed=3)
    o2, _ = env.reset(seed=3)
    assert next(iter(o1.values()))["observations"].tobytes() == next(iter(o2.values()))["observations"].tobytes()


def test_spaces_and_roles_follow_the_spec() -> None:
    env = MythzooMultiAgentEnv({"env": "mythsgate", "num_heroes": 2})
    assert env.possible_agents == ["invoker", "hero_0", "hero_1"]
    assert env.action_spaces["invoker"].n != env.action_spaces["hero_0"].n
    for a in env.possible_agents:
        assert env.observation_spaces[a]["action_mask"].shape == (env.action_spaces[a].n,)
    assert agent_roles("mythsgate", num_heroes=2) == {"invoker": "invoker", "hero_0": "hero", "hero_1": "hero"}
    assert set(agent_roles("mythic_baths", num_players=3).values()) == {"player"}


def illegal_action(env: MythzooMultiAgentEnv, obs: dict) -> tuple[str, int]:
    (agent, o), = obs.items()
    return agent, int(np.flatnonzero(o["action_mask"] == 0)[0])


def test_an_illegal_action_ends_the_game_and_is_reported() -> None:
    env = MythzooMultiAgentEnv({"env": "mythic_baths"})
    obs, _ = env.reset(seed=0)
    agent, bad = illegal_action(env, obs)
    obs, rewards, terms, truncs, infos = env.step({agent: bad})
    assert terms["__all__"] and not truncs["__all__"]
    assert rewards[agent] == -1.0
    assert infos[agent]["illegal_action"] == bad
    assert env.illegal_actions == 1


def test_strict_env_raises_on_an_illegal_action() -> None:
    env = MythzooMultiAgentEnv({"env": "mythsgate", "strict": True})
    obs, _ = env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(dict([illegal_action(env, obs)]))


def test_bad_input_is_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="needs 'env'"):
        MythzooMultiAgentEnv({})
    with pytest.raises(ValueError, match="num_players=9"):
        MythzooMultiAgentEnv({"env": "mythic_baths", "num_players": 9})
    with pytest.raises(KeyError, match="unknown env 'nope'"):
        MythzooMultiAgentEnv({"env": "nope"})
    env = MythzooMultiAgentEnv({"env": "mythic_baths"})
    obs, _ = env.reset(seed=0)
    (agent, _), = obs.items()
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match="agent to move"):
        env.step({other: 0})


def test_without_rllib_the_import_names_the_extra() -> None:
    import subprocess
    import sys

    code = "import sys\nsys.modules['ray'] = None\nimport mythzoo.adapters.rllib\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: mythzoo.adapters.rllib needs RLlib") and "pip install mythzoo[rllib]" in last


def test_each_env_runner_plays_its_own_games() -> None:
    from ray.rllib.env.env_context import EnvContext

    def first_obs(worker_index: int, vector_index: int = 0) -> bytes:
        env = MythzooMultiAgentEnv(EnvContext({"env": "mythic_baths", "seed": 5}, worker_index=worker_index, vector_index=vector_index))
        obs, _ = env.reset()
        return next(iter(obs.values()))["observations"].tobytes()

    assert first_obs(1) == first_obs(1)
    assert len({first_obs(0), first_obs(1), first_obs(2), first_obs(1, 1)}) == 4


def test_module_spec_has_each_roles_spaces() -> None:
    from mythzoo.adapters.rllib import module_spec

    env = MythzooMultiAgentEnv({"env": "mythsgate", "num_heroes": 2})
    for role, agent in (("invoker", "invoker"), ("hero", "hero_1")):
        s = module_spec("mythsgate", role, num_heroes=2)
        assert s.observation_space == env.observation_spaces[agent] and s.action_space == env.action_spaces[agent]
    assert module_spec("mythic_baths").action_space.n == MythzooMultiAgentEnv({"env": "mythic_baths"}).action_spaces["player_0"].n
    with pytest.raises(ValueError, match="no role 'villain'"):
        module_spec("mythsgate", "villain")


@pytest.mark.parametrize("config", CASES[:1] + CASES[2:3] + CASES[5:6], ids=["mythic_baths", "mythsgate", "mythwind_innkeeper"])
def test_observations_handed_out_never_change_afterwards(config: dict) -> None:
    """The adapter passes the env's arrays on without copying (RLlib keeps them in its episodes):
    none may change as the game goes on."""
    env = MythzooMultiAgentEnv(config)
    rng = np.random.default_rng(0)
    kept = []
    for seed in range(2):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            (agent, o), = obs.items()
            kept.append((o, {k: v.copy() for k, v in o.items()}))
            obs, _, terms, truncs, _ = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
            done = terms["__all__"] or truncs["__all__"]
        kept += [(o, {k: v.copy() for k, v in o.items()}) for o in obs.values()]
    assert len(kept) > 20
    assert all(np.array_equal(o[k], copy[k]) for o, copy in kept for k in o)
